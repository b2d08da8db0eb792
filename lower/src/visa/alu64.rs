//! 64-bit integer arithmetic on the `ud` halves of `uq` variables
//! (`<2;1,0>` regions): TGLLP and DG2 have no 64-bit integer ALU and
//! GenX_IR does not emulate one (visa.md §2), so adds carry through
//! `addc`/`subb`, shifts by constants combine the halves, and compares are
//! two 32-bit compares joined with predicate logic.

use atomc_ir::{BinaryOp, IntCC, Value};

use super::alu::{neg, Binary};
use super::values::Loc;
use super::{Lower, LowerError};
use atomc_visa::{Exec, Imm, Op, Operand, PredId, Relop, Type, VarId};

impl Lower<'_> {
    /// A source as `(low 16 bits, high 16 bits)` sources.
    fn split16(&mut self, o: Operand, u: bool) -> (Operand, Operand) {
        if let Operand::Imm(i) = o {
            let v = i.bits as u32;
            return (Operand::imm(Imm::ud(v & 0xffff)), Operand::imm(Imm::ud(v >> 16)));
        }
        let ex = self.exec(u);
        let (lo, hi) = (self.tmp(Type::UD, u), self.tmp(Type::UD, u));
        self.k
            .binary(Op::And, ex, Operand::dst(lo), o, Operand::imm(Imm::ud(0xffff)));
        self.k
            .binary(Op::Shr, ex, Operand::dst(hi), o, Operand::imm(Imm::ud(16)));
        (rd(lo, u), rd(hi, u))
    }

    /// `dst = op(a, b)` into a new `ud` temporary, returned as a source.
    pub(crate) fn op_tmp(&mut self, op: Op, u: bool, a: Operand, b: Operand) -> Operand {
        let ex = self.exec(u);
        let t = self.tmp(Type::UD, u);
        let (a, b) = self.unimm(a, b, Type::UD);
        self.k.binary(op, ex, Operand::dst(t), a, b);
        rd(t, u)
    }

    /// The high 32 bits of the 64-bit product of two `ud` sources, from
    /// four 16×16-bit partial products (vISA's `mul` gives the low half
    /// only, and the op table has no `mulh`).
    fn mulhi32(&mut self, a: Operand, b: Operand, u: bool) -> Operand {
        let (al, ah) = self.split16(a, u);
        let (bl, bh) = self.split16(b, u);
        let ll = self.op_tmp(Op::Mul, u, al, bl);
        let lh = self.op_tmp(Op::Mul, u, al, bh);
        let hl = self.op_tmp(Op::Mul, u, ah, bl);
        let hh = self.op_tmp(Op::Mul, u, ah, bh);
        let sh16 = Operand::imm(Imm::ud(16));
        let m16 = Operand::imm(Imm::ud(0xffff));
        // mid = (ll >> 16) + lo16(lh) + lo16(hl): at most 18 bits.
        let t0 = self.op_tmp(Op::Shr, u, ll, sh16);
        let t1 = self.op_tmp(Op::And, u, lh, m16);
        let t2 = self.op_tmp(Op::And, u, hl, m16);
        let mid = self.op_tmp(Op::Add, u, t0, t1);
        let mid = self.op_tmp(Op::Add, u, mid, t2);
        // hi = hh + (lh >> 16) + (hl >> 16) + (mid >> 16).
        let h1 = self.op_tmp(Op::Shr, u, lh, sh16);
        let h2 = self.op_tmp(Op::Shr, u, hl, sh16);
        let h3 = self.op_tmp(Op::Shr, u, mid, sh16);
        let s = self.op_tmp(Op::Add, u, hh, h1);
        let s = self.op_tmp(Op::Add, u, s, h2);
        self.op_tmp(Op::Add, u, s, h3)
    }

    /// A 64-bit shift by a per-lane amount `amt` (taken modulo 64): both
    /// the below-32 and the 32-or-more results are computed and a
    /// predicate on `amt & 32` selects. `x >> (32 - k)` is written
    /// `(x >> 1) >> (31 - k)` so that `k = 0` needs no special case (Gen
    /// takes a dword shift amount modulo 32).
    pub(crate) fn shift64_var(&mut self, r: VarId, u: bool, op: BinaryOp, a: (Operand, Operand), amt: Operand) {
        let ex = self.exec(u);
        let k = self.op_tmp(Op::And, u, amt, Operand::imm(Imm::ud(31)));
        let inv = self.op_tmp(Op::Xor, u, k, Operand::imm(Imm::ud(31)));
        let big = self.op_tmp(Op::And, u, amt, Operand::imm(Imm::ud(32)));
        let p = self.tmp_pred();
        let pex = self.pred_exec(u);
        self.k
            .cmp(pex, Relop::Ne, Operand::pred(p), big, Operand::imm(Imm::ud(0)));
        let one = Operand::imm(Imm::ud(1));
        let (lo, hi) = (a.0, a.1);
        let (lo_small, hi_small, lo_big, hi_big) = match op {
            BinaryOp::Ishl => {
                let h = self.op_tmp(Op::Shl, u, hi, k);
                let c = self.op_tmp(Op::Shr, u, lo, one);
                let c = self.op_tmp(Op::Shr, u, c, inv);
                let hs = self.op_tmp(Op::Or, u, h, c);
                let ls = self.op_tmp(Op::Shl, u, lo, k);
                (ls, hs, Operand::imm(Imm::ud(0)), ls)
            }
            _ => {
                let c = self.op_tmp(Op::Shl, u, hi, one);
                let c = self.op_tmp(Op::Shl, u, c, inv);
                let l0 = self.op_tmp(Op::Shr, u, lo, k);
                let ls = self.op_tmp(Op::Or, u, l0, c);
                if op == BinaryOp::Sshr {
                    let hd = as_d(self, hi);
                    let t = self.tmp(Type::D, u);
                    self.k.binary(Op::Asr, ex, Operand::dst(t), hd, k);
                    let sign = self.tmp(Type::D, u);
                    self.k
                        .binary(Op::Asr, ex, Operand::dst(sign), hd, Operand::imm(Imm::ud(31)));
                    let (tv, sv) = (self.view(t, Type::UD), self.view(sign, Type::UD));
                    (ls, rd(tv, u), rd(tv, u), rd(sv, u))
                } else {
                    let hs = self.op_tmp(Op::Shr, u, hi, k);
                    (ls, hs, hs, Operand::imm(Imm::ud(0)))
                }
            }
        };
        let guard = atomc_visa::Predicate::on(p);
        for (hi_half, big_v, small_v) in [(false, lo_big, lo_small), (true, hi_big, hi_small)] {
            let d = self.half_dst(r, u, hi_half, Type::UD);
            let (x, y) = self.unimm(big_v, small_v, Type::UD);
            self.k.binary(Op::Sel, ex, d, x, y).predicated(guard);
        }
    }

    /// `r` = the high 64 bits of the 128-bit product `a * b` (signed where `signed`), from the
    /// four dword products (`mul` low, `mulh` high words) summed with `addc` carries:
    /// word 1 = hi(a0 b0) + lo(a0 b1) + lo(a1 b0), word 2 = hi(a0 b1) + hi(a1 b0) + lo(a1 b1) +
    /// its carries, word 3 = hi(a1 b1) + word 2's carries. A signed product is the unsigned one
    /// less `b` where `a < 0` and `a` where `b < 0` (mod 2^64).
    pub(crate) fn mulhi64(&mut self, r: VarId, u: bool, signed: bool, a: (Operand, Operand), b: (Operand, Operand)) {
        let ex = self.exec(u);
        let h00 = self.op_tmp(Op::Mulh, u, a.0, b.0);
        let (l01, h01) = (self.op_tmp(Op::Mul, u, a.0, b.1), self.op_tmp(Op::Mulh, u, a.0, b.1));
        let (l10, h10) = (self.op_tmp(Op::Mul, u, a.1, b.0), self.op_tmp(Op::Mulh, u, a.1, b.0));
        let (l11, h11) = (self.op_tmp(Op::Mul, u, a.1, b.1), self.op_tmp(Op::Mulh, u, a.1, b.1));
        let (w1, c1a) = self.add_carry(u, h00, l01);
        let (_, c1b) = self.add_carry(u, w1, l10);
        let c1 = self.op_tmp(Op::Add, u, c1a, c1b);
        let (s2, c2a) = self.add_carry(u, h01, h10);
        let (s3, c2b) = self.add_carry(u, s2, l11);
        let t = if signed { self.tmp(Type::UQ, u) } else { r };
        let lo = self.half_dst(t, u, false, Type::UD);
        let c2c = self.tmp(Type::UD, u);
        let (x, y) = self.unimm(s3, c1, Type::UD);
        self.k.addc(ex, lo, Operand::dst(c2c), x, y);
        let c2 = self.op_tmp(Op::Add, u, c2a, c2b);
        let c2 = self.op_tmp(Op::Add, u, c2, rd(c2c, u));
        let hi = self.half_dst(t, u, true, Type::UD);
        self.k.add(ex, hi, h11, c2);
        if !signed {
            return;
        }
        let h = (self.half_of(t, u, false, Type::UD), self.half_of(t, u, true, Type::UD));
        let fa = self.negative_mask(u, a.1, b);
        let fb = self.negative_mask(u, b.1, a);
        let t2 = self.tmp(Type::UQ, u);
        self.sub64(t2, u, h, fa);
        let h2 = (self.half_of(t2, u, false, Type::UD), self.half_of(t2, u, true, Type::UD));
        self.sub64(r, u, h2, fb);
    }

    /// `(a + b, carry)` of two dwords (`addc`).
    fn add_carry(&mut self, u: bool, a: Operand, b: Operand) -> (Operand, Operand) {
        let ex = self.exec(u);
        let (s, c) = (self.tmp(Type::UD, u), self.tmp(Type::UD, u));
        let (a, b) = self.unimm(a, b, Type::UD);
        self.k.addc(ex, Operand::dst(s), Operand::dst(c), a, b);
        (rd(s, u), rd(c, u))
    }

    /// The halves of `x` where the dword `sign_hi` is negative, else 0: each and'ed with
    /// `sign_hi >> 31` (arithmetic).
    fn negative_mask(&mut self, u: bool, sign_hi: Operand, x: (Operand, Operand)) -> (Operand, Operand) {
        let ex = self.exec(u);
        let s = self.tmp(Type::D, u);
        let hd = as_d(self, sign_hi);
        self.k.binary(Op::Asr, ex, Operand::dst(s), hd, Operand::imm(Imm::ud(31)));
        let m = rd(self.view(s, Type::UD), u);
        (self.op_tmp(Op::And, u, x.0, m), self.op_tmp(Op::And, u, x.1, m))
    }

    /// `r = a * b` (low 64 bits) on 64-bit halves.
    pub(crate) fn mul64(&mut self, r: VarId, u: bool, a: (Operand, Operand), b: (Operand, Operand)) {
        let ex = self.exec(u);
        let carry = self.mulhi32(a.0, b.0, u);
        let x = self.op_tmp(Op::Mul, u, a.0, b.1);
        let y = self.op_tmp(Op::Mul, u, a.1, b.0);
        let hi = self.half_dst(r, u, true, Type::UD);
        let s = self.op_tmp(Op::Add, u, carry, x);
        self.k.add(ex, hi, s, y);
        let lo = self.half_dst(r, u, false, Type::UD);
        let (p, q) = self.unimm(a.0, b.0, Type::UD);
        self.k.binary(Op::Mul, ex, lo, p, q);
    }

    pub(crate) fn add64(&mut self, r: VarId, u: bool, a: (Operand, Operand), b: (Operand, Operand)) {
        let (ex, carry) = self.low64(r, u, a.0, b.0, false);
        let hi = self.half_dst(r, u, true, Type::UD);
        let cs = if u { Operand::scalar(carry) } else { Operand::src(carry) };
        let zero = |o: &Operand| matches!(o, Operand::Imm(i) if i.bits == 0);
        // A zero high half (a zero-extended or small constant operand)
        // saves the second add.
        let other = if zero(&b.1) {
            Some(a.1)
        } else if zero(&a.1) {
            Some(b.1)
        } else {
            None
        };
        if let Some(o) = other {
            let (o, c) = self.unimm(o, cs, Type::UD);
            self.k.add(ex, hi, o, c);
            return;
        }
        let (ahi, bhi) = self.unimm(a.1, b.1, Type::UD);
        self.k.add(ex, hi, ahi, bhi);
        let hs = self.half_of(r, u, true, Type::UD);
        self.k.add(ex, hi, hs, cs);
    }

    /// The low word of `r = a + b` (`addc`) or, where `sub`, `r = a - b` (`subb`); returns the exec
    /// and the carry or borrow.
    fn low64(&mut self, r: VarId, u: bool, a: Operand, b: Operand, sub: bool) -> (Exec, VarId) {
        let ex = self.exec(u);
        let flag = self.tmp(Type::UD, u);
        let (a, b) = self.unimm(a, b, Type::UD);
        let lo = self.half_dst(r, u, false, Type::UD);
        if sub {
            self.k.subb(ex, lo, Operand::dst(flag), a, b);
        } else {
            self.k.addc(ex, lo, Operand::dst(flag), a, b);
        }
        (ex, flag)
    }

    /// `r = a - b` on 64-bit halves.
    pub(crate) fn sub64(&mut self, r: VarId, u: bool, a: (Operand, Operand), b: (Operand, Operand)) {
        let (ex, borrow) = self.low64(r, u, a.0, b.0, true);
        let hi = self.half_dst(r, u, true, Type::D);
        let (x, y) = (as_d(self, a.1), as_d(self, b.1));
        let (ahi, bhi) = self.unimm(x, y, Type::D);
        self.k.add(ex, hi, ahi, neg(bhi));
        let hs = self.half_of(r, u, true, Type::D);
        let bv = self.view(borrow, Type::D);
        let bs = if u { Operand::scalar(bv) } else { Operand::src(bv) };
        self.k.add(ex, hi, hs, neg(bs));
    }

    /// A 64-bit shift by a constant amount (`op`: shl, shr or asr).
    pub(crate) fn shift64(&mut self, r: VarId, u: bool, op: BinaryOp, a: (Operand, Operand), k: u32) {
        let ex = self.exec(u);
        let k = k % 64;
        let (lo_d, hi_d) = (
            self.half_dst(r, u, false, Type::UD),
            self.half_dst(r, u, true, Type::UD),
        );
        let sh = |n: u32| Operand::imm(Imm::ud(n));
        let hi_a_d = as_d(self, a.1);
        if k == 0 {
            self.k.mov(ex, lo_d, a.0);
            self.k.mov(ex, hi_d, a.1);
            return;
        }
        let hi_zero = matches!(a.1, Operand::Imm(i) if i.bits == 0);
        if hi_zero && op == BinaryOp::Ishl && k < 32 {
            // The high half is only what shifts out of the low one.
            self.k.binary(Op::Shr, ex, hi_d, a.0, sh(32 - k));
            self.k.binary(Op::Shl, ex, lo_d, a.0, sh(k));
            return;
        }
        let t = self.tmp(Type::UD, u);
        let ts = if u { Operand::scalar(t) } else { Operand::src(t) };
        match (op, k < 32) {
            (BinaryOp::Ishl, true) => {
                self.k.binary(Op::Shr, ex, Operand::dst(t), a.0, sh(32 - k));
                self.k.binary(Op::Shl, ex, hi_d, a.1, sh(k));
                let hs = self.half_of(r, u, true, Type::UD);
                self.k.binary(Op::Or, ex, hi_d, hs, ts);
                self.k.binary(Op::Shl, ex, lo_d, a.0, sh(k));
            }
            (BinaryOp::Ishl, false) => {
                self.k.binary(Op::Shl, ex, hi_d, a.0, sh(k - 32));
                self.k.mov(ex, lo_d, sh(0));
            }
            (_, true) => {
                let hop = if op == BinaryOp::Sshr { Op::Asr } else { Op::Shr };
                let hsrc = if op == BinaryOp::Sshr { hi_a_d } else { a.1 };
                let hdst = if op == BinaryOp::Sshr {
                    self.half_dst(r, u, true, Type::D)
                } else {
                    hi_d
                };
                self.k.binary(Op::Shl, ex, Operand::dst(t), a.1, sh(32 - k));
                self.k.binary(Op::Shr, ex, lo_d, a.0, sh(k));
                let ls = self.half_of(r, u, false, Type::UD);
                self.k.binary(Op::Or, ex, lo_d, ls, ts);
                self.k.binary(hop, ex, hdst, hsrc, sh(k));
            }
            (_, false) => {
                if op == BinaryOp::Sshr {
                    let ld = self.half_dst(r, u, false, Type::D);
                    self.k.binary(Op::Asr, ex, ld, hi_a_d, sh(k - 32));
                    let hd = self.half_dst(r, u, true, Type::D);
                    self.k.binary(Op::Asr, ex, hd, hi_a_d, sh(31));
                } else {
                    self.k.binary(Op::Shr, ex, lo_d, a.1, sh(k - 32));
                    self.k.mov(ex, hi_d, sh(0));
                }
            }
        }
    }

    /// A predicate: `a cc b` on 64-bit integers (two 32-bit compares per
    /// half, combined with predicate logic).
    pub(crate) fn cmp64(&mut self, cc: IntCC, a: Value, b: Value, u: bool) -> Result<PredId, LowerError> {
        let ex = self.pred_exec(u);
        let signed = matches!(cc, IntCC::Slt | IntCC::Sle | IntCC::Sgt | IntCC::Sge);
        let hty = if signed { Type::D } else { Type::UD };
        let (alo, blo) = (self.half(a, false, Type::UD)?, self.half(b, false, Type::UD)?);
        let (ahi, bhi) = (self.half(a, true, hty)?, self.half(b, true, hty)?);
        let (alo, blo) = self.unimm(alo, blo, Type::UD);
        let (ahi, bhi) = self.unimm(ahi, bhi, hty);
        let p1 = self.tmp_pred();
        let p2 = self.tmp_pred();
        let pr = |p| Operand::pred(p);
        match cc {
            IntCC::Eq | IntCC::Ne => {
                let r = if cc == IntCC::Eq { Relop::Eq } else { Relop::Ne };
                self.k.cmp(ex, r, pr(p1), alo, blo);
                self.k.cmp(ex, r, pr(p2), ahi, bhi);
                let op = if cc == IntCC::Eq { Op::And } else { Op::Or };
                self.k.binary(op, ex, pr(p1), pr(p1), pr(p2));
            }
            _ => {
                let (strict, full) = match cc {
                    IntCC::Slt | IntCC::Ult => (Relop::Lt, Relop::Lt),
                    IntCC::Sle | IntCC::Ule => (Relop::Lt, Relop::Le),
                    IntCC::Sgt | IntCC::Ugt => (Relop::Gt, Relop::Gt),
                    _ => (Relop::Gt, Relop::Ge),
                };
                let p3 = self.tmp_pred();
                self.k.cmp(ex, strict, pr(p1), ahi, bhi);
                self.k.cmp(ex, Relop::Eq, pr(p2), ahi, bhi);
                self.k.cmp(ex, full, pr(p3), alo, blo);
                self.k.binary(Op::And, ex, pr(p2), pr(p2), pr(p3));
                self.k.binary(Op::Or, ex, pr(p1), pr(p1), pr(p2));
            }
        }
        Ok(p1)
    }
}

