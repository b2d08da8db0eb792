//! sm_50 arithmetic, logic and conversions: the Maxwell forms (`IADD` with the condition code,
//! `XMAD` 16-bit multiply-add, `LOP`, `SHL`/`SHR`, 32-bit immediate forms, ...). Forms both
//! targets share (`LOP3`, `SEL`, `POPC`, `S2R`, `FADD`, ...) go to [`crate::sm90`]'s.

use crate::alu::bop;
use crate::exec::{lanes, Ctx};
use crate::kernel::SM50_SHARED_WINDOW;
use crate::sm90::{self, pick};
use crate::warp::Cc;
use crate::EmuError;
use atomc_emit::sass::{ExtSpec, OpSpec, Operand};

fn each(c: &mut Ctx, f: impl Fn(&mut Ctx, usize) -> Result<(), EmuError>) -> Result<(), EmuError> {
    for lane in lanes(c.exec) {
        f(c, lane)?;
    }
    Ok(())
}

/// Whether the instruction writes the condition code: a `.CC` destination (slot 0, or slot 1
/// after a predicate result as in `LEA P0, R4.CC, ...`).
fn writes_cc(c: &Ctx) -> bool {
    c.has("CC")
        || c.form
            .ops
            .iter()
            .enumerate()
            .any(|(k, o)| matches!(o, OpSpec::Ext(ExtSpec::Suffixed { suffix: ".CC", .. })) && c.suffix(k))
}

/// The slot of the register result: 1 when a predicate result comes first (sm_50 `LOP` and
/// `LEA` print `P0, Rd, ...`), else 0.
fn rd_slot(c: &Ctx) -> usize {
    matches!(c.form.ops.first(), Some(OpSpec::Pred(_))) as usize
}

/// Writes the condition code of a 33-bit sum when the destination carries `.CC`.
fn put_cc(c: &mut Ctx, l: usize, sum: u64) {
    if writes_cc(c) {
        let r = sum as u32;
        c.w.cc[l] = Cc { carry: (sum >> 32 & 3) as u8, zero: r == 0, sign: (r as i32) < 0, overflow: false };
    }
}

/// A source of an add: `-x` is `~x + 1`, or `~x` in an extended (`.X`) add, whose carry-in
/// supplies the one.
fn addend(c: &Ctx, k: usize, l: usize, x: bool) -> Result<u64, EmuError> {
    let v = c.raw(k, l)?;
    let (neg, _, not) = c.rmods(k);
    Ok(if not || (neg && x) {
        !v as u64
    } else if neg {
        !v as u64 + 1
    } else {
        v as u64
    })
}

