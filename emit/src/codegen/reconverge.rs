//! Warp progress and reconvergence, as ptxas arranges them.
//!
//! * **sm_90 loops yield**: a `YIELD` at every loop header lets the other paths of a diverged
//!   warp run, so threads of one warp that wait on each other (a lock, a look-back flag) make
//!   progress under independent thread scheduling. ptxas 13.5 yields in 69 of the 100 loops of
//!   atomc's filetest kernels (`tests/launch_contract.rs`); atomc yields in all of them.
//! * **Divergent regions reconverge** at their join, the immediate post-dominator of the
//!   branch (for a loop: the first post-dominator of its header outside the loop):
//!   - sm_90: `BSSY Bn, join` before the branch (for a loop, on the edges entering it) and
//!     `BSYNC Bn` where the region's paths meet, right before the join, as ptxas 13.5 writes
//!     them (`BSSY B1, 0x1d0` ... `BSYNC B1` at 0x1c0 around a CAS loop). A barrier register
//!     belongs to the warp, and the arms of a divergent branch run interleaved, so two regions
//!     in sibling arms must not share one (the fuzzer's seed 9 deadlocked the emulator when a
//!     CAS loop in one arm re-armed the `B1` an if/else in the other arm waited on): every
//!     region gets its own register, outermost first; past 16, inner regions go without.
//!   - sm_50: `SSY join` and a `SYNC` that ends each path, as ptxas 11.8 writes them (`SSY
//!     0x178` before an if/else whose both arms end in `SYNC`; `SSY` before a loop whose exiting
//!     lanes `SYNC`). `SYNC` does not fall through: the warp continues at the `SSY` target once
//!     every path has ended, so a `BAR` after the join runs converged.
//!
//! Regions nest: one that ends at the same join as its parent continues into the parent's
//! synchronization. A region that would overlap another without nesting (unstructured
//! control flow) is left without reconvergence, which is still correct code, only slower;
//! every branch is treated as divergent.

use super::layout::{LBlock, Term};
use atomc_lower::sass::{MOp, SassInst};
use atomc_lower::vcode::BlockId;
use atomc_sass::op;
use std::collections::HashMap;

/// Convergence barrier registers on sm_90 (`B0`..`B15`).
const SM90_BARRIERS: usize = 16;

struct Loop {
    header: usize,
    body: BlockSet,
}

/// A set of block positions, sorted. Loops and regions hold their own blocks only: a flag per
/// block of the function for each of them grows with the number of regions times the number
/// of blocks, which a long kernel with a branch every few dozen instructions makes quadratic.
#[derive(Clone, Debug, Default)]
struct BlockSet(Vec<u32>);