impl Lower<'_> {
    /// `r = fmin(a, b)` or `fmax(a, b)` on f64 bit patterns, with integer ops on the 32-bit
    /// halves: min and max only order and pick, so no fp64 ALU is needed (TGLLP and DG2 have
    /// none, and GenX_IR cannot split a SIMD2 `df` op on PVC). The IR's rules
    /// (ir/src/interp/float.rs `min_max`): a NaN operand yields the other one, two NaNs the
    /// canonical quiet NaN; -0 is below +0; everything else, denormals and infinities
    /// included, by value, and the result is one of the operands' bit patterns.
    ///
    /// The order: a pattern with its sign bit clear keeps its bits, one with the sign bit set
    /// gets its other 63 bits flipped; as signed 64-bit integers these keys order the non-NaN
    /// doubles by value with -0 (key -1) just below +0 (key 0), and differ wherever the
    /// patterns do. A NaN: magnitude above infinity's, i.e. `(hi & 0x7fffffff) | (lo != 0)`
    /// above 0x7ff00000.
    pub(crate) fn fminmax64(&mut self, r: VarId, u: bool, max: bool, a: (Operand, Operand), b: (Operand, Operand)) {
        let ex = self.exec(u);
        let pex = self.pred_exec(u);
        let ud = |n: u32| Operand::imm(Imm::ud(n));
        // `pick`: where a is the result (a < b for min, a > b for max, on the keys).
        let (alo_k, ahi_k) = self.f64_key(u, a);
        let (blo_k, bhi_k) = self.f64_key(u, b);
        let rel = if max { Relop::Gt } else { Relop::Lt };
        let (pick, eq, low) = (self.tmp_pred(), self.tmp_pred(), self.tmp_pred());
        let (ahi_d, bhi_d) = (as_d(self, ahi_k), as_d(self, bhi_k));
        let (ahi_d, bhi_d) = self.unimm(ahi_d, bhi_d, Type::D);
        self.k.cmp(pex, rel, Operand::pred(pick), ahi_d, bhi_d);
        let (ahi_k, bhi_k) = self.unimm(ahi_k, bhi_k, Type::UD);
        self.k.cmp(pex, Relop::Eq, Operand::pred(eq), ahi_k, bhi_k);
        let (alo_k, blo_k) = self.unimm(alo_k, blo_k, Type::UD);
        self.k.cmp(pex, rel, Operand::pred(low), alo_k, blo_k);
        self.k.binary(Op::And, pex, Operand::pred(eq), Operand::pred(eq), Operand::pred(low));
        self.k.binary(Op::Or, pex, Operand::pred(pick), Operand::pred(pick), Operand::pred(eq));
        for (hi, x, y) in [(false, a.0, b.0), (true, a.1, b.1)] {
            let (x, y) = self.unimm(x, y, Type::UD);
            let d = self.half_dst(r, u, hi, Type::UD);
            self.k.binary(Op::Sel, ex, d, x, y).predicated(atomc_visa::Predicate::on(pick));
        }
        // A NaN b gives a; a NaN a gives b; both give the canonical quiet NaN.
        let (na, nb) = (self.f64_nan(u, a), self.f64_nan(u, b));
        let both = match (na, nb) {
            (Nan::Never, _) | (_, Nan::Never) => Nan::Never,
            (Nan::Always, n) | (n, Nan::Always) => n,
            (Nan::Pred(p), Nan::Pred(q)) => {
                let t = self.tmp_pred();
                self.k.binary(Op::And, pex, Operand::pred(t), Operand::pred(p), Operand::pred(q));
                Nan::Pred(t)
            }
        };
        for (n, (lo, hi)) in [(nb, a), (na, b), (both, (ud(0), ud(0x7ff8_0000)))] {
            let guard = match n {
                Nan::Never => continue,
                Nan::Always => None,
                Nan::Pred(p) => Some(atomc_visa::Predicate::on(p)),
            };
            for (h, v) in [(false, lo), (true, hi)] {
                let d = self.half_dst(r, u, h, Type::UD);
                let m = self.k.mov(ex, d, v);
                if let Some(g) = guard {
                    m.predicated(g);
                }
            }
        }
    }

    /// The order key of an f64 bit pattern (see [`Lower::fminmax64`]): the pattern itself when
    /// its sign bit is clear, its other 63 bits flipped when set. As signed 64-bit integers the
    /// keys order the non-NaN doubles by value, -0 (key -1) just below +0 (key 0).
    pub(crate) fn f64_key(&mut self, u: bool, x: (Operand, Operand)) -> (Operand, Operand) {
        let ex = self.exec(u);
        let ud = |n: u32| Operand::imm(Imm::ud(n));
        if let Some(c) = konst64(x) {
            let k = if c >> 63 == 1 { c ^ 0x7fff_ffff_ffff_ffff } else { c };
            return (ud(k as u32), ud((k >> 32) as u32));
        }
        let (lo, hi) = x;
        let hd = as_d(self, hi);
        let sign = self.tmp(Type::D, u);
        self.k.binary(Op::Asr, ex, Operand::dst(sign), hd, ud(31));
        let sv = rd(self.view(sign, Type::UD), u);
        let flip_hi = self.op_tmp(Op::Shr, u, sv, ud(1));
        let klo = self.op_tmp(Op::Xor, u, lo, sv);
        let khi = self.op_tmp(Op::Xor, u, hi, flip_hi);
        (klo, khi)
    }

    /// Whether an f64 bit pattern is a NaN: its magnitude, `(hi & 0x7fffffff) | (lo != 0)`, is
    /// above infinity's high word 0x7ff00000.
    pub(crate) fn f64_nan(&mut self, u: bool, x: (Operand, Operand)) -> Nan {
        let ud = |n: u32| Operand::imm(Imm::ud(n));
        if let Some(c) = konst64(x) {
            return if c & !(1 << 63) > 0x7ff0_0000_0000_0000 { Nan::Always } else { Nan::Never };
        }
        let (lo, hi) = x;
        let mag = self.op_tmp(Op::And, u, hi, ud(0x7fff_ffff));
        let lo_nz = self.op_tmp(Op::Min, u, lo, ud(1));
        let m = self.op_tmp(Op::Or, u, mag, lo_nz);
        let p = self.tmp_pred();
        self.k.cmp(self.pred_exec(u), Relop::Gt, Operand::pred(p), m, ud(0x7ff0_0000));
        Nan::Pred(p)
    }
}

