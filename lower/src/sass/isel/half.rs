//! f16 arithmetic and the conversions to and from f16.
//!
//! An f16 value lives in the low half of a 32-bit register, zero above it (loads, `F2FP`
//! and the sm_50 `F2F` results are; so are `I2F.F16` results on both targets: ptxas 13.5
//! and 11.8 store `cvt.u32.u16` of a `cvt.rn.f16.s16` / `.s64` result as the 32-bit word
//! `I2F.F16.S16` / `I2F.F16.S64` / `F2F.F16.F32` wrote, with nothing zeroing the high half).
//!
//! sm_90 (ptxas 13.5 on `add/sub/mul/min/max.f16`, `cvt.f32.f16`, `cvt.f64.f16`,
//! `cvt.rn.f16.f64`): `HADD2`, `HMUL2` and `HMNMX2` on the halves, `HADD2.F32 Rd, -RZ,
//! Ra.H0_H0` to widen to f32 (`-RZ` keeps -0 negative), `F2F.F64.F16` / `F2F.F16.F64` to and
//! from f64. ptxas reads both sources `.H0_H0` and then packs the low halves with `PRMT`;
//! atomc reads the pairs as they are: the high halves are `+0 op +0 = +0` (`+0 + -0` is `+0`
//! when rounding to nearest), so the result is again zero above the half and needs no `PRMT`.
//!
//! sm_50 has no half-precision ALU (ptxas 11.8 refuses `add.f16`: "requires sm_53"); CUDA's
//! `__hadd` there is `cvt.f32.f16` + `add.f32` + `cvt.rn.f16.f32`, which ptxas 11.8 writes
//! `F2F.F32.F16`, `FADD`, `F2F.F16.F32`. Rounding the exact f32 sum, difference or product
//! of two halves to f16 is the correctly rounded result (24 >= 2 * 11 + 2), and min/max pick
//! one of two exact values. f16 to f64 goes through the exact f32 (`F2F.F32.F16`,
//! `F2F.F64.F32`); ptxas 11.8 rounds that f32 to odd (`.RP`/`.RM`/`.RZ` and a `BFI`) although
//! it is exact. f64 to f16 does need the f32 rounded to odd (see `narrow64_sm50`).

use super::{Isel, IselError};
use crate::sass::inst::{MOp, SassInst};
use crate::vcode::{RegClass, VReg};
use atomc_ir::{BinaryOp, ConvOp, Type, Value};

