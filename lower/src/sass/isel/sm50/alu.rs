//! sm_50 integer sequences where Maxwell has no single instruction, as ptxas 11.8 writes them:
//! multiplies from 16-bit `XMAD` partial products, 64-bit compares through the condition-code
//! carry, address arithmetic by shifts, products and `.CC` adds, `|x|`, and 64-bit shifts.

use super::Sm50;
use crate::sass::inst::{MOp, SassInst};
use crate::sass::isel::{Isa, Isel};
use crate::vcode::{Reg, RegClass, VReg};
use atomc_ir::BinaryOp;
use atomc_sass::op::{t, Tok};
use atomc_sass::{op, toks};

pub(super) fn is_rz(op: &MOp) -> bool {
    matches!(op, MOp::Reg { reg: Reg::Zero, .. })
}

/// A multiplier as a shift count, when it is a power of two.
fn log2(c: i64) -> Option<i64> {
    (c > 0 && (c & (c - 1)) == 0).then(|| c.trailing_zeros() as i64)
}

fn single(s: &mut Isel<'_>) -> VReg {
    s.new_vreg(RegClass::Single)
}

/// `dst = a * b + c`. A power-of-two factor is `SHL`; otherwise, as ptxas does on Maxwell,
/// `t = a.lo*b.lo + c; u = a.lo*b.hi` merged; `d = (a.hi*u.hi << 16) + t`. Written in place
/// (`dst` a tied pair and its half), the last `XMAD` writes the half.
pub(super) fn imad(s: &mut Isel<'_>, dst: &[MOp], a: MOp, b: MOp, c: MOp) {
    match (dst, b) {
        (&[d], MOp::Imm(k)) if is_rz(&c) && log2(k).is_some() => {
            s.emit(SassInst::new(op!(SHL), [d, a, MOp::Imm(log2(k).unwrap_or(0))]))
        }
        (&[t, d], _) => {
            let (p, u) = (single(s), single(s));
            s.emit(SassInst::new(op!(XMAD), [MOp::def(p.reg(), 1), a, b, c]));
            s.emit(SassInst::new(op!(XMAD.MRG.BH1), [MOp::def(u.reg(), 1), a, b, MOp::rz()]));
            s.emit(SassInst::new(op!(XMAD.PSL.CBCC.AH1.BH1), [t, d, a, MOp::use_(u.reg()), MOp::use_(p.reg())]));
        }
        _ => {
            let b = match b {
                MOp::Imm(k) => {
                    let t = single(s);
                    s.emit(SassInst::new(op!(MOV32I), [MOp::def(t.reg(), 1), MOp::Imm(k as u32 as i64)]));
                    MOp::use_(t.reg())
                }
                other => other,
            };
            let (t, u) = (single(s), single(s));
            s.emit(SassInst::new(op!(XMAD), [MOp::def(t.reg(), 1), a, b, c]));
            s.emit(SassInst::new(op!(XMAD.MRG.BH1), [MOp::def(u.reg(), 1), a, b, MOp::rz()]));
            let last = dst.iter().copied().chain([a, MOp::use_(u.reg()), MOp::use_(t.reg())]);
            s.emit(SassInst::new(op!(XMAD.PSL.CBCC.AH1.BH1), last));
        }
    }
}

/// Pair `d = a * b` unsigned, ptxas 11.8's sequence: four partial products from 16-bit halves;
/// the low word via `PSL.CBCC`, the high word via `IADD3.RS`:
/// `(((a.hi*b.lo + ll>>16) + a.lo*b.hi) >> 16) + a.hi*b.hi`.
pub(super) fn mul_wide_u32(s: &mut Isel<'_>, d: VReg, a: MOp, b: MOp) {
    let (ll, mrg, lh, chi, hh) = (single(s), single(s), single(s), single(s), single(s));
    s.emit(SassInst::new(op!(XMAD), [MOp::def(ll.reg(), 1), a, b, MOp::rz()]));
    s.emit(SassInst::new(op!(XMAD.MRG.BH1), [MOp::def(mrg.reg(), 1), a, b, MOp::rz()]));
    s.emit(SassInst::new(op!(XMAD.BH1), [MOp::def(lh.reg(), 1), a, b, MOp::rz()]));
    s.emit(SassInst::new(op!(XMAD.CHI.AH1), [MOp::def(chi.reg(), 1), a, b, MOp::use_(ll.reg())]));
    s.emit(SassInst::new(op!(XMAD.AH1.BH1), [MOp::def(hh.reg(), 1), a, b, MOp::rz()]));
    let tmp = s.new_vreg(RegClass::Pair);
    let lo = [MOp::def(tmp.lo(), 2), a, MOp::use_(mrg.reg()), MOp::use_(ll.reg())];
    s.emit(SassInst::new(op!(XMAD.PSL.CBCC.AH1.BH1), lo));
    let hi = [
        MOp::Tied { reg: tmp.reg(), width: 2 },
        MOp::reuse_def(d.hi(), 0),
        MOp::use_(chi.reg()),
        MOp::use_(lh.reg()),
        MOp::use_(hh.reg()),
    ];
    s.emit(SassInst::new(op!(IADD3.RS), hi));
}

