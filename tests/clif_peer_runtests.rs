//! Cranelift's own atomic runtests, run through `atomc::clif::import` and
//! atomc's reference interpreter.
//!
//! The files are other people's tests, kept outside this repository in
//! `../shared/peer/cranelift-atomic-runtests/` (relative to the workspace
//! root); this test reads them from there and says so loudly, without
//! failing, when the folder is absent.
//!
//! Every `; run:` line is one case. The CPU `target` lines are ignored (no
//! Cranelift backend is built). The functions are imported with
//! `ImportOptions::interpreter()`: stack slots in the interpreter's scratch
//! buffer, and `big` accesses emulated with byte swaps (atomc's targets are
//! little-endian; the default options reject `big`). Functions that atomc
//! cannot import are reported per reason, with the run lines they hold; the
//! test fails on a wrong result or on any skipped line.
//!
//! Run with `cargo test --test clif_peer_runtests -- --nocapture` to see
//! the tally.
#![cfg(feature = "clif")]

mod clif_common;

use atomc::clif::{self, ImportOptions};
use atomc::ir::interp::{self, DataValue};
use cranelift_reader::{Comparison, RunCommand};
use std::collections::BTreeMap;
use clif_common::to_atomc;
use std::path::{Path, PathBuf};

fn peer_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/peer/cranelift-atomic-runtests")
}

/// What happened to the run lines.
#[derive(Default)]
struct Tally {
    passed: usize,
    failed: Vec<String>,
    /// reason → the `file %function` cases it covers, with their run-line counts.
    skipped: BTreeMap<String, Vec<(String, usize)>>,
}

impl Tally {
    fn skip(&mut self, reason: String, case: String, lines: usize) {
        self.skipped.entry(reason).or_default().push((case, lines));
    }

    fn skipped_lines(&self) -> usize {
        self.skipped.values().flatten().map(|(_, n)| n).sum()
    }
}

fn show(vals: &[DataValue]) -> String {
    let parts: Vec<String> = vals.iter().map(|v| format!("{:#x}", v.bits())).collect();
    format!("[{}]", parts.join(", "))
}

fn run_file(path: &Path, tally: &mut Tally) -> usize {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let text = std::fs::read_to_string(path).expect("readable peer file");
    let total = text.lines().filter(|l| l.trim_start().starts_with("; run")).count();
    let file = match cranelift_reader::parse_test(&text, cranelift_reader::ParseOptions::default()) {
        Ok(f) => f,
        Err(e) => {
            tally.skip(format!("cranelift-reader: {e}"), name, total);
            return total;
        }
    };
    for (func, details) in &file.functions {
        let case = format!("{name} {}", func.name);
        let commands: Vec<RunCommand> = details
            .comments
            .iter()
            .filter_map(|c| {
                cranelift_reader::parse_run_command(c.text, &func.signature)
                    .ok()
                    .flatten()
            })
            .collect();
        let imported = match clif::import(func, &ImportOptions::interpreter()) {
            Ok(f) => f,
            Err(e) => {
                tally.skip(e.reason(), case, commands.len());
                continue;
            }
        };
        let scratch = clif::scratch_bytes(func);
        for cmd in commands {
            let RunCommand::Run(inv, cmp, expected) = cmd else {
                tally.skip("`; print:` lines check nothing".into(), case.clone(), 1);
                continue;
            };
            let args: Option<Vec<DataValue>> = inv.args.iter().map(to_atomc).collect();
            let want: Option<Vec<DataValue>> = expected.iter().map(to_atomc).collect();
            let (Some(args), Some(want)) = (args, want) else {
                tally.skip("a value type atomc does not have".into(), case.clone(), 1);
                continue;
            };
            let line = format!("{case}({})", show(&args));
            match interp::call_with_scratch(&imported, &args, scratch) {
                Ok((got, _)) => {
                    let same = got == want;
                    if same == (cmp == Comparison::Equals) {
                        tally.passed += 1;
                    } else {
                        tally
                            .failed
                            .push(format!("{line}: got {}, expected {cmp} {}", show(&got), show(&want)));
                    }
                }
                Err(e) => tally.failed.push(format!("{line}: interpreter error: {e}\n{imported}")),
            }
        }
    }
    total
}

#[test]
fn cranelift_atomic_runtests() {
    let dir = peer_dir();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!(
            "\n*** SKIPPED (peer suite missing): {} is absent; Cranelift's atomic runtests were not run ***\n",
            dir.display()
        );
        return;
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "clif"))
        .collect();
    files.sort();
    let mut tally = Tally::default();
    let mut total = 0;
    for f in &files {
        total += run_file(f, &mut tally);
    }
    println!(
        "Cranelift atomic runtests through atomc ({} files, {total} run lines):",
        files.len()
    );
    println!("  passed:  {}", tally.passed);
    println!("  failed:  {}", tally.failed.len());
    println!("  skipped: {}", tally.skipped_lines());
    for (reason, cases) in &tally.skipped {
        let n: usize = cases.iter().map(|(_, n)| n).sum();
        println!("  skipped {n} run lines ({} functions): {reason}", cases.len());
        for (case, lines) in cases {
            println!("      {case}: {lines}");
        }
    }
    for f in &tally.failed {
        println!("  FAILED {f}");
    }
    assert_eq!(
        tally.passed + tally.failed.len() + tally.skipped_lines(),
        total,
        "every run line is accounted for"
    );
    assert!(tally.failed.is_empty(), "{} run lines failed", tally.failed.len());
    assert!(
        tally.skipped.is_empty(),
        "run lines skipped: {:?}",
        tally.skipped.keys()
    );
    assert!(tally.passed > 0);

    // With the default options, the big-endian files are rejected, by name.
    let big = dir.join("atomic-rmw-subword-big.clif");
    if let Ok(text) = std::fs::read_to_string(big) {
        let file = cranelift_reader::parse_test(&text, cranelift_reader::ParseOptions::default()).expect("parses");
        let opts = ImportOptions {
            emulate_big_endian: false,
            ..ImportOptions::interpreter()
        };
        let err = clif::import(&file.functions[0].0, &opts).expect_err("big is rejected");
        assert!(err.to_string().contains("big-endian"), "{err}");
    }
}
