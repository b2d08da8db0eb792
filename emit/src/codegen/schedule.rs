//! The dependency pass: gives every instruction its schedule fields
//! (stall, scoreboards, wait mask) from the registers it reads and writes.
//!
//! Variable-latency instructions (memory, atomics, S2R, LDC, conversions)
//! set a write scoreboard when later code reads or overwrites their
//! results, and a read scoreboard when later code overwrites their sources;
//! consumers wait on those. Fixed-latency producers are covered by
//! stalling the instruction before a consumer until the result is ready
//! (figures per target and pipe in [`crate::sass::latency`]).
//!
//! A scoreboard becomes usable one cycle late: no instruction waits on a
//! scoreboard sooner than [`SB_SET_TO_WAIT`] cycles after the instruction
//! that set it (ptxas 13.5 / 11.8 never do; Mesa's NAK enforces the same).
//!
//! Control flow is handled conservatively: a branch, an exit, a fence, and
//! the first instruction of every block wait on every open scoreboard, and
//! the instruction before a block boundary stalls until every fixed-latency
//! result is ready. Correct before fast: ptxas overlaps more.

use crate::sass::latency::{Pipe, Reader, Timing, OTHER, PRED_TO_GUARD};
use smallvec::SmallVec;

/// Cycles from a scoreboard's set to the first instruction that may wait on it. ptxas's own
/// schedules: 2,133 sm_90 and 478 sm_50 waits exactly 2 cycles after the set, none at 1.
pub const SB_SET_TO_WAIT: u64 = 2;

/// What the pass needs to know of one instruction.
#[derive(Clone, Debug)]
pub struct DepInfo {
    /// Registers read as operands (GPR numbers; predicates as 256 + n; carry 264).
    pub reads: SmallVec<[u16; 12]>,
    /// The guard predicate (256 + n) or branch condition, read by the issue logic.
    pub guard: Option<u16>,
    /// Registers written.
    pub writes: SmallVec<[u16; 6]>,
    /// `Some(pipe)` for a fixed-latency producer; `None` for variable latency.
    pub pipe: Option<Pipe>,
    /// How the instruction reads its operands.
    pub reader: Reader,
    /// Waits on every scoreboard and drains fixed latencies first.
    pub barrier: bool,
    /// First instruction of a block (a possible branch target).
    pub block_start: bool,
}

/// Schedule fields computed for one instruction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SchedBits {
    pub stall: u8,
    pub wr_sb: u8,
    pub rd_sb: u8,
    pub wait: u8,
}

const NUM_SB: usize = 6;
const NONE: u8 = 7;

#[derive(Default, Clone)]
struct Board {
    /// Registers whose pending write this scoreboard tracks.
    writes: SmallVec<[u16; 6]>,
    /// Registers whose pending read this scoreboard tracks.
    reads: SmallVec<[u16; 12]>,
    /// Instruction index that set it (for picking the oldest).
    since: usize,
    /// Issue cycle of that instruction.
    set_cycle: u64,
    busy: bool,
}

/// A fixed-latency result in flight.
#[derive(Clone, Copy)]
struct Pending {
    issued: u64,
    pipe: Pipe,
}

/// The longest latency of any producer and reader (a predicate read by a guard): a result
/// issued this many cycles ago delays nothing.
const MAX_LATENCY: u8 = PRED_TO_GUARD;

/// The fixed-latency results in flight by register: a sparse set (Briggs and Torczon) over the
/// register numbering, so an instruction costs the results in flight, with no hashing, and a
/// block start clears it in constant time. Order is immaterial: readers take the maximum.
#[derive(Default)]
struct PendingSet {
    list: Vec<(u16, Pending)>,
    /// Where each register's entry sits in `list` (stale unless it points back).
    at: Vec<u32>,
}

impl PendingSet {
    fn find(&self, r: u16) -> Option<usize> {
        let k = *self.at.get(usize::from(r))? as usize;
        (k < self.list.len() && self.list[k].0 == r).then_some(k)
    }

    fn insert(&mut self, r: u16, p: Pending) {
        match self.find(r) {
            Some(k) => self.list[k].1 = p,
            None => {
                if self.at.len() <= usize::from(r) {
                    self.at.resize(usize::from(r) + 1, 0);
                }
                self.at[usize::from(r)] = self.list.len() as u32;
                self.list.push((r, p));
            }
        }
    }

    fn remove(&mut self, r: u16) {
        if let Some(k) = self.find(r) {
            self.list.swap_remove(k);
            if let Some(&(moved, _)) = self.list.get(k) {
                self.at[usize::from(moved)] = k as u32;
            }
        }
    }

