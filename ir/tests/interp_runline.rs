//! The run-line language: forms, messages, and parse errors with columns.

mod interp_common;
use atomc_ir::interp::{run_line, RunLineError};
use interp_common::{fail, func, pass};

const ADD: &str = "function %add(i32, i32) -> i32 {
block0(v0: i32, v1: i32):
    v2 = iadd v0, v1
    return v2
}
";

const SWAP: &str = "function %swap(f32, f32) -> f32, f32 {
block0(v0: f32, v1: f32):
    return v1, v0
}
";

const COUNT: &str = "function %count(ptr.global) {
block0(v0: ptr.global):
    v1 = iconst.i32 1
    v2 = atomic_rmw.i32 add relaxed gpu v0, v1
    return
}
";

fn parse_col(f: &atomc_ir::Function, line: &str) -> (usize, String) {
    match run_line(f, line) {
        Err(RunLineError::Parse { col, msg }) => (col, msg),
        other => panic!("expected a parse error from {line:?}, got {other:?}"),
    }
}

#[test]
fn call_form_like_cranelift() {
    let f = func(ADD);
    pass(&f, "%add(1, 2) == 3");
    pass(&f, "%add(0x7fffffff, 1) == -2147483648");
    pass(&f, "%add(1, 2) != 4");
    pass(&f, "; run: %add(-1, -1) == -2");
    pass(&f, "  ;  run:  %add(-1, -1) == 0xfffffffe");
    let msg = fail(&f, "%add(1, 2) == 4");
    assert_eq!(msg, "%add(1, 2) returned [3], expected == [4]");
    let g = func(SWAP);
    pass(&g, "%swap(1.5, -0.0) == [-0.0, 1.5]");
    pass(&g, "%swap(nan, inf) == [inf, nan]");
    pass(&g, "%swap(+NaN, -Inf) == [-inf, +nan]");
    pass(&g, "%swap(+1.5, +0x1.0p-2) == [0.25, 1.5]");
    pass(&f, "%add(+1, -1) == 0");
    let msg = fail(&g, "%swap(1.5, 2.0) == [1.5, 2.0]");
    assert!(msg.contains("returned [2.0, 1.5]"), "{msg}");
}

#[test]
fn kernel_form_with_memory_checks() {
    let f = func(COUNT);
    pass(
        &f,
        "grid 1 block 256 args(buf0) buf0: i32[1] = [0] => buf0 == [256]",
    );
    pass(&f, "block 4 args(b+4) b: u32[3] = [7, 0xffffffff, 9] => b == [7, 3, 9], b[1] == 3, b[0..2] == [7, 3]");
    pass(&f, "block 4, args(b), b: i32[2] = 5 => b != [5, 5], b[1] == 5, b sum == 14, b sorted == [5, 9]");
    pass(&f, "block 2 args(b) b: i32[] = [1, 2, 3] => b == [3 2 3]");
    pass(&f, "block 2 args(b) b: i32[4] = iota => b == [2, 1, 2, 3], b as set == {1, 2, 3}, b as set != {1, 2}");
    pass(&f, "block 3 args(b) b: i32[1] => b all == 3, b all != 4");
    pass(&f, "block 3 args(b+2) b: i32[2] => error \"misaligned\"");
    pass(&f, "block 3 args(b) b: i8[2] => error \"out-of-bounds\"");
    pass(&f, "block 1 args(0) => error \"in no buffer\"");
}

