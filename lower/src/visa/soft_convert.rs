//! Conversions in 32-bit integer code, where the part lacks the ALU a `mov` would need: f64
//! to and from everything on TGLLP and DG2 (no fp64), 64-bit integers to and from floats there
//! (no 64-bit integer ALU), and f64 → f16 everywhere (no single-rounding `mov` for it: through
//! f32 it would round twice).
//!
//! # Shape
//!
//! Every source is first *unpacked* into a sign, a 64-bit significand normalised so that its
//! bit 63 is set (or zero), and the exponent of that bit: value = ±sig × 2^(exp − 63). A float
//! source also keeps its fraction, aligned as an f64's, for NaN payloads. Then:
//!
//! * **to a float** (E exponent bits, M fraction bits, bias B): the biased exponent is
//!   `be = exp + B`. The significand shifts right by `s = 63 − M`, or more when `be < 1` (a
//!   subnormal result: `s = 63 − M + 1 − be`); the bits shifted out round to nearest even
//!   against half of the last kept bit. The result is `mant + (max(be, 1) − 1) << M`, plus the
//!   rounding increment: the implicit bit of a normal `mant` adds one to the exponent field,
//!   a subnormal `mant` has none, and an increment that carries out of the fraction carries
//!   into the exponent (up to infinity) by itself — the encoding trick of `soft_f64.rs`. A
//!   shift of 64 or more leaves nothing but the rounding: the result is the smallest subnormal
//!   when `sig` is above half of it (`s = 64`), else zero. `be ≥ 2^E − 1`, or a result at or
//!   above infinity's pattern, is infinity.
//! * **to an integer**: toward zero, saturating, NaN → 0 (the IR's `fcvt_to_*int`): the
//!   magnitude is `sig >> (63 − exp)` for `0 ≤ exp ≤ 63`, zero below, saturated above; then
//!   the sign and the destination's range.
//!
//! Everything is branch-free: the lanes of one hardware thread hold different values, so each
//! case is computed for every lane and a `sel` picks.
//!
//! NaNs follow the IR's reference interpreter bit for bit (ir/src/interp/float.rs): narrowing
//! quiets a NaN and keeps the top of its payload; f32 → f64 quiets it too (the host's
//! conversion); f16 → f64 keeps it as it is (the interpreter's `widen`).

use atomc_ir::{BinaryOp, ConvOp, Type as IrType};

use super::alu::Conversion;
use super::alu64::as_d;
use super::{Lower, LowerError};
use atomc_visa::{Imm, Op, Operand, PredId, Relop, Type};

/// A 64-bit value as `(low, high)` `ud` sources.
type W = (Operand, Operand);

fn ud(v: u32) -> Operand {
    Operand::imm(Imm::ud(v))
}

/// A binary float format: exponent and fraction bits.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fmt {
    pub(super) e: u32,
    pub(super) m: u32,
}

pub(crate) const F64: Fmt = Fmt { e: 11, m: 52 };
pub(crate) const F32: Fmt = Fmt { e: 8, m: 23 };
const F16: Fmt = Fmt { e: 5, m: 10 };

impl Fmt {
    fn of(t: IrType) -> Option<Fmt> {
        match t {
            IrType::F64 => Some(F64),
            IrType::F32 => Some(F32),
            IrType::F16 => Some(F16),
            _ => None,
        }
    }
    fn bias(self) -> i32 {
        (1 << (self.e - 1)) - 1
    }
    /// The largest exponent field (infinities and NaNs).
    fn max_field(self) -> u32 {
        (1 << self.e) - 1
    }
    /// A 64-bit pattern as halves.
    pub(super) fn split(bits: u64) -> W {
        (ud(bits as u32), ud((bits >> 32) as u32))
    }
    pub(super) fn inf(self) -> u64 {
        (self.max_field() as u64) << self.m
    }
}

/// A source value, unpacked (module docs).
pub(super) struct Unpacked {
    /// 0 or 0x8000_0000.
    pub(super) sign: Operand,
    /// Set where the value is negative; `None`: never.
    pub(super) neg: Option<PredId>,
    /// The exponent of bit 63 of `sig`, a signed dword.
    pub(super) exp: Operand,
    pub(super) sig: W,
    pub(super) zero: PredId,
    pub(super) special: Option<Special>,
}

/// A float source's infinities and NaNs.
#[derive(Clone, Copy)]
pub(super) struct Special {
    pub(super) inf: PredId,
    pub(super) nan: PredId,
    /// The fraction, left-aligned as an f64's 52 bits.
    pub(super) frac: W,
}

