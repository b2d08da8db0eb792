//! `test verify`: the verifier's errors must be exactly the expected ones.
//!
//! Expectations are comments:
//!
//! * `; error: RULE` expects one error of rule `RULE`;
//! * `; error[RULE]: TEXT` also requires the message to contain `TEXT`.
//!
//! A comment on the same line as code expects the error on that line; a
//! standalone comment inside the function refers to the nearest code line
//! above it (so several errors on one line are written on the lines below
//! it); a comment after the function's `}` accepts the error anywhere in
//! the function. Every error must be matched by an expectation and every
//! expectation must match at least one error (one comment covers the same
//! rule reported twice on its line, e.g. once per bad operand). When the file does not parse, the parse errors are
//! matched the same way against the expectations of the whole file, so
//! syntax errors can be tested too.

use super::Ctx;
use crate::testfile::{Comment, FuncRange};
use atomc_ir::diagnostic::Diagnostic;

/// One expected error.
#[derive(Clone, Debug)]
struct Expect {
    /// The comment's line (for messages).
    line: usize,
    /// The code line it refers to, or `None` for "anywhere in the function".
    anchor: Option<usize>,
    /// The function's line range, for function-wide expectations.
    range: (usize, usize),
    rule: String,
    text: Option<String>,
}

/// Parses `error: RULE` / `error[RULE]: TEXT`; `Ok(None)` for other comments.
fn parse_expect(c: &Comment) -> Result<Option<(String, Option<String>)>, String> {
    if c.note {
        return Ok(None);
    }
    let Some(rest) = c.text.strip_prefix("error") else {
        return Ok(None);
    };
    if let Some(rest) = rest.strip_prefix(':') {
        let rule = rest.trim();
        if rule.is_empty() || rule.contains(char::is_whitespace) {
            return Err(format!(
                "line {}: `; error: RULE` takes one rule name; use `; error[RULE]: text` to match the message",
                c.line
            ));
        }
        return Ok(Some((rule.to_string(), None)));
    }
    if let Some(rest) = rest.strip_prefix('[') {
        let (rule, text) = rest
            .split_once("]:")
            .ok_or(format!("line {}: expected `; error[RULE]: text`", c.line))?;
        return Ok(Some((rule.trim().to_string(), Some(text.trim().to_string()))));
    }
    Ok(None)
}

fn expectations(ctx: &Ctx, f: &FuncRange) -> Result<Vec<Expect>, String> {
    let mut out = Vec::new();
    for c in ctx.file.func_comments(f) {
        if let Some((rule, text)) = parse_expect(c)? {
            out.push(Expect {
                line: c.line,
                anchor: ctx.file.anchor(f, c),
                range: (f.start, f.next),
                rule,
                text,
            });
        }
    }
    Ok(out)
}

fn matches(e: &Expect, d: &Diagnostic, line_anchored: bool) -> bool {
    if e.rule != d.rule || !e.text.as_ref().is_none_or(|t| d.message.contains(t.as_str())) {
        return false;
    }
    let line = d.loc.line as usize;
    if line_anchored {
        e.anchor == Some(line)
    } else {
        e.anchor.is_none() && (line == 0 || (e.range.0 <= line && line < e.range.1))
    }
}

/// Checks that every diagnostic is covered by an expectation (a
/// line-anchored one if possible) and every expectation covers at least one
/// diagnostic (an operand reported twice on one line needs one comment),
/// and describes whatever is left over.
fn compare(ctx: &Ctx, what: &str, diags: &[Diagnostic], expects: &[Expect]) -> Result<(), String> {
    let mut used = vec![false; expects.len()];
    let mut unexpected = Vec::new();
    for d in diags {
        let found = [true, false].into_iter().find_map(|anchored| {
            let hits: Vec<usize> = (0..expects.len())
                .filter(|&i| matches(&expects[i], d, anchored))
                .collect();
            (!hits.is_empty()).then_some(hits)
        });
        match found {
            Some(hits) => hits.into_iter().for_each(|i| used[i] = true),
            None => unexpected.push(d.clone()),
        }
    }
    let mut msg = String::new();
    if !unexpected.is_empty() {
        msg.push_str(&format!("{what}: unexpected error(s):\n"));
        msg.push_str(&ctx.render(&unexpected));
    }
    let mut unmet = false;
    for (e, _) in expects.iter().zip(&used).filter(|(_, u)| !**u) {
        unmet = true;
        let text = e
            .text
            .as_ref()
            .map(|t| format!(" containing `{t}`"))
            .unwrap_or_default();
        let place = match e.anchor {
            Some(l) => format!("on line {l}"),
            None => "in the function".to_string(),
        };
        msg.push_str(&format!(
            "{what}: line {}: expected error[{}]{text} {place}, not reported\n",
            e.line, e.rule
        ));
    }
    if msg.is_empty() {
        return Ok(());
    }
    if unmet {
        if diags.is_empty() {
            msg.push_str("(no errors were reported)\n");
        } else {
            msg.push_str("all errors reported:\n");
            msg.push_str(&ctx.render(diags));
        }
    }
    Err(msg)
}

/// Runs `test verify` on the whole file.
pub fn run(ctx: &Ctx) -> Result<(), String> {
    let mut all = Vec::new();
    for f in &ctx.file.funcs {
        all.push(expectations(ctx, f)?);
    }
    let funcs = match &ctx.parsed {
        Ok(_) => ctx.parsed_or_fail()?,
        Err(diags) => {
            let flat: Vec<Expect> = all.into_iter().flatten().collect();
            return compare(ctx, "parse", diags, &flat);
        }
    };
    let mut failures = Vec::new();
    for ((f, range), expects) in funcs.iter().zip(&ctx.file.funcs).zip(&all) {
        let diags = crate::frontend::verify(f).err().unwrap_or_default();
        if let Err(e) = compare(ctx, &format!("function %{}", range.name), &diags, expects) {
            failures.push(e);
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join(""))
    }
}
