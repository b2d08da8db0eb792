//! 64-bit integer arithmetic on the `ud` halves of `uq` variables
//! (`<2;1,0>` regions): TGLLP and DG2 have no 64-bit integer ALU and
//! GenX_IR does not emulate one (visa.md §2), so adds carry through
//! `addc`/`subb`, shifts by constants combine the halves, and compares are
//! two 32-bit compares joined with predicate logic.

use atomc_ir::{BinaryOp, Inst, IntCC, Value};

use super::alu::neg;
use super::values::Loc;
use super::{Lower, LowerError};
use crate::visa::{Imm, Op, Operand, PredId, Relop, Type, VarId};

impl Lower<'_> {
    pub(crate) fn add64(&mut self, r: VarId, u: bool, a: (Operand, Operand), b: (Operand, Operand)) {
        let ex = self.exec(u);
        let carry = self.tmp(Type::UD, u);
        let (alo, blo) = self.unimm(a.0, b.0, Type::UD);
        let lo = self.half_dst(r, u, false, Type::UD);
        self.k.addc(ex, lo, Operand::dst(carry), alo, blo);
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

    /// `r = a - b` on 64-bit halves.
    pub(crate) fn sub64(&mut self, r: VarId, u: bool, a: (Operand, Operand), b: (Operand, Operand)) {
        let ex = self.exec(u);
        let borrow = self.tmp(Type::UD, u);
        let (alo, blo) = self.unimm(a.0, b.0, Type::UD);
        let lo = self.half_dst(r, u, false, Type::UD);
        self.k.subb(ex, lo, Operand::dst(borrow), alo, blo);
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

/// A `ud` half-source seen as `d`.
fn as_d(l: &mut Lower<'_>, o: Operand) -> Operand {
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

pub(crate) fn binary64(
    l: &mut Lower<'_>,
    inst: Inst,
    op: BinaryOp,
    args: [Value; 2],
    res: Value,
    u: bool,
) -> Result<(), LowerError> {
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
            let (x, c) = match (konst(l, args[0]), konst(l, args[1])) {
                (_, Some(c)) if c.is_power_of_two() => (a, c),
                (Some(c), _) if c.is_power_of_two() => (b, c),
                _ => return Err(l.reject(inst, "a 64-bit multiply is lowered only by a power-of-two constant")),
            };
            let r = l.def_var(res, u)?;
            l.shift64(r, u, BinaryOp::Ishl, x, c.trailing_zeros());
        }
        BinaryOp::Ishl | BinaryOp::Ushr | BinaryOp::Sshr => {
            let Some(c) = konst(l, args[1]) else {
                return Err(l.reject(inst, "a 64-bit shift is lowered only by a constant amount"));
            };
            let r = l.def_var(res, u)?;
            l.shift64(r, u, op, a, (c % 64) as u32);
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
                    .predicated(crate::visa::Predicate::on(p));
            }
        }
        _ => return Err(l.reject(inst, "this 64-bit operation is not lowered for vISA")),
    }
    Ok(())
}
