//! Where lanes that left loops apart must meet again before a subgroup instruction.
//!
//! The IR runs a subgroup instruction for every lane that will reach it (section *Subgroups*
//! of [`atomc_ir::InstData`]): lanes that leave a loop after different trip counts meet where
//! the paths join. sm_90 does not guarantee that: a loop's convergence barrier (`BSSY`/`BSYNC`)
//! gives way to a yielding path, which spin loops rely on, so lanes can pass the `BSYNC` apart.
//! ptxas 13.5 therefore writes `WARPSYNC` before a `vote.sync` that follows a spin loop and
//! none after a loop that does not yield (`emit/sass/tests/ptx/warpsync_after_loops.ptx`).
//!
//! atomc records, in a block `D` where the lanes are together, the mask of the lanes there, and
//! puts `WARPSYNC mask` right before every subgroup instruction `B` after a loop. `D` is the
//! nearest strict dominator of `B` that
//! * no loop exit leads to, other than exits of loops that hold `D` itself (so the lanes
//!   there are together: any divergence before it ended in a reconverged region), and
//! * lies in exactly the loops that hold `B` (so every lane of the mask comes to `B` again in
//!   the same iteration, or leaves the function: exited lanes count as arrived at a
//!   `WARPSYNC`, as ptxas's `WARPSYNC.ALL` after an early `EXIT` shows).
//!
//! A block holding such an instruction counts as a meeting point for the rest of the search: a
//! loop exit that leads to another block only through it does not make that block "after a
//! loop". So in `loop { inner loop; ballot }` the outer loop's header records the mask at each
//! trip: its lanes came through the previous trip's `WARPSYNC` together.
//!
//! A lane of the mask that takes a path without `B` is waited for until it exits; the values
//! `B` computes are still those of the lanes that reach it. The mask is taken as late as it
//! can be so that this is rare. Where no `D` exists (irreducible control flow, or a loop exit
//! that reaches the instruction's loop again around it) the capability table's reason refuses
//! the instruction.

use atomc_ir::verify::dominators::{successors, DominatorTree};
use atomc_ir::{Block, Function, Inst};
use std::collections::{HashMap, HashSet};

/// The meeting points of one function's subgroup instructions.
#[derive(Debug, Default)]
pub struct SyncPlan {
    /// Each subgroup instruction after a loop, and the block whose entry records its mask.
    pub mask_from: HashMap<Inst, Block>,
    /// Subgroup instructions after a loop with no block to take a mask from.
    pub unplaceable: Vec<Inst>,
}

struct Loops {
    /// The headers of the loops holding each block, sorted.
    of: HashMap<Block, Vec<Block>>,
    /// Each loop's header and body.
    bodies: Vec<(Block, HashSet<Block>)>,
    /// A cycle that is no natural loop was found (irreducible control flow).
    irreducible: Vec<Block>,
}

fn loops(func: &Function, dom: &DominatorTree) -> Loops {
    let index: HashMap<Block, usize> = dom.rpo().iter().enumerate().map(|(i, &b)| (b, i)).collect();
    let mut bodies: HashMap<Block, HashSet<Block>> = HashMap::new();
    let mut irreducible = Vec::new();
    for (i, &u) in dom.rpo().iter().enumerate() {
        for h in successors(func, u) {
            let Some(&j) = index.get(&h) else { continue };
            if j > i {
                continue;
            }
            if !dom.dominates(h, u) {
                irreducible.push(h);
                continue;
            }
            let body = bodies.entry(h).or_insert_with(|| HashSet::from([h]));
            let mut work = vec![u];
            while let Some(b) = work.pop() {
                if body.insert(b) {
                    work.extend(dom.preds(b).iter().copied());
                }
            }
        }
    }
    let mut of: HashMap<Block, Vec<Block>> = HashMap::new();
    for (&h, body) in &bodies {
        for &b in body {
            of.entry(b).or_default().push(h);
        }
    }
    for v in of.values_mut() {
        v.sort_unstable();
    }
    Loops { of, bodies: bodies.into_iter().collect(), irreducible }
}

/// How a target brings lanes that left a loop apart together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Meeting {
    /// `WARPSYNC mask` before the instruction (Volta and later; the plan above).
    Warpsync,
    /// The loop's own reconvergence (Maxwell's `SSY`/`SYNC`, `emit/src/codegen/reconverge.rs`):
    /// only where every exit of the loop leads to one block. A loop with exits to different
    /// blocks (a `return` inside it) has no join to `SYNC` at, and its lanes would run the
    /// instruction in groups; such instructions are refused.
    LoopJoin,
}

