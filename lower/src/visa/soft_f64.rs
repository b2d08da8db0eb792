//! IEEE-754 binary64 addition in 32-bit integer code, for parts without an fp64 ALU.
//!
//! TGLLP and DG2 have no `df` ALU (ocloc refuses `double` there) and GenX_IR does not emulate
//! one; IGC's own answer is to emulate double precision in integer code, and so does this file:
//! `fadd`/`fsub` on f64, and with them the body of atomic_rmw.f64 fadd's CAS loop. Everything
//! runs on the `ud` halves of the operands (`<2;1,0>` regions), reusing the 64-bit integer
//! helpers of `alu64.rs` (`addc`/`subb`, variable shifts built from dword shifts), because
//! those parts have no 64-bit integer ALU either (PVC at SIMD2, which GenX_IR cannot split a
//! `df` op for, takes the same code).
//!
//! # Why it is shaped this way
//!
//! The code is branch-free: the lanes of one hardware thread hold different operands, so every
//! case (zeros, subnormals, carries, cancellation, infinities, NaNs) is computed for every lane
//! and `sel` picks, rather than a SIMD branch per case. The shape is the classic one (Berkeley
//! SoftFloat, compiler-rt's `__adddf3`), with two simplifications that remove whole cases:
//!
//! * **Order by magnitude first.** With `|x| >= |y|` the result takes `x`'s sign (but for an
//!   exact zero), only `y` is ever shifted right, and a subtraction never goes negative. The
//!   magnitudes order as 63-bit integers, so a two-dword compare decides the swap. It also
//!   makes the specials one test: if `y` is an infinity or a NaN, so is `x`.
//! * **Subnormals are not normalised on input.** A subnormal is the significand without its
//!   implicit bit, with exponent 1; a normal gets the implicit bit (bit 52). Then the aligned
//!   add or subtract of two such significands is the exact sum at the larger operand's scale,
//!   whatever the classes, and normalising left by `clz` with the shift capped at `e - 1` leaves
//!   a subnormal result as a subnormal. Encoding the result as `(significand >> 3) +
//!   ((e - 1) << 52)` then yields exponent field `e` when the implicit bit is present and 0
//!   when it is not, so normal and subnormal results need no separate path; and the rounding
//!   increment is added to the whole pattern, so a significand that rounds up to 2^53 carries
//!   into the exponent (up to infinity) by itself.
//!
//! Three bits below the significand (guard, round and a sticky bit ORed from everything shifted
//! out) are enough for round to nearest even: when the alignment shift is 2 or more the result
//! needs at most one bit of left normalisation, and when it is 0 or 1 nothing is lost. The
//! alignment shift is capped at 63 (the dword shift helpers take amounts modulo 64): any shift
//! of 56 or more leaves only the sticky bit of a 56-bit significand, so the cap changes nothing
//! and exponent differences beyond 64 need no case of their own. An exact zero sum is +0 unless
//! both operands are -0 (round to nearest), and a NaN result is the canonical quiet NaN
//! `0x7ff8_0000_0000_0000`, as the IR's interpreter gives (ir/src/interp/float.rs), so results
//! compare bit for bit.

use atomc_visa::{Imm, Op, Operand, PredId, Predicate, Relop, Type, VarId};

use atomc_ir::BinaryOp;

use super::alu64::as_d;
use super::Lower;

/// A 64-bit value as `(low, high)` `ud` sources.
type W = (Operand, Operand);

fn ud(v: u32) -> Operand {
    Operand::imm(Imm::ud(v))
}

