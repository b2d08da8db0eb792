//! Float formats the host lacks (binary16, bfloat16) and the float rules of
//! the IR: one rounding per operation, canonical NaNs, minNum/maxNum.
//!
//! Every narrow format is handled through `f64`: widening to `f64` is exact,
//! and [`narrow`] rounds an `f64` once, to nearest even, into any binary
//! format with fewer exponent and fraction bits. `f16`/`bf16` arithmetic is
//! done in `f32` and then rounded: `f32` has at least `2p + 2` significand
//! bits for both (p = 11 and 8), so the double rounding of `+ - * /` is
//! innocuous and the result is the correctly rounded one.

use crate::{BinaryOp, FloatCC, Type};
use std::ops::{Add, Div, Mul, Sub};

/// The scalar float formats lanes and values can have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FKind {
    F16,
    BF16,
    F32,
    F64,
}

impl FKind {
    /// The format of a scalar float type, or of each lane of a packed one.
    pub(crate) fn of(ty: Type) -> Option<FKind> {
        match ty {
            Type::F16 | Type::F16x2 => Some(FKind::F16),
            Type::BF16x2 => Some(FKind::BF16),
            Type::F32 => Some(FKind::F32),
            Type::F64 => Some(FKind::F64),
            _ => None,
        }
    }

    fn exp_man(self) -> (u32, u32) {
        match self {
            FKind::F16 => (5, 10),
            FKind::BF16 => (8, 7),
            FKind::F32 => (8, 23),
            FKind::F64 => (11, 52),
        }
    }

    /// The canonical quiet NaN: positive, quiet bit set, no payload.
    pub(crate) fn qnan(self) -> u64 {
        let (e, m) = self.exp_man();
        (((1u64 << e) - 1) << m) | (1u64 << (m - 1))
    }

    /// The value of a bit pattern, exactly.
    pub(crate) fn to_f64(self, bits: u64) -> f64 {
        match self {
            FKind::F64 => f64::from_bits(bits),
            FKind::F32 => f32::from_bits(bits as u32) as f64,
            FKind::F16 | FKind::BF16 => {
                let (e, m) = self.exp_man();
                widen(bits, e, m)
            }
        }
    }

    /// Rounds `x` to this format, to nearest even.
    pub(crate) fn round_from_f64(self, x: f64) -> u64 {
        match self {
            FKind::F64 => x.to_bits(),
            FKind::F32 => (x as f32).to_bits() as u64,
            FKind::F16 | FKind::BF16 => {
                let (e, m) = self.exp_man();
                narrow(x, e, m)
            }
        }
    }

    fn is_nan(self, bits: u64) -> bool {
        self.to_f64(bits).is_nan()
    }
}

/// Converts an `f32` to IEEE binary16 bits: round to nearest even,
/// subnormals kept, overflow to infinity, NaN stays a (quiet) NaN with the
/// top payload bits.
pub fn f32_to_f16_bits(x: f32) -> u16 {
    narrow(x as f64, 5, 10) as u16
}

/// Converts IEEE binary16 bits to the `f32` of the same value (exact).
pub fn f16_bits_to_f32(bits: u16) -> f32 {
    widen(bits as u64, 5, 10) as f32
}

/// Converts an `f32` to bfloat16 bits, round to nearest even.
pub fn f32_to_bf16_bits(x: f32) -> u16 {
    narrow(x as f64, 8, 7) as u16
}

/// Converts bfloat16 bits to the `f32` of the same value (exact).
pub fn bf16_bits_to_f32(bits: u16) -> f32 {
    f32::from_bits((bits as u32) << 16)
}

/// Rounds `x` to a binary format with `eb` exponent bits and `mb` fraction
/// bits (`eb <= 11`, `mb < 52`), to nearest even; returns its bit pattern.
fn narrow(x: f64, eb: u32, mb: u32) -> u64 {
    let b = x.to_bits();
    let sign = (b >> 63) << (eb + mb);
    let exp = ((b >> 52) & 0x7ff) as i64;
    let man = b & ((1u64 << 52) - 1);
    let max_field = (1u64 << eb) - 1;
    let inf = sign | (max_field << mb);
    if exp == 0x7ff {
        if man == 0 {
            return inf;
        }
        // A NaN stays a NaN: quiet it and keep the top payload bits.
        return inf | (1u64 << (mb - 1)) | (man >> (52 - mb));
    }
    if exp == 0 {
        // Zero or an f64 subnormal: far below half the smallest subnormal
        // of every narrower format.
        return sign;
    }
    let bias = (1i64 << (eb - 1)) - 1;
    let e = exp - 1023;
    let m = (1u64 << 52) | man;
    let min_e = 1 - bias;
    let base_shift = 52 - mb as i64;
    let shift = if e >= min_e {
        base_shift
    } else {
        base_shift + (min_e - e)
    };
    if shift >= 54 {
        // Below half the smallest subnormal: rounds to zero.
        return sign;
    }
    let q = m >> shift;
    let rem = m & ((1u64 << shift) - 1);
    let half = 1u64 << (shift - 1);
    let q = if rem > half || (rem == half && q & 1 == 1) {
        q + 1
    } else {
        q
    };
    let bits = if e >= min_e {
        // A carry out of the fraction bumps the exponent, as it should.
        (((e + bias) as u64) << mb) + (q - (1u64 << mb))
    } else {
        // Subnormal; rounding up to 1 << mb is the smallest normal.
        q
    };
    if bits >= max_field << mb {
        return inf;
    }
    sign | bits
}

