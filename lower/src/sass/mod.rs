//! SASS instruction selection shared by sm_50 and sm_90: the machine
//! instruction type and the selector, which differ per target in the data of
//! [`target::SassTarget`] and in the selection rules of `isel::Isa` (one
//! implementation per target, `isel/sm50/` and `isel/sm90/`).

pub mod inst;
pub mod isel;
pub mod target;

pub use inst::{Flow, FormCache, MOp, SassInst, SharedForms};
pub use target::{SassTarget, SM50, SM90};
