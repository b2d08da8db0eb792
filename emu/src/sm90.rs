//! sm_90 arithmetic, logic, conversions, constant loads, special registers and the warp-wide
//! instructions (SHFL, VOTEU, REDUX). Uniform-datapath forms (`UIADD3`, `ULEA`, ...) share the
//! semantics of their vector namesakes and run once per warp on the uniform registers.

use crate::alu::*;
use crate::exec::{lanes, Ctx};
use crate::kernel::SM90_SWINHI;
use crate::EmuError;
use atomc_emit::sass::Operand;

pub(crate) fn each(c: &mut Ctx, uniform: bool, f: impl Fn(&mut Ctx, usize) -> Result<(), EmuError>) -> Result<(), EmuError> {
    if uniform {
        let lane = (c.group.trailing_zeros() % 32) as usize;
        f(c, lane)
    } else {
        for lane in lanes(c.exec) {
            f(c, lane)?;
        }
        Ok(())
    }
}

/// The one modifier of a group of alternatives present, if any.
pub fn pick<'a>(c: &Ctx, of: &[&'a str]) -> Option<&'a str> {
    of.iter().copied().find(|m| c.has(m))
}

const CMPS: &[&str] = &["F", "LT", "EQ", "LE", "GT", "NE", "GE", "T"];
pub(crate) const FCMPS: &[&str] =
    &["F", "LT", "EQ", "LE", "GT", "NE", "GE", "NUM", "NAN", "LTU", "EQU", "LEU", "GTU", "NEU", "GEU", "T"];
const BOPS: &[&str] = &["AND", "OR", "XOR"];

/// The value of a special register for `lane`.
pub fn sreg(c: &Ctx, v: u16, lane: usize) -> Result<u32, EmuError> {
    let name = c.k.arch.sreg_name(v).unwrap_or("");
    let t = c.w.tid[lane];
    Ok(match name {
        "SR_TID.X" => t[0],
        "SR_TID.Y" => t[1],
        "SR_TID.Z" => t[2],
        "SR_CTAID.X" => c.w.ctaid[0],
        "SR_CTAID.Y" => c.w.ctaid[1],
        "SR_CTAID.Z" => c.w.ctaid[2],
        "SR_LANEID" => lane as u32,
        // One block per cluster: the CTA's rank in its cluster is 0.
        "SR_CgaCtaId" => 0,
        "SR_SWINHI" => SM90_SWINHI,
        "SR_SWINLO" => 0,
        "SR_EQMASK" => 1 << lane,
        "SR_LTMASK" => (1u32 << lane) - 1,
        "SR_LEMASK" => ((1u64 << (lane + 1)) - 1) as u32,
        "SR_GTMASK" => !(((1u64 << (lane + 1)) - 1) as u32),
        "SR_GEMASK" => !((1u32 << lane) - 1),
        "SR_CLOCKLO" | "SR_CLOCK" | "SR_GLOBALTIMERLO" => c.w.cycle as u32,
        "SR_CLOCKHI" | "SR_GLOBALTIMERHI" => (c.w.cycle >> 32) as u32,
        "SR_VIRTUALSMID" | "SR_SMID" | "SR_VIRTID" => 0,
        // The zero register: ptxas 13.5 clears a pair with `CS2R R8, SRZ`.
        "SRZ" => 0,
        _ => return Err(c.unsupported(format!("special register {name}"))),
    })
}

