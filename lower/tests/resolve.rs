//! Selected SASS instructions resolve to a form of the target's table when they are selected,
//! and emission fills in the allocated registers without printing and parsing them again.

use atomc_lower::sass::{MOp, SassInst};
use atomc_lower::vcode::{HwReg, RegClass, VCodeBuilder};
use atomc_sass::op;
use atomc_sass::{sm50, sm90, Arch};

/// `inst` with its virtual registers replaced by `R4`, `R6`, `R8`, … in order of appearance.
fn allocate(mut inst: SassInst) -> SassInst {
    let mut next = 4u8;
    for op in inst.ops.iter_mut() {
        if let MOp::Reg { reg, .. } | MOp::Mem { base: reg, .. } = op {
            if reg.hw().is_none() && reg.encoding().is_none() {
                *reg = HwReg::new(next).unwrap().into();
                next += 2;
            }
        }
    }
    inst
}

/// The encoded word of `inst`'s allocated text as the assembler reads it.
fn assembled(arch: &Arch, inst: &SassInst) -> u128 {
    let text = inst.text(&|_| "0x0".into());
    let ins = arch.assemble_line(&text, 0).unwrap().unwrap();
    arch.encode_word(&ins).unwrap()
}

#[test]
fn a_selected_instruction_encodes_from_its_resolved_form() {
    let mut b = VCodeBuilder::<SassInst>::new();
    let (d, a, c) = (b.new_vreg(RegClass::Single), b.new_vreg(RegClass::Single), b.new_vreg(RegClass::Single));
    // sm_90 `IADD3 Rd, Ra, -Rc, RZ`: two carry-out predicates nvdisasm hides as PT.
    let mut add = SassInst::new(op!(IADD3), [MOp::def(d, 1), MOp::use_(a), MOp::neg(c), MOp::rz()]);
    add.resolve(sm90()).expect("IADD3 resolves on sm_90");
    let add = allocate(add);
    let typed = add.typed(sm90(), 0, &|_| 0).expect("resolved and allocated");
    assert_eq!(sm90().encode_word(&typed).unwrap(), assembled(sm90(), &add));
    // sm_50 `IADD.CC`: the assembler's input alias (`.CC` on the result) resolves too.
    let mut add = SassInst::new(op!(IADD.CC), [MOp::def(d, 1), MOp::use_(a), MOp::use_(c)]);
    add.resolve(sm50()).expect("IADD.CC resolves on sm_50");
    let add = allocate(add);
    let typed = add.typed(sm50(), 0, &|_| 0).expect("resolved and allocated");
    assert_eq!(sm50().encode_word(&typed).unwrap(), assembled(sm50(), &add));
}

#[test]
fn an_instruction_no_form_encodes_is_refused_when_selected() {
    let mut b = VCodeBuilder::<SassInst>::new();
    let (d, a) = (b.new_vreg(RegClass::Single), b.new_vreg(RegClass::Single));
    let mut half = SassInst::new(op!(HADD2), [MOp::def(d, 1), MOp::use_(a), MOp::use_(a)]);
    let err = half.resolve(sm50()).expect_err("sm_50 has no HADD2");
    assert!(err.contains("HADD2") && err.contains("unknown mnemonic"), "{err}");
    // A 32-bit immediate where the sm_50 form has a 20-bit field.
    let mut wide = SassInst::new(op!(IADD), [MOp::def(d, 1), MOp::use_(a), MOp::Imm(0x1234_5678)]);
    assert!(wide.resolve(sm50()).is_err());
}

#[test]
fn an_edit_after_selection_makes_the_resolution_stale() {
    let mut b = VCodeBuilder::<SassInst>::new();
    let (d, a) = (b.new_vreg(RegClass::Single), b.new_vreg(RegClass::Single));
    let mut mov = SassInst::new(op!(IADD3), [MOp::def(d, 1), MOp::use_(a), MOp::Imm(4), MOp::rz()]);
    mov.resolve(sm90()).unwrap();
    let mut edited = allocate(mov.clone());
    edited.ops[2] = MOp::Imm(8);
    assert!(edited.typed(sm90(), 0, &|_| 0).is_none(), "a changed immediate makes the resolution stale");
    edited.ops[2] = MOp::Imm(4);
    edited.opcode = op!(IADD3.X);
    assert!(edited.typed(sm90(), 0, &|_| 0).is_none(), "a changed opcode makes the resolution stale");
    assert!(allocate(mov).typed(sm90(), 0, &|_| 0).is_some());
}
