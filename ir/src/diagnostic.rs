//! Diagnostics for users: a position, the rule that was broken, a message;
//! rendered as `file:line:col: error[rule]: message` followed by the source
//! line and a caret.
//!
//! ```text
//! kernel.atom:4:22: error[undefined-value]: value v9 is not defined
//!   |
//! 4 |     v3 = iadd v2, v9
//!   |                   ^^
//! ```
//!
//! A function built in code has no source text: its diagnostics name the
//! instruction instead (`%kernel: inst4: error[rule]: message`), and where the
//! builder attached a location of the caller's own
//! ([`FunctionBuilder::set_loc`](crate::FunctionBuilder::set_loc)), both.

use crate::{Inst, SrcLoc};
use codespan_reporting::diagnostic::{Diagnostic as Report, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, Chars, Config};
use std::fmt;

/// One error found in user input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Where (unknown for functions built in code).
    pub loc: SrcLoc,
    /// The short name of the rule, e.g. `syntax`, `ssa-dominance`,
    /// `atomic-op-type`.
    pub rule: &'static str,
    /// What is wrong, in one sentence.
    pub message: String,
    /// The instruction, where the location alone does not find it (functions built in code).
    pub inst: Option<Inst>,
}

impl Diagnostic {
    /// A diagnostic at a known position.
    pub fn new(loc: SrcLoc, rule: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic { loc, rule, message: message.into(), inst: None }
    }

    /// The same diagnostic, naming the instruction `inst` as well.
    pub fn at_inst(self, inst: Inst) -> Diagnostic {
        Diagnostic { inst: Some(inst), ..self }
    }

    /// `LINE:COL` (`LINE` alone for column 0, as CLIF's `SourceLoc` gives), then `INST`, joined
    /// with `: `; empty when neither is known.
    fn position(&self) -> String {
        let mut parts = Vec::new();
        if self.loc.is_known() {
            parts.push(match self.loc.col {
                0 => self.loc.line.to_string(),
                col => format!("{}:{col}", self.loc.line),
            });
        }
        if let Some(inst) = self.inst {
            parts.push(inst.to_string());
        }
        parts.join(": ")
    }

    /// The one-line form: `FILE:LINE:COL: error[RULE]: MESSAGE`;
    /// `FILE: error[RULE]: MESSAGE` when the position is unknown;
    /// `FILE: INST: ...` or `FILE:LINE:COL: INST: ...` when the instruction is named.
    pub fn headline(&self, file_name: &str) -> String {
        match (self.loc.is_known(), self.position()) {
            (_, p) if p.is_empty() => format!("{file_name}: error[{}]: {}", self.rule, self.message),
            (true, p) => format!("{file_name}:{p}: error[{}]: {}", self.rule, self.message),
            (false, p) => format!("{file_name}: {p}: error[{}]: {}", self.rule, self.message),
        }
    }
}

impl fmt::Display for Diagnostic {
    /// The one-line form without a file name: `LINE:COL: error[RULE]: MESSAGE` (with the
    /// instruction, when named, as in [`Diagnostic::headline`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.position();
        if !p.is_empty() {
            write!(f, "{p}: ")?;
        }
        write!(f, "error[{}]: {}", self.rule, self.message)
    }
}

impl std::error::Error for Diagnostic {}

/// Renders diagnostics against the source they refer to: for each, the
/// headline (see [`Diagnostic::headline`]), then — when the position is
/// known and inside `source` — the source line with a caret under the
/// offending token, and a blank line. Plain ASCII, no colour.
pub fn render(file_name: &str, source: &str, diags: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diags {
        out.push_str(&d.headline(file_name));
        out.push('\n');
        if let Some(snippet) = snippet(file_name, source, d) {
            out.push_str(&snippet);
        }
    }
    out
}

/// codespan's rendering of the label, less its own header lines (the
/// headline replaces them).
fn snippet(file_name: &str, source: &str, d: &Diagnostic) -> Option<String> {
    let range = byte_range(source, d.loc)?;
    let file = SimpleFile::new(file_name, source);
    let report = Report::error().with_message(&d.message).with_label(Label::primary((), range));
    let config = Config { chars: Chars::ascii(), ..Config::default() };
    let text = term::emit_into_string(&config, &file, &report).ok()?;
    // codespan writes `error: MESSAGE` and `  --> FILE:L:C`; keep the rest.
    let body: Vec<&str> = text.lines().skip_while(|l| !l.trim_start().starts_with("-->")).skip(1).collect();
    if body.is_empty() {
        return None;
    }
    Some(body.join("\n") + "\n")
}

/// The byte range of the token at `loc` (columns count characters); at
/// least one character, or the line end for a position past it.
fn byte_range(source: &str, loc: SrcLoc) -> Option<std::ops::Range<usize>> {
    if !loc.is_known() || loc.col == 0 {
        return None;
    }
    let line_start = if loc.line == 1 {
        0
    } else {
        let nth = usize::try_from(loc.line - 2).ok()?;
        source.match_indices('\n').nth(nth)?.0 + 1
    };
    let line = &source[line_start..];
    let line = &line[..line.find('\n').unwrap_or(line.len())];
    let line = line.strip_suffix('\r').unwrap_or(line);
    let col = usize::try_from(loc.col - 1).ok()?;
    let start = match line.char_indices().nth(col) {
        Some((i, _)) => i,
        None if line.chars().count() == col => line.len(),
        None => return None,
    };
    let rest = &line[start..];
    let word = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '%');
    let len = match rest.chars().next() {
        None => 0,
        Some(c) if word(c) => rest.find(|c: char| !word(c)).unwrap_or(rest.len()),
        Some(c) => c.len_utf8(),
    };
    Some(line_start + start..line_start + start + len)
}
