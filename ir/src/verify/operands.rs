//! Operand types of the non-memory instructions: constants, arithmetic,
//! comparisons, `select`, conversions, pointer arithmetic, `brif`.
//!
//! Operands that do not exist are skipped here (the SSA rules report them).

use super::Ctx;
use crate::{AddrSpace, ConvOp, Inst, InstData, Type, Value};

pub(super) fn check(cx: &mut Ctx, inst: Inst, data: &InstData) {
    match data {
        InstData::Iconst { ty, imm } => check_iconst(cx, inst, *ty, *imm),
        InstData::Fconst { ty, bits } => check_fconst(cx, inst, *ty, *bits),
        InstData::Unary { op, arg } => check_arith(cx, inst, op.is_float(), op.name(), &[*arg]),
        // One error per cause: an operand of the wrong kind (`iadd` of an `f32`) is that
        // rule's error alone, not also an `operand-type-mismatch`.
        InstData::Binary { op, args } => {
            let before = cx.errors();
            check_arith(cx, inst, op.is_float(), op.name(), args);
            if cx.errors() == before {
                check_same(cx, inst, "operands", args);
            }
        }
        InstData::Icmp { args, .. } => {
            let before = cx.errors();
            for (a, t) in distinct_types(cx, args) {
                if !t.is_int() && !t.is_ptr() {
                    cx.error_on(inst, a, "icmp-type", format!("icmp compares integers or pointers, got {a}: {t}"));
                }
            }
            if cx.errors() == before {
                check_same(cx, inst, "operands", args);
            }
        }
        InstData::Fcmp { args, .. } => {
            let before = cx.errors();
            for (a, t) in distinct_types(cx, args) {
                if !t.is_float() {
                    cx.error_on(inst, a, "fcmp-type", format!("fcmp compares scalar floats, got {a}: {t}"));
                }
            }
            if cx.errors() == before {
                check_same(cx, inst, "operands", args);
            }
        }
        InstData::Select { cond, args } => {
            check_pred(cx, inst, "select-cond-type", "the select condition", *cond);
            check_same(cx, inst, "arms", args);
        }
        InstData::Convert { op, to, arg } => {
            if let Some(from) = cx.ty(*arg) {
                if let Err(why) = conversion(*op, from, *to) {
                    cx.error_on(inst, *arg, "convert-type", format!("{} from {from} to {to}: {why}", op.name()));
                }
            }
        }
        InstData::PtrAdd { ptr, offset } => {
            if let Some(t) = cx.ty(*ptr) {
                if !t.is_ptr() {
                    cx.error_on(inst, *ptr, "ptr-add-type", format!("ptr_add needs a pointer, got {ptr}: {t}"));
                }
            }
            if let Some(t) = cx.ty(*offset) {
                if t != Type::I32 && t != Type::I64 {
                    let msg = format!("the ptr_add offset must be i32 or i64, got {offset}: {t}");
                    cx.error_on(inst, *offset, "ptr-add-type", msg);
                }
            }
        }
        InstData::PtrToGeneric { ptr } => {
            if let Some(t) = cx.ty(*ptr) {
                if !matches!(t, Type::Ptr(AddrSpace::Global | AddrSpace::Shared)) {
                    let msg = format!("ptr_to_generic needs a ptr.global or ptr.shared, got {ptr}: {t}");
                    cx.error_on(inst, *ptr, "ptr-to-generic-type", msg);
                }
            }
        }
        InstData::Brif { cond, .. } => check_pred(cx, inst, "brif-cond-type", "the brif condition", *cond),
        _ => {}
    }
}

fn check_iconst(cx: &mut Ctx, inst: Inst, ty: Type, imm: i64) {
    if !ty.is_int() {
        cx.error(inst, "const-type", format!("iconst needs an integer type, got {ty}"));
        return;
    }
    let shift = 64 - ty.bits();
    if (imm << shift) >> shift != imm {
        let msg = format!("{imm} does not fit {ty} (immediates are stored sign-extended from the type's width)");
        cx.error(inst, "const-range", msg);
    }
}

