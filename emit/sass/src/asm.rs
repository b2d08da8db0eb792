//! The assembler: nvdisasm-syntax text back to instructions, choosing the form by mnemonic,
//! modifier spellings and operand shapes from the same table the printer uses.

use super::form::{BaseWidth, ExtSpec, Form, ImmKind, ModGroup, OpSpec, Tok};
use super::op::Mnemonic;
use super::instr::{Instr, Operand, Pred, Reg, Sched};
use super::written::{Misfit, Written};
use super::{Arch, AsmError};
use smallvec::SmallVec;

/// Error text plus the byte column (0-based, within the line) it refers to.
type PErr = (usize, String);

/// See [`Arch::choose_form`]: adjusts the (column, operand) list for a form.
type SplitLast<T> = dyn Fn(&Form, &mut Vec<(usize, T)>);
/// See [`Arch::choose_form`]: one operand (at a column) to the value of slot `spec`, setting
/// its `.reuse` flag.
type Place<'p, T> = dyn FnMut(&OpSpec, &T, usize, &mut u8) -> Result<Operand, PErr> + 'p;

/// Matches modifier tokens against the groups in printing order, with backtracking (a spelling
/// may be several tokens, e.g. `STRONG.GPU`); `spelled[g][v]` holds the tokens of group `g`'s
/// value `v`. The one modifier rule of the assembler and of typed selection.
fn match_mods(groups: &[ModGroup], spelled: &[&[&[Tok]]], toks: &[Tok]) -> Option<SmallVec<[u64; 6]>> {
    fn go(groups: &[ModGroup], spelled: &[&[&[Tok]]], toks: &[Tok], out: &mut SmallVec<[u64; 6]>) -> bool {
        let (Some(g), Some(sp)) = (groups.first(), spelled.first()) else {
            return toks.is_empty();
        };
        // Longer spellings first so `CAST.SPIN` wins over `CAST` when both could match (within
        // one length, in table order).
        let longest = sp.iter().map(|s| s.len()).max().unwrap_or(0);
        for n in (0..=longest).rev() {
            for ((v, _), s) in g.values.iter().zip(sp.iter()).filter(|(_, s)| s.len() == n) {
                if toks.len() < n || toks[..n] != **s {
                    continue;
                }
                out.push(*v);
                if go(&groups[1..], &spelled[1..], &toks[n..], out) {
                    return true;
                }
                out.pop();
            }
        }
        false
    }
    let mut out = SmallVec::new();
    go(groups, spelled, toks, &mut out).then_some(out)
}

/// The mnemonic and modifier tokens of a dotted opcode text, a token outside the vocabulary as
/// [`Tok::UNKNOWN`] (which no group spells).
pub(crate) fn tokens_of(opcode: &str) -> (&str, SmallVec<[Tok; 8]>) {
    let mut parts = opcode.split('.');
    let mnemonic = parts.next().unwrap_or("");
    (mnemonic, parts.map(Tok::named).collect())
}

fn parse_num(t: &str) -> Option<i64> {
    let (neg, body) = match t.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let v = if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()?
    } else {
        body.parse::<u64>().ok()?
    };
    Some(if neg { (v as i64).wrapping_neg() } else { v as i64 })
}

fn parse_reg_num(t: &str, prefix: &str, zero: u8) -> Option<u8> {
    let body = t.strip_prefix(prefix)?;
    if body == "Z" {
        return Some(zero);
    }
    if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u32 = body.parse().ok()?;
    (n < zero as u32).then_some(n as u8)
}

fn parse_pred(t: &str, prefix: &str) -> Option<Pred> {
    let (not, body) = match t.strip_prefix('!') {
        Some(b) => (true, b),
        None => (false, t),
    };
    let body = body.strip_prefix(prefix)?;
    let num = if body == "T" {
        7
    } else {
        let n: u8 = body.parse().ok()?;
        if n >= 7 {
            return None;
        }
        n
    };
    Some(Pred { num, not })
}

fn parse_float(t: &str) -> Option<f64> {
    match t {
        "+INF" | "INF" => Some(f64::INFINITY),
        "-INF" => Some(f64::NEG_INFINITY),
        "+QNAN" | "QNAN" => Some(f64::NAN),
        "-QNAN" => Some(-f64::NAN),
        _ => t.parse::<f64>().ok(),
    }
}

