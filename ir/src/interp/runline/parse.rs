//! The run-line parser: tokens → [`RunSpec`]. The grammar is in the
//! module doc of [`super`].

use super::expect::iota;
use super::lex::{lex, Tok, Token};
use super::literal::{float_bits, int_bits, int_magnitude, Elem};
use super::{Decl, DeclKind, RunLineError, RunSpec};
use crate::interp::float::FKind;
use crate::interp::memory::{GLOBAL_BASE, SURFACE_HANDLE_BASE};
use crate::interp::sched::{Dim3, DEFAULT_STEP_LIMIT};
use crate::interp::value::DataValue;
use crate::{AddrSpace, Function, Type};

/// The most elements one declaration may have.
const MAX_ELEMS: u64 = 1 << 24;

pub(super) type PResult<T> = Result<T, RunLineError>;

/// An argument before declarations are resolved: a name and its column.
enum RawArg {
    Value(DataValue),
    Name {
        name: String,
        offset: i64,
        col: usize,
        ty: Type,
    },
}

pub(super) struct Parser<'a> {
    pub(super) func: &'a Function,
    pub(super) toks: Vec<Token>,
    pub(super) pos: usize,
    pub(super) end: usize,
}

/// Parses a run line for `func`.
pub(super) fn parse(func: &Function, line: &str) -> PResult<RunSpec> {
    // Tolerate the comment prefix: `; run:` or `run:`.
    let mut start = 0;
    let trimmed = line.trim_start();
    let lead = line.len() - trimmed.len();
    let mut rest = trimmed;
    if let Some(r) = rest.strip_prefix(';') {
        rest = r.trim_start();
    }
    if let Some(r) = rest.strip_prefix("run:") {
        start = lead + (trimmed.len() - r.len());
    }
    let toks = lex(&line[start..]).map_err(|(col, msg)| perr(col + col_of(line, start), msg))?;
    let toks = toks
        .into_iter()
        .map(|t| Token {
            col: t.col + col_of(line, start),
            ..t
        })
        .collect();
    let end = line.chars().count() + 1;
    Parser {
        func,
        toks,
        pos: 0,
        end,
    }
    .run_line()
}

/// Characters before byte `start` of `line`.
fn col_of(line: &str, start: usize) -> usize {
    line[..start].chars().count()
}

pub(super) fn perr(col: usize, msg: impl Into<String>) -> RunLineError {
    RunLineError::Parse {
        col,
        msg: msg.into(),
    }
}

