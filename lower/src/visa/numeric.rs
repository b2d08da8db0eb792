//! Conversions between integers and floats. A vISA `mov` whose operand types differ converts:
//! float → integer truncates toward zero, saturates to the destination's range and gives 0 for
//! NaN (the IR's `fcvt_to_sint`/`fcvt_to_uint`); integer → float rounds to nearest even.
//!
//! - Narrow integers (8 and 16 bits) live zero-extended in a dword. A float becomes a 32-bit
//!   integer first and is then clamped to the narrow range, which saturates exactly as a direct
//!   conversion would (the 32-bit result is already the truncated value, or a bound beyond the
//!   narrow range); a signed narrow result is masked back to its width. A narrow source is
//!   sign- or zero-extended to 32 bits first, exactly.
//! - f16 goes through f32: f16 → f32 is exact; integer → f16 rounds twice, which cannot change
//!   the result, since an integer rounds inexactly to f32 only beyond 2^24, far past f16's
//!   largest finite value (65504), where both roundings give infinity.
//! - f64 is a `mov` where the part has the fp64 ALU; f64 → f16 is not (through f32 it would round
//!   twice).
//! - 64-bit integers convert by a `mov` reading the dword pair as one `q`/`uq` on PVC, which has a
//!   64-bit integer ALU (the lowering keeps 64-bit integers as dword pairs on every platform).
//! - What a part lacks the ALU for (f64 on TGLLP and DG2, 64-bit integers there, f64 → f16
//!   everywhere) is integer code: `soft_convert.rs`.

use atomc_ir::{ConvOp, Inst, Type as IrType, Value};

use super::alu::Conversion;
use super::{half, Lower, LowerError};
use atomc_visa::{Imm, Op, Operand, Type};

/// Lowers `op` from `arg`'s type to `to` when it is a numeric conversion this file handles;
/// `Ok(false)` leaves it to the caller's refusal.
pub(crate) fn convert(l: &mut Lower<'_>, conv: Conversion) -> Result<bool, LowerError> {
    let Conversion { inst, op, to, arg, res, u } = conv;
    let from = l.ty(arg);
    if super::soft_convert::wanted(l, op, from, to) {
        super::soft_convert::lower(l, conv)?;
        return Ok(true);
    }
    let fp64 = !l.no_fp64();
    let float_ok = |t: IrType| t == IrType::F16 || t == IrType::F32 || (t == IrType::F64 && fp64);
    let int_ok = |t: IrType| t.is_int() && t.bits() <= 32;
    match op {
        ConvOp::FcvtToSint | ConvOp::FcvtToUint if float_ok(from) && int_ok(to) => {
            let s = float_src(l, inst, arg, from, u)?;
            to_int(l, s, to, op == ConvOp::FcvtToSint, res, u)?;
        }
        ConvOp::FcvtFromSint | ConvOp::FcvtFromUint if int_ok(from) && float_ok(to) => {
            let s = if op == ConvOp::FcvtFromSint { l.sext32(arg)? } else { l.src(arg, Type::UD)? };
            to_float(l, s, to, res, u)?;
        }
        ConvOp::Fpromote if from == IrType::F16 && to == IrType::F64 && fp64 => {
            let s = float_src(l, inst, arg, from, u)?;
            to_float(l, s, to, res, u)?;
        }
        // PVC has a 64-bit integer ALU: a `mov` between `q`/`uq` and a float converts with one
        // rounding (the dword pair is read as one qword). To f16 it goes through f32, rounding
        // twice harmlessly (module docs).
        ConvOp::FcvtToSint | ConvOp::FcvtToUint if fp64 && float_ok(from) && to.is_int() && to.bits() == 64 => {
            let s = float_src(l, inst, arg, from, u)?;
            let r = l.def_var(res, u)?;
            let d = l.dst(r, if op == ConvOp::FcvtToSint { Type::Q } else { Type::UQ });
            let ex = l.exec(u);
            l.k.mov(ex, d, s);
        }
        ConvOp::FcvtFromSint | ConvOp::FcvtFromUint if fp64 && from.is_int() && from.bits() == 64 && float_ok(to) => {
            let s = l.src_whole(arg, if op == ConvOp::FcvtFromSint { Type::Q } else { Type::UQ })?;
            to_float(l, s, to, res, u)?;
        }
        ConvOp::FcvtToSint | ConvOp::FcvtToUint | ConvOp::FcvtFromSint | ConvOp::FcvtFromUint
            if from.bits() == 64 && from.is_int() || to.bits() == 64 && to.is_int() =>
        {
            return Err(l.reject(inst, "64-bit integer <-> float conversions need a 64-bit integer ALU (TGLLP and DG2 have none; PVC at SIMD2 cannot split one)"));
        }
        _ if (from == IrType::F64 || to == IrType::F64) && !fp64 => {
            return Err(l.reject(inst, "f64 arithmetic needs an fp64 ALU, which this part lacks"));
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// `arg` as an f32 (f16 widened exactly) or f64 source.
fn float_src(l: &mut Lower<'_>, inst: Inst, arg: Value, from: IrType, u: bool) -> Result<Operand, LowerError> {
    Ok(match from {
        IrType::F16 => Operand::src(half::widen(l, inst, arg, u)?),
        IrType::F64 => l.src_whole(arg, Type::DF)?,
        _ => l.src(arg, Type::F)?,
    })
}

/// A float source into a 32-bit or narrower integer result.
fn to_int(l: &mut Lower<'_>, s: Operand, to: IrType, signed: bool, res: Value, u: bool) -> Result<(), LowerError> {
    let ex = l.exec(u);
    let ity = if signed { Type::D } else { Type::UD };
    let r = l.def_var(res, u)?;
    let d = l.dst(r, ity);
    l.k.mov(ex, d, s);
    let bits = to.bits();
    if bits < 32 {
        let view = l.view(r, ity);
        let cur = |v| if u { Operand::scalar(v) } else { Operand::src(v) };
        if signed {
            let (lo, hi) = (-(1i32 << (bits - 1)), (1i32 << (bits - 1)) - 1);
            let d = l.dst(r, ity);
            l.k.binary(Op::Max, ex, d, cur(view), Operand::imm(Imm::d(lo)));
            let d = l.dst(r, ity);
            l.k.binary(Op::Min, ex, d, cur(view), Operand::imm(Imm::d(hi)));
            l.narrow(r, to, u);
        } else {
            let d = l.dst(r, ity);
            l.k.binary(Op::Min, ex, d, cur(view), Operand::imm(Imm::ud((1u32 << bits) - 1)));
        }
    }
    Ok(())
}

/// A 32-bit integer (or f16-widened) source into an f16, f32 or f64 result.
fn to_float(l: &mut Lower<'_>, s: Operand, to: IrType, res: Value, u: bool) -> Result<(), LowerError> {
    let ex = l.exec(u);
    match to {
        IrType::F16 => {
            let t = l.tmp(Type::F, u);
            l.k.mov(ex, Operand::dst(t), s);
            let r = l.def_var(res, u)?;
            l.k.mov(ex, Operand::dst(r), Operand::imm(Imm::ud(0)));
            let h = l.view(r, Type::HF);
            l.k.mov(ex, Operand::dst_at(h, 0, 0, if u { 1 } else { 2 }), Operand::src(t));
        }
        IrType::F64 => {
            let r = l.def_var(res, u)?;
            let d = l.dst(r, Type::DF);
            l.k.mov(ex, d, s);
        }
        _ => {
            let r = l.def_var(res, u)?;
            let d = l.dst(r, Type::F);
            l.k.mov(ex, d, s);
        }
    }
    Ok(())
}
