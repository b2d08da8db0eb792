//! Operands as written: the values an operand's text names (`-R5.H0_H0`, `0x1f`, `-1.5`,
//! `c[0x0][0x10]`, `[R2+UR4+0x8]`), before a form says which fields hold them.
//!
//! Both ways into the form table meet here. The assembler reads text into [`Written`] values
//! (syntax only); instruction selection hands its operands over as [`Written`] values directly
//! with a typed opcode ([`Arch::assemble_op`]), with nothing printed or parsed. `Arch::place` then applies
//! the form's rules (which operand kinds a slot takes, how an immediate is held, which offsets a
//! memory operand may carry) once for both, and the encoder checks every field's range.

use super::form::{BaseWidth, CBankSpec, ExtSpec, ImmKind, ImmSpec, MemSpec, OpSpec};
use super::form::Tok;
use super::instr::{Instr, Mem, Operand, Pred, Reg};
use super::op::Opcode;
use super::{Arch, AsmError};

/// One operand as written.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Written<'a> {
    /// A general register with its source modifiers (`-`, `|..|`, `~`, a half-precision
    /// swizzle in `reg.swz`); `suffix` is the form's one-bit register suffix (sm_50 `R2.CC`,
    /// `R3.H1`).
    Reg { reg: Reg, suffix: bool },
    /// A uniform register (`UR4`, `URZ`, `-|UR4.H0_H0|`).
    UReg(Reg),
    /// `P0`, `!PT`.
    Pred(Pred),
    /// `UP0`, `!UPT`.
    UPred(Pred),
    /// A hex integer (`0x1f`, `-0x4`).
    Int(i64),
    /// A decimal float (`0.5`, `-1.5e+10`, `+INF`).
    Float(f64),
    /// A NaN spelled by its kind (`+QNAN`, `-SNAN`).
    Nan { negative: bool, signalling: bool },
    /// `c[bank][base+offset]` (`base` RZ when there is no register) with the modifiers of the
    /// sm_50 constant forms: `-c[..]`, `|c[..]|`, `c[..].H1`.
    CBank { bank: u8, base: u8, offset: i64, neg: bool, abs: bool, h1: bool },
    /// `desc[URd][Ra.64.X4+URb+offset]`: `base` is `None` when no general register is
    /// written (`[UR4+0x8]`, `[0x80]`), `offset` when no offset is.
    Mem { desc: Option<u8>, base: Option<u8>, width: BaseWidth, scale: u8, ureg: Option<u8>, offset: Option<i64> },
    /// A special register by name (`SR_TID.X`).
    SReg(&'a str),
    /// A branch target's absolute byte address.
    Target(i64),
    /// A convergence barrier register `Bn`.
    BReg(u8),
    /// A set of scoreboards `{5,1}` as a mask.
    SbSet(i64),
    /// A scoreboard `SBn`.
    Sb(u8),
}

/// Why a written operand does not fit a slot.
pub(crate) enum Misfit {
    /// The slot takes another kind of operand (the text layer says which).
    Kind,
    /// The kind fits but a value does not.
    Value(String),
}

/// An offset field counting `1 << shift` bytes, as a field of byte offsets.
fn widened(f: super::bits::Field, shift: u8) -> super::bits::Field {
    if shift == 0 {
        return f;
    }
    let p = f.parts()[0];
    super::bits::Field::new(p.0, p.1 + shift)
}

fn hex(v: i64) -> String {
    if v < 0 {
        format!("-0x{:x}", v.unsigned_abs())
    } else {
        format!("0x{v:x}")
    }
}

