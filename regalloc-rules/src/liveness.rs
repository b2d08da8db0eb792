//! Backward liveness on virtual registers, to measure register pressure (MaxLive) per class.
//!
//! The allocator's environment is sized from these numbers: regalloc2's Ion spreads values over
//! every register it is offered, and on a GPU each extra register costs occupancy, so offering
//! "pressure plus a little" keeps the register count near the minimum.

use atomc_lower::vcode::{MachInst, OperandKind, OperandPos, VCode};

/// A set of virtual register indices with constant-time insert, remove, membership and
/// clearing (Briggs and Torczon's sparse set): one is reused for every block, so a block costs
/// its instructions and live values, not the number of registers in the function.
struct SparseSet {
    members: Vec<u32>,
    at: Vec<u32>,
}

impl SparseSet {
    fn new(n: usize) -> Self {
        SparseSet { members: Vec::new(), at: vec![0; n] }
    }
    fn contains(&self, i: usize) -> bool {
        let k = self.at[i] as usize;
        k < self.members.len() && self.members[k] as usize == i
    }
    fn insert(&mut self, i: usize) -> bool {
        if self.contains(i) {
            return false;
        }
        self.at[i] = self.members.len() as u32;
        self.members.push(i as u32);
        true
    }
    fn remove(&mut self, i: usize) -> bool {
        if !self.contains(i) {
            return false;
        }
        let k = self.at[i] as usize;
        let last = self.members.pop().expect("a member");
        if k < self.members.len() {
            self.members[k] = last;
            self.at[last as usize] = k as u32;
        }
        true
    }
    fn clear(&mut self) {
        self.members.clear();
    }
}

/// Maximum number of simultaneously live values per class (Single, Pair, Quad), counting every
/// instruction's results and late sources together with what is live across it.
pub fn max_live<I: MachInst>(vcode: &VCode<I>) -> [u32; 3] {
    let nb = vcode.num_blocks();
    let mut live_in: Vec<Vec<u32>> = vec![Vec::new(); nb];
    let mut live = SparseSet::new(vcode.num_vregs());
    let mut max = [0u32; 3];
    // A worklist, highest block first (successors before predecessors in a forward layout): a
    // block is scanned again only when the live-in set of a successor grew (a loop's back
    // edge), not in another sweep of the whole function. Live sets only grow as the iteration
    // goes, and every pressure counted below grows with the live set, so what a visit records
    // is at most what the fixed point gives at the same point, which each block's last visit
    // sees: recording on every visit gives the fixed point's maxima without a pass of its own.
    let mut queued = vec![true; nb];
    let mut work: std::collections::BinaryHeap<usize> = (0..nb).collect();
    while let Some(b) = work.pop() {
        queued[b] = false;
        block_live_in(vcode, b, &live_in, &mut live, Some(&mut max));
        // The set only grows, so one of the same size is the same set.
        if live.members.len() != live_in[b].len() {
            live_in[b].clone_from(&live.members);
            for p in &vcode.blocks()[b].preds {
                if !std::mem::replace(&mut queued[p.index()], true) {
                    work.push(p.index());
                }
            }
        }
    }
    max
}

/// Scan block `b` backwards from its live-out set, leaving its live-in set in `live`;
/// optionally record pressure maxima.
fn block_live_in<I: MachInst>(
    vcode: &VCode<I>,
    b: usize,
    live_in: &[Vec<u32>],
    live: &mut SparseSet,
    mut max: Option<&mut [u32; 3]>,
) {
    let data = &vcode.blocks()[b];
    live.clear();
    for s in &data.succs {
        for &v in &live_in[s.index()] {
            live.insert(v as usize);
        }
    }
    for args in &data.succ_args {
        for a in args {
            live.insert(a.index());
        }
    }
    let mut count = [0u32; 3];
    for &v in &live.members {
        count[vcode.vreg_class(v as usize).index()] += 1;
    }
    for i in data.insts.clone().rev() {
        let ops = vcode.inst_operands(i as usize);
        if let Some(m) = max.as_deref_mut() {
            // Late point: live-out plus every def plus late uses.
            let mut late = count;
            for op in ops {
                let late_use = op.kind == OperandKind::Use && op.pos == OperandPos::Late;
                if (op.kind == OperandKind::Def || late_use) && !live.contains(op.vreg.index()) {
                    late[op.vreg.class().index()] += 1;
                }
            }
            bump(m, &late);
        }
        for op in ops {
            if op.kind == OperandKind::Def && live.remove(op.vreg.index()) {
                count[op.vreg.class().index()] -= 1;
            }
        }
        for op in ops {
            if op.kind == OperandKind::Use && live.insert(op.vreg.index()) {
                count[op.vreg.class().index()] += 1;
            }
        }
        if let Some(m) = max.as_deref_mut() {
            // Early point: live-in plus early defs.
            let mut early = count;
            for op in ops {
                if op.kind == OperandKind::Def && op.pos == OperandPos::Early {
                    early[op.vreg.class().index()] += 1;
                }
            }
            bump(m, &early);
        }
    }
    if let Some(m) = max {
        // Block entry: parameters are defined here.
        let mut entry = count;
        for p in &data.params {
            if !live.contains(p.index()) {
                entry[p.class().index()] += 1;
            }
        }
        bump(m, &entry);
    }
    for p in &data.params {
        live.remove(p.index());
    }
}

fn bump(max: &mut [u32; 3], now: &[u32; 3]) {
    for (m, n) in max.iter_mut().zip(now) {
        *m = (*m).max(*n);
    }
}
