//! Memory: `svm_atomic` for atomics, `svm_gather`/`svm_scatter` for plain
//! loads and stores, `fence_global` for fences; shared memory goes to
//! [`super::slm`].
//!
//! Operand conventions (seed 002, visa.md §3): the address is a varying
//! `uq` variable of 8 elements at least; dst/src0/src1 have the op's type
//! class (`d`/`q` for signed min/max, `f` for float ops, `ud`/`uq` for the
//! rest), viewed through aliases; `cmpxchg` takes src0 = new value, src1 =
//! expected; an unused result is `%null`.

use atomc_ir::{Address, Inst, InstData, MemOrder, RmwOp, Scope, Type as IrType, Value};

use super::values::{canonical, Loc};
use super::{Lower, LowerError};
use atomc_visa::{AtomicOp, AtomicWidth, Blocks, Exec, ExecSize, Fence, Imm, Op, Operand, Type, VarId};

impl Lower<'_> {
    /// The per-lane address `ptr + offset` as a raw `uq` operand variable.
    fn address(&mut self, a: Address) -> Result<VarId, LowerError> {
        self.address_ex(a, false)
    }

    /// [`Self::address`]; `scalar`: only lane 0 is needed (a uniform
    /// address for a `(M1_NM, 1)` message).
    pub(crate) fn address_ex(&mut self, a: Address, scalar: bool) -> Result<VarId, LowerError> {
        if a.offset == 0 {
            return self.raw_src_ex(a.ptr, Type::UQ, scalar);
        }
        let u = self.is_uniform(a.ptr);
        let off = a.offset as i64 as u64;
        let b = (
            Operand::imm(Imm::ud(off as u32)),
            Operand::imm(Imm::ud((off >> 32) as u32)),
        );
        if !u {
            let lo = self.half(a.ptr, false, Type::UD)?;
            let hi = self.half(a.ptr, true, Type::UD)?;
            let t = self.tmp(Type::UQ, false);
            self.add64(t, false, (lo, hi), b);
            return Ok(t);
        }
        let key = (a.ptr, a.offset, Type::UQ, scalar);
        if let Some(&w) = self.bcast.get(&key) {
            return Ok(w);
        }
        let lo = self.half(a.ptr, false, Type::UD)?;
        let hi = self.half(a.ptr, true, Type::UD)?;
        let t = self.tmp(Type::UQ, true);
        let w = self.tmp(Type::UQ, false);
        let ex = self.bcast_exec(scalar);
        self.at_def(a.ptr, |l| {
            l.add64(t, true, (lo, hi), b);
            l.k.mov(ex, Operand::dst(w), Operand::scalar(t));
        });
        self.bcast.insert(key, w);
        Ok(w)
    }

    /// A fence for `order` at `scope`: `fence_global.E` (wait for the
    /// commit), plus `.L1` (flush the L1 cache) beyond the work-group.
    pub(super) fn fence_for(&mut self, order: MemOrder, scope: Scope) {
        if order == MemOrder::Relaxed {
            return;
        }
        let f = Fence {
            commit: true,
            l1: scope != Scope::Cta,
            ..Default::default()
        };
        self.k.fence(f);
    }
}

/// The `svm_atomic` width of an IR type.
pub(super) fn width(t: IrType) -> Option<AtomicWidth> {
    match t.bits() {
        16 => Some(AtomicWidth::W16),
        32 => Some(AtomicWidth::W32),
        64 => Some(AtomicWidth::W64),
        _ => None,
    }
}

/// The data type `svm_atomic` wants for `op` at width `w` (seed 002 notes).
pub(super) fn data_type(op: AtomicOp, w: AtomicWidth) -> Type {
    let wide = w == AtomicWidth::W64;
    match op {
        AtomicOp::IMin | AtomicOp::IMax => {
            if wide {
                Type::Q
            } else {
                Type::D
            }
        }
        _ if op.is_float() => Type::F,
        _ if wide => Type::UQ,
        _ => Type::UD,
    }
}

