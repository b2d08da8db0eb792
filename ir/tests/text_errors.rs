//! Parse errors: each bad input yields a diagnostic with the exact
//! position and rule.

use atomc_ir::diagnostic::Diagnostic;
use atomc_ir::parse::parse;

fn diags(src: &str) -> Vec<Diagnostic> {
    match parse(src) {
        Ok(_) => panic!("parsed without error:\n{src}"),
        Err(d) => d,
    }
}

/// Wraps instruction lines in a function with parameters v0: i32,
/// v1: ptr.global; the first body line is line 3.
fn body(lines: &str) -> String {
    format!("function %f(i32, ptr.global) {{\nblock0(v0: i32, v1: ptr.global):\n{lines}    return\n}}\n")
}

/// The only diagnostic is `rule` at `line:col`, and its message contains `text`.
#[track_caller]
fn assert_one(src: &str, line: u32, col: u32, rule: &str, text: &str) {
    let d = diags(src);
    let got: Vec<_> = d.iter().map(|d| (d.loc.line, d.loc.col, d.rule, d.message.as_str())).collect();
    assert_eq!(d.len(), 1, "expected one diagnostic, got {got:#?}");
    assert_eq!((d[0].loc.line, d[0].loc.col, d[0].rule), (line, col, rule), "{got:#?}");
    assert!(d[0].message.contains(text), "message {:?} lacks {text:?}", d[0].message);
}

#[test]
fn undefined_value() {
    assert_one(&body("    v2 = iadd v0, v9\n"), 3, 19, "undefined-value", "v9");
}

#[test]
fn undefined_value_in_address_branch_and_surface() {
    let d = diags(&body(
        "    v2 = load.i32 v7+4\n    v3 = surface_rmw.i32 add 1d coord ign relaxed gpu v8 [v0], v0\n    jump block1(v9)\nblock1(v4: i32):\n",
    ));
    let got: Vec<_> = d.iter().map(|d| (d.loc.line, d.loc.col, d.rule)).collect();
    assert_eq!(got, [(3, 19, "undefined-value"), (4, 55, "undefined-value"), (5, 17, "undefined-value")]);
}

#[test]
fn redefined_value() {
    assert_one(&body("    v2 = iadd v0, v0\n    v2 = isub v0, v0\n"), 4, 5, "redefined-value", "3:5");
    assert_one(&body("    v0 = iconst.i32 1\n"), 3, 5, "redefined-value", "v0");
}

#[test]
fn undefined_and_redefined_block() {
    assert_one(&body("    jump block4\n"), 3, 10, "undefined-block", "block4");
    let src = "function %f() {\nblock0:\n    jump block0\nblock0:\n    return\n}\n";
    assert_one(src, 4, 1, "redefined-block", "2:1");
}

#[test]
fn unknown_opcode_type_and_keyword() {
    assert_one(&body("    v2 = iadd3 v0, v0\n"), 3, 10, "unknown-opcode", "iadd3");
    assert_one(&body("    v2 = iconst.i33 1\n"), 3, 10, "unknown-type", "i33");
    assert_one("function %f(i33) {\nblock0:\n    return\n}\n", 1, 13, "unknown-type", "i33");
    assert_one("function %f() {\nblock0(v0: f8):\n    return\n}\n", 2, 12, "unknown-type", "f8");
    assert_one(&body("    v2 = atomic_rmw.i32 addd relaxed gpu v1, v0\n"), 3, 25, "unknown-keyword", "add, sub");
    assert_one(&body("    fence seq_cst galaxy\n"), 3, 19, "unknown-keyword", "cta, gpu, sys");
    assert_one(&body("    fence consume gpu\n"), 3, 11, "unknown-keyword", "relaxed, acquire");
    assert_one(&body("    v2 = icmp lt v0, v0\n"), 3, 15, "unknown-keyword", "slt");
    assert_one(
        &body("    v2 = surface_rmw.i32 add 4d coord ign relaxed gpu slot 0 [v0], v0\n"),
        3,
        30,
        "unknown-keyword",
        "1d_buffer",
    );
    assert_one(
        &body("    v2 = surface_cas.i32 2d pixels ign relaxed gpu slot 0 [v0, v0], v0, v0\n"),
        3,
        29,
        "unknown-keyword",
        "coord, bytes",
    );
}

#[test]
fn type_suffix_missing_or_unexpected() {
    assert_one(&body("    v2 = iconst 1\n"), 3, 10, "syntax", "iconst.T");
    assert_one(&body("    v2 = iadd.i32 v0, v0\n"), 3, 10, "syntax", "no type suffix");
}

#[test]
fn wrong_operand_count() {
    assert_one(&body("    v2 = iadd v0\n"), 3, 17, "operand-count", "iadd a, b");
    assert_one(&body("    v2 = iadd v0, v0, v0\n"), 3, 21, "operand-count", "too many");
    assert_one(&body("    fence acquire\n"), 3, 18, "operand-count", "fence order scope");
    assert_one(&body("    v2 = atomic_cas.i32 relaxed gpu v1, v0\n"), 3, 43, "operand-count", "expected, replacement");
    assert_one(&body("    v2 = select v0, v0\n"), 3, 23, "operand-count", "select c, a, b");
    assert_one(&body("    brif v0, block0\n"), 3, 20, "operand-count", "brif");
}

#[test]
fn signature_mismatch() {
    assert_one("function %f(i32) {\nblock0(v0: i64):\n    return\n}\n", 2, 8, "signature-mismatch", "i64");
    assert_one(
        "function %f(i32, i32) {\nblock0(v0: i32):\n    return\n}\n",
        2,
        1,
        "signature-mismatch",
        "2 parameters",
    );
    assert_one("function %f() {\nblock0(v0: i32):\n    return\n}\n", 2, 8, "signature-mismatch", "0 parameters");
}

