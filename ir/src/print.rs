//! The text printer (placeholder until the parser/printer lands).

use crate::Function;

/// Prints a function in the text format.
pub fn print_function(func: &Function) -> String {
    format!("function %{} {{ ... }}\n", func.name)
}
