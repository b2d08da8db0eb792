//! Lowering: per-target capability tables, legalization (IR → IR) and
//! instruction selection into machine IR.

pub mod caps;
pub mod caps_ops;
pub mod legalize;
pub mod ptx;
pub mod sass;
pub mod subgroup_sync;
pub mod uniform;
pub mod vcode;
pub mod visa;