/// Whether `op` from `from` to `to` is done here on this part (see the module docs).
pub(crate) fn wanted(l: &Lower<'_>, op: ConvOp, from: IrType, to: IrType) -> bool {
    let no_fp64 = l.no_fp64();
    let int64 = |t: IrType| t.is_int() && t.bits() == 64;
    let f64_ = |t: IrType| t == IrType::F64;
    match op {
        ConvOp::Fdemote => f64_(from) && (to == IrType::F16 || no_fp64),
        ConvOp::Fpromote => f64_(to) && no_fp64,
        ConvOp::FcvtToSint | ConvOp::FcvtToUint | ConvOp::FcvtFromSint | ConvOp::FcvtFromUint => {
            no_fp64 && (f64_(from) || f64_(to) || int64(from) || int64(to))
        }
        _ => false,
    }
}

/// Lowers a conversion [`wanted`] says is done here.
pub(crate) fn lower(l: &mut Lower<'_>, conv: Conversion) -> Result<(), LowerError> {
    let Conversion { inst, op, to, arg, res, u } = conv;
    let from = l.ty(arg);
    let src = if from.bits() == 64 {
        l.halves(arg, false)?
    } else if op == ConvOp::FcvtFromSint {
        let lo = l.sext32(arg)?;
        let lo = match lo {
            Operand::Imm(i) => ud(i.bits as u32),
            o => {
                let t = l.tmp(Type::UD, u);
                let ex = l.exec(u);
                let d = l.view(t, Type::D);
                l.k.mov(ex, Operand::dst(d), o);
                l.rd(t, u)
            }
        };
        let hi = l.sf_sar31(u, lo);
        (lo, hi)
    } else {
        (l.src(arg, Type::UD)?, ud(0))
    };
    let v = match Fmt::of(from) {
        Some(f) => l.unpack_float(u, f, src),
        None => l.unpack_int(u, op == ConvOp::FcvtFromSint, src),
    };
    let out = match Fmt::of(to) {
        Some(f) => {
            let quiet = !(from == IrType::F16 && f == F64);
            l.pack_float(u, f, &v, quiet)
        }
        None if to.is_int() => l.pack_int(u, to.bits(), op == ConvOp::FcvtToSint, &v),
        None => return Err(l.reject(inst, "not a numeric conversion")),
    };
    let r = l.def_var(res, u)?;
    let ex = l.exec(u);
    if to.bits() == 64 {
        for (h, x) in [(false, out.0), (true, out.1)] {
            let d = l.half_dst(r, u, h, Type::UD);
            l.k.mov(ex, d, x);
        }
    } else {
        let d = l.dst(r, Type::UD);
        l.k.mov(ex, d, out.0);
    }
    Ok(())
}

