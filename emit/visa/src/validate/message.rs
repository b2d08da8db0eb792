//! Rules on the message instructions `svm_atomic`, `svm_gather` and
//! `svm_scatter` (seed 002 and visa.md §3-§4).

use super::{Checker, Rule};
use crate::inst::{AtomicOp, AtomicWidth, Ext, Inst, Op};
use crate::operand::Operand;
use crate::types::Type;

pub(super) fn check(c: &mut Checker<'_>, inst: &Inst) {
    let lanes = inst.exec.size.lanes();
    let max = if inst.op == Op::SvmAtomic { 8 } else { 16 };
    if lanes > max {
        c.err(
            Rule::MsgExecSize,
            format!("exec size {lanes} (at most {max})"),
        );
    }
    let addr = inst.operands[0];
    address(c, &addr, lanes.max(8));
    match inst.ext {
        Ext::Atomic(op, w) => atomic(c, inst, op, w),
        Ext::Blocks(b) => {
            if !matches!(b.block_bytes, 1 | 4 | 8) || !matches!(b.num_blocks, 1 | 2 | 4 | 8) {
                c.err(
                    Rule::MsgBlocks,
                    format!("{} blocks of {} bytes", b.num_blocks, b.block_bytes),
                );
            }
            let per_lane = b.block_bytes.max(4) as u32 * b.num_blocks as u32;
            if per_lane * lanes > 512 {
                c.err(
                    Rule::MsgBlocks,
                    format!(
                        "{} bytes of data per message (at most 512)",
                        per_lane * lanes
                    ),
                );
            }
            let data = inst.operands[1];
            if data.is_null() {
                c.err(Rule::RawBounds, "gather/scatter data cannot be %null");
            } else {
                raw_data(c, &data, per_lane * lanes.max(8));
            }
        }
        _ => {}
    }
}

fn address(c: &mut Checker<'_>, o: &Operand, lanes: u32) {
    let Operand::Raw {
        var: Some(v),
        offset,
    } = *o
    else {
        c.err(Rule::MsgAddress, "the address operand cannot be %null");
        return;
    };
    let Some(d) = c.k.var(v) else { return };
    if d.ty != Type::UQ {
        c.err(
            Rule::MsgAddress,
            format!("address `{}` has type {} (uq required)", d.name, d.ty),
        );
    }
    raw_align(c, v, offset);
    if offset as u32 + 8 * lanes > d.bytes() {
        c.err(
            Rule::MsgAddress,
            format!(
                "address `{}`.{offset} holds fewer than {lanes} × uq",
                d.name
            ),
        );
    }
}

pub(super) fn raw_align(c: &mut Checker<'_>, v: crate::VarId, offset: u16) {
    let grf = c.p.grf_bytes();
    if c.var_align(v) < grf || !(offset as u32).is_multiple_of(grf) {
        let name = c.k.var(v).map(|d| d.name.clone()).unwrap_or_default();
        c.err(
            Rule::RawAlign,
            format!("raw operand `{name}`.{offset} is not GRF aligned"),
        );
    }
}

pub(super) fn raw_data(c: &mut Checker<'_>, o: &Operand, bytes: u32) {
    let Operand::Raw {
        var: Some(v),
        offset,
    } = *o
    else {
        return;
    };
    let Some(d) = c.k.var(v) else { return };
    raw_align(c, v, offset);
    if offset as u32 + bytes > d.bytes() {
        c.err(
            Rule::RawBounds,
            format!(
                "`{}`.{offset} holds fewer than the {bytes} payload bytes",
                d.name
            ),
        );
    }
}

/// The data type of an `svm_atomic`: `q`/`d` for minsint/maxsint, `df`/`f` for the float ops,
/// `uq`/`ud` otherwise (64-bit / narrower).
pub fn svm_data_type(op: AtomicOp, w: AtomicWidth) -> Type {
    match (op, w) {
        (AtomicOp::IMin | AtomicOp::IMax, AtomicWidth::W64) => Type::Q,
        (AtomicOp::IMin | AtomicOp::IMax, _) => Type::D,
        (_, AtomicWidth::W64) if op.is_float() => Type::DF,
        _ if op.is_float() => Type::F,
        (_, AtomicWidth::W64) => Type::UQ,
        _ => Type::UD,
    }
}

pub(super) fn atomic(c: &mut Checker<'_>, inst: &Inst, op: AtomicOp, w: AtomicWidth) {
    atomic_typed(c, inst, op, w, None)
}

/// [`atomic`] with the data type the message wants given (`None`: the
/// `svm_atomic` rule).
pub(super) fn atomic_typed(c: &mut Checker<'_>, inst: &Inst, op: AtomicOp, w: AtomicWidth, data: Option<Type>) {
    // Binary order: addr, src0, src1, dst.
    let (src0, src1, dst) = (inst.operands[1], inst.operands[2], inst.operands[3]);
    let n = op.num_sources();
    if src0.is_null() != (n == 0) {
        c.err(
            Rule::AtomicSrc0,
            format!(
                "src0 must {}be %null for {op:?}",
                if n == 0 { "" } else { "not " }
            ),
        );
    }
    if src1.is_null() != (n < 2) {
        c.err(
            Rule::AtomicSrc1,
            format!(
                "src1 must {}be %null for {op:?}",
                if n < 2 { "" } else { "not " }
            ),
        );
    }
    let elt = if w == AtomicWidth::W64 { 8 } else { 4 };
    let want = data.unwrap_or_else(|| svm_data_type(op, w));
    for (what, o) in [("src0", src0), ("src1", src1), ("dst", dst)] {
        if let Operand::Raw { var: Some(v), .. } = o {
            if let Some(d) = c.k.var(v) {
                if d.ty != want {
                    c.err(
                        Rule::AtomicTypes,
                        format!("{what} `{}` has type {} ({want} required)", d.name, d.ty),
                    );
                }
            }
            raw_data(c, &o, 8 * elt);
        }
    }
    if w == AtomicWidth::W16 && !c.p.is_tgllp_plus() {
        c.err(
            Rule::Atomic16Platform,
            format!(".16 atomics need TGLLP or newer, not {}", c.p),
        );
    }
    if w == AtomicWidth::W64 && op.is_float() {
        c.err(
            Rule::AtomicFloat64,
            format!("{op:?}.64 is not a valid message"),
        );
    }
    if matches!(op, AtomicOp::FAdd | AtomicOp::FSub)
        && (!c.p.is_xehp_plus() || w != AtomicWidth::W32)
    {
        c.err(
            Rule::AtomicFaddPlatform,
            format!("{op:?} needs XeHP or newer and 32-bit data"),
        );
    }
    if op == AtomicOp::PreDec && c.p.is_xehp_plus() {
        c.err(
            Rule::AtomicPredec,
            format!("predec is not available on {}", c.p),
        );
    }
}
