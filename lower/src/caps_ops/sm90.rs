//! Hopper (sm_90): what `sass/isel/sm90/{bits,subgroup,shuffle}.rs` select, and why the rest is refused.

use super::k::*;
use super::OpKind::{ActiveMask, Ballot, MatchAny, Reduce, Shuffle, Unary, Vote};
use super::{OpLowering::FromI32, OpLowering::Native, OpLowering::NativeWhereConverged, OpLowering::Unsupported, OpRule};
use atomc_ir::{AddrSpace, ReduceOp, ShuffleMode, Type, UnaryOp, VoteOp};

/// Why a subgroup instruction with no place to take its lanes' mask from is refused.
const AFTER_INNER_LOOP: &str = "sm_90 brings the lanes that left a loop apart together with a mask taken where they were together before it, in the same loops as the instruction; after irreducible control flow, or where lanes leaving a loop can come round to the instruction's loop again without passing the instruction, there is no such place";

pub(crate) const RULES: &[OpRule] = &[
    OpRule {
        kinds: &[Unary(UnaryOp::Popcnt), Unary(UnaryOp::Clz), Unary(UnaryOp::Ctz)],
        types: &[Type::I32],
        lowering: Native,
        evidence: "POPC and FLO.U32 forms (emit/sass/tables/sm90/alu.rs, nvdisasm-checked); ctz via -a & a",
    },
    OpRule {
        kinds: MULHI,
        types: &[Type::I32],
        lowering: Native,
        evidence: "IMAD.HI / IMAD.HI.U32 forms (ptxas's own division sequences use them)",
    },
    OpRule {
        kinds: MULHI,
        types: &[Type::I8, Type::I16, Type::I64],
        lowering: Native,
        evidence: "sass/isel/mulhi.rs: i8/i16 one IMAD product shifted down (ptxas 13: IMAD + SHF.R); i64 four IMAD.WIDE.U32 word products summed, signed corrected as ptxas 13 does",
    },
    OpRule {
        kinds: FMA,
        types: &[Type::F32, Type::F64],
        lowering: Native,
        evidence: "FFMA and DFMA forms (emit/sass/tables/sm90/float.rs)",
    },
    OpRule {
        kinds: &[Unary(UnaryOp::Bitrev)],
        types: &[Type::I32, Type::I64],
        lowering: Native,
        evidence: "BREV form (emit/sass/tables/sm90/bits.rs; ptxas 13: `BREV R14, R20` for brev.b32); i64 as two swapped halves",
    },
    // After the BREV row: an i64 bitrev is native, two BREVs.
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
        evidence: "ptxas 13's bfe.u32/bfe.s32/bfi.b32 sequences: PRMT, SHF + SGXT, BMSK + SHF + LOP3 (sass/isel/sm90/bits.rs)",
    },
    OpRule {
        kinds: BITFIELD,
        types: &[],
        lowering: Unsupported("sm_90 selects bit-field extract and insert of i32 only"),
        evidence: "the SHF/SGXT/BMSK sequences are written for one 32-bit register",
    },
    OpRule {
        kinds: &[ActiveMask, Vote(VoteOp::Eq), Reduce(ReduceOp::Add), Reduce(ReduceOp::Umin), Reduce(ReduceOp::Umax),
            Reduce(ReduceOp::Smin), Reduce(ReduceOp::Smax), Reduce(ReduceOp::And), Reduce(ReduceOp::Or), Reduce(ReduceOp::Xor)],
        types: &[Type::I32],
        lowering: NativeWhereConverged(AFTER_INNER_LOOP),
        evidence: "VOTEU.ANY and REDUX into a uniform register (ptxas 13's aggregated atomics and reduce_minmax use both; sass/isel/sm90/subgroup.rs)",
    },
    OpRule {
        kinds: &[Ballot, Vote(VoteOp::Any), Vote(VoteOp::All)],
        types: &[Type::Pred],
        lowering: NativeWhereConverged(AFTER_INNER_LOOP),
        evidence: "VOTEU.ANY with a predicate source (sass/isel/sm90/subgroup.rs)",
    },
    OpRule {
        kinds: &[Shuffle(ShuffleMode::Idx), Shuffle(ShuffleMode::Up), Shuffle(ShuffleMode::Down), Shuffle(ShuffleMode::Xor)],
        types: &[Type::I8, Type::I16, Type::I32, Type::I64, Type::F16, Type::F32, Type::F64, Type::F16x2, Type::BF16x2,
            Type::Ptr(AddrSpace::Global), Type::Ptr(AddrSpace::Shared), Type::Ptr(AddrSpace::Generic)],
        lowering: NativeWhereConverged(AFTER_INNER_LOOP),
        evidence: "SHFL per 32-bit half as ptxas 13 encodes shfl.sync, its result kept only where the source lane is active (VOTEU.ANY mask; sass/isel/sm90/shuffle.rs)",
    },
    OpRule {
        kinds: &[MatchAny, Vote(VoteOp::Eq)],
        types: &[Type::I8, Type::I16, Type::I64, Type::F32, Type::F64, Type::F16x2, Type::BF16x2,
            Type::Ptr(AddrSpace::Global), Type::Ptr(AddrSpace::Shared), Type::Ptr(AddrSpace::Generic)],
        lowering: NativeWhereConverged(AFTER_INNER_LOOP),
        evidence: "MATCH.ANY / MATCH.ANY.U64 forms (ptxas 13 for match.any.sync.b32/b64; emit/sass/tables/sm90/bits.rs); vote_eq via REDUX.MIN/MAX or MATCH.ANY.U64 against the active mask",
    },
    OpRule {
        kinds: &[MatchAny],
        types: &[Type::I32],
        lowering: NativeWhereConverged(AFTER_INNER_LOOP),
        evidence: "MATCH.ANY form (ptxas 13 for match.any.sync.b32: `MATCH.ANY R12, R20`)",
    },
    OpRule {
        kinds: &[Vote(VoteOp::Eq)],
        types: &[Type::Pred],
        lowering: NativeWhereConverged(AFTER_INNER_LOOP),
        evidence: "VOTEU.ANY ballot compared with 0 and with the active mask (sass/isel/sm90/subgroup.rs)",
    },
    OpRule {
        kinds: &[Reduce(ReduceOp::Add), Reduce(ReduceOp::Umin), Reduce(ReduceOp::Umax), Reduce(ReduceOp::Smin),
            Reduce(ReduceOp::Smax), Reduce(ReduceOp::And), Reduce(ReduceOp::Or), Reduce(ReduceOp::Xor)],
        types: &[Type::I8, Type::I16, Type::I64],
        lowering: NativeWhereConverged(AFTER_INNER_LOOP),
        evidence: "REDUX of the zero-extended (smin/smax: sign-extended) register, cut back to the width (sass/isel/sm90/subgroup.rs); i64 from REDUXes of its halves and 16-bit parts (sass/isel/sm90/reduce64.rs)",
    },
    OpRule {
        kinds: SUBGROUP,
        types: &[],
        lowering: Unsupported(
            "sm_90 does not select match_any or vote_eq of an f16, whose register bits above the half are not kept defined (issue 14 part 2)",
        ),
        evidence: "MATCH and REDUX compare whole 32-bit registers",
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
        types: &[Type::F64],
        lowering: Native,
        evidence: "ptxas 13.5's div.rn.f64 fast path on the significands only (always in its range), the exponent put back by two DMULs by powers of two, the quotient first stepped to its neighbour where a subnormal result would round it twice (sass/isel/fdiv64.rs)",
    },
    OpRule {
        kinds: FDIV,
        types: &[Type::F16],
        lowering: Native,
        evidence: "the f32 quotient of the operands widened to f32, rounded to f16 once more (double rounding innocuous: 24 >= 2 * 11 + 2; sass/isel/fdiv.rs), as CUDA's __hdiv divides in f32 and ptxas 13.5 has no f16 division",
    },
    OpRule {
        kinds: &[],
        types: &[],
        lowering: Unsupported("not selected for sm_90 yet (issue 14 part 2)"),
        evidence: "atomc's sm_90 selection has no sequence for it",
    },
];
