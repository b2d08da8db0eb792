//! Run lines (placeholder while being written).
use crate::Function;

/// A failed run line.
#[derive(Debug, thiserror::Error)]
pub enum RunLineError {
    #[error("x")]
    X,
}

/// Runs one line.
pub fn run_line(func: &Function, line: &str) -> Result<(), RunLineError> {
    let _ = (func, line);
    Ok(())
}