/// Lowers a memory instruction.
pub(crate) fn lower(l: &mut Lower<'_>, inst: Inst) -> Result<(), LowerError> {
    if super::slm::is_slm(l.f, inst) {
        return super::slm::lower(l, inst);
    }
    let f = l.f;
    let res = f.inst_result(inst);
    match f.insts[inst].clone() {
        InstData::AtomicRmw {
            op,
            ty,
            order,
            scope,
            addr,
            arg,
        } => {
            let (aop, src) = rmw_op(l, inst, op, ty, arg)?;
            let w = width(ty)
                .ok_or_else(|| l.reject(inst, "no svm_atomic width for this type (8-bit atomics are CAS loops)"))?;
            l.fence_for(order_before(order), scope);
            // Every lane applying the same idempotent op to one address
            // with the result unused: one lane does it, `(M1_NM, 1)`.
            let idempotent = matches!(
                aop,
                AtomicOp::And
                    | AtomicOp::Or
                    | AtomicOp::Xchg
                    | AtomicOp::IMin
                    | AtomicOp::IMax
                    | AtomicOp::Min
                    | AtomicOp::Max
                    | AtomicOp::FMin
                    | AtomicOp::FMax
            );
            let scalar = l.aggregate
                && idempotent
                && l.guard.is_none()
                && res.is_none_or(|r| !l.used(r))
                && l.is_uniform(addr.ptr)
                && src.is_some_and(|v| l.is_uniform(v));
            // Every lane adding the same amount to one address, result
            // unused: count the lanes, add count × amount once (IGC's
            // uniform-atomic reduction, `k_add_uniform`).
            // (Under an if-conversion guard lane 0 may be off: aggregate::rmw counts the lanes.)
            let summed = l.aggregate
                && matches!(aop, AtomicOp::Add | AtomicOp::Sub | AtomicOp::Inc | AtomicOp::Dec)
                && w == AtomicWidth::W32
                && l.guard.is_none()
                && res.is_none_or(|r| !l.used(r))
                && l.is_uniform(addr.ptr)
                && src.is_none_or(|v| l.is_uniform(v));
            if summed {
                reduce_add(l, aop, addr, src)?;
                l.fence_for(order_after(order), scope);
                return Ok(());
            }
            if !scalar && super::aggregate::applies(l, aop, w, addr) {
                super::aggregate::rmw(l, aop, addr, src, res)?;
                l.fence_for(order_after(order), scope);
                return Ok(());
            }
            let a = l.address_ex(addr, scalar)?;
            let dt = data_type(aop, w);
            let s0 = match src {
                Some(v) => Operand::raw(l.raw_src_ex(v, dt, scalar)?),
                None => Operand::null(),
            };
            let dst = result(l, res, dt)?;
            emit_atomic(l, scalar, aop, w, [Operand::raw(a), dst, s0, Operand::null()])?;
            after(l, res, ty, w);
            l.fence_for(order_after(order), scope);
        }
        InstData::AtomicCas {
            ty,
            order,
            scope,
            addr,
            expected,
            replacement,
        } => {
            let w = width(ty).ok_or_else(|| {
                l.reject(
                    inst,
                    "no svm_atomic width for this type (8-bit CAS is a loop on the word)",
                )
            })?;
            l.fence_for(order_before(order), scope);
            let dt = data_type(AtomicOp::CmpXchg, w);
            let a = l.address(addr)?;
            let new = l.raw_src(replacement, dt)?;
            let exp = l.raw_src(expected, dt)?;
            let dst = result(l, res, dt)?;
            emit_atomic(
                l,
                false,
                AtomicOp::CmpXchg,
                w,
                [Operand::raw(a), dst, Operand::raw(new), Operand::raw(exp)],
            )?;
            after(l, res, ty, w);
            l.fence_for(order_after(order), scope);
        }
        InstData::AtomicLoad { ty, order, scope, addr } => {
            l.fence_for(order_before(order), scope);
            match width(ty) {
                // An atomic load is `or` with 0, as IGC does (visa.md §6).
                Some(w) => {
                    let dt = data_type(AtomicOp::Or, w);
                    let a = l.address(addr)?;
                    let zero = l.zeroed_tmp(dt);
                    let dst = result(l, res, dt)?;
                    emit_atomic(
                        l,
                        false,
                        AtomicOp::Or,
                        w,
                        [Operand::raw(a), dst, Operand::raw(zero), Operand::null()],
                    )?;
                    after(l, res, ty, w);
                }
                // A byte access is single-copy atomic by itself.
                None => gather(l, inst, res, ty, addr)?,
            }
            l.fence_for(order_after(order), scope);
        }
        InstData::AtomicStore {
            ty,
            order,
            scope,
            addr,
            value,
        } => {
            l.fence_for(order_before(order), scope);
            match width(ty) {
                // An atomic store is `xchg` with the result dropped (IGC).
                Some(w) => {
                    let dt = data_type(AtomicOp::Xchg, w);
                    let a = l.address(addr)?;
                    let s = l.raw_src(value, dt)?;
                    emit_atomic(
                        l,
                        false,
                        AtomicOp::Xchg,
                        w,
                        [Operand::raw(a), Operand::null(), Operand::raw(s), Operand::null()],
                    )?;
                }
                None => scatter(l, inst, ty, addr, value)?,
            }
            l.fence_for(order_after(order), scope);
        }
        InstData::Load { ty, addr } => gather(l, inst, res, ty, addr)?,
        InstData::Store { value, addr } => {
            let ty = f.value_type(value);
            scatter(l, inst, ty, addr, value)?;
        }
        InstData::Fence { order, scope } => {
            let f = Fence {
                commit: true,
                l1: scope != Scope::Cta,
                ..Default::default()
            };
            if order != MemOrder::Relaxed {
                l.k.fence(f);
                // A kernel with shared memory orders SLM too (IR fences carry no space).
                if super::slm::uses_slm(l.f) {
                    l.k.fence(super::slm::LOCAL_FENCE);
                }
            }
        }
        InstData::Barrier => super::slm::barrier(l),
        _ => return Err(l.reject(inst, "not a memory instruction")),
    }
    Ok(())
}

