//! Arithmetic, compares, selects, constants, special registers (conversions: `convert.rs`).

use super::{Isel, IselError};
use crate::sass::inst::{MOp, SassInst};
use crate::vcode::{RegClass, VReg};
use atomc_ir::{BinaryOp, ConvOp, FloatCC, InstData, IntCC, SpecialReg, Type, UnaryOp, Value};
use atomc_sass::op;
use atomc_sass::op::t;

impl Isel<'_> {
    pub(super) fn lower_alu(&mut self, data: &InstData) -> Result<(), IselError> {
        // A bitcast within one register shape is the same bits: the result
        // names the operand's register, no instruction.
        if let InstData::Convert { op: ConvOp::Bitcast, to, arg } = data {
            if super::class_of(*to) == super::class_of(self.ty(*arg)) {
                let r = self.reg(*arg);
                if let Some(v) = self.func.inst_result(self.inst) {
                    self.vregs[v] = Some(r);
                }
                return Ok(());
            }
        }
        let Some(d) = self.result() else { return Ok(()) };
        match data {
            InstData::Iconst { ty, imm } => self.constant(d, *ty, *imm as u64),
            InstData::Fconst { ty, bits } => self.constant(d, *ty, *bits),
            InstData::Special { reg } => self.special(d, *reg),
            InstData::Unary { op, arg } => self.unary(d, *op, *arg)?,
            InstData::ActiveMask
            | InstData::Ballot { .. }
            | InstData::Vote { .. }
            | InstData::Reduce { .. }
            | InstData::Shuffle { .. }
            | InstData::MatchAny { .. } => self.isa.subgroup(self, d, data)?,
            InstData::Binary { op: BinaryOp::Umulhi | BinaryOp::Smulhi, .. }
            | InstData::Ternary { .. }
            | InstData::Bfi { .. } => self.isa.bits(self, d, data)?,
            InstData::Binary { op, args } => self.binary(d, *op, args[0], args[1])?,
            InstData::Icmp { .. } | InstData::Fcmp { .. } => {
                // Conditions of brif/select are re-issued at their use.
                if self.non_cond_uses[self.func.inst_result(self.inst).expect("compare result")] > 0 {
                    let v = self.func.inst_result(self.inst).expect("compare result");
                    self.compare_into_p0(v)?;
                    self.emit(SassInst::new(
                        op!(SEL),
                        [MOp::def(d.reg(), 1), MOp::rz(), MOp::Imm(1), MOp::Pred { num: 0, not: true }],
                    ));
                }
            }
            InstData::Select { cond, args } => {
                let negate = self.cond_into_p0(*cond)?;
                let p = MOp::Pred { num: 0, not: negate };
                // A zero (the NaN select of a conversion, say) is read from RZ.
                let zero = |s: &Self, v: Value| s.const_value(v) == Some(0);
                let (za, zb) = (zero(self, args[0]), zero(self, args[1]));
                let (a, b) = (self.reg(args[0]), self.reg(args[1]));
                let pick = |z: bool, m: MOp| if z { MOp::rz() } else { m };
                if d.class() == RegClass::Pair {
                    let lo = [pick(za, MOp::use_(a.lo())), pick(zb, MOp::use_(b.lo()))];
                    let hi = [pick(za, MOp::use_(a.hi())), pick(zb, MOp::use_(b.hi()))];
                    let lo = SassInst::new(op!(SEL), [MOp::rz(), lo[0].clone(), lo[1].clone(), p.clone()]);
                    let hi = SassInst::new(op!(SEL), [MOp::rz(), hi[0].clone(), hi[1].clone(), p]);
                    self.pair_op(d, lo, hi);
                } else {
                    let (a, b) = (pick(za, MOp::use_(a)), pick(zb, MOp::use_(b)));
                    self.emit(SassInst::new(op!(SEL), [MOp::def(d.reg(), 1), a, b, p]));
                }
            }
            InstData::Convert { op, to, arg } => self.convert(d, *op, *to, *arg)?,
            InstData::PtrAdd { ptr, offset } if self.cbank_scaled_index(*ptr, *offset).is_some() => {
                // A parameter plus a zero-extended index times 2^k, with the parameter read from
                // the constant bank, as ptxas 13.5 does (`LEA R6, P0, R0, UR6, 0x3`, `LEA.HI.X
                // R7, R0, UR7, RZ, 0x3, P0`) and ptxas 11.8 on sm_50 (`LEA R8.CC, R0,
                // c[0x0][0x148], 0x3`, `LEA.HI.X R9, R0, c[0x0][0x14c], RZ, 0x3`): the pointer
                // takes no register pair.
                let (off, x, k) = self.cbank_scaled_index(*ptr, *offset).expect("checked");
                let xr = self.reg(x);
                if k == 0 {
                    self.add_pair(d, [MOp::use_(xr), MOp::rz()], [MOp::CBank(off), MOp::CBank(off + 4)]);
                } else {
                    self.isa.index_cbank(self, d, xr, off, k);
                }
            }
            InstData::PtrAdd { ptr, offset } if self.is_pair(*ptr) && self.wide_index(*offset).is_some() => {
                // p + ext(x) * c in one instruction, as ptxas does.
                let (x, scale, signed) = self.wide_index(*offset).expect("checked");
                let (p, xr) = (self.reg(*ptr), self.reg(x));
                let c = if signed { scale as i32 as i64 } else { scale as i64 };
                self.isa.index_scaled(self, d, xr, c, signed, p).map_err(|r| self.err(r))?;
            }
            InstData::PtrAdd { ptr, offset } => {
                let (p, o) = (self.reg(*ptr), self.reg(*offset));
                match (self.is_pair(*ptr), self.is_pair(*offset)) {
                    (true, true) => self.add64(d, *ptr, *offset),
                    // Sign-extend the 32-bit offset into the carry chain.
                    (true, false) => self.isa.add_sext(self, d, p, o),
                    (false, true) => self.emit(self.isa.add(MOp::def(d.reg(), 1), MOp::use_(p), MOp::use_(o.lo()))),
                    (false, false) => self.emit(self.isa.add(MOp::def(d.reg(), 1), MOp::use_(p), MOp::use_(o))),
                }
            }
            InstData::PtrToGeneric { ptr } if self.ty(*ptr) == Type::Ptr(atomc_ir::AddrSpace::Shared) => {
                self.isa.shared_to_generic(self, d, *ptr)?
            }
            InstData::PtrToGeneric { ptr } => {
                if self.ty(*ptr) != Type::Ptr(atomc_ir::AddrSpace::Global) {
                    return Err(self.err(format!("a {} cannot be made generic", self.ty(*ptr))));
                }
                let p = self.reg(*ptr);
                self.make_pair(d, MOp::use_(p.lo()), MOp::use_(p.hi()));
            }
            other => return Err(self.err(format!("no selection for {}", other.opcode_name()))),
        }
        Ok(())
    }

    pub(super) fn constant(&mut self, d: VReg, ty: Type, bits: u64) {
        let bits = zero_extended(ty, bits);
        let half = |v: u64| if v == 0 { MOp::rz() } else { MOp::Imm(v as u32 as i64) };
        if d.class() == RegClass::Pair {
            self.make_pair(d, half(bits & 0xffff_ffff), half(bits >> 32));
        } else {
            self.emit(self.isa.mov(&[MOp::def(d.reg(), 1)], half(bits)));
        }
    }

    fn special(&mut self, d: VReg, reg: SpecialReg) {
        use SpecialReg::*;
        let t = self.target;
        // Ids come from special registers; dimensions from constant bank 0.
        let sreg = |name: &'static &'static str| MOp::SReg(name);
        let src = match reg {
            ThreadIdX => sreg(&"SR_TID.X"),
            ThreadIdY => sreg(&"SR_TID.Y"),
            ThreadIdZ => sreg(&"SR_TID.Z"),
            BlockIdX => sreg(&"SR_CTAID.X"),
            BlockIdY => sreg(&"SR_CTAID.Y"),
            BlockIdZ => sreg(&"SR_CTAID.Z"),
            LaneId => sreg(&"SR_LANEID"),
            BlockDimX => return self.isa.load_cbank(self, d, Type::I32, t.ntid[0]),
            BlockDimY => return self.isa.load_cbank(self, d, Type::I32, t.ntid[1]),
            BlockDimZ => return self.isa.load_cbank(self, d, Type::I32, t.ntid[2]),
            GridDimX => return self.isa.load_cbank(self, d, Type::I32, t.nctaid[0]),
            GridDimY => return self.isa.load_cbank(self, d, Type::I32, t.nctaid[1]),
            GridDimZ => return self.isa.load_cbank(self, d, Type::I32, t.nctaid[2]),
        };
        self.emit(SassInst::new(op!(S2R), [MOp::def(d.reg(), 1), src]));
    }

    fn unary(&mut self, d: VReg, op: UnaryOp, a: Value) -> Result<(), IselError> {
        let ty = self.ty(a);
        let r = self.reg(a);
        match (op, d.class()) {
            // An 8/16-bit value is kept zero-extended: negate the register, then cut it back
            // to the width (the wrap modulo 2^N), as `ireduce` does.
            (UnaryOp::Ineg, RegClass::Single) if ty.is_int() && ty.bits() < 32 => {
                let t = self.new_vreg(RegClass::Single);
                self.emit(self.isa.add(MOp::def(t.reg(), 1), MOp::neg(r), MOp::rz()));
                let mask = if ty.bits() == 8 { 0xff } else { 0xffff };
                let and = self.isa.lop3(MOp::def(d.reg(), 1), MOp::use_(t), MOp::Imm(mask), MOp::rz(), 0xc0);
                self.emit(and.map_err(|r| self.err(r))?);
            }
            (UnaryOp::Ineg, RegClass::Single) => self.emit(self.isa.add(MOp::def(d.reg(), 1), MOp::neg(r), MOp::rz())),
            (UnaryOp::Ineg, _) => {
                // 0 - a = ~a.hi:~a.lo + 1, carried.
                let nh = self.new_vreg(RegClass::Single);
                self.emit(self.lop(MOp::def(nh.reg(), 1), MOp::rz(), MOp::use_(r.hi()), MOp::rz(), 0x33)?);
                self.add_pair(d, [MOp::rz(), MOp::rz()], [MOp::neg(r.lo()), MOp::use_(nh)]);
            }
            // An 8/16-bit value is kept zero-extended (`uextend` is a move): flip its bits only.
            (UnaryOp::Bnot, RegClass::Single) if ty.is_int() && ty.bits() < 32 => {
                let mask = if ty.bits() == 8 { 0xff } else { 0xffff };
                self.emit(self.lop(MOp::def(d.reg(), 1), MOp::use_(r), MOp::Imm(mask), MOp::rz(), 0x3c)?)
            }
            (UnaryOp::Bnot, RegClass::Single) => {
                self.emit(self.lop(MOp::def(d.reg(), 1), MOp::rz(), MOp::use_(r), MOp::rz(), 0x33)?)
            }
            (UnaryOp::Bnot, _) => {
                let lo = self.lop(MOp::rz(), MOp::rz(), MOp::use_(r.lo()), MOp::rz(), 0x33)?;
                let hi = self.lop(MOp::rz(), MOp::rz(), MOp::use_(r.hi()), MOp::rz(), 0x33)?;
                self.pair_op(d, lo, hi);
            }
            (UnaryOp::Fneg | UnaryOp::Fabs, class) => {
                // Flip or clear the sign bit of the (high) word.
                let (lut, imm) = if op == UnaryOp::Fneg { (0x3c, 0x8000_0000i64) } else { (0xc0, 0x7fff_ffff) };
                let sign_imm = if ty == Type::F16 { imm >> 16 } else { imm };
                if class == RegClass::Pair {
                    let hi = self.lop(MOp::rz(), MOp::use_(r.hi()), MOp::Imm(sign_imm), MOp::rz(), lut)?;
                    let lo = self.isa.mov(&[MOp::rz()], MOp::use_(r.lo()));
                    self.pair_op(d, lo, hi);
                } else {
                    self.emit(self.lop(MOp::def(d.reg(), 1), MOp::use_(r), MOp::Imm(sign_imm), MOp::rz(), lut)?);
                }
            }
            (UnaryOp::Popcnt | UnaryOp::Clz | UnaryOp::Ctz | UnaryOp::Bitrev, _) => {
                return self.isa.bits(self, d, &InstData::Unary { op, arg: a })
            }
        }
        Ok(())
    }

    fn add64(&mut self, d: VReg, a: Value, b: Value) {
        // The second source slot of IADD3 takes a constant: a parameter goes there, read from
        // the bank (as ptxas reads it, through ULDC) instead of through a register pair.
        let (a, b) = if self.param_cbank(a).is_some() && self.param_cbank(b).is_none() { (b, a) } else { (a, b) };
        let (alo, ahi) = self.wide_source(a, false);
        let (blo, bhi) = self.wide_source(b, true);
        self.add_pair(d, [alo, ahi], [blo, bhi]);
    }

    /// Pair `d = a + b` from the halves `[lo, hi]` of each, the carry from the low halves' add.
    pub(super) fn add_pair(&mut self, d: VReg, a: [MOp; 2], b: [MOp; 2]) {
        let lo = self.isa.add_carry_out(MOp::rz(), a[0], b[0]);
        let hi = self.isa.add_carry_in(MOp::rz(), a[1], b[1]);
        self.pair_op(d, lo, hi);
    }

    /// The amount operand of a shift of a `bits`-wide value held in a 32-bit register, and
    /// whether the shift must be the wrapping (`.W`) form.
    ///
    /// The IR takes the amount modulo the width; SHF (and sm_50's SHL/SHR) clamp it at 32
    /// unless `.W` makes them wrap it. ptxas (13 for sm_90, 11.8 for sm_50) on
    /// `and.b32 n, n, 31; shl.b32 d, x, n` and the shr.u32/shr.s32 likewise: a constant amount
    /// is masked into the immediate (`SHF.R.U32.HI R, RZ, 0x1f, R` for an amount of -1;
    /// `SHR.U32 R, R, 0x1f` on sm_50), a register amount drops the `and` for the wrapping form
    /// (`SHF.L.W.U32`, `SHF.R.W.U32.HI`, `SHF.R.W.S32.HI`; sm_50 `SHL.W`, `SHR.U32.W`, `SHR.W`).
    fn shift_amount(&mut self, b: Value, bits: u32) -> Result<(MOp, bool), IselError> {
        let bits = bits as u64;
        Ok(match self.const_value(b) {
            Some(c) if c & (bits - 1) == 0 => (MOp::rz(), false),
            Some(c) => (MOp::Imm((c & (bits - 1)) as i64), false),
            // An amount known to be below the width (the subword CAS loops' `(addr & 3) << 3`)
            // keeps the clamping form, as ptxas emits for those sequences.
            None if self.upper_bound(b, 4).is_some_and(|m| m < bits) => (MOp::use_(self.reg(b)), false),
            // `.W` wraps at 32: a narrower amount is masked first.
            None if bits < 32 => {
                let m = self.new_vreg(RegClass::Single);
                let mask = MOp::Imm(bits as i64 - 1);
                let rb = self.reg(b);
                self.emit(self.lop(MOp::def(m.reg(), 1), MOp::use_(rb), mask, MOp::rz(), 0xc0)?);
                (MOp::use_(m), false)
            }
            None => (MOp::use_(self.reg(b)), true),
        })
    }

    /// `umulhi` of two i32s: the target's high word of the unsigned product
    /// ([`super::Isa::mul_hi_u32`]), for both targets' `bits` rooms.
    pub(super) fn umulhi(&mut self, d: VReg, a: Value, b: Value) -> Result<(), IselError> {
        if self.ty(a) != Type::I32 {
            return Err(self.err(format!("{} on {} is not selected", BinaryOp::Umulhi, self.ty(a))));
        }
        let (ra, rb) = (self.reg(a), self.reg(b));
        self.isa.mul_hi_u32(self, MOp::def(d.reg(), 1), MOp::use_(ra), MOp::use_(rb));
        Ok(())
    }

    /// The target's `d = lut(a, b, c)` ([`super::Isa::lop3`]), or its refusal of the shape.
    pub(super) fn lop(&self, d: MOp, a: MOp, b: MOp, c: MOp, lut: u8) -> Result<SassInst, IselError> {
        self.isa.lop3(d, a, b, c, lut).map_err(|r| self.err(r))
    }

    /// The halves of a 64-bit source: a zero-extended 32-bit value is that value and RZ (no
    /// pair is built for it); with `cbank_ok`, a kernel parameter is its two constant-bank words
    /// (sm_90 `IADD3`/`IADD3.X` and sm_50 `IADD.CC`/`IADD.X` take a constant there).
    fn wide_source(&mut self, v: Value, cbank_ok: bool) -> (MOp, MOp) {
        if let Some(off) = self.param_cbank(v).filter(|_| cbank_ok) {
            return (MOp::CBank(off), MOp::CBank(off + 4));
        }
        if let Some((x, false)) = self.extended_i32(v) {
            let x = self.reg(x);
            return (MOp::use_(x), MOp::rz());
        }
        let r = self.reg(v);
        (MOp::use_(r.lo()), MOp::use_(r.hi()))
    }

    /// Clears the bits above an 8/16-bit result (values narrower than 32
    /// bits are kept zero-extended in their register).
    pub(super) fn narrow(&mut self, d: VReg, ty: Type, wide: VReg) -> Result<(), IselError> {
        let mask = if ty.bits() == 8 { 0xff } else { 0xffff };
        self.emit(self.lop(MOp::def(d.reg(), 1), MOp::use_(wide), MOp::Imm(mask), MOp::rz(), 0xc0)?);
        Ok(())
    }

    /// A sub-word integer held in a 32-bit register is zero-extended (loads, constants and
    /// `ireduce` leave it so); a signed operation first sign-extends it here.
    pub(super) fn sign_extended(&mut self, r: VReg, bits: u32) -> VReg {
        let k = 32 - bits as i64;
        let (t, u) = (self.new_vreg(RegClass::Single), self.new_vreg(RegClass::Single));
        self.emit(self.isa.shl(MOp::def(t.reg(), 1), MOp::use_(r), MOp::Imm(k), false));
        self.emit(self.isa.shr(MOp::def(u.reg(), 1), MOp::use_(t), MOp::Imm(k), true, false));
        u
    }

    /// The second operand of a sub-word compare or min/max: a constant sign- or zero-extended
    /// from the type's width, a register sign-extended for a signed operation.
    fn sub_word_b(&mut self, v: Value, bits: u32, signed: bool) -> MOp {
        let shift = 64 - bits;
        match self.const_value(v) {
            Some(c) if signed => MOp::Imm(((c << shift) as i64 >> shift) as i32 as i64),
            Some(c) => MOp::Imm(((c << shift) >> shift) as u32 as i64),
            None if signed => {
                let r = self.reg(v);
                MOp::use_(self.sign_extended(r, bits))
            }
            None => MOp::use_(self.reg(v)),
        }
    }

    fn binary(&mut self, d: VReg, op: BinaryOp, a: Value, b: Value) -> Result<(), IselError> {
        use BinaryOp::*;
        let ty = self.ty(a);
        let (ra, rb) = (self.reg(a), self.reg(b));
        let sub_word = ty.is_int() && ty.bits() < 32;
        if sub_word && matches!(op, Smin | Smax | Umin | Umax | Sshr) {
            // Signed results are narrowed back to the zero-extended form.
            let signed = matches!(op, Smin | Smax | Sshr);
            let x = if signed { self.sign_extended(ra, ty.bits()) } else { ra };
            let out = if signed { self.new_vreg(RegClass::Single) } else { d };
            let def = MOp::def(out.reg(), 1);
            if op == Sshr {
                // The amount is taken modulo the type's width, not the register's.
                let (y, wrap) = self.shift_amount(b, ty.bits())?;
                self.emit(self.isa.shr(def, MOp::use_(x), y, true, wrap));
            } else {
                let y = self.sub_word_b(b, ty.bits(), signed);
                self.isa.minmax(self, def, MOp::use_(x), y, !signed, matches!(op, Smax | Umax));
            }
            if signed {
                self.narrow(d, ty, out)?;
            }
            return Ok(());
        }
        let narrow = sub_word && matches!(op, Iadd | Isub | Imul | Ishl);
        let out = if narrow { self.new_vreg(RegClass::Single) } else { d };
        let x = MOp::use_(ra);
        let def = MOp::def(out.reg(), 1);
        if op == Fdiv && ty == Type::F32 {
            return self.fdiv32(d, a, b);
        }
        if op == Fdiv && ty == Type::F16 {
            return self.fdiv16(d, a, b);
        }
        if op == Fdiv && ty == Type::F64 {
            return self.fdiv64(d, a, b);
        }
        if matches!(op, Udiv | Sdiv | Urem | Srem) && ty == Type::I64 {
            return self.divide64(d, op, a, b);
        }
        if d.class() == RegClass::Pair {
            return self.binary64(d, op, ty, ra, rb, a, b);
        }
        let signed_imm = matches!(op, Iadd | Isub | Imul | Smin | Smax | Umin | Umax);
        let mut y = if ty.is_int() { self.src_b(b, signed_imm) } else { MOp::use_(rb) };
        let mut x = x;
        // A 32-bit parameter of an add, logic op or f32 add/multiply is read from the constant
        // bank in the second source slot (ptxas 13.5: `VIADD R4, R0, UR6` after `ULDC UR6,
        // c[0x0][0x220]`; ptxas 11.8: `FADD R5, R4, c[0x0][0x148]`) rather than loaded into a
        // register; all of them commute.
        let cbank_b = (ty == Type::I32 && matches!(op, Iadd | Band | Bor | Bxor))
            || (ty == Type::F32 && matches!(op, Fadd | Fmul));
        if cbank_b && self.const_value(b).is_none() {
            if let Some(off) = self.param_cbank(b) {
                y = MOp::CBank(off);
            } else if let Some(off) = self.param_cbank(a) {
                (x, y) = (MOp::use_(rb), MOp::CBank(off));
            }
        }
        // a * b + c in one IMAD when the product has no other reader.
        if op == Iadd && ty == Type::I32 {
            for (prod, addend) in [(a, b), (b, a)] {
                if let Some([m0, m1]) = self.single_use_product(prod) {
                    let (r0, r1, rc) = (self.reg(m0), self.src_b(m1, true), self.reg(addend));
                    self.isa.imad(self, &[def], MOp::use_(r0), r1, MOp::use_(rc));
                    return Ok(());
                }
            }
        }
        match op {
            Iadd => self.emit(self.isa.add(def, x, y)),
            Isub => match self.const_value(b) {
                Some(c) => self.emit(self.isa.add(def, x, MOp::Imm((c as i32).wrapping_neg() as i64))),
                None => self.emit(self.isa.add(def, x, MOp::neg(rb))),
            },
            Imul => self.isa.imad(self, &[def], x, y, MOp::rz()),
            Band | Bor | Bxor => {
                let lut = match op {
                    Band => 0xc0,
                    Bor => 0xfc,
                    _ => 0x3c,
                };
                self.emit(self.lop(def, x, y, MOp::rz(), lut)?);
            }
            Ishl | Ushr | Sshr => {
                let (y, wrap) = self.shift_amount(b, ty.bits())?;
                match op {
                    Ishl => self.emit(self.isa.shl(def, x, y, wrap)),
                    _ => self.emit(self.isa.shr(def, x, y, op == Sshr, wrap)),
                }
            }
            Smin | Smax | Umin | Umax => {
                self.isa.minmax(self, def, x, y, matches!(op, Umin | Umax), matches!(op, Smax | Umax))
            }
            Fadd | Fsub | Fmul | Fmin | Fmax if ty == Type::F32 => self.emit(match op {
                Fadd => SassInst::new(op!(FADD), [def, x, y]),
                Fsub => SassInst::new(op!(FADD), [def, x, MOp::neg(rb)]),
                Fmul => SassInst::new(op!(FMUL), [def, x, y]),
                _ => SassInst::new(op!(FMNMX), [def, x, y, MOp::Pred { num: 7, not: op == Fmax }]),
            }),
            Fadd | Fsub | Fmul | Fmin | Fmax if ty == Type::F16 => return self.half_binary(d, op, a, b),
            Udiv | Sdiv | Urem | Srem => return self.divide32(d, op, a, b),
            _ => return Err(self.err(format!("`{op}` on {ty} is not selected"))),
        }
        if narrow {
            self.narrow(d, ty, out)?;
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn binary64(
        &mut self,
        d: VReg,
        op: BinaryOp,
        ty: Type,
        a: VReg,
        b: VReg,
        av: Value,
        bv: Value,
    ) -> Result<(), IselError> {
        use BinaryOp::*;
        if matches!(op, Iadd | Bor | Bxor) {
            // `(zext x << 32) op zext y` has disjoint halves: the pair is (y, x), with no zero
            // half built and no 64-bit shift or logic (ptxas packs the same way).
            for (h, l) in [(av, bv), (bv, av)] {
                if let (Some(x), Some((y, false))) = (self.shifted_word(h), self.extended_i32(l)) {
                    let (x, y) = (self.reg(x), self.reg(y));
                    self.make_pair(d, MOp::use_(y), MOp::use_(x));
                    return Ok(());
                }
            }
        }
        match op {
            Iadd => match self.const_value(bv) {
                // A constant addend goes into the immediate fields (no pair to build; sm_50's
                // halves are `IADD32I.CC` / `IADD32I.X`).
                Some(k) => {
                    let half = |v: u64| if v as u32 == 0 { MOp::rz() } else { MOp::Imm(v as u32 as i32 as i64) };
                    self.add_pair(d, [MOp::use_(a.lo()), MOp::use_(a.hi())], [half(k), half(k >> 32)]);
                }
                None => self.add64(d, av, bv),
            },
            Isub => {
                // a + ~b + 1: the low half adds -b.lo, the high half ~b.hi + carry.
                let nb = self.new_vreg(RegClass::Single);
                self.emit(self.lop(MOp::def(nb.reg(), 1), MOp::rz(), MOp::use_(b.hi()), MOp::rz(), 0x33)?);
                self.add_pair(d, [MOp::use_(a.lo()), MOp::use_(a.hi())], [MOp::neg(b.lo()), MOp::use_(nb)]);
            }
            // a < b (min) or a > b (max) as a 64-bit compare into P0, the halves picked with SEL.
            // ptxas 11.8 writes `IMNMX.XHI R9.CC, ..` + `IMNMX.U32.XLO R8, ..` on sm_50, whose
            // carry semantics no form or emulator here knows; the compare is the icmp one.
            Smin | Smax | Umin | Umax => {
                let cc = if matches!(op, Smin | Umin) { t::LT } else { t::GT };
                let halves = |r: VReg| [MOp::use_(r.lo()), MOp::use_(r.hi())];
                self.isa.compare64(self, cc, matches!(op, Umin | Umax), halves(a), halves(b));
                let sel = |x, y| SassInst::new(op!(SEL), [MOp::rz(), MOp::use_(x), MOp::use_(y), MOp::p0()]);
                self.pair_op(d, sel(a.lo(), b.lo()), sel(a.hi(), b.hi()));
            }
            Band | Bor | Bxor => {
                let lut = match op {
                    Band => 0xc0,
                    Bor => 0xfc,
                    _ => 0x3c,
                };
                let (lo, hi) = match self.const_value(bv) {
                    // A 64-bit constant goes into each half's immediate field instead of a pair;
                    // a half whose result is known is a MOV (`band x, 0xffffffff` keeps the low
                    // word and clears the high one).
                    Some(k) => {
                        let half = |s: &Self, src: crate::vcode::Reg, c: u32| match (op, c) {
                            (Band, 0) => Ok(s.isa.mov(&[MOp::rz()], MOp::rz())),
                            (Band, u32::MAX) | (Bor | Bxor, 0) => Ok(s.isa.mov(&[MOp::rz()], MOp::use_(src))),
                            _ => s.lop(MOp::rz(), MOp::use_(src), MOp::Imm(c as i64), MOp::rz(), lut),
                        };
                        (half(self, a.lo(), k as u32)?, half(self, a.hi(), (k >> 32) as u32)?)
                    }
                    None => (
                        self.lop(MOp::rz(), MOp::use_(a.lo()), MOp::use_(b.lo()), MOp::rz(), lut)?,
                        self.lop(MOp::rz(), MOp::use_(a.hi()), MOp::use_(b.hi()), MOp::rz(), lut)?,
                    ),
                };
                self.pair_op(d, lo, hi);
            }
            Imul => {
                // (a.hi*b.lo + a.lo*b.hi) << 32 + a.lo*b.lo
                let t = self.new_vreg(RegClass::Pair);
                self.isa.mul_wide_u32(self, t, MOp::use_(a.lo()), MOp::use_(b.lo()));
                let u = self.new_vreg(RegClass::Pair);
                let tied = |t: VReg, h: VReg| [MOp::Tied { reg: t.reg(), width: 2 }, MOp::reuse_def(h.hi(), 0)];
                self.isa.imad(self, &tied(t, u), MOp::use_(a.lo()), MOp::use_(b.hi()), MOp::use_(t.hi()));
                self.isa.imad(self, &tied(u, d), MOp::use_(a.hi()), MOp::use_(b.lo()), MOp::use_(u.hi()));
            }
            Ishl | Ushr | Sshr => {
                let Some(amount) = self.const_value(bv) else {
                    // The amount modulo 64: its low word's low 6 bits (`and.b32 n, n, 63`
                    // before ptxas's sequence).
                    let k = self.new_vreg(RegClass::Single);
                    self.emit(self.lop(MOp::def(k.reg(), 1), MOp::use_(b.lo()), MOp::Imm(63), MOp::rz(), 0xc0)?);
                    self.isa.shift64_by(self, d, op, a, k);
                    return Ok(());
                };
                self.isa.shift64(self, d, op, a, (amount & 63) as i64).map_err(|r| self.err(r))?;
            }
            Fmin | Fmax if ty == Type::F64 => self.isa.fminmax64(self, d, a, b, op == Fmax),
            Fadd | Fsub | Fmul if ty == Type::F64 => {
                let def = MOp::def(d.reg(), 2);
                let inst = match op {
                    Fadd => SassInst::new(op!(DADD), [def, MOp::use_pair(a), MOp::use_pair(b)]),
                    Fsub => SassInst::new(
                        op!(DADD),
                        [
                            def,
                            MOp::use_pair(a),
                            MOp::Reg { reg: b.reg(), width: 2, rule: crate::vcode::OperandRule::Use, neg: true },
                        ],
                    ),
                    _ => SassInst::new(op!(DMUL), [def, MOp::use_pair(a), MOp::use_pair(b)]),
                };
                self.emit(inst);
            }
            _ => return Err(self.err(format!("`{op}` on {ty} is not selected"))),
        }
        Ok(())
    }

    /// `v` as the second source of a 32-bit integer instruction: RZ or an
    /// immediate when it is a constant (sign-extended for the forms whose
    /// immediates nvdisasm prints signed), else its register.
    pub(super) fn src_b(&mut self, v: Value, signed: bool) -> MOp {
        match self.const_value(v) {
            Some(0) => MOp::rz(),
            Some(c) if signed => MOp::Imm(c as i32 as i64),
            Some(c) => MOp::Imm(c as u32 as i64),
            None => MOp::use_(self.reg(v)),
        }
    }

    /// `v` as a 32-bit value `x` extended to 64 bits: `(x, signed)`.
    fn extended_i32(&self, v: Value) -> Option<(Value, bool)> {
        let atomc_ir::ValueDef::Result(i) = self.func.values[v].def else { return None };
        match self.func.insts[i] {
            InstData::Convert { op: ConvOp::Uextend, arg, .. } if self.ty(arg) == Type::I32 => Some((arg, false)),
            InstData::Convert { op: ConvOp::Sextend, arg, .. } if self.ty(arg) == Type::I32 => Some((arg, true)),
            _ => None,
        }
    }

    /// `x` when `v = ishl (uextend.i64 x), 32`: a 64-bit value whose low word is zero.
    fn shifted_word(&self, v: Value) -> Option<Value> {
        let atomc_ir::ValueDef::Result(i) = self.func.values[v].def else { return None };
        let InstData::Binary { op: BinaryOp::Ishl, args: [z, k] } = self.func.insts[i] else { return None };
        let (x, signed) = self.extended_i32(z)?;
        (!signed && self.const_value(k) == Some(32)).then_some(x)
    }

    /// `(cbank offset, x, k)` when `ptr_add ptr, offset` is a 64-bit kernel parameter plus a
    /// zero-extended 32-bit `x` times `2^k`.
    fn cbank_scaled_index(&self, ptr: Value, offset: Value) -> Option<(u32, Value, i64)> {
        let off = self.param_cbank(ptr).filter(|_| self.is_pair(ptr))?;
        let (x, scale, signed) = self.wide_index(offset)?;
        (!signed && scale.is_power_of_two()).then(|| (off, x, scale.trailing_zeros() as i64))
    }

    /// `offset` as `x * scale` with `x` a 32-bit value extended to 64 bits:
    /// `(x, scale, signed)`, for folding `ptr_add p, offset` into one `IMAD.WIDE`.
    fn wide_index(&self, offset: Value) -> Option<(Value, u32, bool)> {
        let def = |v: Value| match self.func.values[v].def {
            atomc_ir::ValueDef::Result(i) => Some(&self.func.insts[i]),
            _ => None,
        };
        if let Some((x, signed)) = self.extended_i32(offset) {
            return Some((x, 1, signed));
        }
        match def(offset) {
            Some(InstData::Binary { op: BinaryOp::Imul, args }) => {
                let (x, signed) = self.extended_i32(args[0])?;
                let c = self.const_value(args[1])?;
                u32::try_from(c).ok().map(|c| (x, c, signed))
            }
            Some(InstData::Binary { op: BinaryOp::Ishl, args }) => {
                let (x, signed) = self.extended_i32(args[0])?;
                let k = self.const_value(args[1])?;
                (k < 32).then(|| (x, 1u32 << k, signed))
            }
            _ => None,
        }
    }

    /// The operands of `v = imul a, b` (i32) when `v` has exactly one use.
    fn single_use_product(&self, v: Value) -> Option<[Value; 2]> {
        if self.uses[v] != 1 {
            return None;
        }
        match self.func.values[v].def {
            atomc_ir::ValueDef::Result(i) => match self.func.insts[i] {
                InstData::Binary { op: BinaryOp::Imul, args } if self.ty(v) == Type::I32 => Some(args),
                _ => None,
            },
            _ => None,
        }
    }

    /// An upper bound of the i32 value `v` read as unsigned, when a few defining instructions
    /// (constants, `band` with a bounded side, `ishl` by a constant) prove one.
    fn upper_bound(&self, v: Value, depth: u32) -> Option<u64> {
        if let Some(c) = self.const_value(v) {
            return Some(c & 0xffff_ffff);
        }
        if depth == 0 || self.ty(v) != Type::I32 {
            return None;
        }
        let atomc_ir::ValueDef::Result(i) = self.func.values[v].def else { return None };
        match self.func.insts[i] {
            InstData::Binary { op: BinaryOp::Band, args: [a, b] } => {
                match (self.upper_bound(a, depth - 1), self.upper_bound(b, depth - 1)) {
                    (Some(x), Some(y)) => Some(x.min(y)),
                    (x, y) => x.or(y),
                }
            }
            InstData::Binary { op: BinaryOp::Ishl, args: [a, b] } => {
                let k = self.const_value(b)?;
                let m = self.upper_bound(a, depth - 1)?;
                (k < 32).then(|| m << k).filter(|&r| r <= 0xffff_ffff)
            }
            _ => None,
        }
    }

    /// The value of an `iconst`, if `v` is one, as its register would hold it: zero-extended
    /// from the constant's type (`iconst.i8 -1` is 0xff). An operand folded into an immediate
    /// thus keeps a sub-word result zero-extended (`bxor.i8 x, -1` is `LOP3 x ^ 0xff`), as the
    /// materialised constant would. ptxas 13.5 and 11.8 likewise fold the `xor.b16` constant of
    /// atomc's PTX at the register's width, not sign-extended (`LOP3.LUT R0, R2, 0xffff, RZ,
    /// 0x3c`; `LOP32I.XOR R0, R2, 0xffff`), then clear the bits above the byte for the
    /// `cvt.u16.u8` (`LOP3.LUT R0, R0, 0xff, RZ, 0xc0`; `LOP32I.AND R9, R0, 0xff`).
    pub(super) fn const_value(&self, v: Value) -> Option<u64> {
        match self.func.values[v].def {
            atomc_ir::ValueDef::Result(i) => match self.func.insts[i] {
                InstData::Iconst { ty, imm } => Some(zero_extended(ty, imm as u64)),
                _ => None,
            },
            _ => None,
        }
    }

    /// Issues the condition `cond` into P0; returns whether the consumer
    /// must read `!P0` (never: compares are issued in their true sense).
    pub(super) fn cond_into_p0(&mut self, cond: Value) -> Result<bool, IselError> {
        let is_compare = matches!(
            self.func.values[cond].def,
            atomc_ir::ValueDef::Result(i) if matches!(self.func.insts[i], InstData::Icmp { .. } | InstData::Fcmp { .. })
        );
        if is_compare {
            self.compare_into_p0(cond)?;
        } else {
            let r = self.reg(cond);
            self.emit(SassInst::new(op!(ISETP.NE.AND), [MOp::p0(), MOp::pt(), MOp::use_(r), MOp::rz(), MOp::pt()]));
        }
        Ok(false)
    }

    /// Emits the compare that defines `v` into P0.
    fn compare_into_p0(&mut self, v: Value) -> Result<(), IselError> {
        let atomc_ir::ValueDef::Result(i) = self.func.values[v].def else { unreachable!("compares are results") };
        match self.func.insts[i].clone() {
            InstData::Icmp { cond, args } => {
                let (a, b) = (self.reg(args[0]), self.reg(args[1]));
                let (cc, unsigned) = match cond {
                    IntCC::Eq => (t::EQ, true),
                    IntCC::Ne => (t::NE, true),
                    IntCC::Slt => (t::LT, false),
                    IntCC::Sle => (t::LE, false),
                    IntCC::Sgt => (t::GT, false),
                    IntCC::Sge => (t::GE, false),
                    IntCC::Ult => (t::LT, true),
                    IntCC::Ule => (t::LE, true),
                    IntCC::Ugt => (t::GT, true),
                    IntCC::Uge => (t::GE, true),
                };
                if a.class() == RegClass::Pair {
                    let halves = |r: VReg| [MOp::use_(r.lo()), MOp::use_(r.hi())];
                    self.isa.compare64(self, cc, unsigned, halves(a), halves(b));
                } else {
                    let u = unsigned.then_some(t::U32);
                    let bits = self.ty(args[0]).bits();
                    let (a, y) = if bits < 32 {
                        let y = self.sub_word_b(args[1], bits, !unsigned);
                        (if unsigned { a } else { self.sign_extended(a, bits) }, y)
                    } else {
                        (a, self.src_b(args[1], true))
                    };
                    self.emit(SassInst::new(
                        op!(ISETP).with(cc).with(u).with(t::AND),
                        [MOp::p0(), MOp::pt(), MOp::use_(a), y, MOp::pt()],
                    ));
                }
            }
            InstData::Fcmp { cond, args } => {
                let (a, b) = (self.reg(args[0]), self.reg(args[1]));
                let cc = match cond {
                    FloatCC::Eq => t::EQ,
                    FloatCC::Ne => t::NEU,
                    FloatCC::Lt => t::LT,
                    FloatCC::Le => t::LE,
                    FloatCC::Gt => t::GT,
                    FloatCC::Ge => t::GE,
                    FloatCC::Ord => t::NUM,
                    FloatCC::Uno => t::NAN,
                };
                let (opc, src) = match self.ty(args[0]) {
                    Type::F32 => (op!(FSETP), [MOp::use_(a), MOp::use_(b)]),
                    Type::F64 => (op!(DSETP), [MOp::use_pair(a), MOp::use_pair(b)]),
                    // Widened exactly to f32 (sass/isel/half.rs).
                    // (Once for `x cc x`: the NaN test of a conversion.)
                    Type::F16 => {
                        let wa = self.half_to_f32(a)?;
                        let wb = if args[0] == args[1] { wa } else { self.half_to_f32(b)? };
                        (op!(FSETP), [MOp::use_(wa), MOp::use_(wb)])
                    }
                    other => return Err(self.err(format!("fcmp on {other} is not selected"))),
                };
                self.emit(SassInst::new(opc.with(cc).with(t::AND), [MOp::p0(), MOp::pt(), src[0], src[1], MOp::pt()]));
            }
            _ => unreachable!("checked by the caller"),
        }
        Ok(())
    }
}

/// The low `ty.bits()` bits of `bits`, the rest zero: how a value of type `ty` is held.
fn zero_extended(ty: Type, bits: u64) -> u64 {
    if ty.bits() >= 64 {
        bits
    } else {
        bits & ((1u64 << ty.bits()) - 1)
    }
}
