//! The edge values of each type, written from the types' definitions (two's complement
//! integers, IEEE binary16/32/64, bfloat16), not from any target's tables: the inputs and
//! constants of the whole-IR matrix.

use atomc::ir::Type;

/// Integer edges of `ty`, as bit patterns masked to its width, without repeats: 0, ±1, a small
/// constant, the width itself (a shift by the width), MAX, MIN and, for 32/64-bit types, the
/// values around 2^19–2^20 (sm_50's 20-bit immediate field) and 2^31–2^32.
pub fn int(ty: Type) -> Vec<u64> {
    let w = ty.bits();
    let mut vals: Vec<i128> = vec![0, 1, -1, 7, w as i128, (1i128 << (w - 1)) - 1, -(1i128 << (w - 1))];
    if w >= 32 {
        for k in [19, 20] {
            vals.extend([(1i128 << k) - 1, 1i128 << k, -(1i128 << k)]);
        }
        vals.extend([(1i128 << 31) - 1, 1i128 << 31, (1i128 << 32) - 1, 1i128 << 32, w as i128 + 1]);
    }
    dedup(vals.into_iter().map(|v| (v as u128 as u64) & mask(w)))
}

/// Float edges of a scalar float type as bit patterns: ±0, ±1, 1.5, -2.5, ±inf, a quiet NaN,
/// the largest finite value, the smallest normal and subnormal ones and, for f32/f64, values
/// beyond the 32-bit integers (conversions saturate).
pub fn float(ty: Type) -> Vec<u64> {
    match ty {
        // binary16: sign 1, exponent 5 (bias 15), fraction 10.
        Type::F16 => vec![0x0000, 0x8000, 0x3c00, 0xbc00, 0x3e00, 0xc100, 0x7c00, 0xfc00, 0x7e00, 0x7bff, 0x0400, 0x0001],
        Type::F32 => {
            let mut v: Vec<u64> = [0.0f32, -0.0, 1.0, -1.0, 1.5, -2.5, f32::INFINITY, f32::NEG_INFINITY, f32::MAX]
                .iter()
                .map(|f| f.to_bits() as u64)
                .collect();
            v.extend([0x7fc0_0000, 0x0080_0000, 0x0000_0001]);
            v.extend([2147483648.0f32, 4294967296.0, -3e9, 1e20].iter().map(|f| f.to_bits() as u64));
            v
        }
        Type::F64 => {
            let mut v: Vec<u64> = [0.0f64, -0.0, 1.0, -1.0, 1.5, -2.5, f64::INFINITY, f64::NEG_INFINITY, f64::MAX]
                .iter()
                .map(|f| f.to_bits())
                .collect();
            v.extend([0x7ff8_0000_0000_0000, 0x0010_0000_0000_0000, 0x0000_0000_0000_0001]);
            v.extend([2147483648.0f64, 4294967296.0, -3e9, 1e20, 9.3e18].iter().map(|f| f.to_bits()));
            v
        }
        Type::F16x2 => packed(&float(Type::F16)),
        // bfloat16: the high half of an f32.
        Type::BF16x2 => {
            let lanes: Vec<u64> = float(Type::F32).iter().take(12).map(|b| b >> 16).collect();
            packed(&lanes)
        }
        _ => Vec::new(),
    }
}

/// The edges of any data type (integers and floats); empty for the others.
pub fn of(ty: Type) -> Vec<u64> {
    if ty.is_int() {
        int(ty)
    } else {
        float(ty)
    }
}

/// Two lanes a word, lane 1 a rotation of lane 0, so every lane value meets several partners.
fn packed(lanes: &[u64]) -> Vec<u64> {
    let n = lanes.len();
    (0..n).map(|i| lanes[i] | lanes[(i + 5) % n] << 16).collect()
}

/// The low `w` bits.
pub fn mask(w: u32) -> u64 {
    if w >= 64 {
        u64::MAX
    } else {
        (1u64 << w) - 1
    }
}

fn dedup(vals: impl Iterator<Item = u64>) -> Vec<u64> {
    let mut out = Vec::new();
    for v in vals {
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edges_are_the_types_limits() {
        assert_eq!(int(Type::I8), vec![0, 1, 0xff, 7, 8, 0x7f, 0x80]);
        let i32s = int(Type::I32);
        for v in [0x7fff_ffffu64, 0x8000_0000, 0xffff_ffff, 0x8_0000, 0xf_ffff, 0x10_0000, 0xfff0_0000] {
            assert!(i32s.contains(&v), "{v:#x}");
        }
        assert!(int(Type::I64).contains(&0x1_0000_0000));
        assert_eq!(f32::from_bits(float(Type::F32)[8] as u32), f32::MAX);
    }
}
