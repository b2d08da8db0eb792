//! Subgroup instructions on vISA: the subgroup is the hardware thread's SIMD lanes, and the
//! active lanes are the channels the execution mask enables (SIMD `goto` parks the others).
//!
//! Every sequence starts from a lane mask read under the execution mask: a temporary is zeroed
//! in every channel (`NoMask`), set to 1 in the enabled channels (optionally under a guard),
//! compared into a predicate in every channel and the predicate copied into a scalar, as IGC
//! gets its execution mask (a compare under the mask into a flag, then a flag-to-GRF move).
//! Cross-lane reads use scalar regions `x(row,col)<0;1,0>` of one lane at a time: a reduction is
//! a halving tree of `NoMask` operations over a copy whose disabled channels hold the identity,
//! a shuffle or `match_any` one compare and predicated move per source lane. Results are per
//! lane (written under the mask): a value computed inside a loop by some lanes is not the value
//! other lanes computed earlier.

use atomc_ir::{Inst, InstData, ReduceOp, ShuffleMode, Value, VoteOp};

use super::values::Loc;
use super::{Lower, LowerError};
use atomc_visa::{Exec, ExecSize, Imm, Op, Operand, PredId, Predicate, Region, Relop, Type, VarId};

fn ud(v: u32) -> Operand {
    Operand::imm(Imm::ud(v))
}

impl Lower<'_> {
    /// The operand of element `i` of `var` (as `ty`) read in every lane.
    fn lane_elem(&mut self, var: VarId, ty: Type, i: u32) -> Operand {
        let v = self.view(var, ty);
        let per_grf = self.p.grf_bytes() / ty.size();
        Operand::src_at(v, (i / per_grf) as u8, (i % per_grf) as u8, Region::SCALAR)
    }

    /// A scalar `ud` with bit `i` set for each enabled channel `i` (where `guard` holds, when
    /// given).
    pub(crate) fn lane_bits(&mut self, guard: Option<Predicate>) -> VarId {
        let all = Exec::nomask(self.simd);
        let t = self.tmp(Type::UD, false);
        self.k.mov(all, Operand::dst(t), ud(0));
        self.k.mov(Exec::new(self.simd), Operand::dst(t), ud(1)).pred = guard;
        let q = self.tmp_pred();
        if self.simd.lanes() < self.lanes_alloc() as u32 {
            // The predicate has more bits than lanes; the copy reads them all.
            let n = ExecSize::from_lanes(self.lanes_alloc() as u32).unwrap_or(ExecSize::S8);
            self.k.setp(Exec::nomask(n), q, Operand::imm(Imm::uw(0)));
        }
        self.k.cmp(all, Relop::Ne, Operand::pred(q), Operand::src(t), ud(0));
        let m = self.tmp(Type::UD, true);
        self.k.mov(Exec::nomask(ExecSize::S1), Operand::dst(m), Operand::pred(q));
        m
    }

    /// A per-lane predicate `scalar relop imm`.
    fn pred_of(&mut self, res: Value, r: Relop, a: Operand, b: Operand) -> PredId {
        let p = self.def_pred(res, false);
        self.k.cmp(Exec::new(self.simd), r, Operand::pred(p), a, b);
        p
    }

    /// `res` = the scalar `m` in every enabled lane.
    fn broadcast(&mut self, res: Value, m: Operand) -> Result<(), LowerError> {
        let r = self.def_var(res, false)?;
        let d = self.dst(r, Type::UD);
        self.k.mov(Exec::new(self.simd), d, m);
        Ok(())
    }

    /// Leaves in element 0 of `t` (a varying 32-bit temporary) `vop` over the
    /// source `s` of the enabled lanes: a copy whose disabled channels hold the identity `id`,
    /// then a halving tree of `NoMask` operations.
    pub(crate) fn lane_tree(&mut self, t: VarId, vop: Op, id: u32, s: Operand) {
        let ty = self.k.var(t).map_or(Type::UD, |d| d.ty);
        self.k.mov(Exec::nomask(self.simd), Operand::dst(t), Operand::imm(Imm { ty, bits: id as u64 }));
        self.k.mov(Exec::new(self.simd), Operand::dst(t), s);
        let mut w = self.simd.lanes() / 2;
        while w >= 1 {
            let ex = Exec::nomask(ExecSize::from_lanes(w).unwrap_or(ExecSize::S1));
            let hi = {
                let per_grf = self.p.grf_bytes() / 4;
                Operand::src_at(t, (w / per_grf) as u8, (w % per_grf) as u8, Region::CONTIGUOUS)
            };
            self.k.binary(vop, ex, Operand::dst(t), Operand::src(t), hi);
            w /= 2;
        }
    }

    /// A scalar holding `op` over `x` of the enabled lanes (as `ty`).
    fn reduce_scalar(&mut self, op: ReduceOp, x: Value) -> Result<(VarId, Type), LowerError> {
        let (vop, ty, id) = match op {
            ReduceOp::Add => (Op::Add, Type::UD, 0),
            ReduceOp::Umin => (Op::Min, Type::UD, u32::MAX),
            ReduceOp::Umax => (Op::Max, Type::UD, 0),
            ReduceOp::Smin => (Op::Min, Type::D, i32::MAX as u32),
            ReduceOp::Smax => (Op::Max, Type::D, i32::MIN as u32),
            ReduceOp::And => (Op::And, Type::UD, u32::MAX),
            ReduceOp::Or => (Op::Or, Type::UD, 0),
            ReduceOp::Xor => (Op::Xor, Type::UD, 0),
        };
        let t = self.tmp(ty, false);
        // Narrow values are kept zero-extended: signed orders compare them sign-extended.
        let bits = self.ty(x).bits();
        let s = if ty == Type::D && bits < 32 { self.sext32(x)? } else { self.src(x, ty)? };
        self.lane_tree(t, vop, id, s);
        if bits < 32 && matches!(op, ReduceOp::Add | ReduceOp::Smin | ReduceOp::Smax) {
            let m = Operand::imm(Imm::ud(((1u64 << bits) - 1) as u32));
            let tu = self.view(t, Type::UD);
            self.k.binary(Op::And, Exec::nomask(ExecSize::S1), Operand::dst(tu), Operand::scalar(tu), m);
        }
        Ok((t, ty))
    }
}

