//! Rejects every atomic the target's capability table marks unsupported,
//! all at once, each naming the op, the type, the space and the target.

use super::{atomic_key, Unsupported};
use crate::caps::{Lowering, TargetCaps};
use atomc_ir::Function;

/// Returns every unsupported atomic in `func`.
pub fn run(func: &Function, caps: &TargetCaps) -> Result<(), Vec<Unsupported>> {
    let mut errors = Vec::new();
    for (_, inst) in func.inst_order() {
        let Some((kind, ty, space)) = atomic_key(func, &func.insts[inst]) else { continue };
        let clamp = match &func.insts[inst] {
            atomc_ir::InstData::SurfaceRmw { access, .. } | atomc_ir::InstData::SurfaceCas { access, .. } => {
                Some(caps.lookup_clamp(access.clamp).lowering)
            }
            _ => None,
        };
        let refused = match (caps.lowering(kind, ty, space), clamp) {
            (Lowering::Unsupported(r), _) | (_, Some(Lowering::Unsupported(r))) => Some(r),
            _ => None,
        };
        if let Some(reason) = refused {
            errors.push(Unsupported {
                target: caps.name,
                op: kind.describe(),
                ty: ty.to_string(),
                space: space.map(|s| format!(" in {} memory", s.name())).unwrap_or_default(),
                reason,
                loc: func.inst_locs[inst],
                inst,
            });
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}
