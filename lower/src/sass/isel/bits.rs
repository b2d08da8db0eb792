//! Bit counts, multiply-high and fused multiply-add (`caps_ops` says which types reach here):
//!
//! ```text
//! popcnt.i32   POPC d, a
//! clz.i32      FLO.U32 t, a ; IADD3 d, -t, 0x1f, RZ          (FLO gives -1 for 0: 32)
//! ctz.i32      IADD3 n, -a ; LOP3 m = a & n ; IADD3 m, m, -0x1 ; POPC d, m    (0: POPC(-1) = 32)
//! umulhi.i32   IMAD.HI.U32 d, a, b, RZ      smulhi.i32   IMAD.HI d, a, b, RZ
//! fma.f32      FFMA d, a, b, c              fma.f64      DFMA d, a, b, c
//! ```
//!
//! POPC and FLO are variable-latency (scoreboarded) as ptxas issues them.

use super::alu::lop3;
use super::{IselError, Isel};
use crate::sass::inst::{Latency, MOp, SassInst};
use crate::vcode::{RegClass, VReg};
use atomc_ir::{BinaryOp, Type, UnaryOp, Value};

impl Isel<'_> {
    pub(super) fn bit_count(&mut self, d: VReg, op: UnaryOp, a: Value) -> Result<(), IselError> {
        if self.ty(a) != Type::I32 {
            return Err(self.err(format!("{op} on {} is not selected", self.ty(a))));
        }
        let r = self.reg(a);
        let def = MOp::def(d.reg(), 1);
        match op {
            UnaryOp::Popcnt => self.emit(SassInst::new("POPC", [def, MOp::use_(r)], Latency::Variable)),
            UnaryOp::Clz => {
                let t = self.leading_one(r);
                self.emit(SassInst::alu("IADD3", [def, MOp::neg(t), MOp::Imm(0x1f), MOp::rz()]));
            }
            UnaryOp::Ctz => {
                let n = self.new_vreg(RegClass::Single);
                self.emit(SassInst::alu("IADD3", [MOp::def(n.reg(), 1), MOp::neg(r), MOp::rz(), MOp::rz()]));
                let m = self.new_vreg(RegClass::Single);
                let [lut, pt] = lop3(0xc0);
                self.emit(SassInst::alu("LOP3.LUT", [MOp::def(m.reg(), 1), MOp::use_(r), MOp::use_(n), MOp::rz(), lut, pt]));
                let below = self.new_vreg(RegClass::Single);
                self.emit(SassInst::alu("IADD3", [MOp::def(below.reg(), 1), MOp::use_(m), MOp::Imm(-1), MOp::rz()]));
                self.emit(SassInst::new("POPC", [def, MOp::use_(below)], Latency::Variable));
            }
            _ => return Err(self.err(format!("{op} is not selected"))),
        }
        Ok(())
    }

    /// `FLO.U32`: the index of the highest one bit, -1 for 0.
    fn leading_one(&mut self, r: VReg) -> VReg {
        let t = self.new_vreg(RegClass::Single);
        self.emit(SassInst::new("FLO.U32", [MOp::def(t.reg(), 1), MOp::use_(r)], Latency::Variable));
        t
    }

    pub(super) fn mulhi(&mut self, d: VReg, op: BinaryOp, a: Value, b: Value) -> Result<(), IselError> {
        if self.ty(a) != Type::I32 {
            return Err(self.err(format!("{op} on {} is not selected", self.ty(a))));
        }
        let opcode = if op == BinaryOp::Umulhi { "IMAD.HI.U32" } else { "IMAD.HI" };
        let (ra, rb) = (self.reg(a), self.reg(b));
        self.emit(SassInst::alu(opcode, [MOp::def(d.reg(), 1), MOp::use_(ra), MOp::use_(rb), MOp::rz()]));
        Ok(())
    }

    pub(super) fn fma(&mut self, d: VReg, args: &[Value; 3]) -> Result<(), IselError> {
        let ty = self.ty(args[0]);
        let [a, b, c] = args.map(|v| self.reg(v));
        let inst = match ty {
            Type::F32 => SassInst::new("FFMA", [MOp::def(d.reg(), 1), MOp::use_(a), MOp::use_(b), MOp::use_(c)], Latency::Fixed(6)),
            Type::F64 => SassInst::new(
                "DFMA",
                [MOp::def(d.reg(), 2), MOp::use_pair(a), MOp::use_pair(b), MOp::use_pair(c)],
                Latency::Variable,
            ),
            _ => return Err(self.err(format!("fma on {ty} is not selected"))),
        };
        self.emit(inst);
        Ok(())
    }
}
