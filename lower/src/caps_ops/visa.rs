//! vISA (every platform): what `visa/bits.rs` and `visa/subgroup.rs` lower, and why the rest is
//! refused. The subgroup is the hardware thread's SIMD lanes; SIMD `goto` keeps the lanes that
//! took another path disabled until the paths meet, which is the IR's rule, so loops need no
//! special care here (unlike sm_90).

use super::k::*;
use super::OpKind::{ActiveMask, Ballot, MatchAny, Reduce, Shuffle, Unary, Vote};
use super::{OpLowering::Native, OpLowering::Unsupported, OpRule};
use atomc_ir::{AddrSpace, ReduceOp, ShuffleMode, Type, UnaryOp, VoteOp};

pub(crate) const RULES: &[OpRule] = &[
    OpRule {
        kinds: &[Unary(UnaryOp::Popcnt), Unary(UnaryOp::Clz), Unary(UnaryOp::Ctz), Unary(UnaryOp::Bitrev)],
        types: &[Type::I8, Type::I16, Type::I32, Type::I64],
        lowering: Native,
        evidence: "cbit, lzd, fbl (min width), bfrev, per dword half for i64 (GenX_IR: cbit, lzd, fbl, bfrev on TGLLP/DG2/PVC)",
    },
    OpRule {
        kinds: MULHI,
        types: &[Type::I32],
        lowering: Native,
        evidence: "vISA mulh on ud/d sources (GenX_IR: mul + mach)",
    },
    OpRule {
        kinds: MULHI,
        types: &[Type::I8, Type::I16, Type::I64],
        lowering: Native,
        evidence: "i8/i16: one dword mul of the extended operands, shr/asr by the width; i64: four dword mul/mulh products summed with addc, signed corrected (visa/alu64.rs)",
    },
    OpRule {
        kinds: FMA,
        types: &[Type::F32],
        lowering: Native,
        evidence: "vISA mad on f (GenX_IR: one mad, which rounds once)",
    },
    OpRule {
        kinds: BITFIELD,
        types: &[Type::I32],
        lowering: Native,
        evidence: "vISA bfe/bfi with predicated fix-ups for fields the 5-bit width and offset cannot say (GenX_IR: bfe, bfi1 + bfi2)",
    },
    OpRule {
        kinds: &[ActiveMask, Ballot, Vote(VoteOp::Any), Vote(VoteOp::All)],
        types: &[],
        lowering: Native,
        evidence: "a compare under the execution mask into a predicate, copied to a scalar (mov of a flag)",
    },
    OpRule {
        kinds: &[Vote(VoteOp::Eq), Reduce(ReduceOp::Add), Reduce(ReduceOp::Umin), Reduce(ReduceOp::Umax),
            Reduce(ReduceOp::Smin), Reduce(ReduceOp::Smax), Reduce(ReduceOp::And), Reduce(ReduceOp::Or),
            Reduce(ReduceOp::Xor)],
        types: &[Type::I8, Type::I16, Type::I32],
        lowering: Native,
        evidence: "a halving tree of NoMask operations over a copy whose disabled channels hold the identity",
    },
    OpRule {
        kinds: &[Vote(VoteOp::Eq)],
        types: &[Type::Pred],
        lowering: Native,
        evidence: "the lanes where it holds or where it fails is empty (two lane masks)",
    },
    OpRule {
        kinds: &[Shuffle(ShuffleMode::Idx), Shuffle(ShuffleMode::Up), Shuffle(ShuffleMode::Down),
            Shuffle(ShuffleMode::Xor), MatchAny],
        types: &[Type::I8, Type::I16, Type::I32, Type::I64, Type::F16, Type::F32, Type::F64, Type::F16x2,
            Type::BF16x2, Type::Ptr(AddrSpace::Global), Type::Ptr(AddrSpace::Shared), Type::Ptr(AddrSpace::Generic)],
        lowering: Native,
        evidence: "one compare and predicated move per source lane and dword, reading it through a <0;1,0> region",
    },
    OpRule {
        kinds: SUBGROUP,
        types: &[],
        lowering: Unsupported(
            "64-bit reductions and vote_eq are not lowered to vISA yet (TGLLP and DG2 have no 64-bit integer ALU: the tree would need addc/compare chains)",
        ),
        evidence: "visa/subgroup.rs reduces 32-bit lanes",
    },
    OpRule {
        kinds: DIVIDE,
        types: &[Type::I8, Type::I16, Type::I32, Type::I64],
        lowering: Native,
        evidence: "vISA div/mod on d/ud where the part divides integers (GenX_IR: math.iqot/irem on TGLLP); long division in integer code elsewhere and for 64 bits (GenX_IR refuses integer div/mod on DG2 and PVC; no Gen instruction divides 64-bit integers): visa/soft_divide.rs",
    },
    OpRule {
        kinds: FDIV,
        types: &[],
        lowering: Native,
        evidence: "vISA divm, the IEEE divide macro, on PVC (GenX_IR: math.invm and a madm chain); on TGLLP and DG2, GenX_IR refuses divm (\"IEEE instruction divm is not supported on TGLLP platform\") and `div` on floats is approximate, so the significands are divided in integer code and rounded once (visa/soft_convert.rs fdiv_soft); f16 through f32",
    },
    OpRule {
        kinds: &[],
        types: &[],
        lowering: Unsupported("not lowered to vISA for this type (bit fields on i32, fma on f32 only)"),
        evidence: "visa/bits.rs handles those types",
    },
];
