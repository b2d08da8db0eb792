//! `atomic_rmw sub x` → `atomic_rmw add (ineg x)` where the table says so
//! (no target has a SUB atomic; two's-complement add of the negation is
//! the same operation).

use super::{atomic_key, edit};
use crate::caps::{Lowering, TargetCaps};
use atomc_ir::{Function, InstData, RmwOp, UnaryOp};

/// Rewrites in place; returns how many were rewritten.
pub fn run(func: &mut Function, caps: &TargetCaps) -> usize {
    let mut count = 0;
    edit::rewrite(func, |func, inst, splice| {
        let Some((kind, ty, space)) = atomic_key(func, &func.insts[inst]) else { return };
        if caps.lookup(kind, ty, space).lowering != Lowering::NegateToAdd {
            return;
        }
        let arg = match &func.insts[inst] {
            InstData::AtomicRmw { arg, .. } | InstData::SurfaceRmw { arg, .. } => *arg,
            _ => return,
        };
        let neg = splice.before(func, inst, InstData::Unary { op: UnaryOp::Ineg, arg });
        match &mut func.insts[inst] {
            InstData::AtomicRmw { op, arg, .. } | InstData::SurfaceRmw { op, arg, .. } => {
                *op = RmwOp::Add;
                *arg = neg.expect("ineg has a result");
            }
            _ => unreachable!("matched above"),
        }
        count += 1;
    });
    count
}
