//! `sub x` → `add (ineg x)` and `fsub x` → `fadd (fneg x)` where the table says so
//! ([`Lowering::NegateToAdd`]). No target has a SUB atomic; two's-complement add of the
//! negation is the same operation. No target has a float SUB atomic either, and in IEEE
//! arithmetic `old - x` and `old + (-x)` are one value under round to nearest even: the same
//! exact sum is rounded once, `+0 - +0` and `+0 + -0` are both `+0`, `-0 - +0` and `-0 + -0`
//! both `-0`, and a NaN operand or `inf - inf` gives a NaN either way. The negation flips the
//! sign bit only (`fneg`; for packed floats, whose lanes `fneg` does not take, an `xor` of both
//! lanes' sign bits on the word), so no NaN payload or subnormal is touched before the add.

use super::{atomic_key, edit};
use crate::caps::{Lowering, TargetCaps};
use atomc_ir::{BinaryOp, ConvOp, Function, Inst, InstData, RmwOp, Type, UnaryOp, Value};

/// Rewrites in place; returns how many were rewritten.
pub fn run(func: &mut Function, caps: &TargetCaps) -> usize {
    let mut count = 0;
    edit::rewrite(func, |func, inst, splice| {
        let Some((kind, ty, space)) = atomic_key(func, &func.insts[inst]) else { return };
        if caps.lookup(kind, ty, space).lowering != Lowering::NegateToAdd {
            return;
        }
        let (from, arg) = match &func.insts[inst] {
            InstData::AtomicRmw { op, arg, .. } | InstData::SurfaceRmw { op, arg, .. } => (*op, *arg),
            _ => return,
        };
        let (add, neg) = match from {
            RmwOp::Sub => (RmwOp::Add, ineg(func, splice, inst, arg)),
            RmwOp::Fsub => (RmwOp::Fadd, fneg(func, splice, inst, ty, arg)),
            _ => return,
        };
        match &mut func.insts[inst] {
            InstData::AtomicRmw { op, arg, .. } | InstData::SurfaceRmw { op, arg, .. } => {
                *op = add;
                *arg = neg;
            }
            _ => unreachable!("matched above"),
        }
        count += 1;
    });
    count
}

fn ineg(func: &mut Function, splice: &mut edit::Splice, at: Inst, arg: Value) -> Value {
    splice.before(func, at, InstData::Unary { op: UnaryOp::Ineg, arg }).expect("ineg has a result")
}

/// `-x` for a float type: `fneg` for scalars; for a packed pair, the word with both sign bits
/// flipped (`bitcast.i32`, `bxor` with `0x80008000`, `bitcast` back).
fn fneg(func: &mut Function, splice: &mut edit::Splice, at: Inst, ty: Type, arg: Value) -> Value {
    let mut ins = |func: &mut Function, data| splice.before(func, at, data).expect("has a result");
    if !ty.is_packed_float() {
        return ins(func, InstData::Unary { op: UnaryOp::Fneg, arg });
    }
    let word = ins(func, InstData::Convert { op: ConvOp::Bitcast, to: Type::I32, arg });
    let signs = ins(func, InstData::Iconst { ty: Type::I32, imm: 0x8000_8000u32 as i32 as i64 });
    let flipped = ins(func, InstData::Binary { op: BinaryOp::Bxor, args: [word, signs] });
    ins(func, InstData::Convert { op: ConvOp::Bitcast, to: ty, arg: flipped })
}
