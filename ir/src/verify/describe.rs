//! One-line renderings of instructions for diagnostic messages.
//!
//! The verifier cannot rely on the printer (a malformed function may hold
//! references the printer would not expect), so it writes its own short
//! form, close to the text format: `` `v7 = atomic_rmw.i32 fadd relaxed gpu v1, v2` ``.
//! It only prints entity numbers and never looks anything up that could be
//! out of range.

use crate::{Address, BlockCall, Function, Inst, InstData, SurfaceAccess, SurfaceRef, Type, Value};
use std::fmt::Write;

/// `` `vN = opcode.T ...` `` for `inst`, in backticks.
pub(super) fn inst(func: &Function, inst: Inst) -> String {
    let mut s = String::from("`");
    if let Some(v) = func.results[inst] {
        let _ = write!(s, "{v} = ");
    }
    match func.insts.get(inst) {
        Some(data) => s.push_str(&body(data)),
        None => {
            let _ = write!(s, "{inst} (no such instruction)");
        }
    }
    s.push('`');
    s
}

fn body(data: &InstData) -> String {
    let op = data.opcode_name();
    match data {
        InstData::Iconst { ty, imm } => format!("{op}.{ty} {imm}"),
        InstData::Fconst { ty, bits } => format!("{op}.{ty} {}", float_lit(*ty, *bits)),
        InstData::Unary { arg, .. } => format!("{op} {arg}"),
        InstData::Binary { args: [a, b], .. } => format!("{op} {a}, {b}"),
        InstData::Icmp { cond, args: [a, b] } => format!("{op} {cond} {a}, {b}"),
        InstData::Fcmp { cond, args: [a, b] } => format!("{op} {cond} {a}, {b}"),
        InstData::Select { cond, args: [a, b] } => format!("{op} {cond}, {a}, {b}"),
        InstData::Convert { to, arg, .. } => format!("{op}.{to} {arg}"),
        InstData::PtrAdd { ptr, offset } => format!("{op} {ptr}, {offset}"),
        InstData::PtrToGeneric { ptr } => format!("{op} {ptr}"),
        InstData::Special { .. } | InstData::Barrier => op.to_string(),
        InstData::Load { ty, addr } => format!("{op}.{ty} {}", address(addr)),
        InstData::Store { value, addr } => format!("{op} {value}, {}", address(addr)),
        InstData::AtomicRmw { op: rmw, ty, order, scope, addr, arg } => {
            format!("{op}.{ty} {rmw} {order} {scope} {}, {arg}", address(addr))
        }
        InstData::AtomicCas { ty, order, scope, addr, expected, replacement } => {
            format!("{op}.{ty} {order} {scope} {}, {expected}, {replacement}", address(addr))
        }
        InstData::AtomicLoad { ty, order, scope, addr } => {
            format!("{op}.{ty} {order} {scope} {}", address(addr))
        }
        InstData::AtomicStore { ty, order, scope, addr, value } => {
            format!("{op}.{ty} {order} {scope} {}, {value}", address(addr))
        }
        InstData::Fence { order, scope } => format!("{op} {order} {scope}"),
        InstData::SurfaceRmw { op: rmw, ty, order, scope, access, coords, arg } => {
            format!("{op}.{ty} {rmw} {} {order} {scope} {}, {arg}", surf_head(access), surf_tail(access, coords))
        }
        InstData::SurfaceCas { ty, order, scope, access, coords, expected, replacement } => format!(
            "{op}.{ty} {} {order} {scope} {}, {expected}, {replacement}",
            surf_head(access),
            surf_tail(access, coords)
        ),
        InstData::Jump { dest } => format!("{op} {}", call(dest)),
        InstData::Brif { cond, then_dest, else_dest } => {
            format!("{op} {cond}, {}, {}", call(then_dest), call(else_dest))
        }
        InstData::Return { args } => {
            if args.is_empty() {
                op.to_string()
            } else {
                format!("{op} {}", list(args))
            }
        }
    }
}

fn address(addr: &Address) -> String {
    match addr.offset {
        0 => format!("{}", addr.ptr),
        off if off > 0 => format!("{}+{off}", addr.ptr),
        off => format!("{}{off}", addr.ptr),
    }
}

fn call(c: &BlockCall) -> String {
    if c.args.is_empty() {
        format!("{}", c.block)
    } else {
        format!("{}({})", c.block, list(&c.args))
    }
}

fn list(values: &[Value]) -> String {
    values.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", ")
}

/// `dim addressing clamp` of a surface access.
fn surf_head(a: &SurfaceAccess) -> String {
    format!("{} {} {}", a.dim, a.addressing, a.clamp)
}

/// `surf [coords]` of a surface access.
fn surf_tail(a: &SurfaceAccess, coords: &[Value]) -> String {
    let surf = match a.surface {
        SurfaceRef::Slot(n) => format!("slot {n}"),
        SurfaceRef::Handle(v) => v.to_string(),
    };
    format!("{surf} [{}]", list(coords))
}

fn float_lit(ty: Type, bits: u64) -> String {
    match ty {
        Type::F32 if bits <= u32::MAX as u64 => {
            let x = f32::from_bits(bits as u32);
            if x.is_finite() {
                format!("{x:?}")
            } else {
                format!("{bits:#x}")
            }
        }
        Type::F64 => {
            let x = f64::from_bits(bits);
            if x.is_finite() {
                format!("{x:?}")
            } else {
                format!("{bits:#x}")
            }
        }
        _ => format!("{bits:#x}"),
    }
}
