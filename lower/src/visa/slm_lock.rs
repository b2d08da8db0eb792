//! 64-bit shared-memory atomics on TGLLP, under a spinlock on a reserved SLM dword.
//!
//! TGLLP's SLM atomic, `dword_atomic`, has no `.64` form (GenX_IR 1.0.12504's parser: "only
//! supports 16") and TGLLP has no LSC, so no message updates 64 bits of SLM at once. IGC emulates
//! 64-bit local atomics on such parts with a spinlock on one SLM dword the compiler reserves (IGC
//! BiFModule `atomics.cl`, `LOCAL_SPINLOCK_START`/`LOCAL_SPINLOCK_END`: acquire is a 32-bit
//! `cmpxchg` of the lock from 0 to 1 that must return 0, release an atomic store of 0). atomc
//! does the same for `atomic_cas`, `atomic_load` and `atomic_store` of 64 bits; the
//! read-modify-writes are the legalizer's CAS loops around this CAS (capability table), the
//! design DG2 and PVC have around their `lsc_atomic_icas.slm` ([`super::slm64`]).
//!
//! # The lock word (ABI, [`super::abi`])
//!
//! A kernel that needs it gets one more `.input`, `SLM_LOCK`: the SLM byte offset of a dword
//! the launch reserves past everything the kernel addresses (the launch already sizes the SLM,
//! the `.visaasm` declares none; it allocates 4 more bytes, dword aligned, and passes their
//! offset). Shared pointers are plain offsets the IR can compute, compare and receive as
//! parameters, so a word inside the user's range, or a shift of the user's offsets, could
//! collide with or be observed by the kernel; a word past it cannot.
//!
//! # Initialization
//!
//! SLM is undefined at launch. The kernel starts with every hardware thread storing 0 to the
//! lock (the same value, so the racing stores agree), then `fence_local.E` and `barrier`: no
//! thread takes the lock before every thread's store is committed. The barrier comes before
//! the kernel's first block, where every thread of the group is still running (no exit, no
//! divergent branch has happened yet), so it is legal whatever the kernel does afterwards.
//!
//! # SIMT
//!
//! All lanes of a hardware thread contend for the one lock. Each round, every lane still
//! waiting tries `dword_atomic.cmpxchg` 0 → 1; the message serves the lanes one by one, so at
//! most one lane gets 0. That lane (predicate `P`) reads, compares and writes the two dwords
//! (`gather_scaled`/`scatter_scaled` under `(P)`), and releases within the same round:
//! `fence_local.E` (its data writes are committed before the lock is seen free), then
//! `(P) dword_atomic.xchg` 0. `(!P) goto` closes the round: the lanes that got the lock are
//! parked after the loop, the others retry. The holder never waits for a lane of its own
//! thread, so there is no intra-thread deadlock; a holder in another thread releases within
//! its round. The reads come after the acquire without a fence: they are predicated on its
//! returned value. The IR's order adds `fence_local.E` before and after, as for every SLM
//! atomic.

use atomc_ir::{AddrSpace, Address, Function, Inst, InstData, MemOrder, Value};

use super::mem::{order_after, order_before};
use super::slm::{atomic, fence, gather_into, scatter_from, LOCAL_FENCE};
use super::{Lower, LowerError};
use atomc_visa::{AtomicOp, AtomicWidth, Imm, Op, Operand, PredId, Predicate, Relop, Type, VarId};

/// Whether `inst` is a 64-bit atomic on shared memory (one that takes the lock on TGLLP).
pub(crate) fn is_locked_atomic(f: &Function, inst: Inst) -> bool {
    let (ty, addr) = match &f.insts[inst] {
        InstData::AtomicRmw { ty, addr, .. }
        | InstData::AtomicCas { ty, addr, .. }
        | InstData::AtomicLoad { ty, addr, .. }
        | InstData::AtomicStore { ty, addr, .. } => (*ty, addr),
        _ => return false,
    };
    ty.bits() == 64 && f.value_type(addr.ptr).addr_space() == Some(AddrSpace::Shared)
}

/// Whether the kernel needs the lock word: a TGLLP kernel with a 64-bit SLM atomic.
pub(crate) fn needed(l: &Lower<'_>) -> bool {
    !l.p.is_xehp_plus() && l.f.inst_order().any(|(_, i)| is_locked_atomic(l.f, i))
}

/// The prologue: every thread stores 0 to the lock word, commits it, and waits at a barrier
/// for the others (module docs). `lock` is the `SLM_LOCK` input.
pub(crate) fn prologue(l: &mut Lower<'_>, lock: VarId) {
    let one = atomc_visa::Exec::nomask(atomc_visa::ExecSize::S1);
    let (offs, zero) = (l.tmp(Type::UD, false), l.tmp(Type::UD, false));
    l.k.mov(one, Operand::dst(offs), Operand::src_at(lock, 0, 0, atomc_visa::Region::SCALAR));
    l.k.mov(one, Operand::dst(zero), Operand::imm(Imm::ud(0)));
    l.k.dword_atomic(
        one,
        AtomicOp::Xchg,
        AtomicWidth::W32,
        Operand::raw(offs),
        Operand::null(),
        Operand::raw(zero),
        Operand::null(),
    );
    l.k.fence(LOCAL_FENCE);
    l.k.barrier();
}

/// What the holder of the lock does with the 64-bit word.
pub(crate) enum Body {
    Load,
    Store(Value),
    Cas { expected: Value, replacement: Value },
}

