//! 64-bit surface atomics (TGLLP, DG2, PVC), under a spinlock on a global dword.
//!
//! `typed_atomic` has 32- and 16-bit data only (TYPED_ATOMIC.md: no `.64`), and no other typed
//! message updates 64 bits at once. IGC emulates the atomics it has no message for under a
//! spinlock on one global dword (BiFModule `atomics.cl`, `GLOBAL_SPINLOCK_START`/`END` on
//! `__builtin_IB_get_global_lock()`: acquire is a 32-bit `cmpxchg` of the lock from 0 to 1 that
//! must return 0, release an atomic store of 0 ordered for cross-work-group memory). atomc does
//! the same for `surface_cas` of 64 bits; the other 64-bit surface read-modify-writes are the
//! legalizer's CAS loops around it (capability table), as the 64-bit SLM atomics of TGLLP around
//! their locked CAS ([`super::slm_lock`]). A CAS loop costs a failed try more when its guess of
//! the old value is wrong, but it reuses code that is already tested for every op (the f64 and
//! min/max bodies included), while doing each op under the lock would need a second 64-bit
//! implementation of every op here.
//!
//! # The element
//!
//! A 64-bit surface element is one texel of a two-channel 32-bit format (R32G32_UINT): R is the
//! low dword, G the high one, little-endian like the IR's element. The holder of the lock reads
//! the texel with `gather4_typed.RG` and writes it with `scatter4_typed.RG` (each channel's eight
//! lanes in a GRF of their own, per SIMD8 piece; a SIMD16 or SIMD32 kernel sends a message per
//! piece, like `typed_atomic`). On PVC the write goes out as `.R` and `.G`, one channel each:
//! GenX_IR 1.0.12504 sends a single 64-byte GRF of data for a two-channel SIMD8 typed write there
//! (the `TypedMessage` rule of the validator, with the measurement). Coordinates are
//! [`super::surface`]'s: texels, byte addressing dividing x by 8; out of range the read returns
//! 0 in R and G and the write is dropped (GATHER4_TYPED.md, SCATTER4_TYPED.md), so the CAS
//! returns 0 and stores nothing, which is the IR's `ign`; `near` clamps first (`resinfo`); `trap`
//! stays refused by the capability table.
//!
//! # The lock word (ABI, [`super::abi`])
//!
//! A kernel with a 64-bit surface atomic gets one more `.input`, `SURFACE_LOCK`: the 64-bit
//! global address of a dword, 4-byte aligned, that the launch sets to 0 before the kernel
//! starts. One word serializes every 64-bit surface atomic of the launch, whatever the surface
//! and texel (IGC's global lock is one word too); kernels that may run at the same time on the
//! same surfaces must be given the same word. No prologue is needed, unlike the SLM lock: SLM is
//! undefined at launch and private to the thread group, so each group must clear its own word
//! and wait at a barrier until every thread's store has landed, but this word is global memory
//! the launch has zeroed before the first thread runs, and the launch's writes are visible to
//! the kernel it starts. Every acquire is released within its round, so the word is 0 again when
//! the kernel ends.
//!
//! # SIMT
//!
//! As in [`super::slm_lock`]: each round, every lane still waiting tries `svm_atomic.cmpxchg`
//! 0 → 1 on the lock (SIMD8 pieces); the message serves its lanes one at a time, so at most one
//! lane of the thread gets 0 (`P`). `fence_global.EL1`, then that lane reads the texel under
//! `(P)`, compares, writes under `(P)` and the compare, `fence_global.EL1` (its write is
//! committed before the lock reads 0 again), and releases with `(P) svm_atomic.xchg` 0;
//! `(!P) goto` closes the round. The holder never waits for a lane of its own thread, and a
//! holder in another thread releases within its round. The fence after the acquire keeps the
//! read from seeing a stale texel in this thread's L1: the lock is taken across work-groups,
//! which may run on other L1s (GenX_IR 1.0.12504 makes each fence `send.dc0` "synchronized global
//! fence flushing L1" on TGLLP, and `fence.ugm.evict.gpu` plus `fence.tgm.evict.gpu` on DG2 — the
//! typed memory too; `.none.gpu` on PVC; measured). The IR's order adds `fence_global` before and
//! after the whole, as for every surface atomic. Blocks holding one are never if-converted.

use atomc_ir::{Function, Inst, InstData, Value};

use super::mem::{order_after, order_before, parts};
use super::slm_lock::{equal_and_held, halves_of};
use super::bindless::on_surface;
use super::surface::{prepare, texel_coordinates};
use super::{Lower, LowerError};
use atomc_visa::{
    AtomicOp, AtomicWidth, Channels, Exec, Fence, Imm, Operand, Predicate, Region, Relop, Surf, Type, VarId,
};

