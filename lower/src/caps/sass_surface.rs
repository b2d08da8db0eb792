//! Surface rows both SASS targets share: SUATOM/SURED have the same op field and the same
//! 32-bit CAS on sm_50 and sm_90, and neither ptxas takes a float `sured`.

use super::AtomicKind::{SurfaceCas, SurfaceRmw};
use super::{Lowering::*, Rule};
use atomc_ir::RmwOp::{Fadd, Fmax, Fmin, Nand, Sub, Xchg};
use atomc_ir::Type;

/// `sub` is `add` of the negated operand.
pub const SUB_AS_NEGATED_ADD: Rule = Rule {
    kinds: &[SurfaceRmw(Sub)],
    types: &[Type::I32, Type::I64],
    spaces: &[],
    lowering: NegateToAdd,
    evidence: "SUATOM/SURED op field has no SUB (sm_50: seed 001; sm_90: reference §3.2), as for ATOM",
};

/// CAS and exchange of 32-bit floats move bits.
pub const FLOAT_BITS: Rule = Rule {
    kinds: &[SurfaceCas, SurfaceRmw(Xchg)],
    types: &[Type::F32, Type::F16x2],
    spaces: &[],
    lowering: Native,
    evidence: "CAS and EXCH move bit patterns: the 32-bit SUATOM.CAS / SUATOM.EXCH",
};

/// Float arithmetic on a surface: a CAS loop (sm_90's native packed-half add is matched
/// before this row).
pub const FLOAT_ARITH_LOOP: Rule = Rule {
    kinds: &[SurfaceRmw(Fadd), SurfaceRmw(Fmin), SurfaceRmw(Fmax)],
    types: &[Type::F32, Type::F16x2],
    spaces: &[],
    lowering: CasLoop,
    evidence: "ptxas 11.8 and 13.5 accept no float `sured` (\"Unexpected instruction types specified for 'sured.b'\" for .f32/.f16x2 add, min, max), SUATOM's F32 size is .FTZ (the IR keeps subnormals) and sm_50's has no F16x2 size: a 32-bit SUATOM.CAS loop",
};

/// `nand` on a surface: a CAS loop.
pub const NAND_LOOP: Rule = Rule {
    kinds: &[SurfaceRmw(Nand)],
    types: &[Type::I32, Type::I64],
    spaces: &[],
    lowering: CasLoop,
    evidence: "SUATOM/SURED's op field has no NAND (sm_50: seed 001; sm_90: reference §3.2) and PTX's sured none: \
               a SUATOM.CAS loop of the value's width (both targets have the U32 and U64 CAS sizes)",
};
