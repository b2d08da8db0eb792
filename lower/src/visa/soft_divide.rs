//! Division in 32-bit integer code, where no instruction divides: integers on DG2 and PVC
//! (GenX_IR refuses vISA `div`/`mod` on integers past Gen12LP), 64-bit integers everywhere (no
//! Gen instruction divides them), and IEEE float division on TGLLP and DG2 (GenX_IR: "IEEE
//! instruction divm is not supported on TGLLP platform", the same on DG2; `div` on floats is
//! the math unit's approximation).
//!
//! # Shape
//!
//! Restoring long division, unrolled: one quotient bit per step, from the top. Each step
//! shifts the next dividend bit into the partial remainder, compares it with the divisor,
//! subtracts where it is not smaller and sets the quotient bit there — compares and `sel`s,
//! no branch, since the lanes of a hardware thread divide different numbers. The remainder
//! can need one bit more than the divisor (up to twice it, less one), so the bit shifted out
//! of the top of the partial remainder counts as "not smaller" too; the wrapping subtraction
//! is then still exact. 32 steps for a 32-bit division (dword operations only), 64 for a
//! 64-bit one (dword pairs).
//!
//! Signed division divides the magnitudes and negates: the quotient where the signs differ,
//! the remainder where the dividend is negative (the IR's `sdiv` rounds toward zero and `srem`
//! takes the dividend's sign; `MIN / -1` wraps to `MIN`, as the magnitude 2^(n-1) negated is).
//! A zero divisor gives all-ones quotients, which the IR leaves undefined (its interpreter
//! reports an error).
//!
//! A float division divides the significands the same way ([`Lower::div_step64`]): `M + 4`
//! steps give a quotient with the guard bit and one below it, and a nonzero final remainder is
//! the sticky bit; the result is then rounded once by `soft_convert.rs`'s packing.

use atomc_ir::BinaryOp;

use super::Lower;
use atomc_visa::{Imm, Op, Operand, PredId, Relop};

/// A 64-bit value as `(low, high)` `ud` sources.
type W = (Operand, Operand);

fn ud(v: u32) -> Operand {
    Operand::imm(Imm::ud(v))
}

const ZERO: W = (Operand::Imm(Imm { ty: atomc_visa::Type::UD, bits: 0 }), Operand::Imm(Imm { ty: atomc_visa::Type::UD, bits: 0 }));

/// One step of a significand division (`fdiv`): where `r >= d`, subtract and note a 1.
pub(crate) struct Step {
    pub r: W,
    pub bit: PredId,
}