/// Handles sm_90's non-memory, non-control instructions; `None` for an unknown mnemonic.
pub fn alu(c: &mut Ctx, m: &str) -> Result<Option<()>, EmuError> {
    let uniform = c.form.uniform_guard && m.starts_with('U');
    let base = if uniform { &m[1..] } else { m };
    match base {
        "MOV" => each(c, uniform, |c, l| {
            let v = c.raw(1, l)?;
            c.set(0, l, v)
        })?,
        "IMAD" => each(c, uniform, imad)?,
        "IADD3" => each(c, uniform, iadd3)?,
        "VIADD" => each(c, uniform, |c, l| {
            let v = c.int(1, l)?.wrapping_add(c.int(2, l)?);
            c.set(0, l, v)
        })?,
        "LOP3" => each(c, uniform, |c, l| {
            let (a, b, x) = (c.raw(2, l)?, c.raw(3, l)?, c.raw(4, l)?);
            let lut = c.raw(5, l)? as u8;
            let r = lop3(a, b, x, lut);
            let p = c.pred(6, l)?;
            c.set_pred(0, l, (r != 0) || p)?;
            c.set(1, l, r)
        })?,
        "SHF" => each(c, uniform, |c, l| {
            let (lo, s, hi) = (c.raw(1, l)?, c.raw(2, l)?, c.raw(3, l)?);
            let wide = c.has("U64") || c.has("S64");
            let signed = c.has("S64") || c.has("S32");
            let r = shf(lo, hi, s, c.has("L"), signed, wide, c.has("W"), c.has("HI"));
            c.set(0, l, r)
        })?,
        "SEL" => each(c, uniform, |c, l| {
            let v = if c.pred(3, l)? { c.raw(1, l)? } else { c.raw(2, l)? };
            c.set(0, l, v)
        })?,
        // FSEL's sources take `-` and `|..|` (ptxas 13.5: `FSEL R5, -R5, 13, !P0`).
        "FSEL" => each(c, uniform, |c, l| {
            let v = if c.pred(3, l)? { c.f32(1, l)? } else { c.f32(2, l)? };
            c.set(0, l, v.to_bits())
        })?,
        "ISETP" => each(c, uniform, isetp)?,
        "LEA" => each(c, uniform, lea)?,
        "PRMT" => each(c, uniform, |c, l| {
            if c.mods.iter().any(|m| !m.is_empty()) {
                return Err(c.unsupported("PRMT modes"));
            }
            let v = prmt(c.raw(1, l)?, c.raw(3, l)?, c.raw(2, l)?);
            c.set(0, l, v)
        })?,
        "VIMNMX" | "IMNMX" => each(c, uniform, |c, l| {
            let (a, b) = (c.raw(1, l)?, c.raw(2, l)?);
            let min = c.pred(3, l)?;
            let r = if c.has("U16x2") || c.has("S16x2") {
                let signed = c.has("S16x2");
                let mut r = 0;
                for h in 0..2 {
                    let (x, y) = ((a >> (16 * h)) & 0xffff, (b >> (16 * h)) & 0xffff);
                    let pick_x = if signed {
                        let (sx, sy) = (x as u16 as i16, y as u16 as i16);
                        (sx < sy) == min
                    } else {
                        (x < y) == min
                    };
                    r |= (if pick_x { x } else { y }) << (16 * h);
                }
                r
            } else if c.has("U32") {
                if (a < b) == min {
                    a
                } else {
                    b
                }
            } else if ((a as i32) < (b as i32)) == min {
                a
            } else {
                b
            };
            c.set(0, l, r)
        })?,
        "FMNMX" => each(c, uniform, |c, l| {
            let (mut a, mut b) = (c.f32(1, l)?.to_bits(), c.f32(2, l)?.to_bits());
            if c.has("FTZ") {
                a = ftz32(f32::from_bits(a)).to_bits();
                b = ftz32(f32::from_bits(b)).to_bits();
            }
            let min = c.pred(3, l)?;
            c.set(0, l, fminmax32(a, b, min))
        })?,
        "POPC" => each(c, uniform, |c, l| {
            let v = c.int(1, l)?.count_ones();
            c.set(0, l, v)
        })?,
        "FLO" => each(c, uniform, |c, l| {
            let mut v = c.int(1, l)?;
            if !c.has("U32") && (v as i32) < 0 {
                v = !v;
            }
            let r = if v == 0 { u32::MAX } else { 31 - v.leading_zeros() };
            let r = if c.has("SH") && r != u32::MAX { 31 - r } else { r };
            c.set(0, l, r)
        })?,
        "I2FP" => each(c, uniform, |c, l| {
            let a = c.raw(1, l)?;
            let r = if c.has("U32") { a as f32 } else { a as i32 as f32 };
            if !c.has("F32") {
                return Err(c.unsupported("I2FP result type"));
            }
            c.set(0, l, r.to_bits())
        })?,
        "F2FP" => each(c, uniform, |c, l| {
            if !c.has("PACK_AB") || !c.has("F32") {
                return Err(c.unsupported("F2FP variant"));
            }
            let (a, b) = (c.f32(1, l)?, c.f32(2, l)?);
            let cv = if c.has("BF16") { f2bf } else { f2h };
            c.set(0, l, (cv(a) as u32) << 16 | cv(b) as u32)
        })?,
        "HFMA2" | "HADD2" | "HMUL2" | "HMNMX2" => each(c, uniform, |c, l| half2(c, l, base))?,
        "FADD" | "FMUL" | "FFMA" => each(c, uniform, |c, l| fp32(c, l, base))?,
        "DADD" | "DMUL" | "DFMA" => each(c, uniform, |c, l| fp64(c, l, base))?,
        "FSETP" | "DSETP" => each(c, uniform, |c, l| fsetp(c, l, base == "DSETP"))?,
        "I2F" if c.has("RP") => each(c, uniform, i2f_rp)?,
        "F2F" | "I2F" | "F2I" => each(c, uniform, crate::sm50::convert)?,
        "IABS" => each(c, uniform, |c, l| {
            let v = (c.int(1, l)? as i32).unsigned_abs();
            c.set(0, l, v)
        })?,
        "MUFU" => each(c, uniform, mufu)?,
        // `PLOP3.LUT Pd, Pq, Pa, Pb, Pc, lut, lut2`: each result is its table of the three
        // inputs, LOP3's truth-table order (ptxas 13.5's div.rn.f32 joins two tests with 0xa8).
        "PLOP3" => each(c, uniform, |c, l| {
            let bits = [c.pred(2, l)?, c.pred(3, l)?, c.pred(4, l)?].map(u32::from);
            let (lut, lut2) = (c.raw(5, l)? as u8, c.raw(6, l)? as u8);
            let [d, q] = [lut, lut2].map(|t| crate::alu::lop3(bits[0], bits[1], bits[2], t) & 1 != 0);
            c.set_pred(0, l, d)?;
            c.set_pred(1, l, q)
        })?,
        "FCHK" => each(c, uniform, |c, l| {
            let (a, b) = (c.f32(1, l)?, c.f32(2, l)?);
            c.set_pred(0, l, !fast_divide(a, b))
        })?,
        // `R2UR URd, Rb`: the uniform register takes the (warp-uniform) register's value.
        "R2UR" => each(c, false, |c, l| {
            let v = c.raw(2, l)?;
            c.set(1, l, v)?;
            if !matches!(c.op(0)?, Operand::Pred(p) if p.num == 7) {
                c.set_pred(0, l, true)?;
            }
            Ok(())
        })?,
        "S2R" | "CS2R" => each(c, false, |c, l| {
            let Operand::SReg(v) = c.op(1)? else {
                return Err(c.unsupported("no special register"));
            };
            let x = sreg(c, v, l)?;
            if base == "CS2R" {
                let n = if c.has("32") { 1 } else { 2 };
                c.set_wide(0, l, x as u128, n)
            } else {
                c.set(0, l, x)
            }
        })?,
        "S2UR" => {
            let Operand::SReg(v) = c.op(1)? else {
                return Err(c.unsupported("no special register"));
            };
            let lane = (c.exec.trailing_zeros() % 32) as usize;
            let x = sreg(c, v, lane)?;
            c.set(0, lane, x)?;
        }
        "LDC" | "LDC_" => each(c, uniform, ldc)?,
        "SHFL" => shfl(c)?,
        "VOTEU" | "VOTE" => vote(c)?,
        "REDUX" => redux(c)?,
        _ => return crate::sm90_bits::alu(c, base, uniform),
    }
    Ok(Some(()))
}