/// `d` = the high word of `a * b` unsigned, as ptxas 11.8 forms it: four 16x16 partial
/// products, the middle ones summed and shifted by `XMAD.CHI` and `IADD3.RS`.
pub(super) fn mul_hi_u32(s: &mut Isel<'_>, d: MOp, a: MOp, b: MOp) {
    let (ll, lh, hh, chi) = (single(s), single(s), single(s), single(s));
    s.emit(SassInst::new(op!(XMAD), [MOp::def(ll.reg(), 1), a, b, MOp::rz()]));
    s.emit(SassInst::new(op!(XMAD.BH1), [MOp::def(lh.reg(), 1), a, b, MOp::rz()]));
    s.emit(SassInst::new(op!(XMAD.AH1.BH1), [MOp::def(hh.reg(), 1), a, b, MOp::rz()]));
    s.emit(SassInst::new(op!(XMAD.CHI.AH1), [MOp::def(chi.reg(), 1), a, b, MOp::use_(ll.reg())]));
    s.emit(SassInst::new(op!(IADD3.RS), [d, MOp::use_(chi.reg()), MOp::use_(lh.reg()), MOp::use_(hh.reg())]));
}

/// `d = |x| = (x ^ s) - s` with `s = x >> 31` (ptxas 11.8 reads `|c[..]|` through `I2I`).
pub(super) fn iabs(s: &mut Isel<'_>, d: MOp, x: MOp) {
    let (sign, t) = (single(s), single(s));
    s.emit(SassInst::new(op!(SHR), [MOp::def(sign.reg(), 1), x, MOp::Imm(31)]));
    s.emit(SassInst::new(op!(LOP3.LUT), [MOp::def(t.reg(), 1), x, MOp::use_(sign.reg()), MOp::rz(), MOp::Imm(0x3c)]));
    s.emit(SassInst::new(op!(IADD), [d, MOp::use_(t.reg()), MOp::neg(sign.reg())]));
}

/// `IMNMX`; its immediate holds a sign-extended 20-bit value, a wider one goes through a
/// register (`MOV32I`).
pub(super) fn minmax(s: &mut Isel<'_>, d: MOp, a: MOp, b: MOp, unsigned: bool, max: bool) {
    let opcode = if unsigned { op!(IMNMX.U32) } else { op!(IMNMX) };
    let p = MOp::Pred { num: 7, not: max };
    let b = match b {
        MOp::Imm(v) if (-(1 << 19)..(1 << 19)).contains(&(v as u32 as i32 as i64)) => MOp::Imm(v as u32 as i32 as i64),
        MOp::Imm(v) => {
            let t = single(s);
            s.emit(SassInst::new(op!(MOV32I), [MOp::def(t.reg(), 1), MOp::Imm(v as u32 as i64)]));
            MOp::use_(t.reg())
        }
        other => other,
    };
    s.emit(SassInst::new(opcode, [d, a, b, p]));
}

/// `P0 = a cc b` on 64 bits, as ptxas 11.8 compares: ordered, the low halves' subtraction sets
/// the carry (`IADD RZ.CC, a.lo, -b.lo`) and the high halves compare with it (`.X`); for
/// equality the high halves' compare folds in the low halves' predicate through the boolean
/// operator (EQ: AND, NE: OR).
pub(super) fn compare64(s: &mut Isel<'_>, cc: Tok, unsigned: bool, a: [MOp; 2], b: [MOp; 2]) {
    let (p0, pt) = (MOp::p0(), MOp::pt());
    if cc == t::EQ || cc == t::NE {
        s.emit(SassInst::new(op!(ISETP).with([cc, t::U32, t::AND]), [p0, pt, a[0], b[0], pt]));
        let bop = if cc == t::EQ { t::AND } else { t::OR };
        s.emit(SassInst::new(op!(ISETP).with([cc, t::U32, bop]), [p0, pt, a[1], b[1], p0]));
        return;
    }
    let neg_b = match b[0] {
        MOp::Reg { reg, width, rule, .. } => MOp::Reg { reg, width, rule, neg: true },
        other => other,
    };
    s.emit(SassInst::new(op!(IADD.CC), [MOp::def(Reg::Zero, 1), a[0], neg_b]));
    let u = unsigned.then_some(t::U32);
    s.emit(SassInst::new(op!(ISETP).with(cc).with(u).with(toks!(X.AND)), [p0, pt, a[1], b[1], pt]));
}

