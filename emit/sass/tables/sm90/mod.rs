//! The sm_90 (Hopper) form table, as the build script runs it.
//!
//! Layout facts shared by every sm_90 form (confirmed with nvdisasm 13): 128-bit words; opcode in
//! bits 0..11 (bits 9..11 select the operand kinds of ALU forms); guard predicate 12..14 and its
//! negation 15; Rd 16..23, Ra 24..31, Rb 32..39, Rc 64..71; 32-bit immediates 32..63; constant
//! operands with the byte offset in 38..53 and the bank in 54..58; schedule fields 105..125.

mod alu;
mod atomics;
mod bits;
mod control;
mod facts;
mod float;
mod half;
mod memory;

use crate::bits::Field;
use crate::facts::Facts;
use crate::form::*;

/// Every sm_90 form, in table order (the decoder breaks ties between equally specific
/// patterns by this order).
pub fn forms() -> Vec<Form> {
    crate::builder::table(&[
        atomics::forms, memory::forms, control::forms, alu::forms, alu::more_forms, alu::plop3, alu::misc,
        alu::uniform, bits::forms, float::mufu, float::hfma2, float::forms, half::forms,
    ])
}

// ---- small vocabulary for writing the table -------------------------------------------------

pub(super) use crate::builder::{
    flag, group as g, leak, leak_str, literal, FormBuilder as F, ATOMIC_INT_OPS, FLOAT_COMPARES,
};

// The operand-kind variants of the ALU-style opcodes (bits 9..11, see `alu.rs`), shared by the
// integer and the float forms.

/// (kind bits, bit 91, second source, third source) for three-source ALU forms.
pub(super) fn three(imm_kind: ImmKind) -> Vec<(u64, u64, OpSpec, OpSpec)> {
    vec![
        (0x2, 0, rs(32, 1), rs(64, 2)),
        (0x4, 0, rs(64, 1), imm(32, 32, imm_kind)),
        (0x8, 0, imm(32, 32, imm_kind), rs(64, 2)),
        (0xa, 0, cbank(), rs(64, 2)),
        (0xc, 1, ur(32), rs(64, 2)),
        (0x6, 0, rs(64, 1), cbank()),
        (0xe, 1, rs(64, 1), ur(32)),
    ]
}

/// The three-source kinds whose last source is a register (IADD3 and LOP3 accept only these).
pub(super) fn three_rc(imm_kind: ImmKind) -> Vec<(u64, u64, OpSpec, OpSpec)> {
    three(imm_kind).into_iter().filter(|v| matches!(v.0, 0x2 | 0x8 | 0xa | 0xc)).collect()
}

/// (kind bits, bit 91, second source) for two-source forms.
pub(super) fn two(imm_kind: ImmKind) -> Vec<(u64, u64, OpSpec)> {
    vec![(0x2, 0, rs(32, 1)), (0x8, 0, imm(32, 32, imm_kind)), (0xa, 0, cbank()), (0xc, 1, ur(32))]
}

/// A form key: the mnemonic and the operand-kind bits, `IMAD.4`.
pub(super) fn key(base: &str, kind: u64) -> &'static str {
    leak_str(format!("{}.{:x}", base, kind))
}

/// Starts a form identified by the 12-bit opcode.
pub(super) fn form(key: &'static str, mnemonic: &'static str, opcode: u64) -> F {
    F::new(key, mnemonic, Field::new(0, 12), opcode)
}

fn reg_spec(lo: u8, rz_ok: bool, reuse: Option<u8>) -> RegSpec {
    RegSpec { field: Field::new(lo, 8), rz_ok, neg: None, abs: None, not: None, reuse }
}

/// General register, RZ allowed.
pub(super) fn r(lo: u8) -> OpSpec {
    OpSpec::Reg(reg_spec(lo, true, None))
}
/// General register that must not be RZ.
pub(super) fn rnz(lo: u8) -> OpSpec {
    OpSpec::Reg(reg_spec(lo, false, None))
}
/// Source register with a reuse-flag slot.
pub(super) fn rs(lo: u8, reuse: u8) -> OpSpec {
    OpSpec::Reg(reg_spec(lo, true, Some(reuse)))
}
/// Source register with a reuse-flag slot that must not be RZ.
pub(super) fn rsnz(lo: u8, reuse: u8) -> OpSpec {
    OpSpec::Reg(reg_spec(lo, false, Some(reuse)))
}
/// Source register with negate / absolute-value bits.
pub(super) fn rmod(lo: u8, reuse: Option<u8>, neg: Option<u8>, abs: Option<u8>, not: Option<u8>) -> OpSpec {
    OpSpec::Reg(RegSpec {
        field: Field::new(lo, 8),
        rz_ok: true,
        neg: neg.map(|b| Field::new(b, 1)),
        abs: abs.map(|b| Field::new(b, 1)),
        not: not.map(|b| Field::new(b, 1)),
        reuse,
    })
}
/// Uniform register in a 6-bit field (URZ = 63).
pub(super) fn ur(lo: u8) -> OpSpec {
    OpSpec::UReg(RegSpec { field: Field::new(lo, 6), rz_ok: true, neg: None, abs: None, not: None, reuse: None })
}
/// Uniform register with negate / not bits.
pub(super) fn urmod(lo: u8, neg: Option<u8>, not: Option<u8>) -> OpSpec {
    OpSpec::UReg(RegSpec {
        field: Field::new(lo, 6),
        rz_ok: true,
        neg: neg.map(|b| Field::new(b, 1)),
        abs: None,
        not: not.map(|b| Field::new(b, 1)),
        reuse: None,
    })
}
/// Predicate without a negation bit.
pub(super) fn p(lo: u8) -> OpSpec {
    OpSpec::Pred(PredSpec { field: Field::new(lo, 3), not: None, hide_pt: false })
}
/// Predicate with a negation bit.
pub(super) fn pn(lo: u8, not: u8) -> OpSpec {
    OpSpec::Pred(PredSpec { field: Field::new(lo, 3), not: Some(Field::new(not, 1)), hide_pt: false })
}
/// Predicate result that nvdisasm omits when it is PT.
pub(super) fn p_opt(lo: u8) -> OpSpec {
    OpSpec::Pred(PredSpec { field: Field::new(lo, 3), not: None, hide_pt: true })
}
pub(super) fn imm(lo: u8, width: u8, kind: ImmKind) -> OpSpec {
    OpSpec::Imm(ImmSpec { field: Field::new(lo, width), kind })
}
/// `c[bank][offset]` in an ALU source slot: the offset counts 4-byte words in 40..53, signed;
/// only the non-negative half (bit 53 clear, added as a fixed bit by [`F::op`]) is in the table.
pub(super) fn cbank() -> OpSpec {
    OpSpec::Ext(ExtSpec::CBankScaled { spec: CBankSpec { bank: Field::new(54, 5), offset: Field::new(40, 13), base: None }, shift: 2 })
}

/// Memory operand builder.
pub(super) fn mem(width: BaseWidth) -> MemSpec {
    MemSpec { base: Field::new(24, 8), width, ureg: None, desc: None, offset: Some(Field::new(40, 24)), scale: None, reuse: None }
}
