//! Surface atomics as `typed_atomic` (IGC TYPED_ATOMIC.md), the message IGC
//! emits for image atomics on TGLLP and DG2.
//!
//! * the surface: a bound slot `N` is the kernel's surface argument `SLOTN`
//!   (a vISA surface variable, T6 upwards, whose binding-table index the
//!   launch preloads; [`super::abi`]); a bindless handle is the predefined
//!   surface `%bss` after a `movs` of the handle's low 32 bits (its bindless
//!   surface-state offset) into `%bss(0)`, inside a loop over the distinct
//!   handles when the lanes' handles may differ ([`super::bindless`]);
//! * coordinates: u, v, r in the IR's order (x; x, layer; x, y; x, y, layer;
//!   x, y, z: TYPED_ATOMIC.md's table), lod `%null` (level 0); byte
//!   addressing divides x by the 4-byte element;
//! * out of range: the message drops the write and returns 0 (TYPED_ATOMIC.md
//!   "Out-of-bound Access"), which is the IR's `ign`; `near` clamps each
//!   coordinate to `[0, size - 1]` first, as signed integers like the IR
//!   interpreter, the sizes read with `resinfo` on the same surface (`%bss`
//!   after its `movs` for a handle; see [`coordinates`]); `trap` has
//!   no vISA form and the capability table refuses it;
//! * ops and types: 32-bit (no `.64`: 64-bit elements are read and written
//!   under a lock, [`super::surface_lock`]; 16-bit elements are not an IR
//!   surface type); data `ud`, `d` for minsint/maxsint, `f` for fmin/fmax; xchg
//!   (f32 and packed halves too) and CAS (`cmpxchg`, src0 = new, src1 =
//!   expected) move bit patterns (`ud`);
//! * f32 fadd and the wrapping inc/dec are `cmpxchg` retry loops on the
//!   surface ([`super::surface_loop`]); packed-half fadd/fmin/fmax are the
//!   legalizer's CAS loop (capability table), ending in `surface_cas`;
//! * SIMD8 only: wider kernels issue `(M1, 8)`, `(M3, 8)`, … pieces like
//!   `svm_atomic`; kernels narrower than 8 lanes are refused.
//!
//! GenX_IR 1.0.12504 accepts these messages on TGLLP, DG2 and PVC (measured:
//! `send.dc1` with the descriptor in `a0.0`, built from the surface argument,
//! or from the `movs`ed handle with binding-table index 252 for `%bss`).

use atomc_ir::{
    Inst, InstData, RmwOp, SurfaceAccess, SurfaceAddressing, SurfaceClamp, SurfaceRef, Type as IrType, Value,
};

use super::bindless::{on_surface, Target};
use super::mem::{order_after, order_before, parts, result, rmw_op};
use super::{Lower, LowerError};
use atomc_visa::{
    slm_data_type, Align, AtomicOp, AtomicWidth, Channels, Exec, ExecSize, Imm, Op, Operand, Region, Surf, Type, VarId,
};

/// Lowers `surface_rmw` and `surface_cas`.
pub(crate) fn lower(l: &mut Lower<'_>, inst: Inst) -> Result<(), LowerError> {
    if super::surface_lock::is_locked(l.f, inst) {
        return super::surface_lock::lower(l, inst);
    }
    let res = l.f.inst_result(inst);
    match l.f.insts[inst].clone() {
        InstData::SurfaceRmw { op, ty, order, scope, access, coords, arg } => {
            if matches!(op, RmwOp::Fadd | RmwOp::IncWrap | RmwOp::DecWrap) {
                return super::surface_loop::rmw(l, inst, op, ty, order, scope, &access, &coords, arg);
            }
            let aop = rmw_op(l, inst, op, ty, arg)?.0;
            let src = if aop.num_sources() == 0 { None } else { Some(arg) };
            let target = prepare(l, inst, ty, &access)?;
            l.fence_for(order_before(order), scope);
            let dt = slm_data_type(aop, AtomicWidth::W32);
            let s0 = match src {
                Some(v) => Operand::raw(l.raw_src(v, dt)?),
                None => Operand::null(),
            };
            on_surface(l, inst, target, |l, surf| {
                let uvr = coordinates(l, surf, &access, &coords)?;
                let dst = result(l, res, dt)?;
                emit(l, aop, surf, uvr, [s0, Operand::null(), dst])
            })?;
            l.fence_for(order_after(order), scope);
        }
        InstData::SurfaceCas { ty, order, scope, access, coords, expected, replacement } => {
            let target = prepare(l, inst, ty, &access)?;
            l.fence_for(order_before(order), scope);
            let new = l.raw_src(replacement, Type::UD)?;
            let exp = l.raw_src(expected, Type::UD)?;
            on_surface(l, inst, target, |l, surf| {
                let uvr = coordinates(l, surf, &access, &coords)?;
                let dst = result(l, res, Type::UD)?;
                emit(l, AtomicOp::CmpXchg, surf, uvr, [Operand::raw(new), Operand::raw(exp), dst])
            })?;
            l.fence_for(order_after(order), scope);
        }
        _ => return Err(l.reject(inst, "not a surface atomic")),
    }
    Ok(())
}