/// The half-precision bits of an exactly representable value (as nvdisasm prints them).
pub(crate) fn f64_to_f16(f: f64) -> Option<u16> {
    if f.is_nan() {
        return Some(if f.is_sign_negative() { 0xfe00 } else { 0x7e00 });
    }
    let sign = if f.is_sign_negative() { 0x8000 } else { 0 };
    (0u16..0x7c01).find(|&b| super::print::f16_to_f64(b) == f.abs()).map(|b| b | sign)
}

/// Takes a `.reuse` suffix off `t`, setting operand slot `slot`'s flag.
fn take_reuse<'t>(t: &'t str, slot: Option<u8>, col: usize, reuse: &mut u8) -> Result<&'t str, PErr> {
    match (t.strip_suffix(".reuse"), slot) {
        (Some(b), Some(s)) => {
            *reuse |= 1 << s;
            Ok(b)
        }
        (Some(_), None) => Err((col, "`.reuse` is not allowed on this operand".into())),
        (None, _) => Ok(t),
    }
}

/// What an operand slot takes, for error messages.
fn expected(spec: &OpSpec) -> &'static str {
    match spec {
        OpSpec::Reg(_) => "a register",
        OpSpec::UReg(_) => "a uniform register",
        OpSpec::Pred(_) => "a predicate",
        OpSpec::UPred(_) => "a uniform predicate",
        OpSpec::Imm(i) if matches!(i.kind, ImmKind::Hex | ImmKind::SignedHex) => "a hex immediate",
        OpSpec::Imm(i) if i.kind == ImmKind::F16 => "a half-precision immediate",
        OpSpec::Imm(_) => "a float immediate",
        OpSpec::CBank(c) | OpSpec::Ext(ExtSpec::CBankScaled { spec: c, .. }) if c.base.is_none() => {
            "a constant `c[..][..]` without register"
        }
        OpSpec::CBank(_) | OpSpec::Ext(ExtSpec::CBankScaled { .. }) => "a constant `c[..][..]`",
        OpSpec::Ext(ExtSpec::CBankMod { .. }) => "a constant `-|c[..][..]|.H1`",
        OpSpec::Mem(m) | OpSpec::Ext(ExtSpec::MemScaled { spec: m, .. }) => match (m.desc, m.ureg, m.width) {
            (Some(_), _, _) => "a `desc[..]` address",
            (None, Some(_), BaseWidth::U32) => "an address `[Ra.U32+URb]`",
            (None, Some(_), _) => "an address with a uniform register",
            (None, None, BaseWidth::Wide) => "an address with a `.64` base register",
            (None, None, _) => "an address `[Ra+offset]`",
        },
        OpSpec::SReg(_) => "a special register",
        OpSpec::Target(_) => "a branch target address",
        OpSpec::BReg(_) => "a barrier register `Bn`",
        OpSpec::Ext(ExtSpec::Abs { .. }) => "an absolute address `[0x..]`",
        OpSpec::Ext(ExtSpec::Implied { from: None, .. }) => "RZ",
        OpSpec::Ext(ExtSpec::Implied { .. }) => "a register other than RZ",
        OpSpec::Ext(ExtSpec::Swizzled { uniform: true, .. }) => "a uniform register",
        OpSpec::Ext(ExtSpec::Swizzled { .. }) => "a register",
        OpSpec::Ext(ExtSpec::Suffixed { .. }) => "a register",
        OpSpec::Ext(ExtSpec::SbSet { .. }) => "a scoreboard set `{..}`",
        OpSpec::Ext(ExtSpec::SbReg { .. }) => "a scoreboard `SBn`",
    }
}

impl Arch {
    /// Reads operand text `t` for slot `spec` and places it ([`Arch::place`]).
    fn parse_operand(&self, spec: &OpSpec, t: &str, col: usize, addr: u64, reuse: &mut u8) -> Result<Operand, PErr> {
        let w = self.parse_written(spec, t, col, reuse)?;
        self.place(spec, &w, addr).map_err(|m| match m {
            Misfit::Kind => (col, format!("expected {}, found `{}`", expected(spec), t)),
            Misfit::Value(msg) => (col, msg),
        })
    }

