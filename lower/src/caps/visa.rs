//! Intel vISA `svm_atomic` per platform. Evidence: seed 002 (ops, widths,
//! type classes) and the GenX_IR acceptance notes of the project's vISA
//! reference (§3, §6, §7).
//!
//! Shared memory is SLM: `dword_atomic` on `%slm` (T0) on every platform,
//! the form ocloc's TGLLP and DG2 builds of IGC 1.0.12504 use for local
//! atomics (reference §6: `dword_atomic` for A32/SLM; LSC only on PVC and
//! DG2-B0+). PVC gets the same message: GenX_IR 1.0.12504 accepts
//! `dword_atomic` on `%slm` for PVC and encodes a legacy `send.dc1 … 0x0210A7FE`
//! ("untyped atomic int32 integer add", BTI 0xFE), just as it keeps `svm_atomic`
//! legacy there (reference §7); IGC itself would use `lsc_atomic_*.slm`.

use super::t::*;
use super::{AtomicKind, ClampRule, Lowering::*, Rule, TargetCaps};
use atomc_ir::SurfaceClamp;
use atomc_ir::{RmwOp::*, Type};

/// TGLLP (Gen12LP): no float add message.
// Structured SIMD control flow joins a loop's lanes where its exits meet; the vISA subgroup rows are
// native everywhere, so no refusal reads the meeting yet.
pub static VISA_TGLLP: TargetCaps = TargetCaps { name: "visa:TGLLP", rules: TGLLP, ops: crate::caps_ops::visa::RULES, surface_clamps: CLAMPS, subgroup_meeting: crate::subgroup_sync::Meeting::LoopJoin, nan_to_int: super::NanToInt::Zero };
/// DG2 (Xe-HPG): f32 add native; no fp64 ALU, so f64 add is a CAS loop around integer code.
pub static VISA_DG2: TargetCaps = TargetCaps { name: "visa:DG2", rules: DG2, ops: crate::caps_ops::visa::RULES, surface_clamps: CLAMPS, subgroup_meeting: crate::subgroup_sync::Meeting::LoopJoin, nan_to_int: super::NanToInt::Zero };
/// PVC (Xe-HPC): f32 add native; f64 add only through LSC, which
/// `svm_atomic` does not reach, so a CAS loop.
pub static VISA_PVC: TargetCaps = TargetCaps { name: "visa:PVC", rules: DG2, ops: crate::caps_ops::visa::RULES, surface_clamps: CLAMPS, subgroup_meeting: crate::subgroup_sync::Meeting::LoopJoin, nan_to_int: super::NanToInt::Zero };

/// Surface out-of-range modes, the same on every platform (lower/src/visa/surface.rs).
const CLAMPS: &[ClampRule] = &[
    ClampRule {
        clamp: SurfaceClamp::Ign,
        lowering: Native,
        evidence: "typed_atomic drops an out-of-range access and returns 0 (TYPED_ATOMIC.md \"Out-of-bound \
                   Access\")",
    },
    ClampRule {
        clamp: SurfaceClamp::Near,
        lowering: Native,
        evidence: "each coordinate clamped to [0, size - 1] (signed) before the typed_atomic, the size read with \
                   `resinfo` (INFO.md: R width, G height or 1D-array layers, B depth or 2D-array layers); GenX_IR \
                   1.0.12504 compiles `resinfo.RGB (M1_NM, 8)` to a `send.smpl` on TGLLP, DG2 and PVC (measured; \
                   tests/visa_oracle.rs, visa/surface-near.atom)",
    },
    ClampRule {
        clamp: SurfaceClamp::Trap,
        lowering: Unsupported(
            "Intel typed surfaces drop out-of-range accesses (ign); typed_atomic has no trap mode and vISA no trap \
             instruction, so an out-of-range access cannot fail the kernel",
        ),
        evidence: "TYPED_ATOMIC.md \"Out-of-bound Access\"; the vISA instruction set (IGC documentation/visa) has \
                   no instruction that ends the kernel with an error",
    },
];

