//! The sm_50 (Maxwell) form table, as the build script runs it.
//!
//! Layout facts shared by every sm_50 form (confirmed with nvdisasm 11.8, reference §2): 64-bit
//! words in 32-byte bundles of one control word and three instructions (see `src/bundle.rs`);
//! the opcode sits in the high bits (its width varies per form); guard predicate 16..18 and its
//! negation 19; Rd 0..7, Ra 8..15, Rb 20..27, Rc 39..46; 20-bit immediates in 20..38 with the
//! sign in bit 56; 32-bit immediates in 20..51; constants `c[bank][offset]` with the word
//! offset in 20..33 and the bank in 34..38. `RZ` is 255, `PT` is 7.

mod alu;
mod atomics;
mod bits;
mod control;
mod facts;
mod memory;

use crate::bits::Field;
use crate::builder::leak;
use crate::facts::CondCode;
use crate::form::*;

/// Every sm_50 form, in table order. Every form reads and writes the condition code by its
/// `.CC` / `.X` modifiers and `.CC` result suffix ([`CondCode::Modifiers`]).
pub fn forms() -> Vec<Form> {
    let mut forms = crate::builder::table(&[atomics::forms, memory::forms, control::forms, alu::forms, bits::forms]);
    for f in &mut forms {
        f.facts.cond_code = CondCode::Modifiers;
    }
    forms
}

// ---- small vocabulary for writing the table -------------------------------------------------

pub(super) use crate::builder::{flag, group as g, leak_str, FormBuilder as F, ATOMIC_INT_OPS, FLOAT_COMPARES};

/// Starts a form identified by `opcode` in the `width` high bits of the word.
pub(super) fn form(key: &'static str, mnemonic: &'static str, width: u8, opcode: u64) -> F {
    F::new(key, mnemonic, Field::new(64 - width, width), opcode)
}

/// Source registers in the A, B and C slots (bits 8, 20, 39) carry the operand-reuse flags
/// 0, 1 and 2 of the control word; nvdisasm prints them as `.reuse`.
fn reg_spec(lo: u8, rz_ok: bool) -> RegSpec {
    let reuse = match lo {
        8 => Some(0),
        20 => Some(1),
        39 => Some(2),
        _ => None,
    };
    RegSpec { field: Field::new(lo, 8), rz_ok, neg: None, abs: None, not: None, reuse }
}

