//! 64-bit integer division and remainder, as ptxas 13.5 divides (`div.u64` on sm_90; ptxas
//! puts it in a subroutine, a straight line with no branches, which atomc inlines):
//!
//! ```text
//! I2F.U64.RP R10, b              ; b as a float, rounded up
//! MUFU.RCP R10, R10              ; ~1/b
//! VIADD R6, R10, 0x1ffffffe      ; * 2^64, two ulps less: an underestimate
//! F2I.U64.TRUNC R6, R6           ; r ~ 2^64 / b
//! e = -r*b (mod 2^64); r += hi64(r*e)      (twice: IMAD.WIDE.U32 / IMAD.HI.U32 with carries)
//! q = hi64(r*a); rem = a - q*b
//! ISETP.GE.U32.AND.EX ; SEL rem - b, q + 1   (twice)
//! ```
//!
//! atomc forms the high word of the 64x64 products from the four 32x32 `IMAD.WIDE.U32`
//! products and 64-bit adds (ptxas folds the adds into `IMAD.WIDE.U32`/`IMAD.HI.U32` carry
//! chains; atomc's selector keeps one carry, P1, live at a time). The signed forms divide the
//! magnitudes and fix the signs as the 32-bit ones do (`isel/divide.rs`). Division by zero
//! traps in the IR's interpreter; the result here is unspecified.

use super::{DivCvt, Isel, IselError};
use crate::sass::inst::{MOp, SassInst};
use crate::vcode::{Reg, RegClass, VReg};
use atomc_ir::{BinaryOp, Value};
use atomc_sass::op;
use atomc_sass::op::t;