/// `LDC` / `ULDC`: a constant of the size the modifiers name.
pub fn ldc(c: &mut Ctx, l: usize) -> Result<(), EmuError> {
    let Operand::CBank { bank, base, offset, .. } = c.op(1)? else {
        return Err(c.unsupported("no constant operand"));
    };
    let off = offset.wrapping_add(c.w.reg(base, l));
    let (size, signed) = if c.has("U8") {
        (1, false)
    } else if c.has("S8") {
        (1, true)
    } else if c.has("U16") {
        (2, false)
    } else if c.has("S16") {
        (2, true)
    } else if c.has("64") {
        (8, false)
    } else {
        (4, false)
    };
    let mut v = c.cload(bank, off, size)?;
    if signed {
        let bits = size * 8;
        v = (((v as i64) << (64 - bits)) >> (64 - bits)) as u64;
    }
    c.set_wide(0, l, v as u128, if size == 8 { 2 } else { 1 })
}

fn imad(c: &mut Ctx, l: usize) -> Result<(), EmuError> {
    let signed = !c.has("U32");
    let (a, b) = (c.int(1, l)?, c.int(2, l)?);
    let carry = if c.has("X") { c.pred(4, l)? as u64 } else { 0 };
    if c.has("WIDE") {
        let p = if signed { (a as i32 as i64).wrapping_mul(b as i32 as i64) as u64 } else { a as u64 * b as u64 };
        let (neg, _, not) = c.rmods(3);
        let mut x = c.raw64(3, l)?;
        if not {
            x = !x;
        } else if neg {
            x = x.wrapping_neg();
        }
        let r = p.wrapping_add(x).wrapping_add(carry);
        return c.set_wide(0, l, r as u128, 2);
    }
    if c.has("HI") {
        // The addend is a register pair, added below the high word: ptxas 13.5 writes
        // `mad.hi.u32 d, a, b, c` as `IMAD.HI.U32 R5, R6, R7, R4` with R4 = 0 and R5 = c, and
        // its division's Newton step as `IMAD.HI.U32 R3, R3, R5, R2` (R2 = 0: r + hi(r*e)).
        let x = c.raw64(3, l)?;
        let p = if signed {
            ((a as i32 as i128 * b as i32 as i128 + x as i64 as i128) >> 32) as u64
        } else {
            ((a as u128 * b as u128 + x as u128) >> 32) as u64
        };
        return c.set(0, l, p.wrapping_add(carry) as u32);
    }
    let x = c.int(3, l)? as u64;
    let p = (a as u64).wrapping_mul(b as u64);
    c.set(0, l, p.wrapping_add(x).wrapping_add(carry) as u32)
}

