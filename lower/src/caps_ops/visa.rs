//! vISA (every platform): nothing of this family is lowered yet.

use super::{OpLowering::Unsupported, OpRule};

pub(super) const RULES: &[OpRule] = &[OpRule {
    kinds: &[],
    types: &[],
    lowering: Unsupported("not lowered to vISA yet (issue 14 part 2)"),
    evidence: "atomc's vISA lowering has no sequence for it",
}];
