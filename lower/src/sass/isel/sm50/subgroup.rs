//! Subgroup instructions on sm_50, from VOTE and SHFL. The IR runs them for the lanes that reach
//! them together (the warp's active lanes on Maxwell's single-PC warp, which the SSY/SYNC
//! reconvergence of `emit/src/codegen/reconverge.rs` brings together again). Inactive lanes
//! must read as absent, but Maxwell's SHFL returns whatever an inactive source lane's register
//! holds, so every read is checked against the active mask `VOTE.ANY m, PT, PT`:
//!
//! ```text
//! active_mask      VOTE.ANY d, PT, PT
//! ballot c         (c into P0) ; VOTE.ANY d, PT, P0
//! vote_any c       ballot b ; ISETP.NE.U32.AND P0, PT, b, RZ, PT ; SEL d, RZ, 0x1, !P0
//! vote_all c       ballot b ; active m ; ISETP.EQ.U32.AND P0, PT, b, m, PT ; SEL
//! vote_eq c.pred   ballot b ; active m ; b == 0 or b == m
//! vote_eq x        leader value v (SHFL.IDX from the lowest active lane) ; ballot(x == v) == m
//! shuffle x, y     source lane s (idx: y & 31, xor: lane ^ (y & 31), up: lane - y, down:
//!                  lane + y, in range tested on y) ; P0 = in range and bit s of m ;
//!                  SHFL.IDX PT, t, x, s, 0x1f ; SEL d, t, x, P0     (per 32-bit half)
//! match_any x      m, and per bit b of x: ballot of the lanes whose bit b is set (B), this
//!                  lane's bit as 0 / -1 (BFE s, x, b | 1 << 8), acc &= ~(B ^ s)
//! reduce op x      suffix combine over a linked list of the active lanes, then broadcast
//! ```
//!
//! `reduce` cannot use the butterfly of a full warp: an inactive lane's partial result is never
//! formed. Instead each active lane links to the next active lane above it (`nxt`, -1 for none;
//! from `m & ~SR_LEMASK`) and five pointer-jumping steps `v = op(v, v[nxt]) ; nxt = nxt[nxt]`
//! leave in every lane the combination of itself and all active lanes above it; the lowest
//! active lane's value is everyone's. Every SHFL reads an active lane (or is discarded by SEL).
//!
//! ptxas 11.8 (sm_50) writes `activemask` as `VOTE.ANY R4, PT, PT`, `vote.sync.ballot` as
//! `VOTE.ANY R5, PT, P0`, `vote.sync.all` by comparing the ballot with the active mask
//! (`LOP.AND` + `ISET.EQ.U32`), and `shfl.sync.idx` with a register lane as
//! `SHFL.IDX PT, R8, R0, R6, 0x1f`.

use super::Sm50;
use crate::sass::inst::{MOp, SassInst};
use crate::sass::isel::{Isa, Isel, IselError};
use crate::vcode::{Reg, RegClass, VReg};
use atomc_ir::{InstData, ReduceOp, ShuffleMode, Type, Value, VoteOp};
use atomc_sass::op;
use atomc_sass::op::{t, Opcode};

const P0: MOp = MOp::Pred { num: 0, not: false };