/// Pair `d = p + ext(x) * scale` as ptxas 11.8 does it: for a power of two `x` shifted into a
/// pair, then a 64-bit add; for any other scale the 64-bit product of `x` and the scale moved
/// into a register, then the add. ptxas 11.8 on `mul.wide.u32 %rd3, %r1, 12; add.u64 %rd4,
/// %rd2, %rd3` (sm_50): `MOV32I R5, 0xc`, `XMAD R6, R0, R5, RZ`, `XMAD R8, R0, R5.H1, RZ`,
/// `XMAD R9, R0.H1, R5.H1, RZ`, `XMAD.CHI R10, R0.H1, R5, R6`, `XMAD.PSL R7, R0.H1, 0xc, R7`,
/// `IADD3.RS R8, R10, R8, R9`, `IADD R6.CC, R7, R6`, `IADD.X R7, R8, c[0x0][0x144]`.
pub(super) fn index_scaled(
    s: &mut Isel<'_>,
    d: VReg,
    x: VReg,
    scale: i64,
    signed: bool,
    p: VReg,
) -> Result<(), String> {
    let Some(k) = log2(scale) else {
        return index_product(s, d, x, scale, signed, p);
    };
    let x = MOp::use_(x);
    let (lo, hi) = (single(s), single(s));
    s.emit(SassInst::new(op!(SHL), [MOp::def(lo.reg(), 1), x, MOp::Imm(k)]));
    let hi_def = MOp::def(hi.reg(), 1);
    s.emit(match (k, signed) {
        (0, false) => SassInst::new(op!(MOV), [hi_def, MOp::rz()]),
        (0, true) => SassInst::new(op!(SHR), [hi_def, x, MOp::Imm(31)]),
        (_, false) => SassInst::new(op!(SHR.U32), [hi_def, x, MOp::Imm(32 - k)]),
        (_, true) => SassInst::new(op!(SHR), [hi_def, x, MOp::Imm(32 - k)]),
    });
    s.add_pair(d, [MOp::use_(p.lo()), MOp::use_(p.hi())], [MOp::use_(lo.reg()), MOp::use_(hi.reg())]);
    Ok(())
}

/// Pair `d = p + ext(x) * scale` for a scale that is no power of two (an array of 12-byte
/// structs): the unsigned 64-bit product of `x` and the scale's low word (ptxas 11.8's XMAD
/// partial products, [`mul_wide_u32`]), its high word corrected for the signed readings
/// (`sext(x) = x - 2^32` for a negative `x`: minus the scale; a negative scale, `s - 2^32`:
/// minus `x`), then added to `p`. ptxas 11.8 multiplies `mul.wide.s32` with signed `XMAD`
/// variants instead; the product is the same.
fn index_product(s: &mut Isel<'_>, d: VReg, x: VReg, scale: i64, signed: bool, p: VReg) -> Result<(), String> {
    if scale == 0 {
        s.make_pair(d, MOp::use_(p.lo()), MOp::use_(p.hi()));
        return Ok(());
    }
    if !(i64::from(i32::MIN)..=i64::from(u32::MAX)).contains(&scale) {
        return Err(format!("address scale {scale} is wider than 32 bits"));
    }
    let factor = single(s);
    s.emit(Sm50.mov(&[MOp::def(factor.reg(), 1)], MOp::Imm(scale as u32 as i64)));
    let prod = s.new_vreg(RegClass::Pair);
    mul_wide_u32(s, prod, MOp::use_(x), MOp::use_(factor.reg()));
    let mut hi = prod.hi();
    if signed {
        // (x >> 31) & scale: the scale where x is negative.
        let (sign, corr, fixed) = (single(s), single(s), single(s));
        s.emit(SassInst::new(op!(SHR), [MOp::def(sign.reg(), 1), MOp::use_(x), MOp::Imm(31)]));
        let mask = MOp::Imm(scale as u32 as i64);
        s.emit(Sm50.lop3(MOp::def(corr.reg(), 1), MOp::use_(sign.reg()), mask, MOp::rz(), 0xc0)?);
        s.emit(SassInst::new(op!(IADD), [MOp::def(fixed.reg(), 1), MOp::use_(hi), MOp::neg(corr.reg())]));
        hi = fixed.reg();
    }
    if signed && scale < 0 {
        let fixed = single(s);
        s.emit(SassInst::new(op!(IADD), [MOp::def(fixed.reg(), 1), MOp::use_(hi), MOp::neg(x.reg())]));
        hi = fixed.reg();
    }
    s.add_pair(d, [MOp::use_(p.lo()), MOp::use_(p.hi())], [MOp::use_(prod.lo()), MOp::use_(hi)]);
    Ok(())
}