/// The fence before an ordered access (release side).
pub(super) fn order_before(o: MemOrder) -> MemOrder {
    if o.releases() {
        o
    } else {
        MemOrder::Relaxed
    }
}

/// The fence after an ordered access (acquire side).
pub(super) fn order_after(o: MemOrder) -> MemOrder {
    if o.acquires() {
        o
    } else {
        MemOrder::Relaxed
    }
}

/// The `svm_atomic` op for an `atomic_rmw` and its src0 value (`None` for
/// inc/dec, which take `%null`): adding ±1 is `inc`/`dec` as IGC emits
/// for `atomic_inc`/`atomic_dec`.
pub(super) fn rmw_op(
    l: &Lower<'_>,
    inst: Inst,
    op: RmwOp,
    ty: IrType,
    arg: Value,
) -> Result<(AtomicOp, Option<Value>), LowerError> {
    let konst = match l.loc(arg) {
        Ok(Loc::Const(c)) => Some(c),
        _ => None,
    };
    let all_ones = if ty.bits() >= 64 {
        u64::MAX
    } else {
        (1u64 << ty.bits()) - 1
    };
    let int = ty.is_int();
    Ok(match op {
        RmwOp::Add if int && konst == Some(1) => (AtomicOp::Inc, None),
        RmwOp::Add if int && konst == Some(all_ones) => (AtomicOp::Dec, None),
        RmwOp::Sub if int && konst == Some(1) => (AtomicOp::Dec, None),
        RmwOp::Add if int => (AtomicOp::Add, Some(arg)),
        RmwOp::Sub if int => (AtomicOp::Sub, Some(arg)),
        RmwOp::And if int => (AtomicOp::And, Some(arg)),
        RmwOp::Or if int => (AtomicOp::Or, Some(arg)),
        RmwOp::Xor if int => (AtomicOp::Xor, Some(arg)),
        RmwOp::Xchg if ty.bits() >= 16 => (AtomicOp::Xchg, Some(arg)),
        RmwOp::Smin if int => (AtomicOp::IMin, Some(arg)),
        RmwOp::Smax if int => (AtomicOp::IMax, Some(arg)),
        RmwOp::Umin if int => (AtomicOp::Min, Some(arg)),
        RmwOp::Umax if int => (AtomicOp::Max, Some(arg)),
        RmwOp::Fmin if ty == IrType::F32 => (AtomicOp::FMin, Some(arg)),
        RmwOp::Fmax if ty == IrType::F32 => (AtomicOp::FMax, Some(arg)),
        RmwOp::Fadd if ty == IrType::F32 && l.p.is_xehp_plus() => (AtomicOp::FAdd, Some(arg)),
        _ => {
            return Err(l.reject(
                inst,
                "no native svm_atomic for this op and type (the capability table should have made it a CAS loop)",
            ))
        }
    })
}

/// The raw destination of an atomic whose result is `res` (`%null` when
/// unused), seen as the message's data type `dt`.
pub(super) fn result(l: &mut Lower<'_>, res: Option<Value>, dt: Type) -> Result<Operand, LowerError> {
    let Some(r) = res.filter(|r| l.used(*r)) else {
        return Ok(Operand::null());
    };
    let var = l.def_var(r, false)?;
    Ok(Operand::raw(l.view(var, dt)))
}

