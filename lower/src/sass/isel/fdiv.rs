//! f32 division, rounded to nearest even (`fdiv` on f32 is `div.rn.f32`), and f16 division
//! through it ([`Isel::fdiv16`]).
//!
//! ptxas 13.5's `div.rn.f32` is a fast path (`MUFU.RCP`, `FCHK`, five `FFMA`s) and, for the
//! operands `FCHK` flags, a call to a slow-path subroutine with branches; atomc's selector
//! emits no control flow inside an instruction. atomc divides the operands converted to f64
//! instead, with the fast path of ptxas 13.5's own `div.rn.f64`, and rounds the quotient back:
//!
//! ```text
//! MUFU.RCP64H R3, B.hi          ; R2 = 1: y ~ 1/B
//! DFMA e, -B, y, 1 ; DFMA e, e, e, e ; DFMA y, y, e, y
//! DFMA e, -B, y, 1 ; DFMA y, y, e, y
//! DMUL q, A, y ; DFMA r, -B, q, A ; DFMA q, y, r, q
//! ```
//!
//! ptxas takes that path when `|A.hi| >= 6.58e-37` and `|q.hi| > 1.47e-39` read as f32 (A at
//! least 2^-969, q normal): every finite nonzero f32 operand pair passes (|A| >= 2^-149, the
//! quotient within 2^+-277), so q is the correctly rounded f64 quotient. Rounding it to f32
//! (`F2F.F32.F64`) is then the correctly rounded f32 quotient: double rounding is innocuous
//! for division when 53 >= 2*24 + 2, and for subnormal f32 results too (an f32 quotient that is
//! not a midpoint of the subnormal grid lies more than 2^-174 from one, beyond the half ulp of
//! an f64 near 2^-126). The result does not depend on `MUFU.RCP64H`'s approximation beyond its
//! ~2^-20 accuracy: the two Newton steps and the final correction make q exact.
//!
//! The cost is FP64 work where ptxas's fast path is FP32 (sm_50 runs FP64 at 1/32 rate).
//!
//! The operands that are zero, infinite or NaN take `a * c` instead, `c` from b: ±inf for ±0,
//! ±0 for ±inf, b for a NaN and ±1 otherwise (then a is 0, inf or NaN itself): 0/0, inf/inf
//! and NaNs give NaN, x/0 ±inf, x/inf ±0, 0/x ±0, inf/x ±inf.

use super::{Isel, IselError};
use crate::sass::inst::{MOp, SassInst};
use crate::vcode::{OperandRule, RegClass, VReg};
use atomc_ir::Value;
use atomc_sass::op;
use atomc_sass::op::Opcode;

