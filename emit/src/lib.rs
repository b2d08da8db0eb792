//! (crate under construction)
pub mod codegen;
pub mod cubin;
pub mod visa;
pub mod visa_lower;
pub mod ptx;
pub mod sass;
