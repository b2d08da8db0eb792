//! sm_90 (Hopper): the selection rules ([`Sm90`]) and the rooms where sm_90 selects whole IR
//! instructions its own way: the sm_70+ instruction set, as ptxas 13.5 writes it. Three-input
//! adds (`IADD3`) and logic (`LOP3.LUT`) with a predicate carry or result, funnel shifts
//! (`SHF`), a 32-bit multiplier (`IMAD`, `IMAD.WIDE`, `IMAD.HI`), constant loads (`LDC`),
//! atomics with a predicate result (`ATOMG`, `REDG`) and uniform registers. (`IMAD`'s alias
//! spellings are the form table's business: its assembler takes the base spelling and its
//! printer shows nvdisasm's alias.) `sm50/mod.rs` tables where Maxwell differs.
//!
//! Rooms, as in `sm50/`: bit counts, bit fields, `smulhi` and `fma` (`bits.rs`), subgroup
//! instructions (`subgroup.rs`, with shuffles and `match_any` in `shuffle.rs` and 64-bit
//! reductions in `reduce64.rs`), integer/float and f16 conversions (`convert.rs`) and CAS
//! (`memory.rs`). sm_90 has no room of generic addresses (its `LD.E`/`ST.E`/`ATOM.E` are the
//! shared selector's) and no multiply sequences (its `IMAD`s are single instructions, answered
//! here).

mod bits;
mod convert;
mod memory;
mod reduce64;
mod shuffle;
mod subgroup;

use super::isa::{DivCvt, Isa};
use super::{Isel, IselError};
use crate::sass::inst::{MOp, SassInst};
use crate::vcode::{RegClass, RegForm, VReg};
use atomc_ir::{AddrSpace, BinaryOp, ConvOp, InstData, ReduceOp, TernaryOp, Type, Value};
use atomc_sass::op::{t, Opcode, Tok, Toks};
use atomc_sass::{op, toks};

/// The sm_90 selection rules.
pub(crate) struct Sm90;

/// The carry of a 64-bit add's halves.
const CARRY: MOp = MOp::Pred { num: 1, not: false };
const NOT_PT: MOp = MOp::Pred { num: 7, not: true };

/// The load of a value of type `ty` from the constant bank. An 8- or 16-bit parameter is
/// loaded zero-extended: the launch writes only its own bytes (the cubin declares its true
/// size), so the rest of the 4-byte slot is undefined (ptxas 13.5 reads a `.u16` parameter
/// with `ULDC.U16`).
fn ldc(ty: Type) -> Opcode {
    match ty.bytes() {
        8 => op!(LDC.64),
        1 => op!(LDC.U8),
        2 => op!(LDC.U16),
        _ => op!(LDC),
    }
}

impl Isa for Sm90 {
    fn mov(&self, dst: &[MOp], src: MOp) -> SassInst {
        SassInst::new(op!(MOV), dst.iter().copied().chain([src]))
    }

    fn add(&self, d: MOp, a: MOp, b: MOp) -> SassInst {
        SassInst::new(op!(IADD3), [d, a, b, MOp::rz()])
    }

    fn add_carry_out(&self, d: MOp, a: MOp, b: MOp) -> SassInst {
        SassInst::new(op!(IADD3), [d, CARRY, a, b, MOp::rz()])
    }

    fn add_carry_in(&self, d: MOp, a: MOp, b: MOp) -> SassInst {
        SassInst::new(op!(IADD3.X), [d, a, b, MOp::rz(), CARRY, NOT_PT])
    }

    fn lop3(&self, d: MOp, a: MOp, b: MOp, c: MOp, lut: u8) -> Result<SassInst, String> {
        Ok(SassInst::new(op!(LOP3.LUT), [d, a, b, c, MOp::Imm(lut as i64), NOT_PT]))
    }

    fn shl(&self, d: MOp, x: MOp, k: MOp, wrap: bool) -> SassInst {
        SassInst::new(if wrap { op!(SHF.L.W.U32) } else { op!(SHF.L.U32) }, [d, x, k, MOp::rz()])
    }

