//! Bit counts, bit fields, multiply-high and fused multiply-add in the sm_70+ instructions, as
//! sm_90 selects them (`Isa::bits`; sm_50's are in `sm50/bits.rs`; `umulhi` is the shared
//! selector's [`Isel::umulhi`], with each target's high word,
//! [`Isa::mul_hi_u32`](crate::sass::isel::Isa::mul_hi_u32)). `caps_ops` says which types reach
//! here:
//!
//! ```text
//! popcnt.i32   POPC d, a
//! clz.i32      FLO.U32 t, a ; IADD3 d, -t, 0x1f, RZ          (FLO gives -1 for 0: 32)
//! ctz.i32      IADD3 n, -a ; LOP3 m = a & n ; IADD3 m, m, -0x1 ; POPC d, m    (0: POPC(-1) = 32)
//! umulhi.i32   IMAD.HI.U32 d, a, b, RZ      smulhi.i32   IMAD.HI d, a, b, RZ
//! fma.f32      FFMA d, a, b, c              fma.f64      DFMA d, a, b, c
//! bitrev.i32   BREV d, a                    bitrev.i64   BREV d.lo, a.hi ; BREV d.hi, a.lo
//! ubfe.i32     PRMT p, RZ, 0x4, pos ; PRMT l, RZ, 0x4, len ; SHF.R.U32.HI t, RZ, p, x ; SGXT.U32 d, t, l
//! sbfe.i32     the same with SHF.R.S32.HI and SGXT
//! bfi.i32      PRMT p ; PRMT l ; BMSK m, p, l ; SHF.L.U32 s, x, p, RZ ; LOP3.LUT d, s, m, base, 0xe2
//! ```
//!
//! POPC, FLO and BREV are variable-latency (scoreboarded) as ptxas issues them. The bit-field
//! sequences are ptxas 13's for `bfe.u32`/`bfe.s32`/`bfi.b32` with register operands (Volta
//! dropped BFE/BFI): `PRMT R17, RZ, 0x4, R16` takes the low byte of the position (the IR's and
//! PTX's `pos & 0xff`), `SHF.R.U32.HI R26, RZ, R17, R20 ; SGXT.U32 R17, R26, R23` extracts, and
//! `BMSK R18, R5, R0 ; SHF.L.U32 R5, R20, R5, RZ ; LOP3.LUT R18, R5, R18, R21, 0xe2, !PT`
//! inserts. The clamped shifts and masks give the IR's edge cases: nothing from a position past
//! bit 31, the whole rest of the word for a length past it, 0 for a length of 0.

use crate::sass::inst::{MOp, SassInst};
use crate::sass::isel::{Isel, IselError};
use crate::vcode::{RegClass, VReg};
use atomc_ir::{BinaryOp, Type, UnaryOp, Value};
use atomc_sass::op;