/// Lowers one subgroup instruction.
pub(crate) fn lower(l: &mut Lower<'_>, inst: Inst) -> Result<(), LowerError> {
    let f = l.f;
    let Some(res) = f.inst_result(inst) else { return Ok(()) };
    let ex = Exec::new(l.simd);
    match f.insts[inst] {
        InstData::ActiveMask => {
            let m = l.lane_bits(None);
            l.broadcast(res, Operand::scalar(m))?;
        }
        InstData::Ballot { cond } => {
            let (p, _) = l.pred(cond)?;
            let m = l.lane_bits(Some(Predicate::on(p)));
            l.broadcast(res, Operand::scalar(m))?;
        }
        InstData::Vote { op: VoteOp::Any, arg } => {
            let (p, _) = l.pred(arg)?;
            let m = l.lane_bits(Some(Predicate::on(p)));
            l.pred_of(res, Relop::Ne, Operand::scalar(m), ud(0));
        }
        // All: no enabled lane has the condition false.
        InstData::Vote { op: VoteOp::All, arg } => {
            let (p, _) = l.pred(arg)?;
            let m = l.lane_bits(Some(Predicate::not(p)));
            l.pred_of(res, Relop::Eq, Operand::scalar(m), ud(0));
        }
        InstData::Vote { op: VoteOp::Eq, arg } if l.ty(arg) == atomc_ir::Type::Pred => {
            let (p, _) = l.pred(arg)?;
            let t = l.lane_bits(Some(Predicate::on(p)));
            let e = l.lane_bits(Some(Predicate::not(p)));
            let m = l.tmp(Type::UD, true);
            l.k.binary(Op::Min, Exec::nomask(ExecSize::S1), Operand::dst(m), Operand::scalar(t), Operand::scalar(e));
            l.pred_of(res, Relop::Eq, Operand::scalar(m), ud(0));
        }
        // Equal bit patterns: the unsigned minimum is the maximum.
        InstData::Vote { op: VoteOp::Eq, arg } => {
            let (lo, _) = l.reduce_scalar(ReduceOp::Umin, arg)?;
            let (hi, _) = l.reduce_scalar(ReduceOp::Umax, arg)?;
            l.pred_of(res, Relop::Eq, Operand::scalar(lo), Operand::scalar(hi));
        }
        InstData::Reduce { op, arg } => {
            let (t, ty) = l.reduce_scalar(op, arg)?;
            let r = l.def_var(res, false)?;
            let d = l.dst(r, ty);
            l.k.mov(ex, d, Operand::scalar(t));
        }
        InstData::MatchAny { arg } => {
            let m = l.lane_bits(None);
            let x = match l.mat(arg)? {
                Loc::Var { var, uniform: false } => var,
                // The same value in every lane: every active lane matches.
                _ => return l.broadcast(res, Operand::scalar(m)),
            };
            let r = l.def_var(res, false)?;
            l.k.mov(ex, Operand::dst(r), Operand::scalar(m));
            let halves = dwords(l, x);
            let eq = l.tmp_pred();
            for i in 0..l.simd.lanes() {
                for h in 0..halves {
                    let xs = own(l, x, halves, h);
                    let xi = l.lane_elem(x, Type::UD, i * halves + h);
                    l.k.cmp(ex, Relop::Eq, Operand::pred(eq), xs, xi);
                    l.k.binary(Op::And, ex, Operand::dst(r), Operand::src(r), ud(!(1u32 << i)))
                        .predicated(Predicate::not(eq));
                }
            }
        }
        InstData::Shuffle { mode, args: [x, y] } => shuffle(l, mode, x, y, res)?,
        _ => return Err(l.reject(inst, "not a subgroup instruction")),
    }
    Ok(())
}