impl Lower<'_> {
    /// `(n / d, n % d)` on unsigned 32-bit values.
    pub(crate) fn udivrem32(&mut self, u: bool, n: Operand, d: Operand) -> (Operand, Operand) {
        let (mut q, mut r) = (ud(0), ud(0));
        for i in (0..32).rev() {
            let top = self.sf(Op::Shr, u, r, ud(31));
            let bit = self.sf(Op::Shr, u, n, ud(i));
            let bit = self.sf(Op::And, u, bit, ud(1));
            let r2 = self.sf(Op::Shl, u, r, ud(1));
            let r2 = self.sf(Op::Or, u, r2, bit);
            let ge = self.sf_cmp(u, Relop::Ge, r2, d);
            let over = self.sf_cmp(u, Relop::Ne, top, ud(0));
            self.sf_pred(u, Op::Or, ge, over);
            let diff = self.sf_sub(u, r2, d);
            r = self.sf_sel(u, ge, diff, r2);
            let qb = self.sf(Op::Or, u, q, ud(1 << i));
            q = self.sf_sel(u, ge, qb, q);
        }
        (q, r)
    }

    /// `(n / d, n % d)` on unsigned 64-bit values, over the low `bits` bits of `n`.
    pub(crate) fn udivrem64(&mut self, u: bool, n: W, d: W, bits: u32) -> (W, W) {
        let (mut q, mut r) = (ZERO, ZERO);
        for i in (0..bits).rev() {
            let top = self.sf(Op::Shr, u, r.1, ud(31));
            let word = if i >= 32 { n.1 } else { n.0 };
            let bit = self.sf(Op::Shr, u, word, ud(i % 32));
            let bit = self.sf(Op::And, u, bit, ud(1));
            let carry = self.sf(Op::Shr, u, r.0, ud(31));
            let hi = self.sf(Op::Shl, u, r.1, ud(1));
            let hi = self.sf(Op::Or, u, hi, carry);
            let lo = self.sf(Op::Shl, u, r.0, ud(1));
            let lo = self.sf(Op::Or, u, lo, bit);
            let r2 = (lo, hi);
            let ge = self.ge64(u, r2, d);
            let over = self.sf_cmp(u, Relop::Ne, top, ud(0));
            self.sf_pred(u, Op::Or, ge, over);
            let diff = self.sf_w(u, |l, t| l.sub64(t, u, r2, d));
            r = self.sf_sel64(u, ge, diff, r2);
            let (w, b) = if i >= 32 { (q.1, i - 32) } else { (q.0, i) };
            let qb = self.sf(Op::Or, u, w, ud(1 << b));
            let qw = self.sf_sel(u, ge, qb, w);
            q = if i >= 32 { (q.0, qw) } else { (qw, q.1) };
        }
        (q, r)
    }

    /// One step of a significand division on 64-bit values: the remainder after subtracting
    /// `d` where it fits, and where it did.
    pub(crate) fn div_step64(&mut self, u: bool, r: W, d: W) -> Step {
        let ge = self.ge64(u, r, d);
        let diff = self.sf_w(u, |l, t| l.sub64(t, u, r, d));
        Step { r: self.sf_sel64(u, ge, diff, r), bit: ge }
    }

    /// `a >= b` on 64-bit unsigned values.
    fn ge64(&mut self, u: bool, a: W, b: W) -> PredId {
        let hi_gt = self.sf_cmp(u, Relop::Gt, a.1, b.1);
        let hi_eq = self.sf_cmp(u, Relop::Eq, a.1, b.1);
        let lo_ge = self.sf_cmp(u, Relop::Ge, a.0, b.0);
        self.sf_pred(u, Op::And, hi_eq, lo_ge);
        self.sf_pred(u, Op::Or, hi_gt, hi_eq);
        hi_gt
    }

    /// `-x` on a 64-bit value where `p` holds, else `x`.
    fn neg64_where(&mut self, u: bool, p: PredId, x: W) -> W {
        let minus = self.sf_w(u, |l, t| l.sub64(t, u, ZERO, x));
        self.sf_sel64(u, p, minus, x)
    }

    /// `op` (udiv, sdiv, urem, srem) on 64-bit values as halves.
    pub(crate) fn divide64(&mut self, u: bool, op: BinaryOp, a: W, b: W) -> W {
        let signed = matches!(op, BinaryOp::Sdiv | BinaryOp::Srem);
        let (n, d, na, nb) = if signed {
            let na = self.sf_cmp(u, Relop::Ge, a.1, ud(0x8000_0000));
            let nb = self.sf_cmp(u, Relop::Ge, b.1, ud(0x8000_0000));
            (self.neg64_where(u, na, a), self.neg64_where(u, nb, b), Some(na), Some(nb))
        } else {
            (a, b, None, None)
        };
        let (q, r) = self.udivrem64(u, n, d, 64);
        match (op, na, nb) {
            (BinaryOp::Sdiv, Some(na), Some(nb)) => {
                let differ = self.tmp_pred();
                let pex = self.pred_exec(u);
                self.k.binary(Op::Xor, pex, Operand::pred(differ), Operand::pred(na), Operand::pred(nb));
                self.neg64_where(u, differ, q)
            }
            (BinaryOp::Srem, Some(na), _) => self.neg64_where(u, na, r),
            (BinaryOp::Udiv, ..) => q,
            _ => r,
        }
    }

    /// `op` on 32-bit values (narrow ones widened by their signedness first).
    pub(crate) fn divide32(&mut self, u: bool, op: BinaryOp, a: Operand, b: Operand) -> Operand {
        let signed = matches!(op, BinaryOp::Sdiv | BinaryOp::Srem);
        if !signed {
            let (q, r) = self.udivrem32(u, a, b);
            return if op == BinaryOp::Udiv { q } else { r };
        }
        let abs = |l: &mut Self, x: Operand| {
            let neg = l.sf_cmp(u, Relop::Ge, x, ud(0x8000_0000));
            let minus = l.sf_sub(u, ud(0), x);
            (l.sf_sel(u, neg, minus, x), neg)
        };
        let ((n, na), (d, nb)) = (abs(self, a), abs(self, b));
        let (q, r) = self.udivrem32(u, n, d);
        let (p, x) = if op == BinaryOp::Sdiv {
            let differ = self.tmp_pred();
            let pex = self.pred_exec(u);
            self.k.binary(Op::Xor, pex, Operand::pred(differ), Operand::pred(na), Operand::pred(nb));
            (differ, q)
        } else {
            (na, r)
        };
        let minus = self.sf_sub(u, ud(0), x);
        self.sf_sel(u, p, minus, x)
    }
}
