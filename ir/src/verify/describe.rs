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
        InstData::Ternary { args: [a, b, c], .. } => format!("{op} {a}, {b}, {c}"),
        InstData::Bfi { args: [x, base, pos, len] } => format!("{op} {x}, {base}, {pos}, {len}"),
        InstData::ActiveMask => op.to_string(),
        InstData::Ballot { cond: a } | InstData::Vote { arg: a, .. } | InstData::MatchAny { arg: a } => {
            format!("{op} {a}")
        }
        InstData::Shuffle { mode, args: [x, y] } => format!("{op} {mode} {x}, {y}"),
        InstData::Reduce { op: r, arg } => format!("{op} {r} {arg}"),
        InstData::Icmp { cond, args: [a, b] } => format!("{op} {cond} {a}, {b}"),
        InstData::Fcmp { cond, args: [a, b] } => format!("{op} {cond} {a}, {b}"),
        InstData::Select { cond, args: [a, b] } => format!("{op} {cond}, {a}, {b}"),
        InstData::Convert { to, arg, .. } => format!("{op}.{to} {arg}"),
        InstData::PtrAdd { ptr, offset } => format!("{op} {ptr}, {offset}"),
        InstData::PtrToGeneric { ptr } => format!("{op} {ptr}"),
        InstData::Special { .. } | InstData::Barrier => op.to_string(),
        InstData::SharedAddr { var } => format!("{op} {var}"),
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

#[cfg(test)]
mod tests {
    /// Each instruction is quoted exactly as it is written in the text.
    #[test]
    fn quotes_match_the_text_format() {
        let src = "\
function %all(ptr.global, i32, surface, i64, f32) -> i32 {
block0(v0: ptr.global, v1: i32, v2: surface, v3: i64, v4: f32):
    v5 = iconst.i32 -7
    v6 = fconst.f32 1.5
    v7 = ineg v1
    v8 = iadd v1, v5
    v9 = icmp slt v1, v5
    v10 = fcmp uno v4, v6
    v11 = select v9, v1, v5
    v12 = uextend.i64 v1
    v13 = ptr_add v0, v12
    v14 = ptr_to_generic v13
    v15 = thread_id.x
    v16 = load.i32 v0+8
    store v16, v0-4
    v17 = atomic_rmw.i32 add relaxed gpu v0, v1
    v18 = atomic_cas.i64 acq_rel sys v0+16, v3, v3
    v19 = atomic_load.i32 acquire cta v0+4
    atomic_store.i32 release gpu v0, v19
    fence seq_cst sys
    v20 = surface_rmw.i32 umax 2d bytes trap relaxed gpu v2 [v1, v1], v1
    v21 = surface_cas.i64 1d coord ign seq_cst gpu slot 3 [v1], v3, v3
    barrier
    brif v9, block1(v1), block2
block1(v22: i32):
    jump block2
block2:
    return v1
}
";
        let func = crate::parse::parse(src).expect("parses").remove(0);
        let mut lines = src.lines().skip(2).filter(|l| !l.starts_with("block") && !l.starts_with('}'));
        for (_, inst) in func.inst_order() {
            let want = format!("`{}`", lines.next().expect("a line per instruction").trim());
            assert_eq!(super::inst(&func, inst), want);
        }
    }
}
