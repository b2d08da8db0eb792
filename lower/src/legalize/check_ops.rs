//! Rejects every bit op, `fma`, multiply-high or subgroup instruction the target's
//! [`crate::caps_ops`] table does not mark native, all at once, each naming the op, the
//! type, the target and the location.

use super::Unsupported;
use crate::caps::TargetCaps;
use crate::caps_ops::{lookup, op_key, OpLowering};
use atomc_ir::Function;

/// Every refused instruction of `func`.
pub fn run(func: &Function, caps: &TargetCaps) -> Vec<Unsupported> {
    let mut errors = Vec::new();
    for (_, inst) in func.inst_order() {
        let Some((kind, ty)) = op_key(func, &func.insts[inst]) else { continue };
        if let OpLowering::Unsupported(reason) = lookup(caps.name, kind, ty) {
            errors.push(Unsupported {
                target: caps.name,
                op: kind.describe(),
                ty: ty.to_string(),
                space: String::new(),
                reason,
                loc: func.inst_locs[inst],
            });
        }
    }
    errors
}
