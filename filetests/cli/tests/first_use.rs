//! What a newcomer trips on (issue 35): undefined behaviour `atomc run` rejects, returned
//! values printed, lines the emulator does not run counted (`--strict` fails on them), run-line
//! typos with a suggestion, emulator failures naming the element, exit code 2 for every
//! command-line mistake, outputs written all or nothing, `-o` stems, one listing spelling for
//! `compile` and `disasm`, `atomc test` outside the repository, `bench --filter` matching
//! nothing, and PTX-only refusals that say PTX.

mod common;

use common::{atomc, repo, scratch};
use std::path::{Path, PathBuf};

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write");
    p.display().to_string()
}

/// The kernel of the issue: only threads 0..15 of a 64-thread block reach the barrier.
const SKIPPED_BARRIER: &str = "function %skip(ptr.global) {
block0(v0: ptr.global):
    v1 = thread_id.x
    v2 = iconst.i32 16
    v3 = icmp ult v1, v2
    brif v3, block1, block2
block1:
    barrier
    v4 = iconst.i32 1
    v5 = atomic_rmw.i32 add relaxed cta v0, v4
    jump block2
block2:
    return
}
; run: block 64 c: i32[1] = 0, args(c) => c == [16]
";

const ADD: &str = "function %add(i32, i32) -> i32 {
block0(v0: i32, v1: i32):
    v2 = iadd v0, v1
    return v2
}
; run: %add(-1, 1)
";

const STORE3: &str = "function %k(ptr.global) {
block0(v0: ptr.global):
    v1 = iconst.i32 1
    store v1, v0+12
    return
}
";