impl BlockSet {
    fn from_unsorted(mut v: Vec<u32>) -> BlockSet {
        v.sort_unstable();
        BlockSet(v)
    }
    fn contains(&self, b: usize) -> bool {
        self.0.binary_search(&(b as u32)).is_ok()
    }
    fn len(&self) -> usize {
        self.0.len()
    }
    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().map(|&b| b as usize)
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Start {
    /// Before the conditional branch ending this block.
    Branch(usize),
    /// On the edges entering this loop.
    Loop(usize),
}

struct Region {
    start: Start,
    /// The block where the region's paths meet.
    join: usize,
    /// Blocks whose edges to `join` end a path of this region.
    members: BlockSet,
    count: usize,
    parent: Option<usize>,
    depth: usize,
    /// The sm_90 convergence barrier register.
    barrier: usize,
}

/// Adds the loop yields (sm_90) and the reconvergence of divergent regions to `blocks`.
pub(crate) fn insert(blocks: &mut Vec<LBlock>, sm90: bool) {
    let n = blocks.len();
    let pos: HashMap<BlockId, usize> = blocks.iter().enumerate().map(|(i, b)| (b.id, i)).collect();
    let succ: Vec<Vec<usize>> =
        blocks.iter().map(|b| b.term.successors().iter().filter_map(|s| pos.get(s).copied()).collect()).collect();
    let loops = find_loops(&succ);
    let ipdom = post_dominators(&succ);
    let mut regions = find_regions(&succ, &loops, &ipdom, blocks);
    nest(&mut regions, &loops, if sm90 { SM90_BARRIERS } else { usize::MAX });

    let mut next_id = blocks.iter().map(|b| b.id.0 + 1).max().unwrap_or(0);
    let mut fresh = || {
        let id = BlockId(next_id);
        next_id += 1;
        id
    };
    let loop_of_header: HashMap<usize, usize> = loops.iter().enumerate().map(|(l, lp)| (lp.header, l)).collect();
    let loop_region: HashMap<usize, usize> = regions
        .iter()
        .enumerate()
        .filter_map(|(r, reg)| match reg.start {
            Start::Loop(l) => Some((loops[l].header, r)),
            Start::Branch(_) => None,
        })
        .collect();
    let sync_ids: Vec<BlockId> = regions.iter().map(|_| fresh()).collect();
    let entry_ids: HashMap<usize, BlockId> = loop_region.iter().map(|(&h, _)| (h, fresh())).collect();
    let start_block = |r: &Region| match r.start {
        Start::Branch(b) => b,
        Start::Loop(l) => loops[l].header,
    };
    // Where the lanes of a region continue once it has reconverged.
    let cont: Vec<BlockId> = regions
        .iter()
        .map(|r| {
            if let Some(p) = r.parent.filter(|&p| regions[p].join == r.join) {
                return sync_ids[p];
            }
            match (entry_ids.get(&r.join), loop_of_header.get(&r.join)) {
                (Some(&entry), Some(&l)) if !loops[l].body.contains(start_block(r)) => entry,
                _ => blocks[r.join].id,
            }
        })
        .collect();

    // Redirect the edges that end a region's path, and the edges entering a loop region.
    let mut joining: HashMap<usize, Vec<usize>> = HashMap::new();
    for (r, reg) in regions.iter().enumerate() {
        joining.entry(reg.join).or_default().push(r);
    }
    for m in 0..n {
        for &j in &succ[m] {
            let innermost = joining
                .get(&j)
                .into_iter()
                .flatten()
                .copied()
                .filter(|&r| regions[r].members.contains(m))
                .max_by_key(|&r| regions[r].depth);
            let to = match innermost {
                Some(r) => sync_ids[r],
                None => match (entry_ids.get(&j), loop_of_header.get(&j)) {
                    (Some(&entry), Some(&l)) if !loops[l].body.contains(m) => entry,
                    _ => continue,
                },
            };
            let from = blocks[j].id;
            blocks[m].term.redirect(from, to);
        }
    }
    // Open the branch regions before their branches.
    for (r, reg) in regions.iter().enumerate() {
        if let Start::Branch(b) = reg.start {
            blocks[b].body.push(open(sm90, reg.barrier, cont[r]).into());
        }
    }
    // sm_90 loop headers yield (the entry blocks made below stay outside the loop).
    if sm90 {
        for lp in &loops {
            blocks[lp.header].body.insert(0, SassInst::new(op!(YIELD), []).into());
        }
        warp_sync_barriers(blocks, &succ, &loops);
    }

    // New blocks go right before the block they lead to: inner synchronizations first, then
    // the loop's entry, then the synchronizations of regions inside the loop.
    let mut before: Vec<Vec<(usize, LBlock)>> = (0..n).map(|_| Vec::new()).collect();
    for (r, reg) in regions.iter().enumerate() {
        let body = vec![close(sm90, reg.barrier).into()];
        let term = if sm90 { Term::Jump(cont[r]) } else { Term::Stop };
        let inside = loop_of_header.get(&reg.join).is_some_and(|&l| loops[l].body.contains(start_block(reg)));
        let key = if inside { 2 * SM90_BARRIERS + 2 - reg.depth } else { SM90_BARRIERS - reg.depth.min(SM90_BARRIERS) };
        before[reg.join].push((key, LBlock { id: sync_ids[r], body, term }));
    }
    for (&h, &r) in &loop_region {
        let body = vec![open(sm90, regions[r].barrier, cont[r]).into()];
        before[h].push((SM90_BARRIERS + 1, LBlock { id: entry_ids[&h], body, term: Term::Jump(blocks[h].id) }));
    }
    let old = std::mem::take(blocks);
    for (i, b) in old.into_iter().enumerate() {
        let mut extra = std::mem::take(&mut before[i]);
        extra.sort_by_key(|(k, _)| *k);
        blocks.extend(extra.into_iter().map(|(_, b)| b));
        blocks.push(b);
    }
    if !sm90 {
        inline_syncs(blocks, &sync_ids);
    }
}

/// sm_90: a `BAR.SYNC` that a loop may reach gets a `WARPSYNC.ALL` before it. A loop's lanes
/// can leave its `BSYNC` apart (the convergence barrier gives way to a yielding path, which
/// spin loops rely on), and `BAR.SYNC` needs the whole warp: ptxas 13.5 writes
/// `WARPSYNC.ALL` right before the `BAR.SYNC` that follows a CAS loop and none before one that
/// only follows an if (`tests/launch_contract.rs`).
fn warp_sync_barriers(blocks: &mut [LBlock], succ: &[Vec<usize>], loops: &[Loop]) {
    let mut reached = vec![false; blocks.len()];
    let mut work: Vec<usize> = loops.iter().map(|l| l.header).collect();
    while let Some(b) = work.pop() {
        if !std::mem::replace(&mut reached[b], true) {
            work.extend(succ[b].iter().copied());
        }
    }
    for (block, _) in blocks.iter_mut().zip(&reached).filter(|(_, &r)| r) {
        let mut i = 0;
        while i < block.body.len() {
            if block.body[i].opcode.starts_with(op!(BAR.SYNC)) {
                block.body.insert(i, SassInst::new(op!(WARPSYNC.ALL), []).into());
                i += 1;
            }
            i += 1;
        }
    }
}

/// sm_50: a path that jumps to its region's `SYNC` ends with the `SYNC` itself, as ptxas writes
/// it (a `SYNC` does not fall through, so the jump only costs an instruction); a `SYNC` block no
/// branch or `SSY` refers to any more is dropped.
fn inline_syncs(blocks: &mut Vec<LBlock>, sync_ids: &[BlockId]) {
    let sync_ids: std::collections::HashSet<BlockId> = sync_ids.iter().copied().collect();
    for b in blocks.iter_mut() {
        if let Term::Jump(t) = b.term {
            if sync_ids.contains(&t) {
                b.body.push(close(false, 0).into());
                b.term = Term::Stop;
            }
        }
    }
    let mut used: std::collections::HashSet<BlockId> = blocks.iter().flat_map(|b| b.term.successors()).collect();
    for b in blocks.iter() {
        for i in &b.body {
            used.extend(i.ops.iter().filter_map(|op| match op {
                MOp::Label(t) => Some(*t),
                _ => None,
            }));
        }
    }
    blocks.retain(|b| !sync_ids.contains(&b.id) || used.contains(&b.id));
}

/// `BSSY Bn, cont` (sm_90) or `SSY cont` (sm_50).
fn open(sm90: bool, barrier: usize, cont: BlockId) -> SassInst {
    if sm90 {
        SassInst::new(op!(BSSY), [MOp::BReg(barrier as u8), MOp::Label(cont)])
    } else {
        SassInst::new(op!(SSY), [MOp::Label(cont)])
    }
}

/// `BSYNC Bn` (sm_90) or `SYNC` (sm_50).
fn close(sm90: bool, barrier: usize) -> SassInst {
    if sm90 {
        SassInst::new(op!(BSYNC), [MOp::BReg(barrier as u8)])
    } else {
        SassInst::new(op!(SYNC), [])
    }
}

/// Natural loops, one per header. Blocks are in reverse postorder, so an edge to the same or an
/// earlier block is a back edge (atomc's control flow is reducible: it comes from structured IR).
fn find_loops(succ: &[Vec<usize>]) -> Vec<Loop> {
    let n = succ.len();
    let mut preds = vec![Vec::new(); n];
    for (i, ss) in succ.iter().enumerate() {
        for &s in ss {
            preds[s].push(i);
        }
    }
    // Each loop's blocks while it is built; `in_body[x]` holds the loop (plus one) that last
    // took block x, so one array serves every loop.
    let mut headers: Vec<usize> = Vec::new();
    let mut bodies: Vec<Vec<u32>> = Vec::new();
    let mut index_of: HashMap<usize, usize> = HashMap::new();
    let mut in_body: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, ss) in succ.iter().enumerate() {
        for &h in ss.iter().filter(|&&h| h <= i) {
            let idx = *index_of.entry(h).or_insert_with(|| {
                headers.push(h);
                bodies.push(vec![h as u32]);
                in_body[h].push(headers.len() - 1);
                headers.len() - 1
            });
            let mut work = vec![i];
            while let Some(x) = work.pop() {
                if !in_body[x].contains(&idx) {
                    in_body[x].push(idx);
                    bodies[idx].push(x as u32);
                    work.extend(preds[x].iter().copied());
                }
            }
        }
    }
    headers.into_iter().zip(bodies).map(|(header, body)| Loop { header, body: BlockSet::from_unsorted(body) }).collect()
}

