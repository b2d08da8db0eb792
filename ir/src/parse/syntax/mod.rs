//! The syntax pass: tokens → [`RawFunction`]s.
//!
//! Instructions are built as [`InstData`] right away, but their values and
//! blocks are *text numbers* (`v7` → `Value::from_u32(7)`), not entities
//! yet; every use is also recorded with its position. The resolve pass
//! (`resolve.rs`) checks the names and renumbers. That is how values used
//! before their definition need no placeholder entities.
//!
//! Each instruction sits on one line. After an error the parser skips to
//! the next line and goes on, so one run reports every broken line.

mod operands;

use super::lexer::{Kind, Token};
use super::opcode::Op;
use super::words;
use crate::atomics::RmwOp;
use crate::diagnostic::Diagnostic;
use crate::instructions::{FloatCC, InstData, IntCC, ReduceOp, ShuffleMode};
use crate::{SrcLoc, Type};
use operands::Uses;
use smallvec::SmallVec;

/// A block header as written.
pub(crate) struct RawBlock {
    /// The text number N of `blockN`.
    pub num: u32,
    pub loc: SrcLoc,
    /// `(text number, position, type)` of each parameter.
    pub params: Vec<(u32, SrcLoc, Type)>,
    pub insts: Vec<RawInst>,
}

/// An instruction whose operands are still text numbers.
pub(crate) struct RawInst {
    pub loc: SrcLoc,
    /// `vN =`: text number and position.
    pub result: Option<(u32, SrcLoc)>,
    pub data: InstData,
    /// Every value operand: text number and position.
    pub value_uses: Vec<(u32, SrcLoc)>,
    /// Every block operand: text number and position.
    pub block_uses: Vec<(u32, SrcLoc)>,
    /// Every shared-variable operand: text number and position.
    pub shared_uses: Vec<(u32, SrcLoc)>,
}

/// A shared-variable declaration as written: `smN = shared SIZE, align A`.
pub(crate) struct RawShared {
    /// The text number N of `smN`.
    pub num: u32,
    pub loc: SrcLoc,
    pub size: u32,
    pub align: u32,
}

/// A function as written.
pub(crate) struct RawFunction {
    pub name: String,
    pub loc: SrcLoc,
    /// Byte range of the text, `function` through `}`.
    pub span: (usize, usize),
    pub sig_params: Vec<(Type, SrcLoc)>,
    pub returns: Vec<Type>,
    pub blocks: Vec<RawBlock>,
    /// Shared-variable declarations, in text order.
    pub shared: Vec<RawShared>,
    /// Values defined by lines that failed to parse: uses of them are not
    /// reported again.
    pub broken_defs: Vec<u32>,
    /// Whether the syntax pass reported an error in this function.
    pub had_errors: bool,
}

type PResult<T> = Result<T, Diagnostic>;

/// The number of a block whose header is too broken to have one.
pub(crate) const BROKEN_BLOCK: u32 = u32::MAX;

/// Parses the token stream of the file's body into functions; errors go
/// to `diags`.
pub(crate) fn parse_functions(tokens: &[Token<'_>], src_len: usize, diags: &mut Vec<Diagnostic>) -> Vec<RawFunction> {
    let mut p = Parser { toks: tokens, pos: 0, src_len, inst: None, diags };
    let mut out = Vec::new();
    while p.pos < p.toks.len() && p.diags.len() < super::MAX_DIAGNOSTICS {
        let before = p.diags.len();
        match p.function() {
            Ok(mut f) => {
                f.had_errors |= p.diags.len() > before;
                out.push(f);
            }
            Err(d) => {
                p.diags.push(d);
                p.skip_to_function();
            }
        }
    }
    out
}

/// The instruction being parsed: its line and opcode, for
/// `operand-count` messages.
#[derive(Clone, Copy)]
struct InstCtx {
    line: u32,
    op: Option<Op>,
}

struct Parser<'t, 'a, 'd> {
    toks: &'t [Token<'a>],
    pos: usize,
    src_len: usize,
    inst: Option<InstCtx>,
    diags: &'d mut Vec<Diagnostic>,
}

