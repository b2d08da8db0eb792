//! The shape of a filetest: header lines, functions (as line ranges of the
//! source) and the `;` comments that carry the expectations.
//!
//! ```text
//! test verify                 ; header: one or more `test NAME [OPTIONS]`
//! test compile precise-output
//! target sm_90                ; header: `target NAME [platform=P]`
//! ; comments here are preamble comments (filecheck lines apply to every function)
//!
//! function %k(ptr.global) {   ; a function starts at a line beginning `function`
//! block0(v0: ptr.global):
//!     return                  ; trailing comments belong to this line
//! }                           ; and ends at the first line that is `}`
//! ; comments after `}` (up to the next function) belong to this function
//! ```
//!
//! The runner scans this structure itself, line by line, so that the
//! expectations stay independent of how the IR parser treats comments.

/// A `;` comment in the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    /// 1-based line.
    pub line: usize,
    /// The text after the `;` (or `;;`), trimmed.
    pub text: String,
    /// The comment is the only thing on its line.
    pub standalone: bool,
    /// A `;;` comment: a note for people, ignored by every expectation.
    pub note: bool,
}

/// A `test NAME [OPTIONS..]` header line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestCommand {
    /// 1-based line.
    pub line: usize,
    /// `verify`, `print`, `interpret`, `legalize`, `compile`.
    pub name: String,
    /// Words after the name: flags (`precise-output`) or `key=value`.
    pub options: Vec<String>,
}

impl TestCommand {
    /// Whether the flag `name` was given.
    pub fn has_flag(&self, name: &str) -> bool {
        self.options.iter().any(|o| o == name)
    }

    /// The value of `key=value`, if given.
    pub fn option(&self, key: &str) -> Option<&str> {
        self.options.iter().find_map(|o| o.strip_prefix(key)?.strip_prefix('='))
    }
}

/// A `target NAME [platform=P]` header line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetLine {
    /// 1-based line.
    pub line: usize,
    /// The target as the backend names it: `sm_50`, `sm_90`, `visa` or
    /// `visa:DG2` (`target visa platform=DG2` is spelled that way).
    pub name: String,
}

/// Where one function lies in the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FuncRange {
    /// The function's name (without `%`), as far as the scan can tell.
    pub name: String,
    /// 1-based line of `function`.
    pub start: usize,
    /// 1-based line of the closing `}` (or the last line before the next
    /// function when there is none; the parser reports that).
    pub end: usize,
    /// 1-based line just past the function's trailing comments: the next
    /// function's first line, or one past the end of the file.
    pub next: usize,
}

/// A scanned filetest.
#[derive(Clone, Debug)]
pub struct TestFile {
    /// The source text.
    pub source: String,
    /// The `test` lines, in order.
    pub tests: Vec<TestCommand>,
    /// The `target` lines, in order.
    pub targets: Vec<TargetLine>,
    /// Every comment in the file, in order (preamble comments included).
    pub comments: Vec<Comment>,
    /// The functions, in order.
    pub funcs: Vec<FuncRange>,
}

/// Splits a source line into code and comment (`;` starts a comment; the IR
/// text has no other use for it).
pub fn split_comment(line: &str) -> (&str, Option<&str>) {
    match line.find(';') {
        Some(i) => (&line[..i], Some(&line[i..])),
        None => (line, None),
    }
}

impl TestFile {
    /// Scans `source`. Errors name the line of a header that is not
    /// understood.
    pub fn scan(source: &str) -> Result<TestFile, String> {
        let mut file = TestFile {
            source: source.to_string(),
            tests: Vec::new(),
            targets: Vec::new(),
            comments: Vec::new(),
            funcs: Vec::new(),
        };
        let lines: Vec<&str> = source.lines().collect();
        let mut in_header = true;
        for (i, raw) in lines.iter().enumerate() {
            let line = i + 1;
            let (code, comment) = split_comment(raw);
            if let Some(c) = comment {
                let note = c.starts_with(";;");
                let text = c.trim_start_matches(';').trim().to_string();
                file.comments.push(Comment {
                    line,
                    text,
                    standalone: code.trim().is_empty(),
                    note,
                });
            }
            let code = code.trim();
            if code.starts_with("function") && raw.starts_with("function") {
                in_header = false;
                if let Some(prev) = file.funcs.last_mut() {
                    prev.next = line;
                }
                let name = code
                    .split('%')
                    .nth(1)
                    .map(|s| s.split(|c: char| c == '(' || c.is_whitespace()).next().unwrap_or(""))
                    .unwrap_or("")
                    .to_string();
                file.funcs.push(FuncRange {
                    name,
                    start: line,
                    end: 0,
                    next: lines.len() + 1,
                });
                continue;
            }
            if in_header {
                if !code.is_empty() {
                    file.header_line(line, code)?;
                }
                continue;
            }
            if code == "}" {
                if let Some(f) = file.funcs.last_mut() {
                    if f.end == 0 {
                        f.end = line;
                    }
                }
            }
        }
        for f in &mut file.funcs {
            if f.end == 0 {
                f.end = f.next - 1;
            }
        }
        Ok(file)
    }