    /// The syntax of operand text `t` for slot `spec`: what it writes, and which `.reuse` flag.
    fn parse_written<'t>(&self, spec: &OpSpec, t: &'t str, col: usize, reuse: &mut u8) -> Result<Written<'t>, PErr> {
        let bad = |what: &str| (col, format!("expected {}, found `{}`", what, t));
        match spec {
            OpSpec::Reg(rs) | OpSpec::UReg(rs) => {
                let uniform = matches!(spec, OpSpec::UReg(_));
                let mut body = take_reuse(t, rs.reuse, col, reuse)?;
                let mut r = Reg::default();
                if let Some(b) = body.strip_prefix('~') {
                    r.not = true;
                    body = b;
                }
                if let Some(b) = body.strip_prefix('-') {
                    r.neg = true;
                    body = b;
                }
                if body.len() >= 2 && body.starts_with('|') && body.ends_with('|') {
                    r.abs = true;
                    body = &body[1..body.len() - 1];
                }
                let (prefix, zero) = if uniform { ("UR", self.urz) } else { ("R", self.rz) };
                r.num = parse_reg_num(body, prefix, zero)
                    .ok_or_else(|| bad(if uniform { "a uniform register" } else { "a register" }))?;
                Ok(if uniform { Written::UReg(r) } else { Written::Reg { reg: r, suffix: false } })
            }
            OpSpec::Pred(_) => parse_pred(t, "P").map(Written::Pred).ok_or_else(|| bad("a predicate")),
            OpSpec::UPred(_) => parse_pred(t, "UP").map(Written::UPred).ok_or_else(|| bad("a uniform predicate")),
            OpSpec::Imm(i) => match i.kind {
                ImmKind::Hex | ImmKind::SignedHex => {
                    parse_num(t).filter(|_| t.contains("0x")).map(Written::Int).ok_or_else(|| bad("a hex immediate"))
                }
                kind => {
                    let what = if kind == ImmKind::F16 { "a half-precision immediate" } else { "a float immediate" };
                    if t.contains("0x") {
                        return Err(bad(what));
                    }
                    let nan = |negative, signalling| Ok(Written::Nan { negative, signalling });
                    match t {
                        "+SNAN" => nan(false, true),
                        "-SNAN" => nan(true, true),
                        "+QNAN" | "QNAN" => nan(false, false),
                        "-QNAN" => nan(true, false),
                        _ => parse_float(t).map(Written::Float).ok_or_else(|| bad(what)),
                    }
                }
            },
            OpSpec::CBank(c) => self.parse_cbank(t, c.base.is_some(), &bad),
            OpSpec::Mem(m) => self.parse_mem(t, m.reuse, col, reuse, &bad),
            OpSpec::SReg(_) => Ok(Written::SReg(t)),
            OpSpec::Target(_) => {
                parse_num(t).filter(|_| t.contains("0x")).map(Written::Target).ok_or_else(|| bad("a branch target address"))
            }
            OpSpec::Ext(ExtSpec::MemScaled { spec, .. }) => self.parse_mem(t, spec.reuse, col, reuse, &bad),
            OpSpec::Ext(ExtSpec::CBankScaled { spec, .. }) => self.parse_cbank(t, spec.base.is_some(), &bad),
            OpSpec::Ext(ExtSpec::CBankMod { spec, .. }) => {
                // `-|c[..] [..].H1|` as nvdisasm writes it (`.H1` after the bars is read too).
                let mut body = t;
                let mut h1 = body.ends_with(".H1");
                if h1 {
                    body = &body[..body.len() - 3];
                }
                let neg = body.starts_with('-');
                if neg {
                    body = &body[1..];
                }
                let abs = body.len() >= 2 && body.starts_with('|') && body.ends_with('|');
                if abs {
                    body = &body[1..body.len() - 1];
                }
                if !h1 && body.ends_with(".H1") {
                    h1 = true;
                    body = &body[..body.len() - 3];
                }
                match self.parse_cbank(body, spec.base.is_some(), &bad)? {
                    Written::CBank { bank, base, offset, .. } => Ok(Written::CBank { bank, base, offset, neg, abs, h1 }),
                    other => Ok(other),
                }
            }
            OpSpec::Ext(ExtSpec::SbSet { .. }) => {
                let inner = t
                    .strip_prefix('{')
                    .and_then(|r| r.strip_suffix('}'))
                    .ok_or_else(|| bad("a scoreboard set `{..}`"))?;
                let mut mask = 0i64;
                for part in inner.split(',') {
                    let n: u32 = part.trim().parse().map_err(|_| bad("a scoreboard set `{..}`"))?;
                    if n >= 6 {
                        return Err(bad("scoreboards 0..5"));
                    }
                    mask |= 1 << n;
                }
                Ok(Written::SbSet(mask))
            }
            OpSpec::Ext(ExtSpec::SbReg { .. }) => t
                .strip_prefix("SB")
                .and_then(|n| n.parse::<u8>().ok())
                .map(Written::Sb)
                .ok_or_else(|| bad("a scoreboard `SBn`")),
            OpSpec::Ext(ExtSpec::Abs { .. }) => self.parse_mem(t, None, col, reuse, &bad),
            OpSpec::Ext(ExtSpec::Implied { .. }) => parse_reg_num(t, "R", self.rz)
                .map(|num| Written::Reg { reg: Reg::r(num), suffix: false })
                .ok_or_else(|| bad("a register")),
            OpSpec::Ext(ExtSpec::Swizzled { reg, uniform, .. }) => {
                // A uniform register's bars enclose the swizzle: `-|UR4.H0_H0|` reads as
                // `-|UR4|` with the swizzle taken out from inside.
                let split = |t: &str| {
                    super::form::SWIZZLES
                        .iter()
                        .filter(|(_, sfx)| !sfx.is_empty())
                        .find_map(|(v, sfx)| t.strip_suffix(sfx).map(|b| (b.to_string(), *v)))
                };
                let (body, swz) = match (*uniform, t.strip_suffix('|')) {
                    (true, Some(inner)) => split(inner).map_or((t.to_string(), 0), |(b, v)| (format!("{b}|"), v)),
                    _ => split(t).unwrap_or((t.to_string(), 0)),
                };
                let spec = if *uniform { OpSpec::UReg(*reg) } else { OpSpec::Reg(*reg) };
                match self.parse_written(&spec, &body, col, reuse)? {
                    Written::Reg { reg, suffix } => Ok(Written::Reg { reg: Reg { swz, ..reg }, suffix }),
                    Written::UReg(r) => Ok(Written::UReg(Reg { swz, ..r })),
                    _ => Err(bad("a register")),
                }
            }
            OpSpec::Ext(ExtSpec::Suffixed { suffix, reuse: slot, .. }) => {
                let body = take_reuse(t, *slot, col, reuse)?;
                let (body, flag) = match body.strip_suffix(suffix) {
                    Some(b) => (b, true),
                    None => (body, false),
                };
                let num = parse_reg_num(body, "R", self.rz).ok_or_else(|| bad("a register"))?;
                Ok(Written::Reg { reg: Reg::r(num), suffix: flag })
            }
            OpSpec::BReg(_) => t
                .strip_prefix('B')
                .and_then(|n| n.parse::<u8>().ok())
                .map(Written::BReg)
                .ok_or_else(|| bad("a barrier register `Bn`")),
        }
    }

    /// `c[bank][offset]` or, where the slot has a base register, `c[bank][Ra+offset]`.
    fn parse_cbank<'t>(&self, t: &'t str, has_base: bool, bad: &dyn Fn(&str) -> PErr) -> Result<Written<'t>, PErr> {
        let rest = t.strip_prefix("c[").ok_or_else(|| bad("a constant `c[..][..]`"))?;
        // nvdisasm writes some sm_50 constants as `c[0x0] [0x150]`.
        let rest = &rest.replacen("] [", "][", 1);
        let (bank, rest) = rest.split_once("][").ok_or_else(|| bad("a constant `c[..][..]`"))?;
        let inner = rest.strip_suffix(']').ok_or_else(|| bad("a constant `c[..][..]`"))?;
        let bank =
            parse_num(bank).filter(|v| (0..256).contains(v)).ok_or_else(|| bad("a constant bank number"))? as u8;
        let mut base = self.rz;
        let mut offset: i64 = 0;
        for part in inner.split('+') {
            if let Some(n) = parse_reg_num(part, "R", self.rz) {
                if !has_base {
                    return Err(bad("a constant without register"));
                }
                base = n;
            } else {
                offset = parse_num(part).ok_or_else(|| bad("a constant offset"))?;
            }
        }
        Ok(Written::CBank { bank, base, offset, neg: false, abs: false, h1: false })
    }

    /// `desc[URd][Ra.64.X4+URb+offset]` and its shorter shapes.
    fn parse_mem<'t>(
        &self,
        t: &'t str,
        reuse_slot: Option<u8>,
        col: usize,
        reuse: &mut u8,
        bad: &dyn Fn(&str) -> PErr,
    ) -> Result<Written<'t>, PErr> {
        let mut rest = t;
        let mut desc = None;
        if let Some(r) = rest.strip_prefix("desc[") {
            let (d, r2) = r.split_once(']').ok_or_else(|| bad("`desc[URn]`"))?;
            desc = Some(parse_reg_num(d, "UR", self.urz).ok_or_else(|| bad("a descriptor uniform register"))?);
            rest = r2;
        }
        let inner = rest.strip_prefix('[').and_then(|r| r.strip_suffix(']')).ok_or_else(|| bad("an address `[..]`"))?;
        let (mut base, mut width, mut scale, mut ureg, mut offset) = (None, BaseWidth::Plain, 0, None, None);
        for part in inner.split('+') {
            if part.starts_with("UR") {
                if ureg.is_some() {
                    return Err(bad("an address with one uniform register"));
                }
                ureg = Some(parse_reg_num(part, "UR", self.urz).ok_or_else(|| bad("a uniform register"))?);
            } else if part.starts_with('R') {
                if base.is_some() {
                    return Err(bad("one base register"));
                }
                let mut p = take_reuse(part, reuse_slot, col, reuse)?;
                for (i, sfx) in [".X4", ".X8", ".X16"].iter().enumerate() {
                    if let Some(b) = p.strip_suffix(sfx) {
                        scale = i as u8 + 1;
                        p = b;
                        break;
                    }
                }
                let name = if let Some(b) = p.strip_suffix(".64") {
                    width = BaseWidth::Wide;
                    b
                } else if let Some(b) = p.strip_suffix(".U32") {
                    width = BaseWidth::U32;
                    b
                } else {
                    p
                };
                base = Some(parse_reg_num(name, "R", self.rz).ok_or_else(|| bad("a base register"))?);
            } else {
                offset = Some(parse_num(part).ok_or_else(|| bad("an address offset"))?);
            }
        }
        Ok(Written::Mem { desc, base, width, scale, ureg, offset })
    }

    /// The operand slots of form `form` left out when `given` operands are written: predicates
    /// nvdisasm hides when they are `PT`, the last ones of them (a partial list fills the first).
    /// Empty when `given` is not short of the form's slots by at most that many.
    pub fn hidden_operands(&self, form: u16, given: usize) -> SmallVec<[usize; 4]> {
        let form = &self.forms[form as usize];
        let hideable: SmallVec<[usize; 4]> = (0..form.ops.len())
            .filter(|&k| matches!(form.ops[k], OpSpec::Pred(p) | OpSpec::UPred(p) if p.hide_pt))
            .collect();
        match form.ops.len().checked_sub(given) {
            Some(k) if k > 0 && k <= hideable.len() => hideable[hideable.len() - k..].iter().copied().collect(),
            _ => SmallVec::new(),
        }
    }

    /// The forms of a mnemonic spelled `mnemonic`.
    pub(crate) fn candidates(&self, mnemonic: &str) -> &'static [u16] {
        Mnemonic::named(mnemonic).map_or(&[], |m| self.forms_of(m))
    }

    /// Which modifier values of form `fi` the tokens `toks` spell, and the alias token (IMAD's
    /// `MOV`) in front of them if the form has an alias and the tokens need one taken off.
    fn match_form(&self, fi: u16, toks: &[Tok]) -> Option<(Option<Tok>, SmallVec<[u64; 6]>)> {
        let form = &self.forms[fi as usize];
        let spelled = self.table.mod_toks[fi as usize];
        // An alias spelling (IMAD.MOV) may follow the mnemonic; it must match the operands.
        match (form.alias, toks.first()) {
            (Some(_), Some(t)) => match match_mods(form.mods, spelled, toks) {
                Some(mods) => Some((None, mods)),
                None => match_mods(form.mods, spelled, &toks[1..]).map(|mods| (Some(*t), mods)),
            },
            _ => match_mods(form.mods, spelled, toks).map(|mods| (None, mods)),
        }
    }

    /// Builds an instruction from its dotted opcode text (`ATOMG.E.ADD.STRONG.GPU`) and operand
    /// values, choosing the form whose modifiers and operand kinds fit; the schedule starts at
    /// [`Sched::default`].
    pub fn build(&self, opcode: &str, ops: &[Operand]) -> Result<Instr, AsmError> {
        let (mnemonic, toks) = tokens_of(opcode);
        let mut last = format!("unknown mnemonic `{}`", mnemonic);
        for &fi in self.candidates(mnemonic) {
            let form = &self.forms[fi as usize];
            let Some((alias_tok, mods)) = self.match_form(fi, &toks) else {
                last = format!("modifiers of `{}` fit no form of {}", opcode, mnemonic);
                continue;
            };
            let ins =
                Instr { form: fi, guard: Pred::PT, mods, ops: ops.iter().copied().collect(), sched: Sched::default() };
            match self.encode_word(&ins) {
                // An alias is how nvdisasm prints some operand values; the base spelling
                // encodes the same word, so it is accepted too (a wrong alias is not).
                Ok(_) if alias_tok.is_none() || form.alias.and_then(|a| a.spelling(&ins.mods, &ins.ops)) == alias_tok.map(Tok::name) => {
                    return Ok(ins)
                }
                Ok(_) => {
                    last = format!(
                        "`{}` does not match its operands (nvdisasm would print {})",
                        opcode,
                        self.opcode_text(&ins)
                    )
                }
                Err(e) => last = e.to_string(),
            }
        }
        Err(AsmError { line: 0, col: 0, msg: last })
    }

    /// Looks up a form by its key (`ATOMG.desc`).
    pub fn form_by_key(&self, key: &str) -> Option<(u16, &Form)> {
        self.forms.iter().enumerate().find(|(_, f)| f.key == key).map(|(i, f)| (i as u16, f))
    }

    /// Assembles a listing. Accepts nvdisasm output lines: optional `/*0040*/` address prefixes
    /// (used for branch targets; otherwise instructions are numbered consecutively), trailing
    /// `/* 0x... */` encoding comments, hex-only continuation lines, `.directives` and labels
    /// (ignored), and the schedule comment of [`Sched::comment`].
    pub fn assemble(&self, text: &str) -> Result<Vec<Instr>, AsmError> {
        let mut out = Vec::new();
        for (ln, line) in text.lines().enumerate() {
            let addr = self.instr_addr(out.len());
            if let Some(ins) = self.assemble_line(line, addr).map_err(|mut e| {
                e.line = ln + 1;
                e
            })? {
                out.push(ins);
            }
        }
        Ok(out)
    }

    /// Assembles one line at byte address `addr`; `Ok(None)` for lines without an instruction.
    /// Errors carry line 1.
    pub fn assemble_line(&self, line: &str, addr: u64) -> Result<Option<Instr>, AsmError> {
        let err = |col: usize, msg: String| AsmError { line: 1, col: col + 1, msg };
        let mut pos = 0usize;
        let skip_ws = |pos: &mut usize| {
            while *pos < line.len() && line.as_bytes()[*pos].is_ascii_whitespace() {
                *pos += 1;
            }
        };
        skip_ws(&mut pos);
        let mut addr = addr;
        // `/*0040*/` address prefix, or a hex-only continuation line.
        if line[pos..].starts_with("/*") {
            let end = line[pos + 2..].find("*/").ok_or_else(|| err(pos, "unterminated comment".into()))? + pos + 2;
            let inner = line[pos + 2..end].trim();
            if inner.starts_with("0x") && line[end + 2..].trim().is_empty() {
                return Ok(None);
            }
            if !inner.starts_with("0x") {
                addr = u64::from_str_radix(inner, 16).map_err(|_| err(pos, format!("bad address `{}`", inner)))?;
            }
            pos = end + 2;
            skip_ws(&mut pos);
        }
        let rest = &line[pos..];
        if rest.is_empty() || rest.starts_with("//") || rest.starts_with('.') || rest.ends_with(':') {
            return Ok(None);
        }
        let semi = rest.find(';').map(|i| i + pos);
        let stmt_end = semi.unwrap_or(line.len());
        let tail = semi.map(|s| &line[s + 1..]).unwrap_or("");
        let tight = semi.map(|s| s > 0 && !line.as_bytes()[s - 1].is_ascii_whitespace()).unwrap_or(false);
        let mut sched = Sched::default();
        if tight {
            sched.stall = 0;
        }
        if let Some(s) = parse_sched_comment(tail) {
            sched = s;
        }
        if let Some(hook) = self.asm_hook {
            // The hook must return `None` for its own output (it is applied again).
            match hook(line[pos..stmt_end].trim_end()) {
                Err(msg) => return Err(err(pos, msg)),
                Ok(Some(new)) => {
                    let l = format!("{}{}{}", new, if tight { ";" } else { " ;" }, tail);
                    return self.assemble_line(&l, addr);
                }
                Ok(None) => {}
            }
        }
        // Guard.
        let mut guard = Pred::PT;
        let mut guard_uniform: Option<bool> = None;
        if line[pos..].starts_with('@') {
            let end = line[pos..stmt_end].find(char::is_whitespace).map(|i| i + pos).unwrap_or(stmt_end);
            let g = &line[pos + 1..end];
            let uni = g.trim_start_matches('!').starts_with("UP");
            guard = parse_pred(g, if uni { "UP" } else { "P" })
                .ok_or_else(|| err(pos, format!("bad guard `{}`", &line[pos..end])))?;
            guard_uniform = Some(uni);
            pos = end;
            skip_ws(&mut pos);
        }
        let op_end = line[pos..stmt_end].find(char::is_whitespace).map(|i| i + pos).unwrap_or(stmt_end);
        let opcode = &line[pos..op_end];
        let opcode_col = pos;
        // Operands, split at commas outside braces (`DEPBAR {5,1}`), with their columns.
        let mut operands: Vec<(usize, &str)> = Vec::new();
        let body = &line[op_end..stmt_end];
        if !body.trim().is_empty() {
            let mut start = op_end;
            let mut depth = 0i32;
            for (i, ch) in body.char_indices() {
                match ch {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
                if ch == ',' && depth == 0 {
                    operands.push((start, &line[start..op_end + i]));
                    start = op_end + i + 1;
                }
            }
            operands.push((start, &line[start..stmt_end]));
        }
        let operands: Vec<(usize, &str)> = operands
            .into_iter()
            .map(|(c, t)| {
                let lead = t.len() - t.trim_start().len();
                (c + lead, t.trim())
            })
            .collect();
        let split_last = |form: &Form, operands: &mut Vec<(usize, &str)>| {
            // `RET.REL.NODEC R4 0x0`: the last two operands share a comma-separated chunk.
            if form.space_last {
                if let Some((col, last)) = operands.pop() {
                    match last.rsplit_once(char::is_whitespace) {
                        Some((a, b)) => {
                            operands.push((col, a.trim_end()));
                            operands.push((col + last.len() - b.len(), b));
                        }
                        None => operands.push((col, last)),
                    }
                }
            }
        };
        let pt = |uniform: bool| if uniform { "UPT" } else { "PT" };
        let mut parse =
            |spec: &OpSpec, t: &&str, col: usize, reuse: &mut u8| self.parse_operand(spec, t, col, addr, reuse);
        let (mnemonic, toks) = tokens_of(opcode);
        let cands = self.candidates(mnemonic);
        let text = Spelled { opcode: &opcode, mnemonic };
        self.choose_form(cands, &toks, &text, opcode_col, guard, guard_uniform, operands, &pt, &split_last, &mut parse, sched)
            .map(Some)
            .map_err(|(col, msg)| err(col, msg))
    }

    /// Picks the first form of `cands` (a mnemonic's forms) whose guard kind, modifiers (`toks`),
    /// operand count and operands fit, and which encodes; otherwise the error of the form that
    /// got furthest. `text` spells the opcode for those errors. `operands` are (column, operand)
    /// in nvdisasm order; `pt` writes a hidden `PT`/`UPT`; `split_last` adjusts the list for a
    /// form that reads it differently; `place` turns one operand into the slot's value.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn choose_form<T: Clone>(
        &self,
        cands: &[u16],
        toks: &[Tok],
        text: &Spelled,
        opcode_col: usize,
        guard: Pred,
        guard_uniform: Option<bool>,
        operands: Vec<(usize, T)>,
        pt: &dyn Fn(bool) -> T,
        split_last: &SplitLast<T>,
        place: &mut Place<T>,
        sched: Sched,
    ) -> Result<Instr, PErr> {
        if cands.is_empty() {
            return Err((opcode_col, format!("unknown mnemonic `{}`", text.mnemonic)));
        }
        let opcode = text.opcode;
        let mut best: Option<(usize, PErr)> = None;
        for &fi in cands {
            let form = &self.forms[fi as usize];
            if guard_uniform.is_some_and(|u| u != form.uniform_guard) {
                continue;
            }
            // An alias spelling (IMAD.MOV) is checked after the operands are known.
            let Some((alias_tok, mods)) = self.match_form(fi, toks) else { continue };
            let mut operands = operands.clone();
            split_last(form, &mut operands);
            for h in self.hidden_operands(fi, operands.len()) {
                operands.insert(h, (opcode_col, pt(matches!(form.ops[h], OpSpec::UPred(_)))));
            }
            if form.ops.len() != operands.len() {
                let e = (
                    opcode_col,
                    format!("`{}` takes {} operands here, found {}", opcode, form.ops.len(), operands.len()),
                );
                if best.as_ref().map(|b| b.0 == 0).unwrap_or(true) {
                    best = Some((0, e));
                }
                continue;
            }
            let mut reuse = 0u8;
            let mut ops = SmallVec::new();
            let mut failed = None;
            for (i, (spec, (col, t))) in form.ops.iter().zip(&operands).enumerate() {
                match place(spec, t, *col, &mut reuse) {
                    Ok(o) => ops.push(o),
                    Err(e) => {
                        failed = Some((i + 1, e));
                        break;
                    }
                }
            }
            match failed {
                None => {
                    let mut s = sched;
                    s.reuse |= reuse;
                    let ins = Instr { form: fi, guard, mods, ops, sched: s };
                    let want = form.alias.and_then(|a| a.spelling(&ins.mods, &ins.ops));
                    if alias_tok.is_some() && want != alias_tok.map(Tok::name) {
                        let e = (
                            opcode_col,
                            format!(
                                "`{}` does not match its operands (nvdisasm would print {})",
                                opcode,
                                self.opcode_text(&ins)
                            ),
                        );
                        if best.as_ref().map(|b| form.ops.len() >= b.0).unwrap_or(true) {
                            best = Some((form.ops.len(), e));
                        }
                        continue;
                    }
                    // A field out of range or a modifier this form lacks (`-Ra` where only
                    // the second source negates) may fit a later form of the mnemonic.
                    match self.encode_word(&ins) {
                        Ok(_) => return Ok(ins),
                        Err(e) => {
                            let n = form.ops.len() + 1;
                            if best.as_ref().map(|b| n > b.0).unwrap_or(true) {
                                best = Some((n, (opcode_col, e.to_string())));
                            }
                        }
                    }
                }
                Some((n, e)) => {
                    if best.as_ref().map(|b| n >= b.0).unwrap_or(true) {
                        best = Some((n, e));
                    }
                }
            }
        }
        let (col, msg) =
            best.map(|b| b.1).unwrap_or((opcode_col, format!("modifiers of `{}` fit no form of {}", opcode, text.mnemonic)));
        Err((col, msg))
    }
}

