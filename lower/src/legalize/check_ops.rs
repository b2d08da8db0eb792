//! Rejects every bit op, `fma`, multiply-high or subgroup instruction the target's
//! [`crate::caps_ops`] table does not mark native, all at once, each naming the op, the
//! type, the target and the location.

use super::Unsupported;
use crate::caps::TargetCaps;
use crate::caps_ops::{lookup, op_key, OpLowering};
use crate::subgroup_sync::SyncPlan;
use atomc_ir::{Function, Inst};

/// Every refused instruction of `func`.
pub fn run(func: &Function, caps: &TargetCaps) -> Vec<Unsupported> {
    refusals(func, caps, |_, lowering| match lowering {
        OpLowering::Unsupported(reason) => Some(reason),
        OpLowering::Native | OpLowering::NativeWhereConverged(_) | OpLowering::FromI32 => None,
    })
}

/// Every subgroup instruction marked [`OpLowering::NativeWhereConverged`] whose lanes have no
/// place to be brought together at. Runs after the CAS-loop pass: its loops count too.
pub fn unconverged(func: &Function, caps: &TargetCaps) -> Vec<Unsupported> {
    let mut plan = None;
    refusals(func, caps, |inst, lowering| match lowering {
        OpLowering::NativeWhereConverged(reason) => {
            let plan = plan.get_or_insert_with(|| SyncPlan::for_target(func, caps.subgroup_meeting));
            plan.unplaceable.contains(&inst).then_some(reason)
        }
        _ => None,
    })
}

fn refusals(
    func: &Function,
    caps: &TargetCaps,
    mut refuse: impl FnMut(Inst, OpLowering) -> Option<&'static str>,
) -> Vec<Unsupported> {
    let mut errors = Vec::new();
    for (_, inst) in func.inst_order() {
        let Some((kind, ty)) = op_key(func, &func.insts[inst]) else { continue };
        if let Some(reason) = refuse(inst, lookup(caps.ops, kind, ty)) {
            errors.push(Unsupported {
                target: caps.name,
                op: kind.describe(),
                ty: ty.to_string(),
                space: String::new(),
                reason,
                loc: func.inst_locs[inst],
                inst,
            });
        }
    }
    errors
}