/// Whether `inst` is a 64-bit surface atomic (one that takes the lock).
pub(crate) fn is_locked(f: &Function, inst: Inst) -> bool {
    matches!(&f.insts[inst], InstData::SurfaceRmw { ty, .. } | InstData::SurfaceCas { ty, .. } if ty.bits() == 64)
}

/// Whether the kernel needs the lock word.
pub(crate) fn needed(l: &Lower<'_>) -> bool {
    l.f.inst_order().any(|(_, i)| is_locked(l.f, i))
}

/// The fence around the critical section: the lock is shared by the whole launch, so the fence
/// waits for the commit and flushes L1, as a device-scope `fence_global` (`Lower::fence_for`).
const LOCK_FENCE: Fence =
    Fence { local: false, commit: true, icache: false, sampler: false, constant: false, rw: false, l1: true };

/// Lowers a 64-bit `surface_cas` (module docs).
pub(crate) fn lower(l: &mut Lower<'_>, inst: Inst) -> Result<(), LowerError> {
    let res = l.f.inst_result(inst);
    let InstData::SurfaceCas { ty, order, scope, access, coords, expected, replacement } = l.f.insts[inst].clone()
    else {
        return Err(l.reject(
            inst,
            "a 64-bit surface read-modify-write is a CAS loop around the locked 64-bit surface_cas (capability table)",
        ));
    };
    let Some(lock) = l.surface_lock else {
        return Err(l.reject(inst, "no lock word input was declared for a 64-bit surface atomic"));
    };
    // `cfg::find_if_conversions` keeps these blocks out of if-conversion: the loop needs a goto.
    if l.guard.is_some() {
        return Err(l.reject(inst, "a 64-bit surface atomic in an if-converted block"));
    }
    let target = prepare(l, inst, ty, &access)?;
    l.fence_for(order_before(order), scope);
    let ex = l.exec(false);
    let addr = l.tmp(Type::UQ, false);
    l.k.mov(ex, Operand::dst(addr), Operand::src_at(lock, 0, 0, Region::SCALAR));
    let (one, zero, got) = (l.tmp(Type::UD, false), l.tmp(Type::UD, false), l.tmp(Type::UD, false));
    l.k.mov(ex, Operand::dst(one), Operand::imm(Imm::ud(1)));
    l.k.mov(ex, Operand::dst(zero), Operand::imm(Imm::ud(0)));
    // The new texel, in message layout before the loop; the old one is read into `cur` and
    // unpacked to `lo`/`hi` by the holder.
    let (new_lo, new_hi) = halves_of(l, replacement)?;
    let new = texels(l);
    pack(l, new, new_lo, new_hi)?;
    let cur = texels(l);
    let (lo, hi) = (l.tmp(Type::UD, false), l.tmp(Type::UD, false));
    // A bindless handle: the lock loop runs after the handle's `movs` (inside the loop over
    // distinct handles when they vary), as surface_loop's CAS loop does.
    on_surface(l, inst, target, |l, surf| {
        let uvr = texel_coordinates(l, surf, &access, &coords, 8)?;
        let name = l.tmp_name("surf_lock");
        let again = l.k.label(name);
        l.k.place(again);
        lock_atomic(l, AtomicOp::CmpXchg, addr, [Operand::raw(got), Operand::raw(one), Operand::raw(zero)], None)?;
        let held = l.tmp_pred();
        l.k.cmp(ex, Relop::Eq, Operand::Pred(held), Operand::src(got), Operand::imm(Imm::ud(0)));
        l.k.fence(LOCK_FENCE);
        message(l, surf, uvr, cur, false, Predicate::on(held))?;
        unpack(l, cur, lo, hi, Predicate::on(held))?;
        let write = equal_and_held(l, lo, hi, expected, held)?;
        message(l, surf, uvr, new, true, Predicate::on(write))?;
        l.k.fence(LOCK_FENCE);
        let release = [Operand::null(), Operand::raw(zero), Operand::null()];
        lock_atomic(l, AtomicOp::Xchg, addr, release, Some(Predicate::on(held)))?;
        l.k.goto(ex, again).predicated(Predicate::not(held));
        Ok(())
    })?;
    result(l, res, lo, hi)?;
    l.fence_for(order_after(order), scope);
    Ok(())
}

/// A texel payload: for SIMD8 piece `i`, the R lanes (low dwords) in GRF `2i` and the G lanes
/// (high dwords) in GRF `2i + 1`.
fn texels(l: &mut Lower<'_>) -> VarId {
    let pieces = l.simd.lanes().div_ceil(8);
    let name = l.tmp_name("texel");
    l.k.decl_simd(name, Type::UD, (2 * pieces * l.p.grf_bytes() / 4) as u16)
}

