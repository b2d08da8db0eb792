//! Intel vISA `svm_atomic` per platform. Evidence: seed 002 (ops, widths,
//! type classes) and the GenX_IR acceptance notes of the project's vISA
//! reference (§3, §6, §7).

use super::t::*;
use super::{AtomicKind, Lowering::*, Rule, TargetCaps};
use atomc_ir::{RmwOp::*, Type};

/// TGLLP (Gen12LP): no float add message.
pub static VISA_TGLLP: TargetCaps = TargetCaps { name: "visa:TGLLP", rules: TGLLP };
/// DG2 (Xe-HPG): f32 add native, no fp64.
pub static VISA_DG2: TargetCaps = TargetCaps { name: "visa:DG2", rules: DG2 };
/// PVC (Xe-HPC): f32 add native; f64 add only through LSC, which
/// `svm_atomic` does not reach, so a CAS loop.
pub static VISA_PVC: TargetCaps = TargetCaps { name: "visa:PVC", rules: DG2 };

const COMMON_HEAD: [Rule; 4] = [
    Rule {
        kinds: &[],
        types: &[],
        spaces: &[atomc_ir::AddrSpace::Shared],
        lowering: Unsupported("svm_atomic addresses shared virtual memory only; SLM atomics are not emitted"),
        evidence: "seed 002: addresses are virtual (UQ) addresses",
    },
    Rule {
        kinds: LOAD_STORE,
        types: &[],
        spaces: &[],
        lowering: Native,
        evidence: "svm_gather/svm_scatter with vISA fences",
    },
    Rule {
        kinds: &[AtomicKind::Rmw(Add), AtomicKind::Rmw(Sub), AtomicKind::Rmw(And), AtomicKind::Rmw(Or),
                 AtomicKind::Rmw(Xor), AtomicKind::Rmw(Xchg), AtomicKind::Rmw(Smin), AtomicKind::Rmw(Smax),
                 AtomicKind::Rmw(Umin), AtomicKind::Rmw(Umax), AtomicKind::Cas],
        types: &[Type::I16, Type::I32, Type::I64],
        spaces: &[],
        lowering: Native,
        evidence: "add sub and or xor xchg min max minsint maxsint cmpxchg with .16/.32/.64 (seed 002; .16 TGLLP+, reference §7)",
    },
    Rule {
        kinds: &[AtomicKind::Rmw(Xchg), AtomicKind::Cas],
        types: &[Type::F32, Type::F64, Type::F16x2, Type::BF16x2],
        spaces: &[],
        lowering: Native,
        evidence: "xchg/cmpxchg move bit patterns (type UD/UQ, seed 002)",
    },
];

const COMMON_TAIL: [Rule; 3] = [
    Rule {
        kinds: FMINMAX,
        types: &[Type::F32],
        spaces: &[],
        lowering: Native,
        evidence: "fmin/fmax 32-bit valid on all platforms (reference §7)",
    },
    Rule {
        kinds: &[AtomicKind::Rmw(IncWrap), AtomicKind::Rmw(DecWrap)],
        types: &[],
        spaces: &[],
        lowering: CasLoop,
        evidence: "vISA inc/dec do not wrap at an operand (seed 002: inc/dec take no src0)",
    },
    Rule {
        kinds: &[],
        types: &[Type::I8],
        spaces: &[],
        lowering: SubwordCasLoop,
        evidence: "no 8-bit svm_atomic width (seed 002 bits 6..5)",
    },
];

const TGLLP: &[Rule] = &[
    COMMON_HEAD[0], COMMON_HEAD[1], COMMON_HEAD[2], COMMON_HEAD[3],
    COMMON_TAIL[0], COMMON_TAIL[1], COMMON_TAIL[2],
    Rule {
        kinds: ALL_RMW,
        types: &[],
        spaces: &[],
        lowering: CasLoop,
        evidence: "no fadd message before XeHP (reference §6: IGC emits a cmpxchg do-while on TGLLP)",
    },
    Rule {
        kinds: &[],
        types: &[],
        spaces: &[],
        lowering: Unsupported("surface atomics are not emitted for vISA"),
        evidence: "svm_atomic only",
    },
];

const DG2: &[Rule] = &[
    COMMON_HEAD[0], COMMON_HEAD[1], COMMON_HEAD[2], COMMON_HEAD[3],
    COMMON_TAIL[0], COMMON_TAIL[1], COMMON_TAIL[2],
    Rule {
        kinds: FADD,
        types: &[Type::F32],
        spaces: &[],
        lowering: Native,
        evidence: "svm_atomic.fadd, XeHP+ (reference §6, hasFP32GlobalAtomicAdd)",
    },
    Rule {
        kinds: ALL_RMW,
        types: &[],
        spaces: &[],
        lowering: CasLoop,
        evidence: "f64 add and the rest: cmpxchg loops (reference §6)",
    },
    Rule {
        kinds: &[],
        types: &[],
        spaces: &[],
        lowering: Unsupported("surface atomics are not emitted for vISA"),
        evidence: "svm_atomic only",
    },
];
