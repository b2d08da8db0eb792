//! (crate under construction)
pub mod vcode;
