//! The printer: text exactly as nvdisasm prints an instruction (without address and hex).

use super::form::{BaseWidth, ExtSpec, ImmKind, OpSpec};
use super::instr::{Instr, Operand, Pred, Reg};
use super::Arch;
use std::fmt::Write;

/// Formats a float immediate the way nvdisasm does: C's `%.20g` below 1e9, `%.20e` (trailing
/// zeros kept) from 1e9 up, `0` / `-0.0` for zeros, and `+INF`, `-INF`, `+QNAN`, `-SNAN`, ...
/// (`snan` says whether a NaN had its quiet bit clear in the original encoding). nvdisasm
/// follows the special spellings (and `-0.0`) with a blank, so `+INF , PT` is exact.
pub fn fmt_float(v: f64, snan: bool) -> String {
    if v.is_nan() {
        let sign = if v.is_sign_negative() { '-' } else { '+' };
        return format!("{}{} ", sign, if snan { "SNAN" } else { "QNAN" });
    }
    if v.is_infinite() {
        return if v < 0.0 { "-INF ".into() } else { "+INF ".into() };
    }
    if v == 0.0 {
        return if v.is_sign_negative() { "-0.0 ".into() } else { "0".into() };
    }
    if v.abs() >= 1e9 {
        let sci = format!("{:.20e}", v);
        let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
        let x: i32 = exp.parse().unwrap_or(0);
        return format!("{}e{}{:02}", mant, if x < 0 { '-' } else { '+' }, x.abs());
    }
    fmt_g20(v)
}

/// The value of IEEE half-precision bits.
pub fn f16_to_f64(b: u16) -> f64 {
    let sign = if b & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = ((b >> 10) & 0x1f) as i32;
    let mant = (b & 0x3ff) as f64;
    match exp {
        0 => sign * mant * 2f64.powi(-24),
        31 if mant == 0.0 => sign * f64::INFINITY,
        31 => {
            if sign < 0.0 {
                -f64::NAN
            } else {
                f64::NAN
            }
        }
        _ => sign * (1.0 + mant / 1024.0) * 2f64.powi(exp - 15),
    }
}

/// C's `printf("%.20g", v)` for finite, non-zero values.
pub fn fmt_g20(v: f64) -> String {
    const P: i32 = 20;
    let sci = format!("{:.*e}", (P - 1) as usize, v);
    let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let x: i32 = exp.parse().unwrap_or(0);
    if !(-4..P).contains(&x) {
        let mant = strip_zeros(mant);
        let sign = if x < 0 { '-' } else { '+' };
        format!("{}e{}{:02}", mant, sign, x.abs())
    } else {
        let decimals = (P - 1 - x).max(0) as usize;
        strip_zeros(&format!("{:.*}", decimals, v)).to_string()
    }
}

fn strip_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

fn hex_signed(v: i64) -> String {
    if v < 0 {
        format!("-0x{:x}", v.unsigned_abs())
    } else {
        format!("0x{:x}", v)
    }
}

impl Arch {
    /// The full mnemonic with modifiers (`ATOMG.E.ADD.STRONG.GPU`).
    pub fn opcode_text(&self, ins: &Instr) -> String {
        let Some(form) = self.forms.get(ins.form as usize) else {
            return format!("<no form {}>", ins.form);
        };
        let mut s = String::from(form.mnemonic);
        if let Some(a) = form.alias.and_then(|a| a.spelling(&ins.mods, &ins.ops)) {
            s.push('.');
            s.push_str(a);
        }
        for (g, &v) in form.mods.iter().zip(&ins.mods) {
            match g.spelling(v) {
                Some("") => {}
                Some(sp) => {
                    s.push('.');
                    s.push_str(sp);
                }
                None => {
                    let _ = write!(s, ".INVALID{}", v);
                }
            }
        }
        s
    }

    /// Prints an instruction as nvdisasm does, assuming it sits at address 0.
    pub fn print(&self, ins: &Instr) -> String {
        self.print_at(ins, 0)
    }

