//! The sm_90 spelling of what the shared selector emits. The selector
//! speaks the sm_70+ instruction set; Hopper renames the integer min/max to
//! `VIMNMX`. (`IMAD`'s alias spellings are the form table's business: its
//! assembler takes the base spelling and its printer shows nvdisasm's alias.)

use crate::sass::inst::SassInst;

/// Rewrites an instruction's opcode to its sm_90 mnemonic.
pub(super) fn respell(mut inst: SassInst) -> SassInst {
    let renamed = match inst.opcode {
        "IMNMX" => Some("VIMNMX"),
        "IMNMX.U32" => Some("VIMNMX.U32"),
        _ => None,
    };
    if let Some(name) = renamed {
        inst.opcode = name;
    }
    inst
}
