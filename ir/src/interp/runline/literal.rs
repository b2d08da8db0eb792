//! Element types of run-line memory and the spelling of their values.

use crate::interp::decode::mask;
use crate::interp::float::FKind;
use crate::interp::value::DataValue;
use crate::Type;
use std::cmp::Ordering;

/// The element type of a declared buffer or surface: an IR memory type,
/// with `u8`..`u64` as unsigned views of the integer types (they print and
/// sort unsigned).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Elem {
    /// The IR type of one element.
    pub ty: Type,
    /// Integers shown and ordered as unsigned.
    pub unsigned: bool,
}

impl Elem {
    /// Parses `i8 .. i64`, `u8 .. u64`, `f16 f32 f64 f16x2 bf16x2`.
    pub fn from_name(s: &str) -> Option<Elem> {
        let unsigned = s.starts_with('u');
        let ty = match s {
            "i8" | "u8" => Type::I8,
            "i16" | "u16" => Type::I16,
            "i32" | "u32" => Type::I32,
            "i64" | "u64" => Type::I64,
            "f16" => Type::F16,
            "f32" => Type::F32,
            "f64" => Type::F64,
            "f16x2" => Type::F16x2,
            "bf16x2" => Type::BF16x2,
            _ => return None,
        };
        Some(Elem { ty, unsigned })
    }

    /// Bytes per element.
    pub fn bytes(self) -> usize {
        self.ty.bytes() as usize
    }

    /// An element as written in messages.
    pub fn show(self, bits: u64) -> String {
        if self.unsigned {
            return mask(bits, self.ty.bits()).to_string();
        }
        DataValue::from_bits(self.ty, bits).to_string()
    }

    /// Whether an element holding `got` meets an expected `want`: the same bits, or, for an
    /// unpacked float type, `want` is the canonical quiet NaN (the literal `nan`) and `got` is
    /// any NaN. A computed NaN's payload is the target's (NVIDIA's FP32 units give
    /// 0x7fffffff where the interpreter gives 0x7fc00000: `rmw-fadd.atom` on an H100), so `nan`
    /// in an expectation means "a NaN"; a payload that must be kept is written as its bits.
    pub fn matches(self, got: u64, want: u64) -> bool {
        if got == want {
            return true;
        }
        match FKind::of(self.ty) {
            Some(k) if !self.ty.is_packed_float() => want == k.qnan() && k.to_f64(got).is_nan(),
            _ => false,
        }
    }

    /// The order used by `sorted` and `as set`: signed or unsigned integer
    /// order, float total order (by value; NaNs after +inf).
    pub fn cmp(self, a: u64, b: u64) -> Ordering {
        let w = self.ty.bits();
        if self.ty.is_int() {
            if self.unsigned {
                return a.cmp(&b);
            }
            let s = 64 - w;
            return (((a << s) as i64) >> s).cmp(&(((b << s) as i64) >> s));
        }
        match FKind::of(self.ty) {
            Some(k) if !self.ty.is_packed_float() => {
                k.to_f64(a).total_cmp(&k.to_f64(b)).then(a.cmp(&b))
            }
            _ => a.cmp(&b),
        }
    }
}

/// Parses the digits of an integer literal (`_` allowed; `0x`, `0b`
/// prefixes) into its magnitude.
pub(super) fn int_magnitude(text: &str) -> Option<u128> {
    let t: String = text.chars().filter(|&c| c != '_').collect();
    let (digits, radix) = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        (h.to_string(), 16)
    } else if let Some(b) = t.strip_prefix("0b") {
        (b.to_string(), 2)
    } else {
        (t, 10)
    };
    if digits.is_empty() {
        return None;
    }
    u128::from_str_radix(&digits, radix).ok()
}

/// An integer literal of `bits` bits: `-2^(bits-1) ..= 2^bits - 1` is
/// accepted (signed or unsigned spelling of the same pattern).
pub(super) fn int_bits(text: &str, neg: bool, bits: u32) -> Result<u64, String> {
    let m = int_magnitude(text).ok_or_else(|| format!("`{text}` is not an integer"))?;
    let limit = 1u128 << bits;
    if neg {
        if m > limit / 2 {
            return Err(format!("-{text} does not fit in {bits} bits"));
        }
        Ok(mask((m as u64).wrapping_neg(), bits))
    } else if m >= limit {
        Err(format!("{text} does not fit in {bits} bits"))
    } else {
        Ok(m as u64)
    }
}

/// A float literal of format `k`: `inf`, `nan` (the canonical quiet NaN),
/// a decimal, a hex float `0x1.8p3`, or `0x...` without `.`/`p` for the raw
/// bit pattern.
pub(super) fn float_bits(k: FKind, text: &str, neg: bool) -> Result<u64, String> {
    let sign_bit = match k {
        FKind::F16 | FKind::BF16 => 1u64 << 15,
        FKind::F32 => 1 << 31,
        FKind::F64 => 1 << 63,
    };
    let apply = |b: u64| if neg { b ^ sign_bit } else { b };
    match text {
        "inf" => return Ok(apply(k.round_from_f64(f64::INFINITY))),
        "nan" => return Ok(apply(k.qnan())),
        _ => {}
    }
    let lower = text.to_ascii_lowercase();
    if let Some(hex) = lower.strip_prefix("0x") {
        if !hex.contains('.') && !hex.contains('p') {
            let bits = match k {
                FKind::F16 | FKind::BF16 => 16,
                FKind::F32 => 32,
                FKind::F64 => 64,
            };
            if neg {
                return Err("a raw bit pattern cannot be negated; set the sign bit".into());
            }
            return int_bits(text, false, bits);
        }
        let x = hex_float(hex).ok_or_else(|| format!("`{text}` is not a hex float"))?;
        return Ok(apply(k.round_from_f64(x)));
    }
    let clean: String = text.chars().filter(|&c| c != '_').collect();
    let bits = match k {
        // Parse f32 directly so the decimal is rounded once.
        FKind::F32 => clean.parse::<f32>().map(|x| x.to_bits() as u64),
        _ => clean.parse::<f64>().map(|x| k.round_from_f64(x)),
    }
    .map_err(|_| format!("`{text}` is not a number"))?;
    Ok(apply(bits))
}

/// `h.hhhp±d` (without the `0x`).
fn hex_float(s: &str) -> Option<f64> {
    let (mant, exp) = match s.split_once('p') {
        Some((m, e)) => (m, e.parse::<i32>().ok()?),
        None => (s, 0),
    };
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    let mut m: u128 = 0;
    let mut digits = 0;
    for c in int.chars().chain(frac.chars()).filter(|&c| c != '_') {
        m = m.checked_mul(16)? + c.to_digit(16)? as u128;
        digits += 1;
        if digits > 28 {
            return None;
        }
    }
    let frac_digits = frac.chars().filter(|&c| c != '_').count() as i32;
    Some(m as f64 * 2f64.powi(exp - 4 * frac_digits))
}
