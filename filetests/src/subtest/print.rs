//! `test print`: the printer reproduces each function's text exactly.
//!
//! For every function, `print(parse(text))` must equal the function's text
//! from `function` to `}` with comments removed (comment-only lines are
//! dropped, trailing comments cut with the spaces before them), and
//! printing must be stable: `print(parse(print(f))) == print(f)`.

use super::Ctx;
use crate::diff::unified;

/// Runs `test print` on the whole file.
pub fn run(ctx: &Ctx) -> Result<(), String> {
    let funcs = ctx.parsed_or_fail()?;
    let mut failures = String::new();
    for (f, range) in funcs.iter().zip(&ctx.file.funcs) {
        let expected = ctx.file.func_code(range);
        let printed = crate::frontend::print(f);
        if printed != expected {
            failures.push_str(&format!(
                "function %{}: printed text differs from the source (- source, + printed):\n{}",
                range.name,
                unified(&expected, &printed)
            ));
            continue;
        }
        match crate::frontend::parse(&printed) {
            Ok(again) if again.len() == 1 => {
                let reprinted = crate::frontend::print(&again[0]);
                if reprinted != printed {
                    failures.push_str(&format!(
                        "function %{}: printing is not stable (- first print, + second print):\n{}",
                        range.name,
                        unified(&printed, &reprinted)
                    ));
                }
            }
            Ok(again) => failures.push_str(&format!(
                "function %{}: the printed text parses as {} functions\n",
                range.name,
                again.len()
            )),
            Err(diags) => failures.push_str(&format!(
                "function %{}: the printed text does not parse:\n{}",
                range.name,
                crate::frontend::render("<printed>", &printed, &diags)
            )),
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures)
    }
}