/// Handles sm_50's non-memory, non-control instructions; `None` for an unknown mnemonic.
pub fn alu(c: &mut Ctx, m: &str) -> Result<Option<()>, EmuError> {
    match m {
        "MOV" | "MOV32I" => each(c, |c, l| {
            let v = c.raw(1, l)?;
            c.set(0, l, v)
        })?,
        // `.PO` adds one (a + b + 1); `-a` / `-b` negate either source.
        "IADD" | "IADD32I" => each(c, |c, l| {
            if c.has("SAT") {
                return Err(c.unsupported("IADD.SAT"));
            }
            let x = c.has("X");
            let mut sum = addend(c, 1, l, x)? + addend(c, 2, l, x)?;
            if x {
                sum += c.w.cc[l].carry as u64;
            }
            if c.has("PO") {
                sum += 1;
            }
            put_cc(c, l, sum);
            c.set(0, l, sum as u32)
        })?,
        // `.RS`/`.LS` shift the (33-bit) sum of the first two sources by 16 before the third is
        // added: ptxas 11.8 forms the high word of a 32x32 product as
        // `IADD3.RS hi, a.hi*b.lo + (ll >> 16), a.lo*b.hi, a.hi*b.hi`.
        "IADD3" => each(c, |c, l| {
            let x = c.has("X");
            let mut ab = addend(c, 1, l, x)? + addend(c, 2, l, x)?;
            if c.has("RS") {
                ab >>= 16;
            } else if c.has("LS") {
                ab = (ab << 16) & 0xffff_ffff;
            }
            let mut sum = ab + addend(c, 3, l, x)?;
            if x {
                sum += c.w.cc[l].carry as u64;
            }
            put_cc(c, l, sum);
            c.set(0, l, sum as u32)
        })?,
        "ISCADD" | "ISCADD32I" => each(c, |c, l| {
            let s = c.raw(3, l)? & 31;
            let sum = ((addend(c, 1, l, false)? << s) & 0xffff_ffff) + addend(c, 2, l, false)?;
            put_cc(c, l, sum);
            c.set(0, l, sum as u32)
        })?,
        "SHL" => each(c, |c, l| {
            let (a, s) = (c.raw(1, l)?, c.raw(2, l)?);
            let s = if c.has("W") { s & 31 } else { s };
            c.set(0, l, if s >= 32 { 0 } else { a << s })
        })?,
        "SHR" => each(c, |c, l| {
            let (a, s) = (c.raw(1, l)?, c.raw(2, l)?);
            let s = if c.has("W") { s & 31 } else { s.min(32) };
            let r = if c.has("U32") {
                if s >= 32 {
                    0
                } else {
                    a >> s
                }
            } else {
                ((a as i32) >> s.min(31)) as u32
            };
            c.set(0, l, r)
        })?,
        // `LOP.op.test Pd, Rd, a, b`: Pd tests the result ([`lop_test`]).
        "LOP" | "LOP32I" => each(c, |c, l| {
            let d = rd_slot(c);
            if c.has("X") || writes_cc(c) {
                return Err(c.unsupported("LOP.X / LOP with .CC"));
            }
            let (a, b) = (c.int(d + 1, l)?, c.int(d + 2, l)?);
            let r = match pick(c, &["AND", "OR", "XOR", "PASS_B"]) {
                Some("AND") => a & b,
                Some("OR") => a | b,
                Some("XOR") => a ^ b,
                _ => b,
            };
            if d == 1 {
                c.set_pred(0, l, lop_test(c, r))?;
            }
            c.set(d, l, r)
        })?,
        // `LOP3.LUT.test Pd, Rd, ...` (register shape) tests its result as LOP does.
        "LOP3" => each(c, |c, l| {
            let d = rd_slot(c);
            let (a, b, x) = (c.raw(d + 1, l)?, c.raw(d + 2, l)?, c.raw(d + 3, l)?);
            let lut = c.raw(d + 4, l)? as u8;
            let r = crate::alu::lop3(a, b, x, lut);
            if d == 1 {
                c.set_pred(0, l, lop_test(c, r))?;
            }
            c.set(d, l, r)
        })?,
        // `PSETP.bop.bop2 Pd, Pq, Pa, Pb, Pc`: the two groups spell alike, so by position.
        "PSETP" => each(c, |c, l| {
            let (a, b, pc) = (c.pred(2, l)?, c.pred(3, l)?, c.pred(4, l)?);
            let (first, second) = (c.mods[0], c.mods[1]);
            let r = bop(first, a, b).ok_or_else(|| c.unsupported("PSETP operation"))?;
            let d = bop(second, r, pc).ok_or_else(|| c.unsupported("PSETP operation"))?;
            let q = bop(second, !r, pc).ok_or_else(|| c.unsupported("PSETP operation"))?;
            c.set_pred(0, l, d)?;
            c.set_pred(1, l, q)
        })?,
        "XMAD" => each(c, xmad)?,
        "ISETP" => each(c, isetp)?,
        "ISET" => each(c, iset)?,
        "DSET" => each(c, |c, l| set(c, l, true))?,
        "FSET" => each(c, |c, l| set(c, l, false))?,
        // `ICMP.cmp Rd, Ra, Rb, Rc`: Rc compared with zero picks Ra (true) or Rb.
        "ICMP" => each(c, |c, l| {
            let cmp = pick(c, &["F", "LT", "EQ", "LE", "GT", "NE", "GE", "T"]).unwrap_or("F");
            let x = c.raw(3, l)?;
            let t = crate::alu::icmp(cmp, x as u64, 0, !c.has("U32"), 32).unwrap_or(false);
            let v = if t { c.raw(1, l)? } else { c.raw(2, l)? };
            c.set(0, l, v)
        })?,
        // `.XHI` / `.XLO`: ptxas 11.8's 64-bit min/max, high words first into the condition
        // code, then the low words (unsigned) decided by it. The code records what the pair
        // needs (zero: the high words were equal; carry: the first source was picked), not
        // the hardware's flag bits, which no evidence here shows.
        "IMNMX" => each(c, |c, l| {
            let (a, b) = (c.raw(1, l)?, c.raw(2, l)?);
            let min = c.pred(3, l)?;
            let lt = if c.has("U32") || c.has("XLO") { a < b } else { (a as i32) < (b as i32) };
            let take_a = match c.w.cc[l] {
                cc if c.has("XLO") && !cc.zero => cc.carry == 1,
                _ => lt == min,
            };
            if writes_cc(c) {
                c.w.cc[l] = Cc { carry: take_a as u8, zero: a == b, sign: false, overflow: false };
            }
            c.set(0, l, if take_a { a } else { b })
        })?,
        // `.BREV` reverses the source's bits before the extract (ptxas 11.8 writes `brev.b32`
        // as `BFE.U32.BREV Rd, Ra, 0x2000`).
        "BFE" => each(c, |c, l| {
            let a = c.raw(1, l)?;
            let a = if c.has("BREV") { a.reverse_bits() } else { a };
            let ctl = c.raw(2, l)?;
            let (pos, len) = (ctl & 0xff, (ctl >> 8) & 0xff);
            let signed = !c.has("U32");
            let r = if len == 0 {
                0
            } else {
                let v = if pos >= 32 {
                    if signed && (a as i32) < 0 {
                        u32::MAX
                    } else {
                        0
                    }
                } else if signed {
                    ((a as i32) >> pos) as u32
                } else {
                    a >> pos
                };
                if len >= 32 {
                    v
                } else {
                    let x = v & ((1u32 << len) - 1);
                    if signed && (v >> (len - 1)) & 1 != 0 {
                        x | !((1u32 << len) - 1)
                    } else {
                        x
                    }
                }
            };
            c.set(0, l, r)
        })?,
        "BFI" => each(c, |c, l| {
            let (a, ctl, b) = (c.raw(1, l)?, c.raw(2, l)?, c.raw(3, l)?);
            let (pos, len) = (ctl & 0xff, (ctl >> 8) & 0xff);
            let mask = if len >= 32 { u32::MAX } else { (1u32 << len) - 1 };
            let r = if pos >= 32 { b } else { (b & !(mask << pos)) | ((a & mask) << pos) };
            c.set(0, l, r)
        })?,
        "I2I" => each(c, i2i)?,
        "LEA" => each(c, |c, l| {
            let d = rd_slot(c);
            let pd = d == 1 && !matches!(c.op(0)?, Operand::Pred(p) if p.num == 7);
            if pd && !c.has("HI") {
                return Err(c.unsupported("LEA predicate result"));
            }
            if c.has("HI") {
                // LEA.HI{.X} {Pd,} Rd, Ra, b, Rc{, s}: the high word of {Rc, Ra} << s, plus b and
                // the carry.
                let (a, b, hi) = (c.raw(d + 1, l)?, c.raw(d + 2, l)? as u64, c.raw(d + 3, l)?);
                let s = if c.ins.ops.len() > d + 4 { c.raw(d + 4, l)? & 31 } else { 0 };
                let v = ((hi as u64) << 32 | a as u64) << s;
                let carry = if c.has("X") { c.w.cc[l].carry as u64 } else { 0 };
                let sum = (v >> 32 & 0xffff_ffff) + b + carry;
                put_cc(c, l, sum);
                if pd {
                    // ptxas 11.8 tests a generic address so: `LEA RZ.CC, R2, RZ; LEA.HI.X P0,
                    // RZ, R2, RZ, R3; @!P0 BRA` to `LOP32I.AND R2, R2, 0xffffff; ATOMS.ADD`, else
                    // `ATOM.E.ADD [R2]` (bench/generic_atomics.atom): P0 says the address is
                    // outside the shared window. Only the high word is at hand here; the
                    // emulator's window lies below 4 GiB and every global buffer above, so a
                    // non-zero high word is outside. What the hardware compares is not shown.
                    c.set_pred(0, l, (sum as u32) != (SM50_SHARED_WINDOW as u64 >> 32) as u32)?;
                }
                c.set(d, l, sum as u32)
            } else {
                // `LEA{.X} {Pd,} Rd{.CC}, -a, b{, s}`: (a << s) + b (+ the carry with .X).
                let x = c.has("X");
                let s = if c.ins.ops.len() > d + 3 { c.raw(d + 3, l)? & 31 } else { 0 };
                let a = addend(c, d + 1, l, x)? & 0xffff_ffff;
                let b = c.raw(d + 2, l)? as u64;
                let carry = if x { c.w.cc[l].carry as u64 } else { 0 };
                let sum = ((a << s) & 0xffff_ffff) + b + carry;
                put_cc(c, l, sum);
                c.set(d, l, sum as u32)
            }
        })?,
        "DMNMX" => each(c, |c, l| {
            let (a, b) = (c.f64(1, l)?, c.f64(2, l)?);
            let min = c.pred(3, l)?;
            let r = match (a.is_nan(), b.is_nan()) {
                (true, true) => f64::NAN,
                (true, false) => b,
                (false, true) => a,
                _ if a == b => {
                    if a.is_sign_negative() == min {
                        a
                    } else {
                        b
                    }
                }
                _ => {
                    if (a < b) == min {
                        a
                    } else {
                        b
                    }
                }
            };
            c.set_wide(0, l, crate::alu::f64_out(r) as u128, 2)
        })?,
        // Maxwell's funnel shift gives the word the direction implies: `SHF.L` the high word of
        // `{Rc, Ra} << b`, `SHF.R` the low word of `{Rc, Ra} >> b`, where sm_70+ asks for the
        // high word with `.HI`. ptxas 11.8 (sm_50) on `shl.b64 %rd4, %rd3, %r3` writes `SHF.L.U64
        // R9, R4, R13, R5` + `SHL R8, R4, R13` (the pair R8:R9), on `shr.s64` `SHF.R.S64 R4, R4,
        // R13, R5` + `SHR R5, R5, R13`, and on `shf.l.clamp.b32` (PTX: the high word) `SHF.L
        // R12, R6, R13, R7`. No ptxas 11.8 code seen writes `.HI` on sm_50: refused here.
        "SHF" => {
            if c.has("HI") {
                return Err(c.unsupported("SHF.HI on sm_50"));
            }
            sm90::each(c, false, |c, l| {
                let (lo, s, hi) = (c.raw(1, l)?, c.raw(2, l)?, c.raw(3, l)?);
                let wide = c.has("U64") || c.has("S64");
                let left = c.has("L");
                let r = crate::alu::shf(lo, hi, s, left, c.has("S64"), wide, c.has("W"), left);
                c.set(0, l, r)
            })?
        }
        "SHFL" => return sm90::alu(c, "SHFL"),
        _ => return sm90::alu(c, m),
    }
    Ok(Some(()))
}