/// Immediate post-dominators; index `succ.len()` is the virtual exit every exiting block leads
/// to. `None` for blocks that cannot reach an exit. (Cooper, Harvey and Kennedy's iteration on
/// the reversed graph.)
fn post_dominators(succ: &[Vec<usize>]) -> Vec<Option<usize>> {
    let n = succ.len();
    let exit = n;
    // Reverse graph: exit -> exiting blocks, and s -> i for every edge i -> s.
    let mut rsucc = vec![Vec::new(); n + 1];
    for (i, ss) in succ.iter().enumerate() {
        if ss.is_empty() {
            rsucc[exit].push(i);
        }
        for &s in ss {
            rsucc[s].push(i);
        }
    }
    // Postorder of the reverse graph from the exit (iterative DFS).
    let mut order = Vec::with_capacity(n + 1);
    let mut seen = vec![false; n + 1];
    let mut stack = vec![(exit, 0usize)];
    seen[exit] = true;
    while let Some(&mut (x, ref mut k)) = stack.last_mut() {
        if let Some(&y) = rsucc[x].get(*k) {
            *k += 1;
            if !seen[y] {
                seen[y] = true;
                stack.push((y, 0));
            }
        } else {
            order.push(x);
            stack.pop();
        }
    }
    let mut rank = vec![usize::MAX; n + 1];
    for (k, &x) in order.iter().enumerate() {
        rank[x] = k;
    }
    let mut idom: Vec<Option<usize>> = vec![None; n + 1];
    idom[exit] = Some(exit);
    let intersect = |idom: &[Option<usize>], mut a: usize, mut b: usize| {
        while a != b {
            while rank[a] < rank[b] {
                a = idom[a].unwrap_or(exit);
            }
            while rank[b] < rank[a] {
                b = idom[b].unwrap_or(exit);
            }
        }
        a
    };
    let mut changed = true;
    while changed {
        changed = false;
        for &x in order.iter().rev().filter(|&&x| x != exit) {
            // Predecessors in the reverse graph are the block's successors (or the exit).
            let mut preds: Vec<usize> = succ[x].clone();
            if preds.is_empty() {
                preds.push(exit);
            }
            let mut new = None;
            for p in preds.into_iter().filter(|&p| idom[p].is_some()) {
                new = Some(match new {
                    None => p,
                    Some(q) => intersect(&idom, p, q),
                });
            }
            if new.is_some() && idom[x] != new {
                idom[x] = new;
                changed = true;
            }
        }
    }
    idom.truncate(n);
    idom
}

