//! sm_50 conversions: integer/float (`fcvt_*`) and f16, as ptxas 11.8 writes them for Maxwell.
//!
//! sm_50 has no half-precision ALU (ptxas 11.8 refuses `add.f16`: "requires sm_53"); CUDA's
//! `__hadd` there is `cvt.f32.f16` + `add.f32` + `cvt.rn.f16.f32`, which ptxas 11.8 writes
//! `F2F.F32.F16`, `FADD`, `F2F.F16.F32`. Rounding the exact f32 sum, difference or product
//! of two halves to f16 is the correctly rounded result (24 >= 2 * 11 + 2), and min/max pick
//! one of two exact values. f16 to f64 goes through the exact f32 (`F2F.F32.F16`,
//! `F2F.F64.F32`); ptxas 11.8 rounds that f32 to odd (`.RP`/`.RM`/`.RZ` and a `BFI`) although
//! it is exact. f64 to f16 does need the f32 rounded to odd (see `narrow64_sm50`).

use crate::sass::isel::convert::int_tok;
use crate::sass::inst::{MOp, SassInst};
use crate::sass::isel::{Isel, IselError};
use crate::vcode::{RegClass, VReg};
use atomc_ir::{BinaryOp, ConvOp, Type};
use atomc_sass::op;
use atomc_sass::op::{t, Opcode};

