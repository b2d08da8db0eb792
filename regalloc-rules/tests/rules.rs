//! The rule tables themselves.

use atomc_lower::vcode::RegForm;
use atomc_regalloc::rules::{Width, SM50, SM90};
use atomc_regalloc::{rules, Sm};

#[test]
fn budgets_and_reserved_registers() {
    assert_eq!(SM50.usable, 255);
    assert!(SM50.reserved.is_empty());
    assert_eq!(SM90.usable, 253);
    assert_eq!(SM90.reserved, &[253, 254]);
    assert!(rules(Sm::Sm90).is_reserved(254));
    assert!(!rules(Sm::Sm90).is_reserved(252));
}

#[test]
fn cas_rows() {
    let r = SM50.form(RegForm::AtomCas { wide: true }).expect("row");
    assert_eq!(
        r.fields.iter().map(|f| f.name).collect::<Vec<_>>(),
        ["Rd", "Ra", "Rb", "Rc"]
    );
    assert_eq!(r.fields[2].align, Some(4));
    assert!(!r.fields[2].rz && r.fields[3].rz);
    assert_eq!(r.tie.map(|t| t.offset), Some(2));
    let r = SM50.form(RegForm::AtomCas { wide: false }).expect("row");
    assert_eq!(r.fields[2].align, Some(2));
    assert_eq!(r.tie.map(|t| t.offset), Some(1));
    for wide in [false, true] {
        let r = SM90.form(RegForm::AtomCas { wide }).expect("row");
        assert_eq!(r.tie, None);
        assert_eq!(r.fields[2].width, Width::Exactly(if wide { 2 } else { 1 }));
        assert_eq!(
            r.fields[2].alignment(if wide { 2 } else { 1 }),
            if wide { 2 } else { 1 }
        );
    }
}

#[test]
fn surface_rows() {
    for (coords, align) in [(1u8, 1u8), (2, 2), (3, 4)] {
        let form = RegForm::SurfaceAtom {
            coords,
            wide: true,
            cas: true,
            has_dst: false,
            bindless: false,
        };
        let r = SM50.form(form).expect("row");
        assert_eq!(r.name, "SURED");
        assert_eq!(r.fields.len(), 2);
        assert_eq!(r.fields[0].name, "Ra");
        assert_eq!(r.fields[0].alignment(coords), align);
        assert!(!r.fields[0].rz);
        // CAS data: compare + swap, two 64-bit values packed in a quad.
        assert_eq!(r.fields[1].width, Width::Exactly(4));
        assert_eq!(r.fields[1].alignment(4), 4);
    }
    assert!(SM90.form(RegForm::Plain).is_none());
}