/// `XMAD d, a[.H1], b[.H1], c`: a 16×16-bit unsigned product plus c. `.PSL` shifts the product
/// left 16, `.CBCC` adds `b << 16` to c, `.CLO`/`.CHI` take c's low or high half, `.MRG` puts
/// b's low half into the result's high half (maxas's description, which the 32-bit product
/// sequence `XMAD; XMAD.MRG; XMAD.PSL.CBCC` of ptxas 11.8 depends on).
fn xmad(c: &mut Ctx, l: usize) -> Result<(), EmuError> {
    if c.has("CSFU") {
        return Err(c.unsupported("XMAD variant"));
    }
    // `.S16.U16` / `.U16.S16` / `.S16.S16`: which 16-bit factor is signed.
    let sign = c
        .form
        .mods
        .iter()
        .zip(&c.ins.mods)
        .find(|(g, _)| g.name == "sign")
        .and_then(|(g, &v)| g.spelling(v))
        .unwrap_or("");
    let (a_signed, b_signed) = (sign.starts_with("S16"), sign.ends_with(".S16"));
    let half = |c: &Ctx, k: usize, signed: bool| -> Result<u32, EmuError> {
        let v = c.raw(k, l)?;
        let h = if c.suffix(k) { v >> 16 } else { v & 0xffff };
        Ok(if signed { h as u16 as i16 as i32 as u32 } else { h })
    };
    let a = half(c, 1, a_signed)?;
    let b = match c.op(2)? {
        Operand::Imm(_) => {
            let v = c.raw(2, l)? & 0xffff;
            if b_signed {
                v as u16 as i16 as i32 as u32
            } else {
                v
            }
        }
        _ => half(c, 2, b_signed)?,
    };
    let breg = c.raw(2, l)?;
    let mut p = a.wrapping_mul(b);
    if c.has("PSL") {
        p <<= 16;
    }
    let mut x = c.raw(3, l)?;
    if c.has("CLO") {
        x &= 0xffff;
    } else if c.has("CHI") {
        x >>= 16;
    } else if c.has("CBCC") {
        x = x.wrapping_add(breg << 16);
    }
    let mut sum = p as u64 + x as u64;
    if c.has("X") {
        sum += c.w.cc[l].carry as u64;
    }
    put_cc(c, l, sum);
    let mut r = sum as u32;
    if c.has("MRG") {
        r = (r & 0xffff) | (breg << 16);
    }
    c.set(0, l, r)
}

