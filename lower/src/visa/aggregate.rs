//! Warp aggregation on vISA: a 32-bit integer `atomic_rmw` whose address is the same in every
//! lane is one `(M1_NM, 1)` message carrying the combination of the active lanes' operands.
//!
//! The operands of the lanes that run the atomic (enabled, and under the if-conversion guard)
//! are copied over the op's identity, an exclusive scan of that copy (a Hillis–Steele scan,
//! ping-ponged between two temporaries so that no instruction reads what it writes) gives each
//! lane the combination of the lanes below it, and scan + own operand of the last lane is the
//! total. The message runs only when some lane wanted it (a lane mask compared with 0: a
//! guarded-off lane 0 must not veto it, nor an all-off guard send it). A used result is the
//! old value returned to the leader combined with the lane's exclusive scan: the lanes' atomics
//! in lane order, one of the orders the IR allows.

use atomc_ir::{Address, Value};

use super::{Lower, LowerError};
use atomc_visa::{AtomicOp, AtomicWidth, Exec, ExecSize, Imm, Op, Operand, Predicate, Region, Relop, Type, VarId};

/// The combining op, its element type and identity for an aggregated `svm_atomic` op (`Sub`
/// combines by adding; the message subtracts the total).
fn combine(op: AtomicOp) -> Option<(Op, Type, u32)> {
    Some(match op {
        AtomicOp::Add | AtomicOp::Sub | AtomicOp::Inc | AtomicOp::Dec => (Op::Add, Type::UD, 0),
        AtomicOp::And => (Op::And, Type::UD, u32::MAX),
        AtomicOp::Or => (Op::Or, Type::UD, 0),
        AtomicOp::Xor => (Op::Xor, Type::UD, 0),
        AtomicOp::Min => (Op::Min, Type::UD, u32::MAX),
        AtomicOp::Max => (Op::Max, Type::UD, 0),
        AtomicOp::IMin => (Op::Min, Type::D, i32::MAX as u32),
        AtomicOp::IMax => (Op::Max, Type::D, i32::MIN as u32),
        _ => return None,
    })
}

/// Whether [`rmw`] takes the atomic: 32-bit, a combinable op, a uniform address.
pub(crate) fn applies(l: &Lower<'_>, op: AtomicOp, w: AtomicWidth, addr: Address) -> bool {
    l.aggregate && w == AtomicWidth::W32 && combine(op).is_some() && l.is_uniform(addr.ptr)
}

/// Element `i` of `var` as a region start.
fn at(l: &Lower<'_>, var: VarId, i: u32, region: Option<Region>) -> Operand {
    let per_grf = l.p.grf_bytes() / 4;
    let (row, col) = ((i / per_grf) as u8, (i % per_grf) as u8);
    match region {
        Some(r) => Operand::src_at(var, row, col, r),
        None => Operand::dst_at(var, row, col, 1),
    }
}

fn exec_nm(n: u32) -> Exec {
    Exec::nomask(ExecSize::from_lanes(n).unwrap_or(ExecSize::S1))
}

/// `len` (below 32) split into power-of-two runs `(start, length)`: the exec sizes that cover
/// `len` elements.
fn pieces(len: u32) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut bit = 16;
    while bit >= 1 {
        if len & bit != 0 {
            out.push((start, bit));
            start += bit;
        }
        bit /= 2;
    }
    out
}

/// Lowers the aggregated atomic. `src`: the operand (`None`: inc/dec, an operand of 1).
pub(crate) fn rmw(
    l: &mut Lower<'_>,
    op: AtomicOp,
    addr: Address,
    src: Option<Value>,
    res: Option<Value>,
) -> Result<(), LowerError> {
    let (cop, ty, id) = combine(op).ok_or_else(|| l.unsupported("atomic_rmw", "no combining op for it"))?;
    let n = l.simd.lanes();
    let guard = l.guard;
    let idv = Operand::imm(Imm { ty, bits: id as u64 });
    // The operands of the lanes that run the atomic, the identity elsewhere.
    let x = l.tmp(ty, false);
    l.k.mov(exec_nm(n), Operand::dst(x), idv);
    let s = match src {
        Some(v) => l.src(v, ty)?,
        None => Operand::imm(Imm { ty, bits: 1 }),
    };
    l.k.mov(Exec::new(l.simd), Operand::dst(x), s).pred = guard;
    // Exclusive scan: start from the copy shifted up one lane, then log2(n) steps.
    let mut a = l.tmp(ty, false);
    let mut b = l.tmp(ty, false);
    l.k.mov(exec_nm(n), Operand::dst(a), idv);
    for (from, len) in pieces(n - 1) {
        let d = at(l, a, from + 1, None);
        let sx = at(l, x, from, Some(Region::CONTIGUOUS));
        l.k.mov(exec_nm(len), d, sx);
    }
    let mut step = 1;
    while step < n {
        for (from, len) in pieces(step) {
            let d = at(l, b, from, None);
            let sa = at(l, a, from, Some(Region::CONTIGUOUS));
            l.k.mov(exec_nm(len), d, sa);
        }
        for (from, len) in pieces(n - step) {
            let d = at(l, b, from + step, None);
            let hi = at(l, a, from + step, Some(Region::CONTIGUOUS));
            let lo = at(l, a, from, Some(Region::CONTIGUOUS));
            l.k.binary(cop, exec_nm(len), d, hi, lo);
        }
        std::mem::swap(&mut a, &mut b);
        step *= 2;
    }
    // The total, in lane 0 of the message's operand.
    let total = l.tmp(ty, false);
    let last_scan = at(l, a, n - 1, Some(Region::SCALAR));
    let last_x = at(l, x, n - 1, Some(Region::SCALAR));
    l.k.binary(cop, Exec::nomask(ExecSize::S1), Operand::dst(total), last_scan, last_x);
    // Some lane wants it.
    let any = l.tmp_pred();
    let m = l.lane_bits(guard);
    l.k.cmp(
        exec_nm(l.lanes_alloc() as u32),
        Relop::Ne,
        Operand::pred(any),
        Operand::scalar(m),
        Operand::imm(Imm::ud(0)),
    );
    let addr_v = l.address_ex(addr, true)?;
    let msg_op = match op {
        AtomicOp::Sub | AtomicOp::Dec => AtomicOp::Sub,
        AtomicOp::Inc => AtomicOp::Add,
        o => o,
    };
    let used = res.filter(|r| l.used(*r));
    let old = used.map(|_| l.tmp(ty, false));
    let dt = super::mem::data_type(msg_op, AtomicWidth::W32);
    let dst = old.map_or(Operand::null(), |o| Operand::raw(l.view(o, dt)));
    let total_ud = l.view(total, dt);
    l.k.svm_atomic(
        Exec::nomask(ExecSize::S1),
        msg_op,
        AtomicWidth::W32,
        Operand::raw(addr_v),
        dst,
        Operand::raw(total_ud),
        Operand::null(),
    )
    .predicated(Predicate::on(any));
    if let (Some(r), Some(old)) = (used, old) {
        let var = l.def_var(r, false)?;
        let d = l.dst(var, ty);
        let o = Operand::scalar(old);
        let scan = Operand::src(a);
        let ex = Exec::new(l.simd);
        match msg_op {
            AtomicOp::Sub => {
                l.k.add(ex, d, o, scan.with_mod(atomc_visa::SrcMod::Neg)).pred = guard;
            }
            _ => {
                l.k.binary(cop, ex, d, o, scan).pred = guard;
            }
        }
    }
    Ok(())
}
