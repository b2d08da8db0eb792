//! Rules on instruction shape, exec masks, regions and ALU operand types.

use super::{ext_matches, Checker, Rule};
use crate::inst::{Inst, Op, Slot};
use crate::operand::{Operand, Region, SrcMod};
use crate::types::Type;

/// Operand count, slot kinds, references and the extra. Returns `false`
/// when the shape is too broken for the other checks to make sense.
pub(super) fn shape(c: &mut Checker<'_>, inst: &Inst) -> bool {
    let info = inst.info();
    let mut ok = true;
    if inst.operands.len() != info.num_operands() {
        c.err(
            Rule::OperandShape,
            format!(
                "`{}` takes {} operands, got {}",
                info.mnemonic,
                info.num_operands(),
                inst.operands.len()
            ),
        );
        return false;
    }
    if !ext_matches(inst) {
        c.err(
            Rule::OperandShape,
            format!(
                "`{}` has the wrong kind of extra ({:?})",
                info.mnemonic, inst.ext
            ),
        );
        ok = false;
    }
    for (i, (slot, o)) in info.slots().zip(&inst.operands).enumerate() {
        let fits = matches!(
            (slot, o),
            (Slot::Dst, Operand::Dst { .. } | Operand::Pred(_))
                | (
                    Slot::Src,
                    Operand::Src { .. } | Operand::Imm(_) | Operand::Pred(_)
                )
                | (Slot::Raw, Operand::Raw { .. })
                | (Slot::Label, Operand::Label(_))
                | (Slot::Surface, Operand::Surface(_))
                | (Slot::State, Operand::State { .. })
        );
        if !fits {
            c.err(
                Rule::OperandShape,
                format!("operand {i} of `{}` cannot be {o:?}", info.mnemonic),
            );
            ok = false;
            continue;
        }
        let known = match *o {
            Operand::Dst { var, .. }
            | Operand::Src { var, .. }
            | Operand::Raw { var: Some(var), .. } => c.k.var(var).is_some(),
            Operand::Pred(p) => c.k.pred(p).is_some(),
            Operand::Label(l) => (l.0 as usize) < c.k.labels.len(),
            Operand::Surface(t) | Operand::State { surface: t, .. } => match t {
                crate::Surf::Bss => true,
                crate::Surf::User(t) => (t.0 as usize) < c.k.surfaces.len(),
            },
            Operand::Raw { var: None, .. } | Operand::Imm(_) => true,
        };
        if !known {
            c.err(
                Rule::OperandShape,
                format!(
                    "operand {i} of `{}` names an undeclared entity",
                    info.mnemonic
                ),
            );
            ok = false;
        }
    }
    if let Some(p) = inst.pred {
        if c.k.pred(p.pred).is_none() {
            c.err(Rule::OperandShape, "guard names an undeclared predicate");
            ok = false;
        }
    }
    ok
}

/// Guards, `.sat`, exec masks, regions and predicate lane counts.
pub(super) fn common(c: &mut Checker<'_>, inst: &Inst) {
    let info = inst.info();
    let lanes = inst.exec.size.lanes();
    if let Some(p) = inst.pred {
        if !info.has_pred() {
            c.err(
                Rule::NoGuardField,
                format!("`{}` cannot be predicated", info.mnemonic),
            );
        } else if let Some(d) = c.k.pred(p.pred) {
            if (d.num_elts as u32) < lanes {
                c.err(
                    Rule::PredLanes,
                    format!(
                        "guard `{}` has {} lanes for exec size {lanes}",
                        d.name, d.num_elts
                    ),
                );
            }
        }
    }
    if inst.sat
        && !inst
            .operands
            .iter()
            .any(|o| matches!(o, Operand::Dst { .. }))
    {
        c.err(
            Rule::Saturation,
            format!("`.sat` needs a general destination (`{}`)", info.mnemonic),
        );
    }
    if info.has_exec() {
        let start = 4 * inst.exec.offset as u32;
        let misaligned = lanes >= 4 && !start.is_multiple_of(lanes);
        if inst.exec.offset > 7 || misaligned || start + lanes > 32 {
            c.err(
                Rule::ExecMask,
                format!("mask {} does not fit exec size {lanes}", inst.exec),
            );
        }
    }
    for o in &inst.operands {
        match *o {
            Operand::Dst {
                var,
                row,
                col,
                hstride,
            } => {
                let ok = matches!(hstride, 1 | 2 | 4) || (hstride == 0 && lanes == 1);
                if !ok {
                    c.err(Rule::Region, format!("destination stride <{hstride}>"));
                }
                let last = (lanes - 1) * hstride as u32;
                bounds(c, var, row, col, last);
            }
            Operand::Src {
                var,
                row,
                col,
                region,
                ..
            } => {
                let Region {
                    vstride,
                    width,
                    hstride,
                } = region;
                let pow = |v: u8| matches!(v, 0 | 1 | 2 | 4 | 8 | 16 | 32);
                if width == 0 || !pow(vstride) || !pow(width) || !pow(hstride) {
                    c.err(
                        Rule::Region,
                        format!("source region <{vstride};{width},{hstride}>"),
                    );
                    continue;
                }
                let w = width as u32;
                let last = (0..lanes)
                    .map(|i| (i / w) * vstride as u32 + (i % w) * hstride as u32)
                    .max()
                    .unwrap_or(0);
                bounds(c, var, row, col, last);
            }
            Operand::Pred(p) => {
                if let Some(d) = c.k.pred(p) {
                    if (d.num_elts as u32) < lanes {
                        c.err(
                            Rule::PredLanes,
                            format!(
                                "predicate `{}` has {} lanes for exec size {lanes}",
                                d.name, d.num_elts
                            ),
                        );
                    }
                }
            }
            _ => {}
        }
    }
}

