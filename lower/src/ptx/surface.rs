//! Surface atomics. PTX has exactly one: `sured`, a reduction without a result, on 32/64-bit
//! integers (add, min, max, and, or), shapes 1d/2d/3d, byte-addressed x (`.b`). A `surface_rmw`
//! whose result is unused maps onto it; everything else is rejected by the caller or here.

use super::alu::normalized;
use super::memory::{membar, scope_name};
use super::regs::Class;
use super::{Emitter, PtxError};
use atomc_ir::{
    MemOrder, RmwOp, Scope, SurfaceAccess, SurfaceAddressing, SurfaceClamp, SurfaceDim, SurfaceRef, Type, Value,
};

/// Whether any instruction reads `v`.
pub(super) fn value_is_used(e: &Emitter<'_>, v: Value) -> bool {
    e.func.inst_order().any(|(_, i)| e.func.insts[i].args().contains(&v))
}

/// `sured.b.<op>.<geom>.<type>.<clamp> [surf, {coords}], x` for an unused-result surface_rmw.
#[allow(clippy::too_many_arguments)]
pub(super) fn reduction(
    e: &mut Emitter<'_>,
    what: &str,
    op: RmwOp,
    ty: Type,
    order: MemOrder,
    scope: Scope,
    access: &SurfaceAccess,
    coords: &[Value],
    arg: Value,
) -> Result<(), PtxError> {
    let w = ty.bits();
    let int = ty.is_int() && (w == 32 || w == 64);
    // 64-bit operands: `add` only. ptxas 11.8 and 13.5 reject `sured.b.and/or` of `.b64`
    // ("Unexpected instruction types specified for 'sured.b'"); 64-bit min/max is "Incorrect
    // type '.u64' for operation '.max'" in 11.8 and needs PTX ISA 8.1 in 13.5, and atomc
    // writes 7.8 so that one module serves both.
    if w == 64 && int && op != RmwOp::Add {
        return Err(e.unsupported(
            what,
            "PTX `sured.b` takes 64-bit operands for add only (and/or never; min/max from PTX ISA 8.1, atomc writes 7.8)",
        ));
    }
    let (opname, ptx_ty) = match op {
        RmwOp::Add if int => ("add", if w == 32 { ".u32" } else { ".u64" }),
        RmwOp::Smin if int => ("min", ".s32"),
        RmwOp::Umin if int => ("min", ".u32"),
        RmwOp::Smax if int => ("max", ".s32"),
        RmwOp::Umax if int => ("max", ".u32"),
        RmwOp::And if int => ("and", ".b32"),
        RmwOp::Or if int => ("or", ".b32"),
        _ => {
            return Err(e.unsupported(
                what,
                "PTX `sured` supports only add, min, max, and, or on 32/64-bit integers",
            ))
        }
    };
    let geom = match access.dim {
        SurfaceDim::D1 => ".1d",
        SurfaceDim::D2 => ".2d",
        SurfaceDim::D3 => ".3d",
        SurfaceDim::D1Buffer | SurfaceDim::D1Array | SurfaceDim::D2Array => {
            return Err(e.unsupported(what, "PTX `sured` has only the 1d, 2d and 3d shapes"));
        }
    };
    let clamp = match access.clamp {
        SurfaceClamp::Ign => ".zero",
        SurfaceClamp::Near => ".clamp",
        SurfaceClamp::Trap => ".trap",
    };
    let surf = match access.surface {
        SurfaceRef::Slot(n) => {
            if !e.surfrefs.contains(&n) {
                e.surfrefs.push(n);
            }
            format!("atomc_surface_{n}")
        }
        SurfaceRef::Handle(h) => e.reg(h),
    };
    let mut regs: Vec<String> = coords.iter().map(|&c| e.reg(c)).collect();
    if access.addressing == SurfaceAddressing::Coord {
        // sured.b takes x in bytes: scale the element index.
        let t = e.regs.temp_class(Class::B32);
        e.line(format!("shl.b32 {t}, {}, {}", regs[0], (w / 8).trailing_zeros()));
        regs[0] = t;
    }
    if regs.len() == 3 {
        // 3d coordinates are a 4-vector; the fourth is ignored.
        regs.push(regs[2].clone());
    }
    let x = normalized(e, arg, false);
    let (pre, _, post) = order_parts_fences_only(e, order, scope);
    pre.into_iter().for_each(|l| e.line(l));
    e.line(format!(
        "sured.b.{opname}{geom}{ptx_ty}{clamp} [{surf}, {{{}}}], {x}",
        regs.join(", ")
    ));
    post.into_iter().for_each(|l| e.line(l));
    Ok(())
}

/// `sured` has no `.sem`/`.scope` qualifiers: orders become fences around it on every target.
fn order_parts_fences_only(e: &Emitter<'_>, order: MemOrder, scope: Scope) -> (Vec<String>, (), Vec<String>) {
    let fence = if e.sm >= 70 {
        let sem = if order == MemOrder::SeqCst { "sc" } else { "acq_rel" };
        format!("fence.{sem}{}", scope_name(scope))
    } else {
        membar(scope).to_string()
    };
    let pre = if order.releases() { vec![fence.clone()] } else { vec![] };
    let post = if order.acquires() { vec![fence] } else { vec![] };
    (pre, (), post)
}
