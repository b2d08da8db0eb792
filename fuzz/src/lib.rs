//! atomc-fuzz: a differential fuzzer for atomc (placeholder docs; see below).

pub mod check;
#[cfg(feature = "emu")]
mod emu_stage;
pub mod gen;
mod guard;
pub mod rng;
pub mod run;