/// General register, RZ allowed.
pub(super) fn r(lo: u8) -> OpSpec {
    OpSpec::Reg(reg_spec(lo, true))
}
/// General register that must not be RZ.
pub(super) fn rnz(lo: u8) -> OpSpec {
    OpSpec::Reg(reg_spec(lo, false))
}
/// Register with optional negate / bitwise-not bits.
pub(super) fn rmod(lo: u8, neg: Option<u8>, not: Option<u8>) -> OpSpec {
    OpSpec::Reg(RegSpec {
        neg: neg.map(|b| Field::new(b, 1)),
        not: not.map(|b| Field::new(b, 1)),
        ..reg_spec(lo, true)
    })
}
/// Float rounding, 2 bits at `lo` (round to nearest, the default, prints nothing).
pub(super) fn rnd(lo: u8) -> ModGroup {
    g("rnd", lo, 2, &[(0, ""), (1, "RM"), (2, "RP"), (3, "RZ")])
}
/// Integer signedness in bit 48: `.U32` when clear, signed (printed as nothing) when set.
pub(super) fn sign48() -> ModGroup {
    g("sign", 48, 1, &[(0, "U32"), (1, "")])
}
/// Destination register with the `.CC` (write condition code) suffix in bit `cc`.
pub(super) fn rd_cc(cc: u8) -> OpSpec {
    OpSpec::Ext(ExtSpec::Suffixed { field: Field::new(0, 8), flag: Field::new(cc, 1), suffix: ".CC", reuse: None, sets_cc: true })
}
/// A register implied by slot `from` plus `delta` (no bits).
pub(super) fn implied(from: u8, delta: u8) -> OpSpec {
    OpSpec::Ext(ExtSpec::Implied { from: Some(from), delta })
}
/// `RZ` with no bits.
pub(super) fn implied_rz() -> OpSpec {
    OpSpec::Ext(ExtSpec::Implied { from: None, delta: 0 })
}
/// Predicate with a negation bit.
pub(super) fn pn(lo: u8, not: u8) -> OpSpec {
    OpSpec::Pred(PredSpec { field: Field::new(lo, 3), not: Some(Field::new(not, 1)), hide_pt: false })
}
/// Predicate without a negation bit.
pub(super) fn p(lo: u8) -> OpSpec {
    OpSpec::Pred(PredSpec { field: Field::new(lo, 3), not: None, hide_pt: false })
}
/// Unsigned hex immediate.
pub(super) fn imm(lo: u8, width: u8) -> OpSpec {
    OpSpec::Imm(ImmSpec { field: Field::new(lo, width), kind: ImmKind::Hex })
}
/// The signed 20-bit immediate of ALU forms: 19 bits at 20, sign in bit 56.
pub(super) fn imm20() -> OpSpec {
    OpSpec::Imm(ImmSpec { field: Field::split2((20, 19), (56, 1)), kind: ImmKind::SignedHex })
}
/// The float immediate of ALU forms: an f32's high 19 bits below its sign at 20..38, the sign
/// in bit 56 (where [`imm20`] keeps an integer's).
pub(super) fn fimm20() -> OpSpec {
    OpSpec::Imm(ImmSpec { field: Field::split2((20, 19), (56, 1)), kind: ImmKind::F32Hi20 })
}
/// 32-bit immediate at 20..51.
pub(super) fn imm32() -> OpSpec {
    OpSpec::Imm(ImmSpec { field: Field::new(20, 32), kind: ImmKind::Hex })
}
/// `c[bank][offset]`: word offset in 20..33, bank in 34..38.
pub(super) fn cbank() -> OpSpec {
    OpSpec::Ext(ExtSpec::CBankScaled {
        spec: CBankSpec { bank: Field::new(34, 5), offset: Field::new(20, 14), base: None },
        shift: 2,
    })
}
/// `c[bank][offset]` (as [`cbank`]) with optional negation, absolute-value and `.H1` bits;
/// `spaced` prints nvdisasm's `c[0x0] [0x150]`.
pub(super) fn cbank_mod(neg: Option<u8>, abs: Option<u8>, h1: Option<u8>, spaced: bool) -> OpSpec {
    let bit = |b: Option<u8>| b.map(|b| Field::new(b, 1));
    OpSpec::Ext(ExtSpec::CBankMod {
        spec: CBankSpec { bank: Field::new(34, 5), offset: Field::new(20, 14), base: None },
        shift: 2,
        neg: bit(neg),
        abs: bit(abs),
        h1: bit(h1),
        spaced,
    })
}
/// Predicate result that nvdisasm leaves out when it is `PT`.
pub(super) fn p_hidden(lo: u8) -> OpSpec {
    OpSpec::Pred(PredSpec { field: Field::new(lo, 3), not: None, hide_pt: true })
}
/// Register with optional negate and absolute-value bits.
pub(super) fn rna(lo: u8, neg: u8, abs: u8) -> OpSpec {
    OpSpec::Reg(RegSpec { neg: Some(Field::new(neg, 1)), abs: Some(Field::new(abs, 1)), ..reg_spec(lo, true) })
}
/// `[Ra+offset]` with a signed byte offset at `(lo, width)`.
pub(super) fn mem(lo: u8, width: u8) -> OpSpec {
    OpSpec::Mem(MemSpec {
        base: Field::new(8, 8),
        width: BaseWidth::Plain,
        ureg: None,
        desc: None,
        offset: Some(Field::new(lo, width)),
        scale: None,
        reuse: None,
    })
}
/// `[Ra]` without offset.
pub(super) fn mem0() -> OpSpec {
    OpSpec::Mem(MemSpec {
        base: Field::new(8, 8),
        width: BaseWidth::Plain,
        ureg: None,
        desc: None,
        offset: None,
        scale: None,
        reuse: None,
    })
}
/// `[Ra+offset]` whose offset field counts `1 << shift` bytes.
pub(super) fn mem_scaled(lo: u8, width: u8, shift: u8) -> OpSpec {
    let OpSpec::Mem(spec) = mem(lo, width) else { unreachable!("mem() builds a Mem") };
    OpSpec::Ext(ExtSpec::MemScaled { spec, shift })
}

/// The twin of `f` for an absolute address: Ra fixed to RZ and the offset read unsigned
/// (nvdisasm prints `[0x80000]` where the same bits with a register print `[R2+-0x80000]`).
/// Forms without a based memory operand are returned unchanged as `None`.
pub(super) fn absolute_twin(f: &Form) -> Option<Form> {
    let mut t = *f;
    let slot = t.ops.iter().position(|o| matches!(o, OpSpec::Mem(_) | OpSpec::Ext(ExtSpec::MemScaled { .. })))?;
    let (off, shift) = match t.ops[slot] {
        OpSpec::Mem(MemSpec { offset: Some(o), .. }) => (o, 0),
        OpSpec::Ext(ExtSpec::MemScaled { spec: MemSpec { offset: Some(o), .. }, shift }) => (o, shift),
        _ => return None,
    };
    t.key = leak_str(format!("{}.abs", f.key));
    t.fixed = leak([t.fixed, &[(Field::new(8, 8), 255)]].concat());
    t.identity = pattern_of(t.fixed);
    let mut ops = t.ops.to_vec();
    ops[slot] = OpSpec::Ext(ExtSpec::Abs { field: off, shift });
    t.ops = leak(ops);
    Some(t)
}