#[test]
fn run_rejects_a_barrier_some_threads_skip_naming_both_places() {
    let dir = scratch("first-barrier");
    let file = write(&dir, "skip.atom", SKIPPED_BARRIER);
    // Before: `1 run line(s) passed`; the emulators deadlock on it.
    let (rc, out, err) = atomc(&["run", &file]);
    assert_eq!(rc, 1, "{out}{err}");
    assert!(err.contains("undefined behaviour (barrier-not-reached): 16 thread(s) of the block wait at `barrier` (inst4, line 8:5)"), "{err}");
    assert!(err.contains("the first at `return` (inst8, line 13:5) in thread (16,0,0)"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn run_prints_every_returned_value_and_counts_lines_not_emulated() {
    let dir = scratch("first-values");
    // Before: `ok %add: run: %add(-1, 1)`, no value.
    let file = write(&dir, "add.atom", ADD);
    let (rc, out, err) = atomc(&["run", &file]);
    assert_eq!(rc, 0, "{err}");
    assert!(out.contains("ok %add returned [0]: run: %add(-1, 1)"), "{out}");
    // Before: each line "skipped" and exit 0 with no summary of what was not checked.
    let text = format!(
        "{ADD}\n{STORE3}; run: s: i32[4], args(s) => s[3] == 1\n; run: s: i32[2], args(s) => error \"out-of-bounds\"\n"
    );
    let file = write(&dir, "mixed.atom", &text);
    let (rc, out, err) = atomc(&["run", &file, "--target", "sm_90"]);
    assert_eq!(rc, 0, "{out}{err}");
    assert!(
        out.contains("1 run line(s) passed on sm_90 (emulated); 2 line(s) not run: 1 call(s) of a function with results; the emulator launches kernels, 1 expected error(s); the emulator compares results"),
        "{out}"
    );
    let (rc, out, err) = atomc(&["run", &file, "--target", "sm_90", "--strict"]);
    assert_eq!(rc, 1, "{out}{err}");
    assert!(err.contains("--strict: 2 run line(s) the emulator cannot run"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn run_line_mistakes_name_the_likely_token_and_the_element() {
    let dir = scratch("first-runline");
    let file = write(&dir, "k.atom", STORE3);
    // Before: expected `!=`, found `=`.
    let (rc, _, err) = atomc(&["run", &file, "--run", "s: i32[4], args(s) => s[3] = 1"]);
    assert_eq!(rc, 1, "{err}");
    assert!(err.contains("expected `==` or `!=`, found `=` (did you mean `==`?)"), "{err}");
    // Before: the emulator's failure said `s: is [1]`, the interpreter's `s[3]: is [1]`.
    for target in [None, Some("sm_90")] {
        let mut args = vec!["run", file.as_str(), "--run", "s: i32[4], args(s) => s[3] == 2"];
        args.extend(target.iter().flat_map(|t| ["--target", t]));
        let (rc, _, err) = atomc(&args);
        assert_eq!(rc, 1, "{err}");
        assert!(err.contains("s[3]: is [1], expected 2"), "{target:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_command_line_mistake_exits_2() {
    let dir = scratch("first-codes");
    let file = write(&dir, "add.atom", ADD);
    let missing = dir.join("missing.atom").display().to_string();
    let cases: &[&[&str]] = &[
        // Before: 1.
        &["run", &file, "--function", "nope"],
        &["run", &file, "--function", "nope", "--run", "%add(1, 2)"],
        &["compile", &file, "--target", "sm_90", "--emit", "asm", "--function", "nope"],
        &["run", &missing],
        &["verify", &missing],
        &["compile", &missing, "--target", "sm_90", "--emit", "asm"],
        &["compile", &file, "--target", "visa", "--platform", "XYZ", "--emit", "visaasm"],
        &["bench", "--filter", "no-such-kernel"],
    ];
    for args in cases {
        let (rc, _, err) = atomc(args);
        assert_eq!(rc, 2, "atomc {}: {err}", args.join(" "));
        assert_eq!(err.lines().count(), 1, "one line: {err}");
    }
    let (_, _, err) = atomc(&["bench", "--filter", "no-such-kernel"]);
    assert!(err.contains("--filter `no-such-kernel` matches none of the"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn outputs_are_written_all_or_nothing_under_the_documented_names() {
    let dir = scratch("first-outputs");
    // The third kernel is one sm_50 refuses (fma of f16).
    let text = format!(
        "{STORE3}{}{}",
        STORE3.replace("%k(", "%k2("),
        "function %k3(ptr.global, f16) {
block0(v0: ptr.global, v1: f16):
    v3 = fma v1, v1, v1
    store v3, v0
    return
}
"
    );
    let file = write(&dir, "m.atom", &text);
    let stem = dir.join("k").display().to_string();
    for emit in ["bin", "asm,bin", "cubin"] {
        let (rc, _, err) = atomc(&["compile", &file, "--target", "sm_50", "--emit", emit, "-o", &stem]);
        assert_eq!(rc, 1, "{err}");
        let left: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
        // Before: the first two kernels' `k.NAME.bin` were written.
        assert_eq!(left.len(), 1, "--emit {emit}: only the input is left: {left:?}");
    }
    // `-o k.bin` with a per-kernel kind is the stem `k` (before: `k.bin.count.bin`).
    let (rc, _, err) = atomc(&[
        "compile", &repo("examples/module.atom"), "--target", "sm_90", "--emit", "bin", "-o",
        &dir.join("k.bin").display().to_string(),
    ]);
    assert_eq!(rc, 0, "{err}");
    assert!(dir.join("k.count.bin").is_file(), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn compile_and_disasm_spell_listings_alike() {
    let dir = scratch("first-listing");
    let bin = dir.join("k.bin").display().to_string();
    let example = repo("examples/histogram.atom");
    let (rc, listing, err) = atomc(&["compile", &example, "--target", "sm_90", "--emit", "asm"]);
    assert_eq!(rc, 0, "{err}");
    let (rc, _, err) = atomc(&["compile", &example, "--target", "sm_90", "--emit", "bin", "-o", &bin]);
    assert_eq!(rc, 0, "{err}");
    let (rc, back, err) = atomc(&["disasm", "--target", "sm_90", &bin]);
    assert_eq!(rc, 0, "{err}");
    // Before: `/*0000*/ LDC` from disasm, `/*0000*/  LDC` from compile.
    let body: String = listing.lines().filter(|l| !l.starts_with(".text.")).map(|l| format!("{l}\n")).collect();
    assert_eq!(back, body);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn test_with_no_paths_outside_the_repository_is_one_usage_line() {
    let dir = scratch("first-test");
    // Before: `filetests/filetests: No such file or directory` and 23 snapshot warnings.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_atomc")).arg("test").current_dir(&dir).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("atomc test PATHS"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_ptx_only_refusal_names_ptx() {
    let dir = scratch("first-ptx");
    let file = write(
        &dir,
        "sys.atom",
        "function %k(ptr.global, i32) {
block0(v0: ptr.global, v1: i32):
    v2 = atomic_rmw.i32 add relaxed sys v0, v1
    return
}
",
    );
    let (rc, _, err) = atomc(&["compile", &file, "--target", "sm_50", "--emit", "ptx"]);
    assert_eq!(rc, 1, "{err}");
    // Before: "sm_50 cannot express", though `--emit asm` for sm_50 compiles it.
    assert!(err.contains("sm_50 PTX cannot express `atomic_rmw.i32 add relaxed sys`"), "{err}");
    let (rc, _, err) = atomc(&["compile", &file, "--target", "sm_50", "--emit", "asm"]);
    assert_eq!(rc, 0, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
