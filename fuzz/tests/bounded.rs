//! The fuzzer's bounded run, part of the project's test command: a fixed seed range through every
//! stage, failing on any mismatch, ICE or generator bug that is not in [`KNOWN`], and unless its
//! kernels use every instruction of the IR (the IR's own opcode list); and every
//! reproducer filetest the fuzzer has produced (`filetests/filetests/interpret/fuzz-*.atom`)
//! through the same stages, with the same table.
//!
//! [`KNOWN`] lists atomc bugs the fuzzer found that are not fixed yet. An entry that no longer
//! fails is an *unexpected pass* and fails the test too, so the table cannot go stale: delete the
//! entry when the bug is fixed.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

use atomc_oracle::{self as oracle, Tool};
use atomc_filetests::testfile::TestFile;
use atomc_fuzz::check::{check_kernel, Options, Verdict};

/// Seeds of the bounded run: sized (by measurement, see `docs/fuzzing.md`) to stay well under a
/// minute in a debug build on two cores.
const SEEDS: std::ops::Range<u64> = 0..100;

/// Known failures: (seed, or `u64::MAX` for a reproducer file named in the stage column; stage;
/// a piece of the error text; why). Every listed failure must still fail, every other must not.
const KNOWN: &[(u64, &str, &str, &str)] = &[
    (79, "atomc sm_50 cubin", "does not fit in 20 bits", WHY_WIDE_IMMEDIATE),
];

/// Seed 79: `icmp slt` against 0x7fffffff selects an ISETP whose 20-bit immediate field cannot
/// hold it (issue 30, being fixed).
const WHY_WIDE_IMMEDIATE: &str = "sm_50 compare against a constant beyond the 20-bit immediate field: internal error";

fn known(seed: u64, stage: &str, detail: &str) -> bool {
    KNOWN
        .iter()
        .any(|&(s, st, text, _)| s == seed && st == stage && detail.contains(text))
}

fn jobs() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get().min(2))
        .unwrap_or(1)
}

#[test]
fn bounded_seed_range() {
    let mut opts = Options::default();
    opts.ptxas =
        oracle::require(Tool::Ptxas13).is_some() && oracle::require(Tool::Ptxas118).is_some();
    let start = Instant::now();
    // Every opcode the generated kernels use.
    let reached = Mutex::new(BTreeSet::new());
    let note = |r: &atomc_fuzz::check::Report| {
        if let Ok(fs) = atomc::ir::parse::parse(&r.program.text) {
            let mut set = reached.lock().unwrap_or_else(|e| e.into_inner());
            for f in &fs {
                set.extend(f.insts.values().map(|i| i.opcode_name()));
            }
        }
    };
    let sum = atomc_fuzz::run::run(SEEDS, jobs(), &opts, &note);
    let reached = reached.into_inner().unwrap_or_else(|e| e.into_inner());
    let missing: Vec<&str> = atomc::ir::parse::opcode_names().filter(|n| !reached.contains(n)).collect();
    eprintln!("instructions reached: {} of {}", reached.len(), reached.len() + missing.len());
    eprintln!(
        "bounded run: seeds {}..{} in {:.1} s",
        SEEDS.start,
        SEEDS.end,
        start.elapsed().as_secs_f64()
    );
    eprintln!("{}", sum.line());
    let mut problems = Vec::new();
    let mut seen = Vec::new();
    for r in &sum.failures {
        for (stage, v) in r.failures() {
            if known(r.program.seed, stage, v.detail()) {
                seen.push((r.program.seed, stage.clone()));
            } else {
                problems.push(format!(
                    "seed {} {stage}: {}: {}\n{}",
                    r.program.seed,
                    v.class(),
                    v.detail(),
                    r.filetest()
                ));
            }
        }
    }
    for &(seed, stage, text, why) in KNOWN.iter().filter(|k| SEEDS.contains(&k.0)) {
        if !seen.iter().any(|(s, st)| *s == seed && st == stage) {
            problems.push(format!("unexpected pass: seed {seed} {stage} no longer fails with `{text}` ({why}); remove it from KNOWN"));
        }
    }
    assert!(missing.is_empty(), "the bounded run reaches no kernel with {missing:?}");
    assert!(
        sum.programs == SEEDS.end - SEEDS.start,
        "only {} programs ran",
        sum.programs
    );
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

fn interpret_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../filetests/filetests/interpret")
}

#[test]
fn reproducers() {
    let mut opts = Options::default();
    opts.ptxas =
        oracle::require(Tool::Ptxas13).is_some() && oracle::require(Tool::Ptxas118).is_some();
    let mut files: Vec<PathBuf> = std::fs::read_dir(interpret_dir())
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| {
        p.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("fuzz-") && n.ends_with(".atom"))
    });
    files.sort();
    let mut problems = Vec::new();
    let mut failing = Vec::new();
    for path in &files {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("?")
            .to_string();
        let src = std::fs::read_to_string(path).unwrap_or_default();
        let Ok(file) = TestFile::scan(&src) else {
            problems.push(format!("{name}: does not scan"));
            continue;
        };
        // A reproducer of a seed replays that seed's random emulator schedule.
        let seed = src
            .lines()
            .find_map(|l| l.strip_prefix("; atomc-fuzz seed "))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or(0);
        for range in &file.funcs {
            let func = match atomc::ir::parse::parse(&file.func_text(range)) {
                Ok(mut fs) if fs.len() == 1 => fs.remove(0),
                _ => {
                    problems.push(format!("{name}: a function does not parse"));
                    continue;
                }
            };
            for line in file
                .func_comments(range)
                .filter_map(|c| c.text.strip_prefix("run:"))
            {
                let spec = match atomc::ir::interp::parse_run_line(&func, line) {
                    Ok(s) => s,
                    Err(e) => {
                        problems.push(format!("{name}: {e}"));
                        continue;
                    }
                };
                for (stage, v) in check_kernel(&func, &spec, &opts, seed) {
                    if !v.is_failure() {
                        continue;
                    }
                    let key = format!("{name}: {stage}");
                    if known(u64::MAX, &key, v.detail()) {
                        failing.push(key);
                    } else {
                        problems.push(format!("{key}: {}: {}", v.class(), v.detail()));
                    }
                }
            }
        }
    }
    for &(_, key, text, why) in KNOWN.iter().filter(|k| k.0 == u64::MAX) {
        if !failing.iter().any(|f| f == key) {
            problems.push(format!("unexpected pass: {key} no longer fails with `{text}` ({why}); remove it from KNOWN"));
        }
    }
    eprintln!(
        "fuzz reproducers: {} files, {} known failures",
        files.len(),
        failing.len()
    );
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn verdicts_classify() {
    assert!(Verdict::Mismatch(String::new()).is_failure());
    assert!(Verdict::Ice(String::new()).is_failure());
    assert!(!Verdict::Refused(String::new()).is_failure());
    assert!(!Verdict::EmuUnsupported(String::new()).is_failure());
}
