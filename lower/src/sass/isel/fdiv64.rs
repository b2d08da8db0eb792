//! f64 division, rounded to nearest even (`fdiv` on f64 is `div.rn.f64`), with no branches.
//!
//! ptxas's `div.rn.f64` is a fast path (`MUFU.RCP64H`, two Newton steps, the product and its
//! correction: [`Isel::quotient64`], see `fdiv.rs`) that is correctly rounded while the
//! operands and the quotient stay away from the ends of the exponent range, and a call to a
//! slow-path subroutine otherwise; atomc's selector emits no control flow inside an
//! instruction. So the fast path only ever divides significands, and the exponent is put
//! back afterwards with one rounding:
//!
//! 1. Each finite nonzero operand is `x = X * 2^(ex - 1023)` with `X` in [1, 2): a subnormal
//!    operand is first multiplied by 2^54 (exact; `DMUL` by a factor whose high word is
//!    selected) and its exponent field lowered by 54; `X` is the operand with its high word's
//!    sign and exponent replaced by 0x3ff.
//! 2. `q = RN(X / Y)` by the fast path, in [0.5, 2): in its range for every `X` and `Y`, so
//!    correctly rounded to 53 bits. `r = X - Y*q` by one `DFMA` is exact (the remainder of a
//!    correctly rounded quotient is representable; the fast path's own last step relies on
//!    it) and nonzero r is at least 2^-105, a normal double: its sign says on which side of
//!    `q` the exact quotient lies, and `r == 0` that `q` is exact.
//! 3. The result is `RN(q * 2^D)`, `D = ea - eb`, computed as `(q' * 2^D1) * ±2^D2` with
//!    `D` clamped to [-2040, 2046], `D1 = D >> 1` and `D2 = D - D1`: both powers are normal
//!    doubles, the first product is exact (it stays within [2^-1021, 2^1024)), so the second
//!    `DMUL` is the only rounding. The clamp changes no result: below it every quotient is
//!    under 2^-2039 (±0), above it at least 2^2045 (±inf).
//! 4. `q' = q` when the result is normal or overflows: `q * 2^D` is then exact or ±inf
//!    (q has 53 bits; RN overflows exactly when the unbounded-exponent rounding reaches
//!    2^1024), so the single rounding of step 3 is the whole story. When it is subnormal
//!    (the biased exponent `k` of `q * 2^D` is 0 or less), the `DMUL` rounds a second time,
//!    to the grid 2^-1074, which is `g = 2^s` ulps of `q` with `s = 1 - k >= 1`; a second
//!    rounding of `q` would be wrong where `q` is a midpoint of that grid but the exact
//!    quotient is not. `q'` is `q` or its neighbour towards the exact quotient (the bit
//!    pattern plus or minus one, as the sign of r says; a 64-bit add, so a borrow or carry
//!    across a power of two gives the right neighbour):
//!    - `s >= 2` (k < 0): `q'` is the quotient rounded to odd, `q` when r is 0 or q is odd,
//!      else the neighbour (odd). Rounding to odd at 53 bits and then to nearest at no more
//!      than 51 bits is the correctly rounded result: the grid's midpoints are even multiples
//!      of an ulp, an odd `q'` is never one, and no midpoint lies strictly between it and the
//!      exact quotient (both are in the same open ulp interval, or `q'` is the exact value).
//!    - `s == 1` (k = 0): the grid is every even multiple of an ulp, its midpoints the odd
//!      ones. An even `q` is a grid point and within half an ulp of the exact quotient, which
//!      therefore rounds to it; an odd `q` with r != 0 is a midpoint the exact quotient is not
//!      on, and its neighbour on the exact quotient's side is the grid point it rounds to (an
//!      exact midpoint, r = 0, is left to the `DMUL`'s ties-to-even). So `q'` is the neighbour
//!      when q is odd and r != 0.
//!
//!    Both cases: `q'` is the neighbour when r != 0, k <= 0 and the parity of q differs from
//!    `k < 0`. A subnormal result that rounds up to 2^-1022 comes out of the `DMUL` as such.
//!
//! Zero, infinite and NaN operands are classed by `c = |x.hi| | min(x.lo, 1)` (0: zero,
//! 0x7ff00000: inf, more: NaN) and give ±0 (0/y, x/inf), ±inf (inf/y, x/0), or the
//! canonical NaN 0x7ff8000000000000 of the reference interpreter (a NaN operand, 0/0,
//! inf/inf; the hardware's own NaN, 0x7fffffffffffffff, is not it).
//!
//! The integer steps go through the target's [`super::Isa`] (sm_50 spells adds, shifts,
//! min/max and logic ops differently, and takes the fast path's 1.0 from a register pair and
//! wide `ISETP` immediates through a `MOV`); `SEL`, `ISETP` and the f64 ops are alike.

