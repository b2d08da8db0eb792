//! `.clif` text: read with cranelift-reader, then import.

use super::error::{ClifError, ImportError};
use super::translate::import_located;
use super::ImportOptions;
use atomc_ir::SrcLoc;
use cranelift_codegen::ir as cl;
use std::collections::HashMap;

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
            let lines = inst_lines(text, func, details.location.line_number);
            import_located(func, opts, Some(&lines)).map_err(|error| {
                let at = match &error {
                    ImportError::Unsupported { at, .. } => lines.get(at).copied(),
                    _ => None,
                };
                ClifError::Import {
                    line: at.map_or(details.location.line_number, |l| l.line as usize),
                    col: at.map_or(1, |l| l.col as usize),
                    error,
                }
            })
        })
        .collect()
}

/// The text position (1-based line, column of its first character) of every instruction of
/// `func`, whose function starts at line `start`: the reader keeps instructions in text order,
/// one per line, so the n-th instruction in layout order is the n-th instruction line.
fn inst_lines(text: &str, func: &cl::Function, start: usize) -> HashMap<cl::Inst, SrcLoc> {
    let mut insts = func.layout.blocks().flat_map(|b| func.layout.block_insts(b));
    let mut out = HashMap::new();
    for (i, line) in text.lines().enumerate().skip(start.saturating_sub(1)).skip(1) {
        let code = line.split(';').next().unwrap_or("").trim();
        if code.starts_with('}') {
            break;
        }
        if code.is_empty() || code.ends_with(':') || is_declaration(code) {
            continue;
        }
        let Some(inst) = insts.next() else { break };
        let col = line.chars().take_while(|c| c.is_whitespace()).count() + 1;
        // A `@0012` source location written before the instruction is not part of it.
        let col = match line.trim_start().strip_prefix('@') {
            Some(rest) => col + 1 + rest.chars().take_while(|c| !c.is_whitespace()).count()
                + rest.chars().skip_while(|c| !c.is_whitespace()).take_while(|c| c.is_whitespace()).count(),
            None => col,
        };
        out.insert(inst, SrcLoc { line: (i + 1) as u32, col: col as u32 });
    }
    out
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
