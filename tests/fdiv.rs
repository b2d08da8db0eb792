//! f32 division against the interpreter on the SASS emulator: 4 × 256 random pairs of finite
//! operands (every exponent, subnormals included, both signs; half the divisors within 2^±30
//! of the dividend, the rest anywhere, so quotients overflow, underflow to subnormals and 0,
//! and land in between) through atomc's sm_90 and sm_50 code for `filetests/filetests/interpret/fdiv-edges.atom`'s
//! `%fdiv32`. Zeros, infinities and NaNs are that file's run lines. f64 division likewise, for
//! `filetests/filetests/interpret/fdiv64-edges.atom`'s `%fdiv64`, on 12 × 256 random pairs per
//! target aimed at every region of `sass/isel/fdiv64.rs`: normal, overflowing and subnormal
//! quotients, subnormal operands, and quotients next to the 2^-1022 boundary. f16 division, for
//! `filetests/filetests/interpret/fdiv16-edges.atom`'s `%fdiv16`, on 32 × 256 random pairs per
//! target: every pair of exponents, subnormals included, and a quarter of the divisors with the
//! dividend's significand (quotients at powers of two and near the subnormal boundary).

use atomc::emulate::{self, Schedule};
use atomc_emu::Rng;

/// A finite f32 bit pattern with exponent field `e` (0: zero or subnormal).
fn with_exponent(rng: &mut Rng, e: u32) -> u32 {
    let sign = (rng.next() as u32 & 1) << 31;
    sign | e << 23 | (rng.next() as u32 & 0x7f_ffff)
}

fn kernel() -> atomc::ir::Function {
    kernel_in("fdiv-edges.atom", "fdiv32")
}

fn kernel_in(file: &str, name: &str) -> atomc::ir::Function {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("filetests/filetests/interpret").join(file);
    let source = std::fs::read_to_string(path).expect(file);
    let parsed = atomc::ir::parse::parse_file(&source).expect("parses");
    parsed.functions.into_iter().map(|f| f.func).find(|f| f.name == name).expect(name)
}

#[test]
fn random_f32_divisions_match_the_interpreter() {
    let func = kernel();
    for target in [atomc::Target::Sm90, atomc::Target::Sm50] {
        let cubin = match atomc::compile(&func, target, atomc::Emit::Cubin) {
            Ok(atomc::Output::Binary(b)) => b,
            other => panic!("{target}: no cubin: {other:?}"),
        };
        let mut rng = Rng::new(0x85eb_ca6b);
        let n = 256;
        for round in 0..4 {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            for i in 0..n {
                let ea = (rng.next() % 255) as u32;
                let eb = if i % 2 == 0 {
                    (ea as i64 + (rng.next() % 61) as i64 - 30).clamp(0, 254) as u32
                } else {
                    (rng.next() % 255) as u32
                };
                a.push(with_exponent(&mut rng, ea));
                // A zero divisor is the edge file's.
                b.push(with_exponent(&mut rng, eb).max(1));
            }
            let exact = emulated_equals_interpreter(&func, &cubin, &a, &b)
                .unwrap_or_else(|e| panic!("{target} round {round}: {e}"));
            assert!(exact, "{target} round {round}: atomc's code differs from the interpreter");
        }
    }
}

/// The emulator's `MUFU.RCP64H` and f64 arithmetic on ptxas's own code: `%fdiv32`'s PTX with
/// the f32 division replaced by what atomc selects (`cvt.f64.f32`, `div.rn.f64`,
/// `cvt.rn.f32.f64`), through ptxas 13.5, on finite nonzero pairs (ptxas's fast path; its
/// slow-path subroutine is not taken): the interpreter's f32 quotient. (ptxas 11.8's sm_50 code
/// reads 1.0 with `DFMA R6, R10, -R8, c[0x2][0x0]`, which the sm_50 form table lacks.)
#[test]
fn ptxas_f64_division_of_widened_f32_matches_the_interpreter() {
    use atomc_oracle::{self as oracle, Sm, Tool};
    let func = kernel();
    for (target, sm, tool) in [(atomc::Target::Sm90, Sm::Sm90, Tool::Ptxas13)] {
        if oracle::require(tool).is_none() {
            continue;
        }
        let ptx = match atomc::compile(&func, target, atomc::Emit::Ptx) {
            Ok(atomc::Output::Text(t)) => t,
            other => panic!("{target}: no PTX: {other:?}"),
        };
        let ptx: String = ptx
            .lines()
            .map(|l| match l.trim().strip_prefix("div.rn.f32 ").and_then(|r| r.strip_suffix(';')) {
                Some(ops) => {
                    let [d, a, b] = <[&str; 3]>::try_from(ops.split(", ").collect::<Vec<_>>()).expect("three operands");
                    format!(
                        "\t{{ .reg .f64 %wa, %wb, %wq; cvt.f64.f32 %wa, {a}; cvt.f64.f32 %wb, {b}; \
                         div.rn.f64 %wq, %wa, %wb; cvt.rn.f32.f64 {d}, %wq; }}\n"
                    )
                }
                None => format!("{l}\n"),
            })
            .collect();
        let cubin = oracle::ptxas(sm, &ptx).expect("ptxas");
        let mut rng = Rng::new(0x27d4_eb2f);
        let n = 256;
        let nonzero = |rng: &mut Rng, e: u32| loop {
            let v = with_exponent(rng, e);
            if v & 0x7fff_ffff != 0 {
                break v;
            }
        };
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for _ in 0..n {
            let ea = (rng.next() % 255) as u32;
            let eb = (ea as i64 + (rng.next() % 61) as i64 - 30).clamp(0, 254) as u32;
            a.push(nonzero(&mut rng, ea));
            b.push(nonzero(&mut rng, eb));
        }
        let exact = emulated_equals_interpreter(&func, &cubin, &a, &b)
            .unwrap_or_else(|e| panic!("{target}, ptxas's code: {e}"));
        assert!(exact, "{target}: ptxas's code differs from the interpreter");
    }
}