impl Parser<'_> {
    pub(super) fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.tok)
    }

    pub(super) fn peek_at(&self, n: usize) -> Option<&Tok> {
        self.toks.get(self.pos + n).map(|t| &t.tok)
    }

    pub(super) fn col(&self) -> usize {
        self.toks.get(self.pos).map_or(self.end, |t| t.col)
    }

    pub(super) fn err<T>(&self, msg: impl Into<String>) -> PResult<T> {
        Err(perr(self.col(), msg))
    }

    pub(super) fn next(&mut self) -> Option<Tok> {
        let t = self.toks.get(self.pos).map(|t| t.tok.clone());
        self.pos += 1;
        t
    }

    pub(super) fn is(&self, p: &str) -> bool {
        matches!(self.peek(), Some(Tok::Punct(q)) if *q == p)
    }

    pub(super) fn eat(&mut self, p: &str) -> bool {
        let yes = self.is(p);
        if yes {
            self.pos += 1;
        }
        yes
    }

    pub(super) fn expect(&mut self, p: &str) -> PResult<()> {
        if self.eat(p) {
            Ok(())
        } else {
            self.err(format!("expected `{p}`{}", self.found()))
        }
    }

    /// `==` (true) or `!=` (false) before expected values; a lone `=` is taken for a typo of
    /// `==` and said so.
    pub(super) fn comparison(&mut self) -> PResult<bool> {
        if self.eat("==") {
            return Ok(true);
        }
        if self.eat("!=") {
            return Ok(false);
        }
        let hint = match self.peek() {
            Some(Tok::Punct(p)) if *p == "=" => " (did you mean `==`?)",
            _ => "",
        };
        self.err(format!("expected `==` or `!=`{}{hint}", self.found()))
    }

    pub(super) fn found(&self) -> String {
        match self.peek() {
            None => ", found the end of the line".into(),
            Some(Tok::Ident(s)) | Some(Tok::Num(s)) => format!(", found `{s}`"),
            Some(Tok::Func(s)) => format!(", found `%{s}`"),
            Some(Tok::Str(s)) => format!(", found \"{s}\""),
            Some(Tok::Punct(p)) => format!(", found `{p}`"),
        }
    }

    pub(super) fn ident(&mut self, what: &str) -> PResult<String> {
        match self.peek() {
            Some(Tok::Ident(s)) => {
                let s = s.clone();
                self.pos += 1;
                Ok(s)
            }
            _ => self.err(format!("expected {what}{}", self.found())),
        }
    }

    pub(super) fn is_ident(&self, word: &str) -> bool {
        matches!(self.peek(), Some(Tok::Ident(s)) if s == word)
    }

    pub(super) fn number(&mut self, what: &str) -> PResult<u64> {
        let col = self.col();
        match self.next() {
            Some(Tok::Num(s)) => int_magnitude(&s)
                .and_then(|m| u64::try_from(m).ok())
                .ok_or_else(|| perr(col, format!("`{s}` is not a {what}"))),
            _ => {
                self.pos -= 1;
                self.err(format!("expected {what}{}", self.found()))
            }
        }
    }

    /// `N`, `NxM` or `NxMxK`, each at least 1.
    fn dims(&mut self, what: &str) -> PResult<[u32; 3]> {
        let col = self.col();
        let Some(Tok::Num(s)) = self.next() else {
            self.pos -= 1;
            return self.err(format!(
                "expected {what} like `256` or `16x16`{}",
                self.found()
            ));
        };
        let parts: Vec<&str> = s.split(['x', 'X']).collect();
        let bad = || {
            perr(
                col,
                format!("`{s}` is not {what} like `256`, `16x16` or `8x8x4`"),
            )
        };
        if parts.len() > 3 || s.starts_with("0x") {
            return Err(bad());
        }
        let mut d = [1u32; 3];
        for (i, p) in parts.iter().enumerate() {
            d[i] = p.parse::<u32>().ok().filter(|&n| n > 0).ok_or_else(bad)?;
        }
        Ok(d)
    }

    fn run_line(mut self) -> PResult<RunSpec> {
        let mut spec = RunSpec {
            grid: Dim3::x(1),
            block: Dim3::x(1),
            shared_bytes: 0,
            step_limit: DEFAULT_STEP_LIMIT,
            subgroup_size: crate::interp::DEFAULT_SUBGROUP_SIZE,
            decls: Vec::new(),
            args: Vec::new(),
            call: None,
            checks: Vec::new(),
            expect_error: None,
        };
        let mut raw_args: Option<(Vec<RawArg>, usize)> = None;
        let mut raw_checks = Vec::new();
        while let Some(tok) = self.peek().cloned() {
            let col = self.col();
            match tok {
                Tok::Punct(",") => self.pos += 1,
                Tok::Punct("=>") => {
                    self.pos += 1;
                    self.checks(&mut raw_checks, &mut spec.expect_error)?;
                    break;
                }
                Tok::Ident(name) if matches!(self.peek_at(1), Some(Tok::Punct(":"))) => {
                    self.pos += 2;
                    if spec.decls.iter().any(|d| d.name == name) {
                        return Err(perr(col, format!("`{name}` is declared twice")));
                    }
                    let decl = self.decl(name)?;
                    spec.decls.push(decl);
                }
                Tok::Ident(kw) if kw == "grid" || kw == "block" => {
                    self.pos += 1;
                    let [x, y, z] = self.dims(&format!("a {kw} size"))?;
                    let d = Dim3::new(x, y, z);
                    if kw == "grid" {
                        spec.grid = d;
                    } else {
                        spec.block = d;
                    }
                }
                Tok::Ident(kw) if kw == "shared" => {
                    self.pos += 1;
                    let n = self.number("byte count")?;
                    spec.shared_bytes = u32::try_from(n).map_err(|_| perr(col, "shared size too large"))?;
                }
                Tok::Ident(kw) if kw == "subgroup" => {
                    self.pos += 1;
                    let n = self.number("subgroup size")?;
                    spec.subgroup_size = u32::try_from(n)
                        .ok()
                        .filter(|n| (1..=32).contains(n) && n.is_power_of_two())
                        .ok_or_else(|| perr(col, "the subgroup size is a power of two from 1 to 32"))?;
                }
                Tok::Ident(kw) if kw == "steps" => {
                    self.pos += 1;
                    spec.step_limit = self.number("step limit")?;
                }
                Tok::Ident(kw) if kw == "args" => {
                    self.pos += 1;
                    if raw_args.is_some() {
                        return Err(perr(col, "the arguments are given twice"));
                    }
                    raw_args = Some((self.arg_list()?, col));
                }
                Tok::Func(name) => {
                    self.pos += 1;
                    if name != self.func.name {
                        return Err(perr(col, format!("this run line is for %{}, not %{name}", self.func.name)));
                    }
                    if raw_args.is_some() {
                        return Err(perr(col, "the arguments are given twice"));
                    }
                    raw_args = Some((self.arg_list()?, col));
                    if self.is("==") || self.is("!=") {
                        spec.call = Some(self.call_expect()?);
                    }
                }
                _ => {
                    return self.err(format!(
                        "expected `grid`, `block`, `shared`, `subgroup`, `steps`, `args(..)`, `%{}(..)`, a declaration `name: type[n] = ..` or `=>`{}",
                        self.func.name,
                        self.found()
                    ))
                }
            }
        }
        let params = self.func.params();
        let (raw, col) = raw_args.unwrap_or((Vec::new(), self.end));
        if raw.len() != params.len() {
            return Err(perr(
                col,
                format!(
                    "%{} takes {} arguments, {} given",
                    self.func.name,
                    params.len(),
                    raw.len()
                ),
            ));
        }
        spec.args = raw
            .into_iter()
            .map(|a| resolve_arg(a, &spec.decls))
            .collect::<PResult<_>>()?;
        for (name, col, check) in raw_checks {
            let decl = spec
                .decls
                .iter()
                .position(|d| d.name == name)
                .ok_or_else(|| perr(col, format!("`{name}` is not declared on this line")))?;
            spec.checks
                .push(self.finish_check(decl, &spec.decls[decl], col, check)?);
        }
        if spec.call.is_some() && (spec.grid.count() != 1 || spec.block.count() != 1) {
            return Err(perr(1, "comparing results needs grid 1 block 1"));
        }
        Ok(spec)
    }

    /// `( arg, .. )`, each typed by the function's parameter at its place.
    fn arg_list(&mut self) -> PResult<Vec<RawArg>> {
        self.expect("(")?;
        let params = self.func.params();
        let mut out = Vec::new();
        if self.eat(")") {
            return Ok(out);
        }
        loop {
            let Some(&ty) = params.get(out.len()) else {
                return self.err(format!(
                    "%{} takes only {} arguments",
                    self.func.name,
                    params.len()
                ));
            };
            out.push(self.arg(ty)?);
            if self.eat(")") {
                return Ok(out);
            }
            self.expect(",")?;
        }
    }

    fn arg(&mut self, ty: Type) -> PResult<RawArg> {
        let col = self.col();
        let named = matches!(self.peek(), Some(Tok::Ident(s)) if !is_float_word(s) && s != "true" && s != "false");
        if named && matches!(ty, Type::Ptr(_) | Type::Surface) {
            let name = self.ident("a buffer name")?;
            let mut offset = 0i64;
            if self.is("+") || self.is("-") {
                let neg = self.eat("-");
                if !neg {
                    self.pos += 1;
                }
                let n = self.number("byte offset")? as i64;
                offset = if neg { -n } else { n };
            }
            return Ok(RawArg::Name {
                name,
                offset,
                col,
                ty,
            });
        }
        let bits = match ty {
            Type::Ptr(_) | Type::Surface => self.int_lit(ty.bits())?,
            _ => self.value(ty)?,
        };
        Ok(RawArg::Value(DataValue::from_bits(ty, bits)))
    }

    /// `== r` / `!= r` / `== [r, ..]` after a call.
    fn call_expect(&mut self) -> PResult<(bool, Vec<DataValue>)> {
        let equal = self.comparison()?;
        let rets = self.func.returns.clone();
        let mut out = Vec::new();
        let bracket = rets.len() != 1 || (self.is("[") && !rets[0].is_packed_float());
        if bracket {
            self.expect("[")?;
        }
        for (i, &ty) in rets.iter().enumerate() {
            if i > 0 {
                self.expect(",")?;
            }
            out.push(DataValue::from_bits(ty, self.value(ty)?));
        }
        if bracket {
            self.expect("]")?;
        }
        if rets.is_empty() {
            return self.err("the function returns nothing to compare");
        }
        Ok((equal, out))
    }

    /// A value literal of type `ty` (not a pointer).
    pub(super) fn value(&mut self, ty: Type) -> PResult<u64> {
        match ty {
            Type::Pred => match self.ident("`true` or `false`")?.as_str() {
                "true" => Ok(1),
                "false" => Ok(0),
                other => Err(perr(
                    self.col() - 1,
                    format!("`{other}` is not `true` or `false`"),
                )),
            },
            Type::F16x2 | Type::BF16x2 => {
                // `(lo, hi)` reads the same in every position; `[lo hi]` is the older spelling,
                // which a list or a fill of packed values cannot use.
                let close = if self.eat("(") {
                    ")"
                } else if self.eat("[") {
                    "]"
                } else {
                    return self.int_lit(32).map_err(|e| match e {
                        RunLineError::Parse { col, msg } => {
                            perr(col, format!("{msg}: a packed {ty} value is `(lo, hi)` or its 32 bits"))
                        }
                        e => e,
                    });
                };
                let k = FKind::of(ty).unwrap_or(FKind::F16);
                let lo = self.float_lit(k)?;
                self.eat(",");
                let hi = self.float_lit(k)?;
                self.expect(close)?;
                Ok(lo | (hi << 16))
            }
            t if t.is_float() => self.float_lit(FKind::of(t).unwrap_or(FKind::F64)),
            t => self.int_lit(t.bits()),
        }
    }

    pub(super) fn int_lit(&mut self, bits: u32) -> PResult<u64> {
        let neg = self.sign();
        let col = self.col();
        match self.next() {
            Some(Tok::Num(s)) => int_bits(&s, neg, bits).map_err(|m| perr(col, m)),
            _ => {
                self.pos -= 1;
                self.err(format!("expected an integer{}", self.found()))
            }
        }
    }

    /// An optional sign: `-` (true) or `+` (false, as Cranelift writes).
    fn sign(&mut self) -> bool {
        if self.eat("+") {
            return false;
        }
        self.eat("-")
    }

    pub(super) fn float_lit(&mut self, k: FKind) -> PResult<u64> {
        let neg = self.sign();
        let col = self.col();
        match self.next() {
            Some(Tok::Num(s)) => float_bits(k, &s, neg).map_err(|m| perr(col, m)),
            Some(Tok::Ident(s)) if is_float_word(&s) => {
                float_bits(k, &s.to_ascii_lowercase(), neg).map_err(|m| perr(col, m))
            }
            _ => {
                self.pos -= 1;
                self.err(format!(
                    "expected a float (`1.5`, `-0.0`, `inf`, `nan`, `0x7fc00000`){}",
                    self.found()
                ))
            }
        }
    }

    /// After `name :`: `[surface] elem [dims] [slot N] [= init]`.
    fn decl(&mut self, name: String) -> PResult<Decl> {
        let surface = self.is_ident("surface");
        if surface {
            self.pos += 1;
        }
        let col = self.col();
        let ename = self.ident("an element type (i32, u32, f32, f16x2, ...)")?;
        let elem = Elem::from_name(&ename)
            .ok_or_else(|| perr(col, format!("`{ename}` is not an element type")))?;
        self.expect("[")?;
        let dims = if self.is("]") {
            None
        } else {
            let d = self.dims("a size")?;
            if !surface && (d[1] != 1 || d[2] != 1) {
                return Err(perr(
                    col,
                    "a buffer has one dimension; use a surface for 2-D or 3-D data",
                ));
            }
            Some(d)
        };
        self.expect("]")?;
        let mut slot = None;
        if surface && self.is_ident("slot") {
            self.pos += 1;
            let n = self.number("slot number")?;
            slot = Some(u16::try_from(n).map_err(|_| perr(self.col(), "slot number too large"))?);
        }
        let count = dims.map(|d| d.iter().map(|&x| x as u64).product::<u64>());
        if count.is_some_and(|c| c > MAX_ELEMS) {
            return Err(perr(
                col,
                format!("at most {MAX_ELEMS} elements per declaration"),
            ));
        }
        let init_col = self.col();
        let init = if self.eat("=") {
            self.init(elem, count)?
        } else {
            vec![0; count.unwrap_or(0) as usize]
        };
        let count = count.unwrap_or(init.len() as u64);
        if init.len() as u64 != count {
            return Err(perr(
                init_col,
                format!("{} values for {count} elements", init.len()),
            ));
        }
        let kind = if surface {
            let d = dims.unwrap_or([count as u32, 1, 1]);
            DeclKind::Surface { extent: d, slot }
        } else {
            DeclKind::Buffer
        };
        Ok(Decl {
            name,
            elem,
            kind,
            init,
        })
    }

    /// `lit` (every element), `fill lit`, `iota` (0, 1, 2, ..) or `[lit, ..]`.
    fn init(&mut self, elem: Elem, count: Option<u64>) -> PResult<Vec<u64>> {
        let col = self.col();
        if self.is("[") {
            return self.list(elem.ty, "]");
        }
        if self.is_ident("fill") {
            // Explicit, so that a packed value in brackets (`fill [1.0 2.0]`) is not a list.
            self.pos += 1;
            let n = count.ok_or_else(|| perr(col, "a fill value needs the element count"))?;
            let v = self.value(elem.ty)?;
            return Ok(vec![v; n as usize]);
        }
        if self.is_ident("iota") {
            self.pos += 1;
            let n = count.ok_or_else(|| perr(col, "`iota` needs the element count"))?;
            return (0..n)
                .map(|i| {
                    iota(elem, i)
                        .ok_or_else(|| perr(col, "`iota` needs an integer or float element type"))
                })
                .collect();
        }
        let n = count.ok_or_else(|| perr(col, "a fill value needs the element count"))?;
        let v = self.value(elem.ty)?;
        Ok(vec![v; n as usize])
    }

    /// `[a, b, ..]` (or `{..}`) after the opener; commas optional. An element may be a range
    /// of integers, `a..b` (b excluded) or `a..=b`.
    pub(super) fn list(&mut self, ty: Type, close: &str) -> PResult<Vec<u64>> {
        self.pos += 1;
        let mut out = Vec::new();
        while !self.eat(close) {
            if self.peek().is_none() {
                return self.err(format!("expected `{close}`, found the end of the line"));
            }
            let col = self.col();
            let v = self.value(ty)?;
            if self.eat("..") {
                let inclusive = self.eat("=");
                let end = self.value(ty)?;
                self.range_into(&mut out, ty, (v, end, inclusive), col)?;
            } else {
                out.push(v);
            }
            self.eat(",");
        }
        Ok(out)
    }

    /// Appends `start, start+1, ..` up to `end` (included if `inclusive`), counting in the
    /// element's width, so `-2..2` is -2, -1, 0, 1 for signed and unsigned spellings alike.
    fn range_into(&self, out: &mut Vec<u64>, ty: Type, (start, end, inclusive): (u64, u64, bool), col: usize) -> PResult<()> {
        if !ty.is_int() {
            return Err(perr(col, format!("a range `a..b` needs an integer element type, not {ty}")));
        }
        let bits = ty.bits();
        let len = crate::interp::decode::mask(end.wrapping_sub(start), bits).saturating_add(u64::from(inclusive));
        if out.len() as u64 + len > MAX_ELEMS {
            return Err(perr(col, format!("a range of {len} values: at most {MAX_ELEMS} elements")));
        }
        out.extend((0..len).map(|i| crate::interp::decode::mask(start.wrapping_add(i), bits)));
        Ok(())
    }
}

