//! f64 multiplication and IEEE float division in 32-bit integer code, for parts without the
//! ALU or message: f64 `fmul` and `fdiv` on TGLLP and DG2 (no fp64; PVC at SIMD2, which
//! GenX_IR cannot split), f32 `fdiv` on TGLLP and DG2 (GenX_IR refuses the IEEE divide macro
//! `divm` there: "IEEE instruction divm is not supported on TGLLP platform", the same on DG2).
//! Operands are unpacked and the result packed, with one rounding to nearest even, by
//! `soft_convert.rs`; the significands' product is four partial products, their quotient a
//! long division (`Lower::div_step64`, `soft_divide.rs`).

use atomc_ir::BinaryOp;

use super::soft_convert::{Fmt, Special, Unpacked, F64};
use super::Lower;
use atomc_visa::{Imm, Op, Operand, PredId};

/// A 64-bit value as `(low, high)` `ud` sources.
type W = (Operand, Operand);

fn ud(v: u32) -> Operand {
    Operand::imm(Imm::ud(v))
}

/// The binary operations done here, for their special operands' rules.
#[derive(Clone, Copy)]
enum Binary {
    Quotient,
    Product,
}

impl Lower<'_> {
    /// `a / b` on bit patterns of format `f` (f32 in the low word), rounded once to nearest
    /// even: the significands divided bit by bit (`soft_divide.rs`), the final remainder the
    /// sticky bit, then the packing of conversions. `M + 4` quotient bits hold the guard bit and
    /// one more below it whether or not the first one is set, so the sticky bit, ORed into the
    /// last, never lands on the guard bit (with `M + 3`, 1/3 rounded down: a tie). Specials as
    /// IEEE and the IR: a NaN operand, 0/0 and inf/inf give the canonical NaN; x/0 and inf/y
    /// infinity; 0/y and x/inf zero.
    pub(crate) fn fdiv_soft(&mut self, u: bool, f: Fmt, a: W, b: W) -> W {
        let (x, xsp) = self.unpack_float_parts(u, f, a);
        let (y, ysp) = self.unpack_float_parts(u, f, b);
        let (xs, ys) = (x.sig, y.sig);
        let mut r = self.sf_w(u, |l, t| l.shift64(t, u, BinaryOp::Ushr, xs, 63 - f.m));
        let d = self.sf_w(u, |l, t| l.shift64(t, u, BinaryOp::Ushr, ys, 63 - f.m));
        let mut q = (ud(0), ud(0));
        for _ in 0..f.m + 4 {
            let st = self.div_step64(u, r, d);
            let one = self.sf_sel(u, st.bit, ud(1), ud(0));
            let shifted = self.sf_w(u, |l, t| l.shift64(t, u, BinaryOp::Ishl, q, 1));
            q = (self.sf(Op::Or, u, shifted.0, one), shifted.1);
            r = self.sf_w(u, |l, t| l.shift64(t, u, BinaryOp::Ishl, st.r, 1));
        }
        let rest = self.sf(Op::Or, u, r.0, r.1);
        let sticky = self.sf(Op::Min, u, rest, ud(1));
        let q = (self.sf(Op::Or, u, q.0, sticky), q.1);
        // q ≈ ma/mb · 2^(M+3), and x/y = ma/mb · 2^(x.exp − y.exp).
        let normalised = self.sf_normalise(u, q);
        let e = self.sf_sub(u, x.exp, y.exp);
        let e = self.sf(Op::Add, u, e, ud(63 - (f.m + 3)));
        self.finish_binary(u, f, Binary::Quotient, (x, xsp), (y, ysp), normalised, e)
    }

    /// `a * b` on f64 bit patterns, rounded once to nearest even, for parts without an fp64
    /// ALU: the 53-bit significands' 106-bit product from four 32×32-bit partial products
    /// (`mul` for the low words, `mulh` for the high ones), its top 64 bits with everything
    /// below ORed into a sticky bit, then the packing of conversions. Specials as IEEE and the
    /// IR: a NaN operand and 0 × inf give the canonical NaN; inf × y infinity; 0 × y zero.
    pub(crate) fn fmul64_soft(&mut self, u: bool, a: W, b: W) -> W {
        let f = F64;
        let (x, xsp) = self.unpack_float_parts(u, f, a);
        let (y, ysp) = self.unpack_float_parts(u, f, b);
        let (xs, ys) = (x.sig, y.sig);
        let ma = self.sf_w(u, |l, t| l.shift64(t, u, BinaryOp::Ushr, xs, 11));
        let mb = self.sf_w(u, |l, t| l.shift64(t, u, BinaryOp::Ushr, ys, 11));
        let wide = |l: &mut Self, p: Operand, q: Operand| (l.sf(Op::Mul, u, p, q), l.sf(Op::Mulh, u, p, q));
        let ll = wide(self, ma.0, mb.0);
        let lh = wide(self, ma.0, mb.1);
        let hl = wide(self, ma.1, mb.0);
        let hh = wide(self, ma.1, mb.1);
        // Below 2^106: the middle sum c + lh + hl stays below 2^55, the top one below 2^43.
        let mid = self.sf_w(u, |l, t| l.add64(t, u, (ll.1, ud(0)), lh));
        let mid = self.sf_w(u, |l, t| l.add64(t, u, mid, hl));
        let top = self.sf_w(u, |l, t| l.add64(t, u, (mid.1, ud(0)), hh));
        let (p0, p1, p2, p3) = (ll.0, mid.0, top.0, top.1);
        // The product's bits 105..42, and a sticky bit for bits 41..0.
        let w0 = self.sf(Op::Shr, u, p1, ud(10));
        let c0 = self.sf(Op::Shl, u, p2, ud(22));
        let w0 = self.sf(Op::Or, u, w0, c0);
        let w1 = self.sf(Op::Shr, u, p2, ud(10));
        let c1 = self.sf(Op::Shl, u, p3, ud(22));
        let w1 = self.sf(Op::Or, u, w1, c1);
        let low = self.sf(Op::And, u, p1, ud((1 << 10) - 1));
        let low = self.sf(Op::Or, u, low, p0);
        let sticky = self.sf(Op::Min, u, low, ud(1));
        let w0 = self.sf(Op::Or, u, w0, sticky);
        // value = (w1:w0) · 2^(x.exp + y.exp − 62); its top bit is bit 63 or 62.
        let normalised = self.sf_normalise(u, (w0, w1));
        let e = self.sf(Op::Add, u, x.exp, y.exp);
        let e = self.sf(Op::Add, u, e, ud(1));
        self.finish_binary(u, f, Binary::Product, (x, xsp), (y, ysp), normalised, e)
    }

    /// The end of a soft quotient or product of `x` and `y`: the sign (theirs XORed), the
    /// exponent `e` less the normalising shift, the special results of `op`, then the packing.
    #[allow(clippy::too_many_arguments)]
    fn finish_binary(
        &mut self,
        u: bool,
        f: Fmt,
        op: Binary,
        (x, xsp): (Unpacked, Special),
        (y, ysp): (Unpacked, Special),
        (sig, lz): (W, Operand),
        e: Operand,
    ) -> W {
        let exp = self.sf_sub(u, e, lz);
        let sign = self.sf(Op::Xor, u, x.sign, y.sign);
        // Zero where either of `zero` holds, infinity where either of `inf` does, the canonical
        // NaN for a NaN operand or where both of one `invalid` pair hold.
        let (zero, inf, invalid) = match op {
            // 0/y (y not 0 or NaN) and x/inf (x finite) are zero; x/0 and inf/y infinity; 0/0
            // and inf/inf NaN.
            Binary::Quotient => ((x.zero, ysp.inf), (xsp.inf, y.zero), [(x.zero, y.zero), (xsp.inf, ysp.inf)]),
            // 0 × y zero, inf × y infinity; 0 × inf, either way round, NaN.
            Binary::Product => ((x.zero, y.zero), (xsp.inf, ysp.inf), [(x.zero, ysp.inf), (xsp.inf, y.zero)]),
        };
        let zero = self.sf_pred_new(u, Op::Or, zero.0, zero.1);
        let inf = self.sf_pred_new(u, Op::Or, inf.0, inf.1);
        let nan = self.sf_pred_new(u, Op::Or, xsp.nan, ysp.nan);
        // Both ANDs, then both ORs into `nan` (the order the instructions have always had).
        let invalid = invalid.map(|(p, q)| self.sf_pred_new(u, Op::And, p, q));
        for both in invalid {
            self.sf_pred(u, Op::Or, nan, both);
        }
        self.finish_arith(u, f, Unpacked { sign, neg: None, exp, sig, zero, special: None }, inf, nan)
    }

    /// Packs `v` (zero where `v.zero`), then ±infinity where `inf` and the canonical quiet NaN
    /// where `nan`.
    fn finish_arith(&mut self, u: bool, f: Fmt, v: Unpacked, inf: PredId, nan: PredId) -> W {
        let packed = self.pack_float(u, f, &v, true);
        let inf_bits = Fmt::split(f.inf());
        let signed_inf = if f == F64 {
            (inf_bits.0, self.sf(Op::Or, u, inf_bits.1, v.sign))
        } else {
            (self.sf(Op::Or, u, inf_bits.0, v.sign), ud(0))
        };
        let out = self.sf_sel64(u, inf, signed_inf, packed);
        let qnan = Fmt::split(f.inf() | 1 << (f.m - 1));
        self.sf_sel64(u, nan, qnan, out)
    }
}