    fn clear(&mut self) {
        self.list.clear();
    }
}

/// The sm_50 condition-code register in the numbering of [`DepInfo`] (after P0..P7).
pub const CARRY: u16 = 264;

/// Predicates are 256 + n; the carry register is not one (its latency is an ALU result's).
fn is_pred(r: u16) -> bool {
    (256..CARRY).contains(&r)
}

/// Computes schedule fields for a straight list of instructions.
pub fn schedule(insts: &[DepInfo], timing: Timing) -> Vec<SchedBits> {
    let mut out: Vec<SchedBits> = Vec::with_capacity(insts.len());
    let mut s = Scheduler::new(timing);
    for info in insts {
        let (bits, prev_stall) = s.next(info);
        if let (Some(stall), Some(prev)) = (prev_stall, out.last_mut()) {
            prev.stall = stall;
        }
        out.push(bits);
    }
    out
}

/// [`schedule`] one instruction at a time, for a caller that does not keep every
/// instruction's [`DepInfo`] (emission, which sets the fields as it goes).
pub struct Scheduler {
    timing: Timing,
    boards: [Board; NUM_SB],
    pending: PendingSet,
    /// Issue cycle of the current instruction.
    cycle: u64,
    last_wait_of: [Option<usize>; NUM_SB],
    /// Index of the next instruction.
    i: usize,
    /// The stall given to the previous instruction.
    prev_stall: u8,
}

impl Scheduler {
    pub fn new(timing: Timing) -> Scheduler {
        Scheduler {
            timing,
            boards: Default::default(),
            pending: PendingSet::default(),
            cycle: 0,
            last_wait_of: [None; NUM_SB],
            i: 0,
            prev_stall: 1,
        }
    }

    /// The fields of the next instruction, and the new stall of the one before it when this
    /// one has to wait longer than that one's stall gave.
    pub fn next(&mut self, info: &DepInfo) -> (SchedBits, Option<u8>) {
        let i = self.i;
        let drain = info.barrier || info.block_start;

        // Scoreboards this instruction waits on: those tracking what it touches, and at a
        // barrier or block start all of them.
        let mut wait = 0u8;
        for (sb, board) in self.boards.iter().enumerate() {
            let hit = board.busy
                && (drain
                    || board
                        .writes
                        .iter()
                        .any(|r| info.reads.contains(r) || info.writes.contains(r) || info.guard == Some(*r))
                    || board.reads.iter().any(|r| info.writes.contains(r)));
            if hit {
                wait |= 1 << sb;
            }
        }
        for sb in 0..NUM_SB {
            if wait & (1 << sb) != 0 {
                self.boards[sb].busy = false;
                self.last_wait_of[sb] = Some(i);
            }
        }

        // Scoreboards this instruction sets (choosing may force a wait on the oldest).
        let mut wr_sb = NONE;
        let mut rd_sb = NONE;
        let mut sets: SmallVec<[(usize, Board); 2]> = SmallVec::new();
        if info.pipe.is_none() && !info.barrier {
            if !info.writes.is_empty() {
                let sb = pick(&mut self.boards, &mut wait, i, &self.last_wait_of, &sets);
                sets.push((sb, Board { writes: info.writes.clone(), ..Board::default() }));
                wr_sb = sb as u8;
            }
            let gprs: SmallVec<[u16; 12]> = info.reads.iter().copied().filter(|&r| r < 256).collect();
            if !gprs.is_empty() {
                let sb = pick(&mut self.boards, &mut wait, i, &self.last_wait_of, &sets);
                sets.push((sb, Board { reads: gprs, ..Board::default() }));
                rd_sb = sb as u8;
            }
        }

        // The earliest cycle this instruction may issue.
        let mut need = self.cycle;
        for (sb, board) in self.boards.iter().enumerate() {
            if wait & (1 << sb) != 0 {
                need = need.max(board.set_cycle + SB_SET_TO_WAIT);
            }
        }
        let mut k = 0;
        while let Some(&(r, p)) = self.pending.list.get(k) {
            if p.issued + u64::from(MAX_LATENCY) <= self.cycle {
                // Ready for any reader now and later: no need to look at it again (the last
                // entry takes its place).
                self.pending.remove(r);
                continue;
            }
            k += 1;
            let lat = if drain {
                Some(if is_pred(r) { PRED_TO_GUARD } else { OTHER.max(self.timing.longest(p.pipe)) })
            } else if info.guard == Some(r) {
                Some(self.timing.latency(p.pipe, true, Reader::Guard))
            } else if info.reads.contains(&r) {
                Some(self.timing.latency(p.pipe, is_pred(r), info.reader))
            } else if info.writes.contains(&r) {
                Some(self.timing.latency(p.pipe, is_pred(r), Reader::Other))
            } else {
                None
            };
            if let Some(lat) = lat {
                debug_assert!(lat <= MAX_LATENCY, "latency {lat} above MAX_LATENCY");
                need = need.max(p.issued + lat as u64);
            }
        }
        let mut prev_stall = None;
        if need > self.cycle {
            // Only the previous instruction's stall can delay this one (i > 0: at i = 0 nothing
            // is pending). Every latency is at most 13, so the stall stays within 15.
            let total = self.prev_stall as u64 + (need - self.cycle);
            debug_assert!(total <= 15, "stall {total} out of range");
            prev_stall = Some(total.min(15) as u8);
            self.cycle = need;
        }
        if drain {
            self.pending.clear();
        }

        for (sb, mut board) in sets {
            board.since = i;
            board.set_cycle = self.cycle;
            board.busy = true;
            self.boards[sb] = board;
        }
        if let Some(pipe) = info.pipe {
            for &w in &info.writes {
                self.pending.insert(w, Pending { issued: self.cycle, pipe });
            }
        } else {
            // A variable-latency write supersedes any fixed-latency one in flight.
            for &w in &info.writes {
                self.pending.remove(w);
            }
        }
        let stall = if info.barrier { 6 } else { 1 };
        self.cycle += stall as u64;
        self.prev_stall = stall;
        self.i += 1;
        (SchedBits { stall, wr_sb, rd_sb, wait }, prev_stall)
    }
}

