//! The alias rules of [`Alias`]: code the printer and assembler run, kept out of the form
//! tables (which are data).

use crate::form::Alias;
use crate::instr::Operand;

impl Alias {
    /// The alias nvdisasm prints for these modifier values and operands, if any.
    pub fn spelling(self, mods: &[u64], ops: &[Operand]) -> Option<&'static str> {
        match self {
            Alias::Imad => imad(mods, ops),
        }
    }
}

/// sm_90 IMAD's printed aliases, as nvdisasm chooses them from the operand values.
fn imad(_mods: &[u64], ops: &[Operand]) -> Option<&'static str> {
    let (a, b, c) = (ops.get(1)?, ops.get(2)?, ops.get(3)?);
    // nvdisasm uses the aliases only when no source is a uniform register.
    if [a, b, c].iter().any(|o| matches!(o, Operand::UReg(_))) {
        return None;
    }
    let is_zero = |o: &Operand| matches!(o, Operand::Reg(r) if r.num == 255 && !r.neg) || *o == Operand::Imm(0);
    let is_one = |o: &Operand| *o == Operand::Imm(1);
    if is_zero(a) || is_zero(b) || (is_one(b) && is_zero(c)) {
        return Some("MOV");
    }
    if is_one(b) {
        return Some("IADD");
    }
    if let Operand::Imm(v) = b {
        // nvdisasm does not call a multiply by 0x10000 a shift (checked value by value).
        if is_zero(c) && *v > 1 && *v < 1 << 31 && *v != 0x10000 && (*v as u64).is_power_of_two() {
            return Some("SHL");
        }
    }
    None
}