/// `ISETP.cmp[.U32][.X].bop p0, p1, a, b, pc`; `.X` extends a compare of low words whose
/// `a - b` set the condition code (`IADD RZ.CC, lo_a, -lo_b`).
fn isetp(c: &mut Ctx, l: usize) -> Result<(), EmuError> {
    let (r, bo, pc) = int_compare(c, l, 2)?;
    c.set_pred(0, l, crate::alu::bop(bo, r, pc).unwrap_or(false))?;
    c.set_pred(1, l, crate::alu::bop(bo, !r, pc).unwrap_or(false))
}

/// `ISET{.BF}.cmp[.U32][.X].bop Rd, a, b, pc`: ISETP's test written as 0xffffffff / 0, or
/// 1.0 / 0.0 with `.BF`.
fn iset(c: &mut Ctx, l: usize) -> Result<(), EmuError> {
    if writes_cc(c) {
        return Err(c.unsupported("ISET with .CC"));
    }
    let (r, bo, pc) = int_compare(c, l, 1)?;
    let t = crate::alu::bop(bo, r, pc).unwrap_or(false);
    let v = match (t, c.has("BF")) {
        (false, _) => 0,
        (true, true) => 1.0f32.to_bits(),
        (true, false) => u32::MAX,
    };
    c.set(0, l, v)
}

