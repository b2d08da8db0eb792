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

/// The blocks a loop can reach: the blocks of every cycle and everything after them. Every cycle
/// has an edge to a block no later in reverse postorder than its source; the targets of such
/// edges lie on their cycles, and one search from all of them finds the rest (linear time).
fn reached_from_loops(func: &Function) -> std::collections::HashSet<Block> {
    use atomc_ir::verify::dominators::{successors, DominatorTree};
    let dom = DominatorTree::compute(func);
    let rpo = dom.rpo();
    let index: std::collections::HashMap<Block, usize> = rpo.iter().enumerate().map(|(i, &b)| (b, i)).collect();
    let mut work: Vec<Block> = Vec::new();
    for (i, &b) in rpo.iter().enumerate() {
        work.extend(successors(func, b).into_iter().filter(|s| index.get(s).is_some_and(|&j| j <= i)));
    }
    let mut reached = std::collections::HashSet::new();
    while let Some(b) = work.pop() {
        if reached.insert(b) {
            work.extend(successors(func, b));
        }
    }
    reached
}
