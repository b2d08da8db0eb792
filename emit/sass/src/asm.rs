//! The assembler: nvdisasm-syntax text back to instructions, choosing the form by mnemonic,
//! modifier spellings and operand shapes from the same table the printer uses.

use super::form::{BaseWidth, ExtSpec, Form, ImmKind, ModGroup, OpSpec};
use super::instr::{Instr, Mem, Operand, Pred, Reg, Sched};
use super::{Arch, AsmError};
use smallvec::SmallVec;

/// Error text plus the byte column (0-based, within the line) it refers to.
type PErr = (usize, String);

/// Matches dotted modifier tokens against the groups in printing order, with backtracking
/// (spellings may themselves contain dots, e.g. `STRONG.GPU`).
fn match_mods(groups: &[ModGroup], toks: &[&str]) -> Option<SmallVec<[u64; 6]>> {
    fn go(groups: &[ModGroup], toks: &[&str], out: &mut SmallVec<[u64; 6]>) -> bool {
        let Some(g) = groups.first() else {
            return toks.is_empty();
        };
        // Longer spellings first so `CAST.SPIN` wins over `CAST` when both could match.
        let mut vals: Vec<&(u64, &str)> = g.values.iter().collect();
        vals.sort_by_key(|(_, s)| std::cmp::Reverse(if s.is_empty() { 0 } else { s.split('.').count() }));
        for (v, sp) in vals {
            let n = if sp.is_empty() { 0 } else { sp.split('.').count() };
            if toks.len() < n || (n > 0 && toks[..n].join(".") != *sp) {
                continue;
            }
            out.push(*v);
            if go(&groups[1..], &toks[n..], out) {
                return true;
            }
            out.pop();
        }
        false
    }
    let mut out = SmallVec::new();
    go(groups, toks, &mut out).then_some(out)
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
fn f64_to_f16(f: f64) -> Option<u16> {
    if f.is_nan() {
        return Some(if f.is_sign_negative() { 0xfe00 } else { 0x7e00 });
    }
    let sign = if f.is_sign_negative() { 0x8000 } else { 0 };
    (0u16..0x7c01).find(|&b| super::print::f16_to_f64(b) == f.abs()).map(|b| b | sign)
}

/// The f32 bits of a float immediate's text (keeps signalling NaNs signalling).
fn parse_f32_bits(t: &str) -> Option<u32> {
    match t {
        "+SNAN" => Some(0x7f80_0001),
        "-SNAN" => Some(0xff80_0001),
        "+QNAN" | "QNAN" => Some(0x7fc0_0000),
        "-QNAN" => Some(0xffc0_0000),
        _ => parse_float(t).map(|f| (f as f32).to_bits()),
    }
}

impl Arch {
    fn parse_operand(&self, spec: &OpSpec, t: &str, col: usize, addr: u64, reuse: &mut u8) -> Result<Operand, PErr> {
        let bad = |what: &str| (col, format!("expected {}, found `{}`", what, t));
        let mut take_reuse = |t: &str, slot: Option<u8>| -> Result<String, PErr> {
            match t.strip_suffix(".reuse") {
                Some(b) => match slot {
                    Some(s) => {
                        *reuse |= 1 << s;
                        Ok(b.to_string())
                    }
                    None => Err((col, "`.reuse` is not allowed on this operand".into())),
                },
                None => Ok(t.to_string()),
            }
        };
        match spec {
            OpSpec::Reg(rs) | OpSpec::UReg(rs) => {
                let uniform = matches!(spec, OpSpec::UReg(_));
                let mut body = take_reuse(t, rs.reuse)?;
                let mut r = Reg::default();
                if let Some(b) = body.strip_prefix('~') {
                    r.not = true;
                    body = b.to_string();
                }
                if let Some(b) = body.strip_prefix('-') {
                    r.neg = true;
                    body = b.to_string();
                }
                if body.len() >= 2 && body.starts_with('|') && body.ends_with('|') {
                    r.abs = true;
                    body = body[1..body.len() - 1].to_string();
                }
                let (prefix, zero) = if uniform { ("UR", self.urz) } else { ("R", self.rz) };
                r.num = parse_reg_num(&body, prefix, zero)
                    .ok_or_else(|| bad(if uniform { "a uniform register" } else { "a register" }))?;
                Ok(if uniform { Operand::UReg(r) } else { Operand::Reg(r) })
            }
            OpSpec::Pred(_) => parse_pred(t, "P").map(Operand::Pred).ok_or_else(|| bad("a predicate")),
            OpSpec::UPred(_) => parse_pred(t, "UP").map(Operand::UPred).ok_or_else(|| bad("a uniform predicate")),
            OpSpec::Imm(i) => match i.kind {
                ImmKind::Hex | ImmKind::SignedHex => {
                    if !t.contains("0x") {
                        return Err(bad("a hex immediate"));
                    }
                    let v = parse_num(t).ok_or_else(|| bad("a hex immediate"))?;
                    let ok =
                        if i.kind == ImmKind::Hex { i.field.fits_unsigned(v as u64) } else { i.field.fits_signed(v) };
                    if !ok {
                        return Err((col, format!("immediate `{}` does not fit in {} bits", t, i.field.width())));
                    }
                    let w = i.field.width();
                    let masked = if w >= 64 { v } else { ((v as u64) & ((1u64 << w) - 1)) as i64 };
                    Ok(Operand::Imm(if i.kind == ImmKind::SignedHex { v } else { masked }))
                }
                ImmKind::F32 | ImmKind::F32Hi20 => {
                    if t.contains("0x") {
                        return Err(bad("a float immediate"));
                    }
                    let b = parse_f32_bits(t).ok_or_else(|| bad("a float immediate"))?;
                    Ok(Operand::Imm(b as i64))
                }
                ImmKind::F16 => {
                    let bits = match t {
                        "+SNAN" => 0x7c01,
                        "-SNAN" => 0xfc01,
                        "+QNAN" | "QNAN" => 0x7e00,
                        "-QNAN" => 0xfe00,
                        _ => {
                            let f = parse_float(t).ok_or_else(|| bad("a half-precision immediate"))?;
                            f64_to_f16(f).ok_or_else(|| (col, format!("`{}` is not a half-precision value", t)))?
                        }
                    };
                    Ok(Operand::Imm(bits as i64))
                }
                ImmKind::F64Hi => {
                    let f = parse_float(t).ok_or_else(|| bad("a float immediate"))?;
                    let b = f.to_bits();
                    if b & 0xffff_ffff != 0 {
                        return Err((col, format!("`{}` needs more than the 32 high bits of a double", t)));
                    }
                    Ok(Operand::Imm((b >> 32) as i64))
                }
            },
            OpSpec::CBank(c) => {
                let rest = t.strip_prefix("c[").ok_or_else(|| bad("a constant `c[..][..]`"))?;
                // nvdisasm writes some sm_50 constants as `c[0x0] [0x150]`.
                let rest = &rest.replacen("] [", "][", 1);
                let (bank, rest) = rest.split_once("][").ok_or_else(|| bad("a constant `c[..][..]`"))?;
                let inner = rest.strip_suffix(']').ok_or_else(|| bad("a constant `c[..][..]`"))?;
                let bank = parse_num(bank)
                    .filter(|v| (0..256).contains(v))
                    .ok_or_else(|| bad("a constant bank number"))? as u8;
                let mut base = self.rz;
                let mut offset: i64 = 0;
                for part in inner.split('+') {
                    if let Some(n) = parse_reg_num(part, "R", self.rz) {
                        if c.base.is_none() {
                            return Err(bad("a constant without register"));
                        }
                        base = n;
                    } else {
                        offset = parse_num(part).ok_or_else(|| bad("a constant offset"))?;
                    }
                }
                if offset < 0 || !c.offset.fits_unsigned(offset as u64) {
                    return Err((col, format!("constant offset `{}` out of range", inner)));
                }
                Ok(Operand::CBank { bank, base, offset: offset as u32, neg: false, abs: false, h1: false })
            }
            OpSpec::Mem(m) => {
                let mut rest = t;
                let mut desc = None;
                if let Some(r) = rest.strip_prefix("desc[") {
                    let (d, r2) = r.split_once(']').ok_or_else(|| bad("`desc[URn]`"))?;
                    desc = Some(parse_reg_num(d, "UR", self.urz).ok_or_else(|| bad("a descriptor uniform register"))?);
                    rest = r2;
                }
                if desc.is_some() != m.desc.is_some() {
                    return Err(bad(if m.desc.is_some() {
                        "a `desc[..]` address"
                    } else {
                        "an address without `desc`"
                    }));
                }
                let inner =
                    rest.strip_prefix('[').and_then(|r| r.strip_suffix(']')).ok_or_else(|| bad("an address `[..]`"))?;
                let mut v = Mem { width: m.width, desc, ..Mem::default() };
                let mut saw_base = false;
                for part in inner.split('+') {
                    if part.starts_with("UR") {
                        if m.ureg.is_none() || v.ureg.is_some() {
                            return Err(bad("an address without a uniform register"));
                        }
                        v.ureg = Some(parse_reg_num(part, "UR", self.urz).ok_or_else(|| bad("a uniform register"))?);
                    } else if part.starts_with('R') {
                        if saw_base {
                            return Err(bad("one base register"));
                        }
                        saw_base = true;
                        let mut p = take_reuse(part, m.reuse)?;
                        for (i, sfx) in [".X4", ".X8", ".X16"].iter().enumerate() {
                            if let Some(b) = p.strip_suffix(sfx) {
                                if m.scale.is_none() {
                                    return Err(bad("an unscaled base register"));
                                }
                                v.scale = i as u8 + 1;
                                p = b.to_string();
                                break;
                            }
                        }
                        let (name, width) = if let Some(b) = p.strip_suffix(".64") {
                            (b, BaseWidth::Wide)
                        } else if let Some(b) = p.strip_suffix(".U32") {
                            (b, BaseWidth::U32)
                        } else {
                            (p.as_str(), BaseWidth::Plain)
                        };
                        if width != m.width {
                            return Err(bad(match m.width {
                                BaseWidth::Plain => "a plain base register",
                                BaseWidth::Wide => "a `.64` base register",
                                BaseWidth::U32 => "a `.U32` base register",
                            }));
                        }
                        v.base = parse_reg_num(name, "R", self.rz).ok_or_else(|| bad("a base register"))?;
                    } else {
                        let o = parse_num(part).ok_or_else(|| bad("an address offset"))?;
                        match m.offset {
                            Some(f) if f.fits_signed(o) => v.offset = o,
                            // An absolute address is printed unsigned: read it back as the field's bits.
                            Some(f) if o >= 0 && f.fits_unsigned(o as u64) => {
                                let w = f.width();
                                v.offset = ((o as u64) << (64 - w)) as i64 >> (64 - w);
                            }
                            _ => return Err((col, format!("address offset `{}` out of range for this form", part))),
                        }
                    }
                }
                if m.ureg.is_some() && v.ureg.is_none() {
                    return Err(bad("an address with a uniform register"));
                }
                Ok(Operand::Mem(v))
            }
            OpSpec::SReg(_) => self
                .sregs
                .iter()
                .find(|(_, n)| *n == t)
                .map(|(v, _)| Operand::SReg(*v))
                .ok_or_else(|| bad("a special register")),
            OpSpec::Target(_) => {
                let a = parse_num(t).filter(|_| t.contains("0x")).ok_or_else(|| bad("a branch target address"))?;
                Ok(Operand::Target(a - addr as i64 - self.word_bytes as i64))
            }
            OpSpec::Ext(e @ (ExtSpec::MemScaled { .. } | ExtSpec::CBankScaled { .. })) => {
                // Parse as the plain kind with the field widened by the scale, then check
                // that the byte offset is a multiple of the unit.
                let sh = e.shift();
                let widen = |f: super::bits::Field| {
                    let p = f.parts()[0];
                    super::bits::Field::new(p.0, p.1 + sh)
                };
                let wide = match *e {
                    ExtSpec::MemScaled { spec, .. } => {
                        OpSpec::Mem(super::form::MemSpec { offset: spec.offset.map(widen), ..spec })
                    }
                    ExtSpec::CBankScaled { spec, .. } => {
                        OpSpec::CBank(super::form::CBankSpec { offset: widen(spec.offset), ..spec })
                    }
                    _ => unreachable!("matched above"),
                };
                let v = self.parse_operand(&wide, t, col, addr, reuse)?;
                let off = match v {
                    Operand::Mem(m) => m.offset,
                    Operand::CBank { offset, .. } => offset as i64,
                    _ => 0,
                };
                if off % (1i64 << sh) != 0 {
                    return Err((col, format!("offset in `{}` must be a multiple of {}", t, 1i64 << sh)));
                }
                Ok(v)
            }
            OpSpec::Ext(e @ ExtSpec::CBankMod { spec, .. }) => {
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
                let scaled = OpSpec::Ext(ExtSpec::CBankScaled { spec: *spec, shift: e.shift() });
                match self.parse_operand(&scaled, body, col, addr, reuse)? {
                    Operand::CBank { bank, base, offset, .. } => {
                        Ok(Operand::CBank { bank, base, offset, neg, abs, h1 })
                    }
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
                Ok(Operand::Imm(mask))
            }
            OpSpec::Ext(ExtSpec::SbReg { max, .. }) => t
                .strip_prefix("SB")
                .and_then(|n| n.parse::<u8>().ok())
                .filter(|n| n <= max)
                .map(|n| Operand::Imm(n as i64))
                .ok_or_else(|| bad("a scoreboard `SBn`")),
            OpSpec::Ext(ExtSpec::Abs { field, shift }) => {
                let inner =
                    t.strip_prefix('[').and_then(|r| r.strip_suffix(']')).ok_or_else(|| bad("an address `[..]`"))?;
                let off = if inner == "RZ" {
                    0
                } else {
                    parse_num(inner).filter(|_| inner.starts_with("0x")).ok_or_else(|| bad("an absolute address"))?
                };
                let unit = 1i64 << shift;
                if off < 0 || off % unit != 0 || !field.fits_unsigned((off / unit) as u64) {
                    return Err((col, format!("absolute address `{}` out of range for this form", inner)));
                }
                Ok(Operand::Mem(Mem { base: self.rz, offset: off, ..Mem::default() }))
            }
            OpSpec::Ext(ExtSpec::Implied { from: None, .. }) => match t {
                "RZ" => Ok(Operand::rz()),
                _ => Err(bad("RZ")),
            },
            OpSpec::Ext(ExtSpec::Implied { .. }) => parse_reg_num(t, "R", self.rz)
                .filter(|&n| n != self.rz)
                .map(Operand::r)
                .ok_or_else(|| bad("a register other than RZ")),
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
                match self.parse_operand(&spec, &body, col, addr, reuse)? {
                    Operand::Reg(r) => Ok(Operand::Reg(Reg { swz, ..r })),
                    Operand::UReg(r) => Ok(Operand::UReg(Reg { swz, ..r })),
                    other => Ok(other),
                }
            }
            OpSpec::Ext(ExtSpec::Suffixed { suffix, reuse: slot, .. }) => {
                let body = take_reuse(t, *slot)?;
                let (body, flag) = match body.strip_suffix(suffix) {
                    Some(b) => (b.to_string(), true),
                    None => (body, false),
                };
                let num = parse_reg_num(&body, "R", self.rz).ok_or_else(|| bad("a register"))?;
                Ok(Operand::Reg(Reg { num, not: flag, ..Reg::default() }))
            }
            OpSpec::BReg(_) => t
                .strip_prefix('B')
                .and_then(|n| n.parse::<u8>().ok())
                .filter(|n| *n < 16)
                .map(Operand::BReg)
                .ok_or_else(|| bad("a barrier register `Bn`")),
        }
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

    fn candidates(&self, mnemonic: &str) -> &[u16] {
        self.forms_named(mnemonic)
    }

    /// Builds an instruction from its dotted opcode text (`ATOMG.E.ADD.STRONG.GPU`) and operand
    /// values, choosing the form whose modifiers and operand kinds fit. This is the entry point
    /// for instruction selection; the schedule starts at [`Sched::default`].
    pub fn build(&self, opcode: &str, ops: &[Operand]) -> Result<Instr, AsmError> {
        let toks: Vec<&str> = opcode.split('.').collect();
        let mut last = format!("unknown mnemonic `{}`", toks[0]);
        for &fi in self.candidates(toks[0]) {
            let form = &self.forms[fi as usize];
            // An alias spelling (IMAD.MOV) may follow the mnemonic; it must match the operands.
            let (alias_tok, mod_toks): (Option<&str>, &[&str]) = match (form.alias, toks.get(1)) {
                (Some(_), Some(t)) if match_mods(form.mods, &toks[1..]).is_none() => (Some(*t), &toks[2..]),
                _ => (None, &toks[1..]),
            };
            let Some(mods) = match_mods(form.mods, mod_toks) else {
                last = format!("modifiers of `{}` fit no form of {}", opcode, toks[0]);
                continue;
            };
            let ins =
                Instr { form: fi, guard: Pred::PT, mods, ops: ops.iter().copied().collect(), sched: Sched::default() };
            match self.encode_word(&ins) {
                // An alias is how nvdisasm prints some operand values; the base spelling
                // encodes the same word, so it is accepted too (a wrong alias is not).
                Ok(_) if alias_tok.is_none() || form.alias.and_then(|a| a.spelling(&ins.mods, &ins.ops)) == alias_tok => {
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
        let toks: Vec<&str> = opcode.split('.').collect();
        let cands = self.candidates(toks[0]);
        if cands.is_empty() {
            return Err(err(opcode_col, format!("unknown mnemonic `{}`", toks[0])));
        }
        let mut best: Option<(usize, PErr)> = None;
        for &fi in cands {
            let form = &self.forms[fi as usize];
            if guard_uniform.is_some_and(|u| u != form.uniform_guard) {
                continue;
            }
            // An alias spelling (IMAD.MOV) is checked after the operands are known.
            let (alias_tok, mod_toks): (Option<&str>, &[&str]) = match (form.alias, toks.get(1)) {
                (Some(_), Some(t)) if match_mods(form.mods, &toks[1..]).is_none() => (Some(*t), &toks[2..]),
                _ => (None, &toks[1..]),
            };
            let Some(mods) = match_mods(form.mods, mod_toks) else { continue };
            let mut operands = operands.clone();
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
            for h in self.hidden_operands(fi, operands.len()) {
                let pt = if matches!(form.ops[h], OpSpec::UPred(_)) { "UPT" } else { "PT" };
                operands.insert(h, (opcode_col, pt));
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
                match self.parse_operand(spec, t, *col, addr, &mut reuse) {
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
                    if alias_tok.is_some() && want != alias_tok {
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
                        Ok(_) => return Ok(Some(ins)),
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
            best.map(|b| b.1).unwrap_or((opcode_col, format!("modifiers of `{}` fit no form of {}", opcode, toks[0])));
        Err(err(col, msg))
    }
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