/// A 64-bit `atomic_cas`, `atomic_load` or `atomic_store` on TGLLP SLM: the lock loop around
/// `body` (module docs).
pub(crate) fn locked(
    l: &mut Lower<'_>,
    inst: Inst,
    res: Option<Value>,
    order: MemOrder,
    addr: Address,
    body: Body,
) -> Result<(), LowerError> {
    let Some(lock) = l.slm_lock else {
        return Err(l.reject(inst, "no lock word was reserved for a 64-bit SLM atomic"));
    };
    // `cfg::find_if_conversions` keeps these blocks out of if-conversion: the loop needs a goto.
    if l.guard.is_some() {
        return Err(l.reject(inst, "a 64-bit SLM atomic in an if-converted block"));
    }
    fence(l, order_before(order));
    let ex = l.exec(false);
    let offs = l.slm_offsets(addr)?;
    let lock_offs = l.tmp(Type::UD, false);
    l.k.mov(ex, Operand::dst(lock_offs), Operand::src_at(lock, 0, 0, atomc_visa::Region::SCALAR));
    let (one, zero) = (l.tmp(Type::UD, false), l.tmp(Type::UD, false));
    l.k.mov(ex, Operand::dst(one), Operand::imm(Imm::ud(1)));
    l.k.mov(ex, Operand::dst(zero), Operand::imm(Imm::ud(0)));
    // The new value's halves, moved to message payloads before the loop.
    let data = match body {
        Body::Load => None,
        Body::Store(v) | Body::Cas { replacement: v, .. } => Some(halves_of(l, v)?),
    };
    // The acquire's result goes to `lo` (the holder overwrites it with the data).
    let (lo, hi) = (l.tmp(Type::UD, false), l.tmp(Type::UD, false));
    let got = lo;
    let name = l.tmp_name("slm_lock");
    let again = l.k.label(name);
    l.k.place(again);
    // Acquire: the lanes whose cmpxchg found 0 hold the lock.
    atomic(
        l,
        AtomicOp::CmpXchg,
        AtomicWidth::W32,
        [Operand::raw(lock_offs), Operand::raw(got), Operand::raw(one), Operand::raw(zero)],
    );
    let held = l.tmp_pred();
    l.k.cmp(ex, Relop::Eq, Operand::Pred(held), Operand::src(got), Operand::imm(Imm::ud(0)));
    l.guard = Some(Predicate::on(held));
    if !matches!(body, Body::Store(_)) {
        gather_into(l, 4, 0, offs, lo);
        gather_into(l, 4, 4, offs, hi);
    }
    let write = match body {
        Body::Load => None,
        Body::Store(_) => Some(held),
        Body::Cas { expected, .. } => Some(equal_and_held(l, lo, hi, expected, held)?),
    };
    if let (Some(w), Some((dl, dh))) = (write, data) {
        l.guard = Some(Predicate::on(w));
        scatter_from(l, 4, 0, offs, dl);
        scatter_from(l, 4, 4, offs, dh);
    }
    // Release: the data writes are committed before the lock reads 0 again.
    l.guard = None;
    l.k.fence(LOCAL_FENCE);
    l.guard = Some(Predicate::on(held));
    atomic(
        l,
        AtomicOp::Xchg,
        AtomicWidth::W32,
        [Operand::raw(lock_offs), Operand::null(), Operand::raw(zero), Operand::null()],
    );
    l.guard = None;
    l.k.goto(ex, again).predicated(Predicate::not(held));
    if let Some(r) = res.filter(|r| l.used(*r)) {
        let var = l.def_var(r, false)?;
        let (dl, dh) = (l.half_dst(var, false, false, Type::UD), l.half_dst(var, false, true, Type::UD));
        l.k.mov(ex, dl, Operand::src(lo));
        l.k.mov(ex, dh, Operand::src(hi));
    }
    fence(l, order_after(order));
    Ok(())
}

/// `v`'s low and high dwords as `ud` message payloads.
pub(super) fn halves_of(l: &mut Lower<'_>, v: Value) -> Result<(VarId, VarId), LowerError> {
    let ex = l.exec(false);
    let (lo, hi) = (l.tmp(Type::UD, false), l.tmp(Type::UD, false));
    let (sl, sh) = (l.half(v, false, Type::UD)?, l.half(v, true, Type::UD)?);
    l.k.mov(ex, Operand::dst(lo), sl);
    l.k.mov(ex, Operand::dst(hi), sh);
    Ok((lo, hi))
}

/// The lanes that hold the lock and found `expected` (both halves equal: a bitwise compare, as
/// `cmpxchg` on `uq` data).
pub(super) fn equal_and_held(
    l: &mut Lower<'_>,
    lo: VarId,
    hi: VarId,
    expected: Value,
    held: PredId,
) -> Result<PredId, LowerError> {
    let ex = l.exec(false);
    let (p, q) = (l.tmp_pred(), l.tmp_pred());
    let el = l.half(expected, false, Type::UD)?;
    let eh = l.half(expected, true, Type::UD)?;
    l.k.cmp(ex, Relop::Eq, Operand::Pred(p), Operand::src(lo), el);
    l.k.cmp(ex, Relop::Eq, Operand::Pred(q), Operand::src(hi), eh);
    l.k.binary(Op::And, ex, Operand::Pred(p), Operand::Pred(p), Operand::Pred(q));
    l.k.binary(Op::And, ex, Operand::Pred(p), Operand::Pred(p), Operand::Pred(held));
    Ok(p)
}
