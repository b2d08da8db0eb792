//! `reduce` of an i64 on sm_90 from 32-bit `REDUX`es, which reduce over the executing lanes
//! (the IR's active lanes) as the 32-bit reductions do:
//!
//! ```text
//! and/or/xor   REDUX.op of each half
//! umin/umax    h = REDUX.MIN/MAX (.S32 for smin/smax) of the high halves; then REDUX.MIN/MAX of
//!              the low halves of the lanes whose high half is h (the others give ~0 / 0)
//! add          REDUX.SUM of the low 16 bits, of the next 16 and of the high halves (no sum of
//!              32 lanes' 16 bits overflows); d = s0 + (s1 << 16) + (sh << 32) with a carry
//! ```

use super::subgroup::redux;
use crate::sass::inst::{MOp, SassInst};
use crate::sass::isel::{Isel, IselError};
use crate::vcode::VReg;
use atomc_ir::{ReduceOp, Value};
use atomc_sass::op;

impl Isel<'_> {
    pub(super) fn reduce64(&mut self, d: VReg, op: ReduceOp, arg: Value, ur: MOp) -> Result<(), IselError> {
        let x = self.reg(arg);
        let (lo, hi) = (x.lo(), x.hi());
        let reduced = |s: &mut Self, op: ReduceOp, v: MOp| {
            s.emit(SassInst::new(redux(op), [ur, v]));
            let t = s.single();
            s.emit(SassInst::new(op!(MOV), [MOp::def(t.reg(), 1), ur]));
            t
        };
        match op {
            ReduceOp::And | ReduceOp::Or | ReduceOp::Xor => {
                let (l, h) = (reduced(self, op, MOp::use_(lo)), reduced(self, op, MOp::use_(hi)));
                self.make_pair(d, MOp::use_(l), MOp::use_(h));
            }
            ReduceOp::Umin | ReduceOp::Umax | ReduceOp::Smin | ReduceOp::Smax => {
                let h = reduced(self, op, MOp::use_(hi));
                let cmp = [MOp::p0(), MOp::pt(), MOp::use_(hi), MOp::use_(h), MOp::pt()];
                self.emit(SassInst::new(op!(ISETP.EQ.U32.AND), cmp));
                let min = matches!(op, ReduceOp::Umin | ReduceOp::Smin);
                let fill = if min { MOp::Imm(0xffff_ffff) } else { MOp::rz() };
                let l = self.single();
                self.emit(SassInst::new(op!(SEL), [MOp::def(l.reg(), 1), MOp::use_(lo), fill, MOp::p0()]));
                let low_op = if min { ReduceOp::Umin } else { ReduceOp::Umax };
                let l = reduced(self, low_op, MOp::use_(l));
                self.make_pair(d, MOp::use_(l), MOp::use_(h));
            }
            ReduceOp::Add => {
                let (a, b) = (self.single(), self.single());
                self.emit(self.lop(MOp::def(a.reg(), 1), MOp::use_(lo), MOp::Imm(0xffff), MOp::rz(), 0xc0)?);
                self.emit(self.isa.shr(MOp::def(b.reg(), 1), MOp::use_(lo), MOp::Imm(16), false, false));
                let s0 = reduced(self, op, MOp::use_(a));
                let s1 = reduced(self, op, MOp::use_(b));
                let sh = reduced(self, op, MOp::use_(hi));
                let (s1lo, s1hi) = (self.single(), self.single());
                self.emit(self.isa.shl(MOp::def(s1lo.reg(), 1), MOp::use_(s1), MOp::Imm(16), false));
                self.emit(self.isa.shr(MOp::def(s1hi.reg(), 1), MOp::use_(s1), MOp::Imm(16), false, false));
                self.add_pair(d, [MOp::use_(s0), MOp::use_(sh)], [MOp::use_(s1lo), MOp::use_(s1hi)]);
            }
        }
        Ok(())
    }
}
