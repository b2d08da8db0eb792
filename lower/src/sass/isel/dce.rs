//! Dead-code elimination on selected code. Selection emits every constant
//! and address computation where the IR defines it; folding a constant
//! into an immediate field or an address into `IMAD.WIDE` or an offset
//! leaves the original instructions without readers. This removes every
//! instruction that only writes virtual registers nobody reads, until
//! nothing changes.

use crate::sass::inst::{Flow, MOp, SassInst};
use crate::vcode::{Reg, VReg};

/// One block's instructions and, for its terminator, the successor arguments.
pub(super) struct PendingBlock {
    pub insts: Vec<SassInst>,
    pub succ_args: Vec<Vec<VReg>>,
    /// The terminator's successors, parallel to `succ_args`.
    pub targets: Vec<crate::vcode::BlockId>,
}

/// What the resolved form's facts say of the instruction ([`SassInst::side_effects`]); one that
/// never resolved to a form is kept.
fn has_side_effects(inst: &SassInst) -> bool {
    inst.flow != Flow::None
        || inst.side_effects().unwrap_or(true)
        // Compares and carries write predicates the next instructions read.
        || inst.ops.iter().any(|op| matches!(op, MOp::Pred { num, .. } if *num != 7))
}

fn for_each_reg(inst: &SassInst, mut f: impl FnMut(VReg, bool)) {
    for op in &inst.ops {
        match op {
            MOp::Reg { reg: Reg::Virt { vreg, .. }, rule, .. } => f(*vreg, rule.is_def()),
            MOp::Mem { base: Reg::Virt { vreg, .. }, .. } | MOp::Tied { reg: Reg::Virt { vreg, .. }, .. } => {
                f(*vreg, false)
            }
            _ => {}
        }
    }
}

/// Removes dead pure instructions in place; returns how many went.
///
/// A worklist over use counts: an instruction dies when no register it writes has a reader
/// left, and its death can only kill the writers of what it read. Removal is monotone, so
/// this reaches the same result as sweeping the whole function until nothing changes, without
/// a sweep per link of a dead chain.
pub(super) fn run(blocks: &mut [PendingBlock], num_vregs: usize) -> usize {
    const NONE: u32 = u32::MAX;
    // Sized once (`num_vregs` registers, about one def per instruction), not grown.
    let num_insts: usize = blocks.iter().map(|b| b.insts.len()).sum();
    let mut uses: Vec<u32> = vec![0; num_vregs];
    // Every def site of each register (selection may write a register more than once, as
    // the two halves of a pair), as a linked list through `def_next`.
    let mut def_head: Vec<u32> = vec![NONE; num_vregs];
    let mut def_next: Vec<u32> = Vec::with_capacity(num_insts);
    let mut def_site: Vec<(u32, u32)> = Vec::with_capacity(num_insts);
    let grow = |v: &mut Vec<u32>, i: usize, fill: u32| {
        if v.len() <= i {
            v.resize(i + 1, fill);
        }
    };
    for (bi, b) in blocks.iter().enumerate() {
        for (ii, inst) in b.insts.iter().enumerate() {
            for_each_reg(inst, |v, def| {
                let i = v.index();
                if def {
                    grow(&mut def_head, i, NONE);
                    def_next.push(def_head[i]);
                    def_head[i] = def_site.len() as u32;
                    def_site.push((bi as u32, ii as u32));
                } else {
                    grow(&mut uses, i, 0);
                    uses[i] += 1;
                }
            });
        }
        for v in b.succ_args.iter().flatten() {
            grow(&mut uses, v.index(), 0);
            uses[v.index()] += 1;
        }
    }
    let used = |uses: &[u32], v: VReg| uses.get(v.index()).copied().unwrap_or(0) > 0;
    let is_dead = |uses: &[u32], inst: &SassInst| {
        if has_side_effects(inst) {
            return false;
        }
        let (mut defs, mut live) = (0, false);
        for_each_reg(inst, |v, def| {
            if def {
                defs += 1;
                live |= used(uses, v);
            }
        });
        defs > 0 && !live
    };
    let mut dead: Vec<Vec<bool>> = blocks.iter().map(|b| vec![false; b.insts.len()]).collect();
    let mut work: Vec<(u32, u32)> = Vec::new();
    // A dead instruction writes a register nobody reads: only the writers of those are looked
    // at again (a second sweep of every instruction would read the whole function once more).
    for (v, &head) in def_head.iter().enumerate() {
        if uses.get(v).copied().unwrap_or(0) > 0 {
            continue;
        }
        let mut site = head;
        while site != NONE {
            let (db, di) = def_site[site as usize];
            if !dead[db as usize][di as usize] && is_dead(&uses, &blocks[db as usize].insts[di as usize]) {
                dead[db as usize][di as usize] = true;
                work.push((db, di));
            }
            site = def_next[site as usize];
        }
    }
    let mut removed = work.len();
    let mut freed: Vec<VReg> = Vec::new();
    while let Some((bi, ii)) = work.pop() {
        for_each_reg(&blocks[bi as usize].insts[ii as usize], |v, def| {
            if !def {
                uses[v.index()] -= 1;
                if uses[v.index()] == 0 {
                    freed.push(v);
                }
            }
        });
        for v in freed.drain(..) {
            let mut site = def_head.get(v.index()).copied().unwrap_or(NONE);
            while site != NONE {
                let (db, di) = def_site[site as usize];
                if !dead[db as usize][di as usize] && is_dead(&uses, &blocks[db as usize].insts[di as usize]) {
                    dead[db as usize][di as usize] = true;
                    work.push((db, di));
                    removed += 1;
                }
                site = def_next[site as usize];
            }
        }
    }
    for (b, dead) in blocks.iter_mut().zip(&dead).filter(|(_, dead)| dead.contains(&true)) {
        let mut k = 0;
        b.insts.retain(|_| {
            k += 1;
            !dead[k - 1]
        });
    }
    removed
}
