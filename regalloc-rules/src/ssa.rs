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
                // (A value beyond the count is an error here; regalloc2 would index out of bounds.)
                let d = defined_in
                    .get(v.vreg())
                    .copied()
                    .unwrap_or(Block::invalid());
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

#[cfg(test)]
mod tests {
    //! [`validate`] against regalloc2's own validator on random functions: chains of diamonds
    //! (a parameter at the join) and loops, whose uses and branch arguments are mostly values
    //! defined earlier and sometimes any value at all.
    use super::*;
    use regalloc2::{Operand, OperandConstraint, OperandPos, PReg, PRegSet, RegClass, VReg};

    struct Fake {
        insts: Vec<(Vec<Operand>, bool, bool)>,
        ranges: Vec<(usize, usize)>,
        succs: Vec<Vec<Block>>,
        preds: Vec<Vec<Block>>,
        params: Vec<Vec<VReg>>,
        args: Vec<Vec<Vec<VReg>>>,
        vregs: usize,
    }

    impl Function for Fake {
        fn num_insts(&self) -> usize {
            self.insts.len()
        }
        fn num_blocks(&self) -> usize {
            self.ranges.len()
        }
        fn entry_block(&self) -> Block {
            Block::new(0)
        }
        fn block_insns(&self, b: Block) -> ra2::InstRange {
            let (s, e) = self.ranges[b.index()];
            ra2::InstRange::new(Inst::new(s), Inst::new(e))
        }
        fn block_succs(&self, b: Block) -> &[Block] {
            &self.succs[b.index()]
        }
        fn block_preds(&self, b: Block) -> &[Block] {
            &self.preds[b.index()]
        }
        fn block_params(&self, b: Block) -> &[VReg] {
            &self.params[b.index()]
        }
        fn is_ret(&self, i: Inst) -> bool {
            self.insts[i.index()].2
        }
        fn is_branch(&self, i: Inst) -> bool {
            self.insts[i.index()].1
        }
        fn branch_blockparams(&self, b: Block, _: Inst, k: usize) -> &[VReg] {
            &self.args[b.index()][k]
        }
        fn inst_operands(&self, i: Inst) -> &[Operand] {
            &self.insts[i.index()].0
        }
        fn inst_clobbers(&self, _: Inst) -> PRegSet {
            PRegSet::empty()
        }
        fn num_vregs(&self) -> usize {
            self.vregs
        }
        fn spillslot_size(&self, _: RegClass) -> usize {
            1
        }
    }

    struct Gen {
        seed: u64,
        f: Fake,
        defined: Vec<VReg>,
    }

    impl Gen {
        fn below(&mut self, n: usize) -> usize {
            self.seed ^= self.seed << 13;
            self.seed ^= self.seed >> 7;
            self.seed ^= self.seed << 17;
            (self.seed % n as u64) as usize
        }
        fn fresh(&mut self) -> VReg {
            self.f.vregs += 1;
            VReg::new(self.f.vregs - 1, RegClass::Int)
        }
        /// A value to read: one whose definition reaches here, or one in 150 any value of the
        /// function so far or soon.
        fn any(&mut self) -> VReg {
            if self.defined.is_empty() || self.below(150) == 0 {
                VReg::new(self.below(self.f.vregs.max(1)), RegClass::Int)
            } else {
                let k = self.below(self.defined.len());
                self.defined[k]
            }
        }
        fn block(&mut self) -> Block {
            let b = Block::new(self.f.ranges.len());
            self.f.ranges.push((0, 0));
            self.f.succs.push(Vec::new());
            self.f.preds.push(Vec::new());
            self.f.params.push(Vec::new());
            self.f.args.push(Vec::new());
            b
        }
        /// Fill `b` with a few instructions and a terminator to `to` (with `args` per target).
        fn fill(&mut self, b: Block, to: &[(Block, Vec<VReg>)]) {
            let start = self.f.insts.len();
            for _ in 0..1 + self.below(3) {
                let mut ops = Vec::new();
                for _ in 0..self.below(3) {
                    let v = self.any();
                    ops.push(Operand::new(
                        v,
                        OperandConstraint::Reg,
                        OperandKind::Use,
                        OperandPos::Early,
                    ));
                }
                let d = self.fresh();
                ops.push(Operand::new(
                    d,
                    OperandConstraint::Reg,
                    OperandKind::Def,
                    OperandPos::Late,
                ));
                self.defined.push(d);
                self.f.insts.push((ops, false, false));
            }
            let ret = to.is_empty();
            self.f.insts.push((Vec::new(), !ret, ret));
            self.f.ranges[b.index()] = (start, self.f.insts.len());
            for (t, a) in to {
                self.f.succs[b.index()].push(*t);
                self.f.preds[t.index()].push(b);
                self.f.args[b.index()].push(a.clone());
            }
        }
    }