    fn shr(&self, d: MOp, x: MOp, k: MOp, signed: bool, wrap: bool) -> SassInst {
        let opcode = match (signed, wrap) {
            (false, false) => op!(SHF.R.U32.HI),
            (false, true) => op!(SHF.R.W.U32.HI),
            (true, false) => op!(SHF.R.S32.HI),
            (true, true) => op!(SHF.R.W.S32.HI),
        };
        SassInst::new(opcode, [d, MOp::rz(), k, x])
    }

    fn dfma(&self, d: MOp, a: MOp, b: MOp, c: MOp) -> SassInst {
        SassInst::new(op!(DFMA), [d, a, b, c])
    }

    fn shfl_up(&self, p: MOp, d: MOp, x: MOp, delta: MOp) -> SassInst {
        SassInst::new(op!(SHFL.UP), [p, d, x, delta, MOp::Imm(0)])
    }

    fn division_cvt(&self, c: DivCvt) -> Opcode {
        match c {
            DivCvt::U32ToF32Up => op!(I2F.U32.RP),
            DivCvt::U64ToF32Up => op!(I2F.U64.RP),
            DivCvt::F32ToU32Trunc => op!(F2I.FTZ.U32.TRUNC.NTZ),
            DivCvt::F32ToU64Trunc => op!(F2I.U64.TRUNC),
        }
    }

    fn rmw(
        &self,
        space: AddrSpace,
        spelled: Toks,
        strong: &[Tok],
        d: Option<MOp>,
        m: MOp,
        x: MOp,
        wide: bool,
    ) -> Result<SassInst, String> {
        let form = RegForm::Atom { wide };
        Ok(match (space, d) {
            (AddrSpace::Shared, Some(d)) => SassInst::new(op!(ATOMS).with(spelled), [d, m, x]).with_form(form),
            (_, Some(d)) => {
                let mnemonic = if space == AddrSpace::Global { op!(ATOMG) } else { op!(ATOM) };
                SassInst::new(mnemonic.with(t::E).with(spelled).with(strong), [MOp::pt(), d, m, x]).with_form(form)
            }
            // RED has no result field; its register rule row is the plain one.
            (_, None) => SassInst::new(op!(REDG.E).with(spelled).with(strong), [m, x]),
        })
    }

    fn surface_rmw(&self, mods: Toks, d: Option<MOp>, addr: MOp, data: MOp, handle: MOp, form: RegForm) -> SassInst {
        match d {
            Some(d) => SassInst::new(op!(SUATOM).with(mods), [d, addr, data, handle]),
            None => SassInst::new(op!(SURED).with(mods), [addr, data, handle]),
        }
        .with_form(form)
    }

    fn load_cbank(&self, s: &mut Isel<'_>, r: VReg, ty: Type, offset: u32) {
        s.emit(SassInst::new(ldc(ty), [MOp::def(r.reg(), r.class().width()), MOp::CBank(offset)]));
    }

    fn imad(&self, s: &mut Isel<'_>, dst: &[MOp], a: MOp, b: MOp, c: MOp) {
        s.emit(SassInst::new(op!(IMAD), dst.iter().copied().chain([a, b, c])));
    }

    fn mul_wide_u32(&self, s: &mut Isel<'_>, d: VReg, a: MOp, b: MOp) {
        s.emit(SassInst::new(op!(IMAD.WIDE.U32), [MOp::def(d.reg(), 2), a, b, MOp::rz()]));
    }

    fn mul_hi_u32(&self, s: &mut Isel<'_>, d: MOp, a: MOp, b: MOp) {
        s.emit(SassInst::new(op!(IMAD.HI.U32), [d, a, b, MOp::rz()]));
    }

    fn iabs(&self, s: &mut Isel<'_>, d: MOp, x: MOp) {
        s.emit(SassInst::new(op!(IABS), [d, x]));
    }

    fn minmax(&self, s: &mut Isel<'_>, d: MOp, a: MOp, b: MOp, unsigned: bool, max: bool) {
        let opcode = if unsigned { op!(VIMNMX.U32) } else { op!(VIMNMX) };
        s.emit(SassInst::new(opcode, [d, a, b, MOp::Pred { num: 7, not: max }]));
    }

