//! Integer and conversion semantics, and the read-modify-write ops, on raw
//! bit patterns: every value is a `u64` holding its type's bits,
//! zero-extended (`pred` is 0 or 1).

use super::decode::mask;
use super::float::{self, FKind};
use crate::{BinaryOp, ConvOp, IntCC, RmwOp, Type, UnaryOp};

/// Sign-extends the low `bits` bits of `x`.
#[inline]
pub(crate) fn sext(x: u64, bits: u32) -> i64 {
    let s = 64 - bits;
    ((x << s) as i64) >> s
}

/// An integer binary op; `None` on division by zero.
pub(crate) fn int_binop(op: BinaryOp, ty: Type, a: u64, b: u64) -> Option<u64> {
    let w = ty.bits();
    let (sa, sb) = (sext(a, w), sext(b, w));
    let r = match op {
        BinaryOp::Iadd => a.wrapping_add(b),
        BinaryOp::Isub => a.wrapping_sub(b),
        BinaryOp::Imul => a.wrapping_mul(b),
        BinaryOp::Udiv => a.checked_div(b)?,
        BinaryOp::Urem => a.checked_rem(b)?,
        // MIN / -1 wraps to MIN (it does in the sign-extended i64 for narrow
        // types, and `wrapping_div` for i64); MIN % -1 is 0.
        BinaryOp::Sdiv => (sb != 0).then(|| sa.wrapping_div(sb))? as u64,
        BinaryOp::Srem => (sb != 0).then(|| sa.wrapping_rem(sb))? as u64,
        BinaryOp::Band => a & b,
        BinaryOp::Bor => a | b,
        BinaryOp::Bxor => a ^ b,
        BinaryOp::Ishl => a << (b & (w as u64 - 1)),
        BinaryOp::Ushr => a >> (b & (w as u64 - 1)),
        BinaryOp::Sshr => (sa >> (b & (w as u64 - 1))) as u64,
        BinaryOp::Umin => a.min(b),
        BinaryOp::Umax => a.max(b),
        BinaryOp::Smin => sa.min(sb) as u64,
        BinaryOp::Smax => sa.max(sb) as u64,
        BinaryOp::Umulhi => super::bits::mulhi(false, w, a, b),
        BinaryOp::Smulhi => super::bits::mulhi(true, w, a, b),
        _ => return float::binop(ty, op, a, b),
    };
    Some(mask(r, w))
}

/// A binary op of either kind; `None` on division by zero.
pub(crate) fn binop(op: BinaryOp, ty: Type, a: u64, b: u64) -> Option<u64> {
    if op.is_float() {
        float::binop(ty, op, a, b)
    } else {
        int_binop(op, ty, a, b)
    }
}

/// A unary op.
pub(crate) fn unop(op: UnaryOp, ty: Type, a: u64) -> u64 {
    match op {
        UnaryOp::Ineg => mask(a.wrapping_neg(), ty.bits()),
        UnaryOp::Bnot => mask(!a, ty.bits()),
        UnaryOp::Fneg => a ^ float::sign_mask(ty).unwrap_or(0),
        UnaryOp::Fabs => a & !float::sign_mask(ty).unwrap_or(0),
        UnaryOp::Popcnt | UnaryOp::Clz | UnaryOp::Ctz | UnaryOp::Bitrev => super::bits::count(op, ty.bits(), a),
    }
}

/// `icmp` on integers or pointers of width `ty.bits()`.
pub(crate) fn icmp(cond: IntCC, ty: Type, a: u64, b: u64) -> bool {
    let w = ty.bits();
    let (sa, sb) = (sext(a, w), sext(b, w));
    match cond {
        IntCC::Eq => a == b,
        IntCC::Ne => a != b,
        IntCC::Slt => sa < sb,
        IntCC::Sle => sa <= sb,
        IntCC::Sgt => sa > sb,
        IntCC::Sge => sa >= sb,
        IntCC::Ult => a < b,
        IntCC::Ule => a <= b,
        IntCC::Ugt => a > b,
        IntCC::Uge => a >= b,
    }
}

