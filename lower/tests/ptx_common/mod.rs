//! Shared by the PTX emitter tests.

use atomc_oracle::Tool;

/// (ptxas, target) pairs every accepted kernel is assembled with: the two real targets, plus
/// sm_60/70/80 through ptxas 11.8 to cover each feature gate of the emitter.
pub const MATRIX: [(Tool, u32); 6] = [
    (Tool::Ptxas118, 50),
    (Tool::Ptxas118, 60),
    (Tool::Ptxas118, 70),
    (Tool::Ptxas118, 80),
    (Tool::Ptxas118, 90),
    (Tool::Ptxas13, 90),
];
