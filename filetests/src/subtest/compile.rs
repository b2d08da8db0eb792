//! `test legalize` and `test compile [precise-output] [emit=KIND]`: compile
//! every function for every `target` line and check the output.
//!
//! * `legalize` emits the legalized IR; `compile` emits `asm` for NVIDIA
//!   targets and `visaasm` for vISA unless `emit=KIND` says otherwise.
//! * filecheck: `check:`, `nextln:`, `sameln:`, `not:`, `unordered:` and
//!   `regex:` comments of the function (and the preamble) are run against
//!   the output with the `filecheck` crate, their patterns read as LLVM
//!   FileCheck reads them (substrings, `{{regex}}`; see `pattern.rs`).
//! * `precise-output`: the output must equal, line for line, the block of
//!   `; ` comment lines right after the function's `}` (`;;` notes are not
//!   part of it). With `ATOMC_TEST_BLESS=1` a mismatch rewrites the block
//!   in place instead of failing. One `target` per precise-output file.
//! * insta: one golden per file. A `precise-output` file's golden is its own
//!   expectation block. Any other compile test of atomc's own tree
//!   (`filetests/filetests/`) keeps its output as a snapshot
//!   `filetests/snapshots/<file path>__<function>__<target>.snap`, so
//!   `cargo insta review` shows every codegen change; a new or changed
//!   output fails the run and leaves a `.snap.new` beside the snapshot
//!   (not under `CI`); accept with `cargo insta accept`, or without
//!   cargo-insta by rerunning with `INSTA_UPDATE=always`. A file elsewhere
//!   (a user's own) is judged by its filecheck lines or precise output alone
//!   and writes nothing into atomc's tree.

use super::Ctx;
use crate::diff::unified;
use crate::testfile::TestCommand;
use filecheck::{CheckerBuilder, NO_VARIABLES};

/// Runs a `legalize` or `compile` test command on the whole file.
pub fn run(ctx: &mut Ctx, cmd: &TestCommand) -> Result<(), String> {
    let funcs = ctx.parsed_or_fail()?.clone();
    if ctx.file.targets.is_empty() {
        return Err(format!("line {}: `test {}` needs a `target` line", cmd.line, cmd.name));
    }
    let precise = cmd.has_flag("precise-output");
    for o in &cmd.options {
        if o != "precise-output" && !o.starts_with("emit=") {
            return Err(format!(
                "line {}: unknown option `{o}` for `test {}`",
                cmd.line, cmd.name
            ));
        }
    }
    if precise && ctx.file.targets.len() != 1 {
        return Err("a precise-output file must have exactly one `target` line".to_string());
    }
    let mut failures = String::new();
    for target in ctx.file.targets.clone() {
        let emit = match (cmd.name.as_str(), cmd.option("emit")) {
            (_, Some(e)) => e.to_string(),
            ("legalize", None) => "legalized".to_string(),
            (_, None) if target.name.starts_with("visa") => "visaasm".to_string(),
            (_, None) => "asm".to_string(),
        };
        for (i, (f, range)) in funcs.iter().zip(ctx.file.funcs.clone()).enumerate() {
            let what = format!("function %{} ({}, --emit {emit})", range.name, target.name);
            let test = match cmd.option("emit") {
                Some(e) => format!("{}_{e}", cmd.name),
                None => cmd.name.clone(),
            };
            let snap = snapshot_name(&ctx.rel_path, &range.name, &target.name, &test);
            let snapshots = ctx.opts.snapshots && ctx.own_tree && !precise;
            if snapshots {
                ctx.snapshots.push(snap.clone());
            }
            let output = match ctx.backend.compile(f, &target.name, &emit) {
                Ok(out) => out,
                Err(e) => {
                    failures.push_str(&format!("{what}: compile failed: {e}\n"));
                    continue;
                }
            };
            if let Err(e) = filecheck(ctx, &range, &output, precise) {
                failures.push_str(&format!("{what}: {e}"));
            }
            if precise {
                let expected = without_cli_header(ctx.file.trailing_expectation(&range), &range.name, &emit);
                let actual: Vec<String> = output.lines().map(|l| l.trim_end().to_string()).collect();
                if expected != actual {
                    if ctx.opts.bless {
                        ctx.rewrites.push((i, actual));
                    } else {
                        failures.push_str(&format!(
                            "{what}: output differs from the expectation (rerun with ATOMC_TEST_BLESS=1 to accept):\n{}",
                            unified(&join(&expected), &join(&actual))
                        ));
                    }
                }
            }
            if snapshots {
                if let Err(e) = snapshot(ctx, &snap, &output) {
                    failures.push_str(&format!("{what}: {e}"));
                }
            }
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures)
    }
}

