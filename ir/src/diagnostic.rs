//! Diagnostics for users: a position, the rule that was broken, a message;
//! rendered as `file:line:col: error[rule]: message` followed by the source
//! line and a caret.

use crate::SrcLoc;

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
}

/// Renders diagnostics against the source they refer to.
///
/// TODO(parser helper): implement with the diagnostics crate.
pub fn render(file_name: &str, source: &str, diags: &[Diagnostic]) -> String {
    let _ = source;
    diags
        .iter()
        .map(|d| format!("{}:{}:{}: error[{}]: {}\n", file_name, d.loc.line, d.loc.col, d.rule, d.message))
        .collect()
}
