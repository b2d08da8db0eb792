//! Hopper (sm_90): what `sass/isel/bits.rs` selects, and why the rest is refused.

use super::k::*;
use super::OpKind::{ActiveMask, Ballot, Reduce, Unary, Vote};
use super::{OpLowering::Native, OpLowering::NativeWhereConverged, OpLowering::Unsupported, OpRule};
use atomc_ir::{ReduceOp, Type, UnaryOp, VoteOp};

/// Why a subgroup instruction with no place to take its lanes' mask from is refused.
const AFTER_INNER_LOOP: &str = "sm_90 brings the lanes that left a loop apart together with a mask taken where they were together before it, in the same loops as the instruction; after irreducible control flow, or where lanes leaving a loop can come round to the instruction's loop again without passing the instruction, there is no such place";

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
        kinds: &[ActiveMask, Vote(VoteOp::Eq), Reduce(ReduceOp::Add), Reduce(ReduceOp::Umin), Reduce(ReduceOp::Umax),
            Reduce(ReduceOp::Smin), Reduce(ReduceOp::Smax), Reduce(ReduceOp::And), Reduce(ReduceOp::Or), Reduce(ReduceOp::Xor)],
        types: &[Type::I32],
        lowering: NativeWhereConverged(
            AFTER_INNER_LOOP,
        ),
        evidence: "VOTEU.ANY and REDUX into a uniform register (ptxas 13's aggregated atomics and reduce_minmax use both; sass/isel/subgroup.rs)",
    },
    OpRule {
        kinds: &[Ballot, Vote(VoteOp::Any), Vote(VoteOp::All)],
        types: &[Type::Pred],
        lowering: NativeWhereConverged(
            AFTER_INNER_LOOP,
        ),
        evidence: "VOTEU.ANY with a predicate source (sass/isel/subgroup.rs)",
    },
    OpRule {
        kinds: SUBGROUP,
        types: &[],
        lowering: Unsupported(
            "shuffles, match_any, vote_eq of a pred and sub-word or 64-bit reductions are not selected for sm_90 yet: a shuffle must give an inactive source lane's reader its own value, and the form table has no MATCH (issue 14 part 2)",
        ),
        evidence: "emit/sass/src/sm90/alu.rs has SHFL, VOTEU and REDUX but no VOTE or MATCH form",
    },
    OpRule {
        kinds: DIVIDE,
        types: &[Type::I8, Type::I16, Type::I32],
        lowering: Native,
        evidence: "ptxas 13.5's div.u32/div.s32 sequence (sass/isel/divide.rs)",
    },
    OpRule {
        kinds: DIVIDE,
        types: &[Type::I64],
        lowering: Native,
        evidence: "ptxas 13.5's div.u64 subroutine inlined (I2F.U64.RP, MUFU.RCP, F2I.U64.TRUNC, two Newton steps, two corrections; sass/isel/divide64.rs)",
    },
    OpRule {
        kinds: FDIV,
        types: &[Type::F32],
        lowering: Native,
        evidence: "ptxas 13.5's div.rn.f64 fast path on the operands widened to f64, rounded back (sass/isel/fdiv.rs)",
    },
    OpRule {
        kinds: FDIV,
        types: &[],
        lowering: Unsupported("only f32 division is selected for SASS (ptxas's div.rn.f64 needs its slow-path subroutine near the ends of the exponent range, and atomc's selector emits no calls or branches inside an instruction)"),
        evidence: "sass/isel/fdiv.rs divides f32",
    },
    OpRule {
        kinds: &[],
        types: &[],
        lowering: Unsupported("not selected for sm_90 yet (issue 14 part 2)"),
        evidence: "atomc's sm_90 selection has no sequence for it",
    },
];
