//! (crate under construction)
