//! The subgroup rendezvous: when no live lane of a subgroup can run on
//! (each waits at a subgroup instruction or a `barrier`, or has returned),
//! the lanes waiting at each subgroup instruction that no other waiting
//! group is behind execute it together (the rule of
//! [`InstData`](crate::InstData#subgroups)); the others keep waiting.

use super::arith::{int_binop, sext};
use super::decode::{mask, Op, SubOp};
use super::error::InterpError;
use super::sched::{Machine, Status};
use crate::{BinaryOp, ReduceOp, ShuffleMode, Type, VoteOp};

impl Machine<'_, '_> {
    /// The threads of `t`'s subgroup: a range of linear thread numbers.
    fn subgroup_of(&self, t: usize) -> std::ops::Range<usize> {
        let block_start = t - t % self.tpb;
        let start = block_start + (t - block_start) / self.sg_size * self.sg_size;
        start..(start + self.sg_size).min(block_start + self.tpb)
    }

    /// Runs the subgroup instructions of `t`'s subgroup that are ready.
    pub(crate) fn check_subgroup(&mut self, t: usize) -> Result<(), InterpError> {
        let lanes = self.subgroup_of(t);
        let mut groups: Vec<(u32, u32)> = Vec::new(); // (pc, lane bits)
        for u in lanes.clone() {
            match self.status[u] {
                Status::Run => return Ok(()),
                Status::Sub(pc) => {
                    let bit = 1u32 << (u - lanes.start);
                    match groups.iter_mut().find(|g| g.0 == pc) {
                        Some(g) => g.1 |= bit,
                        None => groups.push((pc, bit)),
                    }
                }
                Status::Wait(_) | Status::Done => {}
            }
        }
        let ready: Vec<(u32, u32)> = groups
            .iter()
            .copied()
            .filter(|&(pc, _)| {
                !groups.iter().any(|&(other, _)| other != pc && self.reaches(other, pc) && !self.reaches(pc, other))
            })
            .collect();
        for (pc, active) in ready {
            self.execute_group(lanes.start, pc, active)?;
        }
        Ok(())
    }

    /// Whether a lane at `from` can get to `to` (`to` after `from` in one
    /// block, or `to`'s block reachable from `from`'s successors).
    fn reaches(&self, from: u32, to: u32) -> bool {
        let (bf, bt) = (self.prog.block_of[from as usize], self.prog.block_of[to as usize]);
        if bf == bt && from < to {
            return true;
        }
        let mut seen = vec![false; self.prog.succs.len()];
        let mut stack: Vec<u32> = self.prog.succs[bf as usize].clone();
        while let Some(b) = stack.pop() {
            if b == bt {
                return true;
            }
            if !std::mem::replace(&mut seen[b as usize], true) {
                stack.extend(&self.prog.succs[b as usize]);
            }
        }
        false
    }

    /// Runs the subgroup instruction at `pc` for the lanes `active` (bits
    /// relative to lane 0 at thread `first`), and lets them go on.
    fn execute_group(&mut self, first: usize, pc: u32, active: u32) -> Result<(), InterpError> {
        let Op::Subgroup { op, ty, dst, a, b } = self.prog.code[pc as usize] else {
            return Ok(());
        };
        let n = self.sg_size as u32;
        let lanes: Vec<u32> = (0..n).filter(|l| active >> l & 1 == 1).collect();
        // Every operand first, so that an undefined one names its lane.
        let mut xs = [0u64; 32];
        let mut ys = [0u64; 32];
        for &l in &lanes {
            let t = first + l as usize;
            let base = t * self.nvals;
            let site = || self.prog.site(pc as usize, Some(self.ids(t)));
            if op != SubOp::ActiveMask {
                xs[l as usize] = self.get(base, a).map_err(|f| f.at(site()))?;
            }
            if matches!(op, SubOp::Shuffle(_)) {
                ys[l as usize] = self.get(base, b).map_err(|f| f.at(site()))?;
            }
        }
        let ballot = lanes.iter().filter(|&&l| xs[l as usize] & 1 == 1).fold(0u32, |m, &l| m | 1 << l);
        let first_x = xs[lanes[0] as usize];
        let reduced = match op {
            SubOp::Reduce(r) => lanes.iter().skip(1).fold(first_x, |acc, &l| combine(r, ty, acc, xs[l as usize])),
            _ => 0,
        };
        for &l in &lanes {
            let x = xs[l as usize];
            let v = match op {
                SubOp::ActiveMask => active as u64,
                SubOp::Ballot => ballot as u64,
                SubOp::Vote(VoteOp::Any) => (ballot != 0) as u64,
                SubOp::Vote(VoteOp::All) => (ballot == active) as u64,
                SubOp::Vote(VoteOp::Eq) => lanes.iter().all(|&k| xs[k as usize] == first_x) as u64,
                SubOp::MatchAny => lanes.iter().filter(|&&k| xs[k as usize] == x).fold(0u32, |m, &k| m | 1 << k) as u64,
                SubOp::Reduce(_) => reduced,
                SubOp::Shuffle(mode) => match source(mode, l, ys[l as usize] as u32, n) {
                    Some(s) if active >> s & 1 == 1 => xs[s as usize],
                    _ => x,
                },
            };
            let t = first + l as usize;
            self.set(t * self.nvals, dst, v);
            self.status[t] = Status::Run;
        }
        Ok(())
    }
}

/// The lane `shuffle` reads for lane `l`, or `None` when it is out of range.
fn source(mode: ShuffleMode, l: u32, y: u32, n: u32) -> Option<u32> {
    match mode {
        ShuffleMode::Idx => Some(y % n),
        ShuffleMode::Up => l.checked_sub(y),
        ShuffleMode::Down => l.checked_add(y).filter(|&s| s < n),
        ShuffleMode::Xor => Some(l ^ (y % n)),
    }
}

/// One step of a reduction of `ty`-typed integers.
fn combine(op: ReduceOp, ty: Type, a: u64, b: u64) -> u64 {
    let w = ty.bits();
    let bin = |o: BinaryOp| int_binop(o, ty, a, b).unwrap_or(0);
    match op {
        ReduceOp::Add => bin(BinaryOp::Iadd),
        ReduceOp::Umin => a.min(b),
        ReduceOp::Umax => a.max(b),
        ReduceOp::Smin => mask(sext(a, w).min(sext(b, w)) as u64, w),
        ReduceOp::Smax => mask(sext(a, w).max(sext(b, w)) as u64, w),
        ReduceOp::And => a & b,
        ReduceOp::Or => a | b,
        ReduceOp::Xor => a ^ b,
    }
}