/// `DSET{.BF}.cmp.bop Rd, a, b, pc`: DSETP's test written as 0xffffffff / 0, or 1.0 / 0.0 with
/// `.BF`.
/// `DSET` / `FSET{.BF}.cmp{.FTZ}.bop Rd, a, b, Pc`: the compare combined with `Pc`, written as
/// all ones (or 1.0 with `.BF`) for true, 0 for false.
fn set(c: &mut Ctx, l: usize, double: bool) -> Result<(), EmuError> {
    if writes_cc(c) {
        return Err(c.unsupported("FSET/DSET with .CC"));
    }
    let cmp = pick(c, sm90::FCMPS).unwrap_or("F");
    let bo = pick(c, &["AND", "OR", "XOR"]).unwrap_or("AND");
    let (a, b) = if double {
        (c.f64(1, l)?, c.f64(2, l)?)
    } else {
        let f = |x: f32| if c.has("FTZ") { crate::alu::ftz32(x) } else { x };
        (f(c.f32(1, l)?) as f64, f(c.f32(2, l)?) as f64)
    };
    let r = crate::alu::fcmp(cmp, a, b).ok_or_else(|| c.unsupported("compare"))?;
    let t = crate::alu::bop(bo, r, c.pred(3, l)?).unwrap_or(false);
    let v = match (t, c.has("BF")) {
        (false, _) => 0,
        (true, true) => 1.0f32.to_bits(),
        (true, false) => u32::MAX,
    };
    c.set(0, l, v)
}

