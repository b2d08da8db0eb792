//! The post-allocation checker: every rule seen failing on a hand-made bad allocation.

mod common;

use atomc_lower::vcode::{OperandRule, Reg, RegClass, RegForm, VCode};
use atomc_regalloc::{
    allocate_and_check, check_allocation, check_inst, AllocOptions, Allocated, Origin, RuleError,
    rules, Sm,
};
use common::*;

fn good(vc: &VCode<T>, t: Sm) -> Allocated<T> {
    allocate_and_check(vc, t, &AllocOptions::default()).expect("allocates and checks")
}

fn check(vc: &VCode<T>, a: &Allocated<T>, t: Sm) -> Result<(), RuleError> {
    check_allocation(rules(t), vc, &a.code)
}

/// The rule check of one instruction for `t`.
fn check_on(t: Sm, inst: &T) -> Result<(), RuleError> {
    check_inst(rules(t), inst)
}

fn find(a: &Allocated<T>, f: impl Fn(&T) -> bool) -> usize {
    a.code
        .insts
        .iter()
        .position(f)
        .expect("instruction present")
}

fn hw_of(r: Reg) -> u8 {
    r.hw().expect("allocated").number()
}

use OperandRule::{Def, Use};

fn raw(form: RegForm, fields: &[(Reg, u8, OperandRule)]) -> T {
    T::Raw {
        form,
        fields: fields.to_vec(),
    }
}

/// A forged `form` with a def then three uses, each `(register, width)`.
fn raw4(form: RegForm, [d, a, b, c]: [(Reg, u8); 4]) -> T {
    raw(form, &[(d.0, d.1, Def), (a.0, a.1, Use), (b.0, b.1, Use), (c.0, c.1, Use)])
}

const CAS32: RegForm = RegForm::AtomCas { wide: false };
const CAS64: RegForm = RegForm::AtomCas { wide: true };

/// `$result` is an error that matches `$pattern`; the error is returned.
macro_rules! assert_fails {
    ($result:expr, $($pattern:tt)+) => {{
        let e = $result.unwrap_err();
        assert!(matches!(&e, $($pattern)+), "{e}");
        e
    }};
}

#[test]
fn untouched_allocations_pass() {
    for vc in [cas64_loop(), cas32_loop(), straight_line(200, 20)] {
        for t in [Sm::Sm50, Sm::Sm90] {
            let a = good(&vc, t);
            assert_eq!(check(&vc, &a, t), Ok(()));
        }
    }
}

/// A good SM50 allocation of the 64-bit CAS loop, the index of its CAS and the CAS's Rb.
fn cas64_allocated() -> (VCode<T>, Allocated<T>, usize, Reg) {
    let vc = cas64_loop();
    let a = good(&vc, Sm::Sm50);
    let i = find(&a, |i| matches!(i, T::Cas { .. }));
    let T::Cas { rb, .. } = a.code.insts[i] else {
        unreachable!()
    };
    (vc, a, i, rb)
}

#[test]
fn cas64_group_base_must_be_4_aligned_on_sm50() {
    let (vc, mut a, i, rb) = cas64_allocated();
    let base = hw_of(rb) + 2;
    set_field(&mut a.code.insts[i], 2, hw(base));
    set_field(&mut a.code.insts[i], 3, hw(base + 2));
    let e = assert_fails!(
        check(&vc, &a, Sm::Sm50),
        RuleError::Misaligned { field, align: 4, .. } if field == "Rb"
    );
    eprintln!("{e}");
}

#[test]
fn cas_swap_must_follow_compare_on_sm50_only() {
    let (vc, mut a, i, rb) = cas64_allocated();
    set_field(&mut a.code.insts[i], 3, hw(hw_of(rb) + 4));
    let e = assert_fails!(
        check(&vc, &a, Sm::Sm50),
        RuleError::Tie { field, offset: 2, .. } if field == "Rc"
    );
    eprintln!("{e}");
    // The 32-bit form: Rc = Rb + 1.
    let cas = raw4(CAS32, [(hw(1), 1), (hw(2), 2), (hw(4), 1), (hw(6), 1)]);
    assert_fails!(check_on(Sm::Sm50, &cas), RuleError::Tie { expected: 5, found: 6, .. });
    // SM90: compare and swap are independent registers.
    assert_eq!(check_on(Sm::Sm90, &cas), Ok(()));
}

