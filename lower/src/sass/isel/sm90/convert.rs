//! sm_90 conversions: integer/float (`fcvt_*`) and f16, as ptxas 13.5 writes them for Hopper
//! (sm_50's: `sm50/convert.rs`).

use crate::sass::isel::convert::int_tok;
use super::NOT_PT;
use crate::sass::inst::{MOp, SassInst};
use crate::sass::isel::{Isel, IselError};
use crate::vcode::{RegClass, VReg};
use atomc_ir::{BinaryOp, ConvOp, Type};
use atomc_sass::op;
use atomc_sass::op::t;

/// An integer/float conversion in the one instruction ptxas 13.5 writes for
/// cvt.rzi.{s,u}N.fM and cvt.rn.fM.{s,u}N: `F2I{.S8..U64}{.F16,.F64}.TRUNC{.NTZ}` and
/// `I2F{.F16,.F64}{.S8..U64}` (f32 from an 8- or 16-bit unsigned value: `I2FP.F32.U32`,
/// atomc's 8- and 16-bit values being zero-extended). The F2I results saturate, NaN giving
/// 0, and truncate, as the IR defines fcvt_to_*; an 8- or 16-bit result is masked back to
/// its zero-extended form (ptxas re-extends `F2I.S8` with PRMT and masks `F2I.U8` with LOP3
/// before using the word). An i32 to f32 is `I2FP.F32.{S,U}32` as well.
pub(super) fn int_float(s: &mut Isel<'_>, d: VReg, op: ConvOp, from: Type, to: Type, r: VReg) {
    let from_int = matches!(op, ConvOp::FcvtFromSint | ConvOp::FcvtFromUint);
    if from_int && from == Type::I32 && to == Type::F32 {
        // ptxas 13.5 converts with the fixed-latency I2FP (`I2FP.F32.S32 R0, R5`, read by an
        // FADD 5 cycles later, no scoreboard); sm_90 has no plain I2F.F32 form.
        let opcode = if op == ConvOp::FcvtFromSint { op!(I2FP.F32.S32) } else { op!(I2FP.F32.U32) };
        s.emit(SassInst::new(opcode, [MOp::def(d.reg(), 1), MOp::use_(r)]));
        return;
    }
    // The unprinted defaults are S32 and F32.
    let int_name = |ty: Type, signed: bool| match (ty.bits(), signed) {
        (32, true) => None,
        (b, _) => Some(int_tok(signed, b)),
    };
    let float_name = |ty: Type| match ty {
        Type::F16 => Some(t::F16),
        Type::F64 => Some(t::F64),
        _ => None,
    };
    let src = if from.bits() == 64 { MOp::use_pair(r) } else { MOp::use_(r) };
    let width = if to.bits() == 64 { 2 } else { 1 };
    match op {
        ConvOp::FcvtFromSint | ConvOp::FcvtFromUint => {
            let signed = op == ConvOp::FcvtFromSint;
            if to == Type::F32 && !signed && from.bits() < 32 {
                s.emit(SassInst::new(op!(I2FP.F32.U32), [MOp::def(d.reg(), 1), src]));
                return;
            }
            let opc = op!(I2F).with(float_name(to)).with(int_name(from, signed));
            s.emit(SassInst::new(opc, [MOp::def(d.reg(), width), src]));
        }
        _ => {
            let signed = op == ConvOp::FcvtToSint;
            let ntz = (from != Type::F64 && to.bits() != 64).then_some(t::NTZ);
            let opc = op!(F2I).with(int_name(to, signed)).with(float_name(from)).with(t::TRUNC).with(ntz);
            if to.bits() >= 32 {
                s.emit(SassInst::new(opc, [MOp::def(d.reg(), width), src]));
                return;
            }
            let t = s.new_vreg(RegClass::Single);
            s.emit(SassInst::new(opc, [MOp::def(t.reg(), 1), src]));
            let mask = if to.bits() == 8 { 0xff } else { 0xffff };
            let ops = [MOp::def(d.reg(), 1), MOp::use_(t), MOp::Imm(mask), MOp::rz(), MOp::Imm(0xc0), NOT_PT];
            s.emit(SassInst::new(op!(LOP3.LUT), ops));
        }
    }
}

/// ptxas 13.5 on `add/sub/mul/min/max.f16`: `HADD2`, `HMUL2` and `HMNMX2` on the halves
/// (see `half.rs` for why the high halves need no `PRMT`).
pub(super) fn f16_arith(s: &mut Isel<'_>, d: VReg, op: BinaryOp, a: VReg, b: VReg) -> Result<(), IselError> {
    let (def, x, y) = (MOp::def(d.reg(), 1), MOp::use_(a), MOp::use_(b));
    let inst = match op {
        BinaryOp::Fadd => SassInst::new(op!(HADD2), [def, x, y]),
        BinaryOp::Fsub => SassInst::new(op!(HADD2), [def, x, MOp::neg(b)]),
        BinaryOp::Fmul => SassInst::new(op!(HMUL2), [def, x, y]),
        BinaryOp::Fmin | BinaryOp::Fmax => {
            SassInst::new(op!(HMNMX2), [def, x, y, MOp::Pred { num: 7, not: op == BinaryOp::Fmax }])
        }
        _ => return Err(s.err(format!("`{op}` on f16 is not selected"))),
    };
    s.emit(inst);
    Ok(())
}

/// ptxas 13.5 on `cvt.f32.f16`, `cvt.f64.f16`, `cvt.rn.f16.f64`, `cvt.rn.f16.f32`:
/// `HADD2.F32 Rd, -RZ, Ra.H0_H0` (`-RZ` keeps -0 negative), `F2F.F64.F16`, `F2F.F16.F64`,
/// `F2FP.F16.F32.PACK_AB`.
pub(super) fn f16_convert(s: &mut Isel<'_>, d: VReg, from: Type, to: Type, r: VReg) -> Result<(), IselError> {
    match (from, to) {
        (Type::F16, Type::F32) => {
            let i = SassInst::new(op!(HADD2.F32), [MOp::def(d.reg(), 1), MOp::neg(crate::vcode::Reg::Zero), MOp::use_(r)]);
            // B read `.H0_H0` (operand 2): the low half, as ptxas reads it.
            s.emit(i.with_swizzle(2, 2));
        }
        (Type::F16, Type::F64) => s.emit(SassInst::new(op!(F2F.F64.F16), [MOp::def(d.reg(), 2), MOp::use_(r)])),
        (Type::F64, Type::F16) => s.emit(SassInst::new(op!(F2F.F16.F64), [MOp::def(d.reg(), 1), MOp::use_pair(r)])),
        (Type::F32, Type::F16) => {
            s.emit(SassInst::new(op!(F2FP.F16.F32.PACK_AB), [MOp::def(d.reg(), 1), MOp::rz(), MOp::use_(r)]))
        }
        _ => return Err(s.err(format!("conversion from {from} to {to} is not selected"))),
    }
    Ok(())
}
