//! Encoder and decoder: both walk the form's field descriptions, so they cannot disagree.

use super::bits::Field;
use super::form::{BaseWidth, ExtSpec, OpSpec, SchedLayout};
use super::instr::{Instr, Mem, Operand, Pred, Reg, Sched};
use super::{Arch, DecodeError, EncodeError};
use smallvec::SmallVec;

fn put_u(word: &mut u128, f: Field, v: u64, what: &'static str, key: &'static str) -> Result<(), EncodeError> {
    if !f.fits_unsigned(v) {
        return Err(EncodeError::OutOfRange { form: key, what, value: v as i64 });
    }
    f.set(word, v);
    Ok(())
}

fn put_s(word: &mut u128, f: Field, v: i64, what: &'static str, key: &'static str) -> Result<(), EncodeError> {
    if !f.fits_signed(v) {
        return Err(EncodeError::OutOfRange { form: key, what, value: v });
    }
    f.set(word, v as u64);
    Ok(())
}

fn put_flag(
    word: &mut u128,
    f: Option<Field>,
    on: bool,
    what: &'static str,
    key: &'static str,
) -> Result<(), EncodeError> {
    match f {
        Some(f) => f.set(word, on as u64),
        None if on => return Err(EncodeError::Unsupported { form: key, what }),
        None => {}
    }
    Ok(())
}

impl Arch {
    /// Encodes one instruction into its word (schedule bits included for in-word layouts).
    pub fn encode_word(&self, ins: &Instr) -> Result<u128, EncodeError> {
        let form = self.forms.get(ins.form as usize).ok_or(EncodeError::NoSuchForm(ins.form))?;
        let key = form.key;
        let (_, mut w) = form.pattern();
        if ins.guard.num > 7 {
            return Err(EncodeError::OutOfRange { form: key, what: "guard", value: ins.guard.num as i64 });
        }
        // A form that fixes the guard field has no guard (sm_50 `CAL`: ptxas writes 0 there and
        // nvdisasm prints none); it executes unconditionally.
        if self.has_guard(form) {
            self.guard.set(&mut w, ins.guard.num as u64);
            self.guard_not.set(&mut w, ins.guard.not as u64);
        } else if ins.guard != Pred::PT {
            return Err(EncodeError::OutOfRange { form: key, what: "guard (the form has none)", value: ins.guard.num as i64 });
        }
        if ins.mods.len() != form.mods.len() {
            return Err(EncodeError::ModifierCount { form: key, want: form.mods.len(), got: ins.mods.len() });
        }
        for (g, &v) in form.mods.iter().zip(&ins.mods) {
            if g.spelling(v).is_none() {
                return Err(EncodeError::BadModifier { form: key, group: g.name, value: v });
            }
            if let Some(f) = g.field {
                f.set(&mut w, v);
            }
        }
        if ins.ops.len() != form.ops.len() {
            return Err(EncodeError::OperandCount { form: key, want: form.ops.len(), got: ins.ops.len() });
        }
        for (slot, (spec, op)) in form.ops.iter().zip(&ins.ops).enumerate() {
            if let OpSpec::Ext(ExtSpec::Implied { from, delta }) = spec {
                let want = implied_reg(self.rz, &ins.ops, *from, *delta);
                if Some(*op) != want.map(Operand::Reg) {
                    return Err(EncodeError::Implied { form: key, slot, want: want.map(|r| r.num).unwrap_or(self.rz) });
                }
                continue;
            }
            self.encode_operand(&mut w, key, slot, spec, op)?;
        }
        if let SchedLayout::InWord { lo } = self.sched {
            let s = &ins.sched;
            if s.stall > 15 || s.wr_sb > 7 || s.rd_sb > 7 || s.wait > 0x3f || s.reuse > 0xf {
                return Err(EncodeError::OutOfRange { form: key, what: "schedule", value: s.to_bits() as i64 });
            }
            Field::new(lo, 21).set(&mut w, s.to_bits() as u64);
        }
        Ok(w)
    }