/// The compare of `ISETP` / `ISET` on sources `k`, `k + 1` (predicate `k + 2`): the result
/// before the boolean op, the op, and the predicate it combines with.
fn int_compare(c: &Ctx, l: usize, k: usize) -> Result<(bool, &'static str, bool), EmuError> {
    let cmp = pick(c, &["F", "LT", "EQ", "LE", "GT", "NE", "GE", "T"]).unwrap_or("F");
    let bo = pick(c, &["AND", "OR", "XOR"]).unwrap_or("AND");
    let signed = !c.has("U32");
    let (a, b) = (c.raw(k, l)?, c.raw(k + 1, l)?);
    let pc = c.pred(k + 2, l)?;
    let r = if c.has("X") {
        let cc = c.w.cc[l];
        let hi = crate::alu::icmp(cmp, a as u64, b as u64, signed, 32).unwrap_or(false);
        if a != b {
            hi
        } else {
            // Equal high words: the low words decide (carry = no borrow, zero = equal).
            let (lt, eq) = (cc.carry == 0, cc.zero);
            match cmp {
                "LT" => lt,
                "LE" => lt || eq,
                "GT" => !lt && !eq,
                "GE" => !lt,
                "EQ" => eq,
                "NE" => !eq,
                "T" => true,
                _ => false,
            }
        }
    } else {
        crate::alu::icmp(cmp, a as u64, b as u64, signed, 32).unwrap_or(false)
    };
    Ok((r, bo, pc))
}

/// `I2I.dst.src{.SAT} Rd, -|b|`: the source sign- or zero-extended from its size, `|x|` and
/// `-x` applied, then clamped to the result type (`.SAT`) or wrapped to its size, and the
/// result sign- or zero-extended to 32 bits.
fn i2i(c: &mut Ctx, l: usize) -> Result<(), EmuError> {
    if writes_cc(c) {
        return Err(c.unsupported("I2I with .CC"));
    }
    let (d, s) = conv_types(c).ok_or_else(|| c.unsupported("conversion types"))?;
    let bits = |t: &str| t[1..].parse::<u32>().ok().filter(|b| [8, 16, 32].contains(b));
    let (Some(db), Some(sb)) = (bits(d), bits(s)) else {
        return Err(c.unsupported("I2I types"));
    };
    let raw = c.raw(1, l)? as u64;
    let ext = |v: u64, b: u32, signed: bool| -> i64 {
        let v = v & ((1u64 << b) - 1);
        if signed && v >> (b - 1) & 1 != 0 {
            v as i64 - (1i64 << b)
        } else {
            v as i64
        }
    };
    let mut v = ext(raw, sb, s.starts_with('S'));
    let (neg, abs, _) = c.rmods(1);
    if abs {
        v = v.abs();
    }
    if neg {
        v = -v;
    }
    let dsigned = d.starts_with('S');
    if c.has("SAT") {
        let (lo, hi) = if dsigned { (-(1i64 << (db - 1)), (1i64 << (db - 1)) - 1) } else { (0, (1i64 << db) - 1) };
        v = v.clamp(lo, hi);
    }
    let out = ext(v as u64, db, dsigned);
    c.set(0, l, out as u32)
}