impl Arch {
    /// The operand value slot `spec` holds for `w`, in an instruction at byte address `addr`.
    pub(crate) fn place(&self, spec: &OpSpec, w: &Written, addr: u64) -> Result<Operand, Misfit> {
        let plain_reg = |r: &Reg| !r.neg && !r.abs && !r.not && r.swz == 0;
        match (spec, *w) {
            (OpSpec::Reg(_), Written::Reg { reg, suffix: false }) if reg.swz == 0 => Ok(Operand::Reg(reg)),
            (OpSpec::UReg(_), Written::UReg(reg)) if reg.swz == 0 => Ok(Operand::UReg(reg)),
            (OpSpec::Pred(_), Written::Pred(p)) => Ok(Operand::Pred(p)),
            (OpSpec::UPred(_), Written::UPred(p)) => Ok(Operand::UPred(p)),
            (OpSpec::Imm(i), _) => place_imm(i, w).map(Operand::Imm),
            (OpSpec::CBank(c), Written::CBank { bank, base, offset, neg: false, abs: false, h1: false }) => {
                self.place_cbank(c, bank, base, offset, 0)
            }
            (OpSpec::Mem(m), Written::Mem { .. }) => place_mem(m, w, 0).map(Operand::Mem),
            (OpSpec::SReg(_), Written::SReg(name)) => self
                .sregs
                .iter()
                .find(|(_, n)| *n == name)
                .map(|(v, _)| Operand::SReg(*v))
                .ok_or(Misfit::Kind),
            (OpSpec::Target(_), Written::Target(a)) => {
                Ok(Operand::Target(a.wrapping_sub(addr as i64).wrapping_sub(self.word_bytes as i64)))
            }
            (OpSpec::BReg(_), Written::BReg(n)) if n < 16 => Ok(Operand::BReg(n)),
            (OpSpec::Ext(ExtSpec::MemScaled { spec, shift }), Written::Mem { .. }) => {
                place_mem(spec, w, *shift).map(Operand::Mem)
            }
            (OpSpec::Ext(ExtSpec::CBankScaled { spec, shift }), Written::CBank { bank, base, offset, neg: false, abs: false, h1: false }) => {
                self.place_cbank(spec, bank, base, offset, *shift)
            }
            (OpSpec::Ext(ExtSpec::CBankMod { spec, shift, .. }), Written::CBank { bank, base, offset, neg, abs, h1 }) => {
                match self.place_cbank(spec, bank, base, offset, *shift)? {
                    Operand::CBank { bank, base, offset, .. } => Ok(Operand::CBank { bank, base, offset, neg, abs, h1 }),
                    other => Ok(other),
                }
            }
            (OpSpec::Ext(ExtSpec::SbSet { .. }), Written::SbSet(mask)) => Ok(Operand::Imm(mask)),
            (OpSpec::Ext(ExtSpec::SbReg { max, .. }), Written::Sb(n)) if n <= *max => Ok(Operand::Imm(n as i64)),
            (OpSpec::Ext(ExtSpec::Abs { field, shift }), Written::Mem { desc: None, base, scale: 0, ureg: None, offset, .. }) => {
                // `[RZ]` or `[0x80]`; the form fixes the base field to RZ.
                let off = match (base, offset) {
                    (Some(b), None) if b == self.rz => 0,
                    (None, Some(o)) => o,
                    _ => return Err(Misfit::Kind),
                };
                let unit = 1i64 << shift;
                if off < 0 || off % unit != 0 || !field.fits_unsigned((off / unit) as u64) {
                    return Err(Misfit::Value(format!("absolute address `{}` out of range for this form", hex(off))));
                }
                Ok(Operand::Mem(Mem { base: self.rz, offset: off, ..Mem::default() }))
            }
            (OpSpec::Ext(ExtSpec::Implied { from: None, .. }), Written::Reg { reg, suffix: false })
                if plain_reg(&reg) && reg.num == self.rz =>
            {
                Ok(Operand::rz())
            }
            (OpSpec::Ext(ExtSpec::Implied { from: Some(_), .. }), Written::Reg { reg, suffix: false })
                if plain_reg(&reg) && reg.num != self.rz =>
            {
                Ok(Operand::r(reg.num))
            }
            (OpSpec::Ext(ExtSpec::Swizzled { uniform: false, .. }), Written::Reg { reg, suffix: false }) => Ok(Operand::Reg(reg)),
            (OpSpec::Ext(ExtSpec::Swizzled { uniform: true, .. }), Written::UReg(reg)) => Ok(Operand::UReg(reg)),
            // The suffix flag travels in `not` (see `ExtSpec::Suffixed`).
            (OpSpec::Ext(ExtSpec::Suffixed { .. }), Written::Reg { reg, suffix }) if plain_reg(&reg) => {
                Ok(Operand::Reg(Reg { num: reg.num, not: suffix, ..Reg::default() }))
            }
            _ => Err(Misfit::Kind),
        }
    }

