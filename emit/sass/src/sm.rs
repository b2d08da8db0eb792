//! The NVIDIA architectures atomc targets: the one type every crate of the workspace names an
//! SM by (the register rules, the emulator, the oracle runners), with the spellings the tools
//! use.

use super::Arch;
use std::fmt;

/// An NVIDIA architecture atomc compiles for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sm {
    /// Maxwell (handled by the CUDA 11.8 tools; CUDA 13 dropped it).
    Sm50,
    /// Hopper (handled by the CUDA 13.x tools).
    Sm90,
}

impl Sm {
    /// Both, oldest first.
    pub const ALL: [Sm; 2] = [Sm::Sm50, Sm::Sm90];

    /// The architecture number (50, 90).
    pub fn number(self) -> u32 {
        match self {
            Sm::Sm50 => 50,
            Sm::Sm90 => 90,
        }
    }

    /// The spelling of `ptxas -arch=`, PTX `.target` and the form tables (`sm_50`, `sm_90`).
    pub const fn name(self) -> &'static str {
        match self {
            Sm::Sm50 => "sm_50",
            Sm::Sm90 => "sm_90",
        }
    }

    /// The architecture of a number (`None` for one atomc does not target).
    pub fn from_number(n: u32) -> Option<Sm> {
        Sm::ALL.into_iter().find(|s| s.number() == n)
    }

    /// The architecture of a name as [`Sm::name`] spells it.
    pub fn from_name(name: &str) -> Option<Sm> {
        Sm::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Its form table.
    pub fn arch(self) -> &'static Arch {
        match self {
            Sm::Sm50 => super::sm50(),
            Sm::Sm90 => super::sm90(),
        }
    }
}

impl fmt::Display for Sm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