#[test]
fn mismatch_messages_show_expected_and_actual() {
    let f = func(COUNT);
    let msg = fail(&f, "block 3 args(b) b: i32[2] => b == [3, 1]");
    assert_eq!(
        msg,
        "b: is [3, 0], expected [3, 1] (first difference at 1: 0 vs 1)"
    );
    let msg = fail(
        &f,
        "block 3 args(b) b: u32[2] = [0, 0xffffffff] => b sorted == [3, 3]",
    );
    assert_eq!(msg, "b: sorted is [3, 4294967295], expected [3, 3]");
    let msg = fail(&f, "block 3 args(b) b: i32[2] => b sum == 4");
    assert_eq!(msg, "b: sum is 3, expected 4");
    let msg = fail(&f, "block 3 args(b) b: i32[1] => b[0] != 3");
    assert_eq!(msg, "b[0]: is [3], but `!=` expected something else");
    let msg = fail(&f, "block 3 args(b) b: i32[1] => error \"boom\"");
    assert_eq!(
        msg,
        "expected an error containing \"boom\", but the run succeeded"
    );
    let msg = fail(&f, "block 3 args(b) b: f32[4] => b all == 1.0");
    assert_eq!(
        msg,
        "b: element 0 is 4e-45, expected every element to be 1.0"
    );
    // Execution errors come through unchanged.
    match run_line(&f, "block 3 args(b+2) b: i32[2]") {
        Err(RunLineError::Exec(e)) => assert!(e.to_string().contains("misaligned"), "{e}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn parse_errors_point_at_the_column() {
    let f = func(COUNT);
    assert_eq!(
        parse_col(&f, "grid 0 block 1"),
        (
            6,
            "`0` is not a grid size like `256`, `16x16` or `8x8x4`".into()
        )
    );
    let (col, msg) = parse_col(&f, "block 2 args(b) b: i33[1]");
    assert_eq!(col, 20);
    assert!(msg.contains("`i33` is not an element type"), "{msg}");
    let (col, msg) = parse_col(&f, "args(b) b: i32[2] = [1, 2, 3]");
    assert_eq!((col, msg.as_str()), (19, "3 values for 2 elements"));
    let (col, msg) = parse_col(&f, "args(c) b: i32[2]");
    assert_eq!((col, msg.as_str()), (6, "`c` is not declared on this line"));
    let (col, msg) = parse_col(&f, "args(b) b: i32[2] => c == [1]");
    assert_eq!(
        (col, msg.as_str()),
        (22, "`c` is not declared on this line")
    );
    let (col, _) = parse_col(&f, "args(b) b: i32[2] => b == [1, x]");
    assert_eq!(col, 31);
    let (col, msg) = parse_col(&f, "args(b) b: i8[1] = 300");
    assert_eq!((col, msg.as_str()), (20, "300 does not fit in 8 bits"));
    let (col, msg) = parse_col(&f, "args(b) b: i32[1] $");
    assert_eq!((col, msg.as_str()), (19, "unexpected character `$`"));
    let (col, msg) = parse_col(&f, "; run: args()");
    assert_eq!(
        (col, msg.as_str()),
        (8, "%count takes 1 arguments, 0 given")
    );
    let (_, msg) = parse_col(&f, "%other(b) b: i32[1]");
    assert!(msg.contains("for %count, not %other"), "{msg}");
    let (_, msg) = parse_col(&f, "args(b) b: i32[2] => b == 1");
    assert!(msg.contains("compare a list"), "{msg}");
    let (_, msg) = parse_col(&f, "args(b) b: f32[2] => b sum == 1.0");
    assert!(msg.contains("`sum`"), "{msg}");
    let (col, msg) = parse_col(&f, "args(b) b: i32[2] => b[1..3] == [0, 0]");
    assert_eq!(
        (col, msg.as_str()),
        (22, "range 1..3 is outside `b` (2 elements)")
    );
    let g = func(ADD);
    let (_, msg) = parse_col(&g, "grid 2 %add(1, 2) == 3");
    assert!(msg.contains("grid 1 block 1"), "{msg}");
    let (col, msg) = parse_col(&g, "%add(1, 2.5) == 3");
    assert_eq!((col, msg.as_str()), (9, "`2.5` is not an integer"));
}

#[test]
fn float_and_packed_literals() {
    let f = func(
        "function %id(f16x2, bf16x2, f64) -> f16x2, bf16x2, f64 {
block0(v0: f16x2, v1: bf16x2, v2: f64):
    return v0, v1, v2
}
",
    );
    pass(
        &f,
        "%id([1.0 -2.0], [0.5, inf], 0x1.8p1) == [[1.0 -2.0], [0.5 inf], 3.0]",
    );
    pass(
        &f,
        "%id(0xc0003c00, 0, 1e-300) == [[1.0 -2.0], [0.0 0.0], 1e-300]",
    );
    pass(
        &f,
        "%id([nan -nan], [1_000.0 2.0], -inf) == [0xfe007e00, [1000.0 2.0], -inf]",
    );
}

#[test]
fn surfaces_and_handles_in_run_lines() {
    let f = func(
        "function %s(surface) {
block0(v0: surface):
    v1 = thread_id.x
    v2 = thread_id.y
    v3 = iconst.i32 1
    v4 = surface_rmw.i32 add 2d coord trap relaxed gpu v0 [v1, v2], v3
    return
}
",
    );
    pass(
        &f,
        "block 2x2 args(s) s: surface i32[2x3] = 10 => s == [11, 11, 11, 11, 10, 10]",
    );
    let (_, msg) = parse_col(&f, "args(s+4) s: surface i32[2x3]");
    assert!(msg.contains("cannot be passed"), "{msg}");
}

#[test]
fn call_form_with_memory() {
    let f = func(
        "function %fetch(ptr.global, i64) -> i64 {
block0(v0: ptr.global, v1: i64):
    v2 = atomic_rmw.i64 xchg seq_cst sys v0+8, v1
    return v2
}
",
    );
    pass(&f, "%fetch(b, 5) == 7 b: i64[2] = [0, 7] => b == [0, 5]");
    pass(&f, "b: i64[2] = -1, %fetch(b-8, 5) == -1 c: i64[1] = 0 => b == [5, -1]");
    let msg = fail(&f, "%fetch(b, 5) == 7 b: i64[1]");
    assert!(msg.contains("out-of-bounds"), "{msg}");
}

