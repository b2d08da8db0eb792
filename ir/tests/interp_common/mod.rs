//! Helpers shared by the interpreter tests.
#![allow(dead_code)]

use atomc_ir::interp::{run_line, RunLineError};
use atomc_ir::Function;

/// Parses one function from text (panics with the rendered diagnostics).
pub fn func(src: &str) -> Function {
    match atomc_ir::parse::parse(src) {
        Ok(mut funcs) if !funcs.is_empty() => funcs.remove(0),
        Ok(_) => panic!("no function in:\n{src}"),
        Err(d) => panic!(
            "parse failed:\n{}",
            atomc_ir::diagnostic::render("test.atom", src, &d)
        ),
    }
}

/// Runs a run line that must pass.
pub fn pass(f: &Function, line: &str) {
    if let Err(e) = run_line(f, line) {
        panic!("run line failed: {line}\n  {e}");
    }
}

/// Runs a run line that must fail; returns the error message.
pub fn fail(f: &Function, line: &str) -> String {
    match run_line(f, line) {
        Ok(()) => panic!("run line unexpectedly passed: {line}"),
        Err(e) => e.to_string(),
    }
}

/// Runs a run line that must fail with an execution error.
pub fn exec_err(f: &Function, line: &str) -> atomc_ir::interp::InterpError {
    match run_line(f, line) {
        Err(RunLineError::Exec(e)) => e,
        other => panic!("expected an execution error from {line}, got {other:?}"),
    }
}