/// `inf` or `nan` in any case (`Inf`, `NaN` as Cranelift writes them).
fn is_float_word(s: &str) -> bool {
    s.eq_ignore_ascii_case("inf") || s.eq_ignore_ascii_case("nan")
}

/// Resolves buffer and surface names to pointers and handles.
fn resolve_arg(arg: RawArg, decls: &[Decl]) -> PResult<DataValue> {
    match arg {
        RawArg::Value(v) => Ok(v),
        RawArg::Name {
            name,
            offset,
            col,
            ty,
        } => {
            let Some(i) = decls.iter().position(|d| d.name == name) else {
                return Err(perr(col, format!("`{name}` is not declared on this line")));
            };
            let (nbuf, nsurf) = decls[..i]
                .iter()
                .fold((0u64, 0u64), |(b, s), d| match d.kind {
                    DeclKind::Buffer => (b + 1, s),
                    DeclKind::Surface { .. } => (b, s + 1),
                });
            match (&decls[i].kind, ty) {
                (DeclKind::Buffer, Type::Ptr(AddrSpace::Global | AddrSpace::Generic)) => {
                    let addr = (GLOBAL_BASE * (nbuf + 1)).wrapping_add(offset as u64);
                    Ok(DataValue::from_bits(ty, addr))
                }
                (DeclKind::Surface { .. }, Type::Surface) if offset == 0 => {
                    Ok(DataValue::Surface(SURFACE_HANDLE_BASE + nsurf))
                }
                _ => Err(perr(
                    col,
                    format!("`{name}` cannot be passed as a {ty} parameter"),
                )),
            }
        }
    }
}
