//! SASS instruction selection shared by sm_50 and sm_90: the machine
//! instruction type and the selector, which differ per target only in the
//! data of [`target::SassTarget`].

pub mod inst;
pub mod isel;
pub mod target;

pub use inst::{Flow, FormCache, MOp, SassInst};
pub use target::{SassTarget, SM50, SM90};
