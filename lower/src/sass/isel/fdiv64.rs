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
//! sm_50 takes the same sequence through its rewrites (`DFMA`'s negated source second, the
//! 1.0 of the fast path in a register pair, wide immediates of `ISETP` through a `MOV`).

use super::alu::lop3;
use super::Isel;
use crate::sass::inst::{MOp, SassInst};
use crate::vcode::{OperandRule, RegClass, VReg};
use atomc_ir::Value;

/// The high word of +inf, and of the interpreter's canonical NaN.
const INF_HI: i64 = 0x7ff0_0000;
const QNAN_HI: i64 = 0x7ff8_0000;

const MAX: MOp = MOp::Pred { num: 7, not: true };
const MIN: MOp = MOp::Pred { num: 7, not: false };
const NOT_P0: MOp = MOp::Pred { num: 0, not: true };
const CARRY: MOp = MOp::Pred { num: 1, not: false };

impl Isel<'_> {
    /// Selects `d = a / b` on f64.
    pub(super) fn fdiv64(&mut self, d: VReg, a: Value, b: Value) {
        let (x, y) = (self.reg(a), self.reg(b));
        let (ca, cb) = (self.fd64_class(x), self.fd64_class(y));
        let (sa, ea) = self.fd64_split(x);
        let (sb, eb) = self.fd64_split(y);
        let q = self.quotient64(sa, sb);
        let neg_sb = MOp::Reg { reg: sb.reg(), width: 2, rule: OperandRule::Use, neg: true };
        let r = self.dfma(neg_sb, MOp::use_pair(q), MOp::use_pair(sa));

        // D = ea - eb, clamped; 2^D1 and ±2^D2.
        let e = self.fd_alu([MOp::use_(ea), MOp::neg(eb), MOp::rz()], "IADD3");
        let e = self.fd_alu([MOp::use_(e), MOp::Imm(-2040), MAX], "IMNMX");
        let e = self.fd_alu([MOp::use_(e), MOp::Imm(2046), MIN], "IMNMX");
        let e1 = self.fd_alu([MOp::rz(), MOp::Imm(1), MOp::use_(e)], "SHF.R.S32.HI");
        let e2 = self.fd_alu([MOp::use_(e), MOp::neg(e1), MOp::rz()], "IADD3");
        let [l, pt] = lop3(0x3c);
        let sign = self.fd_alu([MOp::use_(x.hi()), MOp::use_(y.hi()), MOp::rz(), l, pt], "LOP3.LUT");
        let [l, pt] = lop3(0xc0);
        let sign = self.fd_alu([MOp::use_(sign), MOp::Imm(0x8000_0000), MOp::rz(), l, pt], "LOP3.LUT");
        let s1 = self.fd64_pow2(e1, None);
        let s2 = self.fd64_pow2(e2, Some(sign));

        // q': the neighbour of q towards the exact quotient when r != 0, k <= 0 and
        // (q odd) != (k < 0); delta is that step (+-1 on the bit pattern) or 0.
        let kq = self.fd_alu([MOp::rz(), MOp::Imm(20), MOp::use_(q.hi())], "SHF.R.U32.HI");
        let k = self.fd_alu([MOp::use_(kq), MOp::use_(e), MOp::rz()], "IADD3");
        let below = self.fd_alu([MOp::rz(), MOp::Imm(31), MOp::use_(k)], "SHF.R.U32.HI");
        let [l, pt] = lop3(0x3c);
        let differ = self.fd_alu([MOp::use_(q.lo()), MOp::use_(below), MOp::rz(), l, pt], "LOP3.LUT");
        let [l, pt] = lop3(0xc0);
        let differ = self.fd_alu([MOp::use_(differ), MOp::Imm(1), MOp::rz(), l, pt], "LOP3.LUT");
        let side = self.fd_alu([MOp::rz(), MOp::Imm(31), MOp::use_(r.hi())], "SHF.R.S32.HI");
        let [l, pt] = lop3(0xfc);
        let step = self.fd_alu([MOp::use_(side), MOp::Imm(1), MOp::rz(), l, pt], "LOP3.LUT");
        // r's magnitude bits: a nonzero r is normal, so its high word says.
        let r_mag = self.fd_alu([MOp::use_(r.hi()), MOp::Imm(1), MOp::rz()], "SHF.L.U32");
        self.fd_p0("ISETP.NE.U32.AND", differ, MOp::rz());
        let delta = self.fd_alu([MOp::use_(step), MOp::rz(), MOp::p0()], "SEL");
        self.fd_p0("ISETP.GT.AND", k, MOp::rz());
        let delta = self.fd_alu([MOp::rz(), MOp::use_(delta), MOp::p0()], "SEL");
        self.fd_p0("ISETP.EQ.U32.AND", r_mag, MOp::rz());
        let delta = self.fd_alu([MOp::rz(), MOp::use_(delta), MOp::p0()], "SEL");
        let delta_hi = self.fd_alu([MOp::rz(), MOp::Imm(31), MOp::use_(delta)], "SHF.R.S32.HI");
        let qa = self.new_vreg(RegClass::Pair);
        let lo = SassInst::new("IADD3", [MOp::rz(), CARRY, MOp::use_(q.lo()), MOp::use_(delta), MOp::rz()]);
        let hi = SassInst::new("IADD3.X", [MOp::rz(), MOp::use_(q.hi()), MOp::use_(delta_hi), MOp::rz(), CARRY, MAX]);
        self.pair_op(qa, lo, hi);
        let t = self.new_vreg(RegClass::Pair);
        self.emit(SassInst::new("DMUL", [MOp::def(t.reg(), 2), MOp::use_pair(qa), MOp::use_pair(s1)]));
        let t2 = self.new_vreg(RegClass::Pair);
        self.emit(SassInst::new("DMUL", [MOp::def(t2.reg(), 2), MOp::use_pair(t), MOp::use_pair(s2)]));

        // Zero, infinite and NaN operands: the high word h of ±0, ±inf or the NaN.
        let inf = self.fd_alu([MOp::Imm(INF_HI)], "MOV");
        self.fd_p0("ISETP.EQ.U32.AND", cb, MOp::rz());
        let h = self.fd_alu([MOp::use_(inf), MOp::rz(), MOp::p0()], "SEL");
        self.fd_p0("ISETP.EQ.U32.AND", ca, MOp::use_(inf));
        let h = self.fd_alu([MOp::use_(inf), MOp::use_(h), MOp::p0()], "SEL");
        // w = 0 when a is 0 or inf: with ca == cb, 0/0 or inf/inf.
        let w = self.fd_alu([MOp::rz(), MOp::use_(ca), MOp::p0()], "SEL");
        let h = self.fd_alu([MOp::use_(h), MOp::use_(sign), MOp::rz()], "IADD3");
        let qnan = self.fd_alu([MOp::Imm(QNAN_HI)], "MOV");
        let c_max = self.fd_alu([MOp::use_(ca), MOp::use_(cb), MAX], "IMNMX.U32");
        self.fd_p0("ISETP.GT.U32.AND", c_max, MOp::use_(inf));
        let h = self.fd_alu([MOp::use_(qnan), MOp::use_(h), MOp::p0()], "SEL");
        let [l, pt] = lop3(0xf6);
        let same = self.fd_alu([MOp::use_(w), MOp::use_(ca), MOp::use_(cb), l, pt], "LOP3.LUT");
        self.fd_p0("ISETP.EQ.U32.AND", same, MOp::rz());
        let h = self.fd_alu([MOp::use_(qnan), MOp::use_(h), MOp::p0()], "SEL");

        // Finite and nonzero: c - 1 at most 0x7feffffe, unsigned, for both.
        let ma = self.fd_alu([MOp::use_(ca), MOp::Imm(-1), MOp::rz()], "IADD3");
        let mb = self.fd_alu([MOp::use_(cb), MOp::Imm(-1), MOp::rz()], "IADD3");
        let m = self.fd_alu([MOp::use_(ma), MOp::use_(mb), MAX], "IMNMX.U32");
        let limit = self.fd64_imm(0x7fef_fffe);
        self.fd_p0("ISETP.GT.U32.AND", m, limit);
        let lo = SassInst::new("SEL", [MOp::rz(), MOp::rz(), MOp::use_(t2.lo()), MOp::p0()]);
        let hi = SassInst::new("SEL", [MOp::rz(), MOp::use_(h), MOp::use_(t2.hi()), MOp::p0()]);
        self.pair_op(d, lo, hi);
    }

    /// `c = |x.hi| | min(x.lo, 1)`: 0 for ±0, 0x7ff00000 for ±inf, more for NaN, and between
    /// the two for finite nonzero x.
    fn fd64_class(&mut self, x: VReg) -> VReg {
        let [l, pt] = lop3(0xc0);
        let mag = self.fd_alu([MOp::use_(x.hi()), MOp::Imm(0x7fff_ffff), MOp::rz(), l, pt], "LOP3.LUT");
        let low = self.fd_alu([MOp::use_(x.lo()), MOp::Imm(1), MIN], "IMNMX.U32");
        let [l, pt] = lop3(0xfc);
        self.fd_alu([MOp::use_(mag), MOp::use_(low), MOp::rz(), l, pt], "LOP3.LUT")
    }

    /// x's significand `X` in [1, 2) and exponent field `e` (x = ±X * 2^(e - 1023)); a
    /// subnormal x is scaled by 2^54 first and its `e` lowered by 54 (so it goes below 1).
    fn fd64_split(&mut self, x: VReg) -> (VReg, VReg) {
        let field = |t: &mut Self, hi: crate::vcode::Reg| {
            let f = t.fd_alu([MOp::rz(), MOp::Imm(20), MOp::use_(hi)], "SHF.R.U32.HI");
            let [l, pt] = lop3(0xc0);
            t.fd_alu([MOp::use_(f), MOp::Imm(0x7ff), MOp::rz(), l, pt], "LOP3.LUT")
        };
        let f = field(self, x.hi());
        self.fd_p0("ISETP.EQ.U32.AND", f, MOp::rz());
        let adj = self.fd_alu([MOp::rz(), MOp::Imm(54), NOT_P0], "SEL");
        let scale = self.fd64_pow2(adj, None);
        let xn = self.new_vreg(RegClass::Pair);
        self.emit(SassInst::new("DMUL", [MOp::def(xn.reg(), 2), MOp::use_pair(x), MOp::use_pair(scale)]));
        let f = field(self, xn.hi());
        let e = self.fd_alu([MOp::use_(f), MOp::neg(adj), MOp::rz()], "IADD3");
        let [l, pt] = lop3(0xc0);
        let frac = self.fd_alu([MOp::use_(xn.hi()), MOp::Imm(0x000f_ffff), MOp::rz(), l, pt], "LOP3.LUT");
        // The significand over xn's low word, in place.
        let sig = self.new_vreg(RegClass::Pair);
        let [l, pt] = lop3(0xfc);
        self.emit(SassInst::new(
            "LOP3.LUT",
            [
                MOp::Tied { reg: xn.reg(), width: 2 },
                MOp::reuse_def(sig.hi(), 0),
                MOp::use_(frac),
                MOp::Imm(0x3ff0_0000),
                MOp::rz(),
                l,
                pt,
            ],
        ));
        (sig, e)
    }

    /// The pair `2^e` (e + 1023 in [1, 2046]), with `sign` (0 or 0x80000000) added.
    fn fd64_pow2(&mut self, e: VReg, sign: Option<VReg>) -> VReg {
        let t = self.fd_alu([MOp::use_(e), MOp::Imm(1023), MOp::rz()], "IADD3");
        let mut t = self.fd_alu([MOp::use_(t), MOp::Imm(20), MOp::rz()], "SHF.L.U32");
        if let Some(s) = sign {
            t = self.fd_alu([MOp::use_(t), MOp::use_(s), MOp::rz()], "IADD3");
        }
        let p = self.new_vreg(RegClass::Pair);
        self.make_pair(p, MOp::rz(), MOp::use_(t));
        p
    }

    /// A comparison's constant: sm_50's `ISETP` immediate is 20 bits, sign-extended, so a
    /// wider one goes through a register.
    fn fd64_imm(&mut self, v: i64) -> MOp {
        if self.is_sm50() && !(-(1 << 19)..(1 << 19)).contains(&v) {
            MOp::use_(self.fd_alu([MOp::Imm(v)], "MOV"))
        } else {
            MOp::Imm(v)
        }
    }
}
