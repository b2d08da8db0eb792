//! Hopper (sm_90): what `sass/isel/bits.rs` selects, and why the rest is refused.

use super::k::*;
use super::OpKind::Unary;
use super::{OpLowering::Native, OpLowering::Unsupported, OpRule};
use atomc_ir::{Type, UnaryOp};

pub(super) const RULES: &[OpRule] = &[
    OpRule {
        kinds: &[Unary(UnaryOp::Popcnt), Unary(UnaryOp::Clz), Unary(UnaryOp::Ctz)],
        types: &[Type::I32],
        lowering: Native,
        evidence: "POPC and FLO.U32 forms (emit/sass/src/sm90/alu.rs, nvdisasm-checked); ctz via -a & a",
    },
    OpRule {
        kinds: MULHI,
        types: &[Type::I32],
        lowering: Native,
        evidence: "IMAD.HI / IMAD.HI.U32 forms (ptxas's own division sequences use them)",
    },
    OpRule {
        kinds: FMA,
        types: &[Type::F32, Type::F64],
        lowering: Native,
        evidence: "FFMA and DFMA forms (emit/sass/src/sm90/float.rs)",
    },
    OpRule {
        kinds: BITFIELD,
        types: &[],
        lowering: Unsupported("sm_90 has no BFE/BFI instruction and atomc does not compose one from SHF/SGXT/BMSK/LOP3 yet"),
        evidence: "Volta dropped BFE/BFI (ptxas 13 expands bfe.u32 into SHF + SGXT/LOP3)",
    },
    OpRule {
        kinds: SUBGROUP,
        types: &[],
        lowering: Unsupported(
            "subgroup instructions are not selected for sm_90 yet: they need reconvergence the IR's rule guarantees and a VOTE/MATCH form the table lacks (issue 14 part 2)",
        ),
        evidence: "emit/sass/src/sm90/alu.rs has SHFL, VOTEU and REDUX but no VOTE or MATCH form",
    },
    OpRule {
        kinds: &[],
        types: &[],
        lowering: Unsupported("not selected for sm_90 yet (issue 14 part 2)"),
        evidence: "atomc's sm_90 selection has no sequence for it",
    },
];