impl Isel<'_> {
    /// `d = a op b` on f16 (`fadd`, `fsub`, `fmul`, `fmin`, `fmax`).
    pub(super) fn half_binary(&mut self, d: VReg, op: BinaryOp, a: Value, b: Value) -> Result<(), IselError> {
        let (ra, rb) = (self.reg(a), self.reg(b));
        let def = MOp::def(d.reg(), 1);
        if !self.is_sm50() {
            let (x, y) = (MOp::use_(ra), MOp::use_(rb));
            let inst = match op {
                BinaryOp::Fadd => SassInst::new("HADD2", [def, x, y]),
                BinaryOp::Fsub => SassInst::new("HADD2", [def, x, MOp::neg(rb)]),
                BinaryOp::Fmul => SassInst::new("HMUL2", [def, x, y]),
                BinaryOp::Fmin | BinaryOp::Fmax => {
                    SassInst::new("HMNMX2", [def, x, y, MOp::Pred { num: 7, not: op == BinaryOp::Fmax }])
                }
                _ => return Err(self.err(format!("`{op}` on f16 is not selected"))),
            };
            self.emit(inst);
            return Ok(());
        }
        let wide = |s: &mut Self, r: VReg| {
            let t = s.new_vreg(RegClass::Single);
            s.push_selected(SassInst::new("F2F.F32.F16", [MOp::def(t.reg(), 1), MOp::use_(r)]));
            t
        };
        let (x, y) = (wide(self, ra), wide(self, rb));
        let sum = self.new_vreg(RegClass::Single);
        let s = MOp::def(sum.reg(), 1);
        let inst = match op {
            BinaryOp::Fadd => SassInst::new("FADD", [s, MOp::use_(x), MOp::use_(y)]),
            BinaryOp::Fsub => SassInst::new("FADD", [s, MOp::use_(x), MOp::neg(y)]),
            BinaryOp::Fmul => SassInst::new("FMUL", [s, MOp::use_(x), MOp::use_(y)]),
            BinaryOp::Fmin | BinaryOp::Fmax => {
                SassInst::new("FMNMX", [s, MOp::use_(x), MOp::use_(y), MOp::Pred { num: 7, not: op == BinaryOp::Fmax }])
            }
            _ => return Err(self.err(format!("`{op}` on f16 is not selected"))),
        };
        self.push_selected(inst);
        self.push_selected(SassInst::new("F2F.F16.F32", [def, MOp::use_(sum)]));
        Ok(())
    }

    /// A new register holding the f16 in `r` widened to f32 (exact): what `fcmp` on f16 compares.
    pub(super) fn half_to_f32(&mut self, r: VReg) -> VReg {
        let t = self.new_vreg(RegClass::Single);
        if self.is_sm50() {
            self.push_selected(SassInst::new("F2F.F32.F16", [MOp::def(t.reg(), 1), MOp::use_(r)]));
        } else {
            let i = SassInst::new("HADD2.F32", [MOp::def(t.reg(), 1), MOp::neg(crate::vcode::Reg::Zero), MOp::use_(r)]);
            self.emit(i.with_swizzle(2, 2));
        }
        t
    }

    /// `fpromote` from f16 and `fdemote` to f16 (f32 and f64); `None` for other conversions.
    pub(super) fn half_convert(
        &mut self,
        d: VReg,
        op: ConvOp,
        from: Type,
        to: Type,
        a: Value,
    ) -> Option<Result<(), IselError>> {
        let pair = (op, from, to);
        let ok = matches!(
            pair,
            (ConvOp::Fpromote, Type::F16, Type::F32 | Type::F64) | (ConvOp::Fdemote, Type::F32 | Type::F64, Type::F16)
        );
        if !ok {
            return None;
        }
        let r = self.reg(a);
        let sm50 = self.is_sm50();
        let var = |opc: &'static str, d: MOp, s: MOp| SassInst::new(opc, [d, s]);
        match (from, to, sm50) {
            (Type::F16, Type::F32, false) => {
                let i =
                    SassInst::new("HADD2.F32", [MOp::def(d.reg(), 1), MOp::neg(crate::vcode::Reg::Zero), MOp::use_(r)]);
                // B read `.H0_H0` (operand 2): the low half, as ptxas reads it.
                self.emit(i.with_swizzle(2, 2));
            }
            (Type::F16, Type::F64, false) => self.emit(var("F2F.F64.F16", MOp::def(d.reg(), 2), MOp::use_(r))),
            (Type::F64, Type::F16, false) => self.emit(var("F2F.F16.F64", MOp::def(d.reg(), 1), MOp::use_pair(r))),
            (Type::F32, Type::F16, false) => {
                self.emit(SassInst::new("F2FP.F16.F32.PACK_AB", [MOp::def(d.reg(), 1), MOp::rz(), MOp::use_(r)]))
            }
            (Type::F16, Type::F32, true) => self.push_selected(var("F2F.F32.F16", MOp::def(d.reg(), 1), MOp::use_(r))),
            (Type::F16, Type::F64, true) => {
                let t = self.new_vreg(RegClass::Single);
                self.push_selected(var("F2F.F32.F16", MOp::def(t.reg(), 1), MOp::use_(r)));
                self.push_selected(var("F2F.F64.F32", MOp::def(d.reg(), 2), MOp::use_(t)));
            }
            (Type::F32, Type::F16, true) => self.push_selected(var("F2F.F16.F32", MOp::def(d.reg(), 1), MOp::use_(r))),
            (Type::F64, Type::F16, true) => self.narrow64_sm50(d, r),
            _ => return Some(Err(self.err(format!("`{op}` from {from} to {to} is not selected")))),
        }
        Some(Ok(()))
    }

    /// f64 to f16 on sm_50, as ptxas 11.8 writes cvt.rn.f16.f64: the f64 rounded to f32 toward
    /// zero with its last bit set when `.RP` and `.RM` differ (round to odd), then to f16 (one
    /// rounding, 24 >= 11 + 2). ptxas sets the bit with `@P0 BFI` from a constant and a `SEL`;
    /// atomc ORs it in and selects (`LOP32I.OR`, `SEL`).
    fn narrow64_sm50(&mut self, d: VReg, x: VReg) {
        let v = |s: &mut Self| s.new_vreg(RegClass::Single);
        let (up, down, zero, odd, pick) = (v(self), v(self), v(self), v(self), v(self));
        for (t, m) in [(up, "RP"), (down, "RM"), (zero, "RZ")] {
            self.push_selected(SassInst::new(format!("F2F.F32.F64.{m}"), [MOp::def(t.reg(), 1), MOp::use_pair(x)]));
        }
        self.push_selected(SassInst::new(
            "FSETP.NE.AND",
            [MOp::p0(), MOp::pt(), MOp::use_(up), MOp::use_(down), MOp::pt()],
        ));
        self.push_selected(SassInst::new("LOP32I.OR", [MOp::def(odd.reg(), 1), MOp::use_(zero), MOp::Imm(1)]));
        self.push_selected(SassInst::new("SEL", [MOp::def(pick.reg(), 1), MOp::use_(odd), MOp::use_(zero), MOp::p0()]));
        self.push_selected(SassInst::new("F2F.F16.F32", [MOp::def(d.reg(), 1), MOp::use_(pick)]));
    }
}