/// Shared memory (SLM) rows (64-bit SLM atomics take [`SLM64_LOCK`] on TGLLP and
/// [`SLM64_LSC`] on DG2 and PVC first), ahead of the common ones (which then apply to
/// SLM too: dword_atomic has the same ops, widths and type classes as
/// svm_atomic for 16 and 32 bits, IGC DWORD_ATOMIC.md's op table).
const SLM: [Rule; 3] = [
    Rule {
        kinds: &[AtomicKind::Cas, AtomicKind::Rmw(IncWrap), AtomicKind::Rmw(DecWrap), AtomicKind::Rmw(Nand)],
        types: &[Type::I16, Type::F16],
        spaces: SHARED,
        lowering: SubwordCasLoop,
        evidence: "GenX_IR 1.0.12504's verifier refuses `dword_atomic.cmpxchg.16` on TGLLP, DG2 and PVC ('src1 in \
                   ISA_DWORD_ATOMIC inst must be V0 for non CMPXCHG operations': it compares the op byte with the \
                   .16 bit set), so 16-bit CAS, and the loops built on it (nand), is a loop on the 32-bit word",
    },
    Rule {
        kinds: ALL_RMW,
        types: &[Type::F16],
        spaces: SHARED,
        lowering: SubwordCasLoop,
        evidence: "no 16-bit float dword_atomic op atomc emits; the word's 32-bit cmpxchg (GenX_IR accepts it)",
    },
    Rule {
        kinds: FADD,
        types: &[Type::F32],
        spaces: SHARED,
        lowering: CasLoop,
        evidence: "DWORD_ATOMIC.md has no fadd (fmin/fmax/fcmpwr only); IGC 1.0.12504 emits a CAS loop for a local \
                   f32 add (reference §6)",
    },
];

/// Surface rows: `typed_atomic` (IGC TYPED_ATOMIC.md; lower/src/visa/surface.rs), on bound
/// slots and on bindless handles (`%bss` after a `movs` of the handle's low word, in a loop
/// over the distinct handles when they vary; lower/src/visa/bindless.rs); the out-of-range
/// modes are [`CLAMPS`].
const SURFACE_ALL: &[AtomicKind] = &[
    AtomicKind::SurfaceRmw(Add), AtomicKind::SurfaceRmw(Sub), AtomicKind::SurfaceRmw(And),
    AtomicKind::SurfaceRmw(Or), AtomicKind::SurfaceRmw(Xor), AtomicKind::SurfaceRmw(Xchg),
    AtomicKind::SurfaceRmw(Smin), AtomicKind::SurfaceRmw(Smax), AtomicKind::SurfaceRmw(Umin),
    AtomicKind::SurfaceRmw(Umax), AtomicKind::SurfaceRmw(Fadd), AtomicKind::SurfaceRmw(Fmin),
    AtomicKind::SurfaceRmw(Fmax), AtomicKind::SurfaceRmw(IncWrap), AtomicKind::SurfaceRmw(DecWrap),
    AtomicKind::SurfaceRmw(Nand), AtomicKind::SurfaceCas,
];
const SURFACE: [Rule; 7] = [
    Rule {
        kinds: &[AtomicKind::SurfaceRmw(Add), AtomicKind::SurfaceRmw(Sub), AtomicKind::SurfaceRmw(And),
                 AtomicKind::SurfaceRmw(Or), AtomicKind::SurfaceRmw(Xor), AtomicKind::SurfaceRmw(Xchg),
                 AtomicKind::SurfaceRmw(Smin), AtomicKind::SurfaceRmw(Smax), AtomicKind::SurfaceRmw(Umin),
                 AtomicKind::SurfaceRmw(Umax), AtomicKind::SurfaceCas],
        types: &[Type::I32],
        spaces: &[],
        lowering: Native,
        evidence: "typed_atomic add sub and or xor xchg min max imin imax cmpxchg (TYPED_ATOMIC.md); GenX_IR \
                   1.0.12504 accepts them on TGLLP, DG2 and PVC, on a bound surface argument and on %bss after a \
                   movs (tests/visa_oracle.rs, visa/surface-atomics.atom, visa/surface-bindless.atom)",
    },
    Rule {
        kinds: &[AtomicKind::SurfaceRmw(Xchg), AtomicKind::SurfaceCas],
        types: &[Type::F32, Type::F16x2, Type::BF16x2],
        spaces: &[],
        lowering: Native,
        evidence: "typed_atomic xchg/cmpxchg move 32-bit patterns (ud data)",
    },
    Rule {
        kinds: &[AtomicKind::SurfaceRmw(Fmin), AtomicKind::SurfaceRmw(Fmax)],
        types: &[Type::F32],
        spaces: &[],
        lowering: Native,
        evidence: "typed_atomic fmin/fmax (TYPED_ATOMIC.md ops 0x10/0x11)",
    },
    Rule {
        kinds: &[AtomicKind::SurfaceRmw(Fadd), AtomicKind::SurfaceRmw(IncWrap), AtomicKind::SurfaceRmw(DecWrap)],
        types: &[Type::F32, Type::I32],
        spaces: &[],
        lowering: Native,
        evidence: "no typed_atomic op: a typed_atomic cmpxchg retry loop built by the lowering \
                   (lower/src/visa/surface_loop.rs), the CAS-loop shape of reference §0",
    },
    Rule {
        kinds: &[AtomicKind::SurfaceRmw(Fadd), AtomicKind::SurfaceRmw(Fmin), AtomicKind::SurfaceRmw(Fmax)],
        types: &[Type::F16x2, Type::BF16x2],
        spaces: &[],
        lowering: CasLoop,
        evidence: "no typed_atomic op for packed halves (TYPED_ATOMIC.md op table): the legalizer's CAS loop on the \
                   32-bit word (typed_atomic cmpxchg, accepted on TGLLP, DG2 and PVC), the halves computed in f32",
    },
    Rule {
        kinds: &[AtomicKind::SurfaceRmw(Nand)],
        types: &[Type::I32],
        spaces: &[],
        lowering: CasLoop,
        evidence: "no typed_atomic nand (TYPED_ATOMIC.md op table): the legalizer's CAS loop on typed_atomic \
                   cmpxchg, which GenX_IR 1.0.12504 accepts on TGLLP, DG2 and PVC (tests/visa_oracle.rs)",
    },
    Rule {
        kinds: SURFACE_ALL,
        types: &[],
        spaces: &[],
        lowering: Unsupported(
            "no typed_atomic op and no CAS loop for this surface op and type",
        ),
        evidence: "TYPED_ATOMIC.md op table: add sub inc dec min max xchg cmpxchg and or xor imin imax predec fmax \
                   fmin fcmpwr",
    },
];

