//! `test interpret`: every `; run: ...` comment of a function is executed
//! by the reference interpreter, which parses the line itself (grid,
//! initial memory, expected memory and results; see `atomc_ir::interp`).
//! Each function is verified first. A file without any `run:` line fails,
//! so that a typo cannot turn a test into one that checks nothing.

use super::Ctx;

/// Runs `test interpret` on the whole file.
pub fn run(ctx: &Ctx) -> Result<(), String> {
    let funcs = ctx.parsed_or_fail()?;
    let mut failures = String::new();
    let mut count = 0;
    for (f, range) in funcs.iter().zip(&ctx.file.funcs) {
        let runs: Vec<_> = ctx
            .file
            .func_comments(range)
            .filter(|c| !c.note && (c.text == "run" || c.text.starts_with("run:")))
            .collect();
        if runs.is_empty() {
            continue;
        }
        if let Err(diags) = crate::frontend::verify(f) {
            failures.push_str(&format!(
                "function %{} does not verify:\n{}",
                range.name,
                ctx.render(&diags)
            ));
            continue;
        }
        for c in runs {
            count += 1;
            if let Err(e) = crate::frontend::run_line(f, &c.text) {
                failures.push_str(&format!("line {}: %{}: {}\n    ; {}\n", c.line, range.name, e, c.text));
            }
        }
    }
    if count == 0 {
        failures.push_str("`test interpret` but no `; run:` lines\n");
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures)
    }
}
