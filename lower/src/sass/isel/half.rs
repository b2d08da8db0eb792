//! f16 arithmetic and the conversions to and from f16: the shared entry points; each target
//! selects them its own way ([`super::Isa::f16_arith`], [`super::Isa::f16_convert`]).
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
//! sm_50 has no half-precision ALU: it computes in f32 and rounds (`sm50/convert.rs`).

use super::{Isel, IselError};
use crate::vcode::{RegClass, VReg};
use atomc_ir::{BinaryOp, ConvOp, Type, Value};

impl Isel<'_> {
    /// `d = a op b` on f16 (`fadd`, `fsub`, `fmul`, `fmin`, `fmax`).
    pub(super) fn half_binary(&mut self, d: VReg, op: BinaryOp, a: Value, b: Value) -> Result<(), IselError> {
        let (ra, rb) = (self.reg(a), self.reg(b));
        self.isa.f16_arith(self, d, op, ra, rb)
    }

    /// A new register holding the f16 in `r` widened to f32 (exact): what `fcmp` on f16 compares.
    pub(super) fn half_to_f32(&mut self, r: VReg) -> Result<VReg, IselError> {
        let t = self.new_vreg(RegClass::Single);
        self.isa.f16_convert(self, t, Type::F16, Type::F32, r)?;
        Ok(t)
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
        let ok = matches!(
            (op, from, to),
            (ConvOp::Fpromote, Type::F16, Type::F32 | Type::F64) | (ConvOp::Fdemote, Type::F32 | Type::F64, Type::F16)
        );
        if !ok {
            return None;
        }
        let r = self.reg(a);
        Some(self.isa.f16_convert(self, d, from, to, r))
    }
}
