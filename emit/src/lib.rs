//! (crate under construction)
pub mod oracle;
pub mod visa;