/// Runs `cubin`'s `%fdiv32` on the emulator with `a[i] / b[i]` in lane i (f32 bit patterns) and
/// says whether every byte equals the interpreter's.
fn emulated_equals_interpreter(func: &atomc::ir::Function, cubin: &[u8], a: &[u32], b: &[u32]) -> Result<bool, String> {
    let (a, b): (Vec<u64>, Vec<u64>) = (a.iter().map(|&x| x as u64).collect(), b.iter().map(|&x| x as u64).collect());
    emulated_matches(func, cubin, "f32", &a, &b)
}

/// Runs `cubin`'s kernel (`func`, three pointers: a, b, out) on the emulator with `a[i] / b[i]`
/// in lane i (bit patterns of type `ty`) and says whether every byte equals the interpreter's.
fn emulated_matches(func: &atomc::ir::Function, cubin: &[u8], ty: &str, a: &[u64], b: &[u64]) -> Result<bool, String> {
    let n = a.len();
    let digits = match ty {
        "f64" => 16,
        "f16" => 4,
        _ => 8,
    };
    let list = |v: &[u64]| v.iter().map(|x| format!("0x{x:0digits$x}")).collect::<Vec<_>>().join(", ");
    let line = format!(
        "block {n} a: {ty}[{n}] = [{}], b: {ty}[{n}] = [{}], out: {ty}[{n}] = 0, %{}(a, b, out)",
        list(a),
        list(b),
        func.name
    );
    let spec = atomc::ir::interp::parse_run_line(func, &line).expect("run line");
    let want = emulate::interpret(func, &spec).expect("interprets");
    emulate::run_and_judge(cubin, func, &spec, &want, Schedule::RoundRobin).map(|(exact, _)| exact)
}

/// A finite f64 bit pattern with exponent field `e` (0: zero or subnormal) and a random sign
/// and significand; one in eight significands is all ones or all zeros but one bit, so
/// quotients near powers of two and grid midpoints come up.
fn f64_with_exponent(rng: &mut Rng, e: u64) -> u64 {
    let sign = (rng.next() & 1) << 63;
    let frac = match rng.next() % 16 {
        0 => (1 << 52) - 1,
        1 => rng.next() % 4,
        _ => rng.next() & ((1 << 52) - 1),
    };
    sign | e << 52 | frac
}

/// Pairs for round `round` of the f64 tests: the dividend's exponent anywhere; the divisor's
/// within 2^±30 of it, anywhere, 1018 to 1080 binades above it (subnormal quotients and their
/// boundary with the normal ones; half of them 1021 to 1025) or subnormal; a zero is made the smallest subnormal.
fn f64_pairs(rng: &mut Rng, n: usize) -> (Vec<u64>, Vec<u64>) {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for i in 0..n {
        let mut ea = rng.next() % 2047;
        let eb = match i % 4 {
            0 => (ea as i64 + (rng.next() % 61) as i64 - 30).clamp(0, 2046) as u64,
            1 => rng.next() % 2047,
            // Half of them in the few binades where the grid is 2, 4 or 8 ulps of the
            // significands' quotient, where most midpoints are.
            2 => {
                ea = rng.next() % 1000;
                let up = if rng.next() % 2 == 0 { 1018 + rng.next() % 63 } else { 1021 + rng.next() % 5 };
                (ea + up).min(2046)
            }
            _ => 0,
        };
        let (x, y) = (f64_with_exponent(rng, ea), f64_with_exponent(rng, eb));
        let nonzero = |v: u64| if v << 1 == 0 { v | 1 } else { v };
        // Subnormal dividends too, in the last class, by swapping every other pair.
        let (x, y) = if i % 8 == 7 { (y, x) } else { (x, y) };
        a.push(nonzero(x));
        b.push(nonzero(y));
    }
    (a, b)
}