/// Checks that a conversion is defined (at decode time).
pub(crate) fn check_convert(op: ConvOp, from: Type, to: Type) -> Result<(), String> {
    let ok = match op {
        ConvOp::Uextend | ConvOp::Sextend => {
            from.is_int() && to.is_int() && to.bits() > from.bits()
        }
        ConvOp::Ireduce => from.is_int() && to.is_int() && to.bits() < from.bits(),
        ConvOp::Fpromote => from.is_float() && to.is_float() && to.bits() > from.bits(),
        ConvOp::Fdemote => from.is_float() && to.is_float() && to.bits() < from.bits(),
        ConvOp::FcvtToSint | ConvOp::FcvtToUint => from.is_float() && to.is_int(),
        ConvOp::FcvtFromSint | ConvOp::FcvtFromUint => from.is_int() && to.is_float(),
        ConvOp::Bitcast => from != Type::Pred && to != Type::Pred && from.bits() == to.bits(),
    };
    if ok {
        Ok(())
    } else {
        Err(format!("{op} from {from} to {to} is not defined"))
    }
}

/// A conversion (already checked by [`check_convert`]).
pub(crate) fn convert(op: ConvOp, from: Type, to: Type, a: u64) -> u64 {
    let fk = FKind::of(from);
    let tk = FKind::of(to);
    match op {
        ConvOp::Uextend | ConvOp::Bitcast => mask(a, to.bits()),
        ConvOp::Sextend => mask(sext(a, from.bits()) as u64, to.bits()),
        ConvOp::Ireduce => mask(a, to.bits()),
        ConvOp::Fpromote | ConvOp::Fdemote => match (fk, tk) {
            (Some(f), Some(t)) => t.round_from_f64(f.to_f64(a)),
            _ => 0,
        },
        ConvOp::FcvtToSint => {
            let x = fk.map(|f| f.to_f64(a)).unwrap_or(0.0);
            // `as` truncates toward zero, saturates and maps NaN to 0.
            let r = match to {
                Type::I8 => x as i8 as i64,
                Type::I16 => x as i16 as i64,
                Type::I32 => x as i32 as i64,
                _ => x as i64,
            };
            mask(r as u64, to.bits())
        }
        ConvOp::FcvtToUint => {
            let x = fk.map(|f| f.to_f64(a)).unwrap_or(0.0);
            match to {
                Type::I8 => x as u8 as u64,
                Type::I16 => x as u16 as u64,
                Type::I32 => x as u32 as u64,
                _ => x as u64,
            }
        }
        ConvOp::FcvtFromSint => int_to_float(tk, sext(a, from.bits()) as i128),
        ConvOp::FcvtFromUint => int_to_float(tk, a as i128),
    }
}

/// Rounds an integer to a float format once, to nearest even.
fn int_to_float(k: Option<FKind>, x: i128) -> u64 {
    match k {
        Some(FKind::F64) => (x as f64).to_bits(),
        Some(FKind::F32) => (x as f32).to_bits() as u64,
        // Integers beyond 2^53 (where `as f64` rounds) overflow f16 and
        // bf16 ranges' precision anyway: rounding them first to f64 cannot
        // change the final result for f16 (max 65504); for bf16 it is not
        // reachable (no bf16 scalar type).
        Some(k) => k.round_from_f64(x as f64),
        None => 0,
    }
}

/// `new` of a read-modify-write: `op(old, x)` for type `ty`.
pub(crate) fn rmw(op: RmwOp, ty: Type, old: u64, x: u64) -> u64 {
    let w = ty.bits();
    let b = |o: BinaryOp| int_binop(o, ty, old, x).unwrap_or(0);
    match op {
        RmwOp::Add => b(BinaryOp::Iadd),
        RmwOp::Sub => b(BinaryOp::Isub),
        RmwOp::And => old & x,
        RmwOp::Nand => mask(!(old & x), w),
        RmwOp::Or => old | x,
        RmwOp::Xor => old ^ x,
        RmwOp::Xchg => x,
        RmwOp::Smin => b(BinaryOp::Smin),
        RmwOp::Smax => b(BinaryOp::Smax),
        RmwOp::Umin => old.min(x),
        RmwOp::Umax => old.max(x),
        RmwOp::Fadd => float::binop(ty, BinaryOp::Fadd, old, x).unwrap_or(old),
        RmwOp::Fsub => float::binop(ty, BinaryOp::Fsub, old, x).unwrap_or(old),
        RmwOp::Fmin => float::binop(ty, BinaryOp::Fmin, old, x).unwrap_or(old),
        RmwOp::Fmax => float::binop(ty, BinaryOp::Fmax, old, x).unwrap_or(old),
        RmwOp::IncWrap => {
            if old >= x {
                0
            } else {
                mask(old + 1, w)
            }
        }
        RmwOp::DecWrap => {
            if old == 0 || old > x {
                x
            } else {
                old - 1
            }
        }
    }
}

