//! The dependency pass: gives every instruction its schedule fields
//! (stall, scoreboards, wait mask) from the registers it reads and writes.
//!
//! Variable-latency instructions (memory, atomics, S2R, LDC, conversions)
//! set a write scoreboard when later code reads or overwrites their
//! results, and a read scoreboard when later code overwrites their sources;
//! consumers wait on those. Fixed-latency producers are covered by
//! stalling the instruction before a consumer until the result is ready.
//! Control flow is handled conservatively: a branch, an exit, a fence, and
//! the first instruction of every block wait on every open scoreboard, and
//! the instruction before a block boundary stalls until every fixed-latency
//! result is ready. Correct before fast: ptxas overlaps more.


/// What the pass needs to know of one instruction.
#[derive(Clone, Debug, Default)]
pub struct DepInfo {
    /// Registers read (GPR numbers; predicates as 256 + n).
    pub reads: Vec<u16>,
    /// Registers written.
    pub writes: Vec<u16>,
    /// `Some(cycles)` for fixed latency; `None` for variable latency.
    pub fixed_latency: Option<u8>,
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
    writes: Vec<u16>,
    /// Registers whose pending read this scoreboard tracks.
    reads: Vec<u16>,
    /// Instruction index that set it (for picking the oldest).
    since: usize,
    busy: bool,
}

/// Computes schedule fields for a straight list of instructions.
pub fn schedule(insts: &[DepInfo]) -> Vec<SchedBits> {
    let mut out = vec![SchedBits { stall: 1, wr_sb: NONE, rd_sb: NONE, wait: 0 }; insts.len()];
    let mut boards: [Board; NUM_SB] = Default::default();
    // Cycle at which a fixed-latency result becomes readable, per register.
    let mut ready: std::collections::HashMap<u16, u64> = Default::default();
    let mut cycle: u64 = 0;
    let mut last_wait_of: [Option<usize>; NUM_SB] = [None; NUM_SB];

    for (i, info) in insts.iter().enumerate() {
        // Stall the previous instruction until this one's inputs are ready.
        if i > 0 {
            let mut need = cycle;
            let drain = info.barrier || info.block_start;
            for (r, &t) in ready.iter() {
                if drain || info.reads.contains(r) || info.writes.contains(r) {
                    need = need.max(t);
                }
            }
            let extra = need.saturating_sub(cycle);
            if extra > 0 {
                let prev = &mut out[i - 1];
                let total = (prev.stall as u64 + extra).min(15);
                cycle += total - prev.stall as u64;
                prev.stall = total as u8;
            }
            if drain {
                ready.clear();
            }
        }

        // Waits.
        let mut wait = 0u8;
        for (sb, board) in boards.iter_mut().enumerate() {
            if !board.busy {
                continue;
            }
            let hit = info.barrier
                || info.block_start
                || board.writes.iter().any(|r| info.reads.contains(r) || info.writes.contains(r))
                || board.reads.iter().any(|r| info.writes.contains(r));
            if hit {
                wait |= 1 << sb;
                *board = Board::default();
                last_wait_of[sb] = Some(i);
            }
        }

        // Scoreboards this instruction sets.
        let mut wr_sb = NONE;
        let mut rd_sb = NONE;
        if info.fixed_latency.is_none() && !info.barrier {
            if !info.writes.is_empty() {
                let sb = pick(&mut boards, &mut wait, i, &last_wait_of);
                boards[sb] = Board { writes: info.writes.clone(), reads: Vec::new(), since: i, busy: true };
                wr_sb = sb as u8;
            }
            let gprs: Vec<u16> = info.reads.iter().copied().filter(|&r| r < 256).collect();
            if !gprs.is_empty() {
                let sb = pick(&mut boards, &mut wait, i, &last_wait_of);
                boards[sb] = Board { writes: Vec::new(), reads: gprs, since: i, busy: true };
                rd_sb = sb as u8;
            }
        }
        if let Some(lat) = info.fixed_latency {
            for &w in &info.writes {
                ready.insert(w, cycle + lat as u64);
            }
        }
        let stall = if info.barrier { 6 } else { 1 };
        out[i] = SchedBits { stall, wr_sb, rd_sb, wait };
        cycle += stall as u64;
    }
    out
}

/// A free scoreboard, else the oldest busy one (which the instruction then
/// waits on first).
fn pick(boards: &mut [Board; NUM_SB], wait: &mut u8, i: usize, last_wait_of: &[Option<usize>; NUM_SB]) -> usize {
    // Prefer a free board not waited on by this very instruction (a board
    // must be set at least one instruction after its last wait).
    let free = (0..NUM_SB).find(|&sb| !boards[sb].busy && last_wait_of[sb] != Some(i));
    if let Some(sb) = free {
        return sb;
    }
    let oldest = (0..NUM_SB).filter(|&sb| boards[sb].busy).min_by_key(|&sb| boards[sb].since);
    match oldest {
        Some(sb) => {
            *wait |= 1 << sb;
            boards[sb] = Board::default();
            sb
        }
        // All boards were waited on by this instruction: reuse one; the
        // caller's stall of at least 1 separates the wait and the set.
        None => (0..NUM_SB).find(|&sb| !boards[sb].busy).unwrap_or(0),
    }
}