/// Checks that element `last` (from `(row, col)`) lies inside `var`.
fn bounds(c: &mut Checker<'_>, var: crate::VarId, row: u8, col: u8, last: u32) {
    let Some(d) = c.k.var(var) else { return };
    let t = d.ty.size();
    let end = row as u32 * c.p.grf_bytes() + (col as u32 + last) * t + t;
    if end > d.bytes() {
        c.err(
            Rule::RegionBounds,
            format!(
                "region reaches byte {end} of `{}` ({} B)",
                d.name,
                d.bytes()
            ),
        );
    }
}

fn is_logic(op: Op) -> bool {
    matches!(
        op,
        Op::And | Op::Or | Op::Xor | Op::Not | Op::Shl | Op::Shr | Op::Asr
    )
}

/// The type of a vector operand (`None` for predicates and others).
fn vtype(c: &Checker<'_>, o: &Operand) -> Option<Type> {
    match *o {
        Operand::Dst { var, .. } | Operand::Src { var, .. } => c.k.var(var).map(|d| d.ty),
        Operand::Imm(i) => Some(i.ty),
        _ => None,
    }
}

/// Type rules of ALU and control-flow instructions.
pub(super) fn alu(c: &mut Checker<'_>, inst: &Inst) {
    let op = inst.op;
    let m = inst.info().mnemonic;
    let types: Vec<Type> = inst.operands.iter().filter_map(|o| vtype(c, o)).collect();
    let preds = inst
        .operands
        .iter()
        .filter(|o| matches!(o, Operand::Pred(_)))
        .count();

    // A plain copy between 64-bit integer types is fine: GenX_IR splits it
    // into two 32-bit moves (measured on TGLLP).
    let int64_copy = op == Op::Mov && types.iter().all(|t| matches!(t, Type::UQ | Type::Q));
    if c.p.lacks_int64_alu() && !int64_copy && types.iter().any(|t| t.size() == 8) {
        c.err(
            Rule::Alu64,
            format!("`{m}` with a 64-bit operand on {}", c.p),
        );
    }
    match op {
        Op::And | Op::Or | Op::Xor | Op::Not if preds > 0 && preds != inst.operands.len() => {
            c.err(
                Rule::Types,
                format!("`{m}` mixes predicate and general operands"),
            );
        }
        Op::And | Op::Or | Op::Xor | Op::Not if preds > 0 => {}
        Op::Cmp | Op::Setp => {
            let dst_pred = matches!(inst.operands.first(), Some(Operand::Pred(_)));
            if op == Op::Setp && !dst_pred {
                c.err(Rule::Types, "`setp` writes a predicate");
            }
            if inst
                .operands
                .iter()
                .skip(1)
                .any(|o| matches!(o, Operand::Pred(_)))
            {
                c.err(Rule::Types, format!("`{m}` cannot read a predicate"));
            }
        }
        // A predicate's lane bits copied into a scalar (the ballot and active-mask sequences).
        Op::Mov
            if preds == 1
                && inst.exec.size.lanes() == 1
                && matches!(inst.operands.first(), Some(Operand::Dst { .. }))
                && types.iter().all(|t| matches!(t, Type::UD | Type::UW)) => {}
        _ if preds > 0 => c.err(Rule::Types, format!("`{m}` cannot take predicate operands")),
        _ => {}
    }
    if is_logic(op) && types.iter().any(|t| t.is_float()) {
        c.err(Rule::Types, format!("`{m}` takes integer operands"));
    }
    if op == Op::Inv && types.iter().any(|t| !t.is_float()) {
        c.err(Rule::Types, "`inv` takes float operands");
    }
    if matches!(op, Op::Addc | Op::Subb) && types.iter().any(|t| *t != Type::UD) {
        c.err(Rule::Types, format!("`{m}` takes ud operands"));
    }
    for o in &inst.operands {
        if let Operand::Src { modifier, .. } = o {
            let bad = match modifier {
                SrcMod::None => false,
                SrcMod::Not => !is_logic(op),
                _ => is_logic(op),
            };
            if bad {
                c.err(
                    Rule::Types,
                    format!("source modifier {} on `{m}`", modifier.prefix()),
                );
            }
        }
    }
    if op == Op::Jmp && inst.exec.size.lanes() != 1 {
        c.err(Rule::JmpScalar, "`jmp` must have exec size 1");
    }
}
