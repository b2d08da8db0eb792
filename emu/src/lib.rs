//! An emulator of sm_90 and sm_50 machine code: runs a kernel of a cubin over a grid of blocks
//! of warps, with global, shared, local and constant memory, SIMT divergence with each target's
//! reconvergence rules, atomics with the reference interpreter's semantics, and a timing model
//! of the schedule fields (stalls, scoreboards) that reports a hazard instead of computing with
//! a value the hardware would not have delivered yet.
//!
//! Instructions are decoded through `atomc_emit::sass`'s form tables (the same tables atomc
//! encodes with and nvdisasm's text is checked against); semantics are keyed by mnemonic and
//! modifier spellings. What the emulator does not model is an [`EmuError::Unsupported`] naming
//! the instruction, never a panic.
//!
//! Limits: the form tables do not decode every word ptxas writes yet (`tests/emu_ptxas.rs`
//! lists what is left: sm_50 `LOP` with an inverted constant and `BRA CC.EQ`; on sm_90
//! carry-out `IMAD.WIDE`/`IMAD.HI`, uniform-register shapes of FP64 ops, `UISETP`/`USEL`, and
//! others), which run as [`EmuError::Decode`]; sm_50 `LEA.HI.X`'s predicate result is modelled
//! from ptxas's use only (the address lies outside the shared window); global memory is
//! sequentially consistent under the round-robin schedule and weakly ordered under the random
//! one (per-SM store buffers and L1s, [`order`]); `CALL`/`RET` and textures are not modelled; which
//! side of a divergent sm_50 branch runs first (the fall-through) is a modelling choice.
//!
//! ```no_run
//! use atomc_emu::{run_cubin, Launch, Param};
//! # let cubin: Vec<u8> = Vec::new();
//! let mut launch = Launch::new([2, 1, 1], [64, 1, 1]);
//! launch.buffers = vec![vec![0; 4]];
//! launch.params = vec![Param::Buffer { index: 0, offset: 0 }];
//! let out = run_cubin(&cubin, "count", &launch).unwrap();
//! assert_eq!(out.buffers[0], 128u32.to_le_bytes());
//! ```

mod alu;
mod atomic;
mod control;
mod error;
mod exec;
mod kernel;
mod machine;
mod memory;
mod order;
mod rng;
mod simt;
mod sm50;
mod sm90;
mod sm90_bits;
mod surface;
#[cfg(test)]
mod tests;
mod timing;
mod warp;

pub use error::EmuError;
pub use rng::Rng;
pub use kernel::Kernel;

use std::collections::BTreeMap;

/// A kernel parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Param {
    /// A value by its little-endian bytes (as many as the parameter's size).
    Bytes(Vec<u8>),
    /// The device address of `buffers[index]` plus `offset` (a 64-bit pointer parameter).
    Buffer { index: usize, offset: u64 },
}

/// How warps (and the divergent paths of one warp) take turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// Every warp issues one instruction per round, in order.
    RoundRobin,
    /// A seeded pseudo-random ready warp issues next, so that other interleavings show.
    Random(u64),
}

/// One launch.
#[derive(Clone, Debug)]
pub struct Launch {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// Dynamic shared memory per block, in bytes.
    pub shared_bytes: u32,
    pub params: Vec<Param>,
    /// Global buffers; buffer `i` is mapped at `0x1_0000_0000 * (i + 1)`, the reference
    /// interpreter's addresses, so pointers stored to memory have the interpreter's values.
    pub buffers: Vec<Vec<u8>>,
    pub schedule: Schedule,
    /// Warp instructions issued before the run is given up ([`EmuError::StepLimit`]).
    pub step_limit: u64,
    /// Check the schedule fields against the timing model ([`EmuError::Hazard`]).
    pub check_timing: bool,
    /// Surfaces, with the interpreter's layout; surface `i`'s header word is `i`.
    pub surfaces: Vec<atomc_ir::interp::Surface>,
    /// Bound surfaces by the name of the module's surface reference (`(symbol, surface index)`),
    /// as a driver binds a `.surfref`: the kernel's header word for the symbol is set to the
    /// index ([`Kernel::surface_refs`]).
    pub surface_refs: Vec<(String, u32)>,
}

impl Launch {
    /// A launch of `grid` × `block` threads with no parameters or buffers, round-robin, a step
    /// limit of ten million warp instructions, timing checked.
    pub fn new(grid: [u32; 3], block: [u32; 3]) -> Launch {
        Launch {
            grid,
            block,
            shared_bytes: 0,
            params: Vec::new(),
            buffers: Vec::new(),
            schedule: Schedule::RoundRobin,
            step_limit: 10_000_000,
            check_timing: true,
            surfaces: Vec::new(),
            surface_refs: Vec::new(),
        }
    }
}

/// Counts of one run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Warp instructions issued (one per group of lanes executing one instruction).
    pub instructions: u64,
    /// Issues per form (mnemonic with modifiers, e.g. `ATOMG.E.ADD.STRONG.GPU`).
    pub forms: BTreeMap<String, u64>,
    /// Lane atomics performed (ATOM*, RED*, one per active lane).
    pub atomics: u64,
    /// The largest issue cycle any warp reached.
    pub cycles: u64,
}

/// The result of a run: the buffers' final contents and the counts.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub buffers: Vec<Vec<u8>>,
    /// The surfaces' final contents.
    pub surfaces: Vec<atomc_ir::interp::Surface>,
    pub stats: Stats,
}

/// Runs kernel `kernel` of `cubin` (sm_50 or sm_90, from the ELF header).
pub fn run_cubin(cubin: &[u8], kernel: &str, launch: &Launch) -> Result<Outcome, EmuError> {
    let k = Kernel::load(cubin, kernel)?;
    k.run(launch)
}