impl Lower<'_> {
    /// `op(a, b)` into a new `ud` temporary.
    pub(super) fn sf(&mut self, op: Op, u: bool, a: Operand, b: Operand) -> Operand {
        self.op_tmp(op, u, a, b)
    }

    /// `a - b` on dwords (the negation through `d` views).
    pub(super) fn sf_sub(&mut self, u: bool, a: Operand, b: Operand) -> Operand {
        let ex = self.exec(u);
        let t = self.tmp(Type::D, u);
        let (x, y) = (as_d(self, a), as_d(self, b));
        let (x, y) = self.unimm(x, super::alu::neg(y), Type::D);
        self.k.add(ex, Operand::dst(t), x, y);
        let v = self.view(t, Type::UD);
        self.rd(v, u)
    }

    /// A predicate: `a rel b` on `ud` sources.
    pub(super) fn sf_cmp(&mut self, u: bool, rel: Relop, a: Operand, b: Operand) -> PredId {
        let pex = self.pred_exec(u);
        let p = self.tmp_pred();
        let (a, b) = self.unimm(a, b, Type::UD);
        self.k.cmp(pex, rel, Operand::pred(p), a, b);
        p
    }

    /// `p = p op q` on predicates.
    pub(super) fn sf_pred(&mut self, u: bool, op: Op, p: PredId, q: PredId) {
        let pex = self.pred_exec(u);
        self.k.binary(op, pex, Operand::pred(p), Operand::pred(p), Operand::pred(q));
    }

    /// `p ? a : b` into a new `ud` temporary.
    pub(super) fn sf_sel(&mut self, u: bool, p: PredId, a: Operand, b: Operand) -> Operand {
        let ex = self.exec(u);
        let t = self.tmp(Type::UD, u);
        let (a, b) = self.unimm(a, b, Type::UD);
        self.k.binary(Op::Sel, ex, Operand::dst(t), a, b).predicated(Predicate::on(p));
        self.rd(t, u)
    }

    pub(super) fn sf_sel64(&mut self, u: bool, p: PredId, a: W, b: W) -> W {
        (self.sf_sel(u, p, a.0, b.0), self.sf_sel(u, p, a.1, b.1))
    }

    /// A new 64-bit temporary written by `f`, read back as halves.
    pub(super) fn sf_w(&mut self, u: bool, f: impl FnOnce(&mut Self, VarId)) -> W {
        let r = self.tmp(Type::UQ, u);
        f(self, r);
        (self.half_of(r, u, false, Type::UD), self.half_of(r, u, true, Type::UD))
    }

    /// `r = a + b` on f64 bit patterns, rounded to nearest even (see the module comment).
    pub(crate) fn fadd64(&mut self, r: VarId, u: bool, a: W, b: W) {
        let ex = self.exec(u);
        // Order by magnitude: x is the larger, y the smaller.
        let ahm = self.sf(Op::And, u, a.1, ud(0x7fff_ffff));
        let bhm = self.sf(Op::And, u, b.1, ud(0x7fff_ffff));
        let swap = self.sf_cmp(u, Relop::Gt, bhm, ahm);
        let hi_eq = self.sf_cmp(u, Relop::Eq, bhm, ahm);
        let lo_gt = self.sf_cmp(u, Relop::Gt, b.0, a.0);
        let mag_eq = self.sf_cmp(u, Relop::Eq, b.0, a.0);
        self.sf_pred(u, Op::And, mag_eq, hi_eq);
        self.sf_pred(u, Op::And, lo_gt, hi_eq);
        self.sf_pred(u, Op::Or, swap, lo_gt);
        let x = self.sf_sel64(u, swap, b, a);
        let y = self.sf_sel64(u, swap, a, b);
        // Signs, exponent fields, and significands with the implicit bit where the exponent
        // field is nonzero; a subnormal counts as exponent 1.
        let sx = self.sf(Op::And, u, x.1, ud(0x8000_0000));
        let sdiff = self.sf(Op::Xor, u, x.1, y.1);
        let sdiff = self.sf(Op::And, u, sdiff, ud(0x8000_0000));
        let sub = self.sf_cmp(u, Relop::Ne, sdiff, ud(0));
        let fields = |l: &mut Self, v: W| {
            let f = l.sf(Op::Shr, u, v.1, ud(20));
            let f = l.sf(Op::And, u, f, ud(0x7ff));
            let e = l.sf(Op::Max, u, f, ud(1));
            let imp = l.sf(Op::Min, u, f, ud(1));
            let imp = l.sf(Op::Shl, u, imp, ud(20));
            let m = l.sf(Op::And, u, v.1, ud(0xf_ffff));
            let m = l.sf(Op::Or, u, m, imp);
            // Three bits for guard, round and sticky.
            let sig = l.sf_w(u, |l, t| l.shift64(t, u, BinaryOp::Ishl, (v.0, m), 3));
            (f, e, sig)
        };
        let (exf, ex_, big_x) = fields(self, x);
        let (_, ey, big_y) = fields(self, y);
        // Specials, decided now so that x need not stay live (register pressure at SIMD32):
        // x an infinity or NaN (y can only be one if x is). A NaN operand, or infinities of
        // opposite signs, give the canonical NaN; otherwise x's infinity, the overflow result.
        let special = self.sf_cmp(u, Relop::Eq, exf, ud(0x7ff));
        let xm = self.sf(Op::And, u, x.1, ud(0x7fff_ffff));
        let lo_nz = self.sf(Op::Min, u, x.0, ud(1));
        let xm = self.sf(Op::Or, u, xm, lo_nz);
        let nan = self.sf_cmp(u, Relop::Gt, xm, ud(0x7ff0_0000));
        let inf_inf = self.tmp_pred();
        let pex = self.pred_exec(u);
        self.k.binary(Op::And, pex, Operand::pred(inf_inf), Operand::pred(special), Operand::pred(mag_eq));
        self.sf_pred(u, Op::And, inf_inf, sub);
        self.sf_pred(u, Op::Or, nan, inf_inf);
        // Align y to x's exponent, ORing what falls out into the sticky bit.
        let d = self.sf_sub(u, ex_, ey);
        let dc = self.sf(Op::Min, u, d, ud(63));
        let ys = self.sf_w(u, |l, t| l.shift64_var(t, u, BinaryOp::Ushr, big_y, dc));
        let back = self.sf_w(u, |l, t| l.shift64_var(t, u, BinaryOp::Ishl, ys, dc));
        let lost_lo = self.sf(Op::Xor, u, back.0, big_y.0);
        let lost_hi = self.sf(Op::Xor, u, back.1, big_y.1);
        let lost = self.sf(Op::Or, u, lost_lo, lost_hi);
        let sticky = self.sf(Op::Min, u, lost, ud(1));
        let ys = (self.sf(Op::Or, u, ys.0, sticky), ys.1);
        // The exact (but for the sticky bit) sum or difference, below 2^57.
        let sum = self.sf_w(u, |l, t| l.add64(t, u, big_x, ys));
        let dif = self.sf_w(u, |l, t| l.sub64(t, u, big_x, ys));
        let s = self.sf_sel64(u, sub, dif, sum);
        // A carry out of bit 55: one bit right, keeping the sticky bit.
        let c = self.sf(Op::Shr, u, s.1, ud(24));
        let s1 = self.sf_w(u, |l, t| l.shift64_var(t, u, BinaryOp::Ushr, s, c));
        let kept = self.sf(Op::And, u, s.0, c);
        let s1 = (self.sf(Op::Or, u, s1.0, kept), s1.1);
        let e = self.sf(Op::Add, u, ex_, c);
        // Normalise left (after a cancellation), but not below exponent 1: a subnormal stays one.
        let lzh = self.tmp(Type::UD, u);
        self.k.unary(Op::Lzd, ex, Operand::dst(lzh), s1.1);
        let lzl = self.tmp(Type::UD, u);
        self.k.unary(Op::Lzd, ex, Operand::dst(lzl), s1.0);
        let lzl = self.rd(lzl, u);
        let lzl = self.sf(Op::Add, u, lzl, ud(32));
        let hi_zero = self.sf_cmp(u, Relop::Eq, s1.1, ud(0));
        let lzh = self.rd(lzh, u);
        let lz = self.sf_sel(u, hi_zero, lzl, lzh);
        let want = self.sf(Op::Add, u, lz, ud(-8i32 as u32));
        let room = self.sf(Op::Add, u, e, ud(u32::MAX));
        let sh = self.sf(Op::Min, u, want, room);
        let s2 = self.sf_w(u, |l, t| l.shift64_var(t, u, BinaryOp::Ishl, s1, sh));
        let e2 = self.sf_sub(u, e, sh);
        // Encode, then round to nearest even on the guard, round and sticky bits: add 1 when
        // they exceed half, or equal it and the last kept bit is odd.
        let m = self.sf_w(u, |l, t| l.shift64(t, u, BinaryOp::Ushr, s2, 3));
        let grs = self.sf(Op::And, u, s2.0, ud(7));
        let odd = self.sf(Op::And, u, m.0, ud(1));
        let inc = self.sf(Op::Add, u, grs, odd);
        let inc = self.sf(Op::Add, u, inc, ud(3));
        let inc = self.sf(Op::Shr, u, inc, ud(3));
        let eb = self.sf(Op::Add, u, e2, ud(u32::MAX));
        let eb = self.sf(Op::Shl, u, eb, ud(20));
        let mh = self.sf(Op::Add, u, m.1, eb);
        let res = self.sf_w(u, |l, t| l.add64(t, u, (m.0, mh), (inc, ud(0))));
        // An exact zero: +0, but -0 for (-0) + (-0) (the signs agree there, so it is x's).
        let zlo = self.sf(Op::Or, u, s.0, s.1);
        let zero = self.sf_cmp(u, Relop::Eq, zlo, ud(0));
        let lo = self.sf_sel(u, zero, ud(0), res.0);
        let hi = self.sf_sel(u, zero, ud(0), res.1);
        self.sf_pred(u, Op::And, zero, sub);
        let sign = self.sf_sel(u, zero, ud(0), sx);
        let hi = self.sf(Op::Or, u, hi, sign);
        // Overflow, or x an infinity: infinity of x's sign.
        let over = self.sf_cmp(u, Relop::Ge, e2, ud(0x7ff));
        self.sf_pred(u, Op::Or, over, special);
        let inf = self.sf(Op::Or, u, sx, ud(0x7ff0_0000));
        for (h, inf_v, v, q) in [(false, ud(0), lo, 0), (true, inf, hi, 0x7ff8_0000)] {
            let dst = self.half_dst(r, u, h, Type::UD);
            let (inf_v, v) = self.unimm(inf_v, v, Type::UD);
            self.k.binary(Op::Sel, ex, dst, inf_v, v).predicated(Predicate::on(over));
            let dst = self.half_dst(r, u, h, Type::UD);
            self.k.mov(ex, dst, ud(q)).predicated(Predicate::on(nan));
        }
    }
}
