//! Rewriting `precise-output` expectations in place (`ATOMC_TEST_BLESS=1`).
//!
//! For each function to rewrite: keep everything up to its closing `}`,
//! then a blank line, the new lines as `; line` (a bare `;` for an empty
//! line), a blank line, and drop the old expectation block (blank lines and
//! `;` comments, but not `;;` notes) up to the next real line.

use crate::testfile::TestFile;

/// The file's new text with the given functions' blocks replaced.
pub fn rewrite(file: &TestFile, rewrites: &[(usize, Vec<String>)]) -> String {
    let lines: Vec<&str> = file.source.lines().collect();
    let mut out = String::new();
    let mut next = 1; // next source line (1-based) to copy
    let mut sorted: Vec<&(usize, Vec<String>)> = rewrites.iter().collect();
    sorted.sort_by_key(|(i, _)| *i);
    for (i, new) in sorted {
        let f = &file.funcs[*i];
        while next <= f.end {
            out.push_str(lines[next - 1]);
            out.push('\n');
            next += 1;
        }
        out.push('\n');
        for l in new {
            if l.is_empty() {
                out.push_str(";\n");
            } else {
                out.push_str(&format!("; {l}\n"));
            }
        }
        while next < f.next {
            let t = lines[next - 1].trim_start();
            if t.is_empty() || (t.starts_with(';') && !t.starts_with(";;")) {
                next += 1;
            } else {
                break;
            }
        }
        if next <= lines.len() {
            out.push('\n');
        }
    }
    while next <= lines.len() {
        out.push_str(lines[next - 1]);
        out.push('\n');
        next += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewrites_front_to_back() {
        let src = "test compile precise-output\ntarget sm_90\n\nfunction %a() {\nblock0:\n    return\n}\n\n; old\n; old2\n\nfunction %b() {\nblock0:\n    return\n}\n";
        let file = TestFile::scan(src).unwrap();
        let new = rewrite(&file, &[(0, vec!["A".into(), "".into()]), (1, vec!["B".into()])]);
        assert_eq!(
            new,
            "test compile precise-output\ntarget sm_90\n\nfunction %a() {\nblock0:\n    return\n}\n\n; A\n;\n\nfunction %b() {\nblock0:\n    return\n}\n\n; B\n"
        );
        let again = TestFile::scan(&new).unwrap();
        assert_eq!(
            again.trailing_expectation(&again.funcs[0]),
            vec!["A".to_string(), "".to_string()]
        );
        assert_eq!(again.trailing_expectation(&again.funcs[1]), vec!["B".to_string()]);
    }
}
