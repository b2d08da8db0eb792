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
    if ctx.path.extension().is_some_and(|e| e == "clif") {
        return Err("`test print` compares atomc IR text; it does not apply to .clif files\n".to_string());
    }
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
        if let Err(e) = stable(&range.name, &printed) {
            failures.push_str(&e);
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures)
    }
}

/// The round-trip check every parsed file gets, whatever its `test` lines:
/// printing each function, parsing that and printing again gives the same
/// text.
pub fn round_trip(ctx: &Ctx) -> Result<(), String> {
    let Ok(funcs) = &ctx.parsed else { return Ok(()) };
    let mut failures = String::new();
    for (f, range) in funcs.iter().zip(&ctx.file.funcs) {
        if let Err(e) = stable(&range.name, &crate::frontend::print(f)) {
            failures.push_str(&e);
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures)
    }
}

/// `print(parse(printed)) == printed`, with one function in `printed`.
fn stable(name: &str, printed: &str) -> Result<(), String> {
    match crate::frontend::parse(printed) {
        Ok(again) if again.len() == 1 => {
            let reprinted = crate::frontend::print(&again[0]);
            if reprinted == printed {
                Ok(())
            } else {
                Err(format!(
                    "function %{name}: printing is not stable (- first print, + second print):\n{}",
                    unified(printed, &reprinted)
                ))
            }
        }
        Ok(again) => Err(format!(
            "function %{name}: the printed text parses as {} functions\n",
            again.len()
        )),
        Err(diags) => Err(format!(
            "function %{name}: the printed text does not parse:\n{}",
            crate::frontend::render("<printed>", printed, &diags)
        )),
    }
}