    fn encode_operand(
        &self,
        w: &mut u128,
        key: &'static str,
        slot: usize,
        spec: &OpSpec,
        op: &Operand,
    ) -> Result<(), EncodeError> {
        let mismatch = || EncodeError::OperandKind { form: key, slot };
        match (spec, op) {
            (OpSpec::Reg(r), Operand::Reg(v)) | (OpSpec::UReg(r), Operand::UReg(v)) => {
                let zero = if matches!(spec, OpSpec::Reg(_)) { self.rz } else { self.urz };
                if v.num == zero && !r.rz_ok {
                    return Err(EncodeError::ZeroNotAllowed { form: key, slot });
                }
                put_u(w, r.field, v.num as u64, "register", key)?;
                put_flag(w, r.neg, v.neg, "negation", key)?;
                put_flag(w, r.abs, v.abs, "absolute value", key)?;
                put_flag(w, r.not, v.not, "bitwise not", key)?;
            }
            (OpSpec::Pred(p), Operand::Pred(v)) | (OpSpec::UPred(p), Operand::UPred(v)) => {
                put_u(w, p.field, v.num as u64, "predicate", key)?;
                put_flag(w, p.not, v.not, "predicate not", key)?;
            }
            (OpSpec::Imm(i), Operand::Imm(v)) if matches!(i.kind, super::form::ImmKind::F32Hi20 | super::form::ImmKind::F64Hi20) => {
                if *v as u64 & !0xffff_f000 != 0 {
                    return Err(EncodeError::OutOfRange { form: key, what: "float immediate (low 12 bits)", value: *v });
                }
                i.field.set(w, (*v as u64) >> 12);
            }
            (OpSpec::Imm(i), Operand::Imm(v)) => {
                let ok = i.field.fits_signed(*v) || i.field.fits_unsigned(*v as u64);
                if !ok {
                    return Err(EncodeError::OutOfRange { form: key, what: "immediate", value: *v });
                }
                i.field.set(w, *v as u64);
            }
            (OpSpec::CBank(c), Operand::CBank { bank, base, offset, neg, abs, h1 }) => {
                put_flag(w, None, *neg, "constant negation", key)?;
                put_flag(w, None, *abs, "constant absolute value", key)?;
                put_flag(w, None, *h1, "constant half selector", key)?;
                put_u(w, c.bank, *bank as u64, "constant bank", key)?;
                put_u(w, c.offset, *offset as u64, "constant offset", key)?;
                match c.base {
                    Some(f) => put_u(w, f, *base as u64, "register", key)?,
                    None if *base != self.rz => return Err(mismatch()),
                    None => {}
                }
            }
            (OpSpec::Mem(m), Operand::Mem(v)) => {
                put_u(w, m.base, v.base as u64, "address register", key)?;
                if m.width != v.width {
                    return Err(mismatch());
                }
                match (m.ureg, v.ureg) {
                    (Some(f), Some(u)) => put_u(w, f, u as u64, "uniform register", key)?,
                    (None, None) => {}
                    _ => return Err(mismatch()),
                }
                match (m.desc, v.desc) {
                    (Some(f), Some(u)) => put_u(w, f, u as u64, "descriptor register", key)?,
                    (None, None) => {}
                    _ => return Err(mismatch()),
                }
                match m.offset {
                    Some(f) => put_s(w, f, v.offset, "address offset", key)?,
                    None if v.offset != 0 => {
                        return Err(EncodeError::OutOfRange { form: key, what: "address offset", value: v.offset })
                    }
                    None => {}
                }
                match m.scale {
                    Some(f) => put_u(w, f, v.scale as u64, "index scale", key)?,
                    None if v.scale != 0 => return Err(mismatch()),
                    None => {}
                }
                // nvdisasm prints `???255` for RZ as a 64-bit base next to a uniform register.
                if m.width == BaseWidth::Wide && m.ureg.is_some() && v.base == self.rz {
                    return Err(EncodeError::ZeroNotAllowed { form: key, slot });
                }
                if m.width == BaseWidth::Wide && v.base != self.rz && v.base % 2 != 0 {
                    return Err(EncodeError::Misaligned { form: key, slot });
                }
            }
            (OpSpec::Ext(ExtSpec::Swizzled { reg, swz, uniform }), Operand::Reg(v) | Operand::UReg(v))
                if *uniform == matches!(op, Operand::UReg(_)) =>
            {
                if !super::form::SWIZZLES.iter().any(|(s, _)| *s == v.swz) {
                    return Err(EncodeError::OutOfRange { form: key, what: "swizzle", value: v.swz as i64 });
                }
                let plain = Reg { swz: 0, ..*v };
                let (spec, op) =
                    if *uniform { (OpSpec::UReg(*reg), Operand::UReg(plain)) } else { (OpSpec::Reg(*reg), Operand::Reg(plain)) };
                self.encode_operand(w, key, slot, &spec, &op)?;
                swz.set(w, v.swz as u64);
            }
            (OpSpec::Ext(ExtSpec::Suffixed { field, flag, .. }), Operand::Reg(v)) => {
                if v.neg || v.abs {
                    return Err(mismatch());
                }
                put_u(w, *field, v.num as u64, "register", key)?;
                flag.set(w, v.not as u64);
            }
            (
                OpSpec::Ext(e @ ExtSpec::CBankMod { neg, abs, h1, .. }),
                Operand::CBank { bank, base, offset, neg: n, abs: a, h1: h },
            ) => {
                put_flag(w, *neg, *n, "constant negation", key)?;
                put_flag(w, *abs, *a, "constant absolute value", key)?;
                put_flag(w, *h1, *h, "constant half selector", key)?;
                let plain =
                    Operand::CBank { bank: *bank, base: *base, offset: *offset, neg: false, abs: false, h1: false };
                let scaled = ExtSpec::CBankScaled {
                    spec: match e.plain() {
                        Some(OpSpec::CBank(c)) => c,
                        _ => return Err(mismatch()),
                    },
                    shift: e.shift(),
                };
                self.encode_operand(w, key, slot, &OpSpec::Ext(scaled), &plain)?;
            }
            (OpSpec::Ext(ExtSpec::SbSet { field }), Operand::Imm(v)) => {
                if *v == 0 {
                    return Err(EncodeError::OutOfRange { form: key, what: "empty scoreboard set", value: 0 });
                }
                put_u(w, *field, *v as u64, "scoreboard set", key)?;
            }
            (OpSpec::Ext(ExtSpec::SbReg { field, max }), Operand::Imm(v)) => {
                if *v < 0 || *v > *max as i64 {
                    return Err(EncodeError::OutOfRange { form: key, what: "scoreboard", value: *v });
                }
                put_u(w, *field, *v as u64, "scoreboard", key)?;
            }
            (OpSpec::Ext(e @ (ExtSpec::MemScaled { .. } | ExtSpec::CBankScaled { .. })), op) => {
                let unit = 1i64 << e.shift();
                let scaled = match *op {
                    Operand::Mem(mut m) if m.offset % unit == 0 => {
                        m.offset /= unit;
                        Operand::Mem(m)
                    }
                    Operand::CBank { bank, base, offset, neg, abs, h1 } if offset as i64 % unit == 0 => {
                        Operand::CBank { bank, base, offset: offset >> e.shift(), neg, abs, h1 }
                    }
                    Operand::Mem(Mem { offset, .. }) => {
                        return Err(EncodeError::OutOfRange {
                            form: key,
                            what: "unaligned scaled offset",
                            value: offset,
                        })
                    }
                    Operand::CBank { offset, .. } => {
                        return Err(EncodeError::OutOfRange {
                            form: key,
                            what: "unaligned constant offset",
                            value: offset as i64,
                        })
                    }
                    _ => return Err(mismatch()),
                };
                let plain = e.plain().ok_or_else(mismatch)?;
                self.encode_operand(w, key, slot, &plain, &scaled)?;
            }
            (OpSpec::Ext(ExtSpec::Abs { field, shift }), Operand::Mem(m)) => {
                if m.base != self.rz
                    || m.ureg.is_some()
                    || m.desc.is_some()
                    || m.scale != 0
                    || m.width != BaseWidth::Plain
                {
                    return Err(mismatch());
                }
                let unit = 1i64 << shift;
                if m.offset < 0 || m.offset % unit != 0 {
                    return Err(EncodeError::OutOfRange { form: key, what: "absolute address", value: m.offset });
                }
                put_u(w, *field, (m.offset / unit) as u64, "absolute address", key)?;
            }
            (OpSpec::SReg(f), Operand::SReg(v)) => put_u(w, *f, *v as u64, "special register", key)?,
            (OpSpec::BReg(f), Operand::BReg(v)) => put_u(w, *f, *v as u64, "barrier register", key)?,
            (OpSpec::Target(f), Operand::Target(v)) => {
                if v % 4 != 0 {
                    return Err(EncodeError::OutOfRange { form: key, what: "branch offset", value: *v });
                }
                put_s(w, *f, v / 4, "branch offset", key)?;
            }
            _ => return Err(mismatch()),
        }
        Ok(())
    }

