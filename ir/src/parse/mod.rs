//! The text parser: `.atom` source → [`Function`]s.
//!
//! The grammar is in `docs/ir.md`. Parsing runs in three steps: the lexer
//! (`lexer.rs`) makes tokens and collects `;` comments, the syntax pass
//! (`syntax.rs`) reads functions whose operands are still text numbers,
//! and the resolve pass (`resolve.rs`) checks names and creates the
//! entities. The parser checks syntax and names only; types and every
//! other rule are the verifier's.
//!
//! Filetests also need what surrounds the functions: [`parse_file`] returns
//! the header lines before the first function and the comments of each
//! function.

mod float;
mod lexer;
mod opcode;
mod resolve;
mod syntax;

pub(crate) use float::format_float;

/// The spelling of every opcode of the text format (without `.T` suffixes), the IR's own
/// list: a new instruction appears here without further work, so tools that must cover the
/// whole IR (the support matrix, the fuzzer's coverage check) iterate over it.
pub fn opcode_names() -> impl Iterator<Item = &'static str> {
    opcode::Op::all().map(opcode::Op::name)
}
pub(crate) use lexer::is_name_char;

/// The words of the text format that no enum spells: the printer and the
/// parser both use these.
pub(crate) mod words {
    /// Starts a function.
    pub const FUNCTION: &str = "function";
    /// `slot N`: a bound surface.
    pub const SLOT: &str = "slot";
    /// Float infinity (`-inf` is `-` and this).
    pub const INF: &str = "inf";
    /// `vN`; the same prefix `Value`'s `Display` writes.
    pub const VALUE: &str = "v";
    /// `blockN`; the same prefix `Block`'s `Display` writes.
    pub const BLOCK: &str = "block";
    /// `smN`; the same prefix `SharedVar`'s `Display` writes.
    pub const SHARED_VAR: &str = "sm";
    /// `smN = shared SIZE, align A`.
    pub const SHARED: &str = "shared";
    /// See `SHARED`.
    pub const ALIGN: &str = "align";
}

use crate::diagnostic::Diagnostic;
use crate::{Function, SrcLoc};

/// Parsing stops after this many diagnostics.
const MAX_DIAGNOSTICS: usize = 100;

/// A line of text with its position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The text (for comments: after the `;`, less one leading space).
    pub text: String,
    /// Where the text starts (for comments: the `;`).
    pub loc: SrcLoc,
}

/// One function of a file, with what surrounds it.
#[derive(Clone, Debug)]
pub struct ParsedFunction {
    /// The function.
    pub func: Function,
    /// Every `;` comment from the function's first line up to the next
    /// function (or the end of the file), in order.
    pub comments: Vec<Line>,
    /// The function's source text, from `function` through the closing `}`.
    pub text: String,
    /// Where the `function` keyword is.
    pub loc: SrcLoc,
}

/// A whole file: header directives and functions.
#[derive(Clone, Debug)]
pub struct ParsedFile {
    /// The non-empty, non-comment lines before the first function (e.g.
    /// `test interpret`, `target sm_90`), trimmed, comments removed. The
    /// parser does not interpret them.
    pub headers: Vec<Line>,
    /// The functions, in file order.
    pub functions: Vec<ParsedFunction>,
}

/// Parses every function in `src`.
pub fn parse(src: &str) -> Result<Vec<Function>, Vec<Diagnostic>> {
    parse_file(src).map(|file| file.functions.into_iter().map(|f| f.func).collect())
}

/// Parses a file: header lines, then functions with their comments.
/// On error, returns every diagnostic found (up to a limit), in source
/// order.
pub fn parse_file(src: &str) -> Result<ParsedFile, Vec<Diagnostic>> {
    let (headers, body_start, body_line) = split_headers(src);
    let lexed = lexer::lex(&src[body_start..], body_line);
    let mut diags = Vec::new();
    // Token offsets are relative to the body; shift them back.
    let tokens: Vec<lexer::Token<'_>> = lexed
        .tokens
        .into_iter()
        .map(|mut t| {
            t.start += body_start;
            t.end += body_start;
            t
        })
        .collect();
    let raws = syntax::parse_functions(&tokens, src.len(), &mut diags);
    let mut functions = Vec::new();
    for (i, raw) in raws.iter().enumerate() {
        match resolve::resolve(raw) {
            Ok(Some(func)) => {
                let next_line = raws.get(i + 1).map_or(u32::MAX, |r| r.loc.line);
                let comments = lexed
                    .comments
                    .iter()
                    .filter(|c| c.loc.line >= raw.loc.line && c.loc.line < next_line)
                    .map(|c| Line { text: c.text.to_string(), loc: c.loc })
                    .collect();
                let text = src.get(raw.span.0..raw.span.1).unwrap_or_default().to_string();
                functions.push(ParsedFunction { func, comments, text, loc: raw.loc });
            }
            Ok(None) => {}
            Err(mut errs) => diags.append(&mut errs),
        }
    }
    // A stray character explains whatever else goes wrong on its line.
    let lex_lines: std::collections::HashSet<u32> = lexed.errors.iter().map(|d| d.loc.line).collect();
    diags.retain(|d| !lex_lines.contains(&d.loc.line));
    diags.extend(lexed.errors);
    if diags.is_empty() {
        Ok(ParsedFile { headers, functions })
    } else {
        diags.sort_by_key(|d| (d.loc.line, d.loc.col));
        diags.dedup();
        diags.truncate(MAX_DIAGNOSTICS);
        Err(diags)
    }
}

/// The header lines, and the byte offset and line number where the first
/// line starting with `function` begins.
fn split_headers(src: &str) -> (Vec<Line>, usize, u32) {
    let mut headers = Vec::new();
    let mut offset = 0;
    for (i, raw_line) in src.split_inclusive('\n').enumerate() {
        let line = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let code = raw_line.split(';').next().unwrap_or_default();
        let trimmed = code.trim();
        let starts_function = trimmed
            .strip_prefix(words::FUNCTION)
            .is_some_and(|rest| !rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.'));
        if starts_function {
            return (headers, offset, line);
        }
        if !trimmed.is_empty() {
            let indent = code.len() - code.trim_start().len();
            let col = u32::try_from(code[..indent].chars().count() + 1).unwrap_or(u32::MAX);
            headers.push(Line { text: trimmed.to_string(), loc: SrcLoc { line, col } });
        }
        offset += raw_line.len();
    }
    (headers, src.len(), 1)
}
