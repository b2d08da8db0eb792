//! [`Rule::Bindless`]: `movs` to `%bss` and the messages that read it.

use super::{Checker, Rule};
use crate::inst::{Inst, Op};
use crate::kernel::Surf;
use crate::operand::{Operand, Region};
use crate::types::Type;

/// One `movs`: destination `%bss(0)`, exec size 1, source a scalar `ud`/`d`.
pub(super) fn movs(c: &mut Checker<'_>, inst: &Inst) {
    if inst.exec.size.lanes() != 1 {
        c.err(Rule::Bindless, format!("movs at exec size {} (1: the state is one scalar)", inst.exec.size.lanes()));
    }
    match inst.operands[0] {
        Operand::State { surface: Surf::Bss, offset: 0 } => {}
        ref o => c.err(Rule::Bindless, format!("movs writes {o:?}; only %bss(0) is supported")),
    }
    let ok = match inst.operands[1] {
        Operand::Src { var, region, .. } => {
            region == Region::SCALAR && c.k.var(var).is_some_and(|d| matches!(d.ty, Type::UD | Type::D))
        }
        Operand::Imm(i) => matches!(i.ty, Type::UD | Type::D),
        _ => false,
    };
    if !ok {
        c.err(Rule::Bindless, "the movs source must be a scalar ud/d (a <0;1,0> region or an immediate)");
    }
}

/// Every message on `%bss` comes after a `movs` to it in instruction order (the loops atomc
/// emits set `%bss` inside the loop body before its messages).
pub(super) fn set_before_use(c: &mut Checker<'_>) {
    let mut set = false;
    for (i, inst) in c.k.insts.iter().enumerate() {
        if inst.op == Op::Movs && matches!(inst.operands.first(), Some(Operand::State { surface: Surf::Bss, .. })) {
            set = true;
        }
        if !set && inst.operands.contains(&Operand::Surface(Surf::Bss)) {
            c.at = Some(i);
            c.err(Rule::Bindless, "a message on %bss before any movs sets it");
        }
    }
}
