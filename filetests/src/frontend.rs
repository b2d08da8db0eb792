//! The one place where the runner calls the IR's parser, verifier,
//! printer and interpreter, so that API changes there touch one file.

use atomc_ir::diagnostic::Diagnostic;
use atomc_ir::Function;

/// Parses every function of a filetest, in order.
pub fn parse(src: &str) -> Result<Vec<Function>, Vec<Diagnostic>> {
    let parsed = atomc_ir::parse::parse_file(src)?;
    Ok(parsed.functions.into_iter().map(|f| f.func).collect())
}

/// Runs the verifier.
pub fn verify(func: &Function) -> Result<(), Vec<Diagnostic>> {
    atomc_ir::verify::verify(func)
}

/// Prints a function in the text format.
pub fn print(func: &Function) -> String {
    atomc_ir::print::print_function(func)
}

/// Renders diagnostics as `file:line:col: error[rule]: message` with the
/// source line and a caret.
pub fn render(file: &str, src: &str, diags: &[Diagnostic]) -> String {
    atomc_ir::diagnostic::render(file, src, diags)
}

/// Runs one `run:` comment (the text after `;`, `run:` included) against
/// `func`.
pub fn run_line(func: &Function, line: &str) -> Result<(), String> {
    atomc_ir::interp::run_line(func, line).map_err(|e| e.to_string())
}