/// 64-bit surface atomics (every platform): a CAS under a spinlock on a global dword the launch
/// zeroes (lower/src/visa/surface_lock.rs, the `SURFACE_LOCK` input of lower/src/visa/abi.rs).
const SURFACE64_LOCK: [Rule; 2] = [
    Rule {
        kinds: &[AtomicKind::SurfaceCas],
        types: &[Type::I64],
        spaces: &[],
        lowering: Native,
        evidence: "typed_atomic has no 64-bit form (TYPED_ATOMIC.md: bit 5 of the op selects 16-bit data); IGC \
                   emulates such atomics under a global spinlock (BiFModule atomics.cl, GLOBAL_SPINLOCK_START: \
                   cmpxchg 0 -> 1, release by an atomic store of 0); atomc takes one with svm_atomic and, holding \
                   it, reads and writes the element as an R32G32 texel with gather4_typed/scatter4_typed, which \
                   GenX_IR 1.0.12504 compiles on TGLLP, DG2 and PVC (tests/visa_oracle.rs, \
                   visa/surface-atomics64.atom)",
    },
    Rule {
        kinds: SURFACE_ALL,
        types: &[Type::I64],
        spaces: &[],
        lowering: CasLoop,
        evidence: "a CAS loop around the locked 64-bit surface CAS above, as TGLLP's 64-bit SLM read-modify-writes \
                   around theirs",
    },
];

/// 64-bit SLM atomics on TGLLP: a spinlock on an SLM dword the launch reserves
/// (lower/src/visa/slm_lock.rs, the `SLM_LOCK` input of lower/src/visa/abi.rs).
const SLM64_LOCK: [Rule; 2] = [
    Rule {
        kinds: &[AtomicKind::Cas, AtomicKind::Load, AtomicKind::Store],
        types: &[Type::I64, Type::F64],
        spaces: SHARED,
        lowering: Native,
        evidence: "no 64-bit SLM message on TGLLP: GenX_IR 1.0.12504's parser rejects `dword_atomic.add.64` ('only \
                   supports 16') and TGLLP has no LSC; IGC emulates 64-bit local atomics there under a spinlock on \
                   a reserved SLM dword (BiFModule atomics.cl, LOCAL_SPINLOCK_START: cmpxchg 0 -> 1, release by an \
                   atomic store of 0); atomc's lock loop reads, compares and writes the two dwords with \
                   gather_scaled/scatter_scaled while one lane holds it",
    },
    Rule {
        kinds: ALL_RMW,
        types: &[Type::I64, Type::F64],
        spaces: SHARED,
        lowering: CasLoop,
        evidence: "a CAS loop around the locked 64-bit CAS above, as DG2 and PVC build theirs around icas; f64 add's \
                   loop body is integer code (lower/src/visa/soft_f64.rs), TGLLP having no fp64 ALU",
    },
];

