//! Property-style robustness: whatever the input, the parser returns
//! (never panics), and whatever it accepts prints to a fixed point.

use atomc_ir::diagnostic::{render, Diagnostic};
use atomc_ir::parse::{parse, parse_file};
use atomc_ir::print::print_function;
use atomc_ir::SrcLoc;

const SAMPLE: &str = "\
test interpret
target sm_90
function %hist(ptr.global, i32, surface, f32) -> i32 {
block0(v0: ptr.global, v1: i32, v2: surface, v3: f32):
    v4 = thread_id.x
    v5 = uextend.i64 v4
    v6 = iconst.i64 -4
    v7 = imul v5, v6
    v8 = ptr_add v0, v7
    v9 = atomic_rmw.i32 add relaxed gpu v8+8, v1 ; comment
    v10 = atomic_cas.i64 acq_rel cta v0, v5, v6
    v11 = icmp ult v1, v4
    v12 = fconst.f32 0x7fc00001
    v13 = fcmp lt v3, v12
    v14 = select v13, v3, v12
    brif v11, block1(v1), block2
block1(v15: i32):
    atomic_store.i32 release gpu v0-4, v15
    fence seq_cst sys
    v16 = surface_rmw.i32 add 2d coord trap relaxed gpu slot 3 [v1, v4], v1
    v17 = surface_cas.i32 1d bytes near acquire cta v2 [v20], v1, v16
    v18 = load.f32 v0+16
    store v18, v0
    jump block2
block2:
    v19 = fconst.f16 -0.0
    v20 = iadd v1, v1
    return v20
}
; run: %hist() == 0
";

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Parses `src`; when it is accepted, checks that printing is a fixed
/// point and that every instruction has a position.
fn check(src: &str) {
    let Ok(file) = parse_file(src) else { return };
    for pf in &file.functions {
        let f = &pf.func;
        for (_, inst) in f.inst_order() {
            assert!(f.inst_locs[inst].is_known(), "instruction without a position in:\n{src}");
        }
        let once = print_function(f);
        let again = match parse(&once) {
            Ok(funcs) if funcs.len() == 1 => print_function(&funcs[0]),
            other => panic!("printed text does not parse back: {other:?}\nprinted:\n{once}\nfrom:\n{src}"),
        };
        assert_eq!(once, again, "printing is not a fixed point; from:\n{src}");
    }
}

#[test]
fn the_sample_is_valid() {
    let file = parse_file(SAMPLE).unwrap();
    assert_eq!(file.functions.len(), 1);
    assert_eq!(file.headers.len(), 2);
    check(SAMPLE);
}

#[test]
fn every_truncation_is_handled() {
    for (i, _) in SAMPLE.char_indices() {
        check(&SAMPLE[..i]);
        check(&SAMPLE[i..]);
    }
}

#[test]
fn random_mutations_are_handled() {
    const PIECES: &[&str] = &[
        "v",
        "v0",
        "v20",
        "v99",
        "block",
        "block1",
        "block7",
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        ",",
        ":",
        "=",
        "+",
        "-",
        ";",
        "\n",
        " ",
        "\t",
        "0",
        "9",
        "-1",
        "0x",
        "0xffffffffffffffffff",
        "99999999999999999999",
        "1e999",
        "inf",
        "nan",
        ".",
        "i32",
        "f16",
        "ptr.",
        "ptr.global",
        "iadd",
        "iconst.i8",
        "fconst.f16",
        "atomic_rmw.i64",
        "slot",
        "%",
        "function",
        "return",
        "jump",
        "brif",
        "->",
        "\u{e9}",
        "\0",
        "\r",
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let chars: Vec<char> = SAMPLE.chars().collect();
    for _ in 0..3000 {
        let mut text: Vec<char> = chars.clone();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(text.len() + 1);
            match rng.below(3) {
                0 if at < text.len() => {
                    let n = 1 + rng.below(8).min(text.len() - at - 1);
                    text.drain(at..at + n);
                }
                1 => {
                    let piece = PIECES[rng.below(PIECES.len())];
                    text.splice(at..at, piece.chars());
                }
                _ if at < text.len() => text[at] = char::from(rng.below(128) as u8),
                _ => {}
            }
        }
        check(&text.iter().collect::<String>());
    }
}

#[test]
fn arbitrary_bytes_are_handled() {
    let mut rng = Rng(12345);
    for _ in 0..500 {
        let len = rng.below(400);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        check(&String::from_utf8_lossy(&bytes));
        let ascii: String = (0..len).map(|_| char::from(32 + rng.below(95) as u8)).collect();
        check(&format!("function %f() {{\nblock0:\n{ascii}\n"));
    }
}

#[test]
fn deep_and_huge_inputs_are_handled() {
    check(&"(".repeat(100_000));
    check(&format!("function %f({}) {{\n}}\n", "i32, ".repeat(50_000)));
    check(&format!("function %f() {{\nblock0:\n    v0 = iconst.i32 {}\n    return\n}}\n", "9".repeat(10_000)));
    check(&format!("function %f() {{\nblock0:\n    return {}\n}}\n", "v0, ".repeat(50_000)));
    check(&"function %f() {\nblock0:\n    v0 = iadd v0, v0\n".repeat(10_000));
    check(&format!("function %{}() {{\nblock0:\n    return\n}}\n", "x".repeat(100_000)));
}

#[test]
fn a_long_chain_of_forward_references_is_linear() {
    // Each value's type comes from the next line's: resolving it must
    // neither recurse deeply nor take quadratic time.
    let n = 20_000;
    let mut src = String::from("function %f(i64) {\nblock0(v0: i64):\n    jump block2\nblock1:\n");
    for i in 1..n {
        src.push_str(&format!("    v{i} = iadd v{}, v{}\n", i + 1, i + 1));
    }
    src.push_str(&format!("    return\nblock2:\n    v{n} = iadd v0, v0\n    jump block1\n}}\n"));
    let start = std::time::Instant::now();
    let f = &parse(&src).unwrap()[0];
    assert!(start.elapsed().as_secs() < 10);
    assert!(f.values.values().all(|d| d.ty == atomc_ir::Type::I64));
}

#[test]
fn a_cycle_of_forward_references_parses() {
    // Invalid SSA (the verifier rejects it), but still no panic and no hang.
    let src = "function %f() {\nblock0:\n    v0 = iadd v1, v1\n    v1 = iadd v0, v0\n    return\n}\n";
    check(src);
}

#[test]
fn render_handles_any_position() {
    let src = "function %f() {\nblock0:\n    return\n}\n";
    let positions = [(0, 0), (1, 0), (1, 1), (3, 11), (3, 12), (3, 500), (4, 2), (5, 1), (99, 1), (u32::MAX, u32::MAX)];
    for (line, col) in positions {
        let d = Diagnostic::new(SrcLoc { line, col }, "syntax", "message");
        let out = render("f.atom", src, &[d]);
        assert!(out.starts_with("f.atom"), "{out}");
        render("f.atom", "", &[Diagnostic::new(SrcLoc { line, col }, "syntax", "m")]);
        render("f.atom", "\u{e9}\u{e9}\r\n\u{e9}", &[Diagnostic::new(SrcLoc { line, col }, "syntax", "m")]);
    }
}
