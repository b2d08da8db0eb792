//! Surface atomics as `typed_atomic` (IGC TYPED_ATOMIC.md), the message IGC
//! emits for image atomics on TGLLP and DG2.
//!
//! * the surface: a bound slot `N` is the kernel's surface argument `SLOTN`
//!   (a vISA surface variable, T6 upwards, whose binding-table index the
//!   launch preloads; [`super::abi`]); a bindless handle is refused: it would
//!   need the bindless surface-state set-up, which atomc does not emit;
//! * coordinates: u, v, r in the IR's order (x; x, layer; x, y; x, y, layer;
//!   x, y, z: TYPED_ATOMIC.md's table), lod `%null` (level 0); byte
//!   addressing divides x by the 4-byte element;
//! * out of range: the message drops the write and returns 0 (TYPED_ATOMIC.md
//!   "Out-of-bound Access"), which is the IR's `ign`; `near` and `trap` have no
//!   typed-message form and are refused (see [`prepare`]);
//! * ops and types: 32-bit only (no `.64`, and 16-bit elements are not an IR
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
//! `send.dc1` with the descriptor in `a0.0`, built from the surface argument).

use atomc_ir::{
    Inst, InstData, RmwOp, SurfaceAccess, SurfaceAddressing, SurfaceClamp, SurfaceRef, Type as IrType, Value,
};

use super::mem::{order_after, order_before, parts, result, rmw_op};
use super::{Lower, LowerError};
use atomc_visa::{slm_data_type, AtomicOp, AtomicWidth, Imm, Op, Operand, SurfId, Type};

/// Lowers `surface_rmw` and `surface_cas`.
pub(crate) fn lower(l: &mut Lower<'_>, inst: Inst) -> Result<(), LowerError> {
    let res = l.f.inst_result(inst);
    match l.f.insts[inst].clone() {
        InstData::SurfaceRmw { op, ty, order, scope, access, coords, arg } => {
            if matches!(op, RmwOp::Fadd | RmwOp::IncWrap | RmwOp::DecWrap) {
                return super::surface_loop::rmw(l, inst, op, ty, order, scope, &access, &coords, arg);
            }
            let aop = rmw_op(l, inst, op, ty, arg)?.0;
            let src = if aop.num_sources() == 0 { None } else { Some(arg) };
            let surf = prepare(l, inst, ty, &access)?;
            l.fence_for(order_before(order), scope);
            let dt = slm_data_type(aop, AtomicWidth::W32);
            let s0 = match src {
                Some(v) => Operand::raw(l.raw_src(v, dt)?),
                None => Operand::null(),
            };
            let uvr = coordinates(l, &access, &coords)?;
            let dst = result(l, res, dt)?;
            emit(l, aop, surf, uvr, [s0, Operand::null(), dst])?;
            l.fence_for(order_after(order), scope);
        }
        InstData::SurfaceCas { ty, order, scope, access, coords, expected, replacement } => {
            let surf = prepare(l, inst, ty, &access)?;
            l.fence_for(order_before(order), scope);
            let new = l.raw_src(replacement, Type::UD)?;
            let exp = l.raw_src(expected, Type::UD)?;
            let uvr = coordinates(l, &access, &coords)?;
            let dst = result(l, res, Type::UD)?;
            emit(l, AtomicOp::CmpXchg, surf, uvr, [Operand::raw(new), Operand::raw(exp), dst])?;
            l.fence_for(order_after(order), scope);
        }
        _ => return Err(l.reject(inst, "not a surface atomic")),
    }
    Ok(())
}

/// Checks what the typed message can express and returns the surface.
pub(super) fn prepare(l: &mut Lower<'_>, inst: Inst, ty: IrType, a: &SurfaceAccess) -> Result<SurfId, LowerError> {
    if ty.bits() != 32 {
        return Err(l.reject(inst, "typed_atomic has 32-bit data only (no .64)"));
    }
    if l.simd.lanes() < 8 {
        return Err(l.reject(inst, "typed_atomic is SIMD8 only; the kernel runs fewer lanes"));
    }
    // Typed messages drop an out-of-range access (TYPED_ATOMIC.md "Out-of-bound Access"): that
    // is `ign` and nothing else. `trap` must fail the kernel, and neither the message nor vISA has
    // a way to (no trap instruction). `near` could clamp the coordinates first, but needs the
    // surface's extent, which only vISA's INFO (resinfo) query reads, and atomc does not emit it
    // yet: GenX_IR 1.0.12504 takes `resinfo.R (M1, 8) SLOTn LOD.0 DST.0` on TGLLP, DG2 and PVC
    // (measured: a `send.smpl`), but the emitter has neither its text nor its `.isa` record, nor
    // the simulator its semantics.
    match a.clamp {
        SurfaceClamp::Ign => {}
        SurfaceClamp::Trap => return Err(l.reject(
            inst,
            "Intel typed surfaces drop out-of-range accesses (ign); typed_atomic has no trap mode and vISA no trap \
                 instruction, so an out-of-range access cannot fail the kernel",
        )),
        SurfaceClamp::Near => {
            return Err(l.reject(
                inst,
                "Intel typed surfaces drop out-of-range accesses (ign); typed_atomic has no clamp-to-edge mode, and \
                 clamping the coordinates needs the surface size (vISA INFO resinfo), which atomc does not emit",
            ))
        }
    }
    match a.surface {
        SurfaceRef::Slot(n) => {
            l.surfaces.get(&n).copied().ok_or_else(|| l.reject(inst, "the surface slot has no kernel argument"))
        }
        SurfaceRef::Handle(_) => Err(l.reject(
            inst,
            "bindless surface handles are not emitted for vISA (typed_atomic names a bound surface argument)",
        )),
    }
}

/// The u, v, r operands (`%null` past the coordinate count).
pub(super) fn coordinates(l: &mut Lower<'_>, a: &SurfaceAccess, coords: &[Value]) -> Result<[Operand; 3], LowerError> {
    let mut out = [Operand::null(); 3];
    for (i, &c) in coords.iter().enumerate().take(3) {
        let mut v = l.raw_src(c, Type::UD)?;
        if i == 0 && a.addressing == SurfaceAddressing::Bytes {
            // Byte offset → texel: the IR requires a multiple of the 4-byte element.
            let t = l.tmp(Type::UD, false);
            let ex = l.exec(false);
            l.k.binary(Op::Shr, ex, Operand::dst(t), Operand::src(v), Operand::imm(Imm::ud(2)));
            v = t;
        }
        out[i] = Operand::raw(v);
    }
    Ok(out)
}

/// Issues the `typed_atomic` in SIMD8 pieces under the current guard;
/// `data`: src0, src1, dst.
pub(super) fn emit(
    l: &mut Lower<'_>,
    op: AtomicOp,
    surf: SurfId,
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
