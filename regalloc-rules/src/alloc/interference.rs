//! Which of regalloc2's registers are live together in the allocated code, and which selected
//! copies may join their two sides on one hardware register: what [`super::HwMap::compact`]
//! colours from.

use crate::adapter::shape_of;
use atomc_lower::vcode::{MachInst, Reg, VCode};
use regalloc2 as ra2;

/// Which of regalloc2's registers (class × 64 + encoding) are used, which are live at once, and
/// which are joined by a move, over the allocated code.
pub(super) struct Interference {
    used: [u64; 3],
    clash: Vec<[u64; 3]>,
    moves: Vec<(usize, usize)>,
    pub(super) joins: Vec<Join>,
}

/// A selected copy from unit `sk` of register `s` into unit `dk` of register `d` (regalloc2's
/// registers, as ids). `broken` once anything but the copies themselves, or writes of `d`'s
/// other units, makes the two clash: then they may not share a register.
pub(super) struct Join {
    pub(super) d: usize,
    pub(super) dk: u8,
    pub(super) s: usize,
    pub(super) sk: u8,
    insts: Vec<usize>,
    pub(super) broken: bool,
}

type Live = [u64; 3];

fn bit(id: usize) -> (usize, u64) {
    (id / 64, 1u64 << (id % 64))
}

fn preg_id(a: ra2::Allocation) -> Option<usize> {
    a.as_reg().map(|p| shape_of(p.class()).index() * 64 + p.hw_enc())
}

impl Interference {
    pub(super) fn build<I: MachInst, F: ra2::Function>(vcode: &VCode<I>, func: &F, out: &ra2::Output) -> Interference {
        let n = func.num_insts();
        // Edits at key 2*inst (before) and 2*inst+1 (after) are out.edits[starts[k]..starts[k+1]].
        let key = |p: ra2::ProgPoint| 2 * p.inst().index() + usize::from(p.pos() == ra2::InstPosition::After);
        let mut starts = vec![0usize; 2 * n + 1];
        let mut e = 0;
        for (k, s) in starts.iter_mut().enumerate() {
            while e < out.edits.len() && key(out.edits[e].0) < k {
                e += 1;
            }
            *s = e;
        }
        let mut this = Interference { used: [0; 3], clash: vec![[0; 3]; 192], moves: Vec::new(), joins: Vec::new() };
        for i in 0..n {
            let Some((fd, fs)) = vcode.inst(i).copy_fields() else { continue };
            let f = vcode.inst_fields(i);
            let allocs = out.inst_allocs(ra2::Inst::new(i));
            let unit = |k: usize| match f.get(k) {
                Some(&atomc_lower::vcode::Field { reg: Reg::Virt { sub, .. }, operand: Some(o), .. }) => {
                    preg_id(allocs[o as usize]).map(|id| (id, sub))
                }
                _ => None,
            };
            let (Some((d, dk)), Some((s, sk))) = (unit(fd), unit(fs)) else { continue };
            if d == s {
                continue;
            }
            match this.joins.iter_mut().find(|j| (j.d, j.dk, j.s, j.sk) == (d, dk, s, sk)) {
                Some(j) => j.insts.push(i),
                None => this.joins.push(Join { d, dk, s, sk, insts: vec![i], broken: false }),
            }
        }
        let blocks = func.num_blocks();
        let mut live_in = vec![[0u64; 3]; blocks];
        // The fixpoint by a worklist, highest block first: a block is scanned again only when a
        // successor's live-in set changed (a loop's back edge), not in another sweep of the
        // whole function. Then one pass records the clashes, in reverse layout order.
        let mut queued = vec![true; blocks];
        let mut work: std::collections::BinaryHeap<usize> = (0..blocks).collect();
        while let Some(b) = work.pop() {
            queued[b] = false;
            let live = this.block_back(vcode, func, out, &starts, &live_in, b, false);
            if live != live_in[b] {
                live_in[b] = live;
                for p in func.block_preds(ra2::Block::new(b)) {
                    if !std::mem::replace(&mut queued[p.index()], true) {
                        work.push(p.index());
                    }
                }
            }
        }
        for b in (0..blocks).rev() {
            this.block_back(vcode, func, out, &starts, &live_in, b, true);
        }
        this
    }

    /// Scans block `b` backwards from its successors' live-in sets; returns its live-in set.
    #[allow(clippy::too_many_arguments)]
    fn block_back<I: MachInst, F: ra2::Function>(
        &mut self,
        vcode: &VCode<I>,
        func: &F,
        out: &ra2::Output,
        starts: &[usize],
        live_in: &[Live],
        b: usize,
        record: bool,
    ) -> Live {
        let block = ra2::Block::new(b);
        let mut live: Live = [0; 3];
        for s in func.block_succs(block) {
            for w in 0..3 {
                live[w] |= live_in[s.index()][w];
            }
        }
        let r = func.block_insns(block);
        for i in (r.first().index()..=r.last().index()).rev() {
            self.edits_back(out, starts[2 * i + 1]..starts[2 * i + 2], &mut live, record);
            self.inst_back(vcode, func, out, i, &mut live, record);
            self.edits_back(out, starts[2 * i]..starts[2 * i + 1], &mut live, record);
        }
        live
    }