/// Pair `d = p + sext(o)`: the high half adds `o`'s sign word with the carry.
pub(super) fn add_sext(s: &mut Isel<'_>, d: VReg, p: VReg, o: VReg) {
    let tmp = s.new_vreg(RegClass::Pair);
    s.emit(Sm50.add_carry_out(MOp::def(tmp.lo(), 2), MOp::use_(p.lo()), MOp::use_(o)));
    let sign = single(s);
    s.emit(SassInst::new(op!(SHR), [MOp::def(sign.reg(), 1), MOp::use_(o), MOp::Imm(31)]));
    let hi =
        [MOp::Tied { reg: tmp.reg(), width: 2 }, MOp::reuse_def(d.hi(), 0), MOp::use_(p.hi()), MOp::use_(sign.reg())];
    s.emit(SassInst::new(op!(IADD.X), hi));
}

/// Pair `d = a op amount` for a constant amount in 0..64. Within the word it is ptxas 11.8's
/// sequence for a register amount with the immediate forms (`shl.b64 d, a, 7`: `SHL R4, R0,
/// 0x7` 0x3848000000770004 + `SHF.L.U64 R5, R0, 0x7, R2` 0x36f8014000770005; `shr.u64`:
/// `SHF.R.U64 R8, R0, 0x7, R2` 0x38f8014000770008 + `SHR.U32 R9, R2, 0x7`; `shr.s64`:
/// `SHF.R.S64 R12, R0, 0x7, R2` 0x38f801600077000c + `SHR R13, R2, 0x7`); a shift by a word or
/// more moves one half.
pub(super) fn shift64(s: &mut Isel<'_>, d: VReg, op: BinaryOp, a: VReg, amount: i64) -> Result<(), String> {
    let signed = op == BinaryOp::Sshr;
    let (lo, hi) = match (op, amount) {
        (_, 0..=31) => {
            shift64_by(s, d, op, a, MOp::Imm(amount));
            return Ok(());
        }
        (BinaryOp::Ishl, _) => {
            (Sm50.mov(&[MOp::rz()], MOp::rz()), Sm50.shl(MOp::rz(), MOp::use_(a.lo()), MOp::Imm(amount - 32), false))
        }
        (_, _) => (
            Sm50.shr(MOp::rz(), MOp::use_(a.hi()), MOp::Imm(amount - 32), signed, false),
            if signed {
                Sm50.shr(MOp::rz(), MOp::use_(a.hi()), MOp::Imm(31), true, false)
            } else {
                Sm50.mov(&[MOp::rz()], MOp::rz())
            },
        ),
    };
    s.pair_op(d, lo, hi);
    Ok(())
}

/// Pair `d = a op k`, `k` an amount in 0..64 (a register, or an immediate below 32). ptxas
/// 11.8 on `and.b32 n, n, 63` and `shl.b64 d, a, n`: `SHL R4, R2, R0` (0x5c48000000070204) +
/// `SHF.L.U64 R5, R2, R0, R3` (0x5bf801c000070205; Maxwell's left funnel shift gives the high
/// word without `.HI`); `shr.u64`: `SHF.R.U64 R8, R2, R0, R3` (0x5cf801c000070208) + `SHR.U32
/// R9, R3, R0`; `shr.s64`: `SHF.R.S64 R12, R2, R0, R3` (0x5cf801e00007020c) + `SHR R13, R3, R0`.
/// The clamping forms give 0 or the sign for a word shifted out (amounts 32..63).
pub(super) fn shift64_by(s: &mut Isel<'_>, d: VReg, op: BinaryOp, a: VReg, k: MOp) {
    let (lo, hi) = (MOp::use_(a.lo()), MOp::use_(a.hi()));
    let (lo_inst, hi_inst) = match op {
        BinaryOp::Ishl => (Sm50.shl(MOp::rz(), lo, k, false), SassInst::new(op!(SHF.L.U64), [MOp::rz(), lo, k, hi])),
        _ => {
            let signed = op == BinaryOp::Sshr;
            let funnel = if signed { op!(SHF.R.S64) } else { op!(SHF.R.U64) };
            (SassInst::new(funnel, [MOp::rz(), lo, k, hi]), Sm50.shr(MOp::rz(), hi, k, signed, false))
        }
    };
    s.pair_op(d, lo_inst, hi_inst);
}
