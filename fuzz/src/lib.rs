//! atomc-fuzz: a differential fuzzer for atomc (placeholder docs; see below).

pub mod check;
pub mod gen;
mod guard;
pub mod rng;
pub mod run;