fn syntax(loc: SrcLoc, message: String) -> Diagnostic {
    Diagnostic { inst: None, loc, rule: "syntax", message }
}

/// `prefix` followed by decimal digits, e.g. `v12` → 12.
fn numbered<'w>(word: &'w str, prefix: &str) -> Option<&'w str> {
    let digits = word.strip_prefix(prefix)?;
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())).then_some(digits)
}

impl<'a> Parser<'_, 'a, '_> {
    fn peek(&self) -> Option<Token<'a>> {
        self.toks.get(self.pos).copied()
    }

    /// The next token if it is on the current instruction's line (any
    /// token outside an instruction).
    fn peek_in_line(&self) -> Option<Token<'a>> {
        let t = self.peek()?;
        match self.inst {
            Some(ctx) if t.loc.line != ctx.line => None,
            _ => Some(t),
        }
    }

    fn is_punct(&self, c: char) -> bool {
        self.peek_in_line().is_some_and(|t| t.kind == Kind::Punct(c))
    }

    fn eat_punct(&mut self, c: char) -> bool {
        let yes = self.is_punct(c);
        if yes {
            self.pos += 1;
        }
        yes
    }

    /// Where the next token is, or the end of the last one.
    fn here(&self) -> SrcLoc {
        match (self.peek_in_line(), self.toks.get(self.pos.wrapping_sub(1))) {
            (Some(t), _) => t.loc,
            (None, Some(prev)) => {
                SrcLoc { line: prev.loc.line, col: prev.loc.col.saturating_add(prev.text.chars().count() as u32) }
            }
            (None, None) => SrcLoc { line: 1, col: 1 },
        }
    }

    /// The error for a missing `what`: `operand-count` when the instruction
    /// ended early, else `syntax`.
    fn expected(&self, what: &str) -> Diagnostic {
        match (self.peek_in_line(), self.inst) {
            (Some(t), _) => syntax(t.loc, format!("expected {what}, found `{}`", t.text)),
            (None, Some(InstCtx { op: Some(op), .. })) => Diagnostic {
                inst: None,
                loc: self.here(),
                rule: "operand-count",
                message: format!("too few operands: expected `{}`", op.usage()),
            },
            (None, Some(_)) => syntax(self.here(), format!("expected {what}, found end of line")),
            (None, None) => syntax(self.here(), format!("expected {what}, found end of file")),
        }
    }

    fn expect_punct(&mut self, c: char) -> PResult<()> {
        if self.eat_punct(c) {
            Ok(())
        } else {
            Err(self.expected(&format!("`{c}`")))
        }
    }

    fn word(&mut self, what: &str) -> PResult<Token<'a>> {
        match self.peek_in_line() {
            Some(t) if t.kind == Kind::Word => {
                self.pos += 1;
                Ok(t)
            }
            _ => Err(self.expected(what)),
        }
    }

    /// Skips the rest of the current line.
    fn skip_line(&mut self, line: u32) {
        while self.peek().is_some_and(|t| t.loc.line == line) {
            self.pos += 1;
        }
    }

    /// Skips to the next `function` keyword.
    fn skip_to_function(&mut self) {
        self.pos += 1;
        while self.peek().is_some_and(|t| !(t.kind == Kind::Word && t.text == words::FUNCTION)) {
            self.pos += 1;
        }
    }

    fn function(&mut self) -> PResult<RawFunction> {
        self.inst = None;
        let kw = self.word("`function`")?;
        if kw.text != words::FUNCTION {
            return Err(syntax(kw.loc, format!("expected `function`, found `{}`", kw.text)));
        }
        let name = match self.peek() {
            Some(t) if t.kind == Kind::Name && !t.text.is_empty() => {
                self.pos += 1;
                t.text.to_string()
            }
            _ => return Err(self.expected("a function name `%name`")),
        };
        self.expect_punct('(')?;
        let mut sig_params = Vec::new();
        if !self.eat_punct(')') {
            loop {
                let loc = self.here();
                sig_params.push((self.ty()?, loc));
                if self.eat_punct(')') {
                    break;
                }
                self.expect_punct(',')?;
            }
        }
        let mut returns = Vec::new();
        if self.peek().is_some_and(|t| t.kind == Kind::Arrow) {
            self.pos += 1;
            loop {
                returns.push(self.ty()?);
                if !self.eat_punct(',') {
                    break;
                }
            }
        }
        self.expect_punct('{')?;
        let mut f = RawFunction {
            name,
            loc: kw.loc,
            span: (kw.start, self.src_len),
            sig_params,
            returns,
            blocks: Vec::new(),
            shared: Vec::new(),
            broken_defs: Vec::new(),
            had_errors: false,
        };
        loop {
            let Some(t) = self.peek() else {
                f.had_errors = true;
                self.diags.push(syntax(self.here(), format!("missing `}}` at the end of function `%{}`", f.name)));
                return Ok(f);
            };
            if t.kind == Kind::Punct('}') {
                self.pos += 1;
                f.span.1 = t.end;
                return Ok(f);
            }
            if t.kind == Kind::Word && t.text == words::FUNCTION {
                f.had_errors = true;
                f.span.1 = t.start;
                self.diags.push(syntax(t.loc, format!("missing `}}` at the end of function `%{}`", f.name)));
                return Ok(f);
            }
            if self.diags.len() >= super::MAX_DIAGNOSTICS {
                return Ok(f);
            }
            let line = t.loc.line;
            let result = if t.kind == Kind::Word && numbered(t.text, words::BLOCK).is_some() {
                self.block_header(&mut f)
            } else if t.kind == Kind::Word && numbered(t.text, words::SHARED_VAR).is_some() {
                self.shared_decl(&mut f)
            } else {
                self.instruction(&mut f)
            };
            self.inst = None;
            if let Err(d) = result {
                self.diags.push(d);
                self.skip_line(line);
            }
        }
    }

    /// Parses `blockN(params):`. The block is pushed even when the rest
    /// of the header is broken, so the lines after it do not fail too; the
    /// parameters of a broken header count as broken definitions.
    fn block_header(&mut self, f: &mut RawFunction) -> PResult<()> {
        let t = self.word("a block")?;
        let line = t.loc.line;
        let num = self.number_of(t, words::BLOCK);
        f.blocks.push(RawBlock {
            num: *num.as_ref().unwrap_or(&BROKEN_BLOCK),
            loc: t.loc,
            params: Vec::new(),
            insts: Vec::new(),
        });
        let result = num.and_then(|_| self.block_params(f, line));
        if result.is_err() {
            for t in self.toks[self.pos..].iter().take_while(|t| t.loc.line == line) {
                if let Some(Ok(n)) = numbered(t.text, words::VALUE).map(str::parse::<u32>) {
                    f.broken_defs.push(n);
                }
            }
        }
        result
    }

    /// `smN = shared SIZE, align A`, before the first block.
    fn shared_decl(&mut self, f: &mut RawFunction) -> PResult<()> {
        let t = self.word("a shared variable `smN`")?;
        let line = t.loc.line;
        // Operands end with the line, as an instruction's do.
        self.inst = Some(InstCtx { line, op: None });
        if !f.blocks.is_empty() {
            return Err(syntax(t.loc, "declare shared variables before the first block".into()));
        }
        let num = self.number_of(t, words::SHARED_VAR)?;
        self.expect_punct('=')?;
        let (size, align) = self.shared_decl_body()?;
        f.shared.push(RawShared { num, loc: t.loc, size, align });
        self.end_of_line(line, "the declaration")
    }

    fn block_params(&mut self, f: &mut RawFunction, line: u32) -> PResult<()> {
        if self.eat_punct('(') && !self.eat_punct(')') {
            loop {
                let v = self.word("a value `vN`")?;
                let n = self.number_of(v, words::VALUE)?;
                f.broken_defs.push(n);
                self.expect_punct(':')?;
                let ty = self.ty()?;
                f.broken_defs.pop();
                if let Some(b) = f.blocks.last_mut() {
                    b.params.push((n, v.loc, ty));
                }
                if self.eat_punct(')') {
                    break;
                }
                self.expect_punct(',')?;
            }
        }
        self.expect_punct(':')?;
        self.end_of_line(line, "the block header")
    }

    fn end_of_line(&self, line: u32, what: &str) -> PResult<()> {
        match self.peek() {
            Some(t) if t.loc.line == line => Err(syntax(t.loc, format!("unexpected `{}` after {what}", t.text))),
            _ => Ok(()),
        }
    }

    /// The number N of a `prefixN` word (`v`, `block`).
    fn number_of(&self, t: Token<'_>, prefix: &str) -> PResult<u32> {
        let Some(digits) = numbered(t.text, prefix) else {
            let what = match prefix {
                words::VALUE => "a value `vN`",
                words::SHARED_VAR => "a shared variable `smN`",
                _ => "a block `blockN`",
            };
            return Err(syntax(t.loc, format!("expected {what}, found `{}`", t.text)));
        };
        match digits.parse::<u32>() {
            Ok(n) if n < u32::MAX => Ok(n),
            _ => Err(Diagnostic {
                inst: None,
                loc: t.loc,
                rule: "number-range",
                message: format!("`{}` is numbered too high", t.text),
            }),
        }
    }

    fn ty(&mut self) -> PResult<Type> {
        let t = self.word("a type")?;
        Type::from_name(t.text).ok_or_else(|| Diagnostic {
            inst: None,
            loc: t.loc,
            rule: "unknown-type",
            message: format!("unknown type `{}`", t.text),
        })
    }

    fn instruction(&mut self, f: &mut RawFunction) -> PResult<()> {
        if f.blocks.is_empty() {
            let t = self.peek().map_or(SrcLoc::default(), |t| t.loc);
            return Err(syntax(t, "expected a block header `blockN:` before the first instruction".into()));
        }
        let first = self.peek().ok_or_else(|| self.expected("an instruction"))?;
        self.inst = Some(InstCtx { line: first.loc.line, op: None });
        let mut result = None;
        if first.kind == Kind::Word && numbered(first.text, words::VALUE).is_some() {
            let n = self.number_of(first, words::VALUE)?;
            self.pos += 1;
            if self.is_punct(',') {
                let loc = self.here();
                f.broken_defs.push(n);
                return Err(syntax(loc, "an instruction defines at most one result".into()));
            }
            if let Err(d) = self.expect_punct('=') {
                f.broken_defs.push(n);
                return Err(d);
            }
            result = Some((n, first.loc));
        }
        let mut uses = Uses::default();
        let parsed = self.inst_body(&mut uses);
        let (data, op, op_loc) = match parsed {
            Ok(x) => x,
            Err(d) => {
                f.broken_defs.extend(result.map(|r| r.0));
                return Err(d);
            }
        };
        if let Some(t) = self.peek_in_line() {
            f.broken_defs.extend(result.map(|r| r.0));
            return Err(if t.kind == Kind::Punct(',') {
                Diagnostic {
                    inst: None,
                    loc: t.loc,
                    rule: "operand-count",
                    message: format!("too many operands: expected `{}`", op.usage()),
                }
            } else {
                syntax(t.loc, format!("unexpected `{}` after the instruction", t.text))
            });
        }
        match (result, op.has_result()) {
            (Some((n, loc)), false) => {
                f.broken_defs.push(n);
                let message = format!("`{}` has no result; remove `v{n} =`", op.name());
                return Err(Diagnostic { inst: None, loc, rule: "result-count", message });
            }
            (None, true) => {
                let message = format!("`{}` defines a result; write `vN = {}`", op.name(), op.usage());
                return Err(Diagnostic { inst: None, loc: op_loc, rule: "result-count", message });
            }
            _ => {}
        }
        let loc = result.map_or(op_loc, |r| r.1);
        let raw = RawInst {
            loc,
            result,
            data,
            value_uses: uses.values,
            block_uses: uses.blocks,
            shared_uses: uses.shared,
        };
        if let Some(block) = f.blocks.last_mut() {
            block.insts.push(raw);
        }
        Ok(())
    }

    /// Opcode and operands.
    fn inst_body(&mut self, uses: &mut Uses) -> PResult<(InstData, Op, SrcLoc)> {
        let t = self.word("an instruction")?;
        let (op, ty) = self.opcode(t)?;
        if let Some(ctx) = &mut self.inst {
            ctx.op = Some(op);
        }
        let ty = ty.unwrap_or(Type::I32);
        let data = match op {
            Op::Iconst => InstData::Iconst { ty, imm: self.int_literal(ty)? },
            Op::Fconst => InstData::Fconst { ty, bits: self.float_literal(ty)? },
            Op::Unary(op) => InstData::Unary { op, arg: self.value(uses)? },
            Op::Binary(op) => InstData::Binary { op, args: self.value_pair(uses)? },
            Op::Ternary(op) => {
                let [a, b] = self.value_pair(uses)?;
                self.expect_punct(',')?;
                InstData::Ternary { op, args: [a, b, self.value(uses)?] }
            }
            Op::Bfi => {
                let [x, base] = self.value_pair(uses)?;
                self.expect_punct(',')?;
                let [pos, len] = self.value_pair(uses)?;
                InstData::Bfi { args: [x, base, pos, len] }
            }
            Op::ActiveMask => InstData::ActiveMask,
            Op::Ballot => InstData::Ballot { cond: self.value(uses)? },
            Op::Vote(op) => InstData::Vote { op, arg: self.value(uses)? },
            Op::Shuffle => {
                let mode = self.keyword("a shuffle mode", ShuffleMode::from_name, ShuffleMode::ALL, ShuffleMode::name)?;
                InstData::Shuffle { mode, args: self.value_pair(uses)? }
            }
            Op::MatchAny => InstData::MatchAny { arg: self.value(uses)? },
            Op::Reduce => {
                let op = self.keyword("a reduction op", ReduceOp::from_name, ReduceOp::ALL, ReduceOp::name)?;
                InstData::Reduce { op, arg: self.value(uses)? }
            }
            Op::Icmp => {
                let cond = self.keyword("an integer condition", IntCC::from_name, IntCC::ALL, IntCC::name)?;
                InstData::Icmp { cond, args: self.value_pair(uses)? }
            }
            Op::Fcmp => {
                let cond = self.keyword("a float condition", FloatCC::from_name, FloatCC::ALL, FloatCC::name)?;
                InstData::Fcmp { cond, args: self.value_pair(uses)? }
            }
            Op::Select => {
                let cond = self.value(uses)?;
                self.expect_punct(',')?;
                InstData::Select { cond, args: self.value_pair(uses)? }
            }
            Op::Convert(op) => InstData::Convert { op, to: ty, arg: self.value(uses)? },
            Op::PtrAdd => {
                let [ptr, offset] = self.value_pair(uses)?;
                InstData::PtrAdd { ptr, offset }
            }
            Op::PtrToGeneric => InstData::PtrToGeneric { ptr: self.value(uses)? },
            Op::Special(reg) => InstData::Special { reg },
            Op::SharedAddr => InstData::SharedAddr { var: self.shared_var(uses)? },
            Op::Load => InstData::Load { ty, addr: self.address(uses)? },
            Op::Store => {
                let value = self.value(uses)?;
                self.expect_punct(',')?;
                InstData::Store { value, addr: self.address(uses)? }
            }
            Op::AtomicRmw => {
                let op = self.keyword("an atomic op", RmwOp::from_name, RmwOp::ALL, RmwOp::name)?;
                let (order, scope) = self.order_scope()?;
                let addr = self.address(uses)?;
                self.expect_punct(',')?;
                InstData::AtomicRmw { op, ty, order, scope, addr, arg: self.value(uses)? }
            }
            Op::AtomicCas => {
                let (order, scope) = self.order_scope()?;
                let addr = self.address(uses)?;
                self.expect_punct(',')?;
                let [expected, replacement] = self.value_pair(uses)?;
                InstData::AtomicCas { ty, order, scope, addr, expected, replacement }
            }
            Op::AtomicLoad => {
                let (order, scope) = self.order_scope()?;
                InstData::AtomicLoad { ty, order, scope, addr: self.address(uses)? }
            }
            Op::AtomicStore => {
                let (order, scope) = self.order_scope()?;
                let addr = self.address(uses)?;
                self.expect_punct(',')?;
                InstData::AtomicStore { ty, order, scope, addr, value: self.value(uses)? }
            }
            Op::Fence => {
                let (order, scope) = self.order_scope()?;
                InstData::Fence { order, scope }
            }
            Op::SurfaceRmw => {
                let op = self.keyword("an atomic op", RmwOp::from_name, RmwOp::ALL, RmwOp::name)?;
                let (mut access, order, scope) = self.surface_modes()?;
                let coords = self.surface_operand(&mut access, uses)?;
                self.expect_punct(',')?;
                InstData::SurfaceRmw { op, ty, order, scope, access, coords, arg: self.value(uses)? }
            }
            Op::SurfaceCas => {
                let (mut access, order, scope) = self.surface_modes()?;
                let coords = self.surface_operand(&mut access, uses)?;
                self.expect_punct(',')?;
                let [expected, replacement] = self.value_pair(uses)?;
                InstData::SurfaceCas { ty, order, scope, access, coords, expected, replacement }
            }
            Op::Barrier => InstData::Barrier,
            Op::Jump => InstData::Jump { dest: self.block_call(uses)? },
            Op::Brif => {
                let cond = self.value(uses)?;
                self.expect_punct(',')?;
                let then_dest = self.block_call(uses)?;
                self.expect_punct(',')?;
                InstData::Brif { cond, then_dest, else_dest: self.block_call(uses)? }
            }
            Op::Return => {
                let mut args = SmallVec::new();
                if self.peek_in_line().is_some() {
                    args.push(self.value(uses)?);
                    while self.eat_punct(',') {
                        args.push(self.value(uses)?);
                    }
                }
                InstData::Return { args }
            }
        };
        Ok((data, op, t.loc))
    }

    /// Splits `name.T` into the opcode and its type.
    fn opcode(&self, t: Token<'_>) -> PResult<(Op, Option<Type>)> {
        let (base, suffix) = match Op::from_name(t.text) {
            Some(op) => (op, None),
            None => {
                let (base, suffix) = t.text.split_once('.').unwrap_or((t.text, ""));
                let op = Op::from_name(base).ok_or_else(|| Diagnostic {
                    inst: None,
                    loc: t.loc,
                    rule: "unknown-opcode",
                    message: format!("unknown instruction `{}`", t.text),
                })?;
                (op, Some(suffix))
            }
        };
        match (base.takes_type(), suffix) {
            (true, Some(s)) => match Type::from_name(s) {
                Some(ty) => Ok((base, Some(ty))),
                None => Err(Diagnostic {
                    inst: None,
                    loc: t.loc,
                    rule: "unknown-type",
                    message: format!("unknown type `{s}` in `{}`", t.text),
                }),
            },
            (true, None) => Err(syntax(t.loc, format!("`{}` needs a type: `{}`", base.name(), base.usage()))),
            (false, Some(_)) => {
                Err(syntax(t.loc, format!("`{}` takes no type suffix: `{}`", base.name(), base.usage())))
            }
            (false, None) => Ok((base, None)),
        }
    }
}