#[test]
fn cas32_compare_must_be_even_on_sm50() {
    let cas = raw4(CAS32, [(hw(0), 1), (hw(2), 2), (hw(5), 1), (hw(6), 1)]);
    assert_fails!(check_on(Sm::Sm50, &cas), RuleError::Misaligned { align: 2, reg: 5, .. });
    assert_eq!(check_on(Sm::Sm90, &cas), Ok(()));
}

/// No CAS compare or swap value in RZ, on either target (rules.rs, `CAS_VALUE_RZ`): a
/// hand-made allocation with RZ there is reported, 32- and 64-bit, each field.
#[test]
fn cas_compare_and_swap_never_rz() {
    for t in [Sm::Sm90, Sm::Sm50] {
        for (form, w) in [(CAS32, 1u8), (CAS64, 2)] {
            let rz_rb = raw4(form, [(hw(0), w), (hw(2), 2), (Reg::Zero, w), (hw(4 + w), w)]);
            assert_fails!(check_on(t, &rz_rb), RuleError::RzNotAllowed { field, .. } if field == "Rb");
            let rz_rc = raw4(form, [(Reg::Zero, w), (hw(2), 2), (hw(4), w), (Reg::Zero, w)]);
            let e = assert_fails!(check_on(t, &rz_rc), RuleError::RzNotAllowed { field, .. } if field == "Rc");
            eprintln!("{t}: {e}");
            let fine = raw4(form, [(Reg::Zero, w), (hw(2), 2), (hw(4), w), (hw(4 + w), w)]);
            assert_eq!(check_on(t, &fine), Ok(()), "{t}");
        }
    }
}

#[test]
fn form_widths_and_field_counts() {
    let wrong_width = raw4(CAS32, [(hw(0), 1), (hw(2), 2), (hw(4), 2), (hw(5), 1)]);
    assert_fails!(check_on(Sm::Sm90, &wrong_width), RuleError::Width { expected: 1, found: 2, .. });
    let short = raw(
        RegForm::Atom { wide: true },
        &[(hw(0), 2, Def), (hw(2), 2, Use)],
    );
    assert_fails!(check_on(Sm::Sm50, &short), RuleError::FieldCount { expected: 3, found: 2, .. });
}

#[test]
fn pairs_and_quads_must_be_aligned_in_plain_forms() {
    let odd_pair = T::copy(hw(3), hw(0), 2);
    assert_fails!(check_on(Sm::Sm50, &odd_pair), RuleError::Misaligned { align: 2, reg: 3, .. });
    let quad = T::konst(hw(6), 4);
    assert_fails!(check_on(Sm::Sm90, &quad), RuleError::Misaligned { align: 4, reg: 6, .. });
    // And in a real allocation.
    let vc = cas64_loop();
    let mut a = good(&vc, Sm::Sm90);
    let i = find(&a, |i| matches!(i, T::Copy { .. }));
    let T::Copy { dst, .. } = a.code.insts[i] else {
        unreachable!()
    };
    set_field(&mut a.code.insts[i], 1, hw(hw_of(dst) + 1));
    assert_fails!(check(&vc, &a, Sm::Sm90), RuleError::Misaligned { .. });
}

#[test]
fn reserved_and_out_of_range_registers() {
    let r253 = T::konst(hw(253), 1);
    assert_fails!(check_on(Sm::Sm90, &r253), RuleError::Reserved { reg: 253, .. });
    assert_eq!(check_on(Sm::Sm50, &r253), Ok(()));
    let pair_into_rz = T::konst(hw(254), 2);
    assert_fails!(check_on(Sm::Sm50, &pair_into_rz), RuleError::OutOfRange { reg: 255, .. });
}

