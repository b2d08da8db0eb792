//! Maxwell (sm_50): nothing of this family is selected yet.

use super::k::*;
use super::{OpLowering::Unsupported, OpRule};

pub(super) const RULES: &[OpRule] = &[
    OpRule {
        kinds: BIT_COUNTS,
        types: &[],
        lowering: Unsupported("not selected for sm_50 yet (POPC/FLO/BREV exist there; issue 14 part 2)"),
        evidence: "atomc's sm_50 selection has no sequence for it",
    },
    OpRule {
        kinds: &[],
        types: &[],
        lowering: Unsupported("not selected for sm_50 yet (issue 14 part 2)"),
        evidence: "atomc's sm_50 selection has no sequence for it",
    },
];