impl SyncPlan {
    /// The plan for `func` on a target that meets lanes as `meeting` says.
    pub fn for_target(func: &Function, meeting: Meeting) -> SyncPlan {
        match meeting {
            Meeting::Warpsync => SyncPlan::of(func),
            Meeting::LoopJoin => SyncPlan::split_loops(func),
        }
    }

    /// [`Meeting::LoopJoin`]: every subgroup instruction after a loop with exits to different
    /// blocks (or after irreducible control flow) is unplaceable; nothing gets a mask.
    fn split_loops(func: &Function) -> SyncPlan {
        let mut plan = SyncPlan::default();
        let ops: Vec<(Block, Inst)> = func.inst_order().filter(|&(_, i)| func.insts[i].is_subgroup()).collect();
        if ops.is_empty() {
            return plan;
        }
        let dom = DominatorTree::compute(func);
        let loops = loops(func, &dom);
        let mut reached: HashSet<Block> = HashSet::new();
        let mut work = loops.irreducible.clone();
        for (_, body) in &loops.bodies {
            let exits: HashSet<Block> =
                body.iter().flat_map(|&b| successors(func, b)).filter(|s| !body.contains(s)).collect();
            if exits.len() > 1 {
                work.extend(exits);
            }
        }
        while let Some(b) = work.pop() {
            if reached.insert(b) {
                work.extend(successors(func, b));
            }
        }
        plan.unplaceable = ops.into_iter().filter(|(b, _)| reached.contains(b)).map(|(_, i)| i).collect();
        plan
    }

    /// The plan for `func`: empty unless a subgroup instruction can follow a loop.
    pub fn of(func: &Function) -> SyncPlan {
        let ops: Vec<(Block, Inst)> = func.inst_order().filter(|&(_, i)| func.insts[i].is_subgroup()).collect();
        let mut plan = SyncPlan::default();
        if ops.is_empty() {
            return plan;
        }
        let dom = DominatorTree::compute(func);
        let loops = loops(func, &dom);
        if loops.bodies.is_empty() && loops.irreducible.is_empty() {
            return plan;
        }
        // Irreducible cycles: everything they reach is tangled, and no block there gives a mask.
        let mut tangled: HashSet<Block> = HashSet::new();
        let mut work = loops.irreducible.clone();
        while let Some(b) = work.pop() {
            if tangled.insert(b) {
                work.extend(successors(func, b));
            }
        }
        let none = Vec::new();
        let loops_of = |b: Block| loops.of.get(&b).unwrap_or(&none);
        // The blocks of the instructions that get a `WARPSYNC`: the lanes are together after
        // them, so a loop's exit leads no further than such a block. Assume every one does,
        // then drop those with no place for a mask until nothing changes (dropping one can
        // only make more blocks follow a loop).
        let mut cuts: HashSet<Block> = ops.iter().map(|&(b, _)| b).collect();
        loop {
            let after = after_loops(func, &loops, &cuts);
            plan.mask_from.clear();
            plan.unplaceable.clear();
            for &(b, inst) in &ops {
                if !after.contains(&b) && !tangled.contains(&b) {
                    continue;
                }
                let mut d = dom.idom(b);
                let found = loop {
                    match d {
                        Some(x) if tangled.contains(&x) => break None,
                        Some(x) if !after.contains(&x) && loops_of(x) == loops_of(b) => break Some(x),
                        Some(x) => d = dom.idom(x),
                        None => break None,
                    }
                };
                match found {
                    Some(x) if !tangled.contains(&b) => {
                        plan.mask_from.insert(inst, x);
                    }
                    _ => plan.unplaceable.push(inst),
                }
            }
            let before = cuts.len();
            cuts.retain(|b| ops.iter().any(|&(ob, i)| ob == *b && !plan.unplaceable.contains(&i)));
            if cuts.len() == before {
                return plan;
            }
        }
    }

    /// The blocks whose entry records a mask, in no particular order.
    pub fn mask_blocks(&self) -> HashSet<Block> {
        self.mask_from.values().copied().collect()
    }
}

/// The blocks a loop's exit leads to without passing through one of `cuts` first, other than
/// the loop's own (linear per loop). A block of `cuts` is reached but not passed.
fn after_loops(func: &Function, loops: &Loops, cuts: &HashSet<Block>) -> HashSet<Block> {
    let mut after: HashSet<Block> = HashSet::new();
    for (_, body) in &loops.bodies {
        let mut seen: HashSet<Block> = HashSet::new();
        let mut work: Vec<Block> =
            body.iter().flat_map(|&b| successors(func, b)).filter(|s| !body.contains(s)).collect();
        while let Some(b) = work.pop() {
            if seen.insert(b) {
                if !body.contains(&b) {
                    after.insert(b);
                }
                if !cuts.contains(&b) {
                    work.extend(successors(func, b));
                }
            }
        }
    }
    after
}