/// A free scoreboard, else the oldest busy one (which the instruction then waits on first).
/// `taken` are the boards this instruction already claimed.
fn pick(
    boards: &mut [Board; NUM_SB],
    wait: &mut u8,
    i: usize,
    last_wait_of: &[Option<usize>; NUM_SB],
    taken: &[(usize, Board)],
) -> usize {
    let claimed = |sb: usize| taken.iter().any(|(t, _)| *t == sb);
    // Prefer a free board not waited on by this very instruction (a board is set at least one
    // instruction after its last wait).
    let free = (0..NUM_SB).find(|&sb| !boards[sb].busy && !claimed(sb) && last_wait_of[sb] != Some(i));
    if let Some(sb) = free {
        return sb;
    }
    let oldest = (0..NUM_SB).filter(|&sb| boards[sb].busy && !claimed(sb)).min_by_key(|&sb| boards[sb].since);
    match oldest {
        Some(sb) => {
            *wait |= 1 << sb;
            boards[sb].busy = false;
            sb
        }
        // Every board was waited on by this instruction: reuse one; the stall of at least 1
        // separates the wait and the set.
        None => (0..NUM_SB).find(|&sb| !boards[sb].busy && !claimed(sb)).unwrap_or(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inst(reads: &[u16], writes: &[u16], pipe: Option<Pipe>) -> DepInfo {
        DepInfo {
            reads: reads.into(),
            guard: None,
            writes: writes.into(),
            pipe,
            reader: Reader::Alu,
            barrier: false,
            block_start: false,
        }
    }

    /// `LDC R4` then an atomic reading R4: the wait comes two cycles after the set.
    #[test]
    fn wait_two_cycles_after_set() {
        let s = schedule(&[inst(&[], &[4], None), inst(&[2, 3, 4], &[], None)], Timing::Sm90);
        assert_eq!(s[0].wr_sb, 0);
        assert_eq!(s[1].wait, 1);
        assert_eq!(s[0].stall, 2);
    }

    /// ALU → ALU is 4 cycles on sm_90, 6 on sm_50.
    #[test]
    fn fixed_latency_per_target() {
        let prog = [inst(&[1], &[2], Some(Pipe::Alu)), inst(&[2], &[3], Some(Pipe::Alu))];
        assert_eq!(schedule(&prog, Timing::Sm90)[0].stall, 4);
        let prog50 = [inst(&[1], &[2], Some(Pipe::Other)), inst(&[2], &[3], Some(Pipe::Other))];
        assert_eq!(schedule(&prog50, Timing::Sm50)[0].stall, 6);
    }

    /// A compare feeding a guard: 13 cycles.
    #[test]
    fn predicate_to_guard() {
        let mut br = inst(&[], &[], Some(Pipe::Other));
        br.guard = Some(256);
        let s = schedule(&[inst(&[1], &[256], Some(Pipe::Alu)), br], Timing::Sm90);
        assert_eq!(s[0].stall, 13);
    }
}