/// The numeric types a conversion's modifiers name: (result, source). nvdisasm leaves out the
/// default types: `I2F.F64` converts from S32, `F2I.NTZ` from F32 to S32, `I2F.RP` S32 to F32.
fn conv_types(c: &Ctx) -> Option<(&'static str, &'static str)> {
    let ts: Vec<&'static str> = c
        .mods
        .iter()
        .copied()
        .filter(|m| m.len() >= 2 && m.starts_with(['F', 'S', 'U']) && m[1..].bytes().all(|b| b.is_ascii_digit()))
        .collect();
    let float = ts.iter().copied().find(|t| t.starts_with('F'));
    let int = ts.iter().copied().find(|t| !t.starts_with('F'));
    match (c.form.mnemonic, ts.as_slice()) {
        ("I2F", _) => Some((float.unwrap_or("F32"), int.unwrap_or("S32"))),
        ("F2I", _) => Some((int.unwrap_or("S32"), float.unwrap_or("F32"))),
        (_, [d, s]) => Some((d, s)),
        (_, [s]) => Some((s, s)),
        _ => None,
    }
}

/// `F2F`, `I2F`, `F2I`, `I2I` between the types their modifiers name; round to nearest (float
/// results), toward zero (integer results), saturating; NaN to 0 or the top bit (below).
pub fn convert(c: &mut Ctx, l: usize) -> Result<(), EmuError> {
    // `.RM` / `.RP` only on sm_50's f64 and f16 to f32 (ptxas 11.8 rounds to odd through them).
    let directed = c.form.mnemonic == "F2F" && c.has("F32") && (c.has("F64") || c.has("F16")) && !c.has("SAT");
    if c.mods.iter().any(|m| matches!(*m, "FLOOR" | "CEIL" | "SAT" | "PASS") || (matches!(*m, "RM" | "RP") && !directed)) {
        return Err(c.unsupported("conversion rounding mode"));
    }
    if writes_cc(c) {
        return Err(c.unsupported("conversion with .CC"));
    }
    let (d, s) = conv_types(c).ok_or_else(|| c.unsupported("conversion types"))?;
    // `.RZ` (sm_50 I2F / F2F) toward zero: only where it can matter, to F32.
    let rz = c.form.mnemonic != "F2I" && c.has("RZ");
    if rz && d != "F32" && !(d == "F64" && !s.ends_with("64")) {
        return Err(c.unsupported("conversion rounding mode"));
    }
    let (neg, abs, _) = c.rmods(1);
    if (neg || abs) && !s.starts_with('F') && s.ends_with("64") {
        return Err(c.unsupported("negated 64-bit integer conversion source"));
    }
    let wide_src = s.ends_with("64");
    let raw = if wide_src { c.raw64(1, l)? } else { c.raw(1, l)? as u64 };
    // sm_50 `F2F.F32.F16 Rd, Rb.H1` converts the high half.
    let raw = if c.suffix(1) { raw >> 16 } else { raw };
    // The source as f64 (exact for every source type but 64-bit integers).
    let x: f64 = match s {
        "F16" => crate::alu::h2f(raw as u16) as f64,
        "F32" => f32::from_bits(raw as u32) as f64,
        "F64" => f64::from_bits(raw),
        "U8" => (raw & 0xff) as f64,
        "S8" => (raw as u8 as i8) as f64,
        "U16" => (raw & 0xffff) as f64,
        "S16" => (raw as u16 as i16) as f64,
        "U32" => (raw as u32) as f64,
        "S32" => (raw as u32 as i32) as f64,
        "U64" => raw as f64,
        "S64" => raw as i64 as f64,
        _ => return Err(c.unsupported("conversion source type")),
    };
    let x = if abs { x.abs() } else { x };
    let x = if neg { -x } else { x };
    let int_src = !s.starts_with('F');
    let out: u64 = match d {
        "F16" if s == "F64" => crate::alu::f2h(odd_f32(x)) as u64,
        // A 64-bit integer rounds once to f32 (`x` may already be rounded); an f32 holds every
        // integer below f16's overflow (65520) exactly, so rounding on to f16 is one rounding.
        "F16" => crate::alu::f2h(match s {
            "U64" => raw as f32,
            "S64" => raw as i64 as f32,
            _ => x as f32,
        }) as u64,
        "F32" => {
            let v = match s {
                "U64" => raw as f32,
                "S64" => raw as i64 as f32,
                _ => x as f32,
            };
            // Toward zero: one step back when rounding went away from zero.
            // (A finite source beyond f32's range rounds to the largest finite f32.)
            let v = if rz && !v.is_nan() && x.is_finite() && (v as f64).abs() > x.abs() {
                f32::from_bits(v.to_bits() - 1)
            } else {
                v
            };
            // Toward +inf / -inf: one step up or down when rounding went the other way.
            let v = match (c.has("RP"), c.has("RM")) {
                (true, _) if (v as f64) < x => next_f32(v, true),
                (_, true) if (v as f64) > x => next_f32(v, false),
                _ => v,
            };
            crate::alu::f32_out(v) as u64
        }
        "F64" => crate::alu::f64_out(x),
        _ => {
            let t = x.trunc();
            let (lo, hi, bits): (f64, f64, u32) = match d {
                "U8" => (0.0, 255.0, 8),
                "S8" => (-128.0, 127.0, 8),
                "U16" => (0.0, 65535.0, 16),
                "S16" => (-32768.0, 32767.0, 16),
                "U32" => (0.0, u32::MAX as f64, 32),
                "S32" => (i32::MIN as f64, i32::MAX as f64, 32),
                "U64" => (0.0, u64::MAX as f64, 64),
                "S64" => (i64::MIN as f64, i64::MAX as f64, 64),
                _ => return Err(c.unsupported("conversion result type")),
            };
            if int_src {
                // Integer to integer: sign- or zero-extend the source, then wrap.
                let v = if s.starts_with('S') { x as i64 as u64 } else { raw };
                if bits >= 64 {
                    v
                } else {
                    let v = v & ((1u64 << bits) - 1);
                    if d.starts_with('S') && v >> (bits - 1) & 1 != 0 {
                        v | !((1u64 << bits) - 1)
                    } else {
                        v
                    }
                }
            } else if x.is_nan() {
                // NaN gives 0 only where neither the source is F64 nor the result 64 bits wide;
                // else the result's top bit alone (the range's low end for a signed result).
                // Seen on an H100 (docs/gpu-runs.md, run 9: `F2I.S64` of an f32 NaN wrote
                // 0x8000000000000000, `F2I.S8.F64` and `F2I.U8.F64` 0x80); PTX ISA 9.0's `cvt`
                // says the same.
                match (s == "F64" || bits == 64, d.starts_with('S')) {
                    (false, _) => 0,
                    (true, true) => lo as i64 as u64,
                    (true, false) => 1u64 << (bits - 1),
                }
            } else {
                let v = t.clamp(lo, hi);
                if d.starts_with('S') {
                    v as i64 as u64
                } else {
                    v as u64
                }
            }
        }
    };
    let n = if d.ends_with("64") { 2 } else { 1 };
    c.set_wide(0, l, out as u128, n)
}

