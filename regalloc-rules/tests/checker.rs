//! The post-allocation checker: every rule seen failing on a hand-made bad allocation.

mod common;

use atomc_lower::vcode::{OperandRule, Reg, RegClass, RegForm, VCode, VCodeBuilder, VReg};
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

#[test]
fn untouched_allocations_pass() {
    for vc in [cas64_loop(), cas32_loop(), straight_line(200, 20)] {
        for t in [Sm::Sm50, Sm::Sm90] {
            let a = good(&vc, t);
            assert_eq!(check(&vc, &a, t), Ok(()));
        }
    }
}

#[test]
fn cas64_group_base_must_be_4_aligned_on_sm50() {
    let vc = cas64_loop();
    let mut a = good(&vc, Sm::Sm50);
    let i = find(&a, |i| matches!(i, T::Cas { .. }));
    let T::Cas { rb, .. } = a.code.insts[i] else {
        unreachable!()
    };
    let base = hw_of(rb) + 2;
    set_field(&mut a.code.insts[i], 2, hw(base));
    set_field(&mut a.code.insts[i], 3, hw(base + 2));
    let e = check(&vc, &a, Sm::Sm50).unwrap_err();
    assert!(
        matches!(&e, RuleError::Misaligned { field, align: 4, .. } if field == "Rb"),
        "{e}"
    );
    eprintln!("{e}");
}

#[test]
fn cas_swap_must_follow_compare_on_sm50_only() {
    let vc = cas64_loop();
    let mut a = good(&vc, Sm::Sm50);
    let i = find(&a, |i| matches!(i, T::Cas { .. }));
    let T::Cas { rb, .. } = a.code.insts[i] else {
        unreachable!()
    };
    set_field(&mut a.code.insts[i], 3, hw(hw_of(rb) + 4));
    let e = check(&vc, &a, Sm::Sm50).unwrap_err();
    assert!(
        matches!(&e, RuleError::Tie { field, offset: 2, .. } if field == "Rc"),
        "{e}"
    );
    eprintln!("{e}");
    // The 32-bit form: Rc = Rb + 1.
    let cas = raw(
        RegForm::AtomCas { wide: false },
        &[
            (hw(1), 1, Def),
            (hw(2), 2, Use),
            (hw(4), 1, Use),
            (hw(6), 1, Use),
        ],
    );
    let e = check_inst(rules(Sm::Sm50), &cas).unwrap_err();
    assert!(
        matches!(
            &e,
            RuleError::Tie {
                expected: 5,
                found: 6,
                ..
            }
        ),
        "{e}"
    );
    // SM90: compare and swap are independent registers.
    assert_eq!(check_inst(rules(Sm::Sm90), &cas), Ok(()));
}

