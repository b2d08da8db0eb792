//! Unified diffs for failure messages.

/// A unified diff from `old` to `new`, three lines of context.
pub fn unified(old: &str, new: &str) -> String {
    let diff = similar::TextDiff::from_lines(old, new);
    let mut out = diff
        .unified_diff()
        .context_radius(3)
        .header("expected", "actual")
        .to_string();
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}