    /// A constant `c[bank][base+offset]` in a slot whose offset field counts `1 << shift` bytes.
    fn place_cbank(&self, c: &CBankSpec, bank: u8, base: u8, offset: i64, shift: u8) -> Result<Operand, Misfit> {
        if base != self.rz && c.base.is_none() {
            return Err(Misfit::Kind);
        }
        let field = widened(c.offset, shift);
        if offset < 0 || !field.fits_unsigned(offset as u64) {
            return Err(Misfit::Value(format!("constant offset `{}` out of range", hex(offset))));
        }
        if offset % (1i64 << shift) != 0 {
            return Err(Misfit::Value(format!("constant offset `{}` must be a multiple of {}", hex(offset), 1i64 << shift)));
        }
        Ok(Operand::CBank { bank, base, offset: offset as u32, neg: false, abs: false, h1: false })
    }

    /// Builds an instruction from its dotted opcode text (`ATOMG.E.ADD.STRONG.GPU`), guard and
    /// operands as written: [`Arch::assemble_op`] of the opcode's tokens.
    pub fn assemble_written(&self, guard: Option<Pred>, opcode: &str, ops: &[Written], addr: u64) -> Result<Instr, AsmError> {
        match Opcode::parse(opcode) {
            Some(op) => self.assemble_op(guard, op, ops, addr),
            // Outside the vocabulary: no form spells it, and the assembler says why.
            None => {
                let items: Vec<(usize, Written)> = ops.iter().map(|w| (0, *w)).collect();
                let (mnemonic, toks) = super::asm::tokens_of(opcode);
                let text = super::asm::Spelled { opcode: &opcode, mnemonic };
                self.choose_written(self.candidates(mnemonic), &toks, &text, guard, items, addr)
            }
        }
    }

    /// Builds an instruction from its typed opcode, guard and operands as written, in
    /// nvdisasm's order (predicates nvdisasm hides when `PT` may be left out), at byte address
    /// `addr`: the form and modifier values are chosen exactly as the assembler chooses them for
    /// the same text, without any text.
    pub fn assemble_op(&self, guard: Option<Pred>, opcode: Opcode, ops: &[Written], addr: u64) -> Result<Instr, AsmError> {
        let mut ops: smallvec::SmallVec<[Written; 6]> = ops.iter().copied().collect();
        let mut opcode = opcode;
        if let Some(hook) = self.written_hook {
            hook(&mut opcode, &mut ops).map_err(|msg| AsmError { line: 1, col: 1, msg })?;
        }
        let items: Vec<(usize, Written)> = ops.into_iter().map(|w| (0, w)).collect();
        let text = super::asm::Spelled { opcode: &opcode, mnemonic: opcode.mnemonic().name() };
        self.choose_written(self.forms_of(opcode.mnemonic()), opcode.toks(), &text, guard, items, addr)
    }

    /// [`Arch::choose_form`] for operands as written.
    fn choose_written(
        &self,
        cands: &[u16],
        toks: &[Tok],
        text: &super::asm::Spelled,
        guard: Option<Pred>,
        items: Vec<(usize, Written)>,
        addr: u64,
    ) -> Result<Instr, AsmError> {
        let pt = |uniform: bool| if uniform { Written::UPred(Pred::PT) } else { Written::Pred(Pred::PT) };
        let guard_uniform = guard.map(|_| false);
        self.choose_form(
            cands,
            toks,
            text,
            0,
            guard.unwrap_or(Pred::PT),
            guard_uniform,
            items,
            &pt,
            &|_, _| {},
            &mut |spec, w: &Written, col, _reuse| {
                self.place(spec, w, addr).map_err(|m| match m {
                    Misfit::Kind => (col, format!("{w:?} does not fit this operand")),
                    Misfit::Value(msg) => (col, msg),
                })
            },
            Default::default(),
        )
        .map_err(|(col, msg)| AsmError { line: 1, col: col + 1, msg })
    }
}