impl Isel<'_> {
    /// Selects `d = a / b` on f32.
    pub(super) fn fdiv32(&mut self, d: VReg, a: Value, b: Value) -> Result<(), IselError> {
        let (x, y) = (self.reg(a), self.reg(b));
        self.fdiv32_regs(d, x, y)
    }

    /// Selects `d = a / b` on f16: the f32 quotient of the operands widened to f32 (exactly),
    /// rounded to f16. The two roundings give the correctly rounded f16 quotient:
    /// - normal results: double rounding is innocuous for division when the wider format has
    ///   p' >= 2p + 2 bits (Figueroa), and f32's 24 = 2 * 11 + 2;
    /// - subnormal results (below 2^-14, grid 2^-24): write a = A * 2^α and b = B * 2^β with A,
    ///   B odd below 2^11, and a midpoint of the grid as k * 2^-25. A quotient that is not a
    ///   midpoint differs from it by (A * 2^(α-β) - k * B * 2^-25) / B. If α >= β - 25 that is
    ///   at least 2^(β-25) / (B * 2^β) > 2^-36; otherwise at least 2^(α-β) / B > 2^(α-β-11),
    ///   while the quotient is below 2^(α-β+11). Either way it exceeds half an f32 ulp of the
    ///   quotient (at most 2^-39 below 2^-14, and below 2^(α-β-13) in the second case), so the
    ///   f32 rounding cannot move it onto a midpoint or across one;
    /// - every f16 quotient, 2^-40 to 2^40 in magnitude, is a normal f32.
    ///
    /// ptxas 13.5 and 11.8 have no f16 division either: CUDA's `__hdiv` divides in f32 and
    /// rounds, and atomc's PTX output (`div.rn.f32` then `cvt.rn.f16.f32`) does the same.
    pub(super) fn fdiv16(&mut self, d: VReg, a: Value, b: Value) -> Result<(), IselError> {
        let (x, y) = (self.reg(a), self.reg(b));
        let (x, y) = (self.half_to_f32(x)?, self.half_to_f32(y)?);
        let q = self.new_vreg(RegClass::Single);
        self.fdiv32_regs(q, x, y)?;
        self.isa.f16_convert(self, d, atomc_ir::Type::F32, atomc_ir::Type::F16, q)
    }

    /// `d = x / y` on the f32 registers `x` and `y`.
    fn fdiv32_regs(&mut self, d: VReg, x: VReg, y: VReg) -> Result<(), IselError> {
        let wide = |t: &mut Self, s: VReg| {
            let w = t.new_vreg(RegClass::Pair);
            t.emit(SassInst::new(op!(F2F.F64.F32), [MOp::def(w.reg(), 2), MOp::use_(s)]));
            w
        };
        let (xa, xb) = (wide(self, x), wide(self, y));
        let q = self.quotient64(xa, xb);
        let fast = self.new_vreg(RegClass::Single);
        self.emit(SassInst::new(op!(F2F.F32.F64), [MOp::def(fast.reg(), 1), MOp::use_pair(q)]));

        // The special operands: a * c.
        let mag = self.fd_and(y, 0x7fff_ffff)?;
        let sign = self.fd_and(y, 0x8000_0000)?;
        let inf = self.fd_mov(0x7f80_0000);
        let one_f = self.fd_mov(0x3f80_0000);
        self.fd_p0(op!(ISETP.EQ.U32.AND), mag, MOp::rz());
        let c = self.fd_alu([MOp::use_(inf), MOp::use_(one_f), MOp::p0()], op!(SEL));
        self.fd_p0(op!(ISETP.EQ.U32.AND), mag, MOp::use_(inf));
        let c = self.fd_alu([MOp::rz(), MOp::use_(c), MOp::p0()], op!(SEL));
        self.fd_p0(op!(ISETP.GT.U32.AND), mag, MOp::use_(inf));
        let c_sel = self.fd_alu([MOp::use_(mag), MOp::use_(c), MOp::p0()], op!(SEL));
        let c = self.new_vreg(RegClass::Single);
        self.emit(self.isa.add(MOp::def(c.reg(), 1), MOp::use_(c_sel), MOp::use_(sign)));
        let special = self.fd_alu([MOp::use_(x), MOp::use_(c)], op!(FMUL));

        // Finite and nonzero: |v| - 1 at most 0x7f7ffffe, unsigned.
        let max_m1 = self.isa.compare_imm(self, 0x7f7f_fffe);
        let mut out = fast;
        let mag_a = self.fd_and(x, 0x7fff_ffff)?;
        for (i, m) in [mag_a, mag].into_iter().enumerate() {
            let m1 = self.new_vreg(RegClass::Single);
            self.emit(self.isa.add(MOp::def(m1.reg(), 1), MOp::use_(m), MOp::Imm(-1)));
            self.fd_p0(op!(ISETP.LE.U32.AND), m1, max_m1);
            let dst = if i == 1 { d } else { self.new_vreg(RegClass::Single) };
            self.emit(SassInst::new(op!(SEL), [MOp::def(dst.reg(), 1), MOp::use_(out), MOp::use_(special), MOp::p0()]));
            out = dst;
        }
        Ok(())
    }

    /// `A / B` on f64 through ptxas's `div.rn.f64` fast path above: correctly rounded when
    /// the operands and the quotient are in its range (`fdiv64.rs` keeps them there).
    pub(super) fn quotient64(&mut self, xa: VReg, xb: VReg) -> VReg {
        let neg_b = MOp::Reg { reg: xb.reg(), width: 2, rule: OperandRule::Use, neg: true };

        // y0: MUFU.RCP64H's high word written over a low word of 1, as ptxas builds it
        // (`IMAD.MOV.U32 R2, RZ, RZ, 0x1` ... `MUFU.RCP64H R3, R7`): the DFMA then waits on MUFU's
        // scoreboard only. (Copying MUFU's result into the pair with a MOV read by the DFMA 4
        // cycles later gave the old high word on an H100: run 6's -15 x quotients.)
        let (lo, y0) = (self.new_vreg(RegClass::Pair), self.new_vreg(RegClass::Pair));
        self.emit(self.isa.mov(&[MOp::def(lo.lo(), 2)], MOp::Imm(1)));
        self.emit(SassInst::new(
            op!(MUFU.RCP64H),
            [MOp::Tied { reg: lo.reg(), width: 2 }, MOp::reuse_def(y0.hi(), 0), MOp::use_(xb.hi())],
        ));
        // sm_50's DFMA has no immediate (ptxas 11.8 reads 1.0 from c[0x2][0x0]): a register pair.
        let one = self.isa.f64_one(self);
        let e = self.dfma(neg_b, MOp::use_pair(y0), one);
        let e = self.dfma(MOp::use_pair(e), MOp::use_pair(e), MOp::use_pair(e));
        let y1 = self.dfma(MOp::use_pair(y0), MOp::use_pair(e), MOp::use_pair(y0));
        let e = self.dfma(neg_b, MOp::use_pair(y1), one);
        let y2 = self.dfma(MOp::use_pair(y1), MOp::use_pair(e), MOp::use_pair(y1));
        let q = self.new_vreg(RegClass::Pair);
        self.emit(SassInst::new(op!(DMUL), [MOp::def(q.reg(), 2), MOp::use_pair(xa), MOp::use_pair(y2)]));
        let r = self.dfma(neg_b, MOp::use_pair(q), MOp::use_pair(xa));
        self.dfma(MOp::use_pair(y2), MOp::use_pair(r), MOp::use_pair(q))
    }

    /// A fresh pair: `DFMA t, a, b, c` (sm_50 takes `-B * y` as `y * -B`: [`super::Isa::dfma`]).
    /// F2F and MUFU.RCP64H are spelled alike on both targets.
    pub(super) fn dfma(&mut self, a: MOp, b: MOp, c: MOp) -> VReg {
        let t = self.new_vreg(RegClass::Pair);
        self.emit(self.isa.dfma(MOp::def(t.reg(), 2), a, b, c));
        t
    }

    /// A fresh register `v & mask`.
    fn fd_and(&mut self, v: VReg, mask: i64) -> Result<VReg, IselError> {
        let t = self.new_vreg(RegClass::Single);
        self.emit(self.lop(MOp::def(t.reg(), 1), MOp::use_(v), MOp::Imm(mask), MOp::rz(), 0xc0)?);
        Ok(t)
    }

    /// A fresh register holding `bits`.
    pub(super) fn fd_mov(&mut self, bits: i64) -> VReg {
        let t = self.new_vreg(RegClass::Single);
        self.emit(self.isa.mov(&[MOp::def(t.reg(), 1)], MOp::Imm(bits)));
        t
    }

    /// A fresh register defined by the fixed-latency `opcode` with sources `srcs`.
    pub(super) fn fd_alu<const N: usize>(&mut self, srcs: [MOp; N], opcode: Opcode) -> VReg {
        let t = self.new_vreg(RegClass::Single);
        self.emit(SassInst::new(opcode, std::iter::once(MOp::def(t.reg(), 1)).chain(srcs)));
        t
    }

    /// `P0 = cmp(a, b)`.
    pub(super) fn fd_p0(&mut self, opcode: Opcode, a: VReg, b: MOp) {
        self.emit(SassInst::new(opcode, [MOp::p0(), MOp::pt(), MOp::use_(a), b, MOp::pt()]));
    }
}
