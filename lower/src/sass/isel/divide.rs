//! 32-bit integer division and remainder, as ptxas 13.5 divides (`div.u32`, `rem.u32`,
//! `div.s32`, `rem.s32` on sm_90):
//!
//! ```text
//! I2F.U32.RP R0, b            ; b as a float, rounded up
//! MUFU.RCP R0, R0             ; ~1/b
//! IADD3 R2, R0, 0xffffffe, RZ ; two ulps less: an underestimate
//! F2I.FTZ.U32.TRUNC.NTZ R3, R2; r ~ 2^32 / b
//! IMAD R5, -r, b, RZ          ; e = -r*b (mod 2^32)
//! IMAD.HI.U32 R3, R3, R5, R2  ; r += hi(r*e)   (one Newton step)
//! IMAD.HI.U32 q, r, a, RZ     ; q = hi(r*a), at most 2 below a/b
//! IMAD rem, b, -q, a          ; rem = a - q*b
//! ISETP.GE.U32 ; @P0 rem -= b, q += 1   (twice)
//! @!P2 LOP3.LUT q, RZ, b, RZ, 0x33    ; b == 0: ~b (all ones)
//! ```
//!
//! The signed forms divide the magnitudes (`IABS`) and give the quotient the sign of `a ^ b`,
//! the remainder the sign of `a`. atomc keeps ptxas's arithmetic and replaces its guarded
//! instructions by selects, since atomc's selector uses a predicate only right after the
//! compare that sets it (`SEL one, RZ, 0x1, !P0` then an add), and `IMAD.HI.U32`'s 64-bit
//! addend (`R2:R3` = `r << 32`) becomes a separate add. Sub-word operands are widened by their
//! signedness first. sm_50 gets the same sequence in its own instructions (`I2F.F32.U32.RP`,
//! `F2I.FTZ.U32.F32.TRUNC`, the high word of an `XMAD` product, `IABS` as shift/xor/subtract:
//! [`super::Isa`]), as ptxas 11.8 divides.

use super::{DivCvt, Isel, IselError};
use crate::sass::inst::{MOp, SassInst};
use crate::vcode::{RegClass, VReg};
use atomc_ir::{BinaryOp, Value};
use atomc_sass::op;
use atomc_sass::op::Opcode;

