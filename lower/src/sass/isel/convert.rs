//! Integer and float conversions: widening and narrowing, float precision changes, and
//! integer/float conversions in the sequences ptxas writes for each target.

use super::alu::lop3;
use super::{Isel, IselError};
use crate::sass::inst::{MOp, SassInst};
use crate::vcode::{RegClass, VReg};
use atomc_ir::{ConvOp, Type, Value};

impl Isel<'_> {
    pub(super) fn convert(&mut self, d: VReg, op: ConvOp, to: Type, a: Value) -> Result<(), IselError> {
        let from = self.ty(a);
        let r = self.reg(a);
        let mov = |s: &mut Self, src: MOp| s.emit(SassInst::new("MOV", [MOp::def(d.reg(), 1), src]));
        if let Some(done) = self.half_convert(d, op, from, to, a) {
            return done;
        }
        match op {
            ConvOp::Bitcast => {
                if d.class() == RegClass::Pair {
                    self.make_pair(d, MOp::use_(r.lo()), MOp::use_(r.hi()));
                } else {
                    mov(self, MOp::use_(r));
                }
            }
            ConvOp::Uextend if to.bits() == 64 => {
                let lo = if from.bits() == 32 { MOp::use_(r) } else { MOp::use_(r) };
                self.make_pair(d, lo, MOp::rz());
            }
            ConvOp::Uextend => mov(self, MOp::use_(r)),
            ConvOp::Sextend => {
                let src32 = if from.bits() < 32 {
                    let k = 32 - from.bits() as i64;
                    let t = self.new_vreg(RegClass::Single);
                    self.emit(SassInst::new("SHF.L.U32", [MOp::def(t.reg(), 1), MOp::use_(r), MOp::Imm(k), MOp::rz()]));
                    let u = if to.bits() == 64 { self.new_vreg(RegClass::Single) } else { d };
                    self.emit(SassInst::new(
                        "SHF.R.S32.HI",
                        [MOp::def(u.reg(), 1), MOp::rz(), MOp::Imm(k), MOp::use_(t)],
                    ));
                    if to.bits() < 64 {
                        if to.bits() < 32 {
                            return Err(self.err("sextend to 16 bits is not selected"));
                        }
                        return Ok(());
                    }
                    u
                } else {
                    r
                };
                if to.bits() == 64 {
                    let lo = SassInst::new("MOV", [MOp::rz(), MOp::use_(src32)]);
                    let hi = SassInst::new("SHF.R.S32.HI", [MOp::rz(), MOp::rz(), MOp::Imm(31), MOp::use_(src32)]);
                    self.pair_op(d, lo, hi);
                }
            }
            ConvOp::Ireduce => {
                let src = if from.bits() == 64 { r.lo() } else { r.reg() };
                if to.bits() == 32 {
                    mov(self, MOp::use_(src));
                } else {
                    let mask = if to.bits() == 8 { 0xff } else { 0xffff };
                    let [l, pt] = lop3(0xc0);
                    self.emit(SassInst::new(
                        "LOP3.LUT",
                        [MOp::def(d.reg(), 1), MOp::use_(src), MOp::Imm(mask), MOp::rz(), l, pt],
                    ));
                }
            }
            ConvOp::Fpromote if from == Type::F32 && to == Type::F64 => {
                self.emit(SassInst::new("F2F.F64.F32", [MOp::def(d.reg(), 2), MOp::use_(r)]));
            }
            ConvOp::Fdemote if from == Type::F64 && to == Type::F32 => {
                self.emit(SassInst::new("F2F.F32.F64", [MOp::def(d.reg(), 1), MOp::use_pair(r)]));
            }
            ConvOp::FcvtFromSint | ConvOp::FcvtFromUint | ConvOp::FcvtToSint | ConvOp::FcvtToUint
                if self.target.name == "sm_90"
                    && !(from == Type::I32
                        && to == Type::F32
                        && matches!(op, ConvOp::FcvtFromSint | ConvOp::FcvtFromUint)) =>
            {
                self.int_float_sm90(d, op, from, to, r);
            }
            ConvOp::FcvtFromSint | ConvOp::FcvtFromUint | ConvOp::FcvtToSint | ConvOp::FcvtToUint if self.is_sm50() => {
                self.int_float_sm50(d, op, from, to, r);
            }
            ConvOp::FcvtFromSint | ConvOp::FcvtFromUint if from == Type::I32 && to == Type::F32 => {
                let signed = op == ConvOp::FcvtFromSint;
                if self.target.name == "sm_90" {
                    // ptxas 13.5 converts with the fixed-latency I2FP (`I2FP.F32.S32 R0, R5`, read
                    // by an FADD 5 cycles later, no scoreboard); sm_90 has no plain I2F.F32 form.
                    let opc = if signed { "I2FP.F32.S32" } else { "I2FP.F32.U32" };
                    self.emit(SassInst::new(opc, [MOp::def(d.reg(), 1), MOp::use_(r)]));
                } else {
                    let opc = if signed { "I2F" } else { "I2F.U32" };
                    self.emit(SassInst::new(opc, [MOp::def(d.reg(), 1), MOp::use_(r)]));
                }
            }
            ConvOp::FcvtToSint | ConvOp::FcvtToUint if from == Type::F32 && to == Type::I32 => {
                let opc = if op == ConvOp::FcvtToSint { "F2I.TRUNC.NTZ" } else { "F2I.U32.TRUNC.NTZ" };
                self.emit(SassInst::new(opc, [MOp::def(d.reg(), 1), MOp::use_(r)]));
            }
            _ => return Err(self.err(format!("`{op}` from {from} to {to} is not selected"))),
        }
        Ok(())
    }

    /// An integer/float conversion on sm_90, in the one instruction ptxas 13.5 writes for
    /// cvt.rzi.{s,u}N.fM and cvt.rn.fM.{s,u}N: `F2I{.S8..U64}{.F16,.F64}.TRUNC{.NTZ}` and
    /// `I2F{.F16,.F64}{.S8..U64}` (f32 from an 8- or 16-bit unsigned value: `I2FP.F32.U32`,
    /// atomc's 8- and 16-bit values being zero-extended). The F2I results saturate, NaN giving
    /// 0, and truncate, as the IR defines fcvt_to_*; an 8- or 16-bit result is masked back to
    /// its zero-extended form (ptxas re-extends `F2I.S8` with PRMT and masks `F2I.U8` with LOP3
    /// before using the word).
    fn int_float_sm90(&mut self, d: VReg, op: ConvOp, from: Type, to: Type, r: VReg) {
        let int_name = |t: Type, signed: bool| match (t.bits(), signed) {
            (32, true) => String::new(),
            (b, true) => format!(".S{b}"),
            (b, false) => format!(".U{b}"),
        };
        let float_name = |t: Type| match t {
            Type::F16 => ".F16",
            Type::F64 => ".F64",
            _ => "",
        };
        let src = if from.bits() == 64 { MOp::use_pair(r) } else { MOp::use_(r) };
        let width = if to.bits() == 64 { 2 } else { 1 };
        match op {
            ConvOp::FcvtFromSint | ConvOp::FcvtFromUint => {
                let signed = op == ConvOp::FcvtFromSint;
                if to == Type::F32 && !signed && from.bits() < 32 {
                    self.emit(SassInst::new("I2FP.F32.U32", [MOp::def(d.reg(), 1), src]));
                    return;
                }
                let opc = format!("I2F{}{}", float_name(to), int_name(from, signed));
                self.emit(SassInst::new(opc, [MOp::def(d.reg(), width), src]));
            }
            _ => {
                let signed = op == ConvOp::FcvtToSint;
                let ntz = if from != Type::F64 && to.bits() != 64 { ".NTZ" } else { "" };
                let opc = format!("F2I{}{}.TRUNC{ntz}", int_name(to, signed), float_name(from));
                if to.bits() >= 32 {
                    self.emit(SassInst::new(opc, [MOp::def(d.reg(), width), src]));
                    return;
                }
                let t = self.new_vreg(RegClass::Single);
                self.emit(SassInst::new(opc, [MOp::def(t.reg(), 1), src]));
                let mask = if to.bits() == 8 { 0xff } else { 0xffff };
                let [l, pt] = lop3(0xc0);
                self.emit(SassInst::new(
                    "LOP3.LUT",
                    [MOp::def(d.reg(), 1), MOp::use_(t), MOp::Imm(mask), MOp::rz(), l, pt],
                ));
            }
        }
    }

    /// An integer/float conversion on sm_50, in ptxas 11.8's sequences for cvt.rzi.{s,u}N.fM and
    /// cvt.rn.fM.{s,u}N. I2F and F2I name both types (`I2F.F16.S8`, `F2I.S64.F32.TRUNC`).
    /// Where ptxas converts in two steps, so does atomc: an 8- or 16-bit integer to f64 through
    /// an exact f32 (`I2F.F32.S8` + `F2F.F64.F32`); a 32- or 64-bit one to f16 through f32
    /// (`I2F.F32.S32` + `F2F.F16.F32`: every integer f32 rounds is at least 2^24, beyond f16's
    /// overflow either way, so the result is rounded once); an f16 to a 64-bit integer through
    /// its exact f32; an 8-bit result (F2I has no 8-bit one) and a 16-bit one from f64 through
    /// the 32-bit result and `I2I.{S,U}N.{S,U}32.SAT`. 8- and 16-bit results are masked back
    /// to atomc's zero-extended form (ptxas: `LOP32I.AND R4, R4, 0xff` after `I2I.U8.U32.SAT`).
    fn int_float_sm50(&mut self, d: VReg, op: ConvOp, from: Type, to: Type, r: VReg) {
        let var = |opc: String, ops: Vec<MOp>| SassInst::new(opc, ops);
        let single = |s: &mut Self| s.new_vreg(RegClass::Single);
        let float_name = |t: Type| match t {
            Type::F16 => "F16",
            Type::F64 => "F64",
            _ => "F32",
        };
        let src = if from.bits() == 64 { MOp::use_pair(r) } else { MOp::use_(r) };
        match op {
            ConvOp::FcvtFromSint | ConvOp::FcvtFromUint => {
                let int = format!("{}{}", if op == ConvOp::FcvtFromSint { "S" } else { "U" }, from.bits());
                let direct = match to {
                    Type::F32 => true,
                    Type::F64 => from.bits() >= 32,
                    _ => from.bits() <= 16,
                };
                if direct {
                    let w = if to == Type::F64 { 2 } else { 1 };
                    self.push_selected(var(format!("I2F.{}.{int}", float_name(to)), vec![MOp::def(d.reg(), w), src]));
                } else {
                    let t = single(self);
                    self.push_selected(var(format!("I2F.F32.{int}"), vec![MOp::def(t.reg(), 1), src]));
                    let (opc, w) = if to == Type::F64 { ("F2F.F64.F32", 2) } else { ("F2F.F16.F32", 1) };
                    self.push_selected(var(opc.to_string(), vec![MOp::def(d.reg(), w), MOp::use_(t)]));
                }
            }
            _ => {
                let g = if op == ConvOp::FcvtToSint { "S" } else { "U" };
                let (src, fname) = if from == Type::F16 && to.bits() == 64 {
                    let t = single(self);
                    self.push_selected(var("F2F.F32.F16".to_string(), vec![MOp::def(t.reg(), 1), src]));
                    (MOp::use_(t), "F32")
                } else {
                    (src, float_name(from))
                };
                let f2i_bits = match to.bits() {
                    16 if from != Type::F64 => 16,
                    8 | 16 => 32,
                    b => b,
                };
                if f2i_bits == to.bits() && to.bits() >= 32 {
                    let w = if to.bits() == 64 { 2 } else { 1 };
                    self.push_selected(var(
                        format!("F2I.{g}{f2i_bits}.{fname}.TRUNC"),
                        vec![MOp::def(d.reg(), w), src],
                    ));
                    return;
                }
                let t = single(self);
                self.push_selected(var(format!("F2I.{g}{f2i_bits}.{fname}.TRUNC"), vec![MOp::def(t.reg(), 1), src]));
                let narrow = if f2i_bits != to.bits() {
                    let u = single(self);
                    let opc = format!("I2I.{g}{}.{g}32.SAT", to.bits());
                    self.push_selected(var(opc, vec![MOp::def(u.reg(), 1), MOp::use_(t)]));
                    u
                } else {
                    t
                };
                let mask = if to.bits() == 8 { 0xff } else { 0xffff };
                self.push_selected(SassInst::new(
                    "LOP32I.AND",
                    [MOp::def(d.reg(), 1), MOp::use_(narrow), MOp::Imm(mask)],
                ));
            }
        }
    }
}
