//! Memory instructions: plain loads and stores, the atomics, fences and
//! surface atomics. Checks types, addresses, memory orders and scopes.

use super::{Ctx, MAX_SURFACE_SLOTS};
use crate::{
    AddrSpace, Address, Inst, InstData, MemOrder, RmwOp, Scope, SurfaceAccess, SurfaceRef, Type, Value,
    MAX_ADDRESS_OFFSET,
};

pub(super) fn check(cx: &mut Ctx, inst: Inst, data: &InstData) {
    match data {
        InstData::Load { ty, addr } => {
            if !ty.is_memory_type() {
                cx.error(inst, "memory-type", format!("{ty} cannot be loaded from memory"));
            }
            check_address(cx, inst, addr, Some(*ty));
        }
        InstData::Store { value, addr } => {
            let ty = cx.ty(*value);
            if let Some(t) = ty.filter(|t| !t.is_memory_type()) {
                cx.error_on(inst, *value, "memory-type", format!("{value}: {t} cannot be stored to memory"));
            }
            check_address(cx, inst, addr, ty);
        }
        InstData::AtomicRmw { op, ty, scope, addr, arg, .. } => {
            if check_atomic_type(cx, inst, *ty) {
                check_op(cx, inst, *op, *ty);
            }
            check_operand(cx, inst, *ty, "argument", *arg);
            check_address(cx, inst, addr, Some(*ty));
            check_scope(cx, inst, *scope, addr);
        }
        InstData::AtomicCas { ty, scope, addr, expected, replacement, .. } => {
            check_atomic_type(cx, inst, *ty);
            check_operand(cx, inst, *ty, "expected value", *expected);
            check_operand(cx, inst, *ty, "replacement", *replacement);
            check_address(cx, inst, addr, Some(*ty));
            check_scope(cx, inst, *scope, addr);
        }
        InstData::AtomicLoad { ty, order, scope, addr } => {
            check_atomic_type(cx, inst, *ty);
            let legal = [MemOrder::Relaxed, MemOrder::Acquire, MemOrder::SeqCst];
            check_order(cx, inst, *order, &legal);
            check_address(cx, inst, addr, Some(*ty));
            check_scope(cx, inst, *scope, addr);
        }
        InstData::AtomicStore { ty, order, scope, addr, value } => {
            check_atomic_type(cx, inst, *ty);
            check_operand(cx, inst, *ty, "stored value", *value);
            let legal = [MemOrder::Relaxed, MemOrder::Release, MemOrder::SeqCst];
            check_order(cx, inst, *order, &legal);
            check_address(cx, inst, addr, Some(*ty));
            check_scope(cx, inst, *scope, addr);
        }
        InstData::Fence { order, .. } => {
            let legal = [MemOrder::Acquire, MemOrder::Release, MemOrder::AcqRel, MemOrder::SeqCst];
            check_order(cx, inst, *order, &legal);
        }
        InstData::SurfaceRmw { op, ty, access, coords, arg, .. } => {
            if check_surface(cx, inst, *ty, access, coords) {
                check_op(cx, inst, *op, *ty);
            }
            check_operand(cx, inst, *ty, "argument", *arg);
        }
        InstData::SurfaceCas { ty, access, coords, expected, replacement, .. } => {
            check_surface(cx, inst, *ty, access, coords);
            check_operand(cx, inst, *ty, "expected value", *expected);
            check_operand(cx, inst, *ty, "replacement", *replacement);
        }
        _ => {}
    }
}

/// The address is a pointer and its constant offset is aligned to the
/// access size (when known) and in range.
fn check_address(cx: &mut Ctx, inst: Inst, addr: &Address, access: Option<Type>) {
    let Address { ptr, offset } = *addr;
    if let Some(t) = cx.ty(ptr) {
        if !t.is_ptr() {
            cx.error_on(inst, ptr, "address-type", format!("the address must be a pointer, got {ptr}: {t}"));
        }
    }
    if offset.unsigned_abs() > MAX_ADDRESS_OFFSET as u32 {
        let msg = format!("offset {offset} is beyond ±{MAX_ADDRESS_OFFSET}");
        cx.error(inst, "address-offset-range", msg);
    }
    if let Some(t) = access {
        let size = t.bytes() as i32;
        if size > 1 && offset % size != 0 {
            let msg = format!("offset {offset} is not a multiple of the {size}-byte access size of {t}");
            cx.error(inst, "address-alignment", msg);
        }
    }
}

