//! Rules on `typed_atomic` ([`Rule::TypedMessage`] and the shared atomic
//! operand rules).

use super::message::{atomic_typed, raw_align};
use super::slm::slm_data_type;
use super::{Checker, Rule};
use crate::inst::{AtomicOp, AtomicWidth, Ext, Inst};
use crate::operand::Operand;
use crate::types::ExecSize;
use crate::types::Type;

pub(super) fn check(c: &mut Checker<'_>, inst: &Inst) {
    let Ext::Atomic(op, w) = inst.ext else { return };
    // TYPED_ATOMIC.md: exec size 8 only.
    if inst.exec.size.lanes() != 8 {
        c.err(Rule::TypedMessage, format!("exec size {} (typed_atomic is SIMD8)", inst.exec.size.lanes()));
    }
    if w == AtomicWidth::W64 {
        c.err(Rule::TypedMessage, "typed_atomic has no .64 (32- and 16-bit data only)");
    }
    if matches!(op, AtomicOp::FAdd | AtomicOp::FSub | AtomicOp::PreDec) {
        c.err(Rule::TypedMessage, format!("{op:?} is not a typed_atomic op"));
    }
    // Binary order: surface, u, v, r, lod, src0, src1, dst.
    let [_, u, v, r, lod, src0, src1, dst] = inst.operands[..] else { return };
    if u.is_null() {
        c.err(Rule::TypedMessage, "the u coordinate cannot be %null");
    }
    for o in [u, v, r, lod] {
        coords(c, &o);
    }
    let shadow = Inst::new(inst.op, inst.exec, inst.ext, vec![u, src0, src1, dst]);
    atomic_typed(c, &shadow, op, w, Some(slm_data_type(op, w)));
}

/// A coordinate: `%null` or eight `ud` (TYPED_ATOMIC.md: "Must have type UD").
fn coords(c: &mut Checker<'_>, o: &Operand) {
    let Operand::Raw { var: Some(v), offset } = *o else { return };
    let Some(d) = c.k.var(v) else { return };
    if d.ty != Type::UD {
        c.err(Rule::TypedMessage, format!("coordinate `{}` has type {} (ud required)", d.name, d.ty));
    }
    raw_align(c, v, offset);
    if offset as u32 + 32 > d.bytes() {
        c.err(Rule::TypedMessage, format!("coordinate `{}`.{offset} holds fewer than 8 × ud", d.name));
    }
}

/// `resinfo` (INFO.md): SIMD8 or SIMD16, a channel mask, lod and dst `ud` raw
/// operands, the dst holding `exec size` elements of every enabled channel.
pub(super) fn resinfo(c: &mut Checker<'_>, inst: &Inst) {
    if !matches!(inst.exec.size, ExecSize::S8 | ExecSize::S16) {
        c.err(Rule::TypedMessage, format!("exec size {} (resinfo is SIMD8 or SIMD16)", inst.exec.size.lanes()));
    }
    let Ext::Channels(ch) = inst.ext else { return };
    if ch.0 == 0 || ch.0 > 15 {
        c.err(Rule::TypedMessage, "resinfo needs a channel mask of R, G, B and A");
    }
    let lanes = inst.exec.size.lanes();
    for (o, elems, what) in
        [(inst.operands[1], lanes, "lod"), (inst.operands[2], lanes * ch.iter().count() as u32, "dst")]
    {
        let Operand::Raw { var: Some(v), offset } = o else {
            c.err(Rule::TypedMessage, format!("the resinfo {what} must be a variable (INFO.md)"));
            continue;
        };
        let Some(d) = c.k.var(v) else { continue };
        if d.ty != Type::UD {
            c.err(Rule::TypedMessage, format!("resinfo {what} `{}` has type {} (ud required)", d.name, d.ty));
        }
        raw_align(c, v, offset);
        if offset as u32 + 4 * elems > d.bytes() {
            c.err(Rule::TypedMessage, format!("resinfo {what} `{}`.{offset} holds fewer than {elems} × ud", d.name));
        }
    }
}
