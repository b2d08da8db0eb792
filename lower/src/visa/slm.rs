//! Shared memory as Intel shared local memory (SLM, surface T0 `%slm`): a
//! shared pointer is a 32-bit byte offset into the thread group's SLM (`ud`).
//!
//! * atomics: `dword_atomic.<op>[.16]` (the ops and type classes of
//!   `svm_atomic`, IGC DWORD_ATOMIC.md), src0 = new value and src1 = expected
//!   for `cmpxchg`; an atomic load is `or` with 0 and an atomic store `xchg`
//!   with the result dropped, as on global memory; byte atomics load and store;
//! * loads and stores: `gather_scaled`/`scatter_scaled` of 1, 2 or 4 bytes per
//!   lane, the IR offset in the message's scalar global offset; 64-bit values as
//!   two dword messages;
//! * messages are issued at the kernel's width up to SIMD16 (GenX_IR 1.0.12504
//!   encodes `dword_atomic (M1, 16)` as one `send.dc1 (16|M0)` on TGLLP, DG2 and
//!   PVC), SIMD32 as `(M1, 16)` + `(M5, 16)` with the payloads 64 bytes on;
//! * `barrier` is `fence_local.E` (commit the SLM writes) then `barrier`: the IR
//!   barrier orders shared memory like `fence acq_rel cta`.
//!
//! 64-bit SLM atomics: [`super::slm64`] (DG2, PVC: `lsc_atomic_icas.slm`) and
//! [`super::slm_lock`] (TGLLP: a spinlock on a reserved SLM dword).

use atomc_ir::{AddrSpace, Address, Function, Inst, InstData, MemOrder, Type as IrType, Value};

use super::mem::{after, order_after, order_before, result, rmw_op, width};
use super::slm_lock::{self, Body};
use super::{Lower, LowerError};
use atomc_visa::{
    slm_data_type as data_type, AtomicOp, AtomicWidth, Exec, ExecSize, Fence, Imm, Op, Operand, Type, VarId,
};

/// Whether a memory instruction addresses shared memory.
pub(crate) fn is_slm(f: &Function, inst: Inst) -> bool {
    let addr = match &f.insts[inst] {
        InstData::AtomicRmw { addr, .. }
        | InstData::AtomicCas { addr, .. }
        | InstData::AtomicLoad { addr, .. }
        | InstData::AtomicStore { addr, .. }
        | InstData::Load { addr, .. }
        | InstData::Store { addr, .. } => addr,
        _ => return false,
    };
    f.value_type(addr.ptr).addr_space() == Some(AddrSpace::Shared)
}

/// Whether the function has a shared pointer anywhere (then its fences
/// order SLM as well).
pub(crate) fn uses_slm(f: &Function) -> bool {
    f.values.keys().any(|v| f.value_type(v).addr_space() == Some(AddrSpace::Shared))
}

/// `fence_local.E`: the SLM fence, waiting for the commit.
pub(crate) const LOCAL_FENCE: Fence =
    Fence { local: true, commit: true, icache: false, sampler: false, constant: false, rw: false, l1: false };

