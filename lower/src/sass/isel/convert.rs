//! Integer and float conversions: widening and narrowing and float precision changes; the
//! integer/float conversions are each target's ([`super::Isa::int_float`]: one `I2F`/`F2I` on
//! sm_90, ptxas 11.8's sequences on sm_50), as are those of f16 (`half.rs`).

use super::{Isel, IselError};
use crate::sass::inst::{MOp, SassInst};
use crate::vcode::{RegClass, VReg};
use atomc_ir::{ConvOp, Type, Value};
use atomc_sass::op;
use atomc_sass::op::{t, Tok};

/// The integer type token of a conversion (`S8`..`U64`).
pub(super) fn int_tok(signed: bool, bits: u32) -> Tok {
    match (signed, bits) {
        (true, 8) => t::S8,
        (true, 16) => t::S16,
        (true, 32) => t::S32,
        (true, _) => t::S64,
        (false, 8) => t::U8,
        (false, 16) => t::U16,
        (false, 32) => t::U32,
        (false, _) => t::U64,
    }
}

impl Isel<'_> {
    pub(super) fn convert(&mut self, d: VReg, op: ConvOp, to: Type, a: Value) -> Result<(), IselError> {
        let from = self.ty(a);
        let r = self.reg(a);
        let mov = |s: &mut Self, src: MOp| s.emit(s.isa.mov(&[MOp::def(d.reg(), 1)], src));
        if let Some(done) = self.half_convert(d, op, from, to, a) {
            return done;
        }
        match op {
            ConvOp::Bitcast => {
                if d.class() == RegClass::Pair {
                    self.make_pair(d, MOp::use_(r.lo()), MOp::use_(r.hi()));
                } else {
                    mov(self, MOp::use_(r));
                }
            }
            ConvOp::Uextend if to.bits() == 64 => {
                let lo = if from.bits() == 32 { MOp::use_(r) } else { MOp::use_(r) };
                self.make_pair(d, lo, MOp::rz());
            }
            ConvOp::Uextend => mov(self, MOp::use_(r)),
            ConvOp::Sextend => {
                let src32 = if from.bits() < 32 {
                    let k = 32 - from.bits() as i64;
                    let t = self.new_vreg(RegClass::Single);
                    self.emit(self.isa.shl(MOp::def(t.reg(), 1), MOp::use_(r), MOp::Imm(k), false));
                    let u = if to.bits() == 32 { d } else { self.new_vreg(RegClass::Single) };
                    self.emit(self.isa.shr(MOp::def(u.reg(), 1), MOp::use_(t), MOp::Imm(k), true, false));
                    if to.bits() < 32 {
                        // Kept zero-extended like every 16-bit value: cut the 32-bit sign
                        // extension back to 16 bits, as `ireduce` does.
                        let and = self.isa.lop3(MOp::def(d.reg(), 1), MOp::use_(u), MOp::Imm(0xffff), MOp::rz(), 0xc0);
                        self.emit(and.map_err(|r| self.err(r))?);
                        return Ok(());
                    }
                    if to.bits() < 64 {
                        return Ok(());
                    }
                    u
                } else {
                    r
                };
                if to.bits() == 64 {
                    let lo = self.isa.mov(&[MOp::rz()], MOp::use_(src32));
                    let hi = self.isa.shr(MOp::rz(), MOp::use_(src32), MOp::Imm(31), true, false);
                    self.pair_op(d, lo, hi);
                }
            }
            ConvOp::Ireduce => {
                let src = if from.bits() == 64 { r.lo() } else { r.reg() };
                if to.bits() == 32 {
                    mov(self, MOp::use_(src));
                } else {
                    let mask = if to.bits() == 8 { 0xff } else { 0xffff };
                    let and = self.isa.lop3(MOp::def(d.reg(), 1), MOp::use_(src), MOp::Imm(mask), MOp::rz(), 0xc0);
                    self.emit(and.map_err(|r| self.err(r))?);
                }
            }
            ConvOp::Fpromote if from == Type::F32 && to == Type::F64 => {
                self.emit(SassInst::new(op!(F2F.F64.F32), [MOp::def(d.reg(), 2), MOp::use_(r)]));
            }
            ConvOp::Fdemote if from == Type::F64 && to == Type::F32 => {
                self.emit(SassInst::new(op!(F2F.F32.F64), [MOp::def(d.reg(), 1), MOp::use_pair(r)]));
            }
            ConvOp::FcvtFromSint | ConvOp::FcvtFromUint | ConvOp::FcvtToSint | ConvOp::FcvtToUint => {
                self.isa.int_float(self, d, op, from, to, r)?;
            }
            _ => return Err(self.err(format!("`{op}` from {from} to {to} is not selected"))),
        }
        Ok(())
    }
}