#[test]
fn surface_coordinates_aligned_to_their_count_and_never_rz() {
    // Fields: Rd, Ra (coordinates), Rb, Rc (handle).
    let suatom = |coords, [ra, rb, rc]: [Reg; 3]| {
        let form = RegForm::SurfaceAtom {
            coords,
            wide: false,
            cas: false,
            has_dst: true,
            bindless: true,
        };
        raw4(form, [(hw(0), 1), (ra, coords), (rb, 1), (rc, 1)])
    };
    for t in [Sm::Sm50, Sm::Sm90] {
        let ok = suatom(3, [hw(4), hw(1), hw(2)]);
        assert_eq!(check_on(t, &ok), Ok(()));
        let odd = suatom(2, [hw(3), hw(1), hw(2)]);
        assert_fails!(
            check_on(t, &odd),
            RuleError::Misaligned { field, align: 2, .. } if field == "Ra"
        );
        let three = suatom(3, [hw(2), hw(1), hw(7)]);
        assert_fails!(check_on(t, &three), RuleError::Misaligned { align: 4, .. });
        let rz_coord = suatom(1, [Reg::Zero, hw(1), hw(2)]);
        assert_fails!(
            check_on(t, &rz_coord),
            RuleError::RzNotAllowed { field, .. } if field == "Ra"
        );
        let rz_handle = suatom(1, [hw(1), hw(2), Reg::Zero]);
        assert_fails!(
            check_on(t, &rz_handle),
            RuleError::RzNotAllowed { field, .. } if field == "Rc"
        );
    }
}

#[test]
fn leftover_virtual_register() {
    let vc = cas32_loop();
    let mut a = good(&vc, Sm::Sm50);
    let v = vc.inst_fields(0)[0].reg;
    set_field(&mut a.code.insts[0], 0, v);
    assert_fails!(check(&vc, &a, Sm::Sm50), RuleError::Unallocated { .. });
}

/// Several values live together; the second's def is moved onto the first's register.
fn many_live() -> VCode<T> {
    all_live([RegClass::Single; 4])
}

#[test]
fn two_live_values_in_one_register() {
    let vc = many_live();
    let mut a = good(&vc, Sm::Sm90);
    let T::Const { dst: first, .. } = a.code.insts[1] else {
        unreachable!()
    };
    set_field(&mut a.code.insts[2], 0, first);
    let e = assert_fails!(check(&vc, &a, Sm::Sm90), RuleError::WrongValue { .. });
    eprintln!("{e}");
}

#[test]
fn expected_copy_clobbers_the_swap_value() {
    let vc = cas64_loop();
    let mut a = good(&vc, Sm::Sm50);
    // Put the copy of the expected value into the quad's upper pair, which the CAS still reads.
    let i = find(&a, |i| matches!(i, T::Copy { .. }));
    let j = find(&a, |i| matches!(i, T::Cas { .. }));
    let T::Cas { rc, .. } = a.code.insts[j] else {
        unreachable!()
    };
    set_field(&mut a.code.insts[i], 1, rc);
    let e = assert_fails!(
        check(&vc, &a, Sm::Sm50),
        RuleError::WrongValue { at, .. } if at.inst == j as u32
    );
    eprintln!("{e}");
}

#[test]
fn block_parameter_arrives_in_the_wrong_register() {
    let vc = cas64_loop();
    let mut a = good(&vc, Sm::Sm50);
    // The entry defines the initial quad somewhere else than where the loop expects it.
    let i = find(&a, |i| matches!(i, T::Const { width: 4, .. }));
    let T::Const { dst, .. } = a.code.insts[i] else {
        unreachable!()
    };
    set_field(&mut a.code.insts[i], 0, hw(hw_of(dst) + 4));
    let e = assert_fails!(
        check(&vc, &a, Sm::Sm50),
        RuleError::WrongValue { at, .. } if at.block == 1
    );
    eprintln!("{e}");
}

