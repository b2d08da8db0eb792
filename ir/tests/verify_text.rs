//! Verifier tests written in the text format: diagnostics point at the
//! offending instruction's line and column.

use atomc_ir::parse::parse;
use atomc_ir::verify::verify;
use atomc_ir::SrcLoc;

/// Parses `src` (one function) and returns `(line, col, rule)` per diagnostic.
fn check(src: &str) -> Vec<(u32, u32, &'static str)> {
    let funcs = parse(src).unwrap_or_else(|d| panic!("parse error: {d:#?}"));
    assert_eq!(funcs.len(), 1);
    match verify(&funcs[0]) {
        Ok(()) => Vec::new(),
        Err(diags) => diags.iter().map(|d| (d.loc.line, d.loc.col, d.rule)).collect(),
    }
}

#[test]
fn valid_loop_parses_and_verifies() {
    let src = "\
function %sum(ptr.global, i32) {
block0(v0: ptr.global, v1: i32):
    v2 = iconst.i32 0
    jump block1(v2)
block1(v3: i32):
    v4 = icmp ult v3, v1
    brif v4, block2, block3
block2:
    v5 = atomic_rmw.i32 add relaxed gpu v0+4, v3
    v6 = iconst.i32 1
    v7 = iadd v3, v6
    jump block1(v7)
block3:
    fence acq_rel gpu
    return
}
";
    assert_eq!(check(src), []);
}

#[test]
fn location_is_the_instruction() {
    let src = "\
function %f(ptr.global, i32) {
block0(v0: ptr.global, v1: i32):
    v2 = atomic_rmw.i32 fadd relaxed gpu v0, v1
    return
}
";
    let diags = verify(&parse(src).unwrap()[0]).unwrap_err();
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].rule, "atomic-op-type");
    assert_eq!(diags[0].loc.line, 3);
    assert!(diags[0].loc.col >= 1 && diags[0].loc != SrcLoc::default());
    assert_eq!(diags[0].message, "`v2 = atomic_rmw.i32 fadd relaxed gpu v0, v1`: fadd needs a float type, got i32");
}

#[test]
fn several_errors_in_source_order() {
    let src = "\
function %f(ptr.shared, i64) -> i32 {
block0(v0: ptr.shared, v1: i64):
    atomic_store.i64 acquire sys v0+4, v1
    v3 = ptr_to_generic v1
    brif v1, block1, block1
block1:
    return v1
}
";
    let rules: Vec<(u32, &str)> = check(src).into_iter().map(|(l, _, r)| (l, r)).collect();
    assert_eq!(
        rules,
        [
            (3, "atomic-order"),
            (3, "address-alignment"),
            (3, "atomic-scope"),
            (4, "ptr-to-generic-type"),
            (5, "brif-cond-type"),
            (7, "return-type"),
        ]
    );
}

#[test]
fn dominance_across_blocks_in_text() {
    let src = "\
function %f(i32) {
block0(v0: i32):
    v1 = icmp eq v0, v0
    brif v1, block1, block2
block1:
    v2 = iadd v0, v0
    jump block2
block2:
    v3 = imul v2, v0
    return
}
";
    assert_eq!(check(src).into_iter().map(|(l, _, r)| (l, r)).collect::<Vec<_>>(), [(9, "ssa-dominance")]);
}

#[test]
fn surfaces_in_text() {
    let src = "\
function %f(surface, i32, i64) {
block0(v0: surface, v1: i32, v2: i64):
    v3 = surface_rmw.i32 add 2d bytes trap relaxed gpu v0 [v1, v1], v1
    v4 = surface_rmw.i64 inc_wrap 1d coord ign relaxed gpu slot 200 [v1, v1], v2
    v5 = surface_cas.i32 3d coord near seq_cst sys v1 [v1, v1, v1], v1, v1
    return
}
";
    let rules: Vec<(u32, &str)> = check(src).into_iter().map(|(l, _, r)| (l, r)).collect();
    assert_eq!(
        rules,
        [(4, "surface-coord-count"), (4, "surface-slot-range"), (4, "atomic-op-type"), (5, "surface-handle-type"),]
    );
}

/// A rule about one operand puts its caret on that operand, not on the result name
/// (issue 35: `address-type` marked `v6`, not the address `v1`); a wrong operand kind is
/// one error, not also an `operand-type-mismatch`.
#[test]
fn operand_rules_point_at_the_operand() {
    let src = "\
function %f(ptr.global, i32, f32) {
block0(v0: ptr.global, v1: i32, v2: f32):
    v3 = load.i32 v1
    v4 = iadd v1, v2
    v5 = icmp eq v0, v1
    v6 = atomic_rmw.i32 add relaxed gpu v0, v2
    store v2, v1+4
    return
}
";
    assert_eq!(
        check(src),
        [
            (3, 19, "address-type"),
            (4, 19, "int-op-type"),
            (5, 22, "operand-type-mismatch"),
            (6, 45, "atomic-operand-type"),
            (7, 15, "address-type"),
        ]
    );
    let diags = verify(&parse(src).unwrap()[0]).unwrap_err();
    let shown = atomc_ir::diagnostic::render("k.atom", src, &diags[..1]);
    assert!(shown.contains("    v3 = load.i32 v1\n  |                   ^^"), "{shown}");
}
