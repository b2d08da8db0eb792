//! Subgroup instructions on sm_90 that the warp-wide vote and reduction units give directly, on
//! the lanes converged at the instruction (the IR's rule: the subgroup's active lanes there):
//!
//! ```text
//! active_mask      VOTEU.ANY UR6, UPT, PT ; MOV d, UR6
//! ballot c         (c into P0) ; VOTEU.ANY UR6, UPT, P0 ; MOV d, UR6
//! vote_any c       ballot ; ISETP.NE.U32.AND P0, PT, b, RZ, PT ; SEL d, RZ, 0x1, !P0
//! vote_all c       ballot ; VOTEU.ANY UR7, UPT, PT ; ISETP.EQ.U32.AND P0, PT, b, UR7, PT ; SEL
//! vote_eq x.i32    REDUX.MIN UR6, x ; REDUX.MAX UR7, x ; MOV t, UR6 ; ISETP.EQ.U32.AND P0, PT, t, UR7, PT ; SEL
//! vote_eq c.pred   ballot b ; VOTEU.ANY UR7, UPT, PT ; ISETP.EQ.U32.AND P0, PT, b, RZ, PT ;
//!                  ISETP.EQ.U32.OR P0, PT, b, UR7, P0 ; SEL        (no lane or every lane)
//! vote_eq x.64     MATCH.ANY.U64 m, x ; VOTEU.ANY UR7, UPT, PT ; ISETP.EQ.U32.AND P0, PT, m, UR7, PT ; SEL
//! reduce op x.i32  REDUX.op UR7, x ; MOV d, UR7
//! reduce op x.i8   as i32 on the zero-extended value (smin/smax: sign-extended first);
//!                  add, smin and smax then cut back to the type's width
//! reduce op x.i64  from 32-bit REDUXes (reduce64.rs)
//! ```
//!
//! (ptxas 13 compiles `vote.sync.ballot`/`activemask` to `VOTE`/`VOTEU` and `redux.sync` to
//! `REDUX` into a uniform register, then a move.) UR6 and UR7 are the scratch uniform registers
//! warp aggregation uses ([`crate::sass::target::WarpAggregation`]); nothing keeps them live
//! across instructions. Shuffles and `match_any` are in `shuffle.rs`.

use crate::sass::inst::{MOp, SassInst};
use crate::sass::isel::{Isel, IselError};
use crate::vcode::{RegClass, VReg};
use atomc_ir::{InstData, ReduceOp, Type, Value, VoteOp};
use atomc_sass::op::{t, Opcode};
use atomc_sass::{op, toks};

