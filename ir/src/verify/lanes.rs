//! Operand types of the bit-field ops, `fma` and the subgroup instructions
//! (see the rules `bitfield-operand-type`, `subgroup-pred-type`,
//! `subgroup-value-type`, `shuffle-lane-type` and `reduce-type`).
//!
//! Operands that do not exist are skipped here (the SSA rules report them).

use super::Ctx;
use crate::{Inst, InstData, TernaryOp, Type, Value, VoteOp};

pub(super) fn check(cx: &mut Ctx, inst: Inst, data: &InstData) {
    match data {
        InstData::Ternary { op: TernaryOp::Fma, args } => {
            // One error per cause, as for binary ops: a wrong kind, else a mismatch.
            let before = cx.errors();
            kinds(cx, inst, "fma", args, Type::is_float, "float-op-type", "a scalar float type");
            if cx.errors() == before {
                same(cx, inst, args);
            }
        }
        InstData::Ternary { op, args: [x, pos, len] } => {
            kinds(cx, inst, op.name(), &[*x], Type::is_int, "int-op-type", "an integer type");
            i32s(cx, inst, "bitfield-operand-type", &[("position", *pos), ("length", *len)]);
        }
        InstData::Bfi { args: [x, base, pos, len] } => {
            let before = cx.errors();
            kinds(cx, inst, "bfi", &[*x, *base], Type::is_int, "int-op-type", "an integer type");
            if cx.errors() == before {
                same(cx, inst, &[*x, *base]);
            }
            i32s(cx, inst, "bitfield-operand-type", &[("position", *pos), ("length", *len)]);
        }
        InstData::Ballot { cond } => pred(cx, inst, "ballot", *cond),
        InstData::Vote { op: op @ (VoteOp::Any | VoteOp::All), arg } => pred(cx, inst, op.name(), *arg),
        InstData::Vote { op: VoteOp::Eq, arg } => {
            if cx.ty(*arg) == Some(Type::Surface) {
                cx.error_on(inst, *arg, "subgroup-value-type", format!("vote_eq compares values, not surface handles ({arg})"));
            }
        }
        InstData::Shuffle { args: [x, lane], .. } => {
            value(cx, inst, "shuffle", *x);
            i32s(cx, inst, "shuffle-lane-type", &[("lane operand", *lane)]);
        }
        InstData::MatchAny { arg } => value(cx, inst, "match_any", *arg),
        InstData::Reduce { op, arg } => {
            if let Some(t) = cx.ty(*arg) {
                if !t.is_int() {
                    cx.error_on(inst, *arg, "reduce-type", format!("reduce {op} needs an integer, got {arg}: {t}"));
                }
            }
        }
        _ => {}
    }
}

/// Every operand has the first one's type.
fn same(cx: &mut Ctx, inst: Inst, args: &[Value]) {
    let Some(first) = cx.ty(args[0]) else { return };
    for &a in &args[1..] {
        if let Some(t) = cx.ty(a) {
            if t != first {
                let msg = format!("the operands must have one type, got {}: {first} and {a}: {t}", args[0]);
                cx.error_on(inst, a, "operand-type-mismatch", msg);
                return;
            }
        }
    }
}

/// Each distinct operand type satisfies `ok`, else one `rule` error.
fn kinds(cx: &mut Ctx, inst: Inst, name: &str, args: &[Value], ok: fn(Type) -> bool, rule: &'static str, want: &str) {
    let mut seen = smallvec::SmallVec::<[Type; 4]>::new();
    for &a in args {
        if let Some(t) = cx.ty(a) {
            if !seen.contains(&t) {
                seen.push(t);
                if !ok(t) {
                    cx.error_on(inst, a, rule, format!("{name} needs {want}, got {a}: {t}"));
                }
            }
        }
    }
}

fn i32s(cx: &mut Ctx, inst: Inst, rule: &'static str, named: &[(&str, Value)]) {
    for &(what, v) in named {
        if let Some(t) = cx.ty(v) {
            if t != Type::I32 {
                cx.error_on(inst, v, rule, format!("the {what} must be an i32, got {v}: {t}"));
            }
        }
    }
}

fn pred(cx: &mut Ctx, inst: Inst, name: &str, v: Value) {
    if let Some(t) = cx.ty(v) {
        if t != Type::Pred {
            cx.error_on(inst, v, "subgroup-pred-type", format!("{name} needs a pred, got {v}: {t}"));
        }
    }
}

/// A value a lane can pass to another: an integer, float, packed float or pointer.
fn value(cx: &mut Ctx, inst: Inst, name: &str, v: Value) {
    if let Some(t) = cx.ty(v) {
        if !(t.is_int() || t.is_float() || t.is_packed_float() || t.is_ptr()) {
            let msg = format!("{name} needs an integer, float, packed float or pointer, got {v}: {t}");
            cx.error_on(inst, v, "subgroup-value-type", msg);
        }
    }
}