#[test]
fn result_count() {
    assert_one(&body("    v2 = store v0, v1\n"), 3, 5, "result-count", "no result");
    assert_one(&body("    iadd v0, v0\n"), 3, 5, "result-count", "vN = iadd");
    assert_one(&body("    v2, v3 = iadd v0, v0\n"), 3, 7, "syntax", "at most one result");
}

#[test]
fn numbers_out_of_range() {
    assert_one(&body("    v2 = iconst.i8 256\n"), 3, 20, "number-range", "i8");
    assert_one(&body("    v2 = iconst.i8 -129\n"), 3, 21, "number-range", "-129");
    assert_one(&body("    v2 = iconst.i64 18446744073709551616\n"), 3, 21, "number-range", "64 bits");
    assert_one(&body("    v2 = fconst.f32 1e39\n"), 3, 21, "number-range", "f32");
    assert_one(&body("    v2 = fconst.f16 65520\n"), 3, 21, "number-range", "f16");
    assert_one(&body("    v2 = fconst.f32 0x1ffffffff\n"), 3, 21, "number-range", "f32");
    assert_one(&body("    v2 = load.i32 v1+2147483648\n"), 3, 22, "number-range", "offset");
    assert_one(
        &body("    v2 = surface_rmw.i32 add 1d coord ign relaxed gpu slot 65536 [v0], v0\n"),
        3,
        60,
        "number-range",
        "slot",
    );
    assert_one(&body("    v4294967295 = iconst.i32 1\n"), 3, 5, "number-range", "v4294967295");
    // The most negative offset fits.
    assert!(parse(&body("    v2 = load.i32 v1-2147483648\n")).is_ok());
}

#[test]
fn syntax_errors_and_trailing_garbage() {
    assert_one(&body("    v2 = iadd v0 v0\n"), 3, 18, "syntax", "expected `,`");
    assert_one(&body("    barrier 3\n"), 3, 13, "syntax", "after the instruction");
    assert_one(&body("    v2 = iadd v0, v0 @\n"), 3, 22, "syntax", "'@'");
    assert_one(&body("    v2 = fconst.f32 1.5.5\n"), 3, 21, "syntax", "1.5.5");
    assert_one(&body("    v2 = fconst.f32 nan\n"), 3, 21, "syntax", "nan");
    assert_one(&body("    v2 = iconst.i32 12abc\n"), 3, 21, "syntax", "12abc");
    assert_one(&body("    v2 = load.i32 v1+x\n"), 3, 22, "syntax", "number");
    assert_one("function %f() {\n    return\n}\n", 2, 5, "syntax", "block header");
    assert_one("function %f() {\nblock0: return\n}\n", 2, 9, "syntax", "block header");
    assert_one("function f() {\nblock0:\n    return\n}\n", 1, 10, "syntax", "%name");
    assert_one("function %f() {\nblock0:\n    return\n", 3, 11, "syntax", "missing `}`");
    assert_one("function %f() {\nblock0:\n    return\n}\njunk\n", 5, 1, "syntax", "expected `function`");
}

#[test]
fn missing_brace_before_next_function() {
    let src = "function %f() {\nblock0:\n    return\nfunction %g() {\nblock0:\n    return\n}\n";
    assert_one(src, 4, 1, "syntax", "missing `}` at the end of function `%f`");
}

#[test]
fn every_broken_line_is_reported_in_order() {
    let d = diags(&body("    v2 = iadd v0\n    v3 = bogus v0\n    v4 = iconst.i8 999\n    v5 = iadd v0, v99\n"));
    let got: Vec<_> = d.iter().map(|d| (d.loc.line, d.rule)).collect();
    assert_eq!(got, [(3, "operand-count"), (4, "unknown-opcode"), (5, "number-range"), (6, "undefined-value")]);
}

#[test]
fn uses_of_a_broken_definition_are_not_reported_again() {
    // v2's line is broken; the use of v2 on the next line is not an error
    // of its own.
    assert_one(&body("    v2 = iadd v0\n    v3 = iadd v2, v2\n"), 3, 17, "operand-count", "iadd");
}

#[test]
fn errors_in_two_functions_are_all_reported() {
    let src = "function %a() {\nblock0:\n    v0 = iadd v5, v5\n    return\n}\n\nfunction %b() {\nblock0:\n    jump block9\n}\n";
    let d = diags(src);
    let got: Vec<_> = d.iter().map(|d| (d.loc.line, d.loc.col, d.rule)).collect();
    assert_eq!(got, [(3, 15, "undefined-value"), (3, 19, "undefined-value"), (9, 10, "undefined-block")]);
}

#[test]
fn columns_count_characters_and_tabs_as_one() {
    assert_one("function %f() {\nblock0:\n\tv0 = iconst.i8 300\n\treturn\n}\n", 3, 17, "number-range", "300");
    assert_one(
        "function %f() { ; ünïcödé\nblock0:\n    v0 = iconst.i8 300\n    return\n}\n",
        3,
        20,
        "number-range",
        "300",
    );
    assert_one("; ü\nfunction %f() {\nblock0:\n    v0 = ü\n    return\n}\n", 4, 10, "syntax", "'ü'");
}

#[test]
fn a_broken_block_header_does_not_cascade() {
    assert_one(
        "function %f(i32) {\nblock0(v0: i3):\n    v1 = iadd v0, v0\n    return\n}\n",
        2,
        12,
        "unknown-type",
        "i3",
    );
    assert_one("function %f() {\nblock0:\n    v0 = iconst.i32 0\n    jump block1(v0, v0)\nblock1(v1: i32 v2: i32):\n    v3 = iadd v1, v2\n    return\n}\n", 5, 16, "syntax", "`,`");
}