impl Lower<'_> {
    /// `x >> 31` arithmetic: 0 or all ones.
    fn sf_sar31(&mut self, u: bool, x: Operand) -> Operand {
        if let Operand::Imm(i) = x {
            return ud(((i.bits as u32 as i32) >> 31) as u32);
        }
        let ex = self.exec(u);
        let t = self.tmp(Type::D, u);
        let xd = as_d(self, x);
        self.k.binary(Op::Asr, ex, Operand::dst(t), xd, ud(31));
        let v = self.view(t, Type::UD);
        self.rd(v, u)
    }

    /// A predicate: `a rel b` on signed dwords.
    fn sf_scmp(&mut self, u: bool, rel: Relop, a: Operand, b: Operand) -> PredId {
        let (a, b) = (as_d(self, a), as_d(self, b));
        let (a, b) = self.unimm(a, b, Type::D);
        let p = self.tmp_pred();
        self.k.cmp(self.pred_exec(u), rel, Operand::pred(p), a, b);
        p
    }

    /// `x` shifted to the exponent field's position and combined by `op` into the significand `w`:
    /// in its high word for f64 (bit 20), in its low word (bit `f.m`, the high word 0) otherwise.
    fn sf_at_field(&mut self, u: bool, f: Fmt, op: Op, w: W, x: Operand) -> W {
        if f == F64 {
            let e = self.sf(Op::Shl, u, x, ud(20));
            (w.0, self.sf(op, u, w.1, e))
        } else {
            let e = self.sf(Op::Shl, u, x, ud(f.m));
            (self.sf(op, u, w.0, e), ud(0))
        }
    }

    /// Signed `max(a, b)` on dwords.
    fn sf_smax(&mut self, u: bool, a: Operand, b: Operand) -> Operand {
        let ex = self.exec(u);
        let t = self.tmp(Type::D, u);
        let (a, b) = (as_d(self, a), as_d(self, b));
        let (a, b) = self.unimm(a, b, Type::D);
        self.k.binary(Op::Max, ex, Operand::dst(t), a, b);
        let v = self.view(t, Type::UD);
        self.rd(v, u)
    }

    /// A fresh predicate `p op q`.
    pub(super) fn sf_pred_new(&mut self, u: bool, op: Op, p: PredId, q: PredId) -> PredId {
        let t = self.tmp_pred();
        self.k.binary(op, self.pred_exec(u), Operand::pred(t), Operand::pred(p), Operand::pred(q));
        t
    }

    /// `a > b` and `a == b` on 64-bit unsigned values.
    fn sf_cmp64(&mut self, u: bool, a: W, b: W) -> (PredId, PredId) {
        let hi_gt = self.sf_cmp(u, Relop::Gt, a.1, b.1);
        let hi_eq = self.sf_cmp(u, Relop::Eq, a.1, b.1);
        let lo_gt = self.sf_cmp(u, Relop::Gt, a.0, b.0);
        let lo_eq = self.sf_cmp(u, Relop::Eq, a.0, b.0);
        let gt = self.sf_pred_new(u, Op::And, hi_eq, lo_gt);
        self.sf_pred(u, Op::Or, gt, hi_gt);
        self.sf_pred(u, Op::And, lo_eq, hi_eq);
        (gt, lo_eq)
    }

    /// Leading zeros of a 64-bit value (64 for zero).
    fn sf_clz64(&mut self, u: bool, x: W) -> Operand {
        let ex = self.exec(u);
        let lz = |l: &mut Self, w: Operand| {
            let t = l.tmp(Type::UD, u);
            let w = match w {
                Operand::Imm(_) => {
                    let c = l.tmp(Type::UD, u);
                    l.k.mov(ex, Operand::dst(c), w);
                    l.rd(c, u)
                }
                o => o,
            };
            l.k.unary(Op::Lzd, ex, Operand::dst(t), w);
            l.rd(t, u)
        };
        let lzh = lz(self, x.1);
        let lzl = lz(self, x.0);
        let lzl = self.sf(Op::Add, u, lzl, ud(32));
        let hi_zero = self.sf_cmp(u, Relop::Eq, x.1, ud(0));
        self.sf_sel(u, hi_zero, lzl, lzh)
    }

    /// `m` shifted left to put its top bit at bit 63, and the shift.
    pub(super) fn sf_normalise(&mut self, u: bool, m: W) -> (W, Operand) {
        let lz = self.sf_clz64(u, m);
        let sig = self.sf_w(u, |l, t| l.shift64_var(t, u, BinaryOp::Ishl, m, lz));
        (sig, lz)
    }

    pub(super) fn unpack_float(&mut self, u: bool, f: Fmt, x: W) -> Unpacked {
        let (mut v, sp) = self.unpack_float_parts(u, f, x);
        v.special = Some(sp);
        v
    }

    /// [`Lower::unpack_float`], the specials apart (for arithmetic, which handles them itself).
    pub(super) fn unpack_float_parts(&mut self, u: bool, f: Fmt, x: W) -> (Unpacked, Special) {
        // The sign, exponent field and fraction of the pattern's top word.
        let (top, sign_bit) = if f == F64 { (x.1, 31) } else { (x.0, f.e + f.m) };
        let field_at = if f == F64 { 20 } else { f.m };
        let field = self.sf(Op::Shr, u, top, ud(field_at));
        let field = self.sf(Op::And, u, field, ud(f.max_field()));
        let sign = self.sf(Op::Shr, u, top, ud(sign_bit));
        let sign = self.sf(Op::And, u, sign, ud(1));
        let sign = self.sf(Op::Shl, u, sign, ud(31));
        let frac = if f == F64 {
            (x.0, self.sf(Op::And, u, x.1, ud(0xf_ffff)))
        } else {
            (self.sf(Op::And, u, x.0, ud((1 << f.m) - 1)), ud(0))
        };
        // The significand: the fraction with the implicit bit where the field is nonzero; a
        // subnormal counts as field 1.
        let has_imp = self.sf(Op::Min, u, field, ud(1));
        let m = self.sf_at_field(u, f, Op::Or, frac, has_imp);
        let ef = self.sf(Op::Max, u, field, ud(1));
        let (sig, lz) = self.sf_normalise(u, m);
        // value = m × 2^(ef − bias − M), and m's top bit is bit 63 − lz.
        let k = 63 - f.bias() - f.m as i32;
        let exp = self.sf(Op::Add, u, ef, ud(k as u32));
        let exp = self.sf_sub(u, exp, lz);
        let mlo_hi = self.sf(Op::Or, u, m.0, m.1);
        let zero = self.sf_cmp(u, Relop::Eq, mlo_hi, ud(0));
        // Specials: the largest field; a NaN when the fraction is not zero.
        let is_max = self.sf_cmp(u, Relop::Eq, field, ud(f.max_field()));
        let fr = self.sf(Op::Or, u, frac.0, frac.1);
        let fr_nz = self.sf_cmp(u, Relop::Ne, fr, ud(0));
        let nan = self.sf_pred_new(u, Op::And, is_max, fr_nz);
        let inf = self.sf_pred_new(u, Op::Xor, is_max, nan);
        let frac64 = if f == F64 {
            frac
        } else {
            let sh = 52 - f.m;
            self.sf_w(u, |l, t| l.shift64(t, u, BinaryOp::Ishl, frac, sh))
        };
        let neg = self.sf_cmp(u, Relop::Ne, sign, ud(0));
        (Unpacked { sign, neg: Some(neg), exp, sig, zero, special: None }, Special { inf, nan, frac: frac64 })
    }

    fn unpack_int(&mut self, u: bool, signed: bool, x: W) -> Unpacked {
        let (sign, neg, mag) = if signed {
            let sign = self.sf(Op::And, u, x.1, ud(0x8000_0000));
            let neg = self.sf_cmp(u, Relop::Ne, sign, ud(0));
            let minus = self.sf_w(u, |l, t| l.sub64(t, u, (ud(0), ud(0)), x));
            let mag = self.sf_sel64(u, neg, minus, x);
            (sign, Some(neg), mag)
        } else {
            (ud(0), None, x)
        };
        let (sig, lz) = self.sf_normalise(u, mag);
        let exp = self.sf_sub(u, ud(63), lz);
        let any = self.sf(Op::Or, u, mag.0, mag.1);
        let zero = self.sf_cmp(u, Relop::Eq, any, ud(0));
        Unpacked { sign, neg, exp, sig, zero, special: None }
    }

    /// The bits of `v` in format `f`, rounded to nearest even (module docs).
    pub(super) fn pack_float(&mut self, u: bool, f: Fmt, v: &Unpacked, quiet: bool) -> W {
        let be = self.sf(Op::Add, u, v.exp, ud(f.bias() as u32));
        // s = 63 − M + max(1 − be, 0); past 63 handled apart.
        let under = self.sf_sub(u, ud(1), be);
        let under = self.sf_smax(u, under, ud(0));
        let s_true = self.sf(Op::Add, u, under, ud(63 - f.m));
        let s = self.sf(Op::Min, u, s_true, ud(63));
        let mant = self.sf_w(u, |l, t| l.shift64_var(t, u, BinaryOp::Ushr, v.sig, s));
        let back = self.sf_w(u, |l, t| l.shift64_var(t, u, BinaryOp::Ishl, mant, s));
        let rem = (self.sf(Op::Xor, u, back.0, v.sig.0), self.sf(Op::Xor, u, back.1, v.sig.1));
        let s1 = self.sf(Op::Add, u, s, ud(u32::MAX));
        let half = self.sf_w(u, |l, t| l.shift64_var(t, u, BinaryOp::Ishl, (ud(1), ud(0)), s1));
        let (above, tie) = self.sf_cmp64(u, rem, half);
        let odd = self.sf(Op::And, u, mant.0, ud(1));
        let odd = self.sf_cmp(u, Relop::Ne, odd, ud(0));
        self.sf_pred(u, Op::And, tie, odd);
        self.sf_pred(u, Op::Or, above, tie);
        let inc = self.sf_sel(u, above, ud(1), ud(0));
        // mant + (max(be, 1) − 1) << M, then the increment.
        let be1 = self.sf_smax(u, be, ud(1));
        let be1 = self.sf(Op::Add, u, be1, ud(u32::MAX));
        let packed = self.sf_at_field(u, f, Op::Add, mant, be1);
        let packed = self.sf_w(u, |l, t| l.add64(t, u, packed, (inc, ud(0))));
        // A shift of 64: the smallest subnormal when sig is above its half, 2^63; more: zero.
        let s64 = self.sf_cmp(u, Relop::Eq, s_true, ud(64));
        let (over_half, _) = self.sf_cmp64(u, v.sig, (ud(0), ud(0x8000_0000)));
        self.sf_pred(u, Op::And, over_half, s64);
        let tiny = self.sf_sel(u, over_half, ud(1), ud(0));
        let far = self.sf_cmp(u, Relop::Ge, s_true, ud(64));
        let packed = self.sf_sel64(u, far, (tiny, ud(0)), packed);
        // Overflow: infinity.
        let inf = Fmt::split(f.inf());
        let big = self.sf_scmp(u, Relop::Ge, be, ud(f.max_field()));
        let (past, at) = self.sf_cmp64(u, packed, inf);
        self.sf_pred(u, Op::Or, past, at);
        self.sf_pred(u, Op::Or, big, past);
        let packed = self.sf_sel64(u, big, inf, packed);
        let packed = self.sf_sel64(u, v.zero, (ud(0), ud(0)), packed);
        // Infinities and NaNs of a float source.
        let packed = match &v.special {
            None => packed,
            Some(sp) => {
                let packed = self.sf_sel64(u, sp.inf, inf, packed);
                let quiet_bit = if quiet { 1u64 << (f.m - 1) } else { 0 };
                let payload = self.sf_w(u, |l, t| l.shift64(t, u, BinaryOp::Ushr, sp.frac, 52 - f.m));
                let q = Fmt::split(f.inf() | quiet_bit);
                let nan = (self.sf(Op::Or, u, payload.0, q.0), self.sf(Op::Or, u, payload.1, q.1));
                self.sf_sel64(u, sp.nan, nan, packed)
            }
        };
        // The sign.
        if f == F64 {
            (packed.0, self.sf(Op::Or, u, packed.1, v.sign))
        } else {
            let s = self.sf(Op::Shr, u, v.sign, ud(32 - (f.e + f.m + 1)));
            (self.sf(Op::Or, u, packed.0, s), ud(0))
        }
    }

    /// `v` toward zero into a `bits`-bit integer, saturating, NaN → 0; narrower than 64 bits,
    /// zero-extended in the low word.
    fn pack_int(&mut self, u: bool, bits: u32, signed: bool, v: &Unpacked) -> W {
        // The magnitude: sig >> (63 − exp) for 0 ≤ exp ≤ 63.
        let sh = self.sf_sub(u, ud(63), v.exp);
        let sh_c = self.sf(Op::Min, u, sh, ud(63));
        let mag = self.sf_w(u, |l, t| l.shift64_var(t, u, BinaryOp::Ushr, v.sig, sh_c));
        let small = self.sf_scmp(u, Relop::Lt, v.exp, ud(0));
        self.sf_pred(u, Op::Or, small, v.zero);
        let huge = self.sf_scmp(u, Relop::Gt, v.exp, ud(63));
        if let Some(sp) = &v.special {
            self.sf_pred(u, Op::Or, huge, sp.inf);
        }
        let all = (ud(u32::MAX), ud(u32::MAX));
        let mag = self.sf_sel64(u, huge, all, mag);
        let mag = self.sf_sel64(u, small, (ud(0), ud(0)), mag);
        let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
        let out = if signed {
            // Positive: at most 2^(bits−1) − 1; negative: at most 2^(bits−1), negated.
            let limit = 1u64 << (bits - 1);
            let (over, _) = self.sf_cmp64(u, mag, Fmt::split(limit - 1));
            let pos = self.sf_sel64(u, over, Fmt::split(limit - 1), mag);
            let (over_n, _) = self.sf_cmp64(u, mag, Fmt::split(limit));
            let capped = self.sf_sel64(u, over_n, Fmt::split(limit), mag);
            let negd = self.sf_w(u, |l, t| l.sub64(t, u, (ud(0), ud(0)), capped));
            match v.neg {
                Some(n) => self.sf_sel64(u, n, negd, pos),
                None => pos,
            }
        } else {
            let max = mask;
            let (over, _) = self.sf_cmp64(u, mag, Fmt::split(max));
            let pos = self.sf_sel64(u, over, Fmt::split(max), mag);
            match v.neg {
                Some(n) => self.sf_sel64(u, n, (ud(0), ud(0)), pos),
                None => pos,
            }
        };
        let out = match &v.special {
            Some(sp) => self.sf_sel64(u, sp.nan, (ud(0), ud(0)), out),
            None => out,
        };
        if bits == 64 {
            out
        } else {
            (self.sf(Op::And, u, out.0, ud(mask as u32)), ud(0))
        }
    }
}
