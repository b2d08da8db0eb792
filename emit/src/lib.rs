//! (crate under construction)
pub mod oracle;
pub mod visa;
pub mod ptx;