    /// Encodes one instruction to little-endian bytes (`word_bytes` long).
    pub fn encode(&self, ins: &Instr) -> Result<Vec<u8>, EncodeError> {
        if !matches!(self.sched, SchedLayout::InWord { .. }) {
            return Err(EncodeError::NeedsStream);
        }
        let w = self.encode_word(ins)?;
        Ok(w.to_le_bytes()[..self.word_bytes].to_vec())
    }

    /// Encodes a straight sequence of instructions.
    pub fn encode_all(&self, code: &[Instr]) -> Result<Vec<u8>, EncodeError> {
        if let SchedLayout::Bundle { .. } = self.sched {
            return self.encode_bundles(code);
        }
        let mut out = Vec::with_capacity(code.len() * self.word_bytes);
        for ins in code {
            out.extend(self.encode(ins)?);
        }
        Ok(out)
    }

    /// Finds the form whose identifying bits match (the most specific one wins).
    pub fn form_of_word(&self, w: u128) -> Option<u16> {
        self.decode_order().iter().find(|&&(m, v, _)| w & m == v).map(|&(_, _, i)| i)
    }

    /// Decodes one instruction word.
    pub fn decode_word(&self, w: u128) -> Result<Instr, DecodeError> {
        let idx = self.form_of_word(w).ok_or(DecodeError::UnknownOpcode { word: w })?;
        let form = &self.forms[idx as usize];
        let mut known = self.known_bits(idx) | self.guard.mask() | self.guard_not.mask();
        if let SchedLayout::InWord { lo } = self.sched {
            known |= Field::new(lo, 21).mask();
        }
        let stray = w & !known;
        if stray != 0 {
            return Err(DecodeError::UnknownBits { form: form.key, bits: stray, word: w });
        }
        let guard = if self.has_guard(form) {
            Pred { num: self.guard.get(w) as u8, not: self.guard_not.get(w) != 0 }
        } else {
            Pred::PT
        };
        let mut mods = SmallVec::new();
        for g in form.mods {
            let v = g.field.map(|f| f.get(w)).unwrap_or(0);
            if g.spelling(v).is_none() {
                return Err(DecodeError::InvalidModifier { form: form.key, group: g.name, value: v, word: w });
            }
            mods.push(v);
        }
        let mut ops: SmallVec<[Operand; 6]> = SmallVec::new();
        for spec in form.ops {
            let op = self.decode_operand(w, spec);
            // A swizzle nvdisasm prints as `INVALID1` is refused like an illegal modifier.
            if let (OpSpec::Ext(ExtSpec::Swizzled { .. }), Operand::Reg(r) | Operand::UReg(r)) = (spec, &op) {
                if !super::form::SWIZZLES.iter().any(|(v, _)| *v == r.swz) {
                    return Err(DecodeError::InvalidModifier { form: form.key, group: "swizzle", value: r.swz as u64, word: w });
                }
            }
            ops.push(op);
        }
        for (slot, spec) in form.ops.iter().enumerate() {
            if let OpSpec::Ext(ExtSpec::Implied { from, delta }) = spec {
                ops[slot] = Operand::Reg(implied_reg(self.rz, &ops, *from, *delta).unwrap_or(Reg::r(self.rz)));
            }
        }
        let sched = match self.sched {
            SchedLayout::InWord { lo } => Sched::from_bits(Field::new(lo, 21).get(w) as u32),
            SchedLayout::Bundle { .. } => Sched::default(),
        };
        Ok(Instr { form: idx, guard, mods, ops, sched })
    }

