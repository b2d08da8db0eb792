//! The LSC message atomc emits: `lsc_atomic_<op>.slm` on `d64` data at
//! per-lane `a32` SLM byte addresses (DG2 and PVC; IGC LSC_UNTYPED.md, opcode
//! 0x89). GenX_IR 1.0.12504 takes only `icas` for d64 SLM atomics ("LSC SLM
//! D64 atomics only support icas", measured on DG2 and PVC), so that is the
//! one op the validator lets through.
//!
//! Record (GenX_IR 1.0.12504's own `.isa` for `lsc_atomic_icas.slm (M1, 8)
//! D:d64 flat[A]:a32 E N`, read back field by field): `89 | sub-op | exec |
//! pred | sfid 3 (slm) | caching l1 0, l3 0 | address model 1 (flat) | scale
//! UW 1 | offset UD 0 | address size 2 (a32) | data size 4 (d64) | order 1
//! (non-transposed) | elements 1 | channel mask 1 | surface (immediate 0:ud) |
//! dst | src0 (addresses) | src1 | src2` (raw operands). For `icas` src1 is
//! the compared value and src2 the new one (IGC's GenXLoadStoreLowering).

use super::inst::{AtomicOp, AtomicWidth, Ext, Inst, Op};
use super::kernel::Kernel;
use super::operand::Operand;
use super::types::Exec;

impl AtomicOp {
    /// The LSC sub-op and its text name (`LSC_OP` of IGC's
    /// `visa_igc_common_header.h`); `None` where LSC has no such atomic.
    pub fn lsc(self) -> Option<(u8, &'static str)> {
        Some(match self {
            AtomicOp::Inc => (0x08, "iinc"),
            AtomicOp::Dec => (0x09, "idec"),
            AtomicOp::Add => (0x0C, "iadd"),
            AtomicOp::Sub => (0x0D, "isub"),
            AtomicOp::IMin => (0x0E, "smin"),
            AtomicOp::IMax => (0x0F, "smax"),
            AtomicOp::Min => (0x10, "umin"),
            AtomicOp::Max => (0x11, "umax"),
            AtomicOp::CmpXchg => (0x12, "icas"),
            AtomicOp::FAdd => (0x13, "fadd"),
            AtomicOp::FSub => (0x14, "fsub"),
            AtomicOp::FMin => (0x15, "fmin"),
            AtomicOp::FMax => (0x16, "fmax"),
            AtomicOp::FCmpWr => (0x17, "fcas"),
            AtomicOp::And => (0x18, "and"),
            AtomicOp::Or => (0x19, "or"),
            AtomicOp::Xor => (0x1A, "xor"),
            AtomicOp::Xchg | AtomicOp::PreDec => return None,
        })
    }
}

/// The bytes between the predicate and the surface operand, for a flat
/// `a32` SLM message of `width` data.
pub(crate) fn slm_shape(width: AtomicWidth) -> [u8; 15] {
    let size = match width {
        AtomicWidth::W16 => 2,
        AtomicWidth::W32 => 3,
        AtomicWidth::W64 => 4,
    };
    [3, 0, 0, 1, 1, 0, 0, 0, 0, 0, 2, size, 1, 1, 1]
}

/// The surface operand of a flat message: the immediate `0:ud`.
pub(crate) const FLAT_SURFACE: [u8; 6] = [5, 0, 0, 0, 0, 0];

/// The data suffix of the text (`d64`).
pub(crate) fn data_suffix(width: AtomicWidth) -> &'static str {
    match width {
        AtomicWidth::W16 => "d16",
        AtomicWidth::W32 => "d32",
        AtomicWidth::W64 => "d64",
    }
}

impl Kernel {
    /// `lsc_atomic_<op>.slm (exec) dst:d64 flat[addrs]:a32 src1 src2`: an
    /// LSC atomic on SLM at per-lane byte addresses (`ud`). For `icas` (op
    /// [`AtomicOp::CmpXchg`]) src1 is the compared value and src2 the new one.
    #[allow(clippy::too_many_arguments)]
    pub fn lsc_slm_atomic(
        &mut self,
        exec: Exec,
        op: AtomicOp,
        width: AtomicWidth,
        dst: Operand,
        addrs: Operand,
        src1: Operand,
        src2: Operand,
    ) -> &mut Inst {
        self.push(Inst::new(Op::LscSlmAtomic, exec, Ext::Atomic(op, width), vec![dst, addrs, src1, src2]))
    }
}
