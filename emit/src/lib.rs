//! Post-allocation SASS emission: block layout, scheduling and control words, reconvergence
//! (`codegen`), and the cubin description of a compiled kernel (`describe`). The SASS form
//! tables and the cubin container live in the leaf crate `atomc-sass`, the vISA model in
//! `atomc-visa`; both are re-exported here under their old paths.

pub mod codegen;
pub mod describe;

pub use atomc_sass as sass;
pub use atomc_sass::cubin;
pub use atomc_visa as visa;