    fn clash_with(&mut self, id: usize, set: &Live) {
        for w in 0..3 {
            let mut m = set[w];
            while m != 0 {
                let other = w * 64 + m.trailing_zeros() as usize;
                m &= m - 1;
                if other != id {
                    let (a, ab) = bit(other);
                    let (b, bb) = bit(id);
                    self.clash[id][a] |= ab;
                    self.clash[other][b] |= bb;
                }
            }
        }
    }

    fn edits_back(&mut self, out: &ra2::Output, r: std::ops::Range<usize>, live: &mut Live, record: bool) {
        for (_, ra2::Edit::Move { from, to }) in out.edits[r].iter().rev() {
            if let Some(d) = preg_id(*to) {
                let (w, m) = bit(d);
                self.used[w] |= m;
                if record {
                    // The source, when it dies here, may share the destination's register.
                    self.clash_with(d, live);
                    self.break_joins(d, 0xf, None, live);
                    if let Some(s) = preg_id(*from) {
                        self.moves.push((d, s));
                    }
                }
                live[w] &= !m;
            }
            if let Some(s) = preg_id(*from) {
                let (w, m) = bit(s);
                self.used[w] |= m;
                live[w] |= m;
            }
        }
    }

    /// A write of `units` of register `x` at instruction `inst` (None: a regalloc2 move) while
    /// the registers of `live` are live, or read by the same instruction: it breaks the joins
    /// of `x` with them unless it is the join's copy itself, or writes none of the join's
    /// destination unit.
    fn break_joins(&mut self, x: usize, units: u8, inst: Option<usize>, live: &Live) {
        for j in self.joins.iter_mut().filter(|j| !j.broken) {
            let other = if j.d == x {
                j.s
            } else if j.s == x {
                j.d
            } else {
                continue;
            };
            let (w, m) = bit(other);
            if live[w] & m == 0 {
                continue;
            }
            let explained = j.d == x && (inst.is_some_and(|i| j.insts.contains(&i)) || units & (1 << j.dk) == 0);
            if !explained {
                j.broken = true;
            }
        }
    }

    /// Whether unit `a` of register `x` and unit `b` of register `y` may be one register.
    pub(super) fn joined(&self, x: usize, a: u8, y: usize, b: u8) -> bool {
        self.joins
            .iter()
            .any(|j| !j.broken && ((j.d, j.dk, j.s, j.sk) == (x, a, y, b) || (j.d, j.dk, j.s, j.sk) == (y, b, x, a)))
    }

    fn inst_back<I: MachInst, F: ra2::Function>(
        &mut self,
        vcode: &VCode<I>,
        func: &F,
        out: &ra2::Output,
        i: usize,
        live: &mut Live,
        record: bool,
    ) {
        let inst = ra2::Inst::new(i);
        let mut defs: Live = [0; 3];
        let mut uses: Live = [0; 3];
        for (op, a) in func.inst_operands(inst).iter().zip(out.inst_allocs(inst)) {
            if let Some(id) = preg_id(*a) {
                let (w, m) = bit(id);
                self.used[w] |= m;
                match op.kind() {
                    ra2::OperandKind::Def => defs[w] |= m,
                    ra2::OperandKind::Use => uses[w] |= m,
                }
            }
        }
        if record {
            let all: Live = std::array::from_fn(|w| live[w] | defs[w] | uses[w]);
            for w in 0..3 {
                let mut m = defs[w];
                while m != 0 {
                    let d = w * 64 + m.trailing_zeros() as usize;
                    m &= m - 1;
                    self.clash_with(d, &all);
                    if !self.joins.is_empty() {
                        // The units of `d` this instruction's fields write.
                        // A copy writes one register whatever width its field names (a
                        // copy that defines a tuple names the whole tuple).
                        let allocs = out.inst_allocs(inst);
                        let copy = vcode.inst(i).copy_fields().is_some();
                        let mut units = 0u8;
                        for f in vcode.inst_fields(i) {
                            if let (Reg::Virt { sub, .. }, Some(o)) = (f.reg, f.operand) {
                                if f.rule.is_def() && preg_id(allocs[o as usize]) == Some(d) {
                                    let width = if copy { 1 } else { f.width };
                                    units |= (((1u16 << width) - 1) << sub) as u8;
                                }
                            }
                        }
                        // An atomic reads all its sources before its result lands (ptxas
                        // writes ATOM.CAS's result over its own swap register), so its result
                        // may land on a joined register it reads; other instructions stay
                        // conservative.
                        let seen = if vcode.inst(i).reads_before_writing() {
                            std::array::from_fn(|w| live[w] | defs[w])
                        } else {
                            all
                        };
                        self.break_joins(d, units, Some(i), &seen);
                    }
                }
            }
        }
        for w in 0..3 {
            live[w] = (live[w] & !defs[w]) | uses[w];
        }
    }

    pub(super) fn used(&self, id: usize) -> bool {
        let (w, m) = bit(id);
        self.used[w] & m != 0
    }

    pub(super) fn interferes(&self, a: usize, b: usize) -> bool {
        let (w, m) = bit(b);
        self.clash[a][w] & m != 0
    }

    /// Registers joined to `id` by a move (same class).
    pub(super) fn partners(&self, id: usize) -> impl Iterator<Item = usize> + '_ {
        self.moves.iter().filter_map(move |&(d, s)| {
            if d == id {
                Some(s)
            } else if s == id {
                Some(d)
            } else {
                None
            }
        })
    }
}
