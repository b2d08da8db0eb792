//! Filetests for the CLIF import: `tests/clif_filetests/*.clif`.
//!
//! atomc's filetest runner (`atomc test`) does not read `.clif` files yet
//! (it reports "CLIF import is not available yet": the runner crate cannot
//! depend on the `atomc` facade that holds the importer), so these files
//! have their own small runner here.
//!
//! File format: CLIF text as cranelift-reader reads it. Header line
//! `test import [scope=cta|gpu|sys] [space=global|shared|generic]
//! [pointer_params=false] [stack=scratch] [big=emulate]` sets the
//! [`ImportOptions`].
//! After each function, in its comments:
//!
//! * `; check: TEXT` — TEXT occurs in the imported atomc IR, on a line
//!   after the previous check's line; `; nextln: TEXT` — on the very next
//!   line; `; not: TEXT` — TEXT occurs nowhere in the output.
//! * `; error: TEXT` — the import fails and its message contains TEXT.
//! * `; run: %f(args) == results` — Cranelift's run-line syntax; the
//!   function is imported again with stack slots in the interpreter's
//!   scratch buffer and integer parameters, and called in atomc's
//!   interpreter.
//!
//! Every function needs at least one expectation.
#![cfg(feature = "clif")]

mod clif_common;

use atomc::clif::{self, ImportOptions, StackSlots};
use atomc::ir::interp::{self, DataValue};
use atomc::ir::{AddrSpace, Scope};
use cranelift_codegen::data_value::DataValue as ClDataValue;
use cranelift_reader::{Comparison, RunCommand, TestOption};
use std::path::{Path, PathBuf};

fn options(file: &cranelift_reader::TestFile) -> Result<ImportOptions, String> {
    let mut opts = ImportOptions::default();
    for cmd in &file.commands {
        if cmd.command != "import" {
            return Err(format!("unknown test command `{}`", cmd.command));
        }
        for opt in &cmd.options {
            match *opt {
                TestOption::Value("scope", s) => {
                    opts.scope = Scope::from_name(s).ok_or(format!("scope={s}"))?;
                }
                TestOption::Value("space", s) => {
                    opts.address_space = AddrSpace::ALL
                        .into_iter()
                        .find(|a| a.name() == s)
                        .ok_or(format!("space={s}"))?;
                }
                TestOption::Value("pointer_params", "false") => opts.pointer_params = false,
                TestOption::Value("stack", "scratch") => opts.stack_slots = StackSlots::Scratch,
                TestOption::Value("big", "emulate") => opts.emulate_big_endian = true,
                ref other => return Err(format!("unknown option {other:?}")),
            }
        }
    }
    Ok(opts)
}

/// A run-line value as the interpreter's, or why there is none.
fn to_atomc(v: &ClDataValue) -> Result<DataValue, String> {
    clif_common::to_atomc(v).ok_or_else(|| format!("value {v} has no atomc type"))
}

/// Ordered substring checks over the output's lines.
fn check(output: &str, directives: &[(&str, &str)]) -> Result<(), String> {
    let lines: Vec<&str> = output.lines().collect();
    let mut next = 0;
    for &(kind, text) in directives {
        match kind {
            "check" => match (next..lines.len()).find(|&i| lines[i].contains(text)) {
                Some(i) => next = i + 1,
                None => return Err(format!("check: `{text}` not found after line {next}")),
            },
            "nextln" => {
                if lines.get(next).is_some_and(|l| l.contains(text)) {
                    next += 1;
                } else {
                    return Err(format!("nextln: `{text}` is not on line {}", next + 1));
                }
            }
            _ => {
                if output.contains(text) {
                    return Err(format!("not: `{text}` occurs"));
                }
            }
        }
    }
    Ok(())
}

fn run_function(
    func: &cranelift_codegen::ir::Function,
    details: &cranelift_reader::Details,
    opts: &ImportOptions,
) -> Result<usize, String> {
    let mut directives = Vec::new();
    let mut errors = Vec::new();
    let mut runs = Vec::new();
    for c in &details.comments {
        let t = c.text.trim_start_matches(';').trim();
        for kind in ["check", "nextln", "not", "error"] {
            if let Some(rest) = t.strip_prefix(kind).and_then(|r| r.strip_prefix(':')) {
                if kind == "error" {
                    errors.push(rest.trim());
                } else {
                    directives.push((kind, rest.trim()));
                }
            }
        }
        if let Some(cmd) = cranelift_reader::parse_run_command(c.text, &func.signature).map_err(|e| e.to_string())? {
            runs.push(cmd);
        }
    }
    let n = directives.len() + errors.len() + runs.len();
    if n == 0 {
        return Err("no expectations".into());
    }
    // A function with only run lines may use stack slots: skip the import
    // with the file's options.
    let imported = if directives.is_empty() && errors.is_empty() {
        Ok(atomc::ir::Function::new("", vec![]))
    } else {
        clif::import(func, opts)
    };
    match (&imported, errors.is_empty()) {
        (Err(e), false) => {
            let msg = e.to_string();
            for want in &errors {
                if !msg.contains(want) {
                    return Err(format!("error `{msg}` does not contain `{want}`"));
                }
            }
            return Ok(n);
        }
        (Ok(f), false) => return Err(format!("expected an import error, got\n{f}")),
        (Err(e), true) => return Err(format!("import failed: {e}")),
        (Ok(f), true) => check(&f.to_string(), &directives).map_err(|e| format!("{e}\noutput:\n{f}"))?,
    }
    if runs.is_empty() {
        return Ok(n);
    }
    let run_opts = ImportOptions {
        stack_slots: StackSlots::Scratch,
        pointer_params: false,
        ..*opts
    };
    let f = clif::import(func, &run_opts).map_err(|e| format!("import for running: {e}"))?;
    for cmd in runs {
        let RunCommand::Run(inv, cmp, expected) = cmd else {
            return Err("`; print:` checks nothing".into());
        };
        let args = inv.args.iter().map(to_atomc).collect::<Result<Vec<_>, _>>()?;
        let want = expected.iter().map(to_atomc).collect::<Result<Vec<_>, _>>()?;
        let (got, _) = interp::call_with_scratch(&f, &args, clif::scratch_bytes(func))
            .map_err(|e| format!("run {args:?}: {e}\n{f}"))?;
        if (got == want) != (cmp == Comparison::Equals) {
            return Err(format!("run {args:?}: got {got:?}, expected {cmp} {want:?}\n{f}"));
        }
    }
    Ok(n)
}

fn run_file(path: &Path) -> Result<usize, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let file = cranelift_reader::parse_test(&text, cranelift_reader::ParseOptions::default())
        .map_err(|e| format!("parse: {e}"))?;
    let opts = options(&file)?;
    let mut n = 0;
    for (func, details) in &file.functions {
        n += run_function(func, details, &opts).map_err(|e| format!("{}: {e}", func.name))?;
    }
    Ok(n)
}

#[test]
fn clif_import_filetests() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clif_filetests");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/clif_filetests exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "clif"))
        .collect();
    files.sort();
    let (mut passed, mut failed, mut expectations) = (0, Vec::new(), 0);
    for f in &files {
        let name = f
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        match run_file(f) {
            Ok(n) => {
                passed += 1;
                expectations += n;
                println!("ok   {name} ({n} expectations)");
            }
            Err(e) => {
                println!("FAIL {name}: {e}");
                failed.push(name);
            }
        }
    }
    println!("{passed} passed, {} failed ({expectations} expectations)", failed.len());
    assert!(failed.is_empty(), "failed: {failed:?}");
    assert!(passed > 0);
}
