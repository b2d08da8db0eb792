//! Hopper (sm_90). Evidence: seed 004 (ATOM forms and modifier groups),
//! the nvdisasm-confirmed field tables and ptxas 13 lowering notes in the
//! project's SASS reference (§3.2, §3.3).

use super::t::*;
use super::{sass_surface, AtomicKind, Lowering::*, Rule, TargetCaps};
use atomc_ir::Type;

/// The sm_90 capability table.
pub static SM90: TargetCaps = TargetCaps { name: "sm_90", rules: RULES, ops: crate::caps_ops::sm90::RULES, surface_clamps: &[], subgroup_meeting: crate::subgroup_sync::Meeting::Warpsync, nan_to_int: super::NanToInt::TopBitWhenWide };

const RULES: &[Rule] = &[
    Rule {
        kinds: LOAD_STORE,
        types: &[],
        spaces: &[],
        lowering: Native,
        evidence: "LDG/STG/LDS/STS/LD/ST with .STRONG.<scope> carry every width (ptxas 13 ld.relaxed/st.relaxed)",
    },
    Rule {
        kinds: SUB,
        types: &[Type::I32, Type::I64],
        spaces: &[],
        lowering: NegateToAdd,
        evidence: "ATOM op field 87..90 has no SUB (seed 004 group 4); PTX has no atom.sub either",
    },
    Rule {
        kinds: FSUB,
        types: &[],
        spaces: &[],
        lowering: NegateToAdd,
        evidence: "no SUB in the ATOM/RED op field for any size (the `sub` row above), float ones included, none in \
                   SUATOM's (reference §3.2), and PTX's atom and sured have no sub; exact: `old - x` and `old + (-x)` \
                   are one IEEE value (the same exact result rounded once to nearest even; IEEE 754-2008 §6.3 signs a \
                   zero difference of like-signed operands as a zero sum of opposite-signed ones, +0; a NaN operand or \
                   inf - inf gives a NaN either way), and the negation flips the sign bits only (fneg; an xor for \
                   packed lanes); the fadd rows decide the rest, their refusals included",
    },
    Rule {
        kinds: &[],
        types: SUBWORD,
        spaces: &[],
        lowering: SubwordCasLoop,
        evidence: "no 8/16-bit ATOM size (seed 004 group 1); ptxas 13 emits 32-bit ATOM.CAS loops for 16-bit atomics",
    },
    Rule {
        kinds: &[AtomicKind::Cas],
        types: &[Type::I32, Type::I64, Type::F32, Type::F64, Type::F16x2, Type::BF16x2],
        spaces: &[],
        lowering: Native,
        evidence: "ATOM/ATOMG/ATOMS.CAS (.64) with independent compare and swap registers (reference §3.2)",
    },
    Rule {
        kinds: &[AtomicKind::Rmw(atomc_ir::RmwOp::Xchg)],
        types: &[Type::I32, Type::I64, Type::F32, Type::F64, Type::F16x2, Type::BF16x2],
        spaces: &[],
        lowering: Native,
        evidence: "EXCH moves bit patterns; .64 for 64-bit values; ATOMS.EXCH.64 exists (NAK allows 64-bit shared EXCH)",
    },
    Rule {
        kinds: INT_RMW,
        types: INTS32,
        spaces: &[],
        lowering: Native,
        evidence: "ATOMG/ATOM/ATOMS ops ADD MIN MAX AND OR XOR EXCH on U32/S32 (seed 004; reference §3.2 ATOMS)",
    },
    Rule {
        kinds: WRAP,
        types: INTS32,
        spaces: &[],
        lowering: Native,
        evidence: "INC/DEC on U32 (seed 004 group 4; seed 000 semantics)",
    },
    Rule {
        kinds: INT_RMW,
        types: INTS64,
        spaces: GLOBALISH,
        lowering: Native,
        evidence: "ATOMG size .64 / S64 with ADD..XOR, MIN/MAX signed via S64 (seed 004 group 1)",
    },
    Rule {
        kinds: INT_RMW,
        types: INTS64,
        spaces: SHARED,
        lowering: CasLoop,
        evidence: "ATOMS has 64-bit EXCH and CAS only (NAK sm70 encoder; S64 is invalid for ATOMS, reference §3.2)",
    },
    Rule {
        kinds: FADD,
        types: &[Type::F32, Type::F64, Type::F16x2, Type::BF16x2],
        spaces: GLOBALISH,
        lowering: Native,
        evidence: "float ATOM/ATOMG 0x3A2/0x3A3 with F32, F64, F16x2, BF16x2 (seed 004 float group 1)",
    },
    Rule {
        kinds: FMINMAX,
        types: &[Type::F16x2, Type::BF16x2],
        spaces: GLOBALISH,
        lowering: Native,
        evidence: "float ATOM op group: MIN.F16x2.RN / MAX.F16x2.RN, BF16x2 via group 1 (seed 004)",
    },
    Rule {
        kinds: ALL_RMW,
        types: &[],
        spaces: &[],
        lowering: CasLoop,
        evidence: "no native form (float min/max on F32/F64, float ops on shared): ptxas uses CAS loops",
    },
    Rule {
        kinds: SURFACE_INT,
        types: &[Type::I32, Type::I64],
        spaces: &[],
        lowering: Native,
        evidence: "SUATOM/SURED sizes U32 S32 U64 S64, ops ADD..EXCH and CAS (reference §3.2)",
    },
    Rule {
        kinds: &[AtomicKind::SurfaceRmw(atomc_ir::RmwOp::Fadd)],
        types: &[Type::F16x2],
        spaces: &[],
        lowering: Native,
        evidence: "SUATOM size F16x2.RN (reference §3.2)",
    },
    sass_surface::SUB_AS_NEGATED_ADD,
    sass_surface::FLOAT_BITS,
    sass_surface::FLOAT_ARITH_LOOP,
    sass_surface::NAND_LOOP,
    Rule {
        kinds: &[],
        types: &[],
        spaces: &[],
        lowering: Unsupported("no SUATOM size or op for it on sm_90"),
        evidence: "SUATOM size table (reference §3.2)",
    },
];
