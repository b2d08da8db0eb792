//! Arithmetic shared by both targets' semantics: logic tables, byte permutes, funnel shifts,
//! compares, float min/max and half-precision packing.

use atomc_ir::interp::{f16_bits_to_f32, f32_to_f16_bits};

/// `LOP3.LUT`: bit i of the result is bit `(a_i << 2 | b_i << 1 | c_i)` of `lut`.
pub fn lop3(a: u32, b: u32, c: u32, lut: u8) -> u32 {
    let mut r = 0;
    for k in 0..8u32 {
        if lut >> k & 1 != 0 {
            let ma = if k & 4 != 0 { a } else { !a };
            let mb = if k & 2 != 0 { b } else { !b };
            let mc = if k & 1 != 0 { c } else { !c };
            r |= ma & mb & mc;
        }
    }
    r
}

/// `PRMT` (default mode): byte i of the result is byte `sel[i] & 7` of `{b, a}`, replaced by its
/// sign when `sel[i] & 8`.
pub fn prmt(a: u32, b: u32, sel: u32) -> u32 {
    let src = (b as u64) << 32 | a as u64;
    let mut r = 0u32;
    for i in 0..4 {
        let s = (sel >> (4 * i)) & 0xf;
        let byte = (src >> (8 * (s & 7))) as u8;
        let byte = if s & 8 != 0 {
            if byte & 0x80 != 0 {
                0xff
            } else {
                0
            }
        } else {
            byte
        };
        r |= (byte as u32) << (8 * i);
    }
    r
}

/// Funnel shift of `{hi, lo}` by `s`: left or right, arithmetic or logical; `wide` types
/// (`.U64`/`.S64`) clamp the shift at 64, 32-bit ones at 32, `.W` wraps it instead.
/// Returns the low or high word of the shifted 64-bit value.
#[allow(clippy::too_many_arguments)]
pub fn shf(lo: u32, hi: u32, s: u32, left: bool, signed: bool, wide: bool, wrap: bool, high: bool) -> u32 {
    let limit = if wide { 64 } else { 32 };
    let s = if wrap { s & (limit - 1) } else { s.min(limit) };
    let v = (hi as u64) << 32 | lo as u64;
    let r: u64 = if left {
        if s >= 64 {
            0
        } else {
            v << s
        }
    } else if signed {
        ((v as i64) >> s.min(63)) as u64
    } else if s >= 64 {
        0
    } else {
        v >> s
    };
    if high {
        (r >> 32) as u32
    } else {
        r as u32
    }
}

/// An integer compare by its modifier spelling.
pub fn icmp(cmp: &str, a: u64, b: u64, signed: bool, bits: u32) -> Option<bool> {
    let (x, y) = if signed {
        let sx = |v: u64| ((v << (64 - bits)) as i64) >> (64 - bits);
        (sx(a) as i128, sx(b) as i128)
    } else {
        (a as i128, b as i128)
    };
    Some(match cmp {
        "F" => false,
        "LT" => x < y,
        "EQ" => x == y,
        "LE" => x <= y,
        "GT" => x > y,
        "NE" => x != y,
        "GE" => x >= y,
        "T" => true,
        _ => return None,
    })
}

/// A float compare by its modifier spelling (ordered, `U` unordered, `NUM`, `NAN`).
pub fn fcmp(cmp: &str, a: f64, b: f64) -> Option<bool> {
    let un = a.is_nan() || b.is_nan();
    Some(match cmp {
        "F" => false,
        "T" => true,
        "LT" => !un && a < b,
        "EQ" => !un && a == b,
        "LE" => !un && a <= b,
        "GT" => !un && a > b,
        "NE" => !un && a != b,
        "GE" => !un && a >= b,
        "NUM" => !un,
        "NAN" => un,
        "LTU" => un || a < b,
        "EQU" => un || a == b,
        "LEU" => un || a <= b,
        "GTU" => un || a > b,
        "NEU" => un || a != b,
        "GEU" => un || a >= b,
        _ => return None,
    })
}

/// Combines a compare result with a predicate (`.AND`, `.OR`, `.XOR`).
pub fn bop(op: &str, a: bool, b: bool) -> Option<bool> {
    Some(match op {
        "AND" => a && b,
        "OR" => a || b,
        "XOR" => a != b,
        _ => return None,
    })
}

/// The canonical NaN NVIDIA's float units return.
pub const F32_NAN: u32 = 0x7fff_ffff;

/// `FMNMX`: minNum/maxNum; one NaN operand loses, two give the canonical NaN; -0 < +0.
pub fn fminmax32(a: u32, b: u32, min: bool) -> u32 {
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    match (x.is_nan(), y.is_nan()) {
        (true, true) => F32_NAN,
        (true, false) => b,
        (false, true) => a,
        _ => {
            let a_first = if x == y {
                x.is_sign_negative() == min
            } else {
                (x < y) == min
            };
            if a_first {
                a
            } else {
                b
            }
        }
    }
}

/// Flushes an f32 subnormal to a zero of the same sign (`.FTZ`).
pub fn ftz32(x: f32) -> f32 {
    if x.is_subnormal() {
        f32::from_bits(x.to_bits() & 0x8000_0000)
    } else {
        x
    }
}

/// An f32 result as the hardware writes it: NaN is canonical.
pub fn f32_out(x: f32) -> u32 {
    if x.is_nan() {
        F32_NAN
    } else {
        x.to_bits()
    }
}

/// An f64 result: NaN is canonical (all ones but the sign... NVIDIA: 0x7fff_ffff_ffff_ffff).
pub fn f64_out(x: f64) -> u64 {
    if x.is_nan() {
        0x7fff_ffff_ffff_ffff
    } else {
        x.to_bits()
    }
}

/// The f32 value of an f16.
pub fn h2f(h: u16) -> f32 {
    f16_bits_to_f32(h)
}

/// An f32 rounded to f16 (nearest even); NaN is canonical 0x7fff.
pub fn f2h(x: f32) -> u16 {
    if x.is_nan() {
        0x7fff
    } else {
        f32_to_f16_bits(x)
    }
}

/// An f32 rounded to bf16 (nearest even); NaN is canonical 0x7fff.
pub fn f2bf(x: f32) -> u16 {
    if x.is_nan() {
        0x7fff
    } else {
        atomc_ir::interp::f32_to_bf16_bits(x)
    }
}
