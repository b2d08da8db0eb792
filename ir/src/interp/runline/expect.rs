//! Parsing the checks after `=>`. Their expected values are typed by the
//! declaration they name, which may come later on the line, so the tokens
//! are kept and parsed once every declaration is known.

use super::lex::Tok;
use super::literal::Elem;
use super::parse::{perr, PResult, Parser};
use super::{Check, CheckMode, Decl, Expected};
use crate::interp::float::FKind;

impl Parser<'_> {
    /// After `=>`: `check, check, ..`.
    pub(super) fn checks(
        &mut self,
        out: &mut Vec<(String, usize, RawCheck)>,
        error: &mut Option<String>,
    ) -> PResult<()> {
        while self.peek().is_some() {
            if self.eat(",") {
                continue;
            }
            let col = self.col();
            if self.is_ident("error") {
                self.pos += 1;
                match self.next() {
                    Some(Tok::Str(s)) => *error = Some(s),
                    _ => return Err(perr(col, "expected `error \"text the error contains\"`")),
                }
                continue;
            }
            let name = self.ident("a buffer name or `error`")?;
            let mut range = None;
            if self.eat("[") {
                let a = self.number("index")? as usize;
                let b = if self.eat("..") {
                    self.number("index")? as usize
                } else {
                    a + 1
                };
                self.expect("]")?;
                range = Some((a, b, col));
            }
            let mode_col = self.col();
            let mode = if self.is_ident("sorted") {
                self.pos += 1;
                CheckMode::Sorted
            } else if self.is_ident("as") {
                self.pos += 1;
                let w = self.ident("`set`")?;
                if w != "set" {
                    return Err(perr(mode_col, "expected `as set`"));
                }
                CheckMode::Set
            } else if self.is_ident("sum") {
                self.pos += 1;
                CheckMode::Sum
            } else if self.is_ident("all") {
                self.pos += 1;
                CheckMode::All
            } else {
                CheckMode::Exact
            };
            let equal = self.comparison()?;
            // The expected values are typed by the declaration, which may
            // come later on the line: keep the tokens and parse them then.
            let start = self.pos;
            self.skip_expected()?;
            out.push((
                name,
                col,
                RawCheck {
                    range,
                    mode,
                    equal,
                    tokens: (start, self.pos),
                },
            ));
        }
        Ok(())
    }

    /// Skips one expected-value operand: a bracketed list, `iota` or a
    /// (possibly negated) literal or lane pair.
    fn skip_expected(&mut self) -> PResult<()> {
        if self.eat("-") {
            // Negative literal.
        }
        match self.next() {
            Some(Tok::Punct(open)) if open == "[" || open == "{" || open == "(" => {
                let close = match open { "[" => "]", "{" => "}", _ => ")" };
                let mut depth = 1;
                while depth > 0 {
                    match self.next() {
                        None => {
                            return self
                                .err(format!("expected `{close}`, found the end of the line"))
                        }
                        Some(Tok::Punct(p)) if p == "[" || p == "{" || p == "(" => depth += 1,
                        Some(Tok::Punct(p)) if p == "]" || p == "}" || p == ")" => depth -= 1,
                        _ => {}
                    }
                }
                Ok(())
            }
            Some(Tok::Num(_)) | Some(Tok::Ident(_)) => Ok(()),
            _ => {
                self.pos -= 1;
                self.err(format!("expected the expected values{}", self.found()))
            }
        }
    }

    pub(super) fn finish_check(
        &mut self,
        decl: usize,
        d: &Decl,
        col: usize,
        raw: RawCheck,
    ) -> PResult<Check> {
        let n = d.init.len();
        let range = match raw.range {
            Some((a, b, rcol)) => {
                if a >= b || b > n {
                    return Err(perr(
                        rcol,
                        format!("range {a}..{b} is outside `{}` ({n} elements)", d.name),
                    ));
                }
                (a, b)
            }
            None => (0, n),
        };
        let saved = self.pos;
        self.pos = raw.tokens.0;
        let ty = d.elem.ty;
        let expected = if self.is_ident("iota") {
            self.pos += 1;
            Expected::List(
                (0..(range.1 - range.0) as u64)
                    .map(|i| {
                        iota(d.elem, i).ok_or_else(|| {
                            perr(col, "`iota` needs an integer or float element type")
                        })
                    })
                    .collect::<PResult<_>>()?,
            )
        } else if self.is("[") {
            Expected::List(self.list(ty, "]")?)
        } else if self.is("{") {
            Expected::List(self.list(ty, "}")?)
        } else {
            Expected::Scalar(self.value(ty)?)
        };
        self.pos = saved;
        let scalar = matches!(expected, Expected::Scalar(_));
        let ok = match raw.mode {
            CheckMode::Sum => scalar && ty.is_int(),
            CheckMode::All => scalar,
            // `buf[i] == x` compares one element.
            CheckMode::Exact => !scalar || range.1 - range.0 == 1,
            CheckMode::Sorted | CheckMode::Set => !scalar,
        };
        if !ok {
            return Err(perr(col, match raw.mode {
                CheckMode::Sum => "`sum` takes one integer value and an integer buffer",
                CheckMode::All => "`all ==` takes one value",
                CheckMode::Exact => "compare a list `[..]` (or index one element: `buf[3] == x`, or use `all ==`)",
                _ => "`sorted` and `as set` take a list",
            }));
        }
        Ok(Check {
            decl,
            range,
            mode: raw.mode,
            equal: raw.equal,
            expected,
            indexed: raw.range.is_some(),
        })
    }
}

/// A check whose expected values are still tokens.
pub(super) struct RawCheck {
    range: Option<(usize, usize, usize)>,
    mode: CheckMode,
    equal: bool,
    tokens: (usize, usize),
}

/// Element `i` of `iota` for an element type.
pub(super) fn iota(elem: Elem, i: u64) -> Option<u64> {
    if elem.ty.is_int() {
        return Some(crate::interp::decode::mask(i, elem.ty.bits()));
    }
    if elem.ty.is_float() {
        return FKind::of(elem.ty).map(|k| k.round_from_f64(i as f64));
    }
    None
}