/// `atomc compile --emit asm` heads each kernel's listing with `.text.NAME:` (as nvdisasm
/// heads a cubin's sections), so that several kernels in one listing stay apart. A user's
/// expectation pasted from it may keep that line; the runner's output is one function's
/// listing and has none, so the line is dropped before comparing.
fn without_cli_header(mut expected: Vec<String>, func: &str, emit: &str) -> Vec<String> {
    if emit == "asm" && expected.first().is_some_and(|l| l.trim() == format!(".text.{func}:")) {
        expected.remove(0);
    }
    expected
}

fn join(lines: &[String]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// The filecheck directives; a comment is one only when it starts with one
/// of them, so prose in comments cannot turn into a check by accident.
const DIRECTIVES: &[&str] = &["check:", "sameln:", "nextln:", "unordered:", "not:", "regex:"];

/// Builds a checker from the preamble's and the function's comments and
/// runs it; a function without directives passes. With `precise-output`
/// the comments after `}` are the expected output, not directives.
fn filecheck(ctx: &Ctx, range: &crate::testfile::FuncRange, output: &str, precise: bool) -> Result<(), String> {
    let mut builder = CheckerBuilder::new();
    let comments = ctx.file.preamble().chain(ctx.file.func_comments(range));
    let is_directive = |t: &str| DIRECTIVES.iter().any(|d| t.starts_with(d));
    for c in comments.filter(|c| !c.note && is_directive(&c.text) && (!precise || c.line <= range.end)) {
        // `regex:` defines one of the crate's variables; the other directives' patterns are
        // LLVM FileCheck's.
        let directive = match c.text.split_once(':') {
            Some((kind, pattern)) if kind != "regex" => format!("{kind}: {}", super::pattern::translate(pattern)),
            _ => c.text.clone(),
        };
        builder
            .directive(&directive)
            .map_err(|e| format!("line {}: bad directive: {e}\n", c.line))?;
    }
    let checker = builder.finish();
    if checker.is_empty() {
        return Ok(());
    }
    let (ok, explain) = checker
        .explain(output, NO_VARIABLES)
        .map_err(|e| format!("filecheck: {e}\n"))?;
    if ok {
        Ok(())
    } else {
        Err(format!("filecheck failed:\n{checker}\n{explain}\noutput:\n{output}\n"))
    }
}

/// Compares `output` with its insta snapshot (insta writes `.snap.new`
/// files for `cargo insta review` when they differ).
fn snapshot(ctx: &Ctx, name: &str, output: &str) -> Result<(), String> {
    let dir = ctx.opts.snapshot_dir.clone();
    let input = ctx.path.clone();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path(dir);
        settings.set_prepend_module_to_snapshot(false);
        settings.set_omit_expression(true);
        settings.set_input_file(&input);
        settings.bind(|| insta::assert_snapshot!(name, output));
    }));
    result.map_err(|p| format!("snapshot `{name}` differs: {}\n", crate::panic_message(&p)))
}

/// `dir/file.atom`, `%f`, `sm_90` → `dir__file__f__sm_90`. The test is
/// added when it is not a plain `compile`: `__legalize`, or `__compile_vcode`
/// for `test compile emit=vcode`, so that two outputs never share a name.
pub fn snapshot_name(rel_path: &str, func: &str, target: &str, test: &str) -> String {
    let stem = rel_path
        .strip_suffix(".atom")
        .or(rel_path.strip_suffix(".clif"))
        .unwrap_or(rel_path);
    let mut name = format!("{stem}__{func}__{target}");
    if test != "compile" {
        name.push_str("__");
        name.push_str(test);
    }
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}
