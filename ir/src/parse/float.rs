//! Float literals of `fconst`: the printer's spelling and the parser's
//! reading, kept side by side so they cannot drift apart.
//!
//! A value prints as the shortest decimal that reads back to the same bits
//! (`1.5`, `-0.0`, `1e30`), as `inf` / `-inf`, or, for NaNs (payload kept)
//! and patterns wider than the type, as `0x` and the bit pattern.
//! `f16` has no native Rust type: it prints as the shortest decimal of its
//! (exact) `f32` value, and reads through `f64` with one rounding to
//! nearest even.

use crate::Type;

/// The text of an `fconst` literal of type `ty` holding `bits`.
pub(crate) fn format_float(ty: Type, bits: u64) -> String {
    match ty {
        Type::F16 if bits <= 0xffff => {
            let h = bits as u16;
            let x = f16_to_f64(h);
            if x.is_nan() {
                return format!("0x{h:04x}");
            }
            if x.is_infinite() {
                return inf_text(x < 0.0);
            }
            // Every f16 value is exact in f32, and f32's shortest
            // round-trip decimal is far closer to it than half an f16 ulp,
            // so it reads back to `h` (`65504.0`, not `65500.0`).
            format!("{:?}", x as f32)
        }
        Type::F32 if bits <= 0xffff_ffff => {
            let x = f32::from_bits(bits as u32);
            if x.is_nan() {
                format!("0x{bits:08x}")
            } else if x.is_infinite() {
                inf_text(x < 0.0)
            } else {
                format!("{x:?}")
            }
        }
        Type::F64 => {
            let x = f64::from_bits(bits);
            if x.is_nan() {
                format!("0x{bits:016x}")
            } else if x.is_infinite() {
                inf_text(x < 0.0)
            } else {
                format!("{x:?}")
            }
        }
        // Not a scalar float (the verifier rejects it) or too wide a
        // pattern: the bits are all there is to say.
        _ => format!("0x{bits:x}"),
    }
}

fn inf_text(negative: bool) -> String {
    format!("{}{}", if negative { "-" } else { "" }, super::words::INF)
}

/// Why a float literal was rejected.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum FloatError {
    /// Not a float literal at all.
    Syntax,
    /// A literal too large for the type (or a bit pattern wider than it).
    Range,
}

/// Reads an `fconst` literal: `word` is the token after an optional `-`
/// (`negative`).
pub(crate) fn parse_float(ty: Type, negative: bool, word: &str) -> Result<u64, FloatError> {
    let width = match ty {
        Type::F16 => 16,
        Type::F32 => 32,
        _ => 64,
    };
    if let Some(hex) = word.strip_prefix("0x").or_else(|| word.strip_prefix("0X")) {
        if negative {
            return Err(FloatError::Syntax);
        }
        let bits = u64::from_str_radix(hex, 16).map_err(|e| int_error(&e))?;
        return if width < 64 && bits >> width != 0 { Err(FloatError::Range) } else { Ok(bits) };
    }
    let x = if word == super::words::INF {
        f64::INFINITY
    } else {
        let decimal = word.starts_with(|c: char| c.is_ascii_digit())
            && word.chars().all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-'));
        if !decimal {
            return Err(FloatError::Syntax);
        }
        if ty == Type::F32 {
            // Read straight into f32: one correct rounding.
            let x: f32 = word.parse().map_err(|_| FloatError::Syntax)?;
            if x.is_infinite() {
                return Err(FloatError::Range);
            }
            let x = if negative { -x } else { x };
            return Ok(u64::from(x.to_bits()));
        }
        let x: f64 = word.parse().map_err(|_| FloatError::Syntax)?;
        if x.is_infinite() {
            return Err(FloatError::Range);
        }
        x
    };
    let x = if negative { -x } else { x };
    match ty {
        Type::F16 => {
            let h = f64_to_f16(x);
            if x.is_finite() && f16_to_f64(h).is_infinite() {
                return Err(FloatError::Range);
            }
            Ok(u64::from(h))
        }
        Type::F32 => Ok(u64::from((x as f32).to_bits())),
        _ => Ok(x.to_bits()),
    }
}

fn int_error(e: &std::num::ParseIntError) -> FloatError {
    match e.kind() {
        std::num::IntErrorKind::PosOverflow => FloatError::Range,
        _ => FloatError::Syntax,
    }
}

/// The exact value of binary16 bits.
pub(crate) fn f16_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1f);
    let mant = f64::from(h & 0x3ff);
    let mag = match exp {
        0 => mant * 2f64.powi(-24),
        31 if mant == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1024.0 + mant) * 2f64.powi(exp - 25),
    };
    sign * mag
}

/// Rounds an `f64` to binary16, to nearest even; NaNs stay NaN (top
/// payload bits kept, quiet bit set).
pub(crate) fn f64_to_f16(x: f64) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 63) as u16) << 15;
    let exp = ((b >> 52) & 0x7ff) as i32;
    let mant = b & ((1u64 << 52) - 1);
    if exp == 0x7ff {
        let nan = if mant != 0 { 0x200 | (mant >> 42) as u16 } else { 0 };
        return sign | 0x7c00 | nan;
    }
    if exp == 0 {
        return sign; // f64 subnormals are far below the f16 range
    }
    let e = exp - 1023;
    if e > 15 {
        return sign | 0x7c00;
    }
    let m = (1u64 << 52) | mant;
    let shift = if e >= -14 { 42 } else { (28 - e) as u32 };
    if shift >= 64 {
        return sign;
    }
    let q = m >> shift;
    let rem = m & ((1u64 << shift) - 1);
    let half = 1u64 << (shift - 1);
    let q = if rem > half || (rem == half && q & 1 == 1) { q + 1 } else { q };
    if e < -14 {
        // Subnormal; q == 1024 is the smallest normal, same encoding.
        return sign | q as u16;
    }
    let (q, e16) = if q == 2048 { (1024, e + 16) } else { (q, e + 15) };
    if e16 >= 31 {
        return sign | 0x7c00;
    }
    sign | ((e16 as u16) << 10) | (q as u16 - 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_f16_pattern_round_trips() {
        for h in 0..=u16::MAX {
            let text = format_float(Type::F16, u64::from(h));
            let (neg, word) = match text.strip_prefix('-') {
                Some(rest) => (true, rest),
                None => (false, text.as_str()),
            };
            assert_eq!(parse_float(Type::F16, neg, word), Ok(u64::from(h)), "{h:#06x} printed as {text}");
        }
    }

    #[test]
    fn f16_rounding() {
        assert_eq!(f64_to_f16(1.0), 0x3c00);
        assert_eq!(f64_to_f16(65504.0), 0x7bff);
        assert_eq!(f64_to_f16(65520.0), 0x7c00);
        assert_eq!(f64_to_f16(2f64.powi(-24)), 0x0001);
        assert_eq!(f64_to_f16(2f64.powi(-25)), 0x0000); // tie to even
        assert_eq!(f64_to_f16(1.5 * 2f64.powi(-25)), 0x0001);
        assert_eq!(f64_to_f16(-0.0), 0x8000);
    }
}