#[test]
fn packed_values_fill_and_compare_in_parentheses() {
    let f = func(
        "function %keep(ptr.global) {
block0(v0: ptr.global):
    return
}
",
    );
    // `fill` and `(lo, hi)`: a packed value where a bracket would read as a list.
    pass(&f, "args(b) b: f16x2[3] = fill [1.0 -2.0] => b all == (1.0, -2.0)");
    pass(&f, "args(b) b: bf16x2[2] = (0.5, inf) => b == [(0.5, inf), [0.5 inf]]");
    pass(&f, "args(b) b: f16x2[2] = [(1.0, 2.0) (3.0, 4.0)] => b[1] == (3.0, 4.0)");
    pass(&f, "args(b) b: i32[4] = fill 7 => b all == 7");
    let msg = fail(&f, "args(b) b: f16x2[2] = fill (1.0, 2.0) => b all == (2.0, 1.0)");
    assert!(msg.contains("expected"), "{msg}");
    // Without `fill`, a bracket is a list: two halves are two elements, not one.
    let (_, msg) = parse_col(&f, "args(b) b: f16x2[3] = [1.0 -2.0]");
    assert!(msg.contains("a packed f16x2 value is `(lo, hi)`"), "{msg}");
    let (_, msg) = parse_col(&f, "args(b) b: f16x2[3] = [(1.0, -2.0)]");
    assert!(msg.contains("1 values for 3 elements"), "{msg}");
}

#[test]
fn ranges_in_lists_count_in_the_element_width() {
    let f = func(
        "function %keep(ptr.global) {
block0(v0: ptr.global):
    return
}
",
    );
    pass(&f, "args(b) b: i32[6] = [0..4, 9, 10] => b == [0, 1, 2, 3, 9, 10]");
    pass(&f, "args(b) b: i32[4] = [-2..2] => b == [-2, -1, 0, 1]");
    pass(&f, "args(b) b: u8[4] = [254..=255, 0..2] => b == [254, 255, 0, 1], b sorted == [0..2, 254..=255]");
    pass(&f, "args(b) b: i64[3] = [5..=7] => b as set == {7, 6, 5}");
    pass(&f, "args(b) b: i32[3] = [3..3, 1..=3] => b == [1, 2, 3]");
    let (_, msg) = parse_col(&f, "args(b) b: f32[2] = [0.0..2.0]");
    assert!(msg.contains("needs an integer element type"), "{msg}");
    let (_, msg) = parse_col(&f, "args(b) b: i64[1] = [0..=-1]");
    assert!(msg.contains("at most"), "{msg}");
}

/// The `text` blocks of a Markdown or doc-comment text, prefix stripped, in order.
fn text_blocks(doc: &str, prefix: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut cur: Option<String> = None;
    for line in doc.lines() {
        let Some(l) = line.strip_prefix(prefix) else { continue };
        let l = if prefix.is_empty() { l } else { l.strip_prefix(' ').unwrap_or(l) };
        match (&mut cur, l) {
            (None, "```text") => cur = Some(String::new()),
            (Some(_), "```") => blocks.push(cur.take().unwrap_or_default()),
            (Some(b), l) => {
                b.push_str(l);
                b.push('\n');
            }
            _ => {}
        }
    }
    blocks
}

#[test]
fn the_filetest_readme_shows_the_parsers_grammar_and_examples() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let module = std::fs::read_to_string(format!("{root}/ir/src/interp/runline/mod.rs")).unwrap();
    let readme = std::fs::read_to_string(format!("{root}/filetests/README.md")).unwrap();
    let from_module = text_blocks(&module, "//!");
    let from_readme = text_blocks(&readme, "");
    assert_eq!(from_module.len(), 2, "the module documents a grammar and examples");
    for block in &from_module {
        assert!(from_readme.contains(block), "filetests/README.md lacks this block of the run-line docs:\n{block}");
    }
}

#[test]
fn the_documented_examples_parse() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let module = std::fs::read_to_string(format!("{root}/ir/src/interp/runline/mod.rs")).unwrap();
    let examples = &text_blocks(&module, "//!")[1];
    let count = func(COUNT);
    for line in examples.lines() {
        // Each example is written for its own kernel; the grammar must accept every one, so
        // the only errors allowed are those about the function it is tried on.
        match run_line(&count, line) {
            Err(RunLineError::Parse { msg, .. }) => assert!(
                msg.contains("is for %") || msg.contains("takes only") || msg.contains("parameter") || msg.contains("cannot be passed"),
                "{line}: {msg}"
            ),
            _ => {}
        }
    }
}