/// An immediate slot's value for `w`: hex integers in hex slots (unsigned ones masked to the
/// field), floats in float slots.
fn place_imm(i: &ImmSpec, w: &Written) -> Result<i64, Misfit> {
    match (i.kind, *w) {
        (ImmKind::Hex | ImmKind::SignedHex, Written::Int(v)) => {
            let ok = if i.kind == ImmKind::Hex { i.field.fits_unsigned(v as u64) } else { i.field.fits_signed(v) };
            if !ok {
                return Err(Misfit::Value(format!("immediate `{}` does not fit in {} bits", hex(v), i.field.width())));
            }
            let w = i.field.width();
            let masked = if w >= 64 { v } else { ((v as u64) & ((1u64 << w) - 1)) as i64 };
            Ok(if i.kind == ImmKind::SignedHex { v } else { masked })
        }
        (ImmKind::Hex | ImmKind::SignedHex, _) => Err(Misfit::Kind),
        (ImmKind::F32 | ImmKind::F32Hi20, Written::Float(f)) => Ok((f as f32).to_bits() as i64),
        (ImmKind::F32 | ImmKind::F32Hi20, Written::Nan { negative, signalling }) => {
            let bits: u32 = if signalling { 0x7f80_0001 } else { 0x7fc0_0000 };
            Ok((bits | if negative { 0x8000_0000 } else { 0 }) as i64)
        }
        (ImmKind::F16, Written::Float(f)) => super::asm::f64_to_f16(f)
            .map(|b| b as i64)
            .ok_or_else(|| Misfit::Value(format!("`{f}` is not a half-precision value"))),
        (ImmKind::F16, Written::Nan { negative, signalling }) => {
            let bits: u16 = if signalling { 0x7c01 } else { 0x7e00 };
            Ok((bits | if negative { 0x8000 } else { 0 }) as i64)
        }
        (ImmKind::F64Hi | ImmKind::F64Hi20, Written::Float(f)) => {
            let b = f.to_bits();
            if b & 0xffff_ffff != 0 {
                return Err(Misfit::Value(format!("`{f}` needs more than the 32 high bits of a double")));
            }
            Ok((b >> 32) as i64)
        }
        (ImmKind::F64Hi | ImmKind::F64Hi20, Written::Nan { negative, signalling: false }) => {
            let f = if negative { -f64::NAN } else { f64::NAN };
            Ok((f.to_bits() >> 32) as i64)
        }
        _ => Err(Misfit::Kind),
    }
}

/// A memory slot's value for `w`, whose offset field counts `1 << shift` bytes.
fn place_mem(m: &MemSpec, w: &Written, shift: u8) -> Result<Mem, Misfit> {
    let Written::Mem { desc, base, width, scale, ureg, offset } = *w else { return Err(Misfit::Kind) };
    if desc.is_some() != m.desc.is_some()
        || ureg.is_some() != m.ureg.is_some()
        || (scale != 0 && m.scale.is_none())
        || (base.is_some() && width != m.width)
    {
        return Err(Misfit::Kind);
    }
    let mut v = Mem { width: m.width, desc, ureg, scale, ..Mem::default() };
    if let Some(b) = base {
        v.base = b;
    }
    if let Some(o) = offset {
        let range = |o: i64| Misfit::Value(format!("address offset `{}` out of range for this form", hex(o)));
        let f = widened(m.offset.ok_or_else(|| range(o))?, shift);
        v.offset = if f.fits_signed(o) {
            o
        } else if o >= 0 && f.fits_unsigned(o as u64) {
            // An absolute address is printed unsigned: read it back as the field's bits.
            let w = f.width();
            ((o as u64) << (64 - w)) as i64 >> (64 - w)
        } else {
            return Err(range(o));
        };
        if v.offset % (1i64 << shift) != 0 {
            return Err(Misfit::Value(format!("address offset `{}` must be a multiple of {}", hex(o), 1i64 << shift)));
        }
    }
    Ok(v)
}