/// Blocks reachable from `from` without passing `join`. `stamp` is scratch shared by the
/// calls (a block is seen in this call when it holds `mark`), so each costs what it visits.
fn reach(succ: &[Vec<usize>], from: usize, join: usize, stamp: &mut [u32], mark: u32) -> BlockSet {
    let mut seen = Vec::new();
    let mut work = vec![from];
    while let Some(x) = work.pop() {
        if x == join || stamp[x] == mark {
            continue;
        }
        stamp[x] = mark;
        seen.push(x as u32);
        work.extend(succ[x].iter().copied());
    }
    BlockSet::from_unsorted(seen)
}

fn find_regions(succ: &[Vec<usize>], loops: &[Loop], ipdom: &[Option<usize>], blocks: &[LBlock]) -> Vec<Region> {
    let n = succ.len();
    let mut out = Vec::new();
    let mut stamp = vec![0u32; n];
    let mut add = |start: Start, from: usize, join: usize| {
        let mark = out.len() as u32 + 1;
        let members = reach(succ, from, join, &mut stamp, mark);
        let count = members.len();
        out.push(Region { start, join, members, count, parent: None, depth: 0, barrier: 0 });
    };
    // The loops holding each block.
    let mut loops_of: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (l, lp) in loops.iter().enumerate() {
        for b in lp.body.iter() {
            loops_of[b].push(l);
        }
    }
    for (l, lp) in loops.iter().enumerate() {
        // The first post-dominator of the header outside the loop.
        let mut x = lp.header;
        let join = loop {
            match ipdom[x] {
                Some(p) if p < n && lp.body.contains(p) => x = p,
                Some(p) if p < n => break Some(p),
                _ => break None,
            }
        };
        if let Some(join) = join {
            add(Start::Loop(l), lp.header, join);
        }
    }
    for (b, blk) in blocks.iter().enumerate() {
        if !matches!(blk.term, Term::Cond { .. }) {
            continue;
        }
        let Some(join) = ipdom[b].filter(|&j| j < n) else {
            continue;
        };
        // A branch that leaves a loop is reconverged by the loop's region.
        if loops_of[b].iter().any(|&l| !loops[l].body.contains(join)) {
            continue;
        }
        add(Start::Branch(b), b, join);
    }
    out
}

