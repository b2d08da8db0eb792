//! Bit counts, bit fields, multiply-high and fused multiply-add on sm_50, as ptxas 11.8 writes
//! them for Maxwell (its cubins of `popc`, `clz`, `brev`, `bfe`, `bfi`, `mul.hi` and `fma`):
//!
//! ```text
//! popcnt.i32   POPC d, a
//! clz.i32      FLO.U32 t, a ; IADD32I d, -t, 0x1f                 (FLO gives -1 for 0: 32)
//! ctz.i32      BFE.U32.BREV r, a, 0x2000 ; then clz of r
//! bitrev.i32   BFE.U32.BREV d, a, 0x2000                           (position 0, length 32)
//! ubfe/sbfe    BFI c, len, 0x808, pos ; BFE{.U32} d, x, c          (constant pos/len: BFE d, x, imm)
//! bfi          BFI c, len, 0x808, pos ; BFI d, x, c, base          (constant pos/len: BFI d, x, imm, base)
//! umulhi.i32   the shared selector's, with sm_50's XMAD high word (alu.rs)
//! smulhi.i32   umulhi, less b where a < 0 and a where b < 0: IADD3 d, u, -(a>>31 & b), -(b>>31 & a)
//! fma          FFMA d, a, b, c / DFMA d, a, b, c
//! ```
//!
//! The control word of BFE/BFI is `position | length << 8` in its low 16 bits, which is how
//! the IR reads `pos` and `len` (their low 8 bits each). ptxas 11.8 writes `mul.hi.s32` with
//! signed XMAD variants the form table lacks; the unsigned product plus the two-term
//! correction gives the same word.

use crate::sass::inst::{MOp, SassInst};
use crate::sass::isel::{Isel, IselError};
use crate::vcode::{RegClass, VReg};
use atomc_ir::{BinaryOp, InstData, TernaryOp, Type, UnaryOp, Value};
use atomc_sass::op;
use atomc_sass::op::Opcode;

impl Isel<'_> {
    /// Selects a bit count, bit field, `smulhi` or `fma` (`umulhi` is the shared selector's,
    /// with sm_50's unsigned high word).
    pub(super) fn bits_sm50(&mut self, d: VReg, data: &InstData) -> Result<(), IselError> {
        match *data {
            InstData::Unary { op: op @ (UnaryOp::Popcnt | UnaryOp::Clz | UnaryOp::Ctz | UnaryOp::Bitrev), arg } => {
                self.bit_count_sm50(d, op, arg)?
            }
            InstData::Ternary { op: op @ (TernaryOp::Ubfe | TernaryOp::Sbfe), args: [x, pos, len] } => {
                self.need_i32(x)?;
                let ctl = self.bitfield_control(pos, len);
                let opc = if op == TernaryOp::Ubfe { op!(BFE.U32) } else { op!(BFE) };
                let x = MOp::use_(self.reg(x));
                self.raw50(opc, [MOp::def(d.reg(), 1), x, ctl]);
            }
            InstData::Bfi { args: [x, base, pos, len] } => {
                self.need_i32(x)?;
                let ctl = self.bitfield_control(pos, len);
                let (x, base) = (MOp::use_(self.reg(x)), MOp::use_(self.reg(base)));
                self.raw50(op!(BFI), [MOp::def(d.reg(), 1), x, ctl, base]);
            }
            InstData::Binary { op: BinaryOp::Smulhi, args: [a, b] } => {
                self.need_i32(a)?;
                let u = self.new_vreg(RegClass::Single);
                self.umulhi(u, a, b)?;
                let (ra, rb) = (self.reg(a), self.reg(b));
                let fix = |this: &mut Self, sign_of: VReg, other: VReg| {
                    let s = this.tmp50(op!(SHR), [MOp::use_(sign_of), MOp::Imm(31)]);
                    this.tmp50(op!(LOP3.LUT), [MOp::use_(s), MOp::use_(other), MOp::rz(), MOp::Imm(0xc0)])
                };
                let (fa, fb) = (fix(self, ra, rb), fix(self, rb, ra));
                let ops = [MOp::def(d.reg(), 1), MOp::use_(u), MOp::neg(fa), MOp::neg(fb)];
                self.raw50(op!(IADD3), ops);
            }
            InstData::Ternary { op: TernaryOp::Fma, args } => {
                let ty = self.ty(args[0]);
                let [a, b, c] = args.map(|v| self.reg(v));
                match ty {
                    Type::F32 => {
                        let ops = [MOp::def(d.reg(), 1), MOp::use_(a), MOp::use_(b), MOp::use_(c)];
                        self.raw50(op!(FFMA), ops)
                    }
                    Type::F64 => {
                        let ops = [MOp::def(d.reg(), 2), MOp::use_pair(a), MOp::use_pair(b), MOp::use_pair(c)];
                        self.raw50(op!(DFMA), ops)
                    }
                    _ => return Err(self.err(format!("fma on {ty} is not selected for sm_50"))),
                }
            }
            _ => return Err(self.err(format!("no selection for {}", data.opcode_name()))),
        }
        Ok(())
    }

    fn need_i32(&self, v: Value) -> Result<(), IselError> {
        match self.ty(v) {
            Type::I32 => Ok(()),
            ty => Err(self.err(format!("{ty} operands are not selected for sm_50"))),
        }
    }

    fn bit_count_sm50(&mut self, d: VReg, op: UnaryOp, a: Value) -> Result<(), IselError> {
        self.need_i32(a)?;
        let r = self.reg(a);
        let def = MOp::def(d.reg(), 1);
        match op {
            UnaryOp::Popcnt => self.raw50(op!(POPC), [def, MOp::use_(r)]),
            UnaryOp::Bitrev => self.raw50(op!(BFE.U32.BREV), [def, MOp::use_(r), MOp::Imm(0x2000)]),
            _ => {
                let src =
                    if op == UnaryOp::Ctz { self.tmp50(op!(BFE.U32.BREV), [MOp::use_(r), MOp::Imm(0x2000)]) } else { r };
                let t = self.new_vreg(RegClass::Single);
                self.raw50(op!(FLO.U32), [MOp::def(t.reg(), 1), MOp::use_(src)]);
                self.raw50(op!(IADD32I), [def, MOp::neg(t), MOp::Imm(0x1f)]);
            }
        }
        Ok(())
    }

    /// BFE/BFI's control operand: an immediate when both are constants, else a register built
    /// as ptxas builds it (`BFI c, len, 0x808, pos`: len's low byte into bits 8..16 of pos).
    fn bitfield_control(&mut self, pos: Value, len: Value) -> MOp {
        if let (Some(p), Some(l)) = (self.const_value(pos), self.const_value(len)) {
            return MOp::Imm(((p & 0xff) | (l & 0xff) << 8) as i64);
        }
        let (p, l) = (self.reg(pos), self.reg(len));
        let c = self.tmp50(op!(BFI), [MOp::use_(l), MOp::Imm(0x808), MOp::use_(p)]);
        MOp::use_(c)
    }

    /// Appends an instruction already in sm_50 spelling.
    pub(super) fn raw50<const N: usize>(&mut self, opcode: Opcode, ops: [MOp; N]) {
        self.emit(SassInst::new(opcode, ops));
    }

    /// A fresh register defined by the fixed-latency sm_50 instruction `opcode srcs`.
    pub(super) fn tmp50<const N: usize>(&mut self, opcode: Opcode, srcs: [MOp; N]) -> VReg {
        let t = self.new_vreg(RegClass::Single);
        self.emit(SassInst::new(opcode, std::iter::once(MOp::def(t.reg(), 1)).chain(srcs)));
        t
    }
}