    /// Prints an instruction at byte address `addr` (branch targets are absolute).
    pub fn print_at(&self, ins: &Instr, addr: u64) -> String {
        let Some(form) = self.forms.get(ins.form as usize) else {
            return format!("<no form {}> ;", ins.form);
        };
        let mut s = String::new();
        if ins.guard != Pred::PT {
            s.push('@');
            s.push_str(&pred_text(ins.guard, if form.uniform_guard { "UP" } else { "P" }));
            s.push(' ');
        }
        s.push_str(&self.opcode_text(ins));
        let mut first = true;
        // nvdisasm leaves out every hideable predicate that is PT (so `IADD3 R1, P1, ...` does
        // not say which carry-out P1 is; the assembler reads it as the first).
        let hidden =
            |k: usize| -> bool { ins.ops[k] == Operand::Pred(Pred::PT) || ins.ops[k] == Operand::UPred(Pred::PT) };
        for (k, (spec, op)) in form.ops.iter().zip(&ins.ops).enumerate() {
            if matches!(spec, OpSpec::Pred(p) | OpSpec::UPred(p) if p.hide_pt) && hidden(k) {
                continue;
            }
            let last = k + 1 == form.ops.len();
            s.push_str(if first || (last && form.space_last) { " " } else { ", " });
            first = false;
            self.operand_text(&mut s, spec, op, ins, addr);
        }
        // nvdisasm omits the space before ';' when stall and yield are both zero.
        if ins.sched.stall == 0 && !ins.sched.yield_ {
            s.push(';');
        } else {
            s.push_str(" ;");
        }
        s
    }

    /// Like [`Arch::print_at`], followed by the schedule fields as a comment.
    pub fn print_with_sched(&self, ins: &Instr, addr: u64) -> String {
        format!("{} {}", self.print_at(ins, addr), ins.sched.comment())
    }

    fn reg_text(&self, r: Reg, uniform: bool) -> String {
        let zero = if uniform { self.urz } else { self.rz };
        let p = if uniform { "UR" } else { "R" };
        if r.num == zero {
            format!("{}Z", p)
        } else {
            format!("{}{}", p, r.num)
        }
    }