/// Links each region to the smallest region around it and drops regions that overlap others
/// without nesting; gives every region its own barrier register, outermost first, and drops the
/// regions past `max_regions` (with their inner regions).
fn nest(regions: &mut Vec<Region>, loops: &[Loop], max_regions: usize) {
    let start_block = |r: &Region| match r.start {
        Start::Branch(b) => b,
        Start::Loop(l) => loops[l].header,
    };
    regions.sort_by_key(|r| r.count);
    let mut keep = vec![true; regions.len()];
    // The regions holding each block, in sorted order: the candidates for a region's parent
    // are those holding its start block, without a scan of every larger region.
    let nblocks = regions.iter().flat_map(|r| r.members.iter()).max().map_or(0, |b| b + 1);
    let mut holding: Vec<Vec<usize>> = vec![Vec::new(); nblocks];
    for (r, reg) in regions.iter().enumerate() {
        for b in reg.members.iter() {
            holding[b].push(r);
        }
    }
    for r in 0..regions.len() {
        let s = start_block(&regions[r]);
        let mut parent = None;
        // Only region `r` itself changes `keep[r]` below, so every later region is still kept here.
        let later = holding.get(s).map_or(&[][..], |h| &h[h.partition_point(|&p| p <= r)..]);
        for &p in later {
            if !keep[p] {
                continue;
            }
            let inside = regions[r].members.iter().all(|b| regions[p].members.contains(b));
            let joins_inside = regions[r].join == regions[p].join || regions[p].members.contains(regions[r].join);
            if inside && joins_inside {
                parent = Some(p);
                break;
            }
            keep[r] = false;
            break;
        }
        regions[r].parent = parent;
    }
    // Depths outermost first (parents sort after their children).
    for r in (0..regions.len()).rev() {
        let d = regions[r].parent.map_or(0, |p| regions[p].depth + 1);
        regions[r].depth = d;
        if regions[r].parent.is_some_and(|p| !keep[p]) {
            keep[r] = false;
        }
    }
    let mut order: Vec<usize> = (0..regions.len()).filter(|&r| keep[r]).collect();
    order.sort_by_key(|&r| (regions[r].depth, start_block(&regions[r])));
    for (k, &r) in order.iter().enumerate() {
        regions[r].barrier = k;
        // Depth-first order: a region's inner regions come after it, so they go too.
        if k >= max_regions || regions[r].parent.is_some_and(|p| !keep[p]) {
            keep[r] = false;
        }
    }
    let mut index = vec![None; regions.len()];
    let mut k = 0;
    for (r, slot) in index.iter_mut().enumerate() {
        if keep[r] {
            *slot = Some(k);
            k += 1;
        }
    }
    let old = std::mem::take(regions);
    for (r, mut reg) in old.into_iter().enumerate() {
        if keep[r] {
            reg.parent = reg.parent.and_then(|p| index[p]);
            regions.push(reg);
        }
    }
}
