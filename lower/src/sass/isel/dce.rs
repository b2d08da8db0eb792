//! Dead-code elimination on selected code. Selection emits every constant
//! and address computation where the IR defines it; folding a constant
//! into an immediate field or an address into `IMAD.WIDE` or an offset
//! leaves the original instructions without readers. This removes every
//! instruction that only writes virtual registers nobody reads, until
//! nothing changes.

use crate::sass::inst::{Flow, Latency, MOp, SassInst};
use crate::vcode::{Reg, VReg};
use std::collections::HashMap;

/// One block's instructions and, for its terminator, the successor arguments.
pub(super) struct PendingBlock {
    pub insts: Vec<SassInst>,
    pub succ_args: Vec<Vec<VReg>>,
    /// The terminator's successors, parallel to `succ_args`.
    pub targets: Vec<crate::vcode::BlockId>,
}

fn has_side_effects(inst: &SassInst) -> bool {
    inst.flow != Flow::None
        || inst.latency == Latency::Control
        || inst.opcode.starts_with("ATOM")
        || inst.opcode.starts_with("RED")
        || inst.opcode.starts_with("ST")
        || inst.opcode.starts_with("SU")
        // Compares and carries write predicates the next instructions read.
        || inst.ops.iter().any(|op| matches!(op, MOp::Pred { num, .. } if *num != 7))
}

fn for_each_reg(inst: &SassInst, mut f: impl FnMut(VReg, bool)) {
    for op in &inst.ops {
        match op {
            MOp::Reg { reg: Reg::Virt { vreg, .. }, rule, .. } => f(*vreg, rule.is_def()),
            MOp::Mem { base: Reg::Virt { vreg, .. }, .. } | MOp::Tied { reg: Reg::Virt { vreg, .. }, .. } => f(*vreg, false),
            _ => {}
        }
    }
}

/// Removes dead pure instructions in place; returns how many went.
pub(super) fn run(blocks: &mut [PendingBlock]) -> usize {
    let mut removed = 0;
    loop {
        let mut uses: HashMap<VReg, u32> = HashMap::new();
        for b in blocks.iter() {
            for inst in &b.insts {
                for_each_reg(inst, |v, def| {
                    if !def {
                        *uses.entry(v).or_default() += 1;
                    }
                });
            }
            for args in &b.succ_args {
                for v in args {
                    *uses.entry(*v).or_default() += 1;
                }
            }
        }
        let mut changed = false;
        for b in blocks.iter_mut() {
            b.insts.retain(|inst| {
                if has_side_effects(inst) {
                    return true;
                }
                let mut defs = 0;
                let mut live = false;
                for_each_reg(inst, |v, def| {
                    if def {
                        defs += 1;
                        live |= uses.get(&v).copied().unwrap_or(0) > 0;
                    }
                });
                let keep = defs == 0 || live;
                if !keep {
                    removed += 1;
                    changed = true;
                }
                keep
            });
        }
        if !changed {
            return removed;
        }
    }
}