impl Isel<'_> {
    pub(super) fn subgroup(&mut self, d: VReg, data: &InstData) -> Result<(), IselError> {
        let Some(agg) = &self.target.warp_aggregation else {
            return Err(self.err("subgroup instructions are not selected for this target"));
        };
        let (u6, u7) = (MOp::UReg(agg.mask_ureg), MOp::UReg(agg.sum_ureg));
        let def = MOp::def(d.reg(), 1);
        match *data {
            InstData::ActiveMask => {
                self.vote_any_into(u6, None)?;
                self.emit(SassInst::new(op!(MOV), [def, u6]));
            }
            InstData::Ballot { cond } => {
                self.vote_any_into(u6, Some(cond))?;
                self.emit(SassInst::new(op!(MOV), [def, u6]));
            }
            InstData::Vote { op: op @ (VoteOp::Any | VoteOp::All), arg } => {
                self.vote_any_into(u6, Some(arg))?;
                let b = self.new_vreg(RegClass::Single);
                self.emit(SassInst::new(op!(MOV), [MOp::def(b.reg(), 1), u6]));
                let other = if op == VoteOp::Any {
                    MOp::rz()
                } else {
                    self.vote_any_into(u7, None)?;
                    u7
                };
                let cc = if op == VoteOp::Any { t::NE } else { t::EQ };
                self.flag(d, op!(ISETP).with(cc).with(toks!(U32.AND)), b, other);
            }
            InstData::Vote { op: VoteOp::Eq, arg } if self.ty(arg) == Type::Pred => {
                self.vote_any_into(u6, Some(arg))?;
                let b = self.new_vreg(RegClass::Single);
                self.emit(SassInst::new(op!(MOV), [MOp::def(b.reg(), 1), u6]));
                self.vote_any_into(u7, None)?;
                let ops = [MOp::p0(), MOp::pt(), MOp::use_(b.reg()), MOp::rz(), MOp::pt()];
                self.emit(SassInst::new(op!(ISETP.EQ.U32.AND), ops));
                let ops = [MOp::p0(), MOp::pt(), MOp::use_(b.reg()), u7, MOp::p0()];
                self.emit(SassInst::new(op!(ISETP.EQ.U32.OR), ops));
                self.emit(SassInst::new(op!(SEL), [def, MOp::rz(), MOp::Imm(1), MOp::Pred { num: 0, not: true }]));
            }
            InstData::Vote { op: VoteOp::Eq, arg } if self.is_pair(arg) => {
                let m = self.new_vreg(RegClass::Single);
                self.match_any(m, arg);
                self.vote_any_into(u7, None)?;
                self.flag(d, op!(ISETP.EQ.U32.AND), m, u7);
            }
            InstData::Vote { op: VoteOp::Eq, arg } => {
                let x = self.reg(arg);
                self.emit(SassInst::new(op!(REDUX.MIN), [u6, MOp::use_(x.reg())]));
                self.emit(SassInst::new(op!(REDUX.MAX), [u7, MOp::use_(x.reg())]));
                let t = self.new_vreg(RegClass::Single);
                self.emit(SassInst::new(op!(MOV), [MOp::def(t.reg(), 1), u6]));
                self.flag(d, op!(ISETP.EQ.U32.AND), t, u7);
            }
            InstData::Reduce { op, arg } if self.ty(arg) == Type::I32 => {
                let x = self.reg(arg);
                self.emit(SassInst::new(redux(op), [u7, MOp::use_(x.reg())]));
                self.emit(SassInst::new(op!(MOV), [def, u7]));
            }
            InstData::Reduce { op, arg } if matches!(self.ty(arg), Type::I8 | Type::I16) => {
                let ty = self.ty(arg);
                let signed = matches!(op, ReduceOp::Smin | ReduceOp::Smax);
                let mut x = self.reg(arg);
                if signed {
                    x = self.sign_extended(x, ty.bits());
                }
                self.emit(SassInst::new(redux(op), [u7, MOp::use_(x.reg())]));
                if signed || op == ReduceOp::Add {
                    let t = self.new_vreg(RegClass::Single);
                    self.emit(SassInst::new(op!(MOV), [MOp::def(t.reg(), 1), u7]));
                    self.narrow(d, ty, t)?;
                } else {
                    self.emit(SassInst::new(op!(MOV), [def, u7]));
                }
            }
            InstData::Reduce { op, arg } if self.ty(arg) == Type::I64 => self.reduce64(d, op, arg, u7)?,
            InstData::Shuffle { mode, args } => self.shuffle(d, mode, args[0], args[1], u6)?,
            InstData::MatchAny { arg } => self.match_any(d, arg),
            _ => return Err(self.err(format!("`{}` is not selected for sm_90", data.opcode_name()))),
        }
        Ok(())
    }

    /// `VOTEU.ANY ur, UPT, P` of the lanes where `cond` holds (every converged lane for `None`).
    pub(super) fn vote_any_into(&mut self, ur: MOp, cond: Option<Value>) -> Result<(), IselError> {
        let p = match cond {
            Some(c) => MOp::Pred { num: 0, not: self.cond_into_p0(c)? },
            None => MOp::pt(),
        };
        self.emit(SassInst::new(op!(VOTEU.ANY), [ur, MOp::UPred { num: 7, not: false }, p]));
        Ok(())
    }

    /// `d` = 1 where `a <cmp> b` holds, else 0 (a `pred` value in a register).
    fn flag(&mut self, d: VReg, compare: Opcode, a: VReg, b: MOp) {
        self.emit(SassInst::new(compare, [MOp::p0(), MOp::pt(), MOp::use_(a.reg()), b, MOp::pt()]));
        self.emit(SassInst::new(
            op!(SEL),
            [MOp::def(d.reg(), 1), MOp::rz(), MOp::Imm(1), MOp::Pred { num: 0, not: true }],
        ));
    }
}

/// The `REDUX` spelling of a reduction (its op field prints AND as the bare mnemonic).
pub(super) fn redux(op: ReduceOp) -> Opcode {
    match op {
        ReduceOp::Add => op!(REDUX.SUM),
        ReduceOp::And => op!(REDUX),
        ReduceOp::Or => op!(REDUX.OR),
        ReduceOp::Xor => op!(REDUX.XOR),
        ReduceOp::Umin => op!(REDUX.MIN),
        ReduceOp::Umax => op!(REDUX.MAX),
        ReduceOp::Smin => op!(REDUX.MIN.S32),
        ReduceOp::Smax => op!(REDUX.MAX.S32),
    }
}
