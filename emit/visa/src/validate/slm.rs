//! Rules on the SLM messages `dword_atomic`, `gather_scaled` and
//! `scatter_scaled` ([`Rule::SlmMessage`] and the shared raw-operand rules).

use super::message::{atomic_typed, raw_align, raw_data};
use super::{Checker, Rule};
use crate::inst::{AtomicOp, AtomicWidth, Ext, Inst, Op};
use crate::operand::Operand;
use crate::types::Type;

pub(super) fn check(c: &mut Checker<'_>, inst: &Inst) {
    let lanes = inst.exec.size.lanes();
    if lanes > 16 {
        c.err(Rule::SlmMessage, format!("exec size {lanes} (at most 16)"));
    }
    // dword_atomic: offsets, src0, src1, dst; scaled: base, offsets, data.
    let offsets = if inst.op == Op::DwordAtomic { inst.operands[0] } else { inst.operands[1] };
    offsets_operand(c, &offsets, lanes.max(8));
    match inst.ext {
        Ext::Atomic(op, w) => {
            if w == AtomicWidth::W64 {
                c.err(Rule::SlmMessage, "dword_atomic has no .64 (UQ data is SVM only)");
            }
            if matches!(op, AtomicOp::FAdd | AtomicOp::FSub | AtomicOp::PreDec) {
                c.err(Rule::SlmMessage, format!("{op:?} is not a dword_atomic op"));
            }
            if w == AtomicWidth::W16 && op.num_sources() == 2 {
                c.err(Rule::SlmMessage, format!("{op:?}.16 is refused by GenX_IR's verifier"));
            }
            atomic_typed(c, inst, op, w, Some(slm_data_type(op, w)));
        }
        Ext::Scaled(n) => {
            if !matches!(n, 1 | 2 | 4) {
                c.err(Rule::SlmMessage, format!("{n} bytes per lane (1, 2 or 4)"));
            }
            let data = inst.operands[2];
            if data.is_null() {
                c.err(Rule::RawBounds, "gather/scatter data cannot be %null");
            } else {
                raw_data(c, &data, 4 * lanes.max(8));
            }
        }
        _ => {}
    }
}

fn offsets_operand(c: &mut Checker<'_>, o: &Operand, lanes: u32) {
    let Operand::Raw { var: Some(v), offset } = *o else {
        c.err(Rule::SlmMessage, "the offsets operand cannot be %null");
        return;
    };
    let Some(d) = c.k.var(v) else { return };
    if d.ty != Type::UD {
        c.err(Rule::SlmMessage, format!("offsets `{}` have type {} (ud required)", d.name, d.ty));
    }
    raw_align(c, v, offset);
    if offset as u32 + 4 * lanes > d.bytes() {
        c.err(Rule::SlmMessage, format!("offsets `{}`.{offset} hold fewer than {lanes} × ud", d.name));
    }
}

/// The data type of a `dword_atomic`: `d` for 32-bit minsint/maxsint, `f` for
/// the float ops, `ud` otherwise — and `ud` for every `.16` op: GenX_IR
/// 1.0.12504's verifier refuses `dword_atomic.maxsint.16` with `d` (or `w`,
/// `uw`) data ("Raw Operand V42 has incorrect type d", measured on TGLLP, DG2
/// and PVC) and accepts `ud`, encoding "untyped atomic int16 signed-integer max".
pub fn slm_data_type(op: AtomicOp, w: AtomicWidth) -> Type {
    match op {
        _ if w == AtomicWidth::W16 => Type::UD,
        AtomicOp::IMin | AtomicOp::IMax => Type::D,
        _ if op.is_float() => Type::F,
        _ => Type::UD,
    }
}
