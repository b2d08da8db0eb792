//! Backward liveness on virtual registers, to measure register pressure (MaxLive) per class.
//!
//! The allocator's environment is sized from these numbers: regalloc2's Ion spreads values over
//! every register it is offered, and on a GPU each extra register costs occupancy, so offering
//! "pressure plus a little" keeps the register count near the minimum.

use atomc_lower::vcode::{MachInst, OperandKind, OperandPos, VCode};

/// A fixed-size bitset over virtual register indices.
#[derive(Clone, PartialEq, Eq)]
struct BitSet(Vec<u64>);

impl BitSet {
    fn new(n: usize) -> Self {
        BitSet(vec![0; n.div_ceil(64)])
    }
    fn insert(&mut self, i: usize) -> bool {
        let (w, b) = (i / 64, 1u64 << (i % 64));
        let was = self.0[w] & b != 0;
        self.0[w] |= b;
        !was
    }
    fn remove(&mut self, i: usize) -> bool {
        let (w, b) = (i / 64, 1u64 << (i % 64));
        let was = self.0[w] & b != 0;
        self.0[w] &= !b;
        was
    }
    fn contains(&self, i: usize) -> bool {
        self.0[i / 64] & (1u64 << (i % 64)) != 0
    }
    fn union_with(&mut self, o: &BitSet) {
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            *a |= *b;
        }
    }
    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &bits)| {
            let mut bits = bits;
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let t = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Some(w * 64 + t)
            })
        })
    }
}

/// Maximum number of simultaneously live values per class (Single, Pair, Quad), counting every
/// instruction's results and late sources together with what is live across it.
pub fn max_live<I: MachInst>(vcode: &VCode<I>) -> [u32; 3] {
    let n = vcode.num_vregs();
    let nb = vcode.num_blocks();
    let mut live_in = vec![BitSet::new(n); nb];
    // Iterate to a fixed point, blocks in reverse layout order (fast for forward layouts).
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..nb).rev() {
            let live = block_live_in(vcode, b, &live_in, None);
            if live != live_in[b] {
                live_in[b] = live;
                changed = true;
            }
        }
    }
    let mut max = [0u32; 3];
    for b in 0..nb {
        block_live_in(vcode, b, &live_in, Some(&mut max));
    }
    max
}

/// Scan block `b` backwards from its live-out set; optionally record pressure maxima.
fn block_live_in<I: MachInst>(
    vcode: &VCode<I>,
    b: usize,
    live_in: &[BitSet],
    mut max: Option<&mut [u32; 3]>,
) -> BitSet {
    let data = &vcode.blocks()[b];
    let mut live = BitSet::new(vcode.num_vregs());
    for s in &data.succs {
        live.union_with(&live_in[s.index()]);
    }
    for args in &data.succ_args {
        for a in args {
            live.insert(a.index());
        }
    }
    let mut count = [0u32; 3];
    for v in live.iter() {
        count[vcode.vreg_class(v).index()] += 1;
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
    live
}

fn bump(max: &mut [u32; 3], now: &[u32; 3]) {
    for (m, n) in max.iter_mut().zip(now) {
        *m = (*m).max(*n);
    }
}