/// The exact `f64` of a pattern in a format with `eb`/`mb` bits.
fn widen(bits: u64, eb: u32, mb: u32) -> f64 {
    let sign = (bits >> (eb + mb)) & 1;
    let max_field = (1u64 << eb) - 1;
    let exp = (bits >> mb) & max_field;
    let man = bits & ((1u64 << mb) - 1);
    let bias = (1i64 << (eb - 1)) - 1;
    let mag = if exp == max_field {
        f64::from_bits((0x7ffu64 << 52) | (man << (52 - mb)))
    } else if exp == 0 {
        man as f64 * 2f64.powi((1 - bias - mb as i64) as i32)
    } else {
        f64::from_bits((((exp as i64 - bias + 1023) as u64) << 52) | (man << (52 - mb)))
    };
    if sign == 1 {
        -mag
    } else {
        mag
    }
}

/// `op` on one lane (or a scalar) of format `k`; a NaN result is the
/// canonical quiet NaN. `op` is one of the float [`BinaryOp`]s.
pub(crate) fn scalar_binop(k: FKind, op: BinaryOp, a: u64, b: u64) -> u64 {
    match op {
        BinaryOp::Fmin => return min_max(k, a, b, false),
        BinaryOp::Fmax => return min_max(k, a, b, true),
        _ => {}
    }
    let r = match k {
        FKind::F64 => {
            let (x, y) = (f64::from_bits(a), f64::from_bits(b));
            arith(op, x, y).to_bits()
        }
        _ => {
            // f32 arithmetic rounds once; narrowing rounds again, which is
            // innocuous for f16 and bf16 (see the module comment).
            let (x, y) = (k.to_f64(a) as f32, k.to_f64(b) as f32);
            let r = arith(op, x, y);
            k.round_from_f64(r as f64)
        }
    };
    if k.is_nan(r) {
        k.qnan()
    } else {
        r
    }
}

/// `fadd`, `fsub`, `fmul` or (any other `op`) `fdiv`, rounded once in `F` (f32 or f64).
fn arith<F: Add<Output = F> + Sub<Output = F> + Mul<Output = F> + Div<Output = F>>(op: BinaryOp, x: F, y: F) -> F {
    match op {
        BinaryOp::Fadd => x + y,
        BinaryOp::Fsub => x - y,
        BinaryOp::Fmul => x * y,
        _ => x / y,
    }
}

/// minNum / maxNum: one NaN side loses, two NaNs give the canonical NaN,
/// `-0.0 < +0.0`. Returns one operand's bits unchanged otherwise.
fn min_max(k: FKind, a: u64, b: u64, max: bool) -> u64 {
    let (x, y) = (k.to_f64(a), k.to_f64(b));
    match (x.is_nan(), y.is_nan()) {
        (true, true) => k.qnan(),
        (true, false) => b,
        (false, true) => a,
        _ if x == y => {
            // Equal values; only zeros can differ (in sign).
            let a_neg = x.is_sign_negative();
            if a_neg == max {
                b
            } else {
                a
            }
        }
        _ => {
            if (x < y) != max {
                a
            } else {
                b
            }
        }
    }
}

/// A float binary op on a value of type `ty`: scalar, or lane by lane for
/// the packed types. `None` when `ty` is no float type.
pub(crate) fn binop(ty: Type, op: BinaryOp, a: u64, b: u64) -> Option<u64> {
    let k = FKind::of(ty)?;
    if ty.is_packed_float() {
        let lo = scalar_binop(k, op, a & 0xffff, b & 0xffff);
        let hi = scalar_binop(k, op, (a >> 16) & 0xffff, (b >> 16) & 0xffff);
        Some(lo | (hi << 16))
    } else {
        Some(scalar_binop(k, op, a, b))
    }
}

