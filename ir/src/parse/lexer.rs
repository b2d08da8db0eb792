//! The lexer: source text → tokens with positions, and the `;` comments.
//!
//! Tokens are deliberately coarse. A *word* is a run of `[A-Za-z0-9_.]`, so
//! `atomic_rmw.i32`, `thread_id.x`, `ptr.global`, `1d_array`, `v12`,
//! `block3` and `1.5` are each one word; the parser splits and classifies
//! them. The only exception is a float exponent sign (`1.5e-3`), which is
//! kept inside a word that starts with a digit. `-` and `+` are always
//! punctuation, so `v0-4` lexes as `v0`, `-`, `4`.

use crate::diagnostic::Diagnostic;
use crate::SrcLoc;

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A run of `[A-Za-z0-9_.]` (see the module doc).
    Word,
    /// `%name`; the token text excludes the `%`.
    Name,
    /// One of `( ) { } [ ] , : = + -`.
    Punct(char),
    /// `->`.
    Arrow,
}

/// One token.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Token<'a> {
    pub kind: Kind,
    pub text: &'a str,
    pub loc: SrcLoc,
    /// Byte offset of the token's first character in the source.
    pub start: usize,
    /// Byte offset just past the token.
    pub end: usize,
}

/// A `;` comment: position of the `;` and the text after it.
#[derive(Clone, Debug)]
pub(crate) struct Comment<'a> {
    pub loc: SrcLoc,
    pub text: &'a str,
}

/// The lexer's output. Characters that start no token are reported as
/// `syntax` diagnostics and skipped, so the parser still sees the rest.
pub(crate) struct Lexed<'a> {
    pub tokens: Vec<Token<'a>>,
    pub comments: Vec<Comment<'a>>,
    pub errors: Vec<Diagnostic>,
}

/// Beyond this many bad characters the rest are skipped silently.
const MAX_LEX_ERRORS: usize = 20;

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.'
}

pub(crate) fn is_name_char(c: char) -> bool {
    is_word_char(c) || c == '$' || c == '-'
}

/// Splits `src` into tokens and comments; `src` starts at line
/// `first_line` of the file.
pub(crate) fn lex(src: &str, first_line: u32) -> Lexed<'_> {
    let mut out = Lexed { tokens: Vec::new(), comments: Vec::new(), errors: Vec::new() };
    let bytes = src.as_bytes();
    let mut pos = 0usize;
    let mut line = first_line;
    let mut line_start = 0usize;
    // Columns count characters; kept incrementally so long lines stay linear.
    let (mut col_pos, mut col) = (0usize, 1u32);
    while pos < src.len() {
        let c = src[pos..].chars().next().unwrap_or('\0');
        if col_pos < line_start {
            (col_pos, col) = (line_start, 1);
        }
        let seen = u32::try_from(src[col_pos..pos].chars().count()).unwrap_or(u32::MAX);
        col = col.saturating_add(seen);
        col_pos = pos;
        let loc = SrcLoc { line, col };
        let start = pos;
        match c {
            '\n' => {
                pos += 1;
                line = line.saturating_add(1);
                line_start = pos;
            }
            c if c.is_whitespace() => pos += c.len_utf8(),
            ';' => {
                let end = src[pos..].find('\n').map_or(src.len(), |n| pos + n);
                let mut text = &src[pos + 1..end];
                text = text.strip_suffix('\r').unwrap_or(text);
                text = text.strip_prefix(' ').unwrap_or(text);
                out.comments.push(Comment { loc, text });
                pos = end;
            }
            '-' if bytes.get(pos + 1) == Some(&b'>') => {
                pos += 2;
                out.tokens.push(Token { kind: Kind::Arrow, text: "->", loc, start, end: pos });
            }
            '(' | ')' | '{' | '}' | '[' | ']' | ',' | ':' | '=' | '+' | '-' => {
                pos += 1;
                out.tokens.push(Token { kind: Kind::Punct(c), text: &src[start..pos], loc, start, end: pos });
            }
            '%' => {
                pos += 1;
                while pos < src.len() && is_name_char(bytes[pos] as char) {
                    pos += 1;
                }
                out.tokens.push(Token { kind: Kind::Name, text: &src[start + 1..pos], loc, start, end: pos });
            }
            c if is_word_char(c) => {
                let digit_start = c.is_ascii_digit();
                let hex = src[pos..].starts_with("0x") || src[pos..].starts_with("0X");
                while pos < src.len() {
                    let b = bytes[pos] as char;
                    // `1.5e-3`: an exponent sign stays inside the number.
                    let exponent_sign = digit_start
                        && !hex
                        && (b == '-' || b == '+')
                        && matches!(bytes[pos - 1], b'e' | b'E')
                        && bytes.get(pos + 1).is_some_and(u8::is_ascii_digit);
                    if !is_word_char(b) && !exponent_sign {
                        break;
                    }
                    pos += 1;
                }
                out.tokens.push(Token { kind: Kind::Word, text: &src[start..pos], loc, start, end: pos });
            }
            other => {
                pos += other.len_utf8();
                if out.errors.len() >= MAX_LEX_ERRORS {
                    continue;
                }
                out.errors.push(Diagnostic { inst: None, loc, rule: "syntax", message: format!("unexpected character {other:?}") });
            }
        }
    }
    out
}
