//! Tokens of a run line, each with its 1-based column.

/// A token.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Tok {
    /// A name or keyword: `[A-Za-z_][A-Za-z0-9_]*`.
    Ident(String),
    /// `%name`.
    Func(String),
    /// A number as written (`12`, `-` is separate, `0x1f`, `1.5e-3`, `16x4`).
    Num(String),
    /// A double-quoted string (no escapes but `\"` and `\\`).
    Str(String),
    /// Punctuation: `=> == != .. ( ) [ ] { } , : = + -`.
    Punct(&'static str),
}

/// A token and where it starts.
#[derive(Clone, Debug)]
pub(super) struct Token {
    pub tok: Tok,
    pub col: usize,
}

const PUNCT: [&str; 15] = [
    "=>", "==", "!=", "..", "(", ")", "[", "]", "{", "}", ",", ":", "=", "+", "-",
];

/// Splits `line` into tokens; `Err((col, msg))` on a character that starts
/// no token.
pub(super) fn lex(line: &str) -> Result<Vec<Token>, (usize, String)> {
    let chars: Vec<char> = line.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let col = i + 1;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c.is_ascii_alphabetic() || c == '_' || c == '%' {
            let start = if c == '%' { i + 1 } else { i };
            let mut j = start;
            while j < chars.len() && (chars[j].is_ascii_alphanumeric() || chars[j] == '_') {
                j += 1;
            }
            let word: String = chars[start..j].iter().collect();
            if c == '%' {
                if word.is_empty() {
                    return Err((col, "expected a function name after `%`".into()));
                }
                out.push(Token {
                    tok: Tok::Func(word),
                    col,
                });
            } else {
                out.push(Token {
                    tok: Tok::Ident(word),
                    col,
                });
            }
            i = j;
            continue;
        }
        if c.is_ascii_digit() {
            let hex = c == '0' && chars.get(i + 1).is_some_and(|&x| x == 'x' || x == 'X');
            let mut j = i;
            while j < chars.len() {
                let d = chars[j];
                let exp_sign = (d == '+' || d == '-')
                    && j > i
                    && if hex {
                        matches!(chars[j - 1], 'p' | 'P')
                    } else {
                        matches!(chars[j - 1], 'e' | 'E')
                    };
                let dot = d == '.' && chars.get(j + 1) != Some(&'.');
                if d.is_ascii_alphanumeric() || d == '_' || dot || exp_sign {
                    j += 1;
                } else {
                    break;
                }
            }
            out.push(Token {
                tok: Tok::Num(chars[i..j].iter().collect()),
                col,
            });
            i = j;
            continue;
        }
        if c == '"' {
            let mut s = String::new();
            let mut j = i + 1;
            loop {
                match chars.get(j) {
                    None => return Err((col, "unterminated string".into())),
                    Some('"') => break,
                    Some('\\') if matches!(chars.get(j + 1), Some('"') | Some('\\')) => {
                        s.push(chars[j + 1]);
                        j += 2;
                    }
                    Some(&ch) => {
                        s.push(ch);
                        j += 1;
                    }
                }
            }
            out.push(Token {
                tok: Tok::Str(s),
                col,
            });
            i = j + 1;
            continue;
        }
        let rest: String = chars[i..chars.len().min(i + 2)].iter().collect();
        match PUNCT.iter().find(|p| rest.starts_with(**p)) {
            Some(p) => {
                out.push(Token {
                    tok: Tok::Punct(p),
                    col,
                });
                i += p.len();
            }
            None => return Err((col, format!("unexpected character `{c}`"))),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        lex(s).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn numbers_keep_exponents_and_stop_at_ranges() {
        assert_eq!(toks("1e-3"), [Tok::Num("1e-3".into())]);
        assert_eq!(toks("0x1.8p-3"), [Tok::Num("0x1.8p-3".into())]);
        assert_eq!(
            toks("0x1e-3"),
            [
                Tok::Num("0x1e".into()),
                Tok::Punct("-"),
                Tok::Num("3".into())
            ]
        );
        assert_eq!(
            toks("1..3"),
            [Tok::Num("1".into()), Tok::Punct(".."), Tok::Num("3".into())]
        );
        assert_eq!(toks("16x16"), [Tok::Num("16x16".into())]);
    }

    #[test]
    fn columns_are_one_based() {
        let t = lex("  %f(b) => \"x\\\"y\"").unwrap();
        assert_eq!(t[0].col, 3);
        assert_eq!(t[0].tok, Tok::Func("f".into()));
        assert_eq!(t.last().unwrap().tok, Tok::Str("x\"y".into()));
        assert_eq!(lex("a # b").unwrap_err().0, 3);
    }
}