/// After a `.16` atomic the upper half of each returned dword is not
/// defined: clear it (narrow values are kept zero-extended).
pub(super) fn after(l: &mut Lower<'_>, res: Option<Value>, _ty: IrType, w: AtomicWidth) {
    if w != AtomicWidth::W16 {
        return;
    }
    if let Some(Loc::Var { var, .. }) = res.and_then(|r| l.vals.get(&r).copied()) {
        let ex = l.exec(false);
        let v = l.view(var, Type::UD);
        mask_in_place(l, ex, v, 0xffff);
    }
}

/// The block shape of a plain access of `ty`.
fn blocks(t: IrType) -> Option<Blocks> {
    match t.bits() {
        8 => Some(Blocks {
            block_bytes: 1,
            num_blocks: 1,
        }),
        32 => Some(Blocks {
            block_bytes: 4,
            num_blocks: 1,
        }),
        64 => Some(Blocks {
            block_bytes: 8,
            num_blocks: 1,
        }),
        _ => None,
    }
}

fn gather(l: &mut Lower<'_>, inst: Inst, res: Option<Value>, ty: IrType, addr: Address) -> Result<(), LowerError> {
    let Some(r) = res else { return Ok(()) };
    if ty.bits() == 16 {
        // No 2-byte block in svm_gather: a 16-bit load is `or.16` with 0
        // (TGLLP and newer have `.16` atomics).
        let a = l.address(addr)?;
        let zero = l.zeroed_tmp(Type::UD);
        let dst = result(l, Some(r), Type::UD)?;
        emit_atomic(
            l,
            false,
            AtomicOp::Or,
            AtomicWidth::W16,
            [Operand::raw(a), dst, Operand::raw(zero), Operand::null()],
        )?;
        after(l, Some(r), ty, AtomicWidth::W16);
        return Ok(());
    }
    let b = blocks(ty).ok_or_else(|| l.reject(inst, "no svm_gather block holds this type"))?;
    if canonical(ty).is_none() {
        return Err(l.reject(inst, "no vISA type holds this value"));
    }
    let a = l.address(addr)?;
    let var = l.def_var(r, false)?;
    let data = if ty.bits() == 64 {
        l.view(var, Type::UQ)
    } else {
        l.view(var, Type::UD)
    };
    let per_lane = b.block_bytes.max(4) as u16 * b.num_blocks as u16;
    for (ex, i) in parts(l, per_lane)? {
        let g = l.guard;
        l.k.svm_gather(
            ex,
            b,
            Operand::raw_at(a, 64 * i),
            Operand::raw_at(data, per_lane * 8 * i),
        )
        .pred = g;
    }
    let ex = l.exec(false);
    if ty.bits() == 8 {
        mask_in_place(l, ex, data, 0xff);
    }
    Ok(())
}

/// `var &= mask` on its dwords: clears what a sub-dword access leaves above its bytes.
fn mask_in_place(l: &mut Lower<'_>, ex: Exec, var: VarId, mask: u32) {
    l.k.binary(Op::And, ex, Operand::dst(var), Operand::src(var), Operand::imm(Imm::ud(mask)));
}

fn scatter(l: &mut Lower<'_>, inst: Inst, ty: IrType, addr: Address, value: Value) -> Result<(), LowerError> {
    if ty.bits() == 16 {
        // No 2-byte block in svm_scatter: a 16-bit store is `xchg.16` with
        // the result dropped.
        let a = l.address(addr)?;
        let s = l.raw_src(value, Type::UD)?;
        let ops = [Operand::raw(a), Operand::null(), Operand::raw(s), Operand::null()];
        return emit_atomic(l, false, AtomicOp::Xchg, AtomicWidth::W16, ops);
    }
    let b = blocks(ty).ok_or_else(|| l.reject(inst, "no svm_scatter block holds this type"))?;
    let dt = if ty.bits() == 64 { Type::UQ } else { Type::UD };
    let a = l.address(addr)?;
    let s = l.raw_src(value, dt)?;
    let per_lane = b.block_bytes.max(4) as u16 * b.num_blocks as u16;
    for (ex, i) in parts(l, per_lane)? {
        let g = l.guard;
        l.k.svm_scatter(ex, b, Operand::raw_at(a, 64 * i), Operand::raw_at(s, per_lane * 8 * i))
            .pred = g;
    }
    Ok(())
}

