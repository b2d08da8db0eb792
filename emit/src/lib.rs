//! (crate under construction)
pub mod codegen;
pub mod oracle;
pub mod visa;
pub mod ptx;
pub mod sass;
