//! `check:` patterns as LLVM FileCheck reads them, translated into the `filecheck` crate's
//! syntax: a pattern matches as a substring (`check: RED` matches `REDG.E.ADD`; the crate alone
//! matches whole words), `{{REGEX}}` is a regular expression, `[[NAME:REGEX]]` defines a
//! variable and `[[NAME]]` uses it, and a run of spaces or tabs matches any such run (the
//! listing's two spaces after `/*0000*/` included). Everything else is literal (`$` too).

/// The crate's form of a directive's pattern `text` (what follows `check:` and the like).
pub fn translate(text: &str) -> String {
    // `$()` at both ends turns off the crate's word-boundary anchoring.
    let mut out = String::from("$()");
    let mut rest = text.trim();
    while !rest.is_empty() {
        if let Some(body) = rest.strip_prefix("{{") {
            if let Some(end) = body.find("}}") {
                out.push_str(&format!("$(={})", &body[..end]));
                rest = &body[end + 2..];
                continue;
            }
        }
        if let Some(body) = rest.strip_prefix("[[") {
            if let Some(end) = body.find("]]") {
                match body[..end].split_once(':') {
                    Some((name, rx)) => out.push_str(&format!("$({name}={rx})")),
                    None => out.push_str(&format!("$({})", &body[..end])),
                }
                rest = &body[end + 2..];
                continue;
            }
        }
        let c = rest.chars().next().unwrap_or(' ');
        if c == ' ' || c == '\t' {
            out.push_str("$(=[ \\t]+)");
            rest = rest.trim_start_matches([' ', '\t']);
            continue;
        }
        match c {
            '$' => out.push_str("$$"),
            c => out.push(c),
        }
        rest = &rest[c.len_utf8()..];
    }
    out.push_str("$()");
    out
}

#[cfg(test)]
mod tests {
    use super::translate;
    use filecheck::{CheckerBuilder, NO_VARIABLES};

    /// Whether the directives, translated, pass on `output` (checked by the crate itself).
    fn passes(directives: &[(&str, &str)], output: &str) -> bool {
        let mut b = CheckerBuilder::new();
        for (kind, pattern) in directives {
            b.directive(&format!("{kind}: {}", translate(pattern))).expect("a valid directive");
        }
        b.finish().check(output, NO_VARIABLES).expect("runs")
    }

    #[test]
    fn plain_text_is_a_substring() {
        let out = "/*0040*/  REDG.E.ADD.STRONG.GPU [R2.64], R5 ;\n";
        assert!(passes(&[("check", "RED")], out));
        assert!(passes(&[("check", "E.ADD.STRONG")], out));
        assert!(passes(&[("check", "/*0040*/ REDG")], out), "a space matches the two");
        assert!(!passes(&[("check", "ATOMG")], out));
        assert!(!passes(&[("not", "STRONG")], out));
        assert!(passes(&[("not", "STRONG.SYS")], out));
    }

    #[test]
    fn braces_are_regexes_and_dollars_literal() {
        let out = "LDC R0, c[0x0][0x218] ;\ncost $5\n";
        assert!(passes(&[("check", "LDC R{{[0-9]+}}, c[0x0]")], out));
        assert!(!passes(&[("check", "LDC R{{[1-9]}},")], out));
        assert!(passes(&[("check", "cost $5")], out));
    }

    #[test]
    fn variables_are_defined_and_used() {
        let out = "MOV R7, 0x1 ;\nSTG [R2], R7 ;\n";
        assert!(passes(&[("check", "MOV [[R:R[0-9]+]], 0x1"), ("nextln", "STG [R2], [[R]]")], out));
        assert!(!passes(&[("check", "MOV [[R:R[0-9]+]], 0x1"), ("nextln", "STG [R2], [[R]]0")], out));
        // A `regex:` directive's variable, used as `[[NAME]]`.
        let mut b = CheckerBuilder::new();
        b.directive("regex: REG=R[0-9]+").unwrap();
        b.directive(&format!("check: {}", translate("STG [R2], [[REG]] ;"))).unwrap();
        assert!(b.finish().check(out, NO_VARIABLES).unwrap());
    }
}
