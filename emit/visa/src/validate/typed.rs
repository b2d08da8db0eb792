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

/// `gather4_typed` / `scatter4_typed` (GATHER4_TYPED.md, SCATTER4_TYPED.md): SIMD8, a channel
/// mask, `ud` coordinates (u never `%null`) and a `ud`/`d`/`f` data variable of one GRF per
/// enabled channel (each channel's eight lanes start a register of their own).
///
/// On PVC a `scatter4_typed` carries one channel: GenX_IR 1.0.12504 sizes the data of a SIMD8
/// typed write there as 32 bytes per channel rounded down to whole 64-byte GRFs (measured:
/// `send.dc1 … rN:1` for `.R`, `.RG` and `.RGB`, `rN:2` for `.RGBA`), while the read returns a
/// GRF per channel (response length 2 for `.RG`), so a write of two or three channels would
/// send the R register alone and one of four half its data; TGLLP and DG2 send a GRF per channel
/// (`emit/visa/tests/visa_oracle.rs`, `typed_write_payload_lengths`).
pub(super) fn read_write(c: &mut Checker<'_>, inst: &Inst) {
    let what = inst.info().mnemonic;
    if inst.exec.size.lanes() != 8 {
        c.err(Rule::TypedMessage, format!("exec size {} ({what} is SIMD8)", inst.exec.size.lanes()));
    }
    let Ext::Channels(ch) = inst.ext else { return };
    let n = ch.iter().count() as u32;
    if ch.0 == 0 || ch.0 > 15 {
        c.err(Rule::TypedMessage, format!("{what} needs a channel mask of R, G, B and A"));
    }
    if inst.op == crate::inst::Op::Scatter4Typed && c.p.grf_bytes() == 64 && n > 1 {
        c.err(
            Rule::TypedMessage,
            format!(
                "scatter4_typed.{} on {}: GenX_IR sends one GRF of data, write one channel per message",
                ch.text(),
                c.p
            ),
        );
    }
    let [_, u, v, r, lod, data] = inst.operands[..] else { return };
    if u.is_null() {
        c.err(Rule::TypedMessage, "the u coordinate cannot be %null");
    }
    for o in [u, v, r, lod] {
        coords(c, &o);
    }
    let Operand::Raw { var: Some(d), offset } = data else {
        c.err(Rule::TypedMessage, format!("the {what} data must be a variable"));
        return;
    };
    let Some(decl) = c.k.var(d) else { return };
    if !matches!(decl.ty, Type::UD | Type::D | Type::F) {
        c.err(Rule::TypedMessage, format!("{what} data `{}` has type {} (ud, d or f)", decl.name, decl.ty));
    }
    raw_align(c, d, offset);
    let bytes = n * c.p.grf_bytes();
    if offset as u32 + bytes > decl.bytes() {
        c.err(Rule::TypedMessage, format!("{what} data `{}`.{offset} holds fewer than {n} GRFs", decl.name));
    }
}