/// The sign bit(s) of a float type (both lanes for packed types).
pub(crate) fn sign_mask(ty: Type) -> Option<u64> {
    match ty {
        Type::F16 => Some(0x8000),
        Type::F32 => Some(0x8000_0000),
        Type::F64 => Some(1 << 63),
        Type::F16x2 | Type::BF16x2 => Some(0x8000_8000),
        _ => None,
    }
}

/// `fcmp cond` on two scalar floats of format `k`.
pub(crate) fn compare(k: FKind, cond: FloatCC, a: u64, b: u64) -> bool {
    let (x, y) = (k.to_f64(a), k.to_f64(b));
    let uno = x.is_nan() || y.is_nan();
    match cond {
        FloatCC::Eq => x == y,
        FloatCC::Ne => x != y,
        FloatCC::Lt => x < y,
        FloatCC::Le => x <= y,
        FloatCC::Gt => x > y,
        FloatCC::Ge => x >= y,
        FloatCC::Ord => !uno,
        FloatCC::Uno => uno,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrow_handles_every_class() {
        assert_eq!(FKind::F16.round_from_f64(1.0), 0x3c00);
        assert_eq!(FKind::F16.round_from_f64(-2.0), 0xc000);
        assert_eq!(FKind::F16.round_from_f64(65504.0), 0x7bff);
        assert_eq!(FKind::F16.round_from_f64(1e10), 0x7c00);
        assert_eq!(FKind::F16.round_from_f64(-1e-10), 0x8000);
        assert_eq!(FKind::F16.round_from_f64(f64::NAN) & 0x7e00, 0x7e00);
        assert_eq!(FKind::BF16.round_from_f64(1.0), 0x3f80);
        assert_eq!(FKind::BF16.round_from_f64(f64::INFINITY), 0x7f80);
        assert_eq!(FKind::F16.qnan(), 0x7e00);
        assert_eq!(FKind::BF16.qnan(), 0x7fc0);
        assert_eq!(FKind::F32.qnan(), 0x7fc0_0000);
        assert_eq!(FKind::F64.qnan(), 0x7ff8_0000_0000_0000);
    }

    #[test]
    fn widen_is_exact_for_subnormals() {
        assert_eq!(FKind::F16.to_f64(0x0001), 2f64.powi(-24));
        assert_eq!(FKind::F16.to_f64(0x03ff), 1023.0 * 2f64.powi(-24));
        assert_eq!(FKind::BF16.to_f64(0x0001), 2f64.powi(-133));
        assert!(FKind::F16.to_f64(0x7c01).is_nan());
    }

    #[test]
    fn min_max_prefers_numbers_and_orders_zeros() {
        let k = FKind::F32;
        let (nan, one, pz, nz) = (0x7fc0_0001u64, 0x3f80_0000u64, 0u64, 0x8000_0000u64);
        assert_eq!(min_max(k, nan, one, false), one);
        assert_eq!(min_max(k, one, nan, true), one);
        assert_eq!(min_max(k, nan, nan, false), k.qnan());
        assert_eq!(min_max(k, pz, nz, false), nz);
        assert_eq!(min_max(k, nz, pz, true), pz);
    }
}

/// `a × b + c` on scalar format `k`, rounded once to nearest even; a NaN
/// result is the canonical quiet NaN.
pub(crate) fn fma(k: FKind, a: u64, b: u64, c: u64) -> u64 {
    let r = match k {
        FKind::F64 => f64::from_bits(a).mul_add(f64::from_bits(b), f64::from_bits(c)).to_bits(),
        FKind::F32 => {
            let (x, y, z) = (f32::from_bits(a as u32), f32::from_bits(b as u32), f32::from_bits(c as u32));
            x.mul_add(y, z).to_bits() as u64
        }
        _ => {
            // The product of two 16-bit floats is exact in f64; the sum is
            // rounded to odd there (53 bits, at least two more than the
            // format's), so rounding that to the format is the single rounding.
            let (x, y, z) = (k.to_f64(a), k.to_f64(b), k.to_f64(c));
            k.round_from_f64(add_round_to_odd(x * y, z))
        }
    };
    if k.is_nan(r) {
        k.qnan()
    } else {
        r
    }
}

/// `x + y` rounded to odd: the nearest f64 toward zero whose last bit is
/// odd when the sum is inexact (TwoSum gives the rounding error).
fn add_round_to_odd(x: f64, y: f64) -> f64 {
    let s = x + y;
    if !s.is_finite() {
        return s;
    }
    let bb = s - x;
    let err = (x - (s - bb)) + (y - bb);
    let bits = s.to_bits();
    if err == 0.0 || bits & 1 == 1 {
        return s;
    }
    // Step one ulp toward the exact value (away from s on err's side).
    if (err > 0.0) == (s > 0.0) {
        f64::from_bits(bits + 1)
    } else {
        f64::from_bits(bits - 1)
    }
}