/// `IADD3 d, p0, p1, a, b, c` (`.X`: `+ p2 + p3`): carries out of bit 32 and 33 to p0, p1.
fn iadd3(c: &mut Ctx, l: usize) -> Result<(), EmuError> {
    let x = c.has("X");
    let mut sum: u64 = 0;
    for k in 3..6 {
        let v = c.raw(k, l)?;
        let (neg, _, not) = c.rmods(k);
        sum += if not || (neg && x) {
            !v as u64
        } else if neg {
            (!v as u64) + 1
        } else {
            v as u64
        };
    }
    if x {
        sum += c.pred(6, l)? as u64 + c.pred(7, l)? as u64;
    }
    // Each carry-out is one unit: ptxas adds a carry of 2 into the high word as
    // `IADD3.X …, P0, P1` (`x + x + 13` in i64), so P0 is carry >= 1 and P1 carry >= 2.
    let carry = sum >> 32;
    c.set_pred(1, l, carry >= 1)?;
    c.set_pred(2, l, carry >= 2)?;
    c.set(0, l, sum as u32)
}

fn isetp(c: &mut Ctx, l: usize) -> Result<(), EmuError> {
    let cmp = pick(c, CMPS).unwrap_or("F");
    let bo = pick(c, BOPS).unwrap_or("AND");
    let signed = !c.has("U32");
    let (a, b) = (c.raw(2, l)?, c.raw(3, l)?);
    let pc = c.pred(4, l)?;
    let mut r = icmp(cmp, a as u64, b as u64, signed, 32).ok_or_else(|| c.unsupported("compare"))?;
    if c.has("EX") {
        // The high words of a 64-bit compare: equal high words defer to the low words' result.
        if a == b && !matches!(cmp, "F" | "T") {
            r = c.pred(5, l)?;
        }
    }
    let r1 = bop(bo, r, pc).ok_or_else(|| c.unsupported("bop"))?;
    let r2 = bop(bo, !r, pc).ok_or_else(|| c.unsupported("bop"))?;
    c.set_pred(0, l, r1)?;
    c.set_pred(1, l, r2)
}

/// `LEA d, p, a, b, s`: `(a << s) + b`, carry to p. `LEA.HI[.X] d, p, a, b, c, s[, pin]`:
/// the high word of `{c, a} << s`, plus b (plus the carry in).
fn lea(c: &mut Ctx, l: usize) -> Result<(), EmuError> {
    let a = c.int(2, l)?;
    let b = c.raw(3, l)? as u64;
    if c.has("HI") {
        // `.SX32` without a high source (ptxas 13.5: `LEA.HI.X.SX32 R7, R2, R7, 0x1, P0`, the
        // high word of a + sext(offset) << 1): the high word is the offset's sign.
        let sx = c.has("SX32") && c.ins.ops.len() < 7;
        let (hi, at) = if sx { (((a as i32) >> 31) as u32, 4) } else { (c.raw(4, l)?, 5) };
        let s = c.raw(at, l)? & 63;
        let v = ((hi as u64) << 32 | a as u64) << s.min(63);
        let carry = if c.has("X") { c.pred(at + 1, l)? as u64 } else { 0 };
        let r = (v >> 32).wrapping_add(b).wrapping_add(carry);
        c.set_pred(1, l, r >> 32 & 1 != 0)?;
        return c.set(0, l, r as u32);
    }
    let s = c.raw(4, l)? & 31;
    let carry = if c.has("X") { c.pred(5, l)? as u64 } else { 0 };
    let r = ((a as u64) << s & 0xffff_ffff) + b + carry;
    c.set_pred(1, l, r >> 32 & 1 != 0)?;
    c.set(0, l, r as u32)
}