    fn compare64(&self, s: &mut Isel<'_>, cc: Tok, unsigned: bool, a: [MOp; 2], b: [MOp; 2]) {
        s.emit(SassInst::new(op!(ISETP).with([cc, t::U32, t::AND]), [MOp::p0(), MOp::pt(), a[0], b[0], MOp::pt()]));
        let u = unsigned.then_some(t::U32);
        let hi = [MOp::p0(), MOp::pt(), a[1], b[1], MOp::pt(), MOp::p0()];
        s.emit(SassInst::new(op!(ISETP).with(cc).with(u).with(toks!(AND.EX)), hi));
    }


    fn index_scaled(
        &self,
        s: &mut Isel<'_>,
        d: VReg,
        x: VReg,
        scale: i64,
        signed: bool,
        p: VReg,
    ) -> Result<(), String> {
        let opcode = if signed { op!(IMAD.WIDE) } else { op!(IMAD.WIDE.U32) };
        s.emit(SassInst::new(opcode, [MOp::def(d.reg(), 2), MOp::use_(x), MOp::Imm(scale), MOp::use_pair(p)]));
        Ok(())
    }

    fn index_cbank(&self, s: &mut Isel<'_>, d: VReg, x: VReg, offset: u32, k: i64) {
        let lo = SassInst::new(op!(LEA), [MOp::rz(), CARRY, MOp::use_(x), MOp::CBank(offset), MOp::Imm(k)]);
        let hi_ops = [MOp::rz(), MOp::use_(x), MOp::CBank(offset + 4), MOp::rz(), MOp::Imm(k), CARRY];
        s.pair_op(d, lo, SassInst::new(op!(LEA.HI.X), hi_ops));
    }

    fn add_sext(&self, s: &mut Isel<'_>, d: VReg, p: VReg, o: VReg) {
        let lo = self.add_carry_out(MOp::rz(), MOp::use_(p.lo()), MOp::use_(o));
        let hi = [MOp::rz(), MOp::use_(o), MOp::use_(p.hi()), MOp::Imm(1), CARRY];
        s.pair_op(d, lo, SassInst::new(op!(LEA.HI.X.SX32), hi));
    }

    fn shift64(&self, s: &mut Isel<'_>, d: VReg, op: BinaryOp, a: VReg, amount: i64) -> Result<(), String> {
        let (lo, hi) = match (op, amount >= 32) {
            (BinaryOp::Ishl, false) => (
                self.shl(MOp::rz(), MOp::use_(a.lo()), MOp::Imm(amount), false),
                SassInst::new(op!(SHF.L.U64.HI), [MOp::rz(), MOp::use_(a.lo()), MOp::Imm(amount), MOp::use_(a.hi())]),
            ),
            (BinaryOp::Ishl, true) => (
                self.mov(&[MOp::rz()], MOp::rz()),
                self.shl(MOp::rz(), MOp::use_(a.lo()), MOp::Imm(amount - 32), false),
            ),
            (_, false) => (
                SassInst::new(op!(SHF.R.U64), [MOp::rz(), MOp::use_(a.lo()), MOp::Imm(amount), MOp::use_(a.hi())]),
                self.shr(MOp::rz(), MOp::use_(a.hi()), MOp::Imm(amount), op == BinaryOp::Sshr, false),
            ),
            (_, true) => (
                self.shr(MOp::rz(), MOp::use_(a.hi()), MOp::Imm(amount - 32), op == BinaryOp::Sshr, false),
                if op == BinaryOp::Ushr {
                    self.mov(&[MOp::rz()], MOp::rz())
                } else {
                    self.shr(MOp::rz(), MOp::use_(a.hi()), MOp::Imm(31), true, false)
                },
            ),
        };
        s.pair_op(d, lo, hi);
        Ok(())
    }