/// Checks what the typed message can express and returns the surface.
pub(super) fn prepare(l: &mut Lower<'_>, inst: Inst, ty: IrType, a: &SurfaceAccess) -> Result<Target, LowerError> {
    // 64 bits: one R32G32 texel under the lock ([`super::surface_lock`]).
    if !matches!(ty.bits(), 32 | 64) {
        return Err(l.reject(inst, "a surface element is 32 or 64 bits"));
    }
    if l.simd.lanes() < 8 {
        return Err(l.reject(inst, "typed_atomic is SIMD8 only; the kernel runs fewer lanes"));
    }
    // `trap` must fail the kernel, and neither the message nor vISA has a way to (no trap
    // instruction): the capability table refuses it before selection; this is the backstop.
    if a.clamp == SurfaceClamp::Trap {
        return Err(l.reject(inst, "typed_atomic has no trap mode and vISA no trap instruction"));
    }
    match a.surface {
        SurfaceRef::Slot(n) => l
            .surfaces
            .get(&n)
            .map(|&t| Target::Bound(t))
            .ok_or_else(|| l.reject(inst, "the surface slot has no kernel argument")),
        SurfaceRef::Handle(h) => Ok(Target::Bindless(h)),
    }
}

/// The u, v, r operands (`%null` past the coordinate count), clamped to the
/// surface under `near`.
pub(super) fn coordinates(
    l: &mut Lower<'_>,
    surf: Surf,
    a: &SurfaceAccess,
    coords: &[Value],
) -> Result<[Operand; 3], LowerError> {
    texel_coordinates(l, surf, a, coords, 4)
}

/// [`coordinates`] for elements of `elem_bytes` (4 or 8): byte addressing divides x by it.
pub(super) fn texel_coordinates(
    l: &mut Lower<'_>,
    surf: Surf,
    a: &SurfaceAccess,
    coords: &[Value],
    elem_bytes: u32,
) -> Result<[Operand; 3], LowerError> {
    let near = a.clamp == SurfaceClamp::Near;
    let last = if near { Some(last_texels(l, surf, coords.len().min(3))) } else { None };
    let mut out = [Operand::null(); 3];
    for (i, &c) in coords.iter().enumerate().take(3) {
        let mut v = l.raw_src(c, Type::UD)?;
        let ex = l.exec(false);
        if i == 0 && a.addressing == SurfaceAddressing::Bytes {
            // Byte offset → texel: the IR requires a multiple of the element. Under `near`
            // the division floors a negative offset (asr), which then clamps to 0 as the IR's
            // `div_euclid` does; `ign` keeps `shr`, whose huge quotient the message drops.
            let t = l.tmp(Type::UD, false);
            let (op, d, s) = if near { (Op::Asr, l.view(t, Type::D), l.view(v, Type::D)) } else { (Op::Shr, t, v) };
            l.k.binary(op, ex, Operand::dst(d), Operand::src(s), Operand::imm(Imm::ud(elem_bytes.trailing_zeros())));
            v = t;
        }
        if let Some(last) = last {
            // min(max(c, 0), size - 1) on `d`: the IR reads coordinates as signed.
            let t = l.tmp(Type::UD, false);
            let (td, vd) = (l.view(t, Type::D), l.view(v, Type::D));
            l.k.binary(Op::Max, ex, Operand::dst(td), Operand::src(vd), Operand::imm(Imm::d(0)));
            let edge = Operand::src_at(last, 0, i as u8, Region::SCALAR);
            l.k.binary(Op::Min, ex, Operand::dst(td), Operand::src(td), edge);
            v = t;
        }
        out[i] = Operand::raw(v);
    }
    Ok(out)
}

/// The last texel per dimension of `surf` (`d`, one element per coordinate; on `%bss`, of the
/// surface the last `movs` named): `resinfo` at lod
/// 0 on eight lanes without mask (the size is the same in every lane), whose destination holds
/// eight lanes of R (width), then G (height, or the layers of a 1D array), then B (depth, or
/// the layers of a 2D array): INFO.md's table, which matches the IR's coordinate order (x;
/// x, layer; x, y; x, y, layer; x, y, z). Minus one, lane 0 of each.
fn last_texels(l: &mut Lower<'_>, surf: Surf, n: usize) -> VarId {
    let ex8 = Exec::nomask(ExecSize::S8);
    let lod = l.tmp(Type::UD, false);
    l.k.mov(ex8, Operand::dst(lod), Operand::imm(Imm::ud(0)));
    let name = l.tmp_name("size");
    let size = l.k.decl_simd(name, Type::UD, 8 * n as u16);
    l.k.resinfo(ex8, Channels::first(n), surf, Operand::raw(lod), Operand::raw(size));
    let name = l.tmp_name("last");
    let last = l.k.decl(name, Type::D, n as u16, Align::Dword);
    let size_d = l.view(size, Type::D);
    let per_row = l.p.grf_bytes() / 4;
    for c in 0..n as u32 {
        let (row, col) = ((8 * c / per_row) as u8, (8 * c % per_row) as u8);
        let s = Operand::src_at(size_d, row, col, Region::SCALAR);
        l.k.add(Exec::nomask(ExecSize::S1), Operand::dst_at(last, 0, c as u8, 1), s, Operand::imm(Imm::d(-1)));
    }
    last
}

/// Issues the `typed_atomic` in SIMD8 pieces under the current guard;
/// `data`: src0, src1, dst.
pub(super) fn emit(
    l: &mut Lower<'_>,
    op: AtomicOp,
    surf: Surf,
    uvr: [Operand; 3],
    data: [Operand; 3],
) -> Result<(), LowerError> {
    let g = l.guard;
    let shift = |o: Operand, by: u16| match o {
        Operand::Raw { var: Some(v), offset } => Operand::raw_at(v, offset + by),
        o => o,
    };
    for (ex, i) in parts(l, 4)? {
        let d = 32 * i;
        let [u, v, r] = uvr.map(|o| shift(o, d));
        let [s0, s1, dst] = data.map(|o| shift(o, d));
        l.k.typed_atomic(ex, op, AtomicWidth::W32, surf, [u, v, r, Operand::null()], s0, s1, dst).pred = g;
    }
    Ok(())
}
