//! sm_90's bit-field and warp-match instructions (`MATCH`, `BREV`, `SGXT`, `BMSK`), with the
//! semantics ptxas 13 relies on when it expands `match.any.sync`, `brev`, `bfe` and `bfi`
//! (validated on ptxas's cubins by `tests/emu_ptxas.rs`).

use crate::exec::{lanes, Ctx};
use crate::sm90::each;
use crate::EmuError;

/// Handles the mnemonics above; `None` for any other.
pub fn alu(c: &mut Ctx, base: &str, uniform: bool) -> Result<Option<()>, EmuError> {
    if c.has("W") {
        return Err(c.unsupported(format!("{base}.W")));
    }
    match base {
        // `MATCH.ANY d, a`: each executing lane gets the executing lanes holding its value;
        // `MATCH.ALL p, d, a`: whether they all hold one value, and then their mask (else 0).
        "MATCH" => {
            let all = c.has("ALL");
            let src = if all { 2 } else { 1 };
            let wide = c.has("U64");
            let mut vals = [0u64; 32];
            for l in lanes(c.exec) {
                vals[l] = if wide { c.raw64(src, l)? } else { c.raw(src, l)? as u64 };
            }
            let first = vals[(c.exec.trailing_zeros() % 32) as usize];
            let same = lanes(c.exec).all(|l| vals[l] == first);
            for l in lanes(c.exec) {
                if all {
                    c.set_pred(0, l, same)?;
                    c.set(1, l, if same { c.exec } else { 0 })?;
                } else {
                    let m = lanes(c.exec).filter(|&k| vals[k] == vals[l]).fold(0u32, |m, k| m | 1 << k);
                    c.set(0, l, m)?;
                }
            }
        }
        "BREV" => each(c, uniform, |c, l| {
            let v = c.raw(1, l)?.reverse_bits();
            c.set(0, l, v)
        })?,
        // `SGXT[.U32] d, a, n`: the low n bits of a, sign- (zero-) extended; all of a for n >= 32
        // and 0 for n = 0 (ptxas's `bfe` with a field length of 0 gives 0 through it).
        "SGXT" => each(c, uniform, |c, l| {
            let (a, n) = (c.raw(1, l)?, c.raw(2, l)?);
            let v = match n {
                0 => 0,
                n if n >= 32 => a,
                n if c.has("U32") => a & ((1u32 << n) - 1),
                n => (((a << (32 - n)) as i32) >> (32 - n)) as u32,
            };
            c.set(0, l, v)
        })?,
        // `BMSK d, pos, len`: len one bits from bit pos (clamped at the register's top; none
        // from pos >= 32), the mask ptxas's `bfi` merges with.
        "BMSK" => each(c, uniform, |c, l| {
            let (pos, len) = (c.raw(1, l)? as u64, c.raw(2, l)?.min(32) as u64);
            let v = if pos >= 32 { 0 } else { (((1u64 << len) - 1) << pos) as u32 };
            c.set(0, l, v)
        })?,
        _ => return Ok(None),
    }
    Ok(Some(()))
}
