//! Maxwell (sm_50): what `sass/isel/sm50/bits.rs` and `sass/isel/sm50/subgroup.rs` select, and
//! why the rest is refused.

use super::k::*;
use super::OpKind::{ActiveMask, Ballot, MatchAny, Reduce, Shuffle, Vote};
use super::{OpLowering::FromI32, OpLowering::Native, OpLowering::NativeWhereConverged, OpLowering::Unsupported, OpRule};
use atomc_ir::{ReduceOp, ShuffleMode, Type, VoteOp};

/// Why a subgroup instruction after a loop whose lanes leave by different exits is refused.
const SPLIT_LOOP: &str = "sm_50 brings a loop's lanes together again only where its exits meet (SSY/SYNC); after a loop with exits to different blocks (a `return` inside it) or irreducible control flow, the lanes would run the instruction in groups";

pub(crate) const RULES: &[OpRule] = &[
    OpRule {
        kinds: BIT_COUNTS,
        types: &[Type::I32],
        lowering: Native,
        evidence: "POPC, FLO.U32 and BFE.U32.BREV as ptxas 11.8 writes popc/clz/brev (emit/sass/src/sm50, nvdisasm-checked)",
    },
    OpRule {
        kinds: BIT_COUNTS,
        types: &[Type::I8, Type::I16, Type::I64],
        lowering: FromI32,
        evidence: "legalize/widen_bits.rs: the i32 count of the zero-extended operand or of the halves, fixed up (checked against the interpreter by the whole-IR matrix on the emulator)",
    },
    OpRule {
        kinds: BITFIELD,
        types: &[Type::I32],
        lowering: Native,
        evidence: "BFE/BFI with a `position | length << 8` control, as ptxas 11.8 writes bfe/bfi",
    },
    OpRule {
        kinds: MULHI,
        types: &[Type::I32],
        lowering: Native,
        evidence: "ptxas 11.8's XMAD high-word sequence; smulhi corrects the unsigned product",
    },
    OpRule {
        kinds: MULHI,
        types: &[Type::I8, Type::I16, Type::I64],
        lowering: Native,
        evidence: "sass/isel/mulhi.rs: i8/i16 one 32-bit XMAD product shifted down (ptxas 11.8: XMAD + SHR); i64 four XMAD word products summed, signed corrected",
    },
    OpRule { kinds: FMA, types: &[Type::F32, Type::F64], lowering: Native, evidence: "FFMA and DFMA register forms" },
    OpRule {
        kinds: &[ActiveMask, Ballot, Vote(VoteOp::Any), Vote(VoteOp::All), Vote(VoteOp::Eq)],
        types: &[Type::Pred, Type::I32],
        lowering: NativeWhereConverged(SPLIT_LOOP),
        evidence: "VOTE.ANY into a register over the active lanes, as ptxas 11.8 writes activemask and vote.sync.ballot",
    },
    OpRule {
        kinds: &[Vote(VoteOp::Eq), MatchAny],
        types: &[],
        lowering: NativeWhereConverged(SPLIT_LOOP),
        evidence: "SHFL.IDX from the lowest active lane / per-bit VOTE.ANY ballots (sass/isel/sm50/subgroup.rs)",
    },
    OpRule {
        kinds: &[Shuffle(ShuffleMode::Idx), Shuffle(ShuffleMode::Up), Shuffle(ShuffleMode::Down), Shuffle(ShuffleMode::Xor)],
        types: &[],
        lowering: NativeWhereConverged(SPLIT_LOOP),
        evidence: "SHFL.IDX per 32-bit half, the source lane checked against the active mask (sass/isel/sm50/subgroup.rs)",
    },
    OpRule {
        kinds: &[Reduce(ReduceOp::Add), Reduce(ReduceOp::Umin), Reduce(ReduceOp::Umax), Reduce(ReduceOp::Smin),
            Reduce(ReduceOp::Smax), Reduce(ReduceOp::And), Reduce(ReduceOp::Or), Reduce(ReduceOp::Xor)],
        types: &[Type::I32, Type::I64],
        lowering: NativeWhereConverged(SPLIT_LOOP),
        evidence: "a SHFL.IDX list reduction over the active lanes (sass/isel/sm50/subgroup.rs)",
    },
    OpRule {
        kinds: SUBGROUP,
        types: &[],
        lowering: Unsupported(
            "sub-word reductions are not selected for sm_50 (their wrapping and sign are not formed): widen to i32",
        ),
        evidence: "sass/isel/sm50/subgroup.rs",
    },
    OpRule {
        kinds: DIVIDE,
        types: &[Type::I8, Type::I16, Type::I32],
        lowering: Native,
        evidence: "ptxas 11.8's div.u32/div.s32 sequence (sass/isel/divide.rs in sm_50 instructions, sass/isel/sm50/)",
    },
    OpRule {
        kinds: DIVIDE,
        types: &[Type::I64],
        lowering: Native,
        evidence: "ptxas 11.8's div.u64 sequence inlined (I2F.F32.U64.RP, MUFU.RCP, F2I.U64.F32.TRUNC, two Newton steps, two corrections; sass/isel/divide64.rs in sm_50 instructions, sass/isel/sm50/)",
    },
    OpRule {
        kinds: FDIV,
        types: &[Type::F32],
        lowering: Native,
        evidence: "ptxas 11.8's div.rn.f64 fast path on the operands widened to f64, rounded back (sass/isel/fdiv.rs in sm_50 instructions, sass/isel/sm50/)",
    },
    OpRule {
        kinds: FDIV,
        types: &[Type::F64],
        lowering: Native,
        evidence: "ptxas 11.8's div.rn.f64 fast path on the significands only (always in its range), the exponent put back by two DMULs by powers of two, the quotient first stepped to its neighbour where a subnormal result would round it twice (sass/isel/fdiv64.rs through the sm_50 rewrites)",
    },
    OpRule {
        kinds: FDIV,
        types: &[Type::F16],
        lowering: Native,
        evidence: "the f32 quotient of the operands widened to f32, rounded to f16 once more (double rounding innocuous: 24 >= 2 * 11 + 2; sass/isel/fdiv.rs), as CUDA's __hdiv divides in f32 and ptxas 11.8 has no f16 division",
    },
    OpRule {
        kinds: &[],
        types: &[],
        lowering: Unsupported("not selected for sm_50 for this type"),
        evidence: "atomc's sm_50 selection has no sequence for it",
    },
];