    fn operand_text(&self, s: &mut String, spec: &OpSpec, op: &Operand, ins: &Instr, addr: u64) {
        let reuse = |slot: Option<u8>| slot.map(|b| ins.sched.reuse & (1 << b) != 0).unwrap_or(false);
        match (spec, op) {
            (OpSpec::Reg(rs), Operand::Reg(r)) | (OpSpec::UReg(rs), Operand::UReg(r)) => {
                let body = self.reg_text(*r, matches!(spec, OpSpec::UReg(_)));
                signed_text(s, &body, r);
                if reuse(rs.reuse) {
                    s.push_str(".reuse");
                }
            }
            (OpSpec::Pred(_), Operand::Pred(p)) => s.push_str(&pred_text(*p, "P")),
            (OpSpec::UPred(_), Operand::UPred(p)) => s.push_str(&pred_text(*p, "UP")),
            (OpSpec::Imm(i), Operand::Imm(v)) => match i.kind {
                ImmKind::Hex => {
                    let _ = write!(s, "0x{:x}", *v as u64);
                }
                ImmKind::SignedHex => s.push_str(&hex_signed(*v)),
                ImmKind::F32 | ImmKind::F32Hi20 => {
                    let b = *v as u32;
                    s.push_str(&fmt_float(f32::from_bits(b) as f64, b & 0x0040_0000 == 0))
                }
                ImmKind::F64Hi | ImmKind::F64Hi20 => {
                    let b = (*v as u64) << 32;
                    s.push_str(&fmt_float(f64::from_bits(b), b & 0x0008_0000_0000_0000 == 0))
                }
                ImmKind::F16 => {
                    let b = *v as u16;
                    s.push_str(&fmt_float(f16_to_f64(b), b & 0x0200 == 0))
                }
            },
            (OpSpec::CBank(c), Operand::CBank { bank, base, offset, .. }) => {
                let _ = write!(s, "c[0x{:x}][", bank);
                if c.base.is_some() && *base != self.rz {
                    let _ = write!(s, "R{}", base);
                    if *offset != 0 {
                        let _ = write!(s, "+0x{:x}", offset);
                    }
                } else if c.base.is_some() && *offset == 0 {
                    s.push_str("RZ");
                } else {
                    let _ = write!(s, "0x{:x}", offset);
                }
                s.push(']');
            }
            (OpSpec::Mem(m), Operand::Mem(v)) => {
                if let Some(d) = v.desc {
                    let _ = write!(s, "desc[{}]", self.reg_text(Reg::r(d), true));
                }
                let mut parts: Vec<String> = Vec::new();
                let base_shown =
                    v.base != self.rz || m.width != BaseWidth::Plain || (m.ureg.is_none() && v.offset == 0);
                if base_shown {
                    let mut b = self.reg_text(Reg::r(v.base), false);
                    match m.width {
                        BaseWidth::Plain => {}
                        BaseWidth::Wide => b.push_str(".64"),
                        BaseWidth::U32 => b.push_str(".U32"),
                    }
                    b.push_str(["", ".X4", ".X8", ".X16"][(v.scale & 3) as usize]);
                    if reuse(m.reuse) {
                        b.push_str(".reuse");
                    }
                    parts.push(b);
                }
                if let Some(u) = v.ureg {
                    parts.push(self.reg_text(Reg::r(u), true));
                }
                if v.offset != 0 {
                    // An absolute address (no base register) prints unsigned at the field width.
                    let o = match m.offset {
                        Some(f) if !base_shown && m.ureg.is_none() && f.width() < 64 => {
                            format!("0x{:x}", (v.offset as u64) & ((1u64 << f.width()) - 1))
                        }
                        _ => hex_signed(v.offset),
                    };
                    parts.push(o);
                }
                let _ = write!(s, "[{}]", parts.join("+"));
            }
            (OpSpec::SReg(_), Operand::SReg(v)) => match self.sreg_name(*v) {
                Some(n) => s.push_str(n),
                None => {
                    let _ = write!(s, "SR{}", v);
                }
            },
            (OpSpec::Target(_), Operand::Target(v)) => {
                let t = (addr as i64).wrapping_add(self.word_bytes as i64).wrapping_add(*v);
                s.push_str(&hex_signed(t));
            }
            (OpSpec::Ext(e @ (ExtSpec::MemScaled { .. } | ExtSpec::CBankScaled { .. })), _) => {
                if let Some(plain) = e.plain() {
                    self.operand_text(s, &plain, op, ins, addr);
                }
            }
            (OpSpec::Ext(ExtSpec::CBankMod { spec, spaced, .. }), Operand::CBank { neg, abs, h1, .. }) => {
                if *neg {
                    s.push('-');
                }
                if *abs {
                    s.push('|');
                }
                let mut t = String::new();
                self.operand_text(&mut t, &OpSpec::CBank(*spec), op, ins, addr);
                if *spaced {
                    t = t.replacen("][", "] [", 1);
                }
                s.push_str(&t);
                // nvdisasm: `-|c[0x2] [0x8].H1|`.
                if *h1 {
                    s.push_str(".H1");
                }
                if *abs {
                    s.push('|');
                }
            }
            (OpSpec::Ext(ExtSpec::SbSet { .. }), Operand::Imm(v)) => {
                let sbs: Vec<String> =
                    (0..64).rev().filter(|b| (*v as u64) >> b & 1 != 0).map(|b| b.to_string()).collect();
                let _ = write!(s, "{{{}}}", sbs.join(","));
            }
            (OpSpec::Ext(ExtSpec::SbReg { .. }), Operand::Imm(v)) => {
                let _ = write!(s, "SB{}", v);
            }
            (OpSpec::Ext(ExtSpec::Abs { .. }), Operand::Mem(m)) => {
                if m.offset == 0 {
                    s.push_str("[RZ]");
                } else {
                    let _ = write!(s, "[0x{:x}]", m.offset);
                }
            }
            (OpSpec::Ext(ExtSpec::Implied { .. }), Operand::Reg(r)) => s.push_str(&self.reg_text(*r, false)),
            (OpSpec::Ext(ExtSpec::Swizzled { reg, .. }), Operand::Reg(r)) => {
                // nvdisasm: `-|R0|.reuse.H0_H0`.
                self.operand_text(s, &OpSpec::Reg(*reg), &Operand::Reg(Reg { swz: 0, ..*r }), ins, addr);
                s.push_str(&swizzle_text(r.swz));
            }
            (OpSpec::Ext(ExtSpec::Swizzled { .. }), Operand::UReg(r)) => {
                // nvdisasm: `-|UR4.H0_H0|`.
                let body = format!("{}{}", self.reg_text(*r, true), swizzle_text(r.swz));
                signed_text(s, &body, r);
            }
            (OpSpec::Ext(ExtSpec::Suffixed { suffix, reuse: slot, .. }), Operand::Reg(r)) => {
                s.push_str(&self.reg_text(Reg::r(r.num), false));
                if r.not {
                    s.push_str(suffix);
                }
                if reuse(*slot) {
                    s.push_str(".reuse");
                }
            }
            (OpSpec::BReg(_), Operand::BReg(v)) => {
                let _ = write!(s, "B{}", v);
            }
            _ => s.push_str("???"),
        }
    }

