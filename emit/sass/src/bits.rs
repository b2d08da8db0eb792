//! Bit fields of an instruction word.
//!
//! Every encoding fact in a form table is a [`Field`]: one or more bit ranges of the
//! (up to 128-bit) instruction word, concatenated least significant part first. Split
//! fields exist because some operands (e.g. sm_90 branch offsets) are scattered.

/// A possibly split bit field of an instruction word (bit 0 = LSB of the first byte).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Field {
    parts: [(u8, u8); 3],
    n: u8,
}

/// Prints the constructor call that makes this field (`Field::new(24, 8)`): the build script
/// writes form tables as Rust source through `Debug`.
impl std::fmt::Debug for Field {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.parts() {
            [(lo, w)] => write!(f, "Field::new({lo}, {w})"),
            [a, b] => write!(f, "Field::split2({a:?}, {b:?})"),
            _ => write!(f, "Field::split3({:?}, {:?}, {:?})", self.parts[0], self.parts[1], self.parts[2]),
        }
    }
}

impl Field {
    /// A contiguous field of `width` bits starting at bit `lo`.
    pub const fn new(lo: u8, width: u8) -> Field {
        Field { parts: [(lo, width), (0, 0), (0, 0)], n: 1 }
    }

    /// A field made of two ranges: `(lo, width)` pairs, least significant part first.
    pub const fn split2(a: (u8, u8), b: (u8, u8)) -> Field {
        Field { parts: [a, b, (0, 0)], n: 2 }
    }

    /// A field made of three ranges, least significant part first.
    pub const fn split3(a: (u8, u8), b: (u8, u8), c: (u8, u8)) -> Field {
        Field { parts: [a, b, c], n: 3 }
    }

    /// The ranges of this field, least significant first.
    pub fn parts(&self) -> &[(u8, u8)] {
        &self.parts[..self.n as usize]
    }

    /// Total width in bits.
    pub fn width(&self) -> u32 {
        self.parts().iter().map(|p| p.1 as u32).sum()
    }

    /// The bits this field occupies.
    pub fn mask(&self) -> u128 {
        self.parts().iter().fold(0, |m, &(lo, w)| m | (ones(w) << lo))
    }

    /// Reads the field as an unsigned value.
    pub fn get(&self, word: u128) -> u64 {
        let mut v: u64 = 0;
        let mut shift = 0;
        for &(lo, w) in self.parts() {
            v |= (((word >> lo) & ones(w)) as u64) << shift;
            shift += w as u32;
        }
        v
    }

    /// Reads the field as a two's-complement signed value.
    pub fn get_signed(&self, word: u128) -> i64 {
        let w = self.width();
        let v = self.get(word);
        if w == 0 || w >= 64 {
            return v as i64;
        }
        ((v << (64 - w)) as i64) >> (64 - w)
    }

    /// Writes `v` (truncated to the field width; callers check the range first).
    pub fn set(&self, word: &mut u128, v: u64) {
        let mut v = v as u128;
        for &(lo, w) in self.parts() {
            let m = ones(w);
            *word = (*word & !(m << lo)) | ((v & m) << lo);
            v >>= w;
        }
    }

    /// Whether an unsigned value fits.
    pub fn fits_unsigned(&self, v: u64) -> bool {
        let w = self.width();
        w >= 64 || v >> w == 0
    }

    /// Whether a signed value fits in two's complement.
    pub fn fits_signed(&self, v: i64) -> bool {
        let w = self.width();
        if w >= 64 {
            return true;
        }
        if w == 0 {
            return v == 0;
        }
        let min = -(1i64 << (w - 1));
        let max = (1i64 << (w - 1)) - 1;
        v >= min && v <= max
    }
}

fn ones(w: u8) -> u128 {
    if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_field_round_trips() {
        let f = Field::split2((16, 8), (34, 48));
        let mut w = 0u128;
        f.set(&mut w, (-4i64) as u64);
        assert_eq!(f.get_signed(w), -4);
        assert_eq!(w & 0xff_0000, 0xfc_0000);
        assert!(f.fits_signed(-(1 << 55)));
        assert!(!f.fits_signed(1 << 55));
    }
}
