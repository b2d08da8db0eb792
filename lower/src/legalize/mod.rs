//! Legalization: rewrites a verified IR function, in place, into one the
//! target's instruction selector can translate instruction by instruction.
//! Every decision comes from the target's capability table
//! ([`crate::caps::TargetCaps`]).
//!
//! The passes, in order:
//! 0. [`shared_vars`] — `shared_addr smN` → the variable's constant offset;
//! 1. [`check`] and [`check_ops`] — reject what the target cannot express (atomics; bit
//!    ops, `fma`, multiply-high, subgroup instructions), naming op and target;
//! 2. [`widen_bits`] — `popcnt`/`clz`/`ctz`/`bitrev` of i8, i16 or i64 → the i32 op and a fix-up
//!    where the table says [`crate::caps_ops::OpLowering::FromI32`];
//! 3. [`negate_sub`] — `atomic_rmw sub x` → `atomic_rmw add (ineg x)`, `fsub x` → `fadd (fneg x)`;
//! 4. [`order_fences`] — an ordered atomic → `fence; relaxed atomic; fence`;
//! 5. [`cas_loop`] — ops the hardware lacks → compare-and-swap retry loops;
//! 6. [`nan_to_int`] — a float-to-integer conversion whose NaN result is not 0 on the target
//!    → the conversion, a NaN test and a select of 0;
//! 7. [`check_ops::unconverged`] — reject a subgroup instruction whose lanes the target cannot
//!    bring together after the loops before it (the CAS loops of step 5 included).
//!
//! Unused results are left alone: the instruction selector picks `RED`
//! when an atomic's result has no uses.

pub mod cas_loop;
pub mod check;
pub mod check_ops;
mod edit;
pub mod nan_to_int;
pub mod negate_sub;
pub mod order_fences;
pub mod shared_vars;
pub mod widen_bits;

use crate::caps::{AtomicKind, TargetCaps};
use atomc_ir::{Function, InstData, SrcLoc};

/// A target cannot express an instruction of the input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{target} cannot express `{op}` on {ty}{space}: {reason}")]
pub struct Unsupported {
    /// The target name.
    pub target: &'static str,
    /// The op as the IR spells it.
    pub op: String,
    /// The value type.
    pub ty: String,
    /// ` in <space> memory`, or empty for surfaces.
    pub space: String,
    /// Why.
    pub reason: &'static str,
    /// Where the instruction is.
    pub loc: SrcLoc,
    /// The instruction (of the input: the refusals come before any rewrite).
    pub inst: atomc_ir::Inst,
}

/// What the legalizer did, for reports and tests.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Stats {
    /// Bit counts rewritten into i32 ones.
    pub widened: usize,
    /// `sub` rewritten to `add`, `fsub` to `fadd`.
    pub negated: usize,
    /// Fences inserted for memory orders.
    pub fences: usize,
    /// CAS loops built (sub-word ones included).
    pub cas_loops: usize,
    /// Float-to-integer conversions given a select of 0 for NaN.
    pub nan_selects: usize,
}

/// Runs every pass. The function must already pass the IR verifier.
pub fn legalize(func: &mut Function, caps: &TargetCaps) -> Result<Stats, Vec<Unsupported>> {
    shared_vars::run(func);
    let mut refused = check::run(func, caps).err().unwrap_or_default();
    refused.extend(check_ops::run(func, caps));
    if !refused.is_empty() {
        refused.sort_by_key(|u| (u.loc.line, u.loc.col));
        return Err(refused);
    }
    let mut stats = Stats::default();
    stats.widened = widen_bits::run(func, caps);
    stats.negated = negate_sub::run(func, caps);
    stats.fences = order_fences::run(func, caps);
    stats.cas_loops = cas_loop::run(func, caps);
    stats.nan_selects = nan_to_int::run(func, caps);
    let unconverged = check_ops::unconverged(func, caps);
    if !unconverged.is_empty() {
        return Err(unconverged);
    }
    Ok(stats)
}

/// The capability-table key of an atomic instruction: kind, value type and
/// address space (None for surfaces).
pub fn atomic_key(func: &Function, data: &InstData) -> Option<(AtomicKind, atomc_ir::Type, Option<atomc_ir::AddrSpace>)> {
    let space = |a: &atomc_ir::Address| func.value_type(a.ptr).addr_space();
    Some(match data {
        InstData::AtomicRmw { op, ty, addr, .. } => (AtomicKind::Rmw(*op), *ty, space(addr)),
        InstData::AtomicCas { ty, addr, .. } => (AtomicKind::Cas, *ty, space(addr)),
        InstData::AtomicLoad { ty, addr, .. } => (AtomicKind::Load, *ty, space(addr)),
        InstData::AtomicStore { ty, addr, .. } => (AtomicKind::Store, *ty, space(addr)),
        InstData::SurfaceRmw { op, ty, .. } => (AtomicKind::SurfaceRmw(*op), *ty, None),
        InstData::SurfaceCas { ty, .. } => (AtomicKind::SurfaceCas, *ty, None),
        _ => return None,
    })
}
