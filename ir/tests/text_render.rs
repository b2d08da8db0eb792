//! The rendered form of diagnostics.

use atomc_ir::diagnostic::{render, Diagnostic};
use atomc_ir::parse::parse;
use atomc_ir::SrcLoc;

#[test]
fn a_parse_error_renders_with_source_line_and_caret() {
    let src = "function %f(i32) {\nblock0(v0: i32):\n    v1 = iadd v0, v9\n    return\n}\n";
    let diags = parse(src).unwrap_err();
    let expected = "\
kernel.atom:3:19: error[undefined-value]: value v9 is not defined
  |
3 |     v1 = iadd v0, v9
  |                   ^^

";
    assert_eq!(render("kernel.atom", src, &diags), expected);
}

#[test]
fn the_caret_follows_tabs_and_wide_characters() {
    let src = "function %f() { ; \u{fc}\nblock0:\n\tv0 = iconst.i8 300\n\treturn\n}\n";
    let diags = parse(src).unwrap_err();
    let out = render("t.atom", src, &diags);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "t.atom:3:17: error[number-range]: `300` does not fit in i8");
    let code = lines[2];
    let caret = lines[3];
    let code_col = code.find("300").unwrap();
    assert_eq!(caret.find('^'), Some(code_col), "\n{out}");
    assert!(caret.ends_with("^^^"), "\n{out}");
}

#[test]
fn a_position_at_the_end_of_a_line_gets_a_caret() {
    let src = "function %f(i32) {\nblock0(v0: i32):\n    v1 = iadd v0\n    return\n}\n";
    let out = render("t.atom", src, &parse(src).unwrap_err());
    assert!(out.starts_with("t.atom:3:17: error[operand-count]: too few operands: expected `iadd a, b`\n"), "{out}");
    assert!(out.contains("3 |     v1 = iadd v0\n"), "{out}");
    assert!(out.contains("  |                 ^"), "{out}");
}

#[test]
fn unknown_positions_render_one_line() {
    let d = Diagnostic::new(SrcLoc::default(), "ssa-dominance", "in `v3 = iadd v1, v2`: v2 does not dominate its use");
    assert_eq!(
        render("built.atom", "", std::slice::from_ref(&d)),
        "built.atom: error[ssa-dominance]: in `v3 = iadd v1, v2`: v2 does not dominate its use\n"
    );
    assert_eq!(d.to_string(), "error[ssa-dominance]: in `v3 = iadd v1, v2`: v2 does not dominate its use");
}

#[test]
fn positions_outside_the_source_render_the_headline_only() {
    let d = Diagnostic::new(SrcLoc { line: 40, col: 2 }, "syntax", "gone");
    assert_eq!(render("f.atom", "function\n", &[d]), "f.atom:40:2: error[syntax]: gone\n");
}

#[test]
fn several_diagnostics_render_in_order() {
    let src = "function %f() {\nblock0:\n    v0 = bogus\n    jump block3\n}\n";
    let out = render("f.atom", src, &parse(src).unwrap_err());
    let heads: Vec<&str> = out.lines().filter(|l| l.starts_with("f.atom")).collect();
    assert_eq!(
        heads,
        [
            "f.atom:3:10: error[unknown-opcode]: unknown instruction `bogus`",
            "f.atom:4:10: error[undefined-block]: block3 is not defined",
        ]
    );
    assert!(out.is_ascii());
}

#[test]
fn headline_and_display() {
    let d = Diagnostic::new(SrcLoc { line: 2, col: 5 }, "syntax", "bad");
    assert_eq!(d.headline("a.atom"), "a.atom:2:5: error[syntax]: bad");
    assert_eq!(d.to_string(), "2:5: error[syntax]: bad");
}
