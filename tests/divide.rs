//! Integer division against the interpreter on the SASS emulator: 4 × 256 random 32-bit pairs
//! (magnitudes spread over every bit length, both signs, divisors never 0) through atomc's
//! sm_90 and sm_50 code and, as the reference for the sequences atomc copies, through ptxas's
//! code for the same kernel (`filetests/filetests/interpret/divide.atom`'s `%div32`).

use atomc::emulate::{self, Schedule};
use atomc::ir::interp::RunSpec;
use atomc::ir::Function;
use atomc_emu::Rng;
use atomc_oracle::{self as oracle, Sm, Tool};

/// A value of a random bit length (1..=32) and sign.
fn random_int(rng: &mut Rng) -> i32 {
    let bits = 1 + rng.next() % 32;
    let v = (rng.next() & ((1u64 << bits) - 1)) as u32;
    if rng.next() & 1 == 0 {
        v as i32
    } else {
        (v as i32).wrapping_neg()
    }
}

/// The function `%name` of `filetests/filetests/interpret/FILE`.
fn kernel(file: &str, name: &str) -> Function {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("filetests/filetests/interpret").join(file);
    let source = std::fs::read_to_string(path).expect(file);
    let parsed = atomc::ir::parse::parse_file(&source).expect("parses");
    parsed.functions.into_iter().map(|f| f.func).find(|f| f.name == name).unwrap_or_else(|| panic!("%{name}"))
}

/// One random round of `func` (`%name(a, b, out)` on `ty`): the run line with one block of `n`
/// threads, `n` dividends from `random`, then `n` divisors from it (zeros drawn again), room
/// for 4 results per thread in `out`; and the interpreter's memory after it.
fn random_round<T: std::fmt::Display + Default + PartialEq>(
    func: &Function,
    ty: &str,
    n: usize,
    rng: &mut Rng,
    random: fn(&mut Rng) -> T,
) -> (RunSpec, Vec<Vec<u8>>) {
    let a: Vec<T> = (0..n).map(|_| random(rng)).collect();
    let b: Vec<T> = (0..n)
        .map(|_| loop {
            let v = random(rng);
            if v != T::default() {
                break v;
            }
        })
        .collect();
    let list = |v: &[T]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ");
    let line = format!(
        "block {n} a: {ty}[{n}] = [{}], b: {ty}[{n}] = [{}], out: {ty}[{}] = 0, %{}(a, b, out)",
        list(&a),
        list(&b),
        4 * n,
        func.name
    );
    let spec = atomc::ir::interp::parse_run_line(func, &line).expect("run line");
    let want = emulate::interpret(func, &spec).expect("interprets");
    (spec, want)
}

/// `cubin` on the emulator leaves exactly the interpreter's memory `want` after `spec`; `what`
/// names the code and the round.
#[track_caller]
fn assert_exact(cubin: &[u8], func: &Function, spec: &RunSpec, want: &[Vec<u8>], what: &str) {
    let (exact, _) =
        emulate::run_and_judge(cubin, func, spec, want, Schedule::RoundRobin).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(exact, "{what} differs from the interpreter");
}

#[test]
fn random_divisions_match_the_interpreter() {
    let func = kernel("divide.atom", "div32");
    for (target, sm, tool) in
        [(atomc::Target::Sm90, Sm::Sm90, Tool::Ptxas13), (atomc::Target::Sm50, Sm::Sm50, Tool::Ptxas118)]
    {
        let atomc_cubin = match atomc::compile(&func, target, atomc::Emit::Cubin) {
            Ok(atomc::Output::Binary(b)) => b,
            other => panic!("{target}: no cubin: {other:?}"),
        };
        let ptxas_cubin = oracle::require(tool).is_some().then(|| {
            let ptx = match atomc::compile(&func, target, atomc::Emit::Ptx) {
                Ok(atomc::Output::Text(t)) => t,
                other => panic!("{target}: no PTX: {other:?}"),
            };
            oracle::ptxas(sm, &ptx).expect("ptxas")
        });
        let mut rng = Rng::new(0x9e37_79b9);
        let n = 256;
        for round in 0..4 {
            let (spec, want) = random_round(&func, "i32", n, &mut rng, random_int);
            for (who, cubin) in [("atomc", Some(&atomc_cubin)), ("ptxas", ptxas_cubin.as_ref())] {
                let Some(cubin) = cubin else { continue };
                assert_exact(cubin, &func, &spec, &want, &format!("{target} round {round}, {who}'s code"));
            }
        }
    }
}

/// A 64-bit value of a random bit length (1..=64) and sign.
fn random_i64(rng: &mut Rng) -> i64 {
    let bits = 1 + rng.next() % 64;
    let v = rng.next() & (u64::MAX >> (64 - bits));
    if rng.next() & 1 == 0 {
        v as i64
    } else {
        (v as i64).wrapping_neg()
    }
}

/// `interpret/divide64.atom`'s `%div64` on 2 × 256 random pairs through atomc's sm_90 and sm_50
/// code. (ptxas 13.5's own div.u64 subroutine does not run here: its carry-chained
/// `IMAD.WIDE.U32 R8, P0, ...` and `IMAD.HI.U32 R8, P1, ...` forms are not in the table.)
#[test]
fn random_64_bit_divisions_match_the_interpreter() {
    let func = kernel("divide64.atom", "div64");
    let cubins: Vec<_> = [atomc::Target::Sm90, atomc::Target::Sm50]
        .into_iter()
        .map(|target| match atomc::compile(&func, target, atomc::Emit::Cubin) {
            Ok(atomc::Output::Binary(b)) => (target, b),
            other => panic!("{target}: no cubin: {other:?}"),
        })
        .collect();
    let mut rng = Rng::new(0x2545_f491);
    let n = 256;
    for round in 0..2 {
        let (spec, want) = random_round(&func, "i64", n, &mut rng, random_i64);
        for (target, cubin) in &cubins {
            assert_exact(cubin, &func, &spec, &want, &format!("{target} round {round}, atomc's code"));
        }
    }
}