/// An atomic's type is an integer, a scalar float or a packed float. Returns
/// whether it is.
fn check_atomic_type(cx: &mut Ctx, inst: Inst, ty: Type) -> bool {
    let ok = ty.is_int() || ty.is_float() || ty.is_packed_float();
    if !ok {
        let msg = format!("atomics work on integers, floats and packed floats of 8 bits or more, got {ty}");
        cx.error(inst, "atomic-type", msg);
    }
    ok
}

fn check_op(cx: &mut Ctx, inst: Inst, op: RmwOp, ty: Type) {
    if !op.accepts_type(ty) {
        let needs = match op {
            RmwOp::Fadd | RmwOp::Fsub | RmwOp::Fmin | RmwOp::Fmax => "a float type",
            RmwOp::IncWrap | RmwOp::DecWrap => "i32",
            RmwOp::Xchg => "an integer or float type",
            _ => "an integer type",
        };
        cx.error(inst, "atomic-op-type", format!("{op} needs {needs}, got {ty}"));
    }
}

fn check_operand(cx: &mut Ctx, inst: Inst, ty: Type, what: &str, v: Value) {
    if let Some(t) = cx.ty(v) {
        if t != ty {
            cx.error_on(inst, v, "atomic-operand-type", format!("the {what} must be {ty}, got {v}: {t}"));
        }
    }
}

fn check_order(cx: &mut Ctx, inst: Inst, order: MemOrder, legal: &[MemOrder]) {
    if !legal.contains(&order) {
        let name = cx.func.insts[inst].opcode_name();
        let names: Vec<&str> = legal.iter().map(|o| o.name()).collect();
        let msg = format!("{name} does not take order {order} (it takes {})", names.join(", "));
        cx.error(inst, "atomic-order", msg);
    }
}

/// `sys` scope is meaningless on shared memory, which only one block sees.
fn check_scope(cx: &mut Ctx, inst: Inst, scope: Scope, addr: &Address) {
    if scope == Scope::Sys && cx.ty(addr.ptr) == Some(Type::Ptr(AddrSpace::Shared)) {
        let msg = "scope sys on a shared-memory address (shared memory is private to one block; use cta or gpu)";
        cx.error(inst, "atomic-scope", msg);
    }
}

/// The element type, coordinates and surface of a surface atomic. Returns
/// whether the element type is legal (so the op can be checked against it).
fn check_surface(cx: &mut Ctx, inst: Inst, ty: Type, access: &SurfaceAccess, coords: &[Value]) -> bool {
    let elem_ok = matches!(ty, Type::I32 | Type::I64 | Type::F32 | Type::F16x2);
    if !elem_ok {
        let msg = format!("surface elements are i32, i64, f32 or f16x2, got {ty}");
        cx.error(inst, "surface-element-type", msg);
    }
    let want = access.dim.coord_count();
    if coords.len() != want {
        let msg = format!("a {} surface takes {want} coordinate(s), got {}", access.dim, coords.len());
        cx.error(inst, "surface-coord-count", msg);
    }
    for (n, &c) in coords.iter().enumerate() {
        if let Some(t) = cx.ty(c).filter(|&t| t != Type::I32) {
            cx.error_on(inst, c, "surface-coord-type", format!("coordinate {n} must be i32, got {c}: {t}"));
        }
    }
    match access.surface {
        SurfaceRef::Slot(n) if n >= MAX_SURFACE_SLOTS => {
            let msg = format!("surface slot {n} is out of range (slots are 0..{MAX_SURFACE_SLOTS})");
            cx.error(inst, "surface-slot-range", msg);
        }
        SurfaceRef::Handle(h) => {
            if let Some(t) = cx.ty(h).filter(|&t| t != Type::Surface) {
                cx.error_on(inst, h, "surface-handle-type", format!("the surface handle must be a surface, got {h}: {t}"));
            }
        }
        SurfaceRef::Slot(_) => {}
    }
    elem_ok
}
