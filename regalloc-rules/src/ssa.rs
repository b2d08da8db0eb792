//! The checks of regalloc2's `validate_ssa`, in time linear in the function.
//!
//! regalloc2 answers "does the defining block dominate the using one" by walking the
//! immediate-dominator chain up from the use, which costs the depth of the dominator tree: in a
//! kernel of many blocks in sequence (one diamond after another) a value defined at the top and
//! used all the way down makes that quadratic. Here the dominator tree is numbered once (pre- and
//! post-order of a walk over it), so each question is two comparisons. The errors are the ones
//! regalloc2 reports, for the same inputs: more than one definition or a use its definition does
//! not reach is `SSA`, a misplaced or missing terminator `BB`, an argument count that does not
//! match the successor's parameters `Branch`. The critical-edge and branch-argument rules
//! (`CritEdge`, `DisallowedBranchArg`) are checked first, as regalloc2 checks them before the rest.

use regalloc2 as ra2;
use regalloc2::{Block, Function, Inst, OperandKind, RegAllocError};

/// Validate `f` as regalloc2's `validate_ssa` (and its CFG checks) would.
pub(crate) fn validate<F: Function>(f: &F) -> Result<(), RegAllocError> {
    let nb = f.num_blocks();
    let entry = f.entry_block();
    cfg_rules(f)?;

    // Every value defined once.
    let mut defined_in = vec![Block::invalid(); f.num_vregs()];
    for b in 0..nb {
        let block = Block::new(b);
        let mut def = |v: ra2::VReg, inst: Inst| {
            match defined_in.get_mut(v.vreg()) {
                Some(d) if !d.is_valid() => *d = block,
                _ => return Err(RegAllocError::SSA(v, inst)),
            }
            Ok(())
        };
        for &p in f.block_params(block) {
            def(p, Inst::invalid())?;
        }
        for inst in f.block_insns(block).iter() {
            for op in f.inst_operands(inst) {
                if op.kind() == OperandKind::Def {
                    def(op.vreg(), inst)?;
                }
            }
        }
    }

    // Uses: earlier in the same block, or defined in a block that dominates this one.
    let dom = Dominators::new(f);
    let mut local = vec![false; f.num_vregs()];
    let mut set: Vec<usize> = Vec::new();
    for b in 0..nb {
        let block = Block::new(b);
        for v in set.drain(..) {
            local[v] = false;
        }
        for &p in f.block_params(block) {
            local[p.vreg()] = true;
            set.push(p.vreg());
        }
        for inst in f.block_insns(block).iter() {
            let ops = f.inst_operands(inst);
            for op in ops {
                if op.as_fixed_nonallocatable().is_some() || op.kind() != OperandKind::Use {
                    continue;
                }
                let v = op.vreg();
                let d = defined_in[v.vreg()];
                let ok = d.is_valid()
                    && if d == block {
                        local[v.vreg()]
                    } else {
                        dom.dominates(d, block)
                    };
                if !ok {
                    return Err(RegAllocError::SSA(v, inst));
                }
            }
            for op in ops {
                if op.kind() == OperandKind::Def {
                    local[op.vreg().vreg()] = true;
                    set.push(op.vreg().vreg());
                }
            }
        }
    }

    // Terminators and branch arguments.
    for b in 0..nb {
        let block = Block::new(b);
        let insns = f.block_insns(block);
        for inst in insns.iter() {
            if inst == insns.last() {
                if !(f.is_branch(inst) || f.is_ret(inst)) {
                    return Err(RegAllocError::BB(block));
                }
                if f.is_branch(inst) {
                    for (k, &succ) in f.block_succs(block).iter().enumerate() {
                        if f.block_params(succ).len() != f.branch_blockparams(block, inst, k).len()
                        {
                            return Err(RegAllocError::Branch(inst));
                        }
                    }
                }
            } else if f.is_branch(inst) || f.is_ret(inst) {
                return Err(RegAllocError::BB(block));
            }
        }
    }
    if !f.block_params(entry).is_empty() {
        return Err(RegAllocError::BB(entry));
    }
    Ok(())
}