/// A 64-bit operand's value when both halves are immediates.
fn konst64((lo, hi): (Operand, Operand)) -> Option<u64> {
    match (lo, hi) {
        (Operand::Imm(l), Operand::Imm(h)) => Some(((h.bits & 0xffff_ffff) << 32) | (l.bits & 0xffff_ffff)),
        _ => None,
    }
}

/// Whether a 64-bit operand is a NaN: known from a constant, or a predicate.
#[derive(Clone, Copy)]
pub(crate) enum Nan {
    Never,
    Always,
    Pred(PredId),
}

/// A `ud` half-source seen as `d`.
pub(crate) fn as_d(l: &mut Lower<'_>, o: Operand) -> Operand {
    match o {
        Operand::Src {
            var,
            row,
            col,
            region,
            modifier,
        } => {
            let v = l.view(var, Type::D);
            Operand::Src {
                var: v,
                row,
                col,
                region,
                modifier,
            }
        }
        Operand::Imm(i) => Operand::imm(Imm {
            ty: Type::D,
            bits: i.bits,
        }),
        o => o,
    }
}

pub(crate) fn binary64(l: &mut Lower<'_>, bin: Binary) -> Result<(), LowerError> {
    let Binary { inst, op, args, res, u } = bin;
    let ex = l.exec(u);
    let konst = |l: &Lower<'_>, v: Value| match l.loc(v) {
        Ok(Loc::Const(c)) => Some(c),
        _ => None,
    };
    let a = l.halves(args[0], false)?;
    let b = l.halves(args[1], false)?;
    match op {
        BinaryOp::Iadd => {
            let r = l.def_var(res, u)?;
            l.add64(r, u, a, b);
        }
        BinaryOp::Isub => {
            let r = l.def_var(res, u)?;
            l.sub64(r, u, a, b);
        }
        BinaryOp::Band | BinaryOp::Bor | BinaryOp::Bxor => {
            let vop = match op {
                BinaryOp::Band => Op::And,
                BinaryOp::Bor => Op::Or,
                _ => Op::Xor,
            };
            let r = l.def_var(res, u)?;
            for (hi, x, y) in [(false, a.0, b.0), (true, a.1, b.1)] {
                let (x, y) = l.unimm(x, y, Type::UD);
                let d = l.half_dst(r, u, hi, Type::UD);
                l.k.binary(vop, ex, d, x, y);
            }
        }
        BinaryOp::Imul => {
            // Multiplying by a power of two is a shift; a general 64-bit
            // multiply needs 32×32→64 products the op table lacks.
            let r = l.def_var(res, u)?;
            match (konst(l, args[0]), konst(l, args[1])) {
                (_, Some(c)) if c.is_power_of_two() => l.shift64(r, u, BinaryOp::Ishl, a, c.trailing_zeros()),
                (Some(c), _) if c.is_power_of_two() => l.shift64(r, u, BinaryOp::Ishl, b, c.trailing_zeros()),
                _ => l.mul64(r, u, a, b),
            }
        }
        BinaryOp::Ishl | BinaryOp::Ushr | BinaryOp::Sshr => {
            let r = l.def_var(res, u)?;
            match konst(l, args[1]) {
                Some(c) => l.shift64(r, u, op, a, (c % 64) as u32),
                None => l.shift64_var(r, u, op, a, b.0),
            }
        }
        BinaryOp::Umin | BinaryOp::Umax | BinaryOp::Smin | BinaryOp::Smax => {
            let cc = match op {
                BinaryOp::Umin => IntCC::Ult,
                BinaryOp::Umax => IntCC::Ugt,
                BinaryOp::Smin => IntCC::Slt,
                _ => IntCC::Sgt,
            };
            let p = l.cmp64(cc, args[0], args[1], u)?;
            let r = l.def_var(res, u)?;
            for (hi, x, y) in [(false, a.0, b.0), (true, a.1, b.1)] {
                let (x, y) = l.unimm(x, y, Type::UD);
                let d = l.half_dst(r, u, hi, Type::UD);
                l.k.binary(Op::Sel, ex, d, x, y)
                    .predicated(atomc_visa::Predicate::on(p));
            }
        }
        _ => return Err(l.reject(inst, "this 64-bit operation is not lowered for vISA")),
    }
    Ok(())
}

/// A temporary as a source (scalar region when uniform).
pub(crate) fn rd(t: VarId, u: bool) -> Operand {
    if u {
        Operand::scalar(t)
    } else {
        Operand::src(t)
    }
}