    fn header_line(&mut self, line: usize, code: &str) -> Result<(), String> {
        let mut words = code.split_whitespace();
        match words.next() {
            Some("test") => {
                let name = words.next().ok_or(format!("line {line}: `test` needs a test name"))?;
                self.tests.push(TestCommand {
                    line,
                    name: name.to_string(),
                    options: words.map(str::to_string).collect(),
                });
            }
            Some("target") => {
                let name = words
                    .next()
                    .ok_or(format!("line {line}: `target` needs a target name"))?;
                let mut full = name.to_string();
                for w in words {
                    match w.strip_prefix("platform=") {
                        Some(p) => full = format!("{name}:{p}"),
                        None => return Err(format!("line {line}: unknown target option `{w}`")),
                    }
                }
                self.targets.push(TargetLine { line, name: full });
            }
            _ => {
                return Err(format!(
                    "line {line}: expected `test ...` or `target ...` before the first function, found `{code}`"
                ))
            }
        }
        Ok(())
    }

    /// The comments before the first function.
    pub fn preamble(&self) -> impl Iterator<Item = &Comment> {
        let first = self.funcs.first().map(|f| f.start).unwrap_or(usize::MAX);
        self.comments.iter().filter(move |c| c.line < first)
    }

    /// The comments that belong to function `f`: inside it and after its
    /// closing brace, up to the next function.
    pub fn func_comments<'a>(&'a self, f: &'a FuncRange) -> impl Iterator<Item = &'a Comment> {
        self.comments
            .iter()
            .filter(move |c| c.line >= f.start && c.line < f.next)
    }

    /// The source lines `start..=end` of function `f`, each with its newline.
    pub fn func_text(&self, f: &FuncRange) -> String {
        let mut out = String::new();
        for l in self.source.lines().skip(f.start - 1).take(f.end + 1 - f.start) {
            out.push_str(l);
            out.push('\n');
        }
        out
    }

    /// The function's text with comments removed: comment-only lines are
    /// dropped, trailing comments and the spaces before them are cut.
    pub fn func_code(&self, f: &FuncRange) -> String {
        let mut out = String::new();
        for l in self.source.lines().skip(f.start - 1).take(f.end + 1 - f.start) {
            let (code, comment) = split_comment(l);
            if comment.is_some() {
                if code.trim().is_empty() {
                    continue;
                }
                out.push_str(code.trim_end());
            } else {
                out.push_str(l);
            }
            out.push('\n');
        }
        out
    }

    /// The line of code a comment refers to: its own line for a trailing
    /// comment; for a standalone comment inside a function, the nearest code
    /// line above it; `None` for a comment after the function's `}`.
    pub fn anchor(&self, f: &FuncRange, c: &Comment) -> Option<usize> {
        if c.line > f.end {
            return None;
        }
        if !c.standalone {
            return Some(c.line);
        }
        let lines: Vec<&str> = self.source.lines().collect();
        (f.start..c.line)
            .rev()
            .find(|&l| !split_comment(lines[l - 1]).0.trim().is_empty())
    }

    /// The expectation block of `precise-output`: the non-note comment lines
    /// right after the function's `}` (with `; ` stripped).
    pub fn trailing_expectation(&self, f: &FuncRange) -> Vec<String> {
        let lines: Vec<&str> = self.source.lines().collect();
        let mut out = Vec::new();
        for l in f.end + 1..f.next {
            let raw = lines[l - 1];
            let t = raw.trim_start();
            if t.is_empty() {
                if out.is_empty() {
                    continue;
                }
                break;
            }
            if t.starts_with(";;") || !t.starts_with(';') {
                break;
            }
            let body = &t[1..];
            out.push(body.strip_prefix(' ').unwrap_or(body).to_string());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "test verify\ntarget sm_90 \n; pre\n\nfunction %a(i32) {\nblock0(v0: i32):\n    return ; error: x\n; standalone\n}\n; after\n\nfunction %b() {\nblock0:\n    return\n}\n";

    #[test]
    fn scans_headers_functions_and_comments() {
        let f = TestFile::scan(SRC).unwrap();
        assert_eq!(f.tests[0].name, "verify");
        assert_eq!(f.targets[0].name, "sm_90");
        assert_eq!(f.funcs.len(), 2);
        assert_eq!((f.funcs[0].start, f.funcs[0].end, f.funcs[0].next), (5, 9, 12));
        assert_eq!(f.funcs[0].name, "a");
        assert_eq!(f.preamble().count(), 1);
        let cs: Vec<_> = f.func_comments(&f.funcs[0]).collect();
        assert_eq!(cs.len(), 3);
        assert_eq!(f.anchor(&f.funcs[0], cs[0]), Some(7));
        assert_eq!(f.anchor(&f.funcs[0], cs[1]), Some(7));
        assert_eq!(f.anchor(&f.funcs[0], cs[2]), None);
        assert_eq!(
            f.func_code(&f.funcs[0]),
            "function %a(i32) {\nblock0(v0: i32):\n    return\n}\n"
        );
        assert_eq!(f.trailing_expectation(&f.funcs[0]), vec!["after".to_string()]);
    }

    #[test]
    fn rejects_unknown_headers() {
        assert!(TestFile::scan("tset verify\n").is_err());
        assert!(TestFile::scan("target sm_90 fast\n").is_err());
    }
}
