//! Memory order → fences. An atomic with order `o` and scope `s` becomes
//! `fence before(o) s; <atomic> relaxed s; fence after(o) s` with the
//! fences the target's table gives ([`TargetCaps::fences_for`]). This is
//! how ptxas realises orders on both Maxwell (MEMBAR) and Hopper
//! (MEMBAR.ALL before a release, CCTL.IVALL after an acquire; reference
//! §3.3), and how IGC places vISA fences; the instruction selectors then
//! translate each IR fence on its own.

use super::edit;
use crate::caps::TargetCaps;
use atomc_ir::{Function, InstData, MemOrder};

/// Rewrites in place; returns how many fences were inserted.
pub fn run(func: &mut Function, caps: &TargetCaps) -> usize {
    let mut count = 0;
    edit::rewrite(func, |func, inst, splice| {
        let (order, scope) = match &mut func.insts[inst] {
            InstData::AtomicRmw { order, scope, .. }
            | InstData::AtomicCas { order, scope, .. }
            | InstData::AtomicLoad { order, scope, .. }
            | InstData::AtomicStore { order, scope, .. }
            | InstData::SurfaceRmw { order, scope, .. }
            | InstData::SurfaceCas { order, scope, .. } => {
                let found = (*order, *scope);
                *order = MemOrder::Relaxed;
                found
            }
            _ => return,
        };
        let fences = caps.fences_for(order);
        if let Some(before) = fences.before {
            splice.before(func, inst, InstData::Fence { order: before, scope });
            count += 1;
        }
        if let Some(after) = fences.after {
            splice.after(func, inst, InstData::Fence { order: after, scope });
            count += 1;
        }
    });
    count
}
