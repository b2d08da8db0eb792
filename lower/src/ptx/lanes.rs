//! The bit ops, `fma`, multiply-high and the subgroup instructions in PTX: not emitted yet;
//! each is refused naming the instruction (never an internal error).

use super::{Emitter, PtxError};
use atomc_ir::{BinaryOp, InstData, UnaryOp};

/// Whether `data` is one of the instructions this file answers for.
pub(super) fn owns(data: &InstData) -> bool {
    match data {
        InstData::Unary { op, .. } => matches!(op, UnaryOp::Popcnt | UnaryOp::Clz | UnaryOp::Ctz | UnaryOp::Bitrev),
        InstData::Binary { op, .. } => matches!(op, BinaryOp::Umulhi | BinaryOp::Smulhi),
        InstData::Ternary { .. } | InstData::Bfi { .. } => true,
        other => other.is_subgroup(),
    }
}

pub(super) fn inst(e: &mut Emitter<'_>, data: &InstData) -> Result<(), PtxError> {
    Err(e.unsupported(data.opcode_name(), "atomc's PTX emitter has no lowering for it yet"))
}