#[test]
fn cas32_compare_must_be_even_on_sm50() {
    let cas = raw(
        RegForm::AtomCas { wide: false },
        &[
            (hw(0), 1, Def),
            (hw(2), 2, Use),
            (hw(5), 1, Use),
            (hw(6), 1, Use),
        ],
    );
    let e = check_inst(rules(Sm::Sm50), &cas).unwrap_err();
    assert!(
        matches!(
            &e,
            RuleError::Misaligned {
                align: 2,
                reg: 5,
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(check_inst(rules(Sm::Sm90), &cas), Ok(()));
}

#[test]
fn cas_compare_never_rz_on_sm50_swap_may_be() {
    let rz_rb = raw(
        RegForm::AtomCas { wide: true },
        &[
            (hw(0), 2, Def),
            (hw(2), 2, Use),
            (Reg::Zero, 2, Use),
            (hw(6), 2, Use),
        ],
    );
    // SM90: compare and swap are independent fields that decode with RZ.
    assert_eq!(check_inst(rules(Sm::Sm90), &rz_rb), Ok(()));
    for t in [Sm::Sm50] {
        let rz_rb = raw(
            RegForm::AtomCas { wide: true },
            &[
                (hw(0), 2, Def),
                (hw(2), 2, Use),
                (Reg::Zero, 2, Use),
                (hw(6), 2, Use),
            ],
        );
        let e = check_inst(rules(t), &rz_rb).unwrap_err();
        assert!(
            matches!(&e, RuleError::RzNotAllowed { field, .. } if field == "Rb"),
            "{t}: {e}"
        );
        let rz_rc = raw(
            RegForm::AtomCas { wide: true },
            &[
                (Reg::Zero, 2, Def),
                (hw(2), 2, Use),
                (hw(4), 2, Use),
                (Reg::Zero, 2, Use),
            ],
        );
        assert_eq!(check_inst(rules(t), &rz_rc), Ok(()), "{t}");
    }
}

#[test]
fn form_widths_and_field_counts() {
    let wrong_width = raw(
        RegForm::AtomCas { wide: false },
        &[
            (hw(0), 1, Def),
            (hw(2), 2, Use),
            (hw(4), 2, Use),
            (hw(5), 1, Use),
        ],
    );
    let e = check_inst(rules(Sm::Sm90), &wrong_width).unwrap_err();
    assert!(
        matches!(
            &e,
            RuleError::Width {
                expected: 1,
                found: 2,
                ..
            }
        ),
        "{e}"
    );
    let short = raw(
        RegForm::Atom { wide: true },
        &[(hw(0), 2, Def), (hw(2), 2, Use)],
    );
    let e = check_inst(rules(Sm::Sm50), &short).unwrap_err();
    assert!(
        matches!(
            &e,
            RuleError::FieldCount {
                expected: 3,
                found: 2,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn pairs_and_quads_must_be_aligned_in_plain_forms() {
    let odd_pair = T::Copy {
        dst: hw(3),
        src: hw(0),
        width: 2,
    };
    let e = check_inst(rules(Sm::Sm50), &odd_pair).unwrap_err();
    assert!(
        matches!(
            &e,
            RuleError::Misaligned {
                align: 2,
                reg: 3,
                ..
            }
        ),
        "{e}"
    );
    let quad = T::Const {
        dst: hw(6),
        width: 4,
    };
    let e = check_inst(rules(Sm::Sm90), &quad).unwrap_err();
    assert!(
        matches!(
            &e,
            RuleError::Misaligned {
                align: 4,
                reg: 6,
                ..
            }
        ),
        "{e}"
    );
    // And in a real allocation.
    let vc = cas64_loop();
    let mut a = good(&vc, Sm::Sm90);
    let i = find(&a, |i| matches!(i, T::Copy { .. }));
    let T::Copy { dst, .. } = a.code.insts[i] else {
        unreachable!()
    };
    set_field(&mut a.code.insts[i], 1, hw(hw_of(dst) + 1));
    assert!(matches!(
        check(&vc, &a, Sm::Sm90),
        Err(RuleError::Misaligned { .. })
    ));
}

#[test]
fn reserved_and_out_of_range_registers() {
    let r253 = T::Const {
        dst: hw(253),
        width: 1,
    };
    let e = check_inst(rules(Sm::Sm90), &r253).unwrap_err();
    assert!(matches!(&e, RuleError::Reserved { reg: 253, .. }), "{e}");
    assert_eq!(check_inst(rules(Sm::Sm50), &r253), Ok(()));
    let pair_into_rz = T::Const {
        dst: hw(254),
        width: 2,
    };
    let e = check_inst(rules(Sm::Sm50), &pair_into_rz).unwrap_err();
    assert!(matches!(&e, RuleError::OutOfRange { reg: 255, .. }), "{e}");
}

#[test]
fn surface_coordinates_aligned_to_their_count_and_never_rz() {
    let form = |coords| RegForm::SurfaceAtom {
        coords,
        wide: false,
        cas: false,
        has_dst: true,
        bindless: true,
    };
    for t in [Sm::Sm50, Sm::Sm90] {
        let ok = raw(
            form(3),
            &[
                (hw(0), 1, Def),
                (hw(4), 3, Use),
                (hw(1), 1, Use),
                (hw(2), 1, Use),
            ],
        );
        assert_eq!(check_inst(rules(t), &ok), Ok(()));
        let odd = raw(
            form(2),
            &[
                (hw(0), 1, Def),
                (hw(3), 2, Use),
                (hw(1), 1, Use),
                (hw(2), 1, Use),
            ],
        );
        let e = check_inst(rules(t), &odd).unwrap_err();
        assert!(
            matches!(&e, RuleError::Misaligned { field, align: 2, .. } if field == "Ra"),
            "{e}"
        );
        let three = raw(
            form(3),
            &[
                (hw(0), 1, Def),
                (hw(2), 3, Use),
                (hw(1), 1, Use),
                (hw(7), 1, Use),
            ],
        );
        let e = check_inst(rules(t), &three).unwrap_err();
        assert!(matches!(&e, RuleError::Misaligned { align: 4, .. }), "{e}");
        let rz_coord = raw(
            form(1),
            &[
                (hw(0), 1, Def),
                (Reg::Zero, 1, Use),
                (hw(1), 1, Use),
                (hw(2), 1, Use),
            ],
        );
        let e = check_inst(rules(t), &rz_coord).unwrap_err();
        assert!(
            matches!(&e, RuleError::RzNotAllowed { field, .. } if field == "Ra"),
            "{e}"
        );
        let rz_handle = raw(
            form(1),
            &[
                (hw(0), 1, Def),
                (hw(1), 1, Use),
                (hw(2), 1, Use),
                (Reg::Zero, 1, Use),
            ],
        );
        let e = check_inst(rules(t), &rz_handle).unwrap_err();
        assert!(
            matches!(&e, RuleError::RzNotAllowed { field, .. } if field == "Rc"),
            "{e}"
        );
    }
}

#[test]
fn leftover_virtual_register() {
    let vc = cas32_loop();
    let mut a = good(&vc, Sm::Sm50);
    let v = vc.inst_fields(0)[0].reg;
    set_field(&mut a.code.insts[0], 0, v);
    assert!(matches!(
        check(&vc, &a, Sm::Sm50),
        Err(RuleError::Unallocated { .. })
    ));
}

/// Several values live together; the second's def is moved onto the first's register.
fn many_live() -> VCode<T> {
    let mut b = VCodeBuilder::<T>::new();
    let e = b.new_block();
    let addr = b.new_vreg(RegClass::Pair);
    b.push(
        e,
        T::Args {
            dsts: vec![(addr.reg(), 2)],
        },
    );
    let vs: Vec<VReg> = (0..4)
        .map(|_| {
            let v = b.new_vreg(RegClass::Single);
            b.push(
                e,
                T::Const {
                    dst: v.reg(),
                    width: 1,
                },
            );
            v
        })
        .collect();
    for v in vs {
        b.push(
            e,
            T::Store {
                addr: addr.reg(),
                val: v.reg(),
                width: 1,
            },
        );
    }
    b.push(e, T::Exit);
    b.finish().expect("valid")
}

#[test]
fn two_live_values_in_one_register() {
    let vc = many_live();
    let mut a = good(&vc, Sm::Sm90);
    let T::Const { dst: first, .. } = a.code.insts[1] else {
        unreachable!()
    };
    set_field(&mut a.code.insts[2], 0, first);
    let e = check(&vc, &a, Sm::Sm90).unwrap_err();
    assert!(matches!(&e, RuleError::WrongValue { .. }), "{e}");
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
    let e = check(&vc, &a, Sm::Sm50).unwrap_err();
    assert!(
        matches!(&e, RuleError::WrongValue { at, .. } if at.inst == j as u32),
        "{e}"
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
    let e = check(&vc, &a, Sm::Sm50).unwrap_err();
    assert!(
        matches!(&e, RuleError::WrongValue { at, .. } if at.block == 1),
        "{e}"
    );
    eprintln!("{e}");
}

#[test]
fn spill_and_reload_must_agree() {
    let vc = straight_line(300, 36);
    let o = AllocOptions {
        max_per_class: 24,
        // The register file's slot registers would take every spill: cap it.
        max_registers: 24,
        ..AllocOptions::default()
    };
    let mut a = allocate_and_check(&vc, Sm::Sm50, &o).expect("allocates");
    let i = find(&a, |i| matches!(i, T::Reload { .. }));
    if let T::Reload { slot, .. } = &mut a.code.insts[i] {
        slot.0 += 4 * 64;
    }
    let e = check(&vc, &a, Sm::Sm50).unwrap_err();
    assert!(
        matches!(&e, RuleError::WrongValue { found, .. } if found == "nothing known"),
        "{e}"
    );
}

#[test]
fn spill_slots_aligned_to_their_access() {
    // Pairs spilled (only 4 pair registers offered for ~10 live pairs).
    let vc = straight_line(300, 40);
    let o = AllocOptions {
        max_per_class: 4,
        max_registers: 16,
        ..AllocOptions::default()
    };
    let mut a = allocate_and_check(&vc, Sm::Sm50, &o).expect("allocates");
    let i = find(&a, |i| matches!(i, T::Spill { width: 2, .. }));
    if let T::Spill { slot, .. } = &mut a.code.insts[i] {
        assert_eq!(slot.0 % 8, 0, "regalloc2 aligns multi-slot spill slots");
        slot.0 += 4;
    }
    let e = check(&vc, &a, Sm::Sm50).unwrap_err();
    assert!(
        matches!(&e, RuleError::SlotMisaligned { bytes: 8, .. }),
        "{e}"
    );
}

#[test]
fn inserted_instruction_must_be_move_spill_or_reload() {
    let vc = many_live();
    let mut a = good(&vc, Sm::Sm90);
    a.code.insts.insert(
        1,
        T::Const {
            dst: hw(0),
            width: 1,
        },
    );
    a.code.origins.insert(1, Origin::Edit(0));
    for r in a.code.blocks.iter_mut() {
        r.end += 1;
    }
    assert!(matches!(
        check(&vc, &a, Sm::Sm90),
        Err(RuleError::UnknownEdit { .. })
    ));
}

#[test]
fn allocated_source_must_not_become_rz() {
    let vc = many_live();
    let mut a = good(&vc, Sm::Sm90);
    let i = find(&a, |i| matches!(i, T::Store { .. }));
    set_field(&mut a.code.insts[i], 1, Reg::Zero);
    assert!(matches!(
        check(&vc, &a, Sm::Sm90),
        Err(RuleError::Mismatch { .. })
    ));
}

#[test]
fn final_instruction_must_match_its_origin() {
    let vc = many_live();
    let mut a = good(&vc, Sm::Sm90);
    a.code.origins[0] = Origin::Inst(5);
    assert!(matches!(
        check(&vc, &a, Sm::Sm90),
        Err(RuleError::Mismatch { .. })
    ));
}

#[test]
fn errors_name_the_instruction_and_rule() {
    let cas = raw(
        RegForm::AtomCas { wide: true },
        &[
            (hw(0), 2, Def),
            (hw(2), 2, Use),
            (hw(6), 2, Use),
            (hw(8), 2, Use),
        ],
    );
    let msg = check_inst(rules(Sm::Sm50), &cas)
        .unwrap_err()
        .to_string();
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
    let e = check(&vc, &a, Sm::Sm50).unwrap_err();
    assert!(matches!(&e, RuleError::FrameClobbered { reg: 1, .. }), "{e}");
    // Without a frame a spill to memory has no base.
    let mut b = allocate_and_check(&vc, Sm::Sm50, &o).expect("allocates");
    b.code.frame_reg = None;
    let e = check(&vc, &b, Sm::Sm50).unwrap_err();
    assert!(matches!(&e, RuleError::NoFrame { .. }), "{e}");
}