    /// The name of a special register, if known.
    pub fn sreg_name(&self, v: u16) -> Option<&'static str> {
        self.sregs.iter().find(|(n, _)| *n == v).map(|(_, s)| *s)
    }

    /// Disassembles a code section: one line per instruction, `/*addr*/  text` (two spaces,
    /// as `atomc compile --emit asm` spells its listings), as `atomc disasm` shows it; with
    /// `sched`, each line ends with the schedule comment.
    pub fn disassemble(&self, bytes: &[u8], sched: bool) -> Result<String, (usize, super::DecodeError)> {
        let code = self.decode_all(bytes)?;
        let mut out = String::new();
        for (i, ins) in code.iter().enumerate() {
            let addr = self.instr_addr(i);
            let text = if sched { self.print_with_sched(ins, addr) } else { self.print_at(ins, addr) };
            let _ = writeln!(out, "/*{:04x}*/  {}", addr, text);
        }
        Ok(out)
    }
}

fn pred_text(p: Pred, prefix: &str) -> String {
    let bang = if p.not { "!" } else { "" };
    if p.num == 7 {
        format!("{}{}T", bang, prefix)
    } else {
        format!("{}{}{}", bang, prefix, p.num)
    }
}

#[cfg(test)]
mod tests {
    use super::{fmt_float, fmt_g20};

    #[test]
    fn floats_like_printf_g20() {
        assert_eq!(fmt_g20(0.5), "0.5");
        assert_eq!(fmt_g20(100.0), "100");
        assert_eq!(fmt_g20(1.5), "1.5");
        assert_eq!(fmt_g20(3.0 * 2f64.powi(-24)), "1.78813934326171875e-07");
        assert_eq!(fmt_float(f32::MAX as f64, false), "3.40282346638528859812e+38");
        assert_eq!(fmt_float(f64::INFINITY, false), "+INF ");
        assert_eq!(fmt_float(-0.0, false), "-0.0 ");
        assert_eq!(fmt_float(16777216.0, false), "16777216");
        assert_eq!(fmt_float(1e9, false), "1.00000000000000000000e+09");
    }
}

/// The printed swizzle of a half-precision source.
fn swizzle_text(swz: u8) -> String {
    match super::form::SWIZZLES.iter().find(|(v, _)| *v == swz) {
        Some((_, t)) => t.to_string(),
        None => format!(".INVALID{}", swz),
    }
}

/// A register's text with its modifiers as nvdisasm writes them: `~`, `-`, then `|body|`.
fn signed_text(s: &mut String, body: &str, r: &Reg) {
    if r.not {
        s.push('~');
    }
    if r.neg {
        s.push('-');
    }
    if r.abs {
        let _ = write!(s, "|{body}|");
    } else {
        s.push_str(body);
    }
}