impl Isel<'_> {
    pub(super) fn subgroup_sm50(&mut self, d: VReg, data: &InstData) -> Result<(), IselError> {
        match *data {
            InstData::ActiveMask => self.raw50(op!(VOTE.ANY), [MOp::def(d.reg(), 1), MOp::pt(), MOp::pt()]),
            InstData::Ballot { cond } => {
                let p = self.cond_pred(cond)?;
                self.raw50(op!(VOTE.ANY), [MOp::def(d.reg(), 1), MOp::pt(), p]);
            }
            InstData::Vote { op, arg } if self.ty(arg) == Type::Pred => {
                let b = self.ballot50(arg)?;
                match op {
                    VoteOp::Any => self.isetp(op!(ISETP.NE.U32.AND), b, MOp::rz(), MOp::pt()),
                    VoteOp::All => {
                        let m = self.active50();
                        self.isetp(op!(ISETP.EQ.U32.AND), b, MOp::use_(m), MOp::pt())
                    }
                    VoteOp::Eq => {
                        let m = self.active50();
                        self.isetp(op!(ISETP.EQ.U32.AND), b, MOp::rz(), MOp::pt());
                        self.isetp(op!(ISETP.EQ.U32.OR), b, MOp::use_(m), P0)
                    }
                }
                self.p0_flag(d);
            }
            InstData::Vote { op: VoteOp::Eq, arg } => {
                let m = self.active50();
                let leader = self.lowest_lane(m);
                let parts = self.parts(arg);
                for (k, &x) in parts.iter().enumerate() {
                    let v = self.shfl_idx(x, leader);
                    let chain = if k == 0 { MOp::pt() } else { P0 };
                    self.emit(SassInst::new(op!(ISETP.EQ.U32.AND), [P0, MOp::pt(), MOp::use_(x), MOp::use_(v), chain]));
                }
                let b = self.new_vreg(RegClass::Single);
                self.raw50(op!(VOTE.ANY), [MOp::def(b.reg(), 1), MOp::pt(), P0]);
                self.isetp(op!(ISETP.EQ.U32.AND), b, MOp::use_(m), MOp::pt());
                self.p0_flag(d);
            }
            InstData::Shuffle { mode, args: [x, y] } => self.shuffle50(d, mode, x, y),
            InstData::MatchAny { arg } => {
                let mut acc = self.active50();
                let parts = self.parts(arg);
                let last = (parts.len() - 1, 31);
                for (k, &x) in parts.iter().enumerate() {
                    for bit in 0..32 {
                        let s = self.tmp50(op!(BFE), [MOp::use_(x), MOp::Imm(bit | 1 << 8)]);
                        self.isetp(op!(ISETP.NE.U32.AND), s, MOp::rz(), MOp::pt());
                        let b = self.new_vreg(RegClass::Single);
                        self.raw50(op!(VOTE.ANY), [MOp::def(b.reg(), 1), MOp::pt(), P0]);
                        // acc & ~(B ^ s): a = 0xf0, b = 0xcc, c = 0xaa.
                        let next = if (k, bit) == last { d } else { self.new_vreg(RegClass::Single) };
                        let ops = [MOp::def(next.reg(), 1), MOp::use_(acc), MOp::use_(b), MOp::use_(s), MOp::Imm(0x90)];
                        self.raw50(op!(LOP3.LUT), ops);
                        acc = next;
                    }
                }
            }
            InstData::Reduce { op, arg } if matches!(self.ty(arg), Type::I32 | Type::I64) => self.reduce50(d, op, arg),
            _ => return Err(self.err(format!("`{}` on these operands is not selected for sm_50", data.opcode_name()))),
        }
        Ok(())
    }

    fn shuffle50(&mut self, d: VReg, mode: ShuffleMode, x: Value, y: Value) {
        let lane = self.lane50(&"SR_LANEID");
        let m = self.active50();
        let y = self.reg(y);
        let low5 = |this: &mut Self| this.tmp50(op!(LOP32I.AND), [MOp::use_(y), MOp::Imm(0x1f)]);
        // The source lane, and whether P0 already holds its range test.
        let (src, ranged) = match mode {
            ShuffleMode::Idx => (low5(self), false),
            ShuffleMode::Xor => {
                let t = low5(self);
                (self.tmp50(op!(LOP3.LUT), [MOp::use_(lane), MOp::use_(t), MOp::rz(), MOp::Imm(0x3c)]), false)
            }
            ShuffleMode::Up => {
                let s = self.tmp50(op!(IADD), [MOp::use_(lane), MOp::neg(y)]);
                self.isetp(op!(ISETP.LE.U32.AND), y, MOp::use_(lane), MOp::pt());
                (s, true)
            }
            ShuffleMode::Down => {
                // lane + y wraps below lane exactly when it overflows.
                let s = self.tmp50(op!(IADD), [MOp::use_(lane), MOp::use_(y)]);
                self.isetp(op!(ISETP.LT.U32.AND), s, MOp::Imm(0x20), MOp::pt());
                self.isetp(op!(ISETP.GE.U32.AND), s, MOp::use_(lane), P0);
                (s, true)
            }
        };
        let sh = self.tmp50(op!(SHR.U32), [MOp::use_(m), MOp::use_(src)]);
        let bit = self.tmp50(op!(LOP32I.AND), [MOp::use_(sh), MOp::Imm(1)]);
        self.isetp(op!(ISETP.NE.U32.AND), bit, MOp::rz(), if ranged { P0 } else { MOp::pt() });
        let xs = self.parts(x);
        let got: Vec<VReg> = xs.iter().map(|&p| self.shfl_idx(p, src)).collect();
        if let [lo, hi] = got[..] {
            let sel = |t: VReg, own: Reg| SassInst::new(op!(SEL), [MOp::rz(), MOp::use_(t), MOp::use_(own), P0]);
            let (l, h) = (sel(lo, xs[0]), sel(hi, xs[1]));
            self.pair_op(d, l, h);
        } else {
            self.emit(SassInst::new(op!(SEL), [MOp::def(d.reg(), 1), MOp::use_(got[0]), MOp::use_(xs[0]), P0]));
        }
    }

    fn reduce50(&mut self, d: VReg, op: ReduceOp, x: Value) {
        let m = self.active50();
        let le = self.lane50(&"SR_LEMASK");
        // m & ~le: a = 0xf0, b = 0xcc.
        let above = self.tmp50(op!(LOP3.LUT), [MOp::use_(m), MOp::use_(le), MOp::rz(), MOp::Imm(0x30)]);
        let mut nxt = self.lowest_lane(above);
        let mut v = self.reg(x);
        for step in 0..5 {
            let t = self.shfl_value(v, nxt);
            let n2 = (step < 4).then(|| self.shfl_idx(nxt.reg(), nxt));
            let c = self.combine50(op, v, t);
            self.isetp(op!(ISETP.GE.AND), nxt, MOp::rz(), MOp::pt());
            v = self.select50(c, v);
            if let Some(n2) = n2 {
                nxt = self.select50(n2, nxt);
            }
        }
        let leader = self.lowest_lane(m);
        if v.class() == RegClass::Pair {
            let r = self.shfl_value(v, leader);
            self.make_pair(d, MOp::use_(r.lo()), MOp::use_(r.hi()));
        } else {
            self.shfl_into(d, v.reg(), leader);
        }
    }

    /// `op(a, b)` of two i32 or i64 registers (min/max of pairs compare into P0).
    fn combine50(&mut self, op: ReduceOp, a: VReg, b: VReg) -> VReg {
        let c = self.new_vreg(a.class());
        let wide = a.class() == RegClass::Pair;
        let halves = |r: VReg| if wide { [MOp::use_(r.lo()), MOp::use_(r.hi())] } else { [MOp::use_(r), MOp::rz()] };
        let ([alo, ahi], [blo, bhi]) = (halves(a), halves(b));
        let lop = |x: MOp, y: MOp, lut: i64| SassInst::new(op!(LOP3.LUT), [MOp::rz(), x, y, MOp::rz(), MOp::Imm(lut)]);
        let (lo, hi) = match op {
            ReduceOp::Add if !wide => {
                self.emit(Sm50.add(MOp::def(c.reg(), 1), alo, blo));
                return c;
            }
            ReduceOp::Add => (Sm50.add_carry_out(MOp::rz(), alo, blo), Sm50.add_carry_in(MOp::rz(), ahi, bhi)),
            ReduceOp::And | ReduceOp::Or | ReduceOp::Xor => {
                let lut = match op {
                    ReduceOp::And => 0xc0,
                    ReduceOp::Or => 0xfc,
                    _ => 0x3c,
                };
                (lop(alo, blo, lut), lop(ahi, bhi, lut))
            }
            ReduceOp::Umin | ReduceOp::Umax | ReduceOp::Smin | ReduceOp::Smax => {
                let unsigned = matches!(op, ReduceOp::Umin | ReduceOp::Umax);
                let max = matches!(op, ReduceOp::Umax | ReduceOp::Smax);
                if !wide {
                    let opc = if unsigned { op!(IMNMX.U32) } else { op!(IMNMX) };
                    let def = MOp::def(c.reg(), 1);
                    self.emit(SassInst::new(opc, [def, alo, blo, MOp::Pred { num: 7, not: max }]));
                    return c;
                }
                // P0 = b beyond a.
                Sm50.compare64(self, if max { t::GT } else { t::LT }, unsigned, [blo, bhi], [alo, ahi]);
                let sel = |x: MOp, y: MOp| SassInst::new(op!(SEL), [MOp::rz(), x, y, P0]);
                (sel(blo, alo), sel(bhi, ahi))
            }
        };
        if wide {
            self.pair_op(c, lo, hi);
        } else {
            let mut lo = lo;
            lo.ops[0] = MOp::def(c.reg(), 1);
            self.emit(lo);
        }
        c
    }

    /// `x` (one register or a pair) as lane `lane` has it.
    fn shfl_value(&mut self, x: VReg, lane: VReg) -> VReg {
        if x.class() != RegClass::Pair {
            return self.shfl_idx(x.reg(), lane);
        }
        let (lo, hi) = (self.shfl_idx(x.lo(), lane), self.shfl_idx(x.hi(), lane));
        let r = self.new_vreg(RegClass::Pair);
        self.make_pair(r, MOp::use_(lo), MOp::use_(hi));
        r
    }

    /// `P0 ? a : b` of two registers or pairs.
    fn select50(&mut self, a: VReg, b: VReg) -> VReg {
        if a.class() != RegClass::Pair {
            return self.sel50(a, b);
        }
        let t = self.new_vreg(RegClass::Pair);
        let sel = |x: MOp, y: MOp| SassInst::new(op!(SEL), [MOp::rz(), x, y, P0]);
        let (lo, hi) = (sel(MOp::use_(a.lo()), MOp::use_(b.lo())), sel(MOp::use_(a.hi()), MOp::use_(b.hi())));
        self.pair_op(t, lo, hi);
        t
    }

    /// The 32-bit registers of `v` (one, or a pair's two halves).
    fn parts(&mut self, v: Value) -> Vec<Reg> {
        let r = self.reg(v);
        if self.is_pair(v) {
            vec![r.lo(), r.hi()]
        } else {
            vec![r.reg()]
        }
    }

    /// `cond` as a predicate operand (compared into P0).
    fn cond_pred(&mut self, cond: Value) -> Result<MOp, IselError> {
        let not = self.cond_into_p0(cond)?;
        Ok(MOp::Pred { num: 0, not })
    }

    fn ballot50(&mut self, cond: Value) -> Result<VReg, IselError> {
        let p = self.cond_pred(cond)?;
        let b = self.new_vreg(RegClass::Single);
        self.raw50(op!(VOTE.ANY), [MOp::def(b.reg(), 1), MOp::pt(), p]);
        Ok(b)
    }

    /// The active lanes' mask.
    pub(super) fn active50(&mut self) -> VReg {
        let m = self.new_vreg(RegClass::Single);
        self.raw50(op!(VOTE.ANY), [MOp::def(m.reg(), 1), MOp::pt(), MOp::pt()]);
        m
    }

    /// A lane-describing special register (`SR_LANEID`, `SR_LEMASK`).
    fn lane50(&mut self, sreg: &'static &'static str) -> VReg {
        let t = self.new_vreg(RegClass::Single);
        self.raw50(op!(S2R), [MOp::def(t.reg(), 1), MOp::SReg(sreg)]);
        t
    }

    /// The index of the lowest set bit of `mask` (-1 for 0): the leading zeros of its reverse.
    fn lowest_lane(&mut self, mask: VReg) -> VReg {
        let r = self.tmp50(op!(BFE.U32.BREV), [MOp::use_(mask), MOp::Imm(0x2000)]);
        let t = self.new_vreg(RegClass::Single);
        self.raw50(op!(FLO.U32.SH), [MOp::def(t.reg(), 1), MOp::use_(r)]);
        t
    }

    /// `x` as lane `lane` has it (or a stale value for an inactive lane: callers check).
    fn shfl_idx(&mut self, x: Reg, lane: VReg) -> VReg {
        let t = self.new_vreg(RegClass::Single);
        self.shfl_into(t, x, lane);
        t
    }

    fn shfl_into(&mut self, d: VReg, x: Reg, lane: VReg) {
        let ops = [MOp::pt(), MOp::def(d.reg(), 1), MOp::use_(x), MOp::use_(lane), MOp::Imm(0x1f)];
        self.raw50(op!(SHFL.IDX), ops);
    }

    /// P0 = `a <cmp> b`, combined with `chain` by the compare's boolean op.
    fn isetp(&mut self, opcode: Opcode, a: VReg, b: MOp, chain: MOp) {
        self.emit(SassInst::new(opcode, [P0, MOp::pt(), MOp::use_(a), b, chain]));
    }

    /// `P0 ? a : b` in a fresh register.
    fn sel50(&mut self, a: VReg, b: VReg) -> VReg {
        let t = self.new_vreg(RegClass::Single);
        self.emit(SassInst::new(op!(SEL), [MOp::def(t.reg(), 1), MOp::use_(a), MOp::use_(b), P0]));
        t
    }

    /// `d` = 1 where P0 holds, else 0.
    fn p0_flag(&mut self, d: VReg) {
        self.emit(SassInst::new(
            op!(SEL),
            [MOp::def(d.reg(), 1), MOp::rz(), MOp::Imm(1), MOp::Pred { num: 0, not: true }],
        ));
    }
}