fn check_fconst(cx: &mut Ctx, inst: Inst, ty: Type, bits: u64) {
    if !ty.is_float() {
        cx.error(inst, "const-type", format!("fconst needs a scalar float type, got {ty}"));
        return;
    }
    if ty.bits() < 64 && bits >> ty.bits() != 0 {
        cx.error(inst, "const-range", format!("bit pattern {bits:#x} is wider than {ty}"));
    }
}

/// Integer ops need integer operands, float ops scalar float operands.
fn check_arith(cx: &mut Ctx, inst: Inst, float: bool, name: &str, args: &[Value]) {
    for (a, t) in distinct_types(cx, args) {
        if float && !t.is_float() {
            cx.error_on(inst, a, "float-op-type", format!("{name} needs a scalar float type, got {a}: {t}"));
        } else if !float && !t.is_int() {
            cx.error_on(inst, a, "int-op-type", format!("{name} needs an integer type, got {a}: {t}"));
        }
    }
}

/// The operands whose type differs from every earlier operand's (so that
/// `iadd v0, v0` on a float reports once), skipping values that do not exist. Inline: it runs
/// for every arithmetic instruction, twice per compile.
fn distinct_types(cx: &Ctx, args: &[Value]) -> smallvec::SmallVec<[(Value, Type); 4]> {
    let mut out = smallvec::SmallVec::<[(Value, Type); 4]>::new();
    for &a in args {
        if let Some(t) = cx.ty(a) {
            if out.iter().all(|&(_, seen)| seen != t) {
                out.push((a, t));
            }
        }
    }
    out
}

/// Both operands (or arms) have one type.
fn check_same(cx: &mut Ctx, inst: Inst, what: &str, [a, b]: &[Value; 2]) {
    if let (Some(ta), Some(tb)) = (cx.ty(*a), cx.ty(*b)) {
        if ta != tb {
            let msg = format!("the {what} must have one type, got {a}: {ta} and {b}: {tb}");
            cx.error_on(inst, *b, "operand-type-mismatch", msg);
        }
    }
}

fn check_pred(cx: &mut Ctx, inst: Inst, rule: &'static str, what: &str, cond: Value) {
    if let Some(t) = cx.ty(cond) {
        if t != Type::Pred {
            cx.error_on(inst, cond, rule, format!("{what} must be a pred, got {cond}: {t}"));
        }
    }
}

/// Whether `op` converts `from` to `to`; the reason if not.
fn conversion(op: ConvOp, from: Type, to: Type) -> Result<(), &'static str> {
    let ok = |cond: bool, why: &'static str| if cond { Ok(()) } else { Err(why) };
    match op {
        ConvOp::Uextend | ConvOp::Sextend => {
            ok(from.is_int() && to.is_int() && to.bits() > from.bits(), "needs an integer to a strictly wider integer")
        }
        ConvOp::Ireduce => ok(
            from.is_int() && to.is_int() && to.bits() < from.bits(),
            "needs an integer to a strictly narrower integer",
        ),
        ConvOp::Fpromote => ok(
            from.is_float() && to.is_float() && to.bits() > from.bits(),
            "needs a scalar float to a strictly wider scalar float",
        ),
        ConvOp::Fdemote => ok(
            from.is_float() && to.is_float() && to.bits() < from.bits(),
            "needs a scalar float to a strictly narrower scalar float",
        ),
        ConvOp::FcvtToSint | ConvOp::FcvtToUint => {
            ok(from.is_float() && to.is_int(), "needs a scalar float to an integer")
        }
        ConvOp::FcvtFromSint | ConvOp::FcvtFromUint => {
            ok(from.is_int() && to.is_float(), "needs an integer to a scalar float")
        }
        ConvOp::Bitcast => {
            if from == Type::Pred || to == Type::Pred {
                Err("pred has no bit representation to reinterpret")
            } else {
                ok(from.bits() == to.bits(), "needs two types of the same width")
            }
        }
    }
}
