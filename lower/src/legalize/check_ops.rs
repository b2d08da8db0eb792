//! Rejects every bit op, `fma`, multiply-high or subgroup instruction the target's
//! [`crate::caps_ops`] table does not mark native, all at once, each naming the op, the
//! type, the target and the location.

use super::Unsupported;
use crate::caps::TargetCaps;
use crate::caps_ops::{lookup, op_key, OpLowering};
use atomc_ir::{Block, Function};

/// Every refused instruction of `func`.
pub fn run(func: &Function, caps: &TargetCaps) -> Vec<Unsupported> {
    let mut errors = Vec::new();
    let mut after_loop = None;
    for (block, inst) in func.inst_order() {
        let Some((kind, ty)) = op_key(func, &func.insts[inst]) else { continue };
        let refusal = match lookup(caps.name, kind, ty) {
            OpLowering::Native => None,
            OpLowering::Unsupported(reason) => Some(reason),
            OpLowering::NativeOutsideLoops(reason) => {
                let reached = after_loop.get_or_insert_with(|| reached_from_loops(func));
                reached.contains(&block).then_some(reason)
            }
        };
        if let Some(reason) = refusal {
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

/// The blocks a loop can reach: the blocks of every cycle and everything after them.
fn reached_from_loops(func: &Function) -> std::collections::HashSet<Block> {
    use atomc_ir::verify::dominators::successors;
    // A block is in a cycle when it reaches itself; the blocks reached from such a block are
    // the answer. Kernels are small enough for a search per block.
    let mut reached = std::collections::HashSet::new();
    for &start in &func.layout {
        if reached.contains(&start) {
            continue;
        }
        let mut seen = std::collections::HashSet::new();
        let mut work: Vec<Block> = successors(func, start).to_vec();
        let mut cyclic = false;
        while let Some(b) = work.pop() {
            if b == start {
                cyclic = true;
            }
            if seen.insert(b) {
                work.extend(successors(func, b));
            }
        }
        if cyclic {
            reached.extend(seen);
        }
    }
    reached
}
