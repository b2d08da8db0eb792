//! 64-bit shared-memory atomics on DG2 and PVC: `lsc_atomic_icas.slm` on
//! `d64` data, the one d64 SLM atomic GenX_IR 1.0.12504 takes ("LSC SLM D64
//! atomics only support icas"). An `atomic_cas` is one `icas` (src1 = the
//! expected value, src2 = the new one); an `atomic_load` is `icas` of 0 with 0,
//! which returns the value and stores 0 only over 0; an `atomic_store` is an
//! `icas` retry loop here ([`store`]); the read-modify-writes are CAS loops
//! around these (capability table). TGLLP has no LSC and
//! no 64-bit SLM atomic (`dword_atomic` has no `.64`): it takes a spinlock
//! instead ([`super::slm_lock`]).
//!
//! Messages go out at the kernel's width up to SIMD16, SIMD32 as `(M1, 16)` +
//! `(M5, 16)` with the address payload 64 bytes and the data 128 bytes on.

use atomc_ir::{Address, Inst, MemOrder, Value};

use super::mem::result;
use super::slm::fence;
use super::{Lower, LowerError};
use atomc_visa::{AtomicOp, AtomicWidth, Exec, ExecSize, Op, Operand, Predicate, Relop, Type, VarId};

/// `atomic_cas` of 64 bits on SLM.
#[allow(clippy::too_many_arguments)]
pub(crate) fn cas(
    l: &mut Lower<'_>,
    inst: Inst,
    res: Option<Value>,
    order: MemOrder,
    addr: Address,
    expected: Value,
    replacement: Value,
) -> Result<(), LowerError> {
    fenced_icas(l, inst, res, order, addr, |l| Ok((l.raw_src(expected, Type::UQ)?, l.raw_src(replacement, Type::UQ)?)))
}

/// `atomic_load` of 64 bits on SLM: `icas` of 0 with 0.
pub(crate) fn load(
    l: &mut Lower<'_>,
    inst: Inst,
    res: Option<Value>,
    order: MemOrder,
    addr: Address,
) -> Result<(), LowerError> {
    fenced_icas(l, inst, res, order, addr, |l| {
        let zero = l.zeroed_tmp(Type::UQ);
        Ok((zero, zero))
    })
}

/// A `cas` or `load`: one `icas` of the (compare, swap) pair that `operands` makes, between the
/// fences of `order`.
fn fenced_icas(
    l: &mut Lower<'_>,
    inst: Inst,
    res: Option<Value>,
    order: MemOrder,
    addr: Address,
    operands: impl FnOnce(&mut Lower<'_>) -> Result<(VarId, VarId), LowerError>,
) -> Result<(), LowerError> {
    check(l, inst)?;
    fence(l, super::mem::order_before(order));
    let offs = l.slm_offsets(addr)?;
    let (compare, swap) = operands(l)?;
    let dst = result(l, res, Type::UQ)?;
    icas(l, [dst, Operand::raw(offs), Operand::raw(compare), Operand::raw(swap)]);
    fence(l, super::mem::order_after(order));
    Ok(())
}

/// `atomic_store` of 64 bits on SLM: an `icas` retry loop (GenX_IR takes no
/// d64 SLM store or exchange atomic). The current value is read with `icas`
/// of 0 with 0; each round tries to swap it for the new value, and the lanes
/// whose `icas` found something else retry with what it found, closed by a
/// predicated backward SIMD `goto` (the CAS-loop shape of the reference, §0).
/// Refused under an if-conversion guard: the loop's predicate would also
/// have to leave out the guarded-off lanes.
pub(crate) fn store(l: &mut Lower<'_>, inst: Inst, order: MemOrder, addr: Address, value: Value) -> Result<(), LowerError> {
    check(l, inst)?;
    if l.guard.is_some() {
        return Err(l.reject(inst, "a 64-bit SLM store in an if-converted block (its icas loop would need the guard)"));
    }
    fence(l, super::mem::order_before(order));
    let offs = l.slm_offsets(addr)?;
    let new = l.raw_src(value, Type::UQ)?;
    let zero = l.zeroed_tmp(Type::UQ);
    let (cur, got) = (l.tmp(Type::UQ, false), l.tmp(Type::UQ, false));
    let ex = l.exec(false);
    icas(l, [Operand::raw(cur), Operand::raw(offs), Operand::raw(zero), Operand::raw(zero)]);
    let name = l.tmp_name("slm_store");
    let again = l.k.label(name);
    l.k.place(again);
    icas(l, [Operand::raw(got), Operand::raw(offs), Operand::raw(cur), Operand::raw(new)]);
    let (p, q) = (l.tmp_pred(), l.tmp_pred());
    for (pred, hi) in [(p, false), (q, true)] {
        let (a, b) = (l.half_of(got, false, hi, Type::UD), l.half_of(cur, false, hi, Type::UD));
        l.k.cmp(ex, Relop::Ne, Operand::Pred(pred), a, b);
    }
    l.k.binary(Op::Or, ex, Operand::Pred(p), Operand::Pred(p), Operand::Pred(q));
    l.k.mov(ex, Operand::dst(cur), Operand::src(got)).predicated(Predicate::on(p));
    l.k.goto(ex, again).predicated(Predicate::on(p));
    fence(l, super::mem::order_after(order));
    Ok(())
}

fn check(l: &Lower<'_>, inst: Inst) -> Result<(), LowerError> {
    if !l.p.is_xehp_plus() {
        return Err(
            l.reject(inst, "no 64-bit atomic on shared local memory: dword_atomic has no .64 and TGLLP has no LSC")
        );
    }
    if l.simd.lanes() < 8 {
        return Err(l.reject(inst, "LSC SLM atomics are emitted for SIMD8 and wider kernels only"));
    }
    Ok(())
}

/// Issues `lsc_atomic_icas.slm` (`ops`: dst, addresses, src1, src2) under the
/// current guard, in SIMD16 pieces.
fn icas(l: &mut Lower<'_>, ops: [Operand; 4]) {
    let g = l.guard;
    let lanes = l.simd.lanes();
    let parts: Vec<(Exec, u16)> = if lanes <= 16 {
        vec![(Exec::new(l.simd), 0)]
    } else {
        (0..lanes / 16).map(|i| (Exec::at(ExecSize::S16, 4 * i as u8), i as u16)).collect()
    };
    let shift = |o: Operand, by: u16| match o {
        Operand::Raw { var: Some(v), offset } => Operand::raw_at(v, offset + by),
        o => o,
    };
    for (ex, i) in parts {
        let [dst, a, s1, s2] = ops;
        let (dst, a, s1, s2) = (shift(dst, 128 * i), shift(a, 64 * i), shift(s1, 128 * i), shift(s2, 128 * i));
        l.k.lsc_slm_atomic(ex, AtomicOp::CmpXchg, AtomicWidth::W64, dst, a, s1, s2).pred = g;
    }
}
