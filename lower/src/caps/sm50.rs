//! Maxwell (sm_50). Evidence: seed 000 (ATOM ops × sizes), seed 003
//! (RED), seed 001 (SUATOM), nvdisasm 11.8 field tables (reference §2.2). A generic address is
//! native where global and shared both are (isel/sm50/generic.rs tests the shared window).

use super::t::*;
use super::{sass_surface, AtomicKind, Lowering::*, Rule, TargetCaps};
use atomc_ir::{AddrSpace, RmwOp, Type};

/// The sm_50 capability table.
pub static SM50: TargetCaps = TargetCaps { name: "sm_50", rules: RULES, ops: crate::caps_ops::sm50::RULES, surface_clamps: &[], subgroup_meeting: crate::subgroup_sync::Meeting::LoopJoin, nan_to_int: super::NanToInt::TopBitWhenWide };

const RULES: &[Rule] = &[
    Rule {
        kinds: LOAD_STORE,
        types: &[],
        spaces: &[],
        lowering: Native,
        evidence: "LDG/STG/LDS/STS with MEMBAR fences (Maxwell has no .STRONG qualifiers)",
    },
    Rule {
        kinds: SUB,
        types: &[Type::I32, Type::I64],
        spaces: &[],
        lowering: NegateToAdd,
        evidence: "no SUB in the ATOM op table (seed 000)",
    },
    Rule {
        kinds: FSUB,
        types: &[],
        spaces: &[],
        lowering: NegateToAdd,
        evidence: "no SUB of any size in the ATOM and SUATOM op tables (seeds 000, 001), and PTX's atom and sured have \
                   no sub; exact: `old - x` and `old + (-x)` are one IEEE value (the same exact result rounded once to \
                   nearest even; IEEE 754-2008 §6.3 signs a zero difference of like-signed operands as a zero sum of \
                   opposite-signed ones, +0; a NaN operand or inf - inf gives a NaN either way), and the negation flips \
                   the sign bits only (fneg; an xor for packed lanes); the fadd rows decide the rest, their refusals \
                   included",
    },
    Rule {
        kinds: &[],
        types: SUBWORD,
        spaces: &[],
        lowering: SubwordCasLoop,
        evidence: "no 8/16-bit ATOM sizes (seed 000)",
    },
    Rule {
        kinds: &[AtomicKind::Cas, AtomicKind::Rmw(RmwOp::Xchg)],
        types: &[Type::I32, Type::I64, Type::F32, Type::F64, Type::F16x2, Type::BF16x2],
        spaces: &[],
        lowering: Native,
        evidence: "ATOM.CAS / EXCH .U32 .S32 .U64 and ATOMS.CAS(.64) (seed 000; reference §2.2)",
    },
    Rule {
        kinds: INT_RMW,
        types: INTS32,
        spaces: &[],
        lowering: Native,
        evidence: "ADD MIN MAX AND OR XOR EXCH on .U32/.S32 (seed 000)",
    },
    Rule {
        kinds: WRAP,
        types: INTS32,
        spaces: &[],
        lowering: Native,
        evidence: "INC/DEC .U32 (seed 000)",
    },
    Rule {
        kinds: BITWISE_ADD_XCHG,
        types: INTS64,
        spaces: &[AddrSpace::Global],
        lowering: Native,
        evidence: "ADD .U64 (SPA 5.0), AND/OR/XOR .U64 (SPA 3.5+) (seed 000)",
    },
    Rule {
        kinds: MINMAX,
        types: INTS64,
        spaces: &[AddrSpace::Global],
        lowering: Native,
        evidence: "MIN/MAX .U64 .S64 (SPA 3.5+) (seed 000)",
    },
    Rule {
        kinds: FADD,
        types: &[Type::F32],
        spaces: &[AddrSpace::Global],
        lowering: Native,
        evidence: "ADD .F32.FTZ.RN (seed 000; size 3 in reference §2.2)",
    },
    Rule {
        kinds: ALL_RMW,
        types: &[],
        spaces: &[],
        lowering: CasLoop,
        evidence: "f64 add, f16x2/bf16x2 ops, float min/max, 64-bit shared ops: ptxas 11.8 uses CAS loops on sm_50; \
                   a generic address takes the loop where either of its paths needs one (the native rows above \
                   without a space cover ATOMS and ATOM both, predicated on the shared-window test: isel/sm50/generic.rs)",
    },
    Rule {
        kinds: SURFACE_INT,
        types: &[Type::I32, Type::I64],
        spaces: &[],
        lowering: Native,
        evidence: "SUATOM sizes U32 S32 U64 S64, ops ADD..EXCH and CAS (seed 001); unused results of the reductions ptxas 11.8 writes as SURED (32-bit add/min/max/and/or, 64-bit add) are SURED",
    },
    sass_surface::SUB_AS_NEGATED_ADD,
    sass_surface::FLOAT_BITS,
    sass_surface::FLOAT_ARITH_LOOP,
    sass_surface::NAND_LOOP,
    Rule {
        kinds: &[],
        types: &[],
        spaces: &[],
        lowering: Unsupported("no SUATOM size or op for it on sm_50"),
        evidence: "seed 001 size table",
    },
];
