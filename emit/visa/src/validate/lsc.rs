//! Rules on `lsc_atomic_<op>.slm` ([`Rule::LscMessage`]).

use super::message::{raw_align, raw_data};
use super::{Checker, Rule};
use crate::inst::{AtomicOp, AtomicWidth, Ext, Inst};
use crate::operand::Operand;
use crate::types::Type;

pub(super) fn check(c: &mut Checker<'_>, inst: &Inst) {
    let Ext::Atomic(op, w) = inst.ext else { return };
    if !c.p.is_xehp_plus() {
        c.err(Rule::LscMessage, format!("no LSC messages on {}", c.p));
    }
    if (op, w) != (AtomicOp::CmpXchg, AtomicWidth::W64) {
        c.err(Rule::LscMessage, format!("{op:?} on {w:?}: GenX_IR takes only icas on d64 SLM data"));
    }
    let lanes = inst.exec.size.lanes();
    if lanes > 16 {
        c.err(Rule::LscMessage, format!("exec size {lanes} (at most 16: SIMD16 pieces on DG2)"));
    }
    // Binary order: dst, addresses, src1, src2.
    let [dst, addrs, src1, src2] = inst.operands[..] else { return };
    match addrs {
        Operand::Raw { var: Some(v), offset } => {
            if let Some(d) = c.k.var(v) {
                if d.ty != Type::UD {
                    c.err(Rule::LscMessage, format!("addresses `{}` have type {} (ud required)", d.name, d.ty));
                }
                if offset as u32 + 4 * lanes.max(8) > d.bytes() {
                    c.err(Rule::LscMessage, format!("addresses `{}`.{offset} hold fewer than {lanes} × ud", d.name));
                }
            }
            raw_align(c, v, offset);
        }
        _ => c.err(Rule::LscMessage, "the addresses cannot be %null"),
    }
    if src1.is_null() || src2.is_null() {
        c.err(Rule::LscMessage, "icas needs src1 (compared) and src2 (new)");
    }
    for o in [dst, src1, src2] {
        if let Operand::Raw { var: Some(v), .. } = o {
            if let Some(d) = c.k.var(v) {
                if d.ty != Type::UQ {
                    c.err(Rule::LscMessage, format!("d64 data `{}` has type {} (uq required)", d.name, d.ty));
                }
            }
            raw_data(c, &o, 8 * lanes.max(8));
        }
    }
}