/// 64-bit SLM atomics on DG2 and PVC (ahead of the common rows): `lsc_atomic_icas.slm` on d64, the one
/// d64 LSC SLM atomic GenX_IR 1.0.12504 takes (lower/src/visa/slm64.rs).
const SLM64_LSC: [Rule; 3] = [
    Rule {
        kinds: &[AtomicKind::Cas, AtomicKind::Load],
        types: &[Type::I64, Type::F64],
        spaces: SHARED,
        lowering: Native,
        evidence: "`lsc_atomic_icas.slm (M1, 16) D:d64 flat[A]:a32 E N` compiles to `atomic_icas.slm.d64.a32` on DG2 \
                   and PVC (GenX_IR 1.0.12504, measured); a load is icas of 0 with 0",
    },
    Rule {
        kinds: ALL_RMW,
        types: &[Type::I64, Type::F64],
        spaces: SHARED,
        lowering: CasLoop,
        evidence: "GenX_IR 1.0.12504: 'LSC SLM D64 atomics only support icas'; IGC builds CAS loops for i64 local \
                   atomics where the part has a 64-bit SLM CAS (reference §6)",
    },
    Rule {
        kinds: &[AtomicKind::Store],
        types: &[Type::I64, Type::F64],
        spaces: SHARED,
        lowering: Native,
        evidence: "GenX_IR 1.0.12504: 'LSC SLM D64 atomics only support icas', so the store is an icas retry loop \
                   in the lowering (lower/src/visa/slm64.rs), the CAS-loop shape of reference §0",
    },
];

/// `fsub` (memory and surfaces, every platform): `fadd` of the negation.
const FSUB_AS_NEGATED_FADD: Rule = Rule {
    kinds: FSUB,
    types: &[],
    spaces: &[],
    lowering: NegateToAdd,
    evidence: "atomc emits no float-subtract atomic message: typed_atomic has none (TYPED_ATOMIC.md's op table), \
               dword_atomic none (DWORD_ATOMIC.md: fmin/fmax/fcmpwr), and the svm_atomic float ops atomc uses are \
               fadd, fmin, fmax (seed 002); IGC knows an f32 fsub atomic (EATOMIC_FSUB; LSC atomic_fsub) that atomc \
               does not use. Exact: `old - x` and `old + (-x)` are one IEEE value (the same exact result rounded \
               once to nearest even; IEEE 754-2008 §6.3 signs a zero difference of like-signed operands as a zero \
               sum of opposite-signed ones, +0; a NaN operand or inf - inf gives a NaN either way), and the \
               negation flips the sign bits only (fneg; an xor for packed lanes); the fadd rows decide the rest, \
               their refusals included",
};

const COMMON_HEAD: [Rule; 3] = [
    Rule {
        kinds: LOAD_STORE,
        types: &[],
        spaces: &[],
        lowering: Native,
        evidence: "svm_atomic/dword_atomic or 0 and xchg (as IGC, reference §6); bytes: svm_gather/svm_scatter, \
                   gather_scaled.1/scatter_scaled.1 on SLM; with vISA fences",
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
        types: &[Type::F16, Type::F32, Type::F64, Type::F16x2, Type::BF16x2],
        spaces: &[],
        lowering: Native,
        evidence: "xchg/cmpxchg move bit patterns (type UD/UQ, seed 002; f16 as .16, like i16); shared f16 takes the \
                   SLM rows above",
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
    FSUB_AS_NEGATED_FADD,
    SLM64_LOCK[0], SLM64_LOCK[1],
    SLM[0], SLM[1], SLM[2],
    COMMON_HEAD[0], COMMON_HEAD[1], COMMON_HEAD[2],
    COMMON_TAIL[0], COMMON_TAIL[1], COMMON_TAIL[2],
    Rule {
        kinds: ALL_RMW,
        types: &[],
        spaces: &[],
        lowering: CasLoop,
        evidence: "no fadd message before XeHP (reference §6: IGC emits a cmpxchg do-while on TGLLP); no fp64 ALU \
                   either, so f64 add's loop body is IEEE binary64 addition in integer code on the dword halves \
                   (lower/src/visa/soft_f64.rs), as IGC emulates double precision on such parts",
    },
    SURFACE[0], SURFACE[1], SURFACE[2], SURFACE[3], SURFACE[4], SURFACE[5], SURFACE64_LOCK[0], SURFACE64_LOCK[1], SURFACE[6],
];

const DG2: &[Rule] = &[
    FSUB_AS_NEGATED_FADD,
    SLM64_LSC[0], SLM64_LSC[1], SLM64_LSC[2],
    SLM[0], SLM[1], SLM[2],
    COMMON_HEAD[0], COMMON_HEAD[1], COMMON_HEAD[2],
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
        evidence: "f64 add and the rest: cmpxchg loops (reference §6); DG2 has no fp64 ALU, so f64 add's loop \
                   body is integer code on the dword halves (lower/src/visa/soft_f64.rs; PVC adds `df`)",
    },
    SURFACE[0], SURFACE[1], SURFACE[2], SURFACE[3], SURFACE[4], SURFACE[5], SURFACE64_LOCK[0], SURFACE64_LOCK[1], SURFACE[6],
];