/// Half-precision pairs: `HFMA2 d, a, b, c` (c a register or two immediates), `HADD2`,
/// `HMUL2`, `HMNMX2`; per half in f32, rounded once to f16 (`.BF16_V2`: bf16). A source's
/// swizzle picks the halves each result half reads (`.H0_H0` the low one twice, `.H1_H1` the
/// high one); `HADD2.F32` writes the low result half's sum as one f32.
fn half2(c: &mut Ctx, l: usize, m: &str) -> Result<(), EmuError> {
    if c.has("SAT") || c.has("FTZ") || c.has("FMZ") || c.has("NAN") || c.has("RELU") {
        return Err(c.unsupported("HFMA2/HADD2 variant"));
    }
    let bf16 = c.has("BF16_V2");
    let to_f = |v: u16| if bf16 { atomc_ir::interp::bf16_bits_to_f32(v) } else { h2f(v) };
    let n = c.ins.ops.len();
    let half = |c: &Ctx, k: usize, h: u32| -> Result<f32, EmuError> {
        let swz = match c.op(k)? {
            Operand::Reg(r) | Operand::UReg(r) => r.swz,
            _ => 0,
        };
        let h = match swz {
            2 => 0,
            3 => 1,
            _ => h,
        };
        let v = (c.raw(k, l)? >> (16 * h)) as u16;
        let (neg, abs, _) = c.rmods(k);
        let mut x = to_f(v);
        if abs {
            x = x.abs();
        }
        if neg {
            x = -x;
        }
        Ok(x)
    };
    // `HADD2 d, a, hi, lo`: B as two immediates, printed high half first.
    let two_imm = n == 4 && matches!(c.op(2)?, Operand::Imm(_));
    let b = |c: &Ctx, h: u32| -> Result<f32, EmuError> {
        if two_imm {
            Ok(to_f(c.raw(if h == 1 { 2 } else { 3 }, l)? as u16))
        } else {
            half(c, 2, h)
        }
    };
    if c.has("F32") {
        if m != "HADD2" {
            return Err(c.unsupported("HFMA2/HADD2 variant"));
        }
        // The sum of two halves is exact in f32.
        let v = half(c, 1, 0)? + b(c, 0)?;
        return c.set(0, l, f32_out(v));
    }
    let mut r = 0u32;
    for h in 0..2u32 {
        let a = half(c, 1, h)?;
        let v = match m {
            "HADD2" => a + b(c, h)?,
            "HMUL2" => a * b(c, h)?,
            "HMNMX2" => {
                // minNum/maxNum as FMNMX: the f32 values are exact, so is the pick.
                let min = c.pred(3, l)?;
                f32::from_bits(fminmax32(a.to_bits(), b(c, h)?.to_bits(), min))
            }
            _ => {
                let b = half(c, 2, h)?;
                let x = if n == 5 {
                    // Two immediates, printed high half first.
                    let k = if h == 1 { 3 } else { 4 };
                    h2f(c.raw(k, l)? as u16)
                } else {
                    half(c, 3, h)?
                };
                a.mul_add(b, x)
            }
        };
        let bits = if bf16 { f2bf(v) } else { f2h(v) };
        r |= (bits as u32) << (16 * h);
    }
    c.set(0, l, r)
}

fn fp32(c: &mut Ctx, l: usize, m: &str) -> Result<(), EmuError> {
    let ftz = c.has("FTZ");
    let f = |x: f32| if ftz { ftz32(x) } else { x };
    let a = f(c.f32(1, l)?);
    let b = f(c.f32(2, l)?);
    let mode = pick(c, &["RZ", "RM", "RP"]);
    let r = match mode {
        None => match m {
            "FADD" => a + b,
            "FMUL" => a * b,
            _ => a.mul_add(b, f(c.f32(3, l)?)),
        },
        // The exact result as an unevaluated f64 sum: an f32 product is exact in an f64, and
        // TwoSum keeps what the f64 addition rounds off.
        Some(mode) => {
            let (a, b) = (a as f64, b as f64);
            let (x, y) = match m {
                "FADD" => (a, b),
                "FMUL" => (a * b, 0.0),
                _ => (a * b, f(c.f32(3, l)?) as f64),
            };
            let sum = x + y;
            let err = if sum.is_finite() {
                let yy = sum - x;
                (x - (sum - yy)) + (y - yy)
            } else {
                0.0
            };
            round_directed(sum, err, mode)
        }
    };
    let r = if c.has("SAT") {
        // NaN saturates to +0.
        if r.is_nan() { 0.0 } else { r.clamp(0.0, 1.0) }
    } else {
        r
    };
    c.set(0, l, f32_out(f(r)))
}