#[test]
fn spill_and_reload_must_agree() {
    let vc = straight_line(300, 36);
    // The register file's slot registers would take every spill: cap it.
    let o = capped(AllocOptions::default(), 24, 24);
    let mut a = allocate_and_check(&vc, Sm::Sm50, &o).expect("allocates");
    let i = find(&a, |i| matches!(i, T::Reload { .. }));
    if let T::Reload { slot, .. } = &mut a.code.insts[i] {
        slot.0 += 4 * 64;
    }
    assert_fails!(
        check(&vc, &a, Sm::Sm50),
        RuleError::WrongValue { found, .. } if found == "nothing known"
    );
}

#[test]
fn spill_slots_aligned_to_their_access() {
    // Pairs spilled (only 4 pair registers offered for ~10 live pairs).
    let vc = straight_line(300, 40);
    let o = capped(AllocOptions::default(), 4, 16);
    let mut a = allocate_and_check(&vc, Sm::Sm50, &o).expect("allocates");
    let i = find(&a, |i| matches!(i, T::Spill { width: 2, .. }));
    if let T::Spill { slot, .. } = &mut a.code.insts[i] {
        assert_eq!(slot.0 % 8, 0, "regalloc2 aligns multi-slot spill slots");
        slot.0 += 4;
    }
    assert_fails!(check(&vc, &a, Sm::Sm50), RuleError::SlotMisaligned { bytes: 8, .. });
}

#[test]
fn inserted_instruction_must_be_move_spill_or_reload() {
    let vc = many_live();
    let mut a = good(&vc, Sm::Sm90);
    a.code.insts.insert(1, T::konst(hw(0), 1));
    a.code.origins.insert(1, Origin::Edit(0));
    for r in a.code.blocks.iter_mut() {
        r.end += 1;
    }
    assert_fails!(check(&vc, &a, Sm::Sm90), RuleError::UnknownEdit { .. });
}

#[test]
fn allocated_source_must_not_become_rz() {
    let vc = many_live();
    let mut a = good(&vc, Sm::Sm90);
    let i = find(&a, |i| matches!(i, T::Store { .. }));
    set_field(&mut a.code.insts[i], 1, Reg::Zero);
    assert_fails!(check(&vc, &a, Sm::Sm90), RuleError::Mismatch { .. });
}

#[test]
fn final_instruction_must_match_its_origin() {
    let vc = many_live();
    let mut a = good(&vc, Sm::Sm90);
    a.code.origins[0] = Origin::Inst(5);
    assert_fails!(check(&vc, &a, Sm::Sm90), RuleError::Mismatch { .. });
}

#[test]
fn errors_name_the_instruction_and_rule() {
    let cas = raw4(CAS64, [(hw(0), 2), (hw(2), 2), (hw(6), 2), (hw(8), 2)]);
    let msg = check_on(Sm::Sm50, &cas).unwrap_err().to_string();
    assert!(
        msg.contains("ATOM.CAS.64")
            && msg.contains("Rb")
            && msg.contains("R6")
            && msg.contains("Raw"),
        "{msg}"
    );
}

#[test]
fn frame_register_is_reserved_when_spilling_to_memory() {
    // Capped at 16 registers, 40 live values must spill to local memory: R1 is the frame
    // register, which no instruction may name as a result.
    let vc = straight_line(300, 40);
    let o = AllocOptions {
        max_registers: 16,
        ..AllocOptions::default()
    };
    let mut a = allocate_and_check(&vc, Sm::Sm50, &o).expect("allocates");
    assert_eq!(a.code.frame_reg.map(|r| r.number()), Some(1));
    assert!(a.alloc.spill_slots > 0 && a.alloc.num_regs <= 16);
    let i = find(&a, |i| matches!(i, T::Const { width: 1, .. }));
    if let T::Const { dst, .. } = &mut a.code.insts[i] {
        *dst = hw(1).into();
    }
    assert_fails!(check(&vc, &a, Sm::Sm50), RuleError::FrameClobbered { reg: 1, .. });
    // Without a frame a spill to memory has no base.
    let mut b = allocate_and_check(&vc, Sm::Sm50, &o).expect("allocates");
    b.code.frame_reg = None;
    assert_fails!(check(&vc, &b, Sm::Sm50), RuleError::NoFrame { .. });
}