impl Isel<'_> {
    /// Selects `d = a op b` for a 32-bit or narrower integer division or remainder.
    pub(super) fn divide32(&mut self, d: VReg, op: BinaryOp, a: Value, b: Value) -> Result<(), IselError> {
        let ty = self.ty(a);
        let signed = matches!(op, BinaryOp::Sdiv | BinaryOp::Srem);
        let quotient = matches!(op, BinaryOp::Udiv | BinaryOp::Sdiv);
        let (mut x, mut y) = (self.reg(a), self.reg(b));
        if signed && ty.bits() < 32 {
            x = self.sign_extended(x, ty.bits());
            y = self.sign_extended(y, ty.bits());
        }
        let (ux, uy) = if signed { (self.abs_to(x), self.abs_to(y)) } else { (x, y) };

        // r ~ 2^32 / uy, refined by one Newton step.
        let f = self.var_to(self.isa.division_cvt(DivCvt::U32ToF32Up), [MOp::use_(uy)]);
        let rcp = self.var_to(op!(MUFU.RCP), [MOp::use_(f)]);
        let less = self.add_to(MOp::use_(rcp), MOp::Imm(0xffffffe));
        let r0 = self.var_to(self.isa.division_cvt(DivCvt::F32ToU32Trunc), [MOp::use_(less)]);
        let nr = self.add_to(MOp::rz(), MOp::neg(r0));
        let e = self.new_single(|s, t| s.isa.imad(s, &[t], MOp::use_(nr), MOp::use_(uy), MOp::rz()));
        let h = self.new_single(|s, t| s.isa.mul_hi_u32(s, t, MOp::use_(r0), MOp::use_(e)));
        let r = self.add_to(MOp::use_(r0), MOp::use_(h));

        // q = hi(r * ux) is at most 2 below the quotient: correct it twice.
        let mut q = self.new_single(|s, t| s.isa.mul_hi_u32(s, t, MOp::use_(r), MOp::use_(ux)));
        let nq = self.add_to(MOp::rz(), MOp::neg(q));
        let mut rem = self.new_single(|s, t| s.isa.imad(s, &[t], MOp::use_(uy), MOp::use_(nq), MOp::use_(ux)));
        for _ in 0..2 {
            self.set_p0(op!(ISETP.GE.U32.AND), rem, MOp::use_(uy));
            let sub = self.var_to(op!(SEL), [MOp::use_(uy), MOp::rz(), MOp::p0()]);
            let one = self.var_to(op!(SEL), [MOp::rz(), MOp::Imm(1), MOp::Pred { num: 0, not: true }]);
            q = self.add_to(MOp::use_(q), MOp::use_(one));
            rem = self.add_to(MOp::use_(rem), MOp::neg(sub));
        }

        // Signs: the quotient's is a ^ b's, the remainder's a's.
        let mut out = if quotient { q } else { rem };
        if signed {
            let sign_of = if quotient {
                let t = self.new_vreg(RegClass::Single);
                self.emit(self.lop(MOp::def(t.reg(), 1), MOp::use_(x), MOp::use_(y), MOp::rz(), 0x3c)?);
                t
            } else {
                x
            };
            let neg = self.add_to(MOp::rz(), MOp::neg(out));
            self.set_p0(op!(ISETP.GE.AND), sign_of, MOp::rz());
            out = self.var_to(op!(SEL), [MOp::use_(out), MOp::use_(neg), MOp::p0()]);
        }
        // b == 0: all ones, as ptxas leaves it (`LOP3.LUT R, RZ, b, RZ, 0x33` is ~b).
        let ones = self.new_vreg(RegClass::Single);
        self.emit(self.lop(MOp::def(ones.reg(), 1), MOp::rz(), MOp::use_(y), MOp::rz(), 0x33)?);
        self.set_p0(op!(ISETP.NE.U32.AND), y, MOp::rz());
        let result = if ty.bits() < 32 { self.new_vreg(RegClass::Single) } else { d };
        self.emit(SassInst::new(op!(SEL), [MOp::def(result.reg(), 1), MOp::use_(out), MOp::use_(ones), MOp::p0()]));
        if ty.bits() < 32 {
            self.narrow(d, ty, result)?;
        }
        Ok(())
    }

    /// `P0 = cmp(a, b)`.
    fn set_p0(&mut self, opcode: Opcode, a: VReg, b: MOp) {
        self.emit(SassInst::new(opcode, [MOp::p0(), MOp::pt(), MOp::use_(a), b, MOp::pt()]));
    }

    /// A fresh register defined by `opcode` (spelled alike on both targets) with sources `srcs`.
    fn var_to<const N: usize>(&mut self, opcode: Opcode, srcs: [MOp; N]) -> VReg {
        let t = self.new_vreg(RegClass::Single);
        self.emit(SassInst::new(opcode, std::iter::once(MOp::def(t.reg(), 1)).chain(srcs)));
        t
    }

    /// A fresh register `a + b`.
    fn add_to(&mut self, a: MOp, b: MOp) -> VReg {
        let t = self.new_vreg(RegClass::Single);
        self.emit(self.isa.add(MOp::def(t.reg(), 1), a, b));
        t
    }

    /// A fresh register `|x|`.
    fn abs_to(&mut self, x: VReg) -> VReg {
        self.new_single(|s, t| s.isa.iabs(s, t, MOp::use_(x)))
    }

    /// A fresh register written by the target's sequence `f` (given its result field).
    fn new_single(&mut self, f: impl FnOnce(&mut Self, MOp)) -> VReg {
        let t = self.new_vreg(RegClass::Single);
        f(self, MOp::def(t.reg(), 1));
        t
    }
}