/// `x` rounded to f32 toward zero with the last bit set when inexact (round to odd): rounding
/// that to f16 is rounding `x` to f16 once (24 >= 11 + 2), where `x as f32` would round twice.
fn odd_f32(x: f64) -> f32 {
    let t = x as f32;
    if !t.is_finite() || t as f64 == x {
        return t;
    }
    let t = if (t as f64).abs() > x.abs() { f32::from_bits(t.to_bits() - 1) } else { t };
    f32::from_bits(t.to_bits() | 1)
}

/// The f32 after `v` toward +inf (`up`) or -inf.
fn next_f32(v: f32, up: bool) -> f32 {
    if v.is_nan() || (v.is_infinite() && (v > 0.0) == up) {
        return v;
    }
    if v == 0.0 {
        let tiny = f32::from_bits(1);
        return if up { tiny } else { -tiny };
    }
    let b = v.to_bits();
    // Away from zero adds one to the magnitude, toward zero takes one off.
    f32::from_bits(if (v > 0.0) == up { b + 1 } else { b - 1 })
}

/// The predicate a logic instruction's `.test` writes: false, true (`.T`), a zero result
/// (`.Z`) or a nonzero one (`.NZ`).
fn lop_test(c: &Ctx, r: u32) -> bool {
    match pick(c, &["T", "Z", "NZ"]) {
        Some("T") => true,
        Some("Z") => r == 0,
        Some("NZ") => r != 0,
        _ => false,
    }
}
