//! `fcmp` on f64 in integer code, for parts without an fp64 ALU (TGLLP and DG2; PVC at SIMD2,
//! whose `df` compares GenX_IR cannot split, takes the same code).
//!
//! A compare needs no arithmetic, only the order of the bit patterns, which [`Lower::f64_key`]
//! already gives `fmin`/`fmax` (`alu64.rs`): as signed 64-bit integers the keys order every
//! non-NaN double by value, except that -0 (key -1) sits just below +0 (key 0), which a compare
//! must treat as equal. So, with `zeros` for "both operands are ±0" and `same` for "the
//! patterns are equal":
//!
//! * `eq` = `zeros` or (`same` and not NaN): a NaN equals nothing, itself included;
//! * `lt` = key(a) < key(b), not `zeros`, and neither is a NaN (a NaN's key lies beyond the
//!   infinities' on its sign's side, so the order alone would rank it);
//! * `le` = `lt` or `eq`; `gt`/`ge` swap the operands; `ne` is `not eq` (true on NaN, as the
//!   IR's `ne` is unordered); `ord`/`uno` test the NaNs alone.
//!
//! The IR's reference (ir/src/interp/float.rs) compares the values as Rust `f64`s, which is
//! IEEE-754's compare; `tests/visa_differential.rs` checks this code against it on the edge
//! kernels of `filetests/filetests/compile/visa/fcmp64.atom`.

use atomc_ir::FloatCC;

use super::alu64::Nan;
use super::Lower;
use atomc_visa::{Imm, Op, Operand, PredId, Relop, Type};

/// A 64-bit value as `(low, high)` `ud` sources.
type W = (Operand, Operand);

/// A predicate being built: known at compile time, or held in a predicate.
#[derive(Clone, Copy)]
enum Bit {
    Known(bool),
    Pred(PredId),
}

impl From<Nan> for Bit {
    fn from(n: Nan) -> Bit {
        match n {
            Nan::Never => Bit::Known(false),
            Nan::Always => Bit::Known(true),
            Nan::Pred(p) => Bit::Pred(p),
        }
    }
}

