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
            let list = |v: &[u32]| v.iter().map(|x| format!("0x{x:08x}")).collect::<Vec<_>>().join(", ");
            let line = format!(
                "block {n} a: f32[{n}] = [{}], b: f32[{n}] = [{}], out: f32[{n}] = 0, %fdiv32(a, b, out)",
                list(&a),
                list(&b)
            );
            let spec = atomc::ir::interp::parse_run_line(&func, &line).expect("run line");
            let want = emulate::interpret(&func, &spec).expect("interprets");
            let (exact, _) = emulate::run_and_judge(&cubin, &func, &spec, &want, Schedule::RoundRobin)
                .unwrap_or_else(|e| panic!("{target} round {round}: {e}"));
            assert!(exact, "{target} round {round}: atomc's code differs from the interpreter");
        }
    }
}