/// Where lane `8 * piece` of a `ud` SIMD variable is: (row, column).
fn lane_at(l: &Lower<'_>, piece: u16) -> (u8, u8) {
    let byte = 32 * piece as u32;
    ((byte / l.p.grf_bytes()) as u8, (byte % l.p.grf_bytes() / 4) as u8)
}

/// Copies the `lo`/`hi` lanes into the payload `pay`, piece by piece.
fn pack(l: &mut Lower<'_>, pay: VarId, lo: VarId, hi: VarId) -> Result<(), LowerError> {
    for (ex, i) in parts(l, 4)? {
        let (row, col) = lane_at(l, i);
        for (c, from) in [(0, lo), (1, hi)] {
            let src = Operand::src_at(from, row, col, Region::CONTIGUOUS);
            l.k.mov(ex, Operand::dst_at(pay, 2 * i as u8 + c, 0, 1), src);
        }
    }
    Ok(())
}

/// Copies the payload `pay` back into the `lo`/`hi` lanes under `g`.
fn unpack(l: &mut Lower<'_>, pay: VarId, lo: VarId, hi: VarId, g: Predicate) -> Result<(), LowerError> {
    for (ex, i) in parts(l, 4)? {
        let (row, col) = lane_at(l, i);
        for (c, to) in [(0, lo), (1, hi)] {
            let src = Operand::src_at(pay, 2 * i as u8 + c, 0, Region::CONTIGUOUS);
            l.k.mov(ex, Operand::dst_at(to, row, col, 1), src).predicated(g);
        }
    }
    Ok(())
}

/// The typed read (`write` false) into, or write from, the payload `pay` under `g`, a message
/// per SIMD8 piece; on PVC a write per channel (module docs).
fn message(
    l: &mut Lower<'_>,
    surf: Surf,
    uvr: [Operand; 3],
    pay: VarId,
    write: bool,
    g: Predicate,
) -> Result<(), LowerError> {
    let shift = |o: Operand, by: u16| match o {
        Operand::Raw { var: Some(v), offset } => Operand::raw_at(v, offset + by),
        o => o,
    };
    let grf = l.p.grf_bytes() as u16;
    let split = write && grf == 64;
    for (ex, i) in parts(l, 4)? {
        let [u, v, r] = uvr.map(|o| shift(o, 32 * i));
        let uvrl = [u, v, r, Operand::null()];
        let data = |c: u16| Operand::raw_at(pay, (2 * i + c) * grf);
        let sends: &[(Channels, u16)] =
            if split { &[(Channels(0b01), 0), (Channels(0b10), 1)] } else { &[(Channels(0b11), 0)] };
        for &(ch, c) in sends {
            let m = if write {
                l.k.scatter4_typed(ex, ch, surf, uvrl, data(c))
            } else {
                l.k.gather4_typed(ex, ch, surf, uvrl, data(c))
            };
            m.predicated(g);
        }
    }
    Ok(())
}

/// An `svm_atomic` of 32 bits on the lock word at `addr` (`data`: dst, src0, src1), a message
/// per SIMD8 piece, under `g`.
fn lock_atomic(
    l: &mut Lower<'_>,
    op: AtomicOp,
    addr: VarId,
    data: [Operand; 3],
    g: Option<Predicate>,
) -> Result<(), LowerError> {
    let shift = |o: Operand, by: u16| match o {
        Operand::Raw { var: Some(v), offset } => Operand::raw_at(v, offset + by),
        o => o,
    };
    for (ex, i) in parts(l, 4)? {
        let [dst, s0, s1] = data.map(|o| shift(o, 32 * i));
        l.k.svm_atomic(ex, op, AtomicWidth::W32, Operand::raw_at(addr, 64 * i), dst, s0, s1).pred = g;
    }
    Ok(())
}

/// Moves the old texel into the CAS's result, when it is used.
fn result(l: &mut Lower<'_>, res: Option<Value>, lo: VarId, hi: VarId) -> Result<(), LowerError> {
    let Some(r) = res.filter(|r| l.used(*r)) else { return Ok(()) };
    let ex: Exec = l.exec(false);
    let var = l.def_var(r, false)?;
    let (dl, dh) = (l.half_dst(var, false, false, Type::UD), l.half_dst(var, false, true, Type::UD));
    l.k.mov(ex, dl, Operand::src(lo));
    l.k.mov(ex, dh, Operand::src(hi));
    Ok(())
}
