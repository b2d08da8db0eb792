//! `.clif` text: read with cranelift-reader, then import.

use super::error::ClifError;
use super::{import, ImportOptions};

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
            import(func, opts).map_err(|error| ClifError::Import {
                line: details.location.line_number,
                error,
            })
        })
        .collect()
}
