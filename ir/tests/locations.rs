//! Locations of functions built in code: the builder's caller-attached positions, the
//! instruction a diagnostic names when there is no position, and the verifier's name rule.

use atomc_ir::{verify::verify, BinaryOp, FunctionBuilder, SrcLoc, Type};

/// `return` of an `i32 + i64`: a `result-type`-class error at the `iadd`.
fn bad_add(loc: SrcLoc) -> (atomc_ir::Function, atomc_ir::Inst) {
    let mut b = FunctionBuilder::with_returns("f", &[Type::I32], &[Type::I32]);
    let x = b.iconst(Type::I64, 1);
    b.set_loc(loc);
    let sum = b.binary(BinaryOp::Iadd, b.param(0), x);
    let inst = b.last_inst().expect("appended");
    b.set_loc(SrcLoc::default());
    b.ret(&[sum]);
    (b.finish(), inst)
}

#[test]
fn builder_attaches_the_callers_location() {
    let loc = SrcLoc { line: 40, col: 9 };
    let (f, inst) = bad_add(loc);
    assert_eq!(f.inst_locs[inst], loc);
    let others: Vec<_> = f.inst_order().filter(|&(_, i)| i != inst).map(|(_, i)| f.inst_locs[i]).collect();
    assert!(others.iter().all(|l| !l.is_known()), "{others:?}");
    let d = &verify(&f).unwrap_err()[0];
    assert_eq!(d.loc, loc);
    assert_eq!(d.inst, None, "a known position finds the instruction");
    assert_eq!(d.headline("gen.rs"), format!("gen.rs:40:9: error[{}]: {}", d.rule, d.message));
}

#[test]
fn without_a_location_a_diagnostic_names_the_instruction() {
    let (f, inst) = bad_add(SrcLoc::default());
    let d = &verify(&f).unwrap_err()[0];
    assert_eq!(d.inst, Some(inst));
    assert_eq!(d.headline("%f"), format!("%f: {inst}: error[{}]: {}", d.rule, d.message));
    assert_eq!(d.to_string(), format!("{inst}: error[{}]: {}", d.rule, d.message));
    // Rendering against text without a position prints the headline alone.
    let text = f.to_string();
    assert_eq!(atomc_ir::diagnostic::render("%f", &text, std::slice::from_ref(d)), d.headline("%f") + "\n");
}

#[test]
fn a_line_without_a_column_prints_the_line() {
    // CLIF's SourceLoc arrives as a line with column 0.
    let d = atomc_ir::diagnostic::Diagnostic::new(SrcLoc { line: 3, col: 0 }, "r", "m");
    assert_eq!(d.headline("k.clif"), "k.clif:3: error[r]: m");
}

fn named(name: &str) -> atomc_ir::Function {
    let mut b = FunctionBuilder::new(name, &[]);
    b.ret(&[]);
    b.finish()
}

#[test]
fn names_are_what_the_parser_reads() {
    for bad in ["", "two words", "a(b)", "é", "%f"] {
        let diags = verify(&named(bad)).expect_err(bad);
        assert_eq!(diags.iter().map(|d| d.rule).collect::<Vec<_>>(), ["function-name"], "{bad:?}");
    }
    for good in ["k", "a-b.c$d", "_0", "9lives"] {
        verify(&named(good)).unwrap_or_else(|d| panic!("{good:?}: {d:?}"));
        let text = named(good).to_string();
        let parsed = atomc_ir::parse::parse(&text).unwrap_or_else(|d| panic!("{text}: {d:?}"));
        assert_eq!(parsed[0].name, good);
    }
}
