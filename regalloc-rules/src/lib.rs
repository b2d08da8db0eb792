//! Register allocation for the SASS targets.
//!
//! * [`rules`]: the register rules of sm_50 and sm_90 as one table per target.
//! * [`alloc`]: regalloc2 Ion on a [`VCode`], each register shape its own class, the environment
//!   sized from measured pressure, then the colouring onto the hardware file.
//! * [`rebuild`]: the final instruction list with hardware registers and inserted moves/spills.
//! * [`check`]: an independent checker of every rule on the final instructions.
//!
//! [`allocate_and_check`] runs all four ([`allocate_and_check_owned`], which rewrites the
//! selected instructions in place, is what the compile pipeline calls): the rule
//! checker runs on every compile, not only in debug builds.

pub mod adapter;
pub mod alloc;
pub mod check;
pub mod liveness;
pub mod rebuild;
pub mod rules;
mod ssa;

pub use alloc::{allocate, AllocError, AllocOptions, AllocStats, Allocation, Edit, EditAt};
pub use check::{check_allocation, check_inst, RuleError};
pub use rebuild::{apply, apply_in_place, FinalCode, Origin};
pub use rules::{rules, Sm, TargetRules};

use atomc_lower::vcode::{MachInst, VCode};

/// An allocated, checked function.
#[derive(Clone, Debug)]
pub struct Allocated<I> {
    /// The instructions on hardware registers.
    pub code: FinalCode<I>,
    /// What the allocator decided (register counts, edits, statistics).
    pub alloc: Allocation,
}

/// Allocate, rebuild and check `vcode` for `target`.
pub fn allocate_and_check<I: MachInst>(
    vcode: &VCode<I>,
    target: Sm,
    opts: &AllocOptions,
) -> Result<Allocated<I>, AllocError> {
    allocate_and_check_owned(vcode.clone(), target, opts)
}

/// [`allocate_and_check`] of a `vcode` the caller is done with: its instructions become the
/// allocated code in place instead of being copied ([`apply_in_place`]).
pub fn allocate_and_check_owned<I: MachInst>(
    mut vcode: VCode<I>,
    target: Sm,
    opts: &AllocOptions,
) -> Result<Allocated<I>, AllocError> {
    let rules = rules(target);
    let alloc = allocate(&vcode, rules, opts)?;
    let insts = vcode.take_insts();
    let code = apply_in_place(&vcode, insts, &alloc);
    check_allocation(rules, &vcode, &code)?;
    let mut code = code;
    code.drop_self_copies();
    Ok(Allocated { code, alloc })
}