/// `hi + lo` (exactly; `|lo|` at most half an f64 ulp of `hi`) rounded to f32 toward zero
/// (`RZ`), down (`RM`) or up (`RP`).
fn round_directed(hi: f64, lo: f64, mode: &str) -> f32 {
    let near = hi as f32;
    if hi.is_nan() || hi.is_infinite() {
        return near;
    }
    if near.is_infinite() {
        // Past the largest finite value: only rounding away from zero reaches infinity.
        let away = match mode {
            "RP" => hi > 0.0,
            "RM" => hi < 0.0,
            _ => false,
        };
        return if away { near } else { f32::MAX.copysign(near) };
    }
    // Where the exact value lies from `near`: `hi - near` is exact (Sterbenz), and a nonzero
    // one outweighs `lo`.
    let d = hi - near as f64;
    let above = if d != 0.0 { d > 0.0 } else { lo > 0.0 };
    let below = if d != 0.0 { d < 0.0 } else { lo < 0.0 };
    let toward_zero = (near > 0.0 && below) || (near < 0.0 && above);
    match mode {
        "RM" if below => near.next_down(),
        "RP" if above => near.next_up(),
        "RZ" if toward_zero => {
            if near > 0.0 { near.next_down() } else { near.next_up() }
        }
        _ => near,
    }
}

fn fp64(c: &mut Ctx, l: usize, m: &str) -> Result<(), EmuError> {
    if c.has("RM") || c.has("RP") || c.has("RZ") {
        return Err(c.unsupported("rounding modes"));
    }
    let (a, b) = (c.f64(1, l)?, c.f64(2, l)?);
    let r = match m {
        "DADD" => a + b,
        "DMUL" => a * b,
        _ => a.mul_add(b, c.f64(3, l)?),
    };
    c.set_wide(0, l, f64_out(r) as u128, 2)
}

/// `FSETP`/`DSETP p0, p1, a, b, pc` (and the `.MIN`/`.MAX` DSETP variants are refused).
fn fsetp(c: &mut Ctx, l: usize, double: bool) -> Result<(), EmuError> {
    let bo = pick(c, BOPS).unwrap_or("AND");
    if double && (c.has("MIN") || c.has("MAX")) {
        // `DSETP.MAX p0, p1, a, b`: p0 says a is the maximum (minNum/maxNum: a NaN loses,
        // -0 < +0), p1 that both are NaN (ptxas then quietens b, which p0 selected).
        let (a, b) = (c.f64(2, l)?, c.f64(3, l)?);
        let max = c.has("MAX");
        let a_wins = !a.is_nan()
            && (b.is_nan()
                || if a == b {
                    a.is_sign_negative() != max || b.is_sign_negative() == a.is_sign_negative()
                } else {
                    (a > b) == max
                });
        let both_nan = a.is_nan() && b.is_nan();
        let pc = c.pred(4, l)?;
        c.set_pred(0, l, bop(bo, a_wins, pc).unwrap_or(false))?;
        return c.set_pred(1, l, bop(bo, both_nan, pc).unwrap_or(false));
    }
    let cmp = pick(c, FCMPS).unwrap_or("F");
    let (a, b) = if double {
        (c.f64(2, l)?, c.f64(3, l)?)
    } else {
        let f = |x: f32| if c.has("FTZ") { ftz32(x) } else { x };
        (f(c.f32(2, l)?) as f64, f(c.f32(3, l)?) as f64)
    };
    let pc = c.pred(4, l)?;
    let r = fcmp(cmp, a, b).ok_or_else(|| c.unsupported("compare"))?;
    c.set_pred(0, l, bop(bo, r, pc).unwrap_or(false))?;
    c.set_pred(1, l, bop(bo, !r, pc).unwrap_or(false))
}

/// Whether `FCHK.DIVIDE` lets `a / b` take ptxas's fast path (reciprocal, refinement, one
/// residual correction) rather than its slow-path subroutine. Which operands the hardware
/// flags is not documented; this answer flags a superset (a zero, subnormal, infinite or NaN
/// operand, an exponent near either end of the range, a quotient exponent that could leave
/// the normal range). The subroutine is exact for every operand (ptxas 13.5's and 11.8's
/// div.rn.f32 send all of these to it), so flagging more changes which path a lane runs,
/// never its result; flagging less would not be safe, and nothing here does.
fn fast_divide(a: f32, b: f32) -> bool {
    let exp = |x: f32| ((x.to_bits() >> 23) & 0xff) as i32;
    let (ea, eb) = (exp(a), exp(b));
    let inner = |e: i32| (2..=252).contains(&e);
    inner(ea) && inner(eb) && (-124..=124).contains(&(ea - eb))
}