/// `shuffle`: each lane's source lane number, replaced by an out-of-range marker where the
/// source is out of range or disabled; then one predicated move per source lane.
fn shuffle(l: &mut Lower<'_>, mode: ShuffleMode, x: Value, y: Value, res: Value) -> Result<(), LowerError> {
    let ex = Exec::new(l.simd);
    let n = l.simd.lanes();
    let Loc::Var { var: xv, uniform: false } = l.mat(x)? else {
        // Every lane holds the same x: any source gives it (copied as dwords).
        let r = l.def_var(res, false)?;
        if super::values::is64(l.ty(x)) {
            for hi in [false, true] {
                let s = l.half(x, hi, Type::UD)?;
                let d = l.half_dst(r, false, hi, Type::UD);
                l.k.mov(ex, d, s);
            }
        } else {
            let s = l.src(x, Type::UD)?;
            let d = l.dst(r, Type::UD);
            l.k.mov(ex, d, s);
        }
        return Ok(());
    };
    let lane = match super::abi::special(l, atomc_ir::SpecialReg::LaneId) {
        Some((v, _)) => Operand::src(v),
        None => return Err(l.unsupported("shuffle", "the lane number input is not declared")),
    };
    let ys = l.src(y, Type::UD)?;
    let src = l.tmp(Type::UD, false);
    let sd = Operand::dst(src);
    let ss = Operand::src(src);
    let bad = l.tmp_pred();
    let mut out_of_range = false;
    match mode {
        ShuffleMode::Idx => {
            let (a, b) = l.unimm(ys, ud(n - 1), Type::UD);
            l.k.binary(Op::And, ex, sd, a, b);
        }
        ShuffleMode::Xor => {
            let t = l.tmp(Type::UD, false);
            let (a, b) = l.unimm(ys, ud(n - 1), Type::UD);
            l.k.binary(Op::And, ex, Operand::dst(t), a, b);
            l.k.binary(Op::Xor, ex, sd, lane, Operand::src(t));
        }
        ShuffleMode::Up => {
            // lane - y, out of range where y > lane.
            let ys = reg(l, ys);
            l.k.add(ex, sd, lane, ys.with_mod(atomc_visa::SrcMod::Neg));
            l.k.cmp(ex, Relop::Gt, Operand::pred(bad), ys, lane);
            out_of_range = true;
        }
        ShuffleMode::Down => {
            // lane + y, out of range where y >= n - lane (no wrap-around).
            let ys = reg(l, ys);
            let room = l.tmp(Type::D, false);
            let lane_d = match lane {
                Operand::Src { var, .. } => Operand::src(l.view(var, Type::D)),
                o => o,
            };
            l.k.add(ex, Operand::dst(room), lane_d.with_mod(atomc_visa::SrcMod::Neg), Operand::imm(Imm::d(n as i32)));
            l.k.add(ex, sd, lane, ys);
            let roomv = l.view(room, Type::UD);
            l.k.cmp(ex, Relop::Ge, Operand::pred(bad), ys, Operand::src(roomv));
            out_of_range = true;
        }
    }
    // A disabled source lane reads as absent.
    let m = l.lane_bits(None);
    let bit = l.tmp(Type::UD, false);
    l.k.binary(Op::Shr, ex, Operand::dst(bit), Operand::scalar(m), ss);
    l.k.binary(Op::And, ex, Operand::dst(bit), Operand::src(bit), ud(1));
    let off = l.tmp_pred();
    l.k.cmp(ex, Relop::Eq, Operand::pred(off), Operand::src(bit), ud(0));
    l.k.mov(ex, sd, ud(n)).predicated(Predicate::on(off));
    if out_of_range {
        l.k.mov(ex, sd, ud(n)).predicated(Predicate::on(bad));
    }
    let r = l.def_var(res, false)?;
    let halves = dwords(l, xv);
    for h in 0..halves {
        let d = half_dst(l, r, halves, h);
        let xs = own(l, xv, halves, h);
        l.k.mov(ex, d, xs);
    }
    let hit = l.tmp_pred();
    for i in 0..n {
        l.k.cmp(ex, Relop::Eq, Operand::pred(hit), ss, ud(i));
        for h in 0..halves {
            let d = half_dst(l, r, halves, h);
            let xi = l.lane_elem(xv, Type::UD, i * halves + h);
            l.k.mov(ex, d, xi).predicated(Predicate::on(hit));
        }
    }
    Ok(())
}

/// Dwords per lane of a varying variable: 2 for 64-bit values, else 1.
fn dwords(l: &Lower<'_>, var: VarId) -> u32 {
    if l.k.var(var).is_some_and(|d| d.ty.size() == 8) {
        2
    } else {
        1
    }
}

/// Dword `h` of every lane of `var` as a source.
fn own(l: &mut Lower<'_>, var: VarId, halves: u32, h: u32) -> Operand {
    if halves == 2 {
        l.half_of(var, false, h == 1, Type::UD)
    } else {
        Operand::src(l.view(var, Type::UD))
    }
}

/// Dword `h` of every lane of `var` as a destination.
fn half_dst(l: &mut Lower<'_>, var: VarId, halves: u32, h: u32) -> Operand {
    if halves == 2 {
        l.half_dst(var, false, h == 1, Type::UD)
    } else {
        l.dst(var, Type::UD)
    }
}

/// `o` in a register.
fn reg(l: &mut Lower<'_>, o: Operand) -> Operand {
    if let Operand::Imm(_) = o {
        let t = l.tmp(Type::UD, false);
        l.k.mov(Exec::new(l.simd), Operand::dst(t), o);
        return Operand::src(t);
    }
    o
}