impl Isel<'_> {
    /// An integer/float conversion on sm_50, in ptxas 11.8's sequences for cvt.rzi.{s,u}N.fM and
    /// cvt.rn.fM.{s,u}N. I2F and F2I name both types (`I2F.F16.S8`, `F2I.S64.F32.TRUNC`).
    /// Where ptxas converts in two steps, so does atomc: an 8- or 16-bit integer to f64 through
    /// an exact f32 (`I2F.F32.S8` + `F2F.F64.F32`); a 32- or 64-bit one to f16 through f32
    /// (`I2F.F32.S32` + `F2F.F16.F32`: every integer f32 rounds is at least 2^24, beyond f16's
    /// overflow either way, so the result is rounded once); an f16 to a 64-bit integer through
    /// its exact f32; an 8-bit result (F2I has no 8-bit one) and a 16-bit one from f64 through
    /// the 32-bit result and `I2I.{S,U}N.{S,U}32.SAT`. 8- and 16-bit results are masked back
    /// to atomc's zero-extended form (ptxas: `LOP32I.AND R4, R4, 0xff` after `I2I.U8.U32.SAT`).
    pub(super) fn int_float_sm50(&mut self, d: VReg, op: ConvOp, from: Type, to: Type, r: VReg) {
        let var = |opc: Opcode, ops: Vec<MOp>| SassInst::new(opc, ops);
        let single = |s: &mut Self| s.new_vreg(RegClass::Single);
        let float_name = |ty: Type| match ty {
            Type::F16 => t::F16,
            Type::F64 => t::F64,
            _ => t::F32,
        };
        let src = if from.bits() == 64 { MOp::use_pair(r) } else { MOp::use_(r) };
        match op {
            ConvOp::FcvtFromSint | ConvOp::FcvtFromUint => {
                let int = int_tok(op == ConvOp::FcvtFromSint, from.bits());
                let direct = match to {
                    Type::F32 => true,
                    Type::F64 => from.bits() >= 32,
                    _ => from.bits() <= 16,
                };
                if direct {
                    let w = if to == Type::F64 { 2 } else { 1 };
                    self.emit(var(op!(I2F).with([float_name(to), int]), vec![MOp::def(d.reg(), w), src]));
                } else {
                    let t = single(self);
                    self.emit(var(op!(I2F.F32).with(int), vec![MOp::def(t.reg(), 1), src]));
                    let (opc, w) = if to == Type::F64 { (op!(F2F.F64.F32), 2) } else { (op!(F2F.F16.F32), 1) };
                    self.emit(var(opc, vec![MOp::def(d.reg(), w), MOp::use_(t)]));
                }
            }
            _ => {
                let signed = op == ConvOp::FcvtToSint;
                let (src, fname) = if from == Type::F16 && to.bits() == 64 {
                    let t = single(self);
                    self.emit(var(op!(F2F.F32.F16), vec![MOp::def(t.reg(), 1), src]));
                    (MOp::use_(t), t::F32)
                } else {
                    (src, float_name(from))
                };
                let f2i_bits = match to.bits() {
                    16 if from != Type::F64 => 16,
                    8 | 16 => 32,
                    b => b,
                };
                let f2i = op!(F2I).with([int_tok(signed, f2i_bits), fname, t::TRUNC]);
                if f2i_bits == to.bits() && to.bits() >= 32 {
                    let w = if to.bits() == 64 { 2 } else { 1 };
                    self.emit(var(f2i, vec![MOp::def(d.reg(), w), src]));
                    return;
                }
                let t = single(self);
                self.emit(var(f2i, vec![MOp::def(t.reg(), 1), src]));
                let narrow = if f2i_bits != to.bits() {
                    let u = single(self);
                    let opc = op!(I2I).with([int_tok(signed, to.bits()), int_tok(signed, 32), t::SAT]);
                    self.emit(var(opc, vec![MOp::def(u.reg(), 1), MOp::use_(t)]));
                    u
                } else {
                    t
                };
                let mask = if to.bits() == 8 { 0xff } else { 0xffff };
                self.emit(SassInst::new(op!(LOP32I.AND), [MOp::def(d.reg(), 1), MOp::use_(narrow), MOp::Imm(mask)]));
            }
        }
    }

    /// `d = a op b` on f16: both widened to f32, the f32 result rounded back.
    pub(super) fn half_arith_sm50(&mut self, d: VReg, op: BinaryOp, ra: VReg, rb: VReg) -> Result<(), IselError> {
        let def = MOp::def(d.reg(), 1);
        let wide = |s: &mut Self, r: VReg| {
            let t = s.new_vreg(RegClass::Single);
            s.emit(SassInst::new(op!(F2F.F32.F16), [MOp::def(t.reg(), 1), MOp::use_(r)]));
            t
        };
        let (x, y) = (wide(self, ra), wide(self, rb));
        let sum = self.new_vreg(RegClass::Single);
        let s = MOp::def(sum.reg(), 1);
        let inst = match op {
            BinaryOp::Fadd => SassInst::new(op!(FADD), [s, MOp::use_(x), MOp::use_(y)]),
            BinaryOp::Fsub => SassInst::new(op!(FADD), [s, MOp::use_(x), MOp::neg(y)]),
            BinaryOp::Fmul => SassInst::new(op!(FMUL), [s, MOp::use_(x), MOp::use_(y)]),
            BinaryOp::Fmin | BinaryOp::Fmax => {
                SassInst::new(op!(FMNMX), [s, MOp::use_(x), MOp::use_(y), MOp::Pred { num: 7, not: op == BinaryOp::Fmax }])
            }
            _ => return Err(self.err(format!("`{op}` on f16 is not selected"))),
        };
        self.emit(inst);
        self.emit(SassInst::new(op!(F2F.F16.F32), [def, MOp::use_(sum)]));
        Ok(())
    }

    /// `d` = the f16 `r` widened to f32 or f64, or the f32 or f64 `r` rounded to f16.
    pub(super) fn half_convert_sm50(&mut self, d: VReg, from: Type, to: Type, r: VReg) -> Result<(), IselError> {
        let var = |opc: Opcode, d: MOp, s: MOp| SassInst::new(opc, [d, s]);
        match (from, to) {
            (Type::F16, Type::F32) => self.emit(var(op!(F2F.F32.F16), MOp::def(d.reg(), 1), MOp::use_(r))),
            (Type::F16, Type::F64) => {
                let t = self.new_vreg(RegClass::Single);
                self.emit(var(op!(F2F.F32.F16), MOp::def(t.reg(), 1), MOp::use_(r)));
                self.emit(var(op!(F2F.F64.F32), MOp::def(d.reg(), 2), MOp::use_(t)));
            }
            (Type::F32, Type::F16) => self.emit(var(op!(F2F.F16.F32), MOp::def(d.reg(), 1), MOp::use_(r))),
            (Type::F64, Type::F16) => self.narrow64_sm50(d, r),
            _ => return Err(self.err(format!("conversion from {from} to {to} is not selected"))),
        }
        Ok(())
    }

    /// f64 to f16 on sm_50, as ptxas 11.8 writes cvt.rn.f16.f64: the f64 rounded to f32 toward
    /// zero with its last bit set when `.RP` and `.RM` differ (round to odd), then to f16 (one
    /// rounding, 24 >= 11 + 2). ptxas sets the bit with `@P0 BFI` from a constant and a `SEL`;
    /// atomc ORs it in and selects (`LOP32I.OR`, `SEL`).
    fn narrow64_sm50(&mut self, d: VReg, x: VReg) {
        let v = |s: &mut Self| s.new_vreg(RegClass::Single);
        let (up, down, zero, odd, pick) = (v(self), v(self), v(self), v(self), v(self));
        for (r, m) in [(up, t::RP), (down, t::RM), (zero, t::RZ)] {
            self.emit(SassInst::new(op!(F2F.F32.F64).with(m), [MOp::def(r.reg(), 1), MOp::use_pair(x)]));
        }
        self.emit(SassInst::new(op!(FSETP.NE.AND), [MOp::p0(), MOp::pt(), MOp::use_(up), MOp::use_(down), MOp::pt()]));
        self.emit(SassInst::new(op!(LOP32I.OR), [MOp::def(odd.reg(), 1), MOp::use_(zero), MOp::Imm(1)]));
        self.emit(SassInst::new(op!(SEL), [MOp::def(pick.reg(), 1), MOp::use_(odd), MOp::use_(zero), MOp::p0()]));
        self.emit(SassInst::new(op!(F2F.F16.F32), [MOp::def(d.reg(), 1), MOp::use_(pick)]));
    }
}