/// `SHFL.mode pd, d, a, b, c`: PTX `shfl.sync` semantics with `c` = clamp | segmask << 8.
fn shfl(c: &mut Ctx) -> Result<(), EmuError> {
    let mode = pick(c, &["IDX", "UP", "DOWN", "BFLY"]).ok_or_else(|| c.unsupported("SHFL mode"))?;
    let src: Vec<u32> = (0..32).map(|l| c.raw(2, l)).collect::<Result<_, _>>()?;
    for lane in lanes(c.exec) {
        let b = c.raw(3, lane)? & 31;
        let cv = c.raw(4, lane)?;
        let clamp = cv & 31;
        let seg = (cv >> 8) & 31;
        let lane32 = lane as u32;
        let max_lane = (lane32 & seg) | (clamp & !seg);
        let min_lane = lane32 & seg;
        let (j, ok) = match mode {
            "IDX" => {
                let j = min_lane | (b & !seg);
                (j, j <= max_lane)
            }
            "UP" => {
                let j = lane32.wrapping_sub(b);
                (j, j as i32 >= max_lane as i32)
            }
            "DOWN" => {
                let j = lane32 + b;
                (j, j <= max_lane)
            }
            _ => {
                let j = lane32 ^ b;
                (j, j <= max_lane)
            }
        };
        let j = if ok { j as usize & 31 } else { lane };
        c.set(1, lane, src[j])?;
        c.set_pred(0, lane, ok)?;
    }
    Ok(())
}

/// `VOTEU.mode ud, up, p` / `VOTE.mode d, pd, p`: the ballot of p over the executing lanes.
fn vote(c: &mut Ctx) -> Result<(), EmuError> {
    let mut ballot = 0u32;
    for lane in lanes(c.exec) {
        if c.pred(2, lane)? {
            ballot |= 1 << lane;
        }
    }
    let r = if c.has("ANY") {
        ballot != 0
    } else if c.has("ALL") {
        ballot == c.exec
    } else if c.has("EQ") {
        ballot == 0 || ballot == c.exec
    } else {
        return Err(c.unsupported("VOTE mode"));
    };
    for lane in lanes(c.exec) {
        c.set(0, lane, ballot)?;
        c.set_pred(1, lane, r)?;
    }
    Ok(())
}

/// `REDUX.op ud, a`: a reduction over the executing lanes into a uniform register.
fn redux(c: &mut Ctx) -> Result<(), EmuError> {
    let signed = c.has("S32");
    let vals: Vec<u32> = lanes(c.exec).map(|l| c.raw(1, l)).collect::<Result<_, _>>()?;
    let r = if c.has("SUM") {
        vals.iter().fold(0u32, |a, &v| a.wrapping_add(v))
    } else if c.has("MIN") {
        if signed {
            vals.iter().map(|&v| v as i32).min().unwrap_or(0) as u32
        } else {
            vals.iter().copied().min().unwrap_or(0)
        }
    } else if c.has("MAX") {
        if signed {
            vals.iter().map(|&v| v as i32).max().unwrap_or(0) as u32
        } else {
            vals.iter().copied().max().unwrap_or(0)
        }
    } else if c.has("OR") {
        vals.iter().fold(0, |a, &v| a | v)
    } else if c.has("XOR") {
        vals.iter().fold(0, |a, &v| a ^ v)
    } else {
        vals.iter().fold(u32::MAX, |a, &v| a & v)
    };
    let lane = (c.exec.trailing_zeros() % 32) as usize;
    c.set(0, lane, r)
}

/// `I2F{.U32}.RP Rd, Rb`: an integer to f32, rounded toward +infinity (ptxas's division
/// starts from `I2F.U32.RP` of the divisor, so the reciprocal underestimates).
fn i2f_rp(c: &mut Ctx, l: usize) -> Result<(), EmuError> {
    if c.has("F64") || c.has("S64") || c.has("F16") {
        return Err(c.unsupported("I2F.RP other than to f32 from 32 bits or U64"));
    }
    if c.has("U64") {
        // ptxas 13.5's div.u64 starts from `I2F.U64.RP` of the divisor.
        let raw = c.raw64(1, l)?;
        let mut f = raw as f32;
        if (f as u128) < raw as u128 {
            f = f32::from_bits(f.to_bits() + 1);
        }
        return c.set(0, l, f.to_bits());
    }
    let raw = c.raw(1, l)?;
    let x = if c.has("U32") { raw as f64 } else { raw as i32 as f64 };
    // sm_50's signed division converts `|b|` (`I2F.F32.S32.RP R10, |R0|`).
    let (neg, abs, _) = c.rmods(1);
    let x = if abs { x.abs() } else { x };
    let x = if neg { -x } else { x };
    let mut f = x as f32;
    if (f as f64) < x {
        f = f32::from_bits(if f >= 0.0 { f.to_bits() + 1 } else { f.to_bits() - 1 });
    }
    c.set(0, l, f.to_bits())
}