    /// ptxas 13 on `and.b32 n, n, 63` and `shl.b64`/`shr.u64`/`shr.s64` by `n`:
    /// `SHF.L.U32 lo, a.lo, n, RZ` + `SHF.L.U64.HI hi, a.lo, n, a.hi`; `SHF.R.U64 lo, a.lo, n,
    /// a.hi` + `SHF.R.U32.HI hi, RZ, n, a.hi`; `SHF.R.S64` + `SHF.R.S32.HI` (no `.W`: the
    /// clamping forms give 0 or the sign for the word shifted out).
    fn shift64_by(&self, s: &mut Isel<'_>, d: VReg, op: BinaryOp, a: VReg, k: VReg) {
        let (lo, hi, n) = (MOp::use_(a.lo()), MOp::use_(a.hi()), MOp::use_(k));
        let (lo_inst, hi_inst) = match op {
            BinaryOp::Ishl => (self.shl(MOp::rz(), lo, n, false), SassInst::new(op!(SHF.L.U64.HI), [MOp::rz(), lo, n, hi])),
            _ => {
                let signed = op == BinaryOp::Sshr;
                let funnel = if signed { op!(SHF.R.S64) } else { op!(SHF.R.U64) };
                (SassInst::new(funnel, [MOp::rz(), lo, n, hi]), self.shr(MOp::rz(), hi, n, signed, false))
            }
        };
        s.pair_op(d, lo_inst, hi_inst);
    }

    /// ptxas 13.5's min.f64/max.f64: `DSETP.MIN.AND P0, P1, a, b, PT` (P0: a is the result,
    /// minNum/maxNum; P1: both NaN), the halves picked with `SEL`/`FSEL ... !P0`, and `@P1
    /// LOP3.LUT hi, b.hi, 0x80000, RZ, 0xfc` quietening the NaN.
    fn fminmax64(&self, s: &mut Isel<'_>, d: VReg, a: VReg, b: VReg, max: bool) {
        let cmp = if max { op!(DSETP.MAX.AND) } else { op!(DSETP.MIN.AND) };
        let (p0, p1) = (MOp::p0(), MOp::Pred { num: 1, not: false });
        s.emit(SassInst::new(cmp, [p0, p1, MOp::use_pair(a), MOp::use_pair(b), MOp::pt()]));
        let not_p0 = MOp::Pred { num: 0, not: true };
        let hi = s.new_vreg(RegClass::Single);
        s.emit(SassInst::new(op!(SEL), [MOp::def(hi.reg(), 1), MOp::use_(b.hi()), MOp::use_(a.hi()), not_p0]));
        let quiet = s.new_vreg(RegClass::Single);
        let ops = [MOp::def(quiet.reg(), 1), MOp::use_(b.hi()), MOp::Imm(0x80000), MOp::rz(), MOp::Imm(0xfc), NOT_PT];
        s.emit(SassInst::new(op!(LOP3.LUT), ops));
        s.pair_op(
            d,
            SassInst::new(op!(SEL), [MOp::rz(), MOp::use_(b.lo()), MOp::use_(a.lo()), not_p0]),
            SassInst::new(op!(SEL), [MOp::rz(), MOp::use_(quiet), MOp::use_(hi), p1]),
        );
    }

    fn f64_one(&self, _s: &mut Isel<'_>) -> MOp {
        MOp::F32(1.0)
    }

    fn compare_imm(&self, _s: &mut Isel<'_>, v: i64) -> MOp {
        MOp::Imm(v)
    }

    fn scan_exclusive(&self, s: &mut Isel<'_>, d: VReg, base: VReg, sum: VReg, x: VReg) {
        let ops = [MOp::def(d.reg(), 1), MOp::use_(base.reg()), MOp::use_(sum.reg()), MOp::neg(x.reg())];
        s.emit(SassInst::new(op!(IADD3), ops));
    }

    fn active_lanes(&self, s: &mut Isel<'_>, in_register: bool) -> Result<MOp, IselError> {
        let Some(mask) = s.target.warp_aggregation.as_ref().map(|agg| MOp::UReg(agg.mask_ureg)) else {
            return Err(s.err("no uniform register to vote the active lanes into"));
        };
        s.vote_any_into(mask, None)?;
        if !in_register {
            return Ok(mask);
        }
        let m = s.new_vreg(RegClass::Single);
        s.emit(self.mov(&[MOp::def(m.reg(), 1)], mask));
        Ok(MOp::use_(m.reg()))
    }

    fn reduce_lanes(&self, s: &mut Isel<'_>, op: ReduceOp, x: VReg) -> Result<VReg, String> {
        let Some(sum) = s.target.warp_aggregation.as_ref().map(|agg| MOp::UReg(agg.sum_ureg)) else {
            return Err("no uniform register to reduce the lanes into".into());
        };
        s.emit(SassInst::new(subgroup::redux(op), [sum, MOp::use_(x.reg())]));
        let total = s.new_vreg(RegClass::Single);
        s.emit(self.mov(&[MOp::def(total.reg(), 1)], sum));
        Ok(total)
    }