/// Lowers an SLM access.
pub(crate) fn lower(l: &mut Lower<'_>, inst: Inst) -> Result<(), LowerError> {
    let f = l.f;
    let res = f.inst_result(inst);
    match f.insts[inst].clone() {
        InstData::AtomicRmw { op, ty, order, addr, arg, .. } => {
            let (aop, src) = rmw_op(l, inst, op, ty, arg)?;
            let w = slm_width(l, inst, ty)?;
            fence(l, order_before(order));
            let dt = data_type(aop, w);
            let offs = l.slm_offsets(addr)?;
            let s0 = match src {
                Some(v) => Operand::raw(l.raw_src(v, dt)?),
                None => Operand::null(),
            };
            let dst = result(l, res, dt)?;
            atomic(l, aop, w, [Operand::raw(offs), dst, s0, Operand::null()]);
            after(l, res, ty, w);
            fence(l, order_after(order));
        }
        InstData::AtomicCas { ty, order, addr, expected, replacement, .. } => {
            if ty.bits() == 64 && !l.p.is_xehp_plus() {
                return slm_lock::locked(l, inst, res, order, addr, Body::Cas { expected, replacement });
            }
            if ty.bits() == 64 {
                return super::slm64::cas(l, inst, res, order, addr, expected, replacement);
            }
            let w = slm_width(l, inst, ty)?;
            if w != AtomicWidth::W32 {
                return Err(l.reject(inst, "16-bit dword_atomic.cmpxchg is refused by GenX_IR (a loop on the word)"));
            }
            fence(l, order_before(order));
            let dt = data_type(AtomicOp::CmpXchg, w);
            let offs = l.slm_offsets(addr)?;
            let new = l.raw_src(replacement, dt)?;
            let exp = l.raw_src(expected, dt)?;
            let dst = result(l, res, dt)?;
            atomic(l, AtomicOp::CmpXchg, w, [Operand::raw(offs), dst, Operand::raw(new), Operand::raw(exp)]);
            fence(l, order_after(order));
        }
        InstData::AtomicLoad { ty, order, addr, .. } if ty.bits() == 64 && !l.p.is_xehp_plus() => {
            slm_lock::locked(l, inst, res, order, addr, Body::Load)?;
        }
        InstData::AtomicLoad { ty, order, addr, .. } if ty.bits() == 64 => {
            super::slm64::load(l, inst, res, order, addr)?;
        }
        InstData::AtomicLoad { ty, order, addr, .. } => {
            fence(l, order_before(order));
            if ty.bits() == 8 {
                gather(l, inst, res, ty, addr)?;
            } else {
                let w = slm_width(l, inst, ty)?;
                let dt = data_type(AtomicOp::Or, w);
                let offs = l.slm_offsets(addr)?;
                let zero = l.zeroed_tmp(dt);
                let dst = result(l, res, dt)?;
                atomic(l, AtomicOp::Or, w, [Operand::raw(offs), dst, Operand::raw(zero), Operand::null()]);
                after(l, res, ty, w);
            }
            fence(l, order_after(order));
        }
        InstData::AtomicStore { ty, order, addr, value, .. } if ty.bits() == 64 && !l.p.is_xehp_plus() => {
            slm_lock::locked(l, inst, None, order, addr, Body::Store(value))?;
        }
        InstData::AtomicStore { ty, order, addr, value, .. } if ty.bits() == 64 => {
            super::slm64::store(l, inst, order, addr, value)?;
        }
        InstData::AtomicStore { ty, order, addr, value, .. } => {
            fence(l, order_before(order));
            if ty.bits() == 8 {
                scatter(l, inst, ty, addr, value)?;
            } else {
                let w = slm_width(l, inst, ty)?;
                let dt = data_type(AtomicOp::Xchg, w);
                let offs = l.slm_offsets(addr)?;
                let s = l.raw_src(value, dt)?;
                atomic(l, AtomicOp::Xchg, w, [Operand::raw(offs), Operand::null(), Operand::raw(s), Operand::null()]);
            }
            fence(l, order_after(order));
        }
        InstData::Load { ty, addr } => gather(l, inst, res, ty, addr)?,
        InstData::Store { value, addr } => {
            let ty = f.value_type(value);
            scatter(l, inst, ty, addr, value)?;
        }
        _ => return Err(l.reject(inst, "not a shared-memory access")),
    }
    Ok(())
}

/// `barrier`: `fence_local.E`, then the barrier itself.
pub(crate) fn barrier(l: &mut Lower<'_>) {
    l.k.fence(LOCAL_FENCE);
    l.k.barrier();
}

pub(super) fn fence(l: &mut Lower<'_>, order: MemOrder) {
    if order != MemOrder::Relaxed {
        l.k.fence(LOCAL_FENCE);
    }
}

/// The `dword_atomic` width: 16 or 32 bits.
fn slm_width(l: &Lower<'_>, inst: Inst, ty: IrType) -> Result<AtomicWidth, LowerError> {
    match width(ty) {
        Some(w @ (AtomicWidth::W16 | AtomicWidth::W32)) => Ok(w),
        _ => Err(l.reject(inst, "dword_atomic has 16- and 32-bit forms only")),
    }
}

impl Lower<'_> {
    /// The per-lane SLM byte offsets `ptr + offset` as a raw `ud` variable.
    pub(super) fn slm_offsets(&mut self, a: Address) -> Result<VarId, LowerError> {
        if a.offset == 0 {
            return self.raw_src(a.ptr, Type::UD);
        }
        let off = Operand::imm(Imm::ud(a.offset as i64 as u32));
        if !self.is_uniform(a.ptr) {
            let p = self.src(a.ptr, Type::UD)?;
            let t = self.tmp(Type::UD, false);
            let ex = self.exec(false);
            self.k.add(ex, Operand::dst(t), p, off);
            return Ok(t);
        }
        let key = (a.ptr, a.offset, Type::UD, false);
        if let Some(&t) = self.bcast.get(&key) {
            return Ok(t);
        }
        let t = self.tmp(Type::UD, false);
        let ex = self.bcast_exec(false);
        self.at_def(a.ptr, |l| -> Result<(), LowerError> {
            let p = l.src(a.ptr, Type::UD)?;
            l.k.add(ex, Operand::dst(t), p, off);
            Ok(())
        })?;
        self.bcast.insert(key, t);
        Ok(t)
    }

    /// The pieces an SLM message of the kernel's width is issued as, with
    /// the byte shift of their (dword per lane) payloads.
    fn slm_parts(&self) -> Vec<(Exec, u16)> {
        let lanes = self.simd.lanes();
        if lanes <= 16 {
            return vec![(Exec::new(self.simd), 0)];
        }
        (0..lanes / 16).map(|i| (Exec::at(ExecSize::S16, 4 * i as u8), 64 * i as u16)).collect()
    }
}

