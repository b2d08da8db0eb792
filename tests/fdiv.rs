//! f32 division against the interpreter on the SASS emulator: 4 × 256 random pairs of finite
//! operands (every exponent, subnormals included, both signs; half the divisors within 2^±30
//! of the dividend, the rest anywhere, so quotients overflow, underflow to subnormals and 0,
//! and land in between) through atomc's sm_90 and sm_50 code for `filetests/filetests/interpret/fdiv-edges.atom`'s
//! `%fdiv32`. Zeros, infinities and NaNs are that file's run lines.

use atomc::emulate::{self, Schedule};
use atomc_emu::Rng;

/// A finite f32 bit pattern with exponent field `e` (0: zero or subnormal).
fn with_exponent(rng: &mut Rng, e: u32) -> u32 {
    let sign = (rng.next() as u32 & 1) << 31;
    sign | e << 23 | (rng.next() as u32 & 0x7f_ffff)
}

fn kernel() -> atomc::ir::Function {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("filetests/filetests/interpret/fdiv-edges.atom");
    let source = std::fs::read_to_string(path).expect("fdiv-edges.atom");
    let parsed = atomc::ir::parse::parse_file(&source).expect("parses");
    parsed.functions.into_iter().map(|f| f.func).find(|f| f.name == "fdiv32").expect("%fdiv32")
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
    let n = a.len();
    let list = |v: &[u32]| v.iter().map(|x| format!("0x{x:08x}")).collect::<Vec<_>>().join(", ");
    let line = format!(
        "block {n} a: f32[{n}] = [{}], b: f32[{n}] = [{}], out: f32[{n}] = 0, %fdiv32(a, b, out)",
        list(a),
        list(b)
    );
    let spec = atomc::ir::interp::parse_run_line(func, &line).expect("run line");
    let want = emulate::interpret(func, &spec).expect("interprets");
    emulate::run_and_judge(cubin, func, &spec, &want, Schedule::RoundRobin).map(|(exact, _)| exact)
}