/// The edges of the documented meaning (docs/ir.md, "What the instructions compute"), each
/// expectation written out by hand.
#[cfg(test)]
mod tests {
    use super::*;

    fn bin(op: BinaryOp, ty: Type, a: i64, b: i64) -> Option<u64> {
        int_binop(op, ty, mask(a as u64, ty.bits()), mask(b as u64, ty.bits()))
    }

    #[test]
    fn shift_amounts_are_taken_modulo_the_width() {
        use BinaryOp::{Ishl, Sshr, Ushr};
        // i16 32767 >> 0x1234: the amount is 4 (the case).
        assert_eq!(bin(Sshr, Type::I16, 32767, 0x1234), Some(2047));
        assert_eq!(bin(Ushr, Type::I16, -1, 16), Some(0xffff));
        assert_eq!(bin(Ishl, Type::I16, 1, 17), Some(2));
        assert_eq!(bin(Sshr, Type::I8, -128, 9), Some(0xc0));
        assert_eq!(bin(Ushr, Type::I8, -128, -1), Some(1));
        assert_eq!(bin(Ishl, Type::I8, 1, 8), Some(1));
        assert_eq!(bin(Sshr, Type::I32, i32::MIN as i64, 33), Some(0xc000_0000));
        assert_eq!(bin(Ishl, Type::I32, 1, -1), Some(0x8000_0000));
        assert_eq!(bin(Ushr, Type::I64, -1, 64), Some(u64::MAX));
        assert_eq!(bin(Sshr, Type::I64, i64::MIN, 127), Some(u64::MAX));
        assert_eq!(bin(Ishl, Type::I64, 3, 65), Some(6));
    }

    #[test]
    fn division_edges() {
        use BinaryOp::{Sdiv, Srem, Udiv, Urem};
        for ty in [Type::I8, Type::I16, Type::I32, Type::I64] {
            for op in [Udiv, Sdiv, Urem, Srem] {
                assert_eq!(bin(op, ty, 5, 0), None, "{op} by zero on {ty}");
            }
            let min = 1u64 << (ty.bits() - 1);
            // MIN / -1 wraps to MIN; MIN % -1 is 0.
            assert_eq!(int_binop(Sdiv, ty, min, mask(u64::MAX, ty.bits())), Some(min));
            assert_eq!(int_binop(Srem, ty, min, mask(u64::MAX, ty.bits())), Some(0));
        }
        // Toward zero; the remainder takes the dividend's sign.
        assert_eq!(bin(Sdiv, Type::I32, -7, 2), Some(-3i32 as u32 as u64));
        assert_eq!(bin(Srem, Type::I32, -7, 2), Some(-1i32 as u32 as u64));
        assert_eq!(bin(Srem, Type::I32, 7, -2), Some(1));
        assert_eq!(bin(Udiv, Type::I8, -1, 2), Some(127));
    }