impl Isel<'_> {
    pub(super) fn bit_count(&mut self, d: VReg, op: UnaryOp, a: Value) -> Result<(), IselError> {
        if op == UnaryOp::Bitrev && self.ty(a) == Type::I64 {
            let r = self.reg(a);
            let lo = SassInst::new(op!(BREV), [MOp::rz(), MOp::use_(r.hi())]);
            let hi = SassInst::new(op!(BREV), [MOp::rz(), MOp::use_(r.lo())]);
            self.pair_op(d, lo, hi);
            return Ok(());
        }
        if self.ty(a) != Type::I32 {
            return Err(self.err(format!("{op} on {} is not selected", self.ty(a))));
        }
        let r = self.reg(a);
        let def = MOp::def(d.reg(), 1);
        match op {
            UnaryOp::Popcnt => self.emit(SassInst::new(op!(POPC), [def, MOp::use_(r)])),
            UnaryOp::Bitrev => self.emit(SassInst::new(op!(BREV), [def, MOp::use_(r)])),
            UnaryOp::Clz => {
                let t = self.leading_one(r);
                self.emit(self.isa.add(def, MOp::neg(t), MOp::Imm(0x1f)));
            }
            UnaryOp::Ctz => {
                let n = self.new_vreg(RegClass::Single);
                self.emit(self.isa.add(MOp::def(n.reg(), 1), MOp::neg(r), MOp::rz()));
                let m = self.new_vreg(RegClass::Single);
                self.emit(self.lop(MOp::def(m.reg(), 1), MOp::use_(r), MOp::use_(n), MOp::rz(), 0xc0)?);
                let below = self.new_vreg(RegClass::Single);
                self.emit(self.isa.add(MOp::def(below.reg(), 1), MOp::use_(m), MOp::Imm(-1)));
                self.emit(SassInst::new(op!(POPC), [def, MOp::use_(below)]));
            }
            _ => return Err(self.err(format!("{op} is not selected"))),
        }
        Ok(())
    }

    /// `FLO.U32`: the index of the highest one bit, -1 for 0.
    fn leading_one(&mut self, r: VReg) -> VReg {
        let t = self.new_vreg(RegClass::Single);
        self.emit(SassInst::new(op!(FLO.U32), [MOp::def(t.reg(), 1), MOp::use_(r)]));
        t
    }

    /// `ubfe`/`sbfe` (`bfi` when `base` is given) of an i32.
    pub(super) fn bit_field(
        &mut self,
        d: VReg,
        x: Value,
        base: Option<Value>,
        pos: Value,
        len: Value,
        signed: bool,
    ) -> Result<(), IselError> {
        if self.ty(x) != Type::I32 {
            return Err(self.err(format!("bit fields of {} are not selected", self.ty(x))));
        }
        let low_byte = |s: &mut Self, v: Value| {
            let r = s.reg(v);
            let b = s.new_vreg(RegClass::Single);
            s.emit(SassInst::new(op!(PRMT), [MOp::def(b.reg(), 1), MOp::rz(), MOp::Imm(4), MOp::use_(r)]));
            b
        };
        let (p, l) = (low_byte(self, pos), low_byte(self, len));
        let xr = self.reg(x);
        let def = MOp::def(d.reg(), 1);
        let t = self.new_vreg(RegClass::Single);
        match base {
            None => {
                self.emit(self.isa.shr(MOp::def(t.reg(), 1), MOp::use_(xr), MOp::use_(p), signed, false));
                self.emit(SassInst::new(if signed { op!(SGXT) } else { op!(SGXT.U32) }, [def, MOp::use_(t), MOp::use_(l)]));
            }
            Some(base) => {
                let m = self.new_vreg(RegClass::Single);
                self.emit(SassInst::new(op!(BMSK), [MOp::def(m.reg(), 1), MOp::use_(p), MOp::use_(l)]));
                self.emit(self.isa.shl(MOp::def(t.reg(), 1), MOp::use_(xr), MOp::use_(p), false));
                let br = self.reg(base);
                self.emit(self.lop(def, MOp::use_(t), MOp::use_(m), MOp::use_(br), 0xe2)?);
            }
        }
        Ok(())
    }

    /// `smulhi.i32` is `IMAD.HI` (sm_50 corrects the unsigned high word instead,
    /// `sm50/bits.rs`); the rest is the shared selector's (`isel/mulhi.rs`).
    pub(super) fn mulhi90(&mut self, d: VReg, op: BinaryOp, a: Value, b: Value) -> Result<(), IselError> {
        if op == BinaryOp::Umulhi || self.ty(a) != Type::I32 {
            return self.mulhi(d, op, a, b);
        }
        let (ra, rb) = (self.reg(a), self.reg(b));
        self.emit(SassInst::new(op!(IMAD.HI), [MOp::def(d.reg(), 1), MOp::use_(ra), MOp::use_(rb), MOp::rz()]));
        Ok(())
    }

    pub(super) fn fma(&mut self, d: VReg, args: &[Value; 3]) -> Result<(), IselError> {
        let ty = self.ty(args[0]);
        let [a, b, c] = args.map(|v| self.reg(v));
        let inst = match ty {
            Type::F32 => SassInst::new(op!(FFMA), [MOp::def(d.reg(), 1), MOp::use_(a), MOp::use_(b), MOp::use_(c)]),
            Type::F64 => {
                SassInst::new(op!(DFMA), [MOp::def(d.reg(), 2), MOp::use_pair(a), MOp::use_pair(b), MOp::use_pair(c)])
            }
            _ => return Err(self.err(format!("fma on {ty} is not selected"))),
        };
        self.emit(inst);
        Ok(())
    }
}