impl Lower<'_> {
    /// Writes `a cond b` on f64 bit patterns into `p`.
    pub(crate) fn fcmp64(&mut self, p: PredId, u: bool, cond: FloatCC, a: W, b: W) {
        let (a, b) = match cond {
            FloatCC::Gt | FloatCC::Ge => (b, a),
            _ => (a, b),
        };
        let (na, nb) = (self.f64_nan(u, a), self.f64_nan(u, b));
        let unordered = self.bit_op(u, Op::Or, na.into(), nb.into());
        let r = match cond {
            FloatCC::Ord => self.bit_not(u, unordered),
            FloatCC::Uno => unordered,
            FloatCC::Eq | FloatCC::Ne => {
                let eq = self.f64_equal(u, a, b, na.into());
                if cond == FloatCC::Ne {
                    self.bit_not(u, eq)
                } else {
                    eq
                }
            }
            FloatCC::Lt | FloatCC::Gt | FloatCC::Le | FloatCC::Ge => {
                let ordered = self.bit_not(u, unordered);
                let below = self.key_below(u, a, b);
                let zeros = self.both_zero(u, a, b);
                let not_zeros = self.bit_not(u, zeros);
                let lt = self.bit_op(u, Op::And, below, not_zeros);
                let lt = self.bit_op(u, Op::And, lt, ordered);
                if matches!(cond, FloatCC::Le | FloatCC::Ge) {
                    let eq = self.f64_equal(u, a, b, na.into());
                    self.bit_op(u, Op::Or, lt, eq)
                } else {
                    lt
                }
            }
        };
        self.bit_store(u, p, r);
    }

    /// `a == b` as values: both zeros, or the same pattern that is not a NaN (`nan_a`).
    fn f64_equal(&mut self, u: bool, a: W, b: W, nan_a: Bit) -> Bit {
        let lo = self.word_cmp(u, Relop::Eq, a.0, b.0, Type::UD);
        let hi = self.word_cmp(u, Relop::Eq, a.1, b.1, Type::UD);
        let same = self.bit_op(u, Op::And, lo, hi);
        let number = self.bit_not(u, nan_a);
        let same = self.bit_op(u, Op::And, same, number);
        let zeros = self.both_zero(u, a, b);
        self.bit_op(u, Op::Or, same, zeros)
    }

    /// Whether both operands are ±0: every bit but the two signs is clear.
    fn both_zero(&mut self, u: bool, a: W, b: W) -> Bit {
        let ud = |n: u32| Operand::imm(Imm::ud(n));
        let hi = self.or_words(u, a.1, b.1);
        let hi = match hi {
            Operand::Imm(i) => ud(i.bits as u32 & 0x7fff_ffff),
            o => self.op_tmp(Op::And, u, o, ud(0x7fff_ffff)),
        };
        let lo = self.or_words(u, a.0, b.0);
        let all = self.or_words(u, lo, hi);
        self.word_cmp(u, Relop::Eq, all, ud(0), Type::UD)
    }

    /// `x | y` on `ud` words, folded when both are immediates.
    fn or_words(&mut self, u: bool, x: Operand, y: Operand) -> Operand {
        match (x, y) {
            (Operand::Imm(i), Operand::Imm(j)) => Operand::imm(Imm::ud((i.bits | j.bits) as u32)),
            _ => self.op_tmp(Op::Or, u, x, y),
        }
    }

    /// key(a) < key(b) as signed 64-bit integers: the high words compare signed, the low
    /// words unsigned when the high words are equal.
    fn key_below(&mut self, u: bool, a: W, b: W) -> Bit {
        let (alo, ahi) = self.f64_key(u, a);
        let (blo, bhi) = self.f64_key(u, b);
        let (ahi_d, bhi_d) = (super::alu64::as_d(self, ahi), super::alu64::as_d(self, bhi));
        let hi_lt = self.word_cmp(u, Relop::Lt, ahi_d, bhi_d, Type::D);
        let hi_eq = self.word_cmp(u, Relop::Eq, ahi, bhi, Type::UD);
        let lo_lt = self.word_cmp(u, Relop::Lt, alo, blo, Type::UD);
        let tie = self.bit_op(u, Op::And, hi_eq, lo_lt);
        self.bit_op(u, Op::Or, hi_lt, tie)
    }

    /// `x relop y` on one word of type `ty`, folded when both are immediates.
    fn word_cmp(&mut self, u: bool, r: Relop, x: Operand, y: Operand, ty: Type) -> Bit {
        if let (Operand::Imm(i), Operand::Imm(j)) = (x, y) {
            let (x, y) = if ty == Type::D {
                (i.bits as u32 as i32 as i64, j.bits as u32 as i32 as i64)
            } else {
                (i.bits as u32 as i64, j.bits as u32 as i64)
            };
            return Bit::Known(match r {
                Relop::Eq => x == y,
                Relop::Ne => x != y,
                Relop::Lt => x < y,
                Relop::Le => x <= y,
                Relop::Gt => x > y,
                Relop::Ge => x >= y,
            });
        }
        let (x, y) = self.unimm(x, y, ty);
        let q = self.tmp_pred();
        self.k.cmp(self.pred_exec(u), r, Operand::pred(q), x, y);
        Bit::Pred(q)
    }

    /// `x op y` for `op` `and` or `or`, folding known bits.
    fn bit_op(&mut self, u: bool, op: Op, x: Bit, y: Bit) -> Bit {
        let and = op == Op::And;
        match (x, y) {
            (Bit::Known(k), other) | (other, Bit::Known(k)) => {
                if k == and {
                    other
                } else {
                    Bit::Known(k)
                }
            }
            (Bit::Pred(p), Bit::Pred(q)) => {
                let t = self.tmp_pred();
                self.k.binary(op, self.pred_exec(u), Operand::pred(t), Operand::pred(p), Operand::pred(q));
                Bit::Pred(t)
            }
        }
    }

    fn bit_not(&mut self, u: bool, x: Bit) -> Bit {
        match x {
            Bit::Known(k) => Bit::Known(!k),
            Bit::Pred(p) => {
                let t = self.tmp_pred();
                self.k.unary(Op::Not, self.pred_exec(u), Operand::pred(t), Operand::pred(p));
                Bit::Pred(t)
            }
        }
    }

    /// Writes `x` into `p`: a copy of a predicate, or a compare of a zero with itself.
    fn bit_store(&mut self, u: bool, p: PredId, x: Bit) {
        let ex = self.pred_exec(u);
        match x {
            Bit::Pred(q) => {
                self.k.binary(Op::Or, ex, Operand::pred(p), Operand::pred(q), Operand::pred(q));
            }
            Bit::Known(k) => {
                let z = self.tmp(Type::UD, u);
                self.k.mov(self.exec(u), Operand::dst(z), Operand::imm(Imm::ud(0)));
                let r = if k { Relop::Eq } else { Relop::Ne };
                self.k.cmp(ex, r, Operand::pred(p), super::alu64::rd(z, u), Operand::imm(Imm::ud(0)));
            }
        }
    }
}