fn shift(o: Operand, by: u16) -> Operand {
    match o {
        Operand::Raw { var: Some(v), offset } => Operand::raw_at(v, offset + by),
        o => o,
    }
}

/// Issues a `dword_atomic` (`ops`: offsets, dst, src0, src1) under the
/// current guard.
pub(super) fn atomic(l: &mut Lower<'_>, op: AtomicOp, w: AtomicWidth, ops: [Operand; 4]) {
    let g = l.guard;
    for (ex, d) in l.slm_parts() {
        let [a, dst, s0, s1] = ops.map(|o| shift(o, d));
        l.k.dword_atomic(ex, op, w, a, dst, s0, s1).pred = g;
    }
}

/// `gather_scaled` of `bytes` per lane from `base + offs` into `data`.
pub(super) fn gather_into(l: &mut Lower<'_>, bytes: u8, base: u32, offs: VarId, data: VarId) {
    let g = l.guard;
    for (ex, d) in l.slm_parts() {
        let b = Operand::imm(Imm::ud(base));
        l.k.gather_scaled(ex, bytes, b, Operand::raw_at(offs, d), Operand::raw_at(data, d)).pred = g;
    }
}

/// `scatter_scaled` of `bytes` per lane from `data` to `base + offs`.
pub(super) fn scatter_from(l: &mut Lower<'_>, bytes: u8, base: u32, offs: VarId, data: VarId) {
    let g = l.guard;
    for (ex, d) in l.slm_parts() {
        let b = Operand::imm(Imm::ud(base));
        l.k.scatter_scaled(ex, bytes, b, Operand::raw_at(offs, d), Operand::raw_at(data, d)).pred = g;
    }
}

fn gather(l: &mut Lower<'_>, inst: Inst, res: Option<Value>, ty: IrType, addr: Address) -> Result<(), LowerError> {
    let Some(r) = res else { return Ok(()) };
    let base = addr.offset as i64 as u32;
    let offs = l.raw_src(addr.ptr, Type::UD)?;
    let ex = l.exec(false);
    match ty.bits() {
        8 | 16 | 32 => {
            let var = l.def_var(r, false)?;
            let data = l.view(var, Type::UD);
            let bytes = (ty.bits() / 8) as u8;
            gather_into(l, bytes, base, offs, data);
            // The bytes above a 1- or 2-byte read are undefined (GATHER_SCALED.md).
            if bytes < 4 {
                let mask = if bytes == 1 { 0xff } else { 0xffff };
                l.k.binary(Op::And, ex, Operand::dst(data), Operand::src(data), Operand::imm(Imm::ud(mask)));
            }
        }
        64 => {
            let (lo, hi) = (l.tmp(Type::UD, false), l.tmp(Type::UD, false));
            gather_into(l, 4, base, offs, lo);
            gather_into(l, 4, base.wrapping_add(4), offs, hi);
            let var = l.def_var(r, false)?;
            let (dl, dh) = (l.half_dst(var, false, false, Type::UD), l.half_dst(var, false, true, Type::UD));
            l.k.mov(ex, dl, Operand::src(lo));
            l.k.mov(ex, dh, Operand::src(hi));
        }
        _ => return Err(l.reject(inst, "no gather_scaled holds this type")),
    }
    Ok(())
}

fn scatter(l: &mut Lower<'_>, inst: Inst, ty: IrType, addr: Address, value: Value) -> Result<(), LowerError> {
    let base = addr.offset as i64 as u32;
    let offs = l.raw_src(addr.ptr, Type::UD)?;
    match ty.bits() {
        8 | 16 | 32 => {
            let s = l.raw_src(value, Type::UD)?;
            scatter_from(l, (ty.bits() / 8) as u8, base, offs, s);
        }
        64 => {
            let ex = l.exec(false);
            let (lo, hi) = (l.tmp(Type::UD, false), l.tmp(Type::UD, false));
            let (sl, sh) = (l.half(value, false, Type::UD)?, l.half(value, true, Type::UD)?);
            l.k.mov(ex, Operand::dst(lo), sl);
            l.k.mov(ex, Operand::dst(hi), sh);
            scatter_from(l, 4, base, offs, lo);
            scatter_from(l, 4, base.wrapping_add(4), offs, hi);
        }
        _ => return Err(l.reject(inst, "no scatter_scaled holds this type")),
    }
    Ok(())
}