/// regalloc2's CFG rules, in its order: no critical edge, and no operands on a branch into a
/// block of several predecessors.
fn cfg_rules<F: Function>(f: &F) -> Result<(), RegAllocError> {
    let entry = f.entry_block();
    let preds = |b: Block| f.block_preds(b).len() + usize::from(b == entry);
    for b in 0..f.num_blocks() {
        let block = Block::new(b);
        if preds(block) > 1 {
            for &p in f.block_preds(block) {
                if f.block_succs(p).len() > 1 {
                    return Err(RegAllocError::CritEdge(p, block));
                }
            }
        }
        if f.block_succs(block).iter().any(|&s| preds(s) > 1) {
            let last = f.block_insns(block).last();
            if !f.inst_operands(last).is_empty() {
                return Err(RegAllocError::DisallowedBranchArg(last));
            }
        }
    }
    Ok(())
}

/// The dominator tree (Cooper, Harvey and Kennedy's iteration over reverse postorder), numbered
/// by a walk over it so that `a` dominates `b` exactly when `b`'s interval lies in `a`'s.
struct Dominators {
    /// Per block: (preorder, postorder) number in the dominator tree; (0, 0) when unreachable.
    interval: Vec<(u32, u32)>,
}

impl Dominators {
    fn new<F: Function>(f: &F) -> Dominators {
        let nb = f.num_blocks();
        let entry = f.entry_block().index();
        // Reverse postorder of the reachable blocks.
        let mut post = Vec::with_capacity(nb);
        let mut seen = vec![false; nb];
        let mut stack = vec![(entry, 0usize)];
        seen[entry] = true;
        while let Some(&mut (b, ref mut next)) = stack.last_mut() {
            let succs = f.block_succs(Block::new(b));
            if let Some(&s) = succs.get(*next) {
                *next += 1;
                if !seen[s.index()] {
                    seen[s.index()] = true;
                    stack.push((s.index(), 0));
                }
            } else {
                post.push(b);
                stack.pop();
            }
        }
        const NONE: u32 = u32::MAX;
        let mut rpo_num = vec![NONE; nb];
        for (k, &b) in post.iter().rev().enumerate() {
            rpo_num[b] = k as u32;
        }
        let mut idom = vec![NONE; nb];
        idom[entry] = entry as u32;
        let mut changed = true;
        while changed {
            changed = false;
            for &b in post.iter().rev().skip(1) {
                let mut new = NONE;
                for &p in f.block_preds(Block::new(b)) {
                    let p = p.index();
                    if idom[p] == NONE {
                        continue;
                    }
                    new = if new == NONE {
                        p as u32
                    } else {
                        intersect(&idom, &rpo_num, new, p as u32)
                    };
                }
                if new != NONE && idom[b] != new {
                    idom[b] = new;
                    changed = true;
                }
            }
        }
        // Children lists, then a walk numbering each block on entry and exit.
        let mut child_start = vec![0u32; nb + 1];
        for &b in &post {
            if b != entry {
                child_start[idom[b] as usize + 1] += 1;
            }
        }
        for k in 0..nb {
            child_start[k + 1] += child_start[k];
        }
        let mut fill = child_start.clone();
        let mut children = vec![0u32; post.len().saturating_sub(1)];
        for &b in post.iter().rev() {
            if b != entry {
                let p = idom[b] as usize;
                children[fill[p] as usize] = b as u32;
                fill[p] += 1;
            }
        }
        let mut interval = vec![(0u32, 0u32); nb];
        let mut clock = 1u32;
        let mut walk = vec![(entry, child_start[entry])];
        interval[entry].0 = clock;
        while let Some(&mut (b, ref mut next)) = walk.last_mut() {
            if *next < child_start[b + 1] {
                let c = children[*next as usize] as usize;
                *next += 1;
                clock += 1;
                interval[c].0 = clock;
                walk.push((c, child_start[c]));
            } else {
                clock += 1;
                interval[b].1 = clock;
                walk.pop();
            }
        }
        Dominators { interval }
    }

    /// Whether `a` dominates `b` (both reachable; every block dominates itself).
    fn dominates(&self, a: Block, b: Block) -> bool {
        let (ia, ib) = (self.interval[a.index()], self.interval[b.index()]);
        ia.0 > 0 && ib.0 > 0 && ia.0 <= ib.0 && ib.1 <= ia.1
    }
}

fn intersect(idom: &[u32], rpo_num: &[u32], mut a: u32, mut b: u32) -> u32 {
    while a != b {
        while rpo_num[a as usize] > rpo_num[b as usize] {
            a = idom[a as usize];
        }
        while rpo_num[b as usize] > rpo_num[a as usize] {
            b = idom[b as usize];
        }
    }
    a
}