impl Isel<'_> {
    /// Selects `d = a op b` for a 64-bit integer division or remainder.
    pub(super) fn divide64(&mut self, d: VReg, op: BinaryOp, a: Value, b: Value) -> Result<(), IselError> {
        let signed = matches!(op, BinaryOp::Sdiv | BinaryOp::Srem);
        let quotient = matches!(op, BinaryOp::Udiv | BinaryOp::Sdiv);
        let (x, y) = (self.reg(a), self.reg(b));
        let (ux, uy) = if signed { (self.abs64(x)?, self.abs64(y)?) } else { (x, y) };

        // r ~ 2^64 / uy, refined by two Newton steps.
        let f = self.new_vreg(RegClass::Single);
        self.emit(SassInst::new(self.isa.division_cvt(DivCvt::U64ToF32Up), [MOp::def(f.reg(), 1), MOp::use_pair(uy)]));
        let rcp = self.new_vreg(RegClass::Single);
        self.emit(SassInst::new(op!(MUFU.RCP), [MOp::def(rcp.reg(), 1), MOp::use_(f)]));
        let less = self.new_vreg(RegClass::Single);
        self.emit(self.isa.add(MOp::def(less.reg(), 1), MOp::use_(rcp), MOp::Imm(0x1fff_fffe)));
        let mut r = self.new_vreg(RegClass::Pair);
        self.emit(SassInst::new(self.isa.division_cvt(DivCvt::F32ToU64Trunc), [MOp::def(r.reg(), 2), MOp::use_(less)]));
        for _ in 0..2 {
            let ry = self.mul64(r, uy);
            let e = self.sub64(None, ry)?;
            let h = self.mulhi64(r, e, None);
            r = self.add64_pairs(r, h);
        }

        // q = hi(r * ux) is at most 2 below the quotient: correct it twice.
        let mut q = self.mulhi64(r, ux, None);
        let qy = self.mul64(q, uy);
        let mut rem = self.sub64(Some(ux), qy)?;
        let one = self.new_vreg(RegClass::Single);
        self.emit(self.isa.mov(&[MOp::def(one.reg(), 1)], MOp::Imm(1)));
        for i in 0..2 {
            // The unsigned result is the last correction's.
            let last = |want: bool| (i == 1 && !signed && quotient == want).then_some(d);
            let q1 = self.add64_halves(MOp::use_(q.lo()), MOp::use_(q.hi()), MOp::use_(one), MOp::rz());
            let r1 = self.sub64(Some(rem), uy)?;
            let halves = |r: VReg| [MOp::use_(r.lo()), MOp::use_(r.hi())];
            self.isa.compare64(self, t::GE, true, halves(rem), halves(uy));
            q = self.sel64(last(true), q1, q);
            rem = self.sel64(last(false), r1, rem);
        }

        // Signs: the quotient's is a ^ b's, the remainder's a's.
        if !signed {
            return Ok(());
        }
        let out = if quotient { q } else { rem };
        let sign_of = if quotient {
            let t = self.new_vreg(RegClass::Single);
            self.emit(self.lop(MOp::def(t.reg(), 1), MOp::use_(x.hi()), MOp::use_(y.hi()), MOp::rz(), 0x3c)?);
            t.reg()
        } else {
            x.hi()
        };
        let neg = self.sub64(None, out)?;
        self.emit(SassInst::new(op!(ISETP.GE.AND), [MOp::p0(), MOp::pt(), MOp::use_(sign_of), MOp::rz(), MOp::pt()]));
        self.sel64(Some(d), out, neg);
        Ok(())
    }

    /// `|x|` of a signed 64-bit value (`-x` where the high word is negative).
    fn abs64(&mut self, x: VReg) -> Result<VReg, IselError> {
        let n = self.sub64(None, x)?;
        self.emit(SassInst::new(op!(ISETP.GE.AND), [MOp::p0(), MOp::pt(), MOp::use_(x.hi()), MOp::rz(), MOp::pt()]));
        Ok(self.sel64(None, x, n))
    }

    /// `P0 ? a : b` per half, into `dst` or a fresh pair.
    fn sel64(&mut self, dst: Option<VReg>, a: VReg, b: VReg) -> VReg {
        let d = dst.unwrap_or_else(|| self.new_vreg(RegClass::Pair));
        self.pair_op(
            d,
            SassInst::new(op!(SEL), [MOp::rz(), MOp::use_(a.lo()), MOp::use_(b.lo()), MOp::p0()]),
            SassInst::new(op!(SEL), [MOp::rz(), MOp::use_(a.hi()), MOp::use_(b.hi()), MOp::p0()]),
        );
        d
    }

    /// `a + b` from halves, carried.
    fn add64_halves(&mut self, alo: MOp, ahi: MOp, blo: MOp, bhi: MOp) -> VReg {
        let d = self.new_vreg(RegClass::Pair);
        self.add_pair(d, [alo, ahi], [blo, bhi]);
        d
    }

    pub(super) fn add64_pairs(&mut self, a: VReg, b: VReg) -> VReg {
        self.add64_halves(MOp::use_(a.lo()), MOp::use_(a.hi()), MOp::use_(b.lo()), MOp::use_(b.hi()))
    }

    /// `a - b` (`-b` without `a`), as the IR's 64-bit `isub`: `a + ~b + 1`.
    fn sub64(&mut self, a: Option<VReg>, b: VReg) -> Result<VReg, IselError> {
        let nb = self.new_vreg(RegClass::Single);
        self.emit(self.lop(MOp::def(nb.reg(), 1), MOp::rz(), MOp::use_(b.hi()), MOp::rz(), 0x33)?);
        let (alo, ahi) = a.map_or((MOp::rz(), MOp::rz()), |a| (MOp::use_(a.lo()), MOp::use_(a.hi())));
        let d = self.new_vreg(RegClass::Pair);
        self.add_pair(d, [alo, ahi], [MOp::neg(b.lo()), MOp::use_(nb)]);
        Ok(d)
    }

    /// `IMAD.WIDE.U32 t, a, b, RZ`: the 64-bit product of two words.
    fn wide(&mut self, a: Reg, b: Reg) -> VReg {
        let t = self.new_vreg(RegClass::Pair);
        self.isa.mul_wide_u32(self, t, MOp::use_(a), MOp::use_(b));
        t
    }

    /// The low 64 bits of `a * b`, as the IR's 64-bit `imul`.
    fn mul64(&mut self, a: VReg, b: VReg) -> VReg {
        let t = self.wide(a.lo(), b.lo());
        let tied = |t: VReg, h: VReg| [MOp::Tied { reg: t.reg(), width: 2 }, MOp::reuse_def(h.hi(), 0)];
        let u = self.new_vreg(RegClass::Pair);
        self.isa.imad(self, &tied(t, u), MOp::use_(a.lo()), MOp::use_(b.hi()), MOp::use_(t.hi()));
        let d = self.new_vreg(RegClass::Pair);
        self.isa.imad(self, &tied(u, d), MOp::use_(a.hi()), MOp::use_(b.lo()), MOp::use_(u.hi()));
        d
    }

    /// The high 64 bits of the 128-bit `a * b`, into `dst` or a fresh pair: the four word
    /// products summed, none of the 64-bit sums overflowing ((2^32 - 1)^2 + 2 * (2^32 - 1) < 2^64).
    pub(super) fn mulhi64(&mut self, a: VReg, b: VReg, dst: Option<VReg>) -> VReg {
        let ll = self.wide(a.lo(), b.lo());
        let lh = self.wide(a.lo(), b.hi());
        let hl = self.wide(a.hi(), b.lo());
        let hh = self.wide(a.hi(), b.hi());
        let t = self.add64_halves(MOp::use_(lh.lo()), MOp::use_(lh.hi()), MOp::use_(ll.hi()), MOp::rz());
        let t2 = self.add64_halves(MOp::use_(hl.lo()), MOp::use_(hl.hi()), MOp::use_(t.lo()), MOp::rz());
        let h = self.add64_halves(MOp::use_(hh.lo()), MOp::use_(hh.hi()), MOp::use_(t.hi()), MOp::rz());
        let d = dst.unwrap_or_else(|| self.new_vreg(RegClass::Pair));
        self.add_pair(d, [MOp::use_(h.lo()), MOp::use_(h.hi())], [MOp::use_(t2.hi()), MOp::rz()]);
        d
    }
}
