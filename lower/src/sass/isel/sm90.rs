//! The sm_90 spelling of what the shared selector emits. The selector
//! speaks the sm_70+ instruction set; Hopper renames the integer min/max
//! (`VIMNMX`), and nvdisasm prints some `IMAD`s under alias names, which the
//! form table's assembler (like nvdisasm) insists on:
//! `IMAD.MOV.U32` (a zero factor, or ×1 + RZ), `IMAD.IADD` (×1 + c),
//! `IMAD.SHL.U32` (× a power of two below 2^31 other than 0x10000, + RZ).

use crate::sass::inst::{MOp, SassInst};
use crate::vcode::Reg;

fn is_zero(op: &MOp) -> bool {
    matches!(op, MOp::Reg { reg: Reg::Zero, neg: false, .. } | MOp::Imm(0))
}

/// Rewrites an instruction's opcode to the spelling nvdisasm uses on sm_90.
pub(super) fn respell(mut inst: SassInst) -> SassInst {
    let shown: Vec<&MOp> = inst.ops.iter().filter(|op| !matches!(op, MOp::Tied { .. })).collect();
    let renamed = match (inst.opcode.as_str(), shown.as_slice()) {
        ("IMNMX", _) => Some("VIMNMX"),
        ("IMNMX.U32", _) => Some("VIMNMX.U32"),
        ("IMAD", [_, a, b, c]) => {
            if is_zero(a) || is_zero(b) || (**b == MOp::Imm(1) && is_zero(c)) {
                Some("IMAD.MOV.U32")
            } else if **b == MOp::Imm(1) {
                Some("IMAD.IADD")
            } else if let MOp::Imm(v) = b {
                let shift = is_zero(c) && *v > 1 && *v < 1 << 31 && *v != 0x10000 && (*v as u64).is_power_of_two();
                shift.then_some("IMAD.SHL.U32")
            } else {
                None
            }
        }
        _ => None,
    };
    if let Some(name) = renamed {
        inst.opcode = name.to_string();
    }
    inst
}
