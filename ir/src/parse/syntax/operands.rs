//! Operands of instructions: keywords, values, addresses, surfaces,
//! branch targets and literals.

use super::{numbered, syntax, PResult, Parser};
use crate::atomics::{MemOrder, Scope, SurfaceAccess, SurfaceAddressing, SurfaceClamp, SurfaceDim, SurfaceRef};
use crate::diagnostic::Diagnostic;
use crate::instructions::{Address, BlockCall};
use crate::parse::float::{parse_float, FloatError};
use crate::parse::lexer::{Kind, Token};
use crate::parse::words;
use crate::{Block, SharedVar, SrcLoc, Type, Value};
use smallvec::SmallVec;

impl Parser<'_, '_, '_> {
    pub(super) fn keyword<T: Copy>(
        &mut self,
        what: &str,
        from_name: fn(&str) -> Option<T>,
        all: &[T],
        name: fn(T) -> &'static str,
    ) -> PResult<T> {
        let t = self.word(what)?;
        from_name(t.text).ok_or_else(|| {
            let choices: Vec<&str> = all.iter().map(|&k| name(k)).collect();
            Diagnostic {
                inst: None,
                loc: t.loc,
                rule: "unknown-keyword",
                message: format!(
                    "unknown {} `{}`; expected one of: {}",
                    what.trim_start_matches("an ").trim_start_matches("a "),
                    t.text,
                    choices.join(", ")
                ),
            }
        })
    }

    pub(super) fn order_scope(&mut self) -> PResult<(MemOrder, Scope)> {
        let order = self.keyword("a memory order", MemOrder::from_name, MemOrder::ALL, MemOrder::name)?;
        let scope = self.keyword("a scope", Scope::from_name, Scope::ALL, Scope::name)?;
        Ok((order, scope))
    }

    /// `dim addressing clamp order scope`; the surface itself comes next.
    pub(super) fn surface_modes(&mut self) -> PResult<(SurfaceAccess, MemOrder, Scope)> {
        let dim = self.keyword("a surface dimension", SurfaceDim::from_name, SurfaceDim::ALL, SurfaceDim::name)?;
        let addressing = self.keyword(
            "a surface addressing",
            SurfaceAddressing::from_name,
            SurfaceAddressing::ALL,
            SurfaceAddressing::name,
        )?;
        let clamp = self.keyword("a surface clamp", SurfaceClamp::from_name, SurfaceClamp::ALL, SurfaceClamp::name)?;
        let (order, scope) = self.order_scope()?;
        let access = SurfaceAccess { dim, addressing, clamp, surface: SurfaceRef::Slot(0) };
        Ok((access, order, scope))
    }

    /// `slot N [coords]` or `vN [coords]`.
    pub(super) fn surface_operand(
        &mut self,
        access: &mut SurfaceAccess,
        uses: &mut Uses,
    ) -> PResult<SmallVec<[Value; 3]>> {
        if self.peek_in_line().is_some_and(|t| t.text == words::SLOT) {
            self.pos += 1;
            let t = self.word("a slot number")?;
            let n = parse_unsigned(t)?;
            let slot = u16::try_from(n).map_err(|_| range(t, "slot number", "0..=65535"))?;
            access.surface = SurfaceRef::Slot(slot);
        } else {
            access.surface =
                SurfaceRef::Handle(self.value(uses).map_err(|_| self.expected("`slot N` or a surface value"))?);
        }
        self.expect_punct('[')?;
        let mut coords = SmallVec::new();
        if !self.eat_punct(']') {
            loop {
                coords.push(self.value(uses)?);
                if self.eat_punct(']') {
                    break;
                }
                self.expect_punct(',')?;
            }
        }
        Ok(coords)
    }

    pub(super) fn value(&mut self, uses: &mut Uses) -> PResult<Value> {
        let t = match self.peek_in_line() {
            Some(t) if t.kind == Kind::Word && numbered(t.text, words::VALUE).is_some() => t,
            _ => return Err(self.expected("a value `vN`")),
        };
        let n = self.number_of(t, words::VALUE)?;
        self.pos += 1;
        uses.values.push((n, t.loc));
        Ok(Value::from_u32(n))
    }

    /// `smN`: a shared variable, by its text number (resolved to its declaration later).
    pub(super) fn shared_var(&mut self, uses: &mut Uses) -> PResult<SharedVar> {
        let t = match self.peek_in_line() {
            Some(t) if t.kind == Kind::Word && numbered(t.text, words::SHARED_VAR).is_some() => t,
            _ => return Err(self.expected("a shared variable `smN`")),
        };
        let n = self.number_of(t, words::SHARED_VAR)?;
        self.pos += 1;
        uses.shared.push((n, t.loc));
        Ok(SharedVar::from_u32(n))
    }

    /// After `smN =`: `shared SIZE` and an optional `, align A` (default 16).
    pub(super) fn shared_decl_body(&mut self) -> PResult<(u32, u32)> {
        let kw = self.word("`shared`")?;
        if kw.text != words::SHARED {
            return Err(syntax(kw.loc, format!("expected `shared SIZE, align A`, found `{}`", kw.text)));
        }
        let t = self.word("the variable's size in bytes")?;
        let size = u32::try_from(parse_unsigned(t)?).map_err(|_| range(t, "shared size", "at most 4294967295"))?;
        let mut align = 16;
        if self.eat_punct(',') {
            let kw = self.word("`align`")?;
            if kw.text != words::ALIGN {
                return Err(syntax(kw.loc, format!("expected `align A`, found `{}`", kw.text)));
            }
            let t = self.word("an alignment")?;
            align = u32::try_from(parse_unsigned(t)?).map_err(|_| range(t, "alignment", "1, 2, 4, 8 or 16"))?;
        }
        Ok((size, align))
    }

    pub(super) fn value_pair(&mut self, uses: &mut Uses) -> PResult<[Value; 2]> {
        let a = self.value(uses)?;
        self.expect_punct(',')?;
        Ok([a, self.value(uses)?])
    }

    /// `vN`, `vN+off` or `vN-off`.
    pub(super) fn address(&mut self, uses: &mut Uses) -> PResult<Address> {
        let ptr = self.value(uses)?;
        let negative = if self.eat_punct('+') {
            false
        } else if self.eat_punct('-') {
            true
        } else {
            return Ok(Address { ptr, offset: 0 });
        };
        let t = self.word("an offset")?;
        let n = parse_unsigned(t)?;
        let offset =
            if negative { -i64::try_from(n).unwrap_or(i64::MAX) } else { i64::try_from(n).unwrap_or(i64::MAX) };
        let offset = i32::try_from(offset).map_err(|_| range(t, "address offset", "a 32-bit signed number"))?;
        Ok(Address { ptr, offset })
    }

    pub(super) fn block_call(&mut self, uses: &mut Uses) -> PResult<BlockCall> {
        let t = match self.peek_in_line() {
            Some(t) if t.kind == Kind::Word && numbered(t.text, words::BLOCK).is_some() => t,
            _ => return Err(self.expected("a block `blockN`")),
        };
        let n = self.number_of(t, words::BLOCK)?;
        self.pos += 1;
        uses.blocks.push((n, t.loc));
        let mut args = SmallVec::new();
        if self.eat_punct('(') && !self.eat_punct(')') {
            loop {
                args.push(self.value(uses)?);
                if self.eat_punct(')') {
                    break;
                }
                self.expect_punct(',')?;
            }
        }
        Ok(BlockCall { block: Block::from_u32(n), args })
    }

    /// `N`, `-N`, `0xN`: read from `ty`'s width and sign-extended.
    pub(super) fn int_literal(&mut self, ty: Type) -> PResult<i64> {
        let negative = self.eat_punct('-');
        let t = self.word("an integer")?;
        let mag = parse_unsigned(t)?;
        let bits = if ty.is_int() { ty.bits() } else { 64 };
        let (min, max) = (1u128 << (bits - 1), (1u128 << bits) - 1);
        let fits = if negative { u128::from(mag) <= min } else { u128::from(mag) <= max };
        if !fits {
            let text = format!("{}{}", if negative { "-" } else { "" }, t.text);
            let message = format!("`{text}` does not fit in {ty}");
            return Err(Diagnostic { inst: None, loc: t.loc, rule: "number-range", message });
        }
        let raw = if negative { mag.wrapping_neg() } else { mag };
        let shift = 64 - bits;
        Ok(((raw << shift) as i64) >> shift)
    }

    pub(super) fn float_literal(&mut self, ty: Type) -> PResult<u64> {
        let negative = self.eat_punct('-');
        let t = self.word("a float literal")?;
        parse_float(ty, negative, t.text).map_err(|e| match e {
            FloatError::Syntax => syntax(t.loc, format!("invalid float literal `{}`", t.text)),
            FloatError::Range => {
                Diagnostic { inst: None, loc: t.loc, rule: "number-range", message: format!("`{}` does not fit in {ty}", t.text) }
            }
        })
    }
}

/// The positions of an instruction's operands.
#[derive(Default)]
pub(super) struct Uses {
    pub(super) values: Vec<(u32, SrcLoc)>,
    pub(super) blocks: Vec<(u32, SrcLoc)>,
    pub(super) shared: Vec<(u32, SrcLoc)>,
}

fn range(t: Token<'_>, what: &str, allowed: &str) -> Diagnostic {
    Diagnostic { inst: None, loc: t.loc, rule: "number-range", message: format!("{what} `{}` out of range ({allowed})", t.text) }
}

/// A decimal or `0x` hexadecimal number that fits in 64 bits.
fn parse_unsigned(t: Token<'_>) -> PResult<u64> {
    let (digits, radix) = match t.text.strip_prefix("0x").or_else(|| t.text.strip_prefix("0X")) {
        Some(hex) => (hex, 16),
        None => (t.text, 10),
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return Err(syntax(t.loc, format!("expected a number, found `{}`", t.text)));
    }
    u64::from_str_radix(digits, radix).map_err(|_| Diagnostic {
        inst: None,
        loc: t.loc,
        rule: "number-range",
        message: format!("`{}` does not fit in 64 bits", t.text),
    })
}