#[test]
fn random_f64_divisions_match_the_interpreter() {
    let func = kernel_in("fdiv64-edges.atom", "fdiv64");
    for target in [atomc::Target::Sm90, atomc::Target::Sm50] {
        let cubin = match atomc::compile(&func, target, atomc::Emit::Cubin) {
            Ok(atomc::Output::Binary(b)) => b,
            other => panic!("{target}: no cubin: {other:?}"),
        };
        let mut rng = Rng::new(0x9e37_79b9);
        for round in 0..12 {
            let (a, b) = f64_pairs(&mut rng, 256);
            let exact = emulated_matches(&func, &cubin, "f64", &a, &b)
                .unwrap_or_else(|e| panic!("{target} round {round}: {e}"));
            assert!(exact, "{target} round {round}: atomc's code differs from the interpreter");
        }
    }
}

/// The emulator's `MUFU.RCP64H` and f64 arithmetic on ptxas's own `div.rn.f64` (`%fdiv64`'s
/// PTX through ptxas 13.5) with full 53-bit significands, on pairs within 2^±300 (its fast
/// path, the one `fdiv64.rs` uses): the interpreter's quotients. (Pairs that take ptxas's
/// slow-path subroutine stop the emulator with a timing hazard inside it, `MUFU.RCP64H R17, R3`
/// 6 cycles after `@!P0 DMUL R2, ...`, so they are left out.)
#[test]
fn ptxas_f64_division_matches_the_interpreter() {
    use atomc_oracle::{self as oracle, Sm, Tool};
    if oracle::require(Tool::Ptxas13).is_none() {
        return;
    }
    let func = kernel_in("fdiv64-edges.atom", "fdiv64");
    let ptx = match atomc::compile(&func, atomc::Target::Sm90, atomc::Emit::Ptx) {
        Ok(atomc::Output::Text(t)) => t,
        other => panic!("no PTX: {other:?}"),
    };
    assert!(ptx.contains("div.rn.f64"), "{ptx}");
    let cubin = oracle::ptxas(Sm::Sm90, &ptx).expect("ptxas");
    let mut rng = Rng::new(0x9e37_79b9);
    for round in 0..2 {
        let pick = |rng: &mut Rng| {
            let e = 723 + rng.next() % 601;
            f64_with_exponent(rng, e)
        };
        let (a, b): (Vec<u64>, Vec<u64>) = (0..256).map(|_| (pick(&mut rng), pick(&mut rng))).unzip();
        let exact = emulated_matches(&func, &cubin, "f64", &a, &b)
            .unwrap_or_else(|e| panic!("ptxas's code, round {round}: {e}"));
        assert!(exact, "round {round}: ptxas's code differs from the interpreter");
    }
}

#[test]
fn random_f16_divisions_match_the_interpreter() {
    let func = kernel_in("fdiv16-edges.atom", "fdiv16");
    for target in [atomc::Target::Sm90, atomc::Target::Sm50] {
        let cubin = match atomc::compile(&func, target, atomc::Emit::Cubin) {
            Ok(atomc::Output::Binary(b)) => b,
            other => panic!("{target}: no cubin: {other:?}"),
        };
        let mut rng = Rng::new(0x1656_67b1);
        for round in 0..32 {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            for i in 0..256 {
                // Finite values: exponent fields 0..=30.
                let x = rng.next() & 0x8000 | (rng.next() % 31) << 10 | rng.next() & 0x3ff;
                let y = match i % 4 {
                    0 => rng.next() & 0x8000 | (rng.next() % 31) << 10 | x & 0x3ff,
                    _ => rng.next() & 0x8000 | (rng.next() % 31) << 10 | rng.next() & 0x3ff,
                };
                // A zero divisor is the edge file's.
                a.push(x);
                b.push(if y & 0x7fff == 0 { y | 1 } else { y });
            }
            let exact = emulated_matches(&func, &cubin, "f16", &a, &b)
                .unwrap_or_else(|e| panic!("{target} round {round}: {e}"));
            assert!(exact, "{target} round {round}: atomc's code differs from the interpreter");
        }
    }
}