use super::{Isel, IselError};
use crate::sass::inst::{MOp, SassInst};
use crate::vcode::{OperandRule, RegClass, VReg};
use atomc_ir::Value;
use atomc_sass::op;

/// The high word of +inf, and of the interpreter's canonical NaN.
const INF_HI: i64 = 0x7ff0_0000;
const QNAN_HI: i64 = 0x7ff8_0000;

const NOT_P0: MOp = MOp::Pred { num: 0, not: true };

impl Isel<'_> {
    /// Selects `d = a / b` on f64.
    pub(super) fn fdiv64(&mut self, d: VReg, a: Value, b: Value) -> Result<(), IselError> {
        let (x, y) = (self.reg(a), self.reg(b));
        let (ca, cb) = (self.fd64_class(x)?, self.fd64_class(y)?);
        let (sa, ea) = self.fd64_split(x)?;
        let (sb, eb) = self.fd64_split(y)?;
        let q = self.quotient64(sa, sb);
        let neg_sb = MOp::Reg { reg: sb.reg(), width: 2, rule: OperandRule::Use, neg: true };
        let r = self.dfma(neg_sb, MOp::use_pair(q), MOp::use_pair(sa));

        // D = ea - eb, clamped; 2^D1 and ±2^D2.
        let e = self.fd_add(MOp::use_(ea), MOp::neg(eb));
        let e = self.fd_minmax(MOp::use_(e), MOp::Imm(-2040), false, true);
        let e = self.fd_minmax(MOp::use_(e), MOp::Imm(2046), false, false);
        let e1 = self.fd_shr(e, 1, true);
        let e2 = self.fd_add(MOp::use_(e), MOp::neg(e1));
        let sign = self.fd_lop(MOp::use_(x.hi()), MOp::use_(y.hi()), MOp::rz(), 0x3c)?;
        let sign = self.fd_lop(MOp::use_(sign), MOp::Imm(0x8000_0000), MOp::rz(), 0xc0)?;
        let s1 = self.fd64_pow2(e1, None);
        let s2 = self.fd64_pow2(e2, Some(sign));

        // q': the neighbour of q towards the exact quotient when r != 0, k <= 0 and
        // (q odd) != (k < 0); delta is that step (+-1 on the bit pattern) or 0.
        let kq = self.fd_shr_reg(q.hi(), 20, false);
        let k = self.fd_add(MOp::use_(kq), MOp::use_(e));
        let below = self.fd_shr(k, 31, false);
        let differ = self.fd_lop(MOp::use_(q.lo()), MOp::use_(below), MOp::rz(), 0x3c)?;
        let differ = self.fd_lop(MOp::use_(differ), MOp::Imm(1), MOp::rz(), 0xc0)?;
        let side = self.fd_shr_reg(r.hi(), 31, true);
        let step = self.fd_lop(MOp::use_(side), MOp::Imm(1), MOp::rz(), 0xfc)?;
        // r's magnitude bits: a nonzero r is normal, so its high word says.
        let r_mag = self.fd_shl_reg(r.hi(), 1);
        self.fd_p0(op!(ISETP.NE.U32.AND), differ, MOp::rz());
        let delta = self.fd_alu([MOp::use_(step), MOp::rz(), MOp::p0()], op!(SEL));
        self.fd_p0(op!(ISETP.GT.AND), k, MOp::rz());
        let delta = self.fd_alu([MOp::rz(), MOp::use_(delta), MOp::p0()], op!(SEL));
        self.fd_p0(op!(ISETP.EQ.U32.AND), r_mag, MOp::rz());
        let delta = self.fd_alu([MOp::rz(), MOp::use_(delta), MOp::p0()], op!(SEL));
        let delta_hi = self.fd_shr(delta, 31, true);
        let qa = self.new_vreg(RegClass::Pair);
        let lo = self.isa.add_carry_out(MOp::rz(), MOp::use_(q.lo()), MOp::use_(delta));
        let hi = self.isa.add_carry_in(MOp::rz(), MOp::use_(q.hi()), MOp::use_(delta_hi));
        self.pair_op(qa, lo, hi);
        let t = self.new_vreg(RegClass::Pair);
        self.emit(SassInst::new(op!(DMUL), [MOp::def(t.reg(), 2), MOp::use_pair(qa), MOp::use_pair(s1)]));
        let t2 = self.new_vreg(RegClass::Pair);
        self.emit(SassInst::new(op!(DMUL), [MOp::def(t2.reg(), 2), MOp::use_pair(t), MOp::use_pair(s2)]));

        // Zero, infinite and NaN operands: the high word h of ±0, ±inf or the NaN.
        let inf = self.fd_mov(INF_HI);
        self.fd_p0(op!(ISETP.EQ.U32.AND), cb, MOp::rz());
        let h = self.fd_alu([MOp::use_(inf), MOp::rz(), MOp::p0()], op!(SEL));
        self.fd_p0(op!(ISETP.EQ.U32.AND), ca, MOp::use_(inf));
        let h = self.fd_alu([MOp::use_(inf), MOp::use_(h), MOp::p0()], op!(SEL));
        // w = 0 when a is 0 or inf: with ca == cb, 0/0 or inf/inf.
        let w = self.fd_alu([MOp::rz(), MOp::use_(ca), MOp::p0()], op!(SEL));
        let h = self.fd_add(MOp::use_(h), MOp::use_(sign));
        let qnan = self.fd_mov(QNAN_HI);
        let c_max = self.fd_minmax(MOp::use_(ca), MOp::use_(cb), true, true);
        self.fd_p0(op!(ISETP.GT.U32.AND), c_max, MOp::use_(inf));
        let h = self.fd_alu([MOp::use_(qnan), MOp::use_(h), MOp::p0()], op!(SEL));
        let same = self.fd_lop(MOp::use_(w), MOp::use_(ca), MOp::use_(cb), 0xf6)?;
        self.fd_p0(op!(ISETP.EQ.U32.AND), same, MOp::rz());
        let h = self.fd_alu([MOp::use_(qnan), MOp::use_(h), MOp::p0()], op!(SEL));

        // Finite and nonzero: c - 1 at most 0x7feffffe, unsigned, for both.
        let ma = self.fd_add(MOp::use_(ca), MOp::Imm(-1));
        let mb = self.fd_add(MOp::use_(cb), MOp::Imm(-1));
        let m = self.fd_minmax(MOp::use_(ma), MOp::use_(mb), true, true);
        let limit = self.isa.compare_imm(self, 0x7fef_fffe);
        self.fd_p0(op!(ISETP.GT.U32.AND), m, limit);
        let lo = SassInst::new(op!(SEL), [MOp::rz(), MOp::rz(), MOp::use_(t2.lo()), MOp::p0()]);
        let hi = SassInst::new(op!(SEL), [MOp::rz(), MOp::use_(h), MOp::use_(t2.hi()), MOp::p0()]);
        self.pair_op(d, lo, hi);
        Ok(())
    }

    /// `c = |x.hi| | min(x.lo, 1)`: 0 for ±0, 0x7ff00000 for ±inf, more for NaN, and between
    /// the two for finite nonzero x.
    fn fd64_class(&mut self, x: VReg) -> Result<VReg, IselError> {
        let mag = self.fd_lop(MOp::use_(x.hi()), MOp::Imm(0x7fff_ffff), MOp::rz(), 0xc0)?;
        let low = self.fd_minmax(MOp::use_(x.lo()), MOp::Imm(1), true, false);
        self.fd_lop(MOp::use_(mag), MOp::use_(low), MOp::rz(), 0xfc)
    }

    /// x's significand `X` in [1, 2) and exponent field `e` (x = ±X * 2^(e - 1023)); a
    /// subnormal x is scaled by 2^54 first and its `e` lowered by 54 (so it goes below 1).
    fn fd64_split(&mut self, x: VReg) -> Result<(VReg, VReg), IselError> {
        let field = |t: &mut Self, hi: crate::vcode::Reg| {
            let f = t.fd_shr_reg(hi, 20, false);
            t.fd_lop(MOp::use_(f), MOp::Imm(0x7ff), MOp::rz(), 0xc0)
        };
        let f = field(self, x.hi())?;
        self.fd_p0(op!(ISETP.EQ.U32.AND), f, MOp::rz());
        let adj = self.fd_alu([MOp::rz(), MOp::Imm(54), NOT_P0], op!(SEL));
        let scale = self.fd64_pow2(adj, None);
        let xn = self.new_vreg(RegClass::Pair);
        self.emit(SassInst::new(op!(DMUL), [MOp::def(xn.reg(), 2), MOp::use_pair(x), MOp::use_pair(scale)]));
        let f = field(self, xn.hi())?;
        let e = self.fd_add(MOp::use_(f), MOp::neg(adj));
        let frac = self.fd_lop(MOp::use_(xn.hi()), MOp::Imm(0x000f_ffff), MOp::rz(), 0xc0)?;
        // The significand over xn's low word, in place.
        let sig = self.new_vreg(RegClass::Pair);
        let d = [MOp::Tied { reg: xn.reg(), width: 2 }, MOp::reuse_def(sig.hi(), 0)];
        let mut inst = self.lop(MOp::rz(), MOp::use_(frac), MOp::Imm(0x3ff0_0000), MOp::rz(), 0xfc)?;
        inst.ops.remove(0);
        inst.ops.insert(0, d[1]);
        inst.ops.insert(0, d[0]);
        self.emit(inst);
        Ok((sig, e))
    }

    /// The pair `2^e` (e + 1023 in [1, 2046]), with `sign` (0 or 0x80000000) added.
    fn fd64_pow2(&mut self, e: VReg, sign: Option<VReg>) -> VReg {
        let t = self.fd_add(MOp::use_(e), MOp::Imm(1023));
        let mut t = self.fd_shl_reg(t.reg(), 20);
        if let Some(s) = sign {
            t = self.fd_add(MOp::use_(t), MOp::use_(s));
        }
        let p = self.new_vreg(RegClass::Pair);
        self.make_pair(p, MOp::rz(), MOp::use_(t));
        p
    }

    /// A fresh register `a + b` (one source may be negated).
    fn fd_add(&mut self, a: MOp, b: MOp) -> VReg {
        let t = self.new_vreg(RegClass::Single);
        self.emit(self.isa.add(MOp::def(t.reg(), 1), a, b));
        t
    }

    /// A fresh register `min(a, b)` or `max(a, b)`.
    fn fd_minmax(&mut self, a: MOp, b: MOp, unsigned: bool, max: bool) -> VReg {
        let t = self.new_vreg(RegClass::Single);
        self.isa.minmax(self, MOp::def(t.reg(), 1), a, b, unsigned, max);
        t
    }

    /// A fresh register `lut(a, b, c)`.
    fn fd_lop(&mut self, a: MOp, b: MOp, c: MOp, lut: u8) -> Result<VReg, IselError> {
        let t = self.new_vreg(RegClass::Single);
        let inst = self.lop(MOp::def(t.reg(), 1), a, b, c, lut)?;
        self.emit(inst);
        Ok(t)
    }

    /// A fresh register `x >> k` (arithmetic where `signed`).
    fn fd_shr(&mut self, x: VReg, k: i64, signed: bool) -> VReg {
        self.fd_shr_reg(x.reg(), k, signed)
    }

    fn fd_shr_reg(&mut self, x: crate::vcode::Reg, k: i64, signed: bool) -> VReg {
        let t = self.new_vreg(RegClass::Single);
        self.emit(self.isa.shr(MOp::def(t.reg(), 1), MOp::use_(x), MOp::Imm(k), signed, false));
        t
    }

    /// A fresh register `x << k`.
    fn fd_shl_reg(&mut self, x: crate::vcode::Reg, k: i64) -> VReg {
        let t = self.new_vreg(RegClass::Single);
        self.emit(self.isa.shl(MOp::def(t.reg(), 1), MOp::use_(x), MOp::Imm(k), false));
        t
    }
}
