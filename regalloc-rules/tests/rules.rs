//! The rule tables themselves.

use atomc_lower::vcode::RegForm;
use atomc_regalloc::rules::{Width, CAS_VALUE_RZ, SM50, SM90};
use atomc_sass::{ExtSpec, OpSpec};
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
    assert!(!r.fields[2].rz && !r.fields[3].rz);
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

/// The CAS rows' "no RZ compare or swap" is the form table's: every CAS form's compare and swap
/// register slots refuse RZ (`RegSpec::rz_ok`), so selection materializes a zero and the
/// checker reports what slips through. SM50's `Rb, RZ` / `RZ, Rb` layouts stay in its table to
/// read words; those are the layouts the tie (Rc = Rb + w) refuses.
#[test]
fn cas_rows_agree_with_the_form_table() {
    for (arch, row) in [(atomc_sass::sm90(), &SM90), (atomc_sass::sm50(), &SM50)] {
        for wide in [false, true] {
            let r = row.form(RegForm::AtomCas { wide }).expect("row");
            assert_eq!((r.fields[2].rz, r.fields[3].rz), (CAS_VALUE_RZ, CAS_VALUE_RZ));
        }
        let mut slots = 0;
        for f in arch.forms.iter().filter(|f| f.key.contains("CAS") && f.mnemonic.starts_with(['A', 'S'])) {
            let at = f.ops.iter().position(|o| {
                matches!(o, OpSpec::Mem(_) | OpSpec::Ext(ExtSpec::MemScaled { .. } | ExtSpec::Abs { .. }))
            });
            let values = &f.ops[at.expect(f.key) + 1..];
            let values = if f.mnemonic == "SUATOM" { &values[..1] } else { values };
            if values.iter().any(|o| matches!(o, OpSpec::Ext(ExtSpec::Implied { from: None, .. }))) {
                // An RZ layout: refused by the row's tie, whatever its other slot says.
                assert!(arch.sm == Sm::Sm50 && (f.key.contains(".rz") || f.key.contains(".zr")), "{}", f.key);
                assert!(row.form(RegForm::AtomCas { wide: false }).expect("row").tie.is_some());
                continue;
            }
            for o in values {
                match o {
                    OpSpec::Reg(spec) => {
                        assert_eq!(spec.rz_ok, CAS_VALUE_RZ, "{}: {}", arch.name, f.key);
                        slots += 1;
                    }
                    OpSpec::Ext(ExtSpec::Implied { from: Some(_), .. }) => {}
                    _ => panic!("{}: {}: {o:?}", arch.name, f.key),
                }
            }
        }
        assert!(slots >= 6, "{}: {slots} CAS value slots", arch.name);
    }
}