/// The SIMD8 pieces a message of the kernel's width is issued as: one
/// piece up to SIMD8; for SIMD16/32, `(M1, 8)`, `(M3, 8)`, `(M5, 8)`,
/// `(M7, 8)` with the payloads advanced by 8 lanes each, as IGC does
/// (visa.md §3). `per_lane`: data bytes per lane; every piece's data must
/// start on a GRF boundary (not the case for 4-byte data on PVC's 64-byte
/// GRFs).
pub(super) fn parts(l: &Lower<'_>, per_lane: u16) -> Result<Vec<(Exec, u16)>, LowerError> {
    let lanes = l.simd.lanes();
    if lanes <= 8 {
        return Ok(vec![(Exec::new(l.simd), 0)]);
    }
    if !(per_lane as u32 * 8).is_multiple_of(l.p.grf_bytes()) {
        return Err(l.unsupported(
            "svm message",
            &format!(
                "SIMD{lanes} needs SIMD8 pieces whose {}-byte payloads are not GRF aligned on {}",
                per_lane * 8,
                l.p
            ),
        ));
    }
    Ok((0..lanes / 8)
        .map(|i| (Exec::at(ExecSize::S8, 2 * i as u8), i as u16))
        .collect())
}

/// Issues an `svm_atomic` (`ops`: address, dst, src0, src1) under the
/// current guard, split into SIMD8 pieces; `scalar`: one `(M1_NM, 1)`.
fn emit_atomic(
    l: &mut Lower<'_>,
    scalar: bool,
    op: AtomicOp,
    w: AtomicWidth,
    ops: [Operand; 4],
) -> Result<(), LowerError> {
    let g = l.guard;
    if scalar {
        let ex = l.exec(true);
        l.k.svm_atomic(ex, op, w, ops[0], ops[1], ops[2], ops[3]).pred = g;
        return Ok(());
    }
    let elt: u16 = if w == AtomicWidth::W64 { 8 } else { 4 };
    let shift = |o: Operand, by: u16| match o {
        Operand::Raw { var: Some(v), offset } => Operand::raw_at(v, offset + by),
        o => o,
    };
    for (ex, i) in parts(l, elt)? {
        let d = 8 * elt * i;
        let (a, dst, s0, s1) = (
            shift(ops[0], 64 * i),
            shift(ops[1], d),
            shift(ops[2], d),
            shift(ops[3], d),
        );
        l.k.svm_atomic(ex, op, w, a, dst, s0, s1).pred = g;
    }
    Ok(())
}

/// A uniform 32-bit add/sub/inc/dec with the result unused, as one
/// `(M1_NM, 1)` message: the lanes that would run it (active, and under the
/// current guard) each set a 1 in a zeroed counter, a halving tree of adds
/// counts them, and the count (times the amount, for add/sub) is added or
/// subtracted once.
fn reduce_add(l: &mut Lower<'_>, aop: AtomicOp, addr: Address, src: Option<Value>) -> Result<(), LowerError> {
    let n = l.lanes_alloc() as u32;
    let cnt = l.tmp(Type::UD, false);
    l.k.mov(
        Exec::nomask(ExecSize::from_lanes(n).unwrap_or(ExecSize::S8)),
        Operand::dst(cnt),
        Operand::imm(Imm::ud(0)),
    );
    let g = l.guard;
    let ex = l.exec(false);
    l.k.mov(ex, Operand::dst(cnt), Operand::imm(Imm::ud(1))).pred = g;
    let grf = l.p.grf_bytes();
    let mut width = n;
    while width > 1 {
        let half = width / 2;
        let bytes = half * 4;
        let (row, col) = ((bytes / grf) as u8, ((bytes % grf) / 4) as u8);
        let hx = Exec::nomask(ExecSize::from_lanes(half).unwrap_or(ExecSize::S1));
        let hi = Operand::src_at(cnt, row, col, atomc_visa::Region::CONTIGUOUS);
        l.k.add(hx, Operand::dst(cnt), Operand::src(cnt), hi);
        width = half;
    }
    let total = match src {
        None => Operand::scalar(cnt),
        Some(v) => {
            let amount = l.src(v, Type::UD)?;
            let t = l.tmp(Type::UD, true);
            l.k.mul(
                Exec::nomask(ExecSize::S1),
                Operand::dst(t),
                Operand::scalar(cnt),
                amount,
            );
            Operand::scalar(t)
        }
    };
    let raw = l.tmp(Type::UD, false);
    l.k.mov(Exec::nomask(ExecSize::S1), Operand::dst(raw), total);
    let a = l.address_ex(addr, true)?;
    let op = if matches!(aop, AtomicOp::Add | AtomicOp::Inc) {
        AtomicOp::Add
    } else {
        AtomicOp::Sub
    };
    let ops = [Operand::raw(a), Operand::null(), Operand::raw(raw), Operand::null()];
    emit_atomic(l, true, op, AtomicWidth::W32, ops)
}
