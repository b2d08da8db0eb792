//! atomc-fuzz: a differential fuzzer for atomc, a test oracle (not part of the library).
//!
//! Each seed gives a random valid kernel ([`gen`]) that runs through the reference interpreter,
//! atomc's compilers (sm_90, sm_50, vISA), ptxas on atomc's PTX and, with the `emu` feature, the
//! SASS emulator on both compilers' cubins ([`check`]); [`run`] sums many seeds.
//!
//! **Determinism rule**: a generated kernel's final memory does not depend on how threads
//! interleave. Contended words see one commutative operation family each; a word updated by one
//! constant function sends all its old values to one place (one ticket range compared as a
//! multiset, or one reduction); private memory is used freely; shared memory is written in one
//! barrier-delimited phase and read in others; barriers stay in block-uniform code. So a
//! mismatch is a bug, never a race. `docs/fuzzing.md` has the details and the commands.

pub mod check;
#[cfg(feature = "emu")]
mod emu_stage;
pub mod gen;
mod guard;
pub mod rng;
pub mod run;
