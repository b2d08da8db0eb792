//! The kinds of test a file can ask for with `test NAME`.

pub mod compile;
pub mod interpret;
pub mod pattern;
pub mod print;
pub mod verify;

use crate::testfile::TestFile;
use crate::{Backend, RunOptions};
use atomc_ir::diagnostic::Diagnostic;
use atomc_ir::Function;

/// Everything a subtest needs about the file being run.
pub struct Ctx<'a> {
    /// The path as given (for diagnostics and snapshots' metadata).
    pub path: std::path::PathBuf,
    /// The path as [`crate::stable_name`] gives it (for snapshot names).
    pub rel_path: String,
    /// The scanned file.
    pub file: &'a TestFile,
    /// The parse result, shared by all subtests of the file.
    pub parsed: Result<Vec<Function>, Vec<Diagnostic>>,
    /// The compiler.
    pub backend: &'a dyn Backend,
    /// Runner options.
    pub opts: &'a RunOptions,
    /// precise-output blocks to rewrite (function index, new lines).
    pub rewrites: Vec<(usize, Vec<String>)>,
    /// Snapshot names used (recorded even when the compile fails).
    pub snapshots: Vec<String>,
    /// Whether the file belongs to the snapshot tree (atomc's own `filetests/`): only those
    /// keep insta snapshots; a user's file elsewhere is judged by its own expectations and
    /// never writes into atomc's tree.
    pub own_tree: bool,
}

impl Ctx<'_> {
    /// The parsed functions, or a failure carrying the rendered parse
    /// errors.
    pub fn parsed_or_fail(&self) -> Result<&Vec<Function>, String> {
        match &self.parsed {
            Ok(f) if f.len() == self.file.funcs.len() => Ok(f),
            Ok(f) => Err(format!(
                "the parser found {} functions, the runner's scan {} (a function must start with `function` at the start of a line)\n",
                f.len(),
                self.file.funcs.len()
            )),
            Err(diags) => Err(format!("parse failed:\n{}", self.render(diags))),
        }
    }

    /// Renders diagnostics against this file's source.
    pub fn render(&self, diags: &[Diagnostic]) -> String {
        crate::frontend::render(&self.path.display().to_string(), &self.file.source, diags)
    }
}

/// The test names the runner knows.
pub const KNOWN: &[&str] = &["verify", "print", "interpret", "legalize", "compile"];

/// Runs every `test` line of the file; returns the failures.
pub fn run_all(ctx: &mut Ctx) -> Vec<String> {
    let mut failures = Vec::new();
    let file = ctx.file;
    if file.tests.is_empty() {
        failures.push("no `test` line: nothing to run\n".to_string());
    }
    if file.funcs.is_empty() {
        failures.push("no functions\n".to_string());
    }
    if file.tests.iter().filter(|t| t.has_flag("precise-output")).count() > 1 {
        failures.push(
            "only one `test` line per file may be precise-output (they share the expectation blocks)\n".to_string(),
        );
        return failures;
    }
    if !file.tests.iter().any(|t| t.name == "print") {
        if let Err(e) = print::round_trip(ctx) {
            failures.push(format!("[round trip] {e}"));
        }
    }
    for cmd in &file.tests {
        let res = match cmd.name.as_str() {
            "verify" => verify::run(ctx),
            "print" => print::run(ctx),
            "interpret" => interpret::run(ctx),
            "legalize" | "compile" => compile::run(ctx, cmd),
            other => Err(format!(
                "line {}: unknown test `{other}` (known: {})\n",
                cmd.line,
                KNOWN.join(", ")
            )),
        };
        if let Err(e) = res {
            failures.push(format!("[test {}] {}", cmd.name, e));
        }
        if !matches!(
            cmd.name.as_str(),
            "verify" | "print" | "interpret" | "legalize" | "compile"
        ) {
            continue;
        }
        if !cmd.options.is_empty() && matches!(cmd.name.as_str(), "verify" | "print" | "interpret") {
            failures.push(format!("line {}: `test {}` takes no options\n", cmd.line, cmd.name));
        }
    }
    failures
}