/// How [`Arch::choose_form`] spells the opcode in its errors: the text read, or the typed
/// opcode's spelling.
pub(crate) struct Spelled<'s> {
    /// Formatted only for an error, so the typed path prints nothing when a form fits.
    pub opcode: &'s dyn std::fmt::Display,
    pub mnemonic: &'s str,
}

/// Reads the schedule comment written by [`Sched::comment`], if present.
fn parse_sched_comment(tail: &str) -> Option<Sched> {
    let start = tail.find("/* S")?;
    let end = tail[start..].find("*/")? + start;
    let f: Vec<&str> = tail[start + 3..end].split_whitespace().collect();
    if f.len() != 6 {
        return None;
    }
    let sb = |t: &str, p: char| -> Option<u8> {
        let b = t.strip_prefix(p)?;
        if b == "-" {
            Some(7)
        } else {
            b.parse().ok().filter(|v| *v < 7)
        }
    };
    let stall = f[0].strip_prefix('S')?.parse().ok().filter(|v| *v < 16)?;
    let yield_ = match f[1] {
        "Y" => true,
        "-" => false,
        _ => return None,
    };
    let wb = f[4].strip_prefix('B')?;
    if wb.len() != 6 {
        return None;
    }
    let mut wait = 0u8;
    for (i, c) in wb.chars().enumerate() {
        if c != '-' {
            wait |= 1 << i;
        }
    }
    let reuse = u8::from_str_radix(f[5].strip_prefix('U')?, 16).ok().filter(|v| *v < 16)?;
    Some(Sched { stall, yield_, wr_sb: sb(f[2], 'W')?, rd_sb: sb(f[3], 'R')?, wait, reuse })
}