    fn barrier(&self, s: &mut Isel<'_>) {
        s.emit(SassInst::new(op!(BAR.SYNC.DEFER_BLOCKING), [MOp::Imm(0)]));
    }

    fn surface_slot(&self, s: &mut Isel<'_>, word: u32) -> MOp {
        let r = s.new_vreg(RegClass::Single);
        s.emit(SassInst::new(op!(LDC), [MOp::def(r.reg(), 1), MOp::CBank(word)]));
        MOp::use_(r.reg())
    }

    fn bits(&self, s: &mut Isel<'_>, d: VReg, data: &InstData) -> Result<(), IselError> {
        match *data {
            InstData::Unary { op, arg } => s.bit_count(d, op, arg),
            InstData::Binary { op, args: [a, b] } => s.mulhi90(d, op, a, b),
            InstData::Ternary { op: TernaryOp::Fma, args } => s.fma(d, &args),
            InstData::Ternary { op, args: [x, pos, len] } => s.bit_field(d, x, None, pos, len, op == TernaryOp::Sbfe),
            InstData::Bfi { args: [x, base, pos, len] } => s.bit_field(d, x, Some(base), pos, len, false),
            _ => Err(s.err(format!("no selection for {}", data.opcode_name()))),
        }
    }

    fn subgroup(&self, s: &mut Isel<'_>, d: VReg, data: &InstData) -> Result<(), IselError> {
        s.subgroup(d, data)
    }

    fn int_float(&self, s: &mut Isel<'_>, d: VReg, op: ConvOp, from: Type, to: Type, r: VReg) -> Result<(), IselError> {
        convert::int_float(s, d, op, from, to, r);
        Ok(())
    }

    fn f16_arith(&self, s: &mut Isel<'_>, d: VReg, op: BinaryOp, a: VReg, b: VReg) -> Result<(), IselError> {
        convert::f16_arith(s, d, op, a, b)
    }

    fn f16_convert(&self, s: &mut Isel<'_>, d: VReg, from: Type, to: Type, r: VReg) -> Result<(), IselError> {
        convert::f16_convert(s, d, from, to, r)
    }

    /// The shared window's generic address: the shared address (the offset plus the window's
    /// base, [`crate::sass::target::SharedWindow`]) under the window's high word. ptxas 13 on
    /// `mov.u32 %r2, sm; add.u32 %r3, %r2, %r1; cvt.u64.u32 %rd3, %r3; cvta.shared.u64 %rd4,
    /// %rd3` (sm_90): `S2UR UR5, SR_CgaCtaId`, `UMOV UR4, 0x400`, `S2R R5, SR_SWINHI`, `ULEA
    /// UR4, UR5, UR4, 0x18`, `VIADD R2, R2, UR4`, `MOV R3, R5` (the pair R2:R3).
    fn shared_to_generic(&self, s: &mut Isel<'_>, d: VReg, ptr: Value) -> Result<(), IselError> {
        let Some(base) = s.target.shared_window.as_ref().map(|w| w.base_ureg) else {
            return Err(s.err("the target has no shared window"));
        };
        let p = s.reg(ptr);
        let hi = s.new_vreg(RegClass::Single);
        s.emit(SassInst::new(op!(S2R), [MOp::def(hi.reg(), 1), MOp::SReg(&"SR_SWINHI")]));
        let lo = s.new_vreg(RegClass::Single);
        s.emit(self.add(MOp::def(lo.reg(), 1), MOp::use_(p.reg()), MOp::UReg(base)));
        s.make_pair(d, MOp::use_(lo.reg()), MOp::use_(hi.reg()));
        Ok(())
    }

    fn atomic_cas(&self, s: &mut Isel<'_>, data: &InstData) -> Result<(), IselError> {
        s.cas(data)
    }

    fn generic_access(&self, _s: &mut Isel<'_>, _data: &InstData) -> Result<bool, IselError> {
        Ok(false)
    }
}
