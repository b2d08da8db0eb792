//! The bit and multiply-high ops (`popcnt`, `clz`, `ctz`, `bitrev`,
//! `umulhi`, `smulhi`, `ubfe`, `sbfe`, `bfi`) on zero-extended bit
//! patterns of width `w`, as the doc comments of `UnaryOp`, `BinaryOp`,
//! `TernaryOp` and `InstData::Bfi` specify.

use super::arith::sext;
use super::decode::mask;

/// `popcnt`, `clz`, `ctz` or `bitrev` of the `w`-bit `a`.
pub(crate) fn count(op: crate::UnaryOp, w: u32, a: u64) -> u64 {
    use crate::UnaryOp::*;
    let a = mask(a, w);
    match op {
        Popcnt => a.count_ones() as u64,
        Clz => (a.leading_zeros() - (64 - w)) as u64,
        Ctz => a.trailing_zeros().min(w) as u64,
        Bitrev => a.reverse_bits() >> (64 - w),
        _ => 0,
    }
}

/// The high `w` bits of the `2w`-bit product.
pub(crate) fn mulhi(signed: bool, w: u32, a: u64, b: u64) -> u64 {
    let p = if signed {
        (sext(a, w) as i128 * sext(b, w) as i128) as u128
    } else {
        a as u128 * b as u128
    };
    mask((p >> w) as u64, w)
}

/// `ubfe`/`sbfe x, pos, len` of the `w`-bit `x`.
pub(crate) fn extract(signed: bool, w: u32, x: u64, pos: u64, len: u64) -> u64 {
    let (p, l) = ((pos & 0xff) as u32, (len & 0xff) as u32);
    if l == 0 {
        return 0;
    }
    let x = mask(x, w);
    let sbit = signed && (x >> ((p + l).min(w) - 1)) & 1 == 1;
    let mut out = 0u64;
    for i in 0..w {
        let bit = if i < l && p + i < w { (x >> (p + i)) & 1 == 1 } else { sbit };
        if bit {
            out |= 1 << i;
        }
    }
    out
}

/// `bfi x, base, pos, len` of width `w`.
pub(crate) fn insert(w: u32, x: u64, base: u64, pos: u64, len: u64) -> u64 {
    let (p, l) = ((pos & 0xff) as u32, (len & 0xff) as u32);
    let mut out = mask(base, w);
    for i in 0..l {
        if p + i >= w {
            break;
        }
        let bit = (x >> i) & 1;
        out = (out & !(1 << (p + i))) | (bit << (p + i));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::UnaryOp;

    #[test]
    fn counts() {
        assert_eq!(count(UnaryOp::Clz, 32, 0), 32);
        assert_eq!(count(UnaryOp::Clz, 8, 1), 7);
        assert_eq!(count(UnaryOp::Ctz, 16, 0), 16);
        assert_eq!(count(UnaryOp::Ctz, 64, 8), 3);
        assert_eq!(count(UnaryOp::Bitrev, 8, 1), 0x80);
        assert_eq!(count(UnaryOp::Popcnt, 64, u64::MAX), 64);
    }

    #[test]
    fn fields_as_ptx() {
        assert_eq!(extract(false, 32, 0xf0, 4, 4), 0xf);
        assert_eq!(extract(true, 32, 0xf0, 4, 4), 0xffff_ffff);
        assert_eq!(extract(true, 32, 0x70, 4, 4), 0x7);
        assert_eq!(extract(true, 32, 0x8000_0000, 28, 8), 0xffff_fff8);
        assert_eq!(extract(false, 32, 0x8000_0000, 28, 8), 0x8);
        assert_eq!(extract(true, 32, 0x8000_0000, 40, 3), 0xffff_ffff);
        assert_eq!(extract(true, 32, 0xff, 0, 0), 0);
        assert_eq!(extract(false, 32, 0xff, 0x104, 0x102), 0x3);
        assert_eq!(insert(32, 0xab, 0xffff_ffff, 8, 8), 0xffff_abff);
        assert_eq!(insert(32, 0xff, 0, 28, 8), 0xf000_0000);
        assert_eq!(insert(32, 0xff, 7, 4, 0), 7);
        assert_eq!(mulhi(false, 32, 0xffff_ffff, 0xffff_ffff), 0xffff_fffe);
        assert_eq!(mulhi(true, 32, 0xffff_ffff, 0xffff_ffff), 0);
        assert_eq!(mulhi(true, 64, u64::MAX, 2), u64::MAX);
    }
}
