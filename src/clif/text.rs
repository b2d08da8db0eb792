//! `.clif` text: read with cranelift-reader, then import.

use super::error::{ClifError, ImportError};
use super::{import, ImportOptions};
use cranelift_codegen::ir as cl;

/// Parses CLIF text (as `clif-util` and Cranelift's filetests write it:
/// optional `test`, `set`, `target` header lines, then functions) and
/// imports every function with the default [`ImportOptions`].
///
/// `target` lines name CPU architectures and are ignored: atomc's target is
/// chosen when compiling.
pub fn parse_clif_file(text: &str) -> Result<Vec<atomc_ir::Function>, ClifError> {
    parse_clif_file_with(text, &ImportOptions::default())
}

/// [`parse_clif_file`] with explicit import options.
pub fn parse_clif_file_with(text: &str, opts: &ImportOptions) -> Result<Vec<atomc_ir::Function>, ClifError> {
    let file = cranelift_reader::parse_test(text, cranelift_reader::ParseOptions::default()).map_err(|e| {
        ClifError::Parse {
            line: e.location.line_number,
            message: e.message,
        }
    })?;
    file.functions
        .iter()
        .map(|(func, details)| {
            import(func, opts).map_err(|error| {
                let at = match &error {
                    ImportError::Unsupported { at, .. } => inst_line(text, func, details.location.line_number, *at),
                    _ => None,
                };
                ClifError::Import {
                    line: at.unwrap_or(details.location.line_number),
                    error,
                }
            })
        })
        .collect()
}

/// The 1-based line of `inst` in `text`, whose function starts at line
/// `start`: the reader keeps instructions in text order, one per line, so
/// the n-th instruction in layout order is the n-th instruction line.
fn inst_line(text: &str, func: &cl::Function, start: usize, inst: cl::Inst) -> Option<usize> {
    let n = func
        .layout
        .blocks()
        .flat_map(|b| func.layout.block_insts(b))
        .position(|i| i == inst)?;
    let lines = text.lines().enumerate().skip(start.checked_sub(1)?).skip(1);
    let mut seen = 0;
    for (i, line) in lines {
        let code = line.split(';').next().unwrap_or("").trim();
        if code.starts_with('}') {
            return None;
        }
        if code.is_empty() || code.ends_with(':') || is_declaration(code) {
            continue;
        }
        if seen == n {
            return Some(i + 1);
        }
        seen += 1;
    }
    None
}

/// A preamble line such as `ss0 = explicit_slot 4` or `fn0 = %g sig0`.
fn is_declaration(code: &str) -> bool {
    let name = code.split('=').next().unwrap_or("").trim();
    let prefix = name.trim_end_matches(|c: char| c.is_ascii_digit());
    prefix.len() < name.len()
        && code.contains('=')
        && matches!(
            prefix,
            "ss" | "dss" | "gv" | "sig" | "fn" | "jt" | "const" | "mt" | "region"
        )
}