/// `MUFU.op Rd, Rb`: the multi-function unit, modelled at f32 precision (the hardware's
/// approximations are within an ulp or two; ptxas's sequences built on them, such as its
/// integer division, correct for that).
fn mufu(c: &mut Ctx, l: usize) -> Result<(), EmuError> {
    if c.has("RCP64H") {
        // The high word of an f64 in, the high word of ~1/x out (ptxas puts a low word of 1
        // under it): modelled as 1/x of the high word over a zero low word, truncated, within
        // 2^-20 of the hardware's. ptxas's division sequences refine it to the exact quotient,
        // so no result atomc compares depends on the difference.
        let x = f64::from_bits((c.raw(1, l)? as u64) << 32);
        return c.set(0, l, ((1.0 / x).to_bits() >> 32) as u32);
    }
    let x = f32::from_bits(c.raw(1, l)?);
    let r = match pick(c, &["RCP", "RSQ", "SQRT", "EX2", "LG2", "SIN", "COS", "TANH"]) {
        Some("RCP") => 1.0 / x,
        Some("RSQ") => 1.0 / x.sqrt(),
        Some("SQRT") => x.sqrt(),
        Some("EX2") => x.exp2(),
        Some("LG2") => x.log2(),
        Some("SIN") => x.sin(),
        Some("COS") => x.cos(),
        Some("TANH") => x.tanh(),
        _ => return Err(c.unsupported("MUFU operation")),
    };
    c.set(0, l, r.to_bits())
}

#[cfg(test)]
mod directed_rounding {
    use super::round_directed;

    const TINY: f64 = 1.0 / (1u64 << 40) as f64;

    #[test]
    fn a_remainder_below_the_f32_ulp_moves_only_the_directed_modes() {
        // 1 + 2^-40: RN and RZ and RM give 1, RP the next float up.
        assert_eq!(round_directed(1.0 + TINY, 0.0, "RZ"), 1.0);
        assert_eq!(round_directed(1.0 + TINY, 0.0, "RM"), 1.0);
        assert_eq!(round_directed(1.0 + TINY, 0.0, "RP"), 1.0f32.next_up());
        assert_eq!(round_directed(-1.0 - TINY, 0.0, "RZ"), -1.0);
        assert_eq!(round_directed(-1.0 - TINY, 0.0, "RM"), (-1.0f32).next_down());
        // Only the low part says which side: 1 - 2^-200 (below 1) and 1 + 2^-200.
        let lo = f64::powi(2.0, -200);
        assert_eq!(round_directed(1.0, -lo, "RZ"), 1.0f32.next_down());
        assert_eq!(round_directed(1.0, -lo, "RP"), 1.0);
        assert_eq!(round_directed(1.0, lo, "RP"), 1.0f32.next_up());
        assert_eq!(round_directed(1.0, lo, "RZ"), 1.0);
    }

    #[test]
    fn a_value_nearest_to_the_upper_neighbour_truncates() {
        // 1 + 0.75 ulp: RN rounds up, RZ and RM keep 1.
        let ulp = f32::EPSILON as f64;
        assert_eq!((1.0 + 0.75 * ulp) as f32, 1.0f32.next_up());
        assert_eq!(round_directed(1.0 + 0.75 * ulp, 0.0, "RZ"), 1.0);
        assert_eq!(round_directed(1.0 + 0.75 * ulp, 0.0, "RM"), 1.0);
        assert_eq!(round_directed(1.0 + 0.75 * ulp, 0.0, "RP"), 1.0f32.next_up());
    }

    #[test]
    fn overflow_reaches_infinity_only_away_from_zero() {
        let big = f32::MAX as f64 * 1.5;
        assert_eq!(round_directed(big, 0.0, "RZ"), f32::MAX);
        assert_eq!(round_directed(big, 0.0, "RM"), f32::MAX);
        assert_eq!(round_directed(big, 0.0, "RP"), f32::INFINITY);
        assert_eq!(round_directed(-big, 0.0, "RM"), f32::NEG_INFINITY);
        assert_eq!(round_directed(-big, 0.0, "RP"), -f32::MAX);
    }

    #[test]
    fn below_the_smallest_subnormal() {
        let t = f64::powi(2.0, -160);
        assert_eq!(round_directed(t, 0.0, "RZ"), 0.0);
        assert_eq!(round_directed(t, 0.0, "RP"), f32::from_bits(1));
        assert_eq!(round_directed(-t, 0.0, "RM"), -f32::from_bits(1));
    }
}