    #[test]
    fn multiply_high_of_every_width() {
        use BinaryOp::{Smulhi, Umulhi};
        assert_eq!(bin(Umulhi, Type::I8, -1, -1), Some(0xfe)); // 255 * 255 = 0xfe01
        assert_eq!(bin(Smulhi, Type::I8, -1, -1), Some(0)); // 1
        assert_eq!(bin(Smulhi, Type::I8, -128, -128), Some(0x40)); // 0x4000
        assert_eq!(bin(Smulhi, Type::I8, -128, 127), Some(0xc0)); // -0x3f80
        assert_eq!(bin(Umulhi, Type::I16, -1, 2), Some(1));
        assert_eq!(bin(Smulhi, Type::I16, -32768, -1), Some(0)); // 0x8000
        assert_eq!(bin(Smulhi, Type::I16, -1, 1), Some(0xffff)); // -1
        assert_eq!(bin(Umulhi, Type::I32, -1, -1), Some(0xffff_fffe));
        assert_eq!(bin(Smulhi, Type::I32, i32::MIN as i64, i32::MIN as i64), Some(0x4000_0000));
        assert_eq!(bin(Umulhi, Type::I64, -1, -1), Some(u64::MAX - 1));
        assert_eq!(bin(Smulhi, Type::I64, i64::MIN, i64::MIN), Some(1 << 62));
        assert_eq!(bin(Smulhi, Type::I64, i64::MIN, 1), Some(u64::MAX));
        assert_eq!(bin(Smulhi, Type::I64, -1, i64::MAX), Some(u64::MAX));
        assert_eq!(bin(Umulhi, Type::I64, 1 << 32, 1 << 32), Some(1));
    }

    #[test]
    fn arithmetic_wraps_and_sub_word_results_hold_only_their_bits() {
        use BinaryOp::{Iadd, Imul, Isub};
        assert_eq!(bin(Iadd, Type::I8, 127, 1), Some(0x80));
        assert_eq!(bin(Isub, Type::I16, 0, 1), Some(0xffff));
        assert_eq!(bin(Imul, Type::I32, 0x10000, 0x10000), Some(0));
        assert_eq!(bin(Iadd, Type::I64, i64::MAX, 1), Some(1 << 63));
        assert_eq!(unop(UnaryOp::Ineg, Type::I8, 0x80), 0x80);
        assert_eq!(unop(UnaryOp::Bnot, Type::I16, 0), 0xffff);
        assert_eq!(convert(ConvOp::Sextend, Type::I8, Type::I32, 0x80), 0xffff_ff80);
        assert_eq!(convert(ConvOp::Ireduce, Type::I32, Type::I8, 0x1234_5678), 0x78);
    }

    #[test]
    fn float_to_int_truncates_saturates_and_maps_nan_to_zero() {
        let f32b = |x: f32| x.to_bits() as u64;
        let s = |to: Type, x: f32| convert(ConvOp::FcvtToSint, Type::F32, to, f32b(x));
        let u = |to: Type, x: f32| convert(ConvOp::FcvtToUint, Type::F32, to, f32b(x));
        assert_eq!(s(Type::I32, -2.9), -2i32 as u32 as u64);
        assert_eq!(s(Type::I32, 3e9), 0x7fff_ffff);
        assert_eq!(s(Type::I32, -3e9), 0x8000_0000);
        assert_eq!(s(Type::I8, 1000.0), 0x7f);
        assert_eq!(s(Type::I16, -1e6), 0x8000);
        assert_eq!(s(Type::I64, f32::INFINITY), i64::MAX as u64);
        assert_eq!(s(Type::I32, f32::NAN), 0);
        assert_eq!(u(Type::I32, -1.0), 0);
        assert_eq!(u(Type::I8, 300.0), 0xff);
        assert_eq!(u(Type::I64, f32::NEG_INFINITY), 0);
        assert_eq!(u(Type::I16, f32::NAN), 0);
        let d = convert(ConvOp::FcvtToUint, Type::F64, Type::I64, 1e20f64.to_bits());
        assert_eq!(d, u64::MAX);
    }

    #[test]
    fn fmin_fmax_order_zeros_and_lose_nans() {
        let b = |x: f32| x.to_bits() as u64;
        let f = |op, x: f32, y: f32| binop(op, Type::F32, b(x), b(y)).unwrap();
        assert_eq!(f(BinaryOp::Fmin, 0.0, -0.0), b(-0.0));
        assert_eq!(f(BinaryOp::Fmin, -0.0, 0.0), b(-0.0));
        assert_eq!(f(BinaryOp::Fmax, -0.0, 0.0), b(0.0));
        assert_eq!(f(BinaryOp::Fmax, 0.0, -0.0), b(0.0));
        assert_eq!(f(BinaryOp::Fmin, f32::NAN, 1.0), b(1.0));
        assert_eq!(f(BinaryOp::Fmax, -1.0, f32::NAN), b(-1.0));
        assert_eq!(f(BinaryOp::Fmin, f32::NAN, f32::NAN), 0x7fc0_0000);
    }
}