    fn decode_operand(&self, w: u128, spec: &OpSpec) -> Operand {
        let flag = |f: Option<Field>| f.map(|f| f.get(w) != 0).unwrap_or(false);
        match spec {
            OpSpec::Reg(r) | OpSpec::UReg(r) => {
                let v = Reg { num: r.field.get(w) as u8, neg: flag(r.neg), abs: flag(r.abs), not: flag(r.not), swz: 0 };
                if matches!(spec, OpSpec::Reg(_)) {
                    Operand::Reg(v)
                } else {
                    Operand::UReg(v)
                }
            }
            OpSpec::Pred(p) => Operand::Pred(Pred { num: p.field.get(w) as u8, not: flag(p.not) }),
            OpSpec::UPred(p) => Operand::UPred(Pred { num: p.field.get(w) as u8, not: flag(p.not) }),
            OpSpec::Imm(i) => match i.kind {
                super::form::ImmKind::SignedHex => Operand::Imm(i.field.get_signed(w)),
                super::form::ImmKind::F32Hi20 | super::form::ImmKind::F64Hi20 => Operand::Imm((i.field.get(w) << 12) as i64),
                _ => Operand::Imm(i.field.get(w) as i64),
            },
            OpSpec::CBank(c) => Operand::CBank {
                bank: c.bank.get(w) as u8,
                base: c.base.map(|f| f.get(w) as u8).unwrap_or(self.rz),
                offset: c.offset.get(w) as u32,
                neg: false,
                abs: false,
                h1: false,
            },
            OpSpec::Mem(m) => Operand::Mem(Mem {
                base: m.base.get(w) as u8,
                width: m.width,
                ureg: m.ureg.map(|f| f.get(w) as u8),
                desc: m.desc.map(|f| f.get(w) as u8),
                offset: m.offset.map(|f| f.get_signed(w)).unwrap_or(0),
                scale: m.scale.map(|f| f.get(w) as u8).unwrap_or(0),
            }),
            OpSpec::SReg(f) => Operand::SReg(f.get(w) as u16),
            OpSpec::BReg(f) => Operand::BReg(f.get(w) as u8),
            OpSpec::Target(f) => Operand::Target(f.get_signed(w) * 4),
            OpSpec::Ext(ExtSpec::Swizzled { reg, swz, uniform }) => {
                let spec = if *uniform { OpSpec::UReg(*reg) } else { OpSpec::Reg(*reg) };
                match self.decode_operand(w, &spec) {
                    Operand::Reg(r) => Operand::Reg(Reg { swz: swz.get(w) as u8, ..r }),
                    Operand::UReg(r) => Operand::UReg(Reg { swz: swz.get(w) as u8, ..r }),
                    other => other,
                }
            }
            OpSpec::Ext(ExtSpec::Suffixed { field, flag, .. }) => {
                Operand::Reg(Reg { num: field.get(w) as u8, not: flag.get(w) != 0, ..Reg::default() })
            }
            OpSpec::Ext(e @ (ExtSpec::MemScaled { .. } | ExtSpec::CBankScaled { .. })) => {
                let plain = e.plain().expect("scaled operands have a plain form");
                match self.decode_operand(w, &plain) {
                    Operand::Mem(mut m) => {
                        m.offset <<= e.shift();
                        Operand::Mem(m)
                    }
                    Operand::CBank { bank, base, offset, neg, abs, h1 } => {
                        Operand::CBank { bank, base, offset: offset << e.shift(), neg, abs, h1 }
                    }
                    other => other,
                }
            }
            OpSpec::Ext(e @ ExtSpec::CBankMod { spec, neg, abs, h1, .. }) => {
                match self.decode_operand(w, &OpSpec::Ext(ExtSpec::CBankScaled { spec: *spec, shift: e.shift() })) {
                    Operand::CBank { bank, base, offset, .. } => {
                        Operand::CBank { bank, base, offset, neg: flag(*neg), abs: flag(*abs), h1: flag(*h1) }
                    }
                    other => other,
                }
            }
            OpSpec::Ext(ExtSpec::SbSet { field } | ExtSpec::SbReg { field, .. }) => Operand::Imm(field.get(w) as i64),
            OpSpec::Ext(ExtSpec::Abs { field, shift }) => {
                Operand::Mem(Mem { base: self.rz, offset: (field.get(w) << shift) as i64, ..Mem::default() })
            }
            // Filled in from the other operands by `decode_word`.
            OpSpec::Ext(ExtSpec::Implied { .. }) => Operand::Reg(Reg::r(self.rz)),
        }
    }