    fn random(seed: u64) -> Fake {
        let f = Fake {
            insts: vec![],
            ranges: vec![],
            succs: vec![],
            preds: vec![],
            params: vec![],
            args: vec![],
            vregs: 0,
        };
        let mut g = Gen {
            seed,
            f,
            defined: Vec::new(),
        };
        let mut at = g.block();
        for _ in 0..1 + g.below(6) {
            if g.below(2) == 0 {
                // Diamond; the join takes a parameter.
                let (l, r, j) = (g.block(), g.block(), g.block());
                let p = g.fresh();
                g.f.params[j.index()].push(p);
                g.fill(at, &[(l, vec![]), (r, vec![])]);
                // What an arm defines does not reach the join.
                let keep = g.defined.len();
                let a = g.any();
                g.fill(l, &[(j, vec![a])]);
                g.defined.truncate(keep);
                let a = g.any();
                g.fill(r, &[(j, vec![a])]);
                g.defined.truncate(keep);
                g.defined.push(p);
                at = j;
            } else {
                // Loop: header -> body -> header, header -> exit.
                let (h, body, x) = (g.block(), g.block(), g.block());
                g.fill(at, &[(h, vec![])]);
                g.fill(h, &[(body, vec![]), (x, vec![])]);
                let keep = g.defined.len();
                g.fill(body, &[(h, vec![])]);
                g.defined.truncate(keep);
                at = x;
            }
        }
        g.fill(at, &[]);
        // Blocks were numbered as created; put the instruction ranges in block order.
        let mut insts = Vec::new();
        let mut ranges = vec![(0, 0); g.f.ranges.len()];
        for b in 0..g.f.ranges.len() {
            let (s, e) = g.f.ranges[b];
            ranges[b] = (insts.len(), insts.len() + e - s);
            insts.extend(g.f.insts[s..e].iter().cloned());
        }
        g.f.insts = insts;
        g.f.ranges = ranges;
        g.f
    }

    #[test]
    fn agrees_with_regalloc2() {
        let mut env = ra2::MachineEnv {
            preferred_regs_by_class: [PRegSet::empty(); 3],
            non_preferred_regs_by_class: [PRegSet::empty(); 3],
            scratch_by_class: [None; 3],
            fixed_stack_slots: Vec::new(),
        };
        for r in 0..32 {
            env.preferred_regs_by_class[0].add(PReg::new(r, RegClass::Int));
        }
        let opts = ra2::RegallocOptions {
            validate_ssa: true,
            ..Default::default()
        };
        let (mut valid, mut invalid) = (0, 0);
        for seed in 1..=2000u64 {
            let f = random(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
            let ours = validate(&f);
            let theirs = ra2::run(&f, &env, &opts);
            match (&ours, &theirs) {
                (Err(a), Err(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}"), "seed {seed}"),
                (Ok(()), Ok(_)) => {}
                (Ok(()), Err(e)) => assert!(
                    !matches!(
                        e,
                        RegAllocError::SSA(..)
                            | RegAllocError::BB(_)
                            | RegAllocError::Branch(_)
                            | RegAllocError::CritEdge(..)
                            | RegAllocError::DisallowedBranchArg(_)
                    ),
                    "seed {seed}: regalloc2 rejects what we accept: {e:?}"
                ),
                (Err(e), Ok(_)) => panic!("seed {seed}: we reject what regalloc2 accepts: {e:?}"),
            }
            if ours.is_ok() {
                valid += 1;
            } else {
                invalid += 1;
            }
        }
        assert!(
            valid > 200 && invalid > 200,
            "valid {valid}, invalid {invalid}"
        );
    }
}
