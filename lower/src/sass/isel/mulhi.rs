//! Multiply-high (`umulhi`, `smulhi`) of every integer width, for both SASS targets. The i32
//! forms are each target's high word ([`super::Isa::mul_hi_u32`]; `smulhi.i32` in the targets'
//! `bits` rooms); the other widths are built here from 32-bit operations.
//!
//! i8, i16  the operands extended to 32 bits (sign-extended for `smulhi`), one 32-bit multiply
//!          (the whole product fits), shifted down by the width. ptxas 13 on
//!          `mul.hi.u16`/`mul.hi.s16`: `LOP3.LUT .. 0xffff` / `PRMT .. 0x9910` (extend), `IMAD
//!          R5, R4, R5, RZ`, `SHF.R.U32.HI R5, RZ, 0x10, R5` / `SHF.R.S32.HI`; ptxas 11.8 on
//!          sm_50: `XMAD R3, R0, R2, RZ` / `XMAD.S16.S16`, then `SHR.U32 R0, R3, 0x10` / `SHR`
//!          (atomc multiplies with its 32-bit `XMAD` sequence instead of the 16-bit one).
//! i64      the high word of the 128-bit product from the four 32 × 32 → 64-bit word products
//!          (the 64-bit division's `mulhi64`); `smulhi` then subtracts `b` where `a < 0` and `a`
//!          where `b < 0`, as ptxas 13 corrects `mul.hi.s64` (`ISETP.LT.AND P1, PT, R9, RZ` +
//!          `IADD3 R11, P0, -R11, R4` / `IMAD.X .. ~R13` + `SEL`), here with masks, not selects.
//!          ptxas sums the products with `IMAD.WIDE.U32` carry forms atomc has no form for.

use super::{IselError, Isel};
use crate::sass::inst::MOp;
use crate::vcode::{RegClass, VReg};
use atomc_ir::{BinaryOp, Type, Value};

impl Isel<'_> {
    /// `d = umulhi/smulhi a, b` on i8, i16, i64, and `umulhi` on i32.
    pub(super) fn mulhi(&mut self, d: VReg, op: BinaryOp, a: Value, b: Value) -> Result<(), IselError> {
        let signed = op == BinaryOp::Smulhi;
        let ty = self.ty(a);
        let (ra, rb) = (self.reg(a), self.reg(b));
        match ty {
            Type::I32 if !signed => {
                self.isa.mul_hi_u32(self, MOp::def(d.reg(), 1), MOp::use_(ra), MOp::use_(rb));
            }
            Type::I8 | Type::I16 => {
                let bits = ty.bits();
                let (x, y) = if signed {
                    (self.sign_extended(ra, bits), self.sign_extended(rb, bits))
                } else {
                    (ra, rb)
                };
                let p = self.new_vreg(RegClass::Single);
                self.isa.imad(self, &[MOp::def(p.reg(), 1)], MOp::use_(x), MOp::use_(y), MOp::rz());
                // The product's bits from the width up, zeros shifted in: the zero-extended
                // form sub-word values keep (ptxas's `.S32` shift leaves the sign bits, which
                // a 16-bit store drops).
                self.emit(self.isa.shr(MOp::def(d.reg(), 1), MOp::use_(p), MOp::Imm(bits as i64), false, false));
            }
            Type::I64 if !signed => {
                self.mulhi64(ra, rb, Some(d));
            }
            Type::I64 => {
                let h = self.mulhi64(ra, rb, None);
                let fa = self.negative_mask(ra, rb)?;
                let fb = self.negative_mask(rb, ra)?;
                let fix = self.add64_pairs(fa, fb);
                // h - fix = h + ~fix + 1, as the 64-bit `isub`.
                let nf = self.new_vreg(RegClass::Single);
                self.emit(self.lop(MOp::def(nf.reg(), 1), MOp::rz(), MOp::use_(fix.hi()), MOp::rz(), 0x33)?);
                self.add_pair(d, [MOp::use_(h.lo()), MOp::use_(h.hi())], [MOp::neg(fix.lo()), MOp::use_(nf)]);
            }
            _ => return Err(self.err(format!("{op} on {ty} is not selected"))),
        }
        Ok(())
    }

    /// Pair `other` where the 64-bit `sign_of` is negative, else 0: each half of `other` and'ed
    /// with `sign_of.hi >> 31` (arithmetic).
    fn negative_mask(&mut self, sign_of: VReg, other: VReg) -> Result<VReg, IselError> {
        let s = self.new_vreg(RegClass::Single);
        self.emit(self.isa.shr(MOp::def(s.reg(), 1), MOp::use_(sign_of.hi()), MOp::Imm(31), true, false));
        let and = |this: &Self, half| this.lop(MOp::rz(), MOp::use_(half), MOp::use_(s), MOp::rz(), 0xc0);
        let (lo, hi) = (and(self, other.lo())?, and(self, other.hi())?);
        let m = self.new_vreg(RegClass::Pair);
        self.pair_op(m, lo, hi);
        Ok(m)
    }
}
