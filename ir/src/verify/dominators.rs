//! The control-flow graph and dominator tree of a function.
//!
//! Built for the verifier, public because later passes (legalization's
//! block splitting, instruction selection) need the same facts. The
//! computation is the simple iterative algorithm of Cooper, Harvey and
//! Kennedy over the reverse postorder: cheap for the small kernels atomc
//! compiles and easy to trust.
//!
//! It tolerates malformed functions: the graph's nodes are the blocks of
//! the layout that exist (each once), its edges come from the last
//! instruction of each block when that is a branch, and edges to blocks
//! that do not exist or are not in the layout are dropped. Nothing here
//! panics on out-of-range references.

use crate::{Block, Function};
use cranelift_entity::SecondaryMap;
use smallvec::SmallVec;

/// The successors of `block` in branch order (may repeat): the targets of
/// its last instruction if that is a branch. Targets that do not exist are
/// included; use [`DominatorTree`] for the cleaned-up graph.
pub fn successors(func: &Function, block: Block) -> SmallVec<[Block; 2]> {
    let last = func.blocks.get(block).and_then(|b| b.insts.last());
    match last.and_then(|&i| func.insts.get(i)) {
        Some(data) => data.branch_targets().iter().map(|c| c.block).collect(),
        None => SmallVec::new(),
    }
}

/// Immediate dominators of the blocks reachable from the entry block.
#[derive(Clone, Debug, Default)]
pub struct DominatorTree {
    /// Reachable blocks in reverse postorder; the entry block first.
    rpo: Vec<Block>,
    /// Position in `rpo`, `None` for unreachable blocks.
    rpo_index: SecondaryMap<Block, Option<u32>>,
    /// Immediate dominator; `None` for the entry and unreachable blocks.
    idom: SecondaryMap<Block, Option<Block>>,
    /// Predecessors among the reachable blocks, in discovery order.
    preds: SecondaryMap<Block, Vec<Block>>,
    /// Entry and exit numbers of a depth-first walk of the tree: `a` dominates `b` when `b`'s
    /// interval nests in `a`'s, a constant-time test where walking up from `b` costs the
    /// tree's depth (which grows with the code in a chain of blocks).
    interval: SecondaryMap<Block, (u32, u32)>,
}

impl DominatorTree {
    /// Computes the tree for `func` (empty if it has no entry block).
    pub fn compute(func: &Function) -> DominatorTree {
        let mut tree = DominatorTree::default();
        let mut in_layout: SecondaryMap<Block, bool> = SecondaryMap::new();
        for &b in &func.layout {
            if func.blocks.get(b).is_some() {
                in_layout[b] = true;
            }
        }
        let Some(entry) = func.layout.first().copied().filter(|&b| in_layout[b]) else {
            return tree;
        };
        let succs =
            |b: Block| -> SmallVec<[Block; 2]> { successors(func, b).into_iter().filter(|&s| in_layout[s]).collect() };

        // Postorder by an explicit stack: (block, next successor to visit).
        let mut visited: SecondaryMap<Block, bool> = SecondaryMap::new();
        let mut postorder = Vec::new();
        let mut stack = vec![(entry, succs(entry), 0usize)];
        visited[entry] = true;
        while let Some(top) = stack.last_mut() {
            match top.1.get(top.2).copied() {
                Some(s) => {
                    top.2 += 1;
                    if !visited[s] {
                        visited[s] = true;
                        stack.push((s, succs(s), 0));
                    }
                }
                None => {
                    postorder.push(top.0);
                    stack.pop();
                }
            }
        }
        tree.rpo = postorder.into_iter().rev().collect();
        for (i, &b) in tree.rpo.iter().enumerate() {
            tree.rpo_index[b] = Some(i as u32);
        }
        for &b in &tree.rpo {
            for s in succs(b) {
                if !tree.preds[s].contains(&b) {
                    tree.preds[s].push(b);
                }
            }
        }

        // Iterate to the fixed point; `idom[entry] = entry` during the
        // computation so that intersections terminate there.
        tree.idom[entry] = Some(entry);
        let mut changed = true;
        while changed {
            changed = false;
            for &b in tree.rpo.iter().skip(1) {
                let mut new_idom: Option<Block> = None;
                for &p in &tree.preds[b] {
                    if tree.idom[p].is_none() {
                        continue;
                    }
                    new_idom = Some(match new_idom {
                        None => p,
                        Some(cur) => tree.intersect(cur, p),
                    });
                }
                if new_idom.is_some() && tree.idom[b] != new_idom {
                    tree.idom[b] = new_idom;
                    changed = true;
                }
            }
        }
        tree.idom[entry] = None;

        let mut children: SecondaryMap<Block, Vec<Block>> = SecondaryMap::new();
        for &b in tree.rpo.iter().skip(1) {
            if let Some(d) = tree.idom[b] {
                children[d].push(b);
            }
        }
        // Numbers start at 1: a block the walk never reached keeps (0, 0) and dominates nothing.
        let mut clock = 1u32;
        let mut stack = vec![(entry, 0usize)];
        tree.interval[entry].0 = clock;
        while let Some(top) = stack.last_mut() {
            let (b, next) = *top;
            match children[b].get(next).copied() {
                Some(c) => {
                    top.1 += 1;
                    clock += 1;
                    tree.interval[c].0 = clock;
                    stack.push((c, 0));
                }
                None => {
                    clock += 1;
                    tree.interval[b].1 = clock;
                    stack.pop();
                }
            }
        }
        tree
    }

    /// Walks both blocks up the (partial) tree to their common ancestor.
    fn intersect(&self, mut a: Block, mut b: Block) -> Block {
        let index = |x: Block| self.rpo_index[x].unwrap_or(0);
        while a != b {
            while index(a) > index(b) {
                match self.idom[a] {
                    Some(up) if up != a => a = up,
                    _ => return a,
                }
            }
            while index(b) > index(a) {
                match self.idom[b] {
                    Some(up) if up != b => b = up,
                    _ => return b,
                }
            }
        }
        a
    }

    /// Reachable blocks in reverse postorder, the entry block first.
    pub fn rpo(&self) -> &[Block] {
        &self.rpo
    }

    /// Whether `block` is reachable from the entry block.
    pub fn is_reachable(&self, block: Block) -> bool {
        self.rpo_index[block].is_some()
    }

    /// The immediate dominator of `block`; `None` for the entry block and
    /// for unreachable blocks.
    pub fn idom(&self, block: Block) -> Option<Block> {
        self.idom[block]
    }

    /// The reachable predecessors of `block` (each once).
    pub fn preds(&self, block: Block) -> &[Block] {
        &self.preds[block]
    }

    /// Whether `a` dominates `b` (every block dominates itself). `false`
    /// when either block is unreachable.
    pub fn dominates(&self, a: Block, b: Block) -> bool {
        if !self.is_reachable(a) || !self.is_reachable(b) {
            return false;
        }
        let (ia, ib) = (self.interval[a], self.interval[b]);
        a == b || (ib.0 > 0 && ia.0 <= ib.0 && ib.1 <= ia.1)
    }
}
