//! The run-line parser and the interpreter never panic: every truncation
//! and many one-character mutations of valid run lines give `Ok` or `Err`.

mod interp_common;
use atomc_ir::interp::run_line;
use interp_common::func;

const KERNEL: &str = "function %k(ptr.global, i32, surface) {
block0(v0: ptr.global, v1: i32, v2: surface):
    v3 = atomic_rmw.i32 add relaxed gpu v0, v1
    v4 = iconst.i32 0
    v5 = surface_rmw.i32 umax 1d coord trap relaxed gpu v2 [v4], v1
    barrier
    return
}
";

const FUNC: &str = "function %f(f16x2, f64) -> f16x2, f64 {
block0(v0: f16x2, v1: f64):
    v2 = fadd v0, v0
    return v2, v1
}
";

const KERNEL_LINES: &[&str] = &[
    "grid 2 block 3 args(b, 1, s) b: i32[1] = [0] s: surface i32[2] => b == [6], s[0] == 1",
    "block 2x2 args(b+4, -1, s) b: u32[2] = iota s: surface u32[2x1] slot 0 => b sorted == [0, 0xfffffffd]",
    "args(b, 1, s) b: i32[] = [1 2] s: surface i32[1] => b as set == {2}, b sum == 4, b all != 0",
    "; run: block 1 args(b+2, 5, s) b: i32[1] s: surface i32[1] => error \"misaligned\"",
];

const FUNC_LINES: &[&str] =
    &["%f([1.0 -2.0], 0x1.8p1) == [[2.0 -4.0], 3.0]", "%f(0x3c003c00, nan) != [0, -inf]"];

fn mutations(line: &str) -> Vec<String> {
    let chars: Vec<char> = line.chars().collect();
    let mut out = Vec::new();
    for i in 0..=chars.len() {
        out.push(chars[..i].iter().collect());
    }
    for i in 0..chars.len() {
        for c in ['[', ']', '{', '-', '0', '9', 'x', ',', '=', ' ', '%', '"', '.', 'p', ':'] {
            let mut m = chars.clone();
            m[i] = c;
            out.push(m.into_iter().collect());
        }
    }
    out
}

#[test]
fn mutated_run_lines_never_panic() {
    let k = func(KERNEL);
    let f = func(FUNC);
    let mut ok = 0;
    let mut total = 0;
    for (func, lines) in [(&k, KERNEL_LINES), (&f, FUNC_LINES)] {
        for line in lines.iter() {
            assert!(run_line(func, line).is_ok(), "the unmutated line must pass: {line}\n{:?}", run_line(func, line));
            for m in mutations(line) {
                total += 1;
                if run_line(func, &m).is_ok() {
                    ok += 1;
                }
            }
        }
    }
    assert!(ok > 0 && ok < total, "{ok} of {total} mutations passed");
}
