//! The runner's own behaviour, on files written to a temporary folder: the
//! compile path (filecheck, precise-output, blessing, snapshots) with a
//! stand-in backend, panics, discovery and the report's last line.

use atomc_filetests::{run, Backend, RunOptions};
use std::path::{Path, PathBuf};

/// A stand-in compiler: one line per instruction, `OP` in capitals; the
/// target `panic` panics, the target `fail` fails.
struct Fake;

impl Backend for Fake {
    fn compile(&self, func: &atomc_ir::Function, target: &str, emit: &str) -> Result<String, String> {
        match target {
            "panic" => panic!("the fake backend panics"),
            "slow" => std::thread::sleep(std::time::Duration::from_millis(400)),
            "fail" => return Err("cannot do that".into()),
            _ => {}
        }
        let mut out = format!("// {} {target} {emit}\n", func.name);
        for (_, inst) in func.inst_order() {
            out.push_str(&func.insts[inst].opcode_name().to_uppercase());
            out.push('\n');
        }
        Ok(out)
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("atomc-runner-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn opts(dir: &Path) -> RunOptions {
    RunOptions {
        verbose: true,
        bless: false,
        snapshots: false,
        snapshot_dir: dir.join("snapshots"),
        threads: None,
        stall_after: std::time::Duration::from_secs(10),
    }
}

const KERNEL: &str = "function %k(ptr.global, i32) {\nblock0(v0: ptr.global, v1: i32):\n    v2 = atomic_rmw.i32 add relaxed gpu v0, v1\n    return\n}\n";

#[test]
fn filecheck_lines_pass_and_fail() {
    let dir = temp_dir("filecheck");
    std::fs::write(
        dir.join("ok.atom"),
        format!("test compile\ntarget sm_90\n\n{KERNEL}; check: ATOMIC_RMW\n; nextln: RETURN\n; not: FENCE\n"),
    )
    .unwrap();
    std::fs::write(
        dir.join("bad.atom"),
        format!("test compile\ntarget sm_90\n\n{KERNEL}; check: RETURN\n; nextln: ATOMIC_RMW\n"),
    )
    .unwrap();
    let s = run(std::slice::from_ref(&dir), &opts(&dir), &Fake);
    let report = s.report(true);
    assert_eq!((s.passed(), s.failed()), (1, 1), "{report}");
    assert!(
        report.contains("FAIL") && report.contains("bad.atom") && report.contains("filecheck failed"),
        "{report}"
    );
    assert!(report.ends_with("1 passed, 1 failed\n"), "{report}");
}

/// `check:` as LLVM FileCheck users expect (issue 35): a substring (`check: RED` matches
/// `REDG.E.ADD`; it used to need the whole word), `{{regex}}` for more.
#[test]
fn filecheck_patterns_are_substrings_and_braces_regexes() {
    let dir = temp_dir("filecheck-llvm");
    std::fs::write(
        dir.join("sub.atom"),
        format!("test compile\ntarget sm_90\n\n{KERNEL}; check: ATOMIC\n; nextln: {{{{RET[A-Z]+}}}}\n; not: FENCE\n"),
    )
    .unwrap();
    std::fs::write(
        dir.join("miss.atom"),
        format!("test compile\ntarget sm_90\n\n{KERNEL}; check: ATOMIC\n; not: RMW\n"),
    )
    .unwrap();
    let s = run(std::slice::from_ref(&dir), &opts(&dir), &Fake);
    let report = s.report(true);
    assert_eq!((s.passed(), s.failed()), (1, 1), "{report}");
    assert!(report.contains("FAIL") && report.contains("miss.atom"), "{report}");
}

#[test]
fn precise_output_fails_with_a_diff_then_blesses() {
    let dir = temp_dir("precise");
    let path = dir.join("p.atom");
    let src = format!(";; a note that stays\ntest compile precise-output\ntarget sm_90\n\n{KERNEL}\n; // k sm_90 asm\n; ATOMIC_RMW\n; WRONG\n\n;; a note before the next function\n{}", KERNEL.replace("%k", "%j"));
    std::fs::write(&path, &src).unwrap();
    let s = run(std::slice::from_ref(&path), &opts(&dir), &Fake);
    let report = s.report(false);
    assert_eq!(s.failed(), 1, "{report}");
    assert!(
        report.contains("-WRONG") && report.contains("+RETURN") && report.contains("ATOMC_TEST_BLESS=1"),
        "{report}"
    );

    let bless = RunOptions {
        bless: true,
        ..opts(&dir)
    };
    let s = run(std::slice::from_ref(&path), &bless, &Fake);
    assert_eq!(s.failed(), 0, "{}", s.report(true));
    let blessed = std::fs::read_to_string(&path).unwrap();
    assert!(
        blessed.contains(
            "}\n\n; // k sm_90 asm\n; ATOMIC_RMW\n; RETURN\n\n;; a note before the next function\nfunction %j"
        ),
        "{blessed}"
    );
    assert!(
        blessed.ends_with("}\n\n; // j sm_90 asm\n; ATOMIC_RMW\n; RETURN\n"),
        "{blessed}"
    );
    let s = run(&[path], &opts(&dir), &Fake);
    assert_eq!(s.failed(), 0, "{}", s.report(true));
}

#[test]
fn panics_and_compile_errors_are_failures() {
    let dir = temp_dir("panic");
    std::fs::write(dir.join("a.atom"), format!("test compile\ntarget panic\n\n{KERNEL}")).unwrap();
    std::fs::write(dir.join("b.atom"), format!("test compile\ntarget fail\n\n{KERNEL}")).unwrap();
    std::fs::write(dir.join("c.atom"), format!("test compile\n\n{KERNEL}")).unwrap();
    let s = run(std::slice::from_ref(&dir), &opts(&dir), &Fake);
    let report = s.report(false);
    assert_eq!(s.failed(), 3, "{report}");
    assert!(report.contains("panicked: the fake backend panics"), "{report}");
    assert!(report.contains("compile failed: cannot do that"), "{report}");
    assert!(report.contains("needs a `target` line"), "{report}");
    // Sorted order.
    let a = report.find("a.atom").unwrap();
    let b = report.find("b.atom").unwrap();
    let c = report.find("c.atom").unwrap();
    assert!(a < b && b < c, "{report}");
}

#[test]
fn snapshots_are_compared() {
    let dir = temp_dir("snap");
    std::fs::write(dir.join("s.atom"), format!("test compile\ntarget sm_90\n\n{KERNEL}")).unwrap();
    let snaps = dir.join("snapshots");
    std::fs::create_dir_all(&snaps).unwrap();
    let name = atomc_filetests::subtest::compile::snapshot_name("s.atom", "k", "sm_90", "compile");
    assert_eq!(name, "s__k__sm_90");
    let snap = snaps.join(format!("{name}.snap"));
    std::fs::write(
        &snap,
        "---\nsource: filetests\n---\n// k sm_90 asm\nATOMIC_RMW\nRETURN\n",
    )
    .unwrap();
    let with = RunOptions {
        snapshots: true,
        ..opts(&dir)
    };
    let s = run(std::slice::from_ref(&dir), &with, &Fake);
    assert_eq!(s.failed(), 0, "{}", s.report(true));
    std::fs::write(&snap, "---\nsource: filetests\n---\n// k sm_90 asm\nOLD\n").unwrap();
    let s = run(std::slice::from_ref(&dir), &with, &Fake);
    let report = s.report(false);
    assert_eq!(s.failed(), 1, "{report}");
    assert!(report.contains("snapshot `s__k__sm_90` differs"), "{report}");
}

#[test]
fn discovery_and_bad_headers() {
    let dir = temp_dir("discover");
    std::fs::create_dir_all(dir.join("sub/deeper")).unwrap();
    std::fs::write(dir.join("sub/deeper/x.atom"), format!("test print\n\n{KERNEL}")).unwrap();
    std::fs::write(dir.join("sub/notes.txt"), "not a test").unwrap();
    std::fs::write(dir.join("y.atom"), format!("test frobnicate\n\n{KERNEL}")).unwrap();
    std::fs::write(dir.join("z.atom"), format!("tset print\n\n{KERNEL}")).unwrap();
    std::fs::write(dir.join("w.atom"), format!("test interpret\n\n{KERNEL}")).unwrap();
    let missing = dir.join("missing.atom");
    let s = run(&[dir.clone(), missing], &opts(&dir), &Fake);
    let report = s.report(true);
    assert_eq!(s.files.len(), 5, "{report}");
    assert_eq!((s.passed(), s.failed()), (1, 4), "{report}");
    assert!(report.contains("unknown test `frobnicate`"), "{report}");
    assert!(report.contains("expected `test ...`"), "{report}");
    assert!(report.contains("no `; run:` lines"), "{report}");
    assert!(report.contains("missing.atom"), "{report}");
}

#[test]
fn a_slow_file_is_reported_and_still_finishes_on_one_thread() {
    let dir = temp_dir("slow");
    std::fs::write(dir.join("slow.atom"), format!("test compile\ntarget slow\n\n{KERNEL}")).unwrap();
    std::fs::write(dir.join("fast.atom"), format!("test print\n\n{KERNEL}")).unwrap();
    let o = RunOptions { threads: Some(1), stall_after: std::time::Duration::from_millis(100), ..opts(&dir) };
    let s = run(std::slice::from_ref(&dir), &o, &Fake);
    assert_eq!((s.passed(), s.failed()), (2, 0), "{}", s.report(true));
}