    /// Decodes one instruction from little-endian bytes.
    pub fn decode(&self, bytes: &[u8]) -> Result<Instr, DecodeError> {
        if bytes.len() < self.word_bytes {
            return Err(DecodeError::Truncated { len: bytes.len() });
        }
        let mut b = [0u8; 16];
        b[..self.word_bytes].copy_from_slice(&bytes[..self.word_bytes]);
        self.decode_word(u128::from_le_bytes(b))
    }

    /// Decodes a whole code section; the error carries the failing byte offset.
    pub fn decode_all(&self, bytes: &[u8]) -> Result<Vec<Instr>, (usize, DecodeError)> {
        if let SchedLayout::Bundle { .. } = self.sched {
            return self.decode_bundles(bytes);
        }
        let mut out = Vec::new();
        for (i, chunk) in bytes.chunks(self.word_bytes).enumerate() {
            out.push(self.decode(chunk).map_err(|e| (i * self.word_bytes, e))?);
        }
        Ok(out)
    }
}

/// The register an [`ExtSpec::Implied`] slot stands for: `RZ`, or the register of slot `from`
/// plus `delta` (`None` when that slot holds no register or the sum leaves the file).
fn implied_reg(rz: u8, ops: &[Operand], from: Option<u8>, delta: u8) -> Option<Reg> {
    let Some(from) = from else { return Some(Reg::r(rz)) };
    match ops.get(from as usize) {
        Some(Operand::Reg(r)) if r.num != rz && (r.num as u16 + delta as u16) < rz as u16 => {
            Some(Reg::r(r.num + delta))
        }
        _ => None,
    }
}
