//! sm_50 (Maxwell): the selection rules ([`Sm50`]) and the rooms where sm_50 selects whole IR
//! instructions its own way, as ptxas 11.8 writes them for Maxwell.
//!
//! Where Maxwell differs from the sm_70+ instructions of the shared selector:
//!
//! | operation                           | sm_70+ (sm_90)                  | sm_50                                   |
//! | ----------------------------------- | ------------------------------- | --------------------------------------- |
//! | constant-bank load                  | `LDC`, `LDC.64`                 | `MOV Rd, c[0x0][o]` (64-bit: two)       |
//! | move of an immediate                | `MOV`                           | `MOV32I`                                |
//! | 32-bit add                          | `IADD3 d, a, b, RZ`             | `IADD d, a, b` / `IADD32I d, a, imm`    |
//! | 64-bit add (carry)                  | `IADD3 d, P1, ..` + `IADD3.X`   | `IADD d.CC` + `IADD.X` (`32I` forms)    |
//! | parameter + index << k              | `LEA` + `LEA.HI.X`              | `LEA.CC` + `LEA.HI.X`                   |
//! | pointer + ext(x) * 2^k              | `IMAD.WIDE{.U32}`               | `SHL` + `SHR` + `IADD.CC` / `IADD.X`    |
//! | pointer + ext(x) * c (other c)      | `IMAD.WIDE{.U32}`               | `MOV32I` + `XMAD`s + `IADD.CC`/`IADD.X` |
//! | pointer + sext(o)                   | `LEA.HI.X.SX32`                 | `SHR` + `IADD.X`                        |
//! | logic op                            | `LOP3.LUT .., lut, !PT`         | `LOP3.LUT` / `LOP32I.op`                |
//! | 32-bit shift                        | `SHF.L.U32` / `SHF.R.{U,S}32.HI`| `SHL` / `SHR{.U32}` (`.W` alike)        |
//! | 64-bit shift                        | `SHF.L.U64.HI` / `SHF.R.U64`    | `SHF.L.U64` (high word) / `SHF.R.U64`   |
//! | multiply(-add), high word, 64-bit   | `IMAD`, `IMAD.HI`, `IMAD.WIDE`  | `XMAD` sequences (`alu.rs`)             |
//! | `|x|`                               | `IABS`                          | `SHR` + `LOP3.LUT` + `IADD`             |
//! | 64-bit compare                      | `ISETP .. .EX`                  | `IADD RZ.CC` + `ISETP .. .X`            |
//! | atomics                             | `ATOMG.E.op PT, Rd, ..`, `REDG` | `ATOM.E.op Rd, ..`, `RED` (size `U64`)  |
//! | barrier                             | `BAR.SYNC.DEFER_BLOCKING`       | `BAR.SYNC` + `MEMBAR.CTA`               |
//!
//! The carry between `IADD .CC` and `IADD.X` is the condition-code register, which nothing in
//! between writes (register-allocator moves are MOVs). What sm_50 cannot select is refused at
//! the call that asks for it ([`Isa`]'s `Result`s).
//!
//! Rooms: bit counts and fields (`bits.rs`), subgroup instructions (`subgroup.rs`), integer/float
//! and f16 conversions (`convert.rs`), generic addresses (`generic.rs`) and atomics and CAS
//! (`memory.rs`).

mod alu;
mod bits;
mod convert;
mod generic;
mod memory;
mod subgroup;

use super::isa::{DivCvt, Isa};
use super::{Isel, IselError};
use crate::sass::inst::{MOp, SassInst};
use crate::vcode::{OperandRule, Reg, RegClass, RegForm, VReg};
use alu::is_rz;
use atomc_ir::{AddrSpace, BinaryOp, ConvOp, InstData, ReduceOp, Type, Value};
use atomc_sass::op;
use atomc_sass::op::{t, Opcode, Tok, Toks};

/// The sm_50 selection rules.
pub(crate) struct Sm50;

impl Isa for Sm50 {
    fn mov(&self, dst: &[MOp], src: MOp) -> SassInst {
        match src {
            MOp::Imm(v) => SassInst::new(op!(MOV32I), dst.iter().copied().chain([MOp::Imm(v as u32 as i64)])),
            MOp::F32(f) if dst.len() == 1 => SassInst::new(op!(MOV32I), [dst[0], MOp::Imm(f.to_bits() as i64)]),
            _ => SassInst::new(op!(MOV), dst.iter().copied().chain([src])),
        }
    }

    fn add(&self, d: MOp, a: MOp, b: MOp) -> SassInst {
        // The negated source goes second (`IADD d, RZ, -r`).
        let (a, b) = if matches!(a, MOp::Reg { neg: true, .. }) { (b, a) } else { (a, b) };
        match b {
            MOp::Imm(v) => SassInst::new(op!(IADD32I), [d, a, MOp::Imm(v as i32 as i64)]),
            _ => SassInst::new(op!(IADD), [d, a, b]),
        }
    }

    fn add_carry_out(&self, d: MOp, a: MOp, b: MOp) -> SassInst {
        match (a, b) {
            (MOp::Reg { neg: false, .. }, MOp::Imm(v)) => {
                SassInst::new(op!(IADD32I.CC), [d, a, MOp::Imm(v as i32 as i64)])
            }
            _ => {
                let (a, b) = if matches!(a, MOp::Reg { neg: true, .. }) { (b, a) } else { (a, b) };
                SassInst::new(op!(IADD.CC), [d, a, b])
            }
        }
    }

    fn add_carry_in(&self, d: MOp, a: MOp, b: MOp) -> SassInst {
        match b {
            MOp::Imm(v) => SassInst::new(op!(IADD32I.X), [d, a, MOp::Imm(v as i32 as i64)]),
            _ => SassInst::new(op!(IADD.X), [d, a, b]),
        }
    }

    fn lop3(&self, d: MOp, a: MOp, b: MOp, c: MOp, lut: u8) -> Result<SassInst, String> {
        let op = match lut {
            0xc0 => Some((op!(LOP32I.AND), op!(LOP.AND))),
            0xfc => Some((op!(LOP32I.OR), op!(LOP.OR))),
            0x3c => Some((op!(LOP32I.XOR), op!(LOP.XOR))),
            _ => None,
        };
        match (op, b) {
            (Some((op, _)), MOp::Imm(v)) if is_rz(&c) => Ok(SassInst::new(op, [d, a, MOp::Imm(v as u32 as i64)])),
            // A kernel parameter: LOP's constant shape (`LOP.AND R3, R2, c[0x0][0x148]`).
            (Some((_, op)), MOp::CBank(_)) if is_rz(&c) => Ok(SassInst::new(op, [d, a, b])),
            // ~b as b ^ 0xffffffff.
            _ if lut == 0x33 && is_rz(&a) && is_rz(&c) && matches!(b, MOp::Reg { .. }) => {
                Ok(SassInst::new(op!(LOP32I.XOR), [d, b, MOp::Imm(0xffff_ffff)]))
            }
            (_, MOp::Reg { .. }) => Ok(SassInst::new(op!(LOP3.LUT), [d, a, b, c, MOp::Imm(lut as i64)])),
            _ => Err(format!("LOP3 LUT {lut:#x} with an immediate or constant operand has no sm_50 form")),
        }
    }

    fn shl(&self, d: MOp, x: MOp, k: MOp, wrap: bool) -> SassInst {
        SassInst::new(if wrap { op!(SHL.W) } else { op!(SHL) }, [d, x, k])
    }

    fn shr(&self, d: MOp, x: MOp, k: MOp, signed: bool, wrap: bool) -> SassInst {
        let opcode = match (signed, wrap) {
            (false, false) => op!(SHR.U32),
            (false, true) => op!(SHR.U32.W),
            (true, false) => op!(SHR),
            (true, true) => op!(SHR.W),
        };
        SassInst::new(opcode, [d, x, k])
    }

    fn dfma(&self, d: MOp, a: MOp, b: MOp, c: MOp) -> SassInst {
        match (a, b) {
            (MOp::Reg { neg: true, .. }, MOp::Reg { neg: false, .. }) => SassInst::new(op!(DFMA), [d, b, a, c]),
            _ => SassInst::new(op!(DFMA), [d, a, b, c]),
        }
    }

    fn shfl_up(&self, p: MOp, d: MOp, x: MOp, delta: MOp) -> SassInst {
        SassInst::new(op!(SHFL.UP), [p, d, x, delta, MOp::rz()])
    }

    fn division_cvt(&self, c: DivCvt) -> Opcode {
        match c {
            DivCvt::U32ToF32Up => op!(I2F.F32.U32.RP),
            DivCvt::U64ToF32Up => op!(I2F.F32.U64.RP),
            DivCvt::F32ToU32Trunc => op!(F2I.FTZ.U32.F32.TRUNC),
            DivCvt::F32ToU64Trunc => op!(F2I.U64.F32.TRUNC),
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
        let rest = spelled.with(strong);
        match (space, d) {
            (AddrSpace::Shared, Some(d)) => match memory::atom_size(spelled) {
                Some(size) if !size.has(t::F32) => Ok(SassInst::new(op!(ATOMS).with(size), [d, m, x]).with_form(form)),
                _ => Err(format!("`{spelled}` has no sm_50 ATOMS form")),
            },
            (_, Some(d)) => match memory::atom_size(rest) {
                Some(size) => Ok(SassInst::new(op!(ATOM.E).with(size), [d, m, x]).with_form(form)),
                None => Err(format!("`{rest}` has no sm_50 ATOM form")),
            },
            (_, None) => {
                let Some(size) = memory::atom_size(rest) else {
                    return Err(format!("`{rest}` has no sm_50 RED form"));
                };
                // ptxas 11.8 emits a 64-bit RED only for ADD; every other 64-bit reduction
                // becomes `ATOM.E.op.U64 RZ, [a], b` (`red.global.min.u64` → `ATOM.E.MIN.U64 RZ`).
                Ok(if (size.has(t::U64) || size.has(t::S64)) && !size.has(t::ADD) {
                    SassInst::new(op!(ATOM.E).with(size), [MOp::rz(), m, x])
                } else {
                    SassInst::new(op!(RED.E).with(size), [m, x])
                })
            }
        }
    }

    fn surface_rmw(&self, mods: Toks, d: Option<MOp>, addr: MOp, data: MOp, handle: MOp, form: RegForm) -> SassInst {
        // sm_50 spells the 64-bit size U64. An unused result is a SURED where ptxas 11.8 emits
        // one for the op and size, otherwise SUATOM into RZ.
        let mods = mods.map(|x| if x == t::_64 { t::U64 } else { x });
        match d {
            Some(d) => SassInst::new(op!(SUATOM).with(mods), [d, addr, data, handle]).with_form(form),
            None if memory::sured(mods) => SassInst::new(op!(SURED).with(mods), [addr, data, handle]).with_form(form),
            None => {
                let width = if let MOp::Reg { width, .. } = data { width } else { 1 };
                let rz = MOp::Reg { reg: Reg::Zero, width, rule: OperandRule::Def, neg: false };
                let form = match form {
                    RegForm::SurfaceAtom { coords, wide, cas, bindless, .. } => {
                        RegForm::SurfaceAtom { coords, wide, cas, has_dst: true, bindless }
                    }
                    other => other,
                };
                SassInst::new(op!(SUATOM).with(mods), [rz, addr, data, handle]).with_form(form)
            }
        }
    }

    fn load_cbank(&self, s: &mut Isel<'_>, r: VReg, ty: Type, offset: u32) {
        let def = MOp::def(r.reg(), r.class().width());
        match ty.bytes() {
            8 => {
                let tmp = s.new_vreg(RegClass::Pair);
                s.emit(SassInst::new(op!(MOV), [MOp::def(tmp.lo(), 2), MOp::CBank(offset)]));
                let hi = [MOp::Tied { reg: tmp.reg(), width: 2 }, MOp::reuse_def(r.hi(), 0), MOp::CBank(offset + 4)];
                s.emit(SassInst::new(op!(MOV), hi));
            }
            // Sub-word parameters zero-extended, as on sm_90 (`LDC.U16 Rd, c[0x0][o]`; the form
            // is nvdisasm-checked in the sm_50 table).
            1 => s.emit(SassInst::new(op!(LDC.U8), [def, MOp::CBank(offset)])),
            2 => s.emit(SassInst::new(op!(LDC.U16), [def, MOp::CBank(offset)])),
            _ => s.emit(SassInst::new(op!(MOV), [def, MOp::CBank(offset)])),
        }
    }

    fn imad(&self, s: &mut Isel<'_>, dst: &[MOp], a: MOp, b: MOp, c: MOp) {
        alu::imad(s, dst, a, b, c)
    }

    fn mul_wide_u32(&self, s: &mut Isel<'_>, d: VReg, a: MOp, b: MOp) {
        alu::mul_wide_u32(s, d, a, b)
    }

    fn mul_hi_u32(&self, s: &mut Isel<'_>, d: MOp, a: MOp, b: MOp) {
        alu::mul_hi_u32(s, d, a, b)
    }

    fn iabs(&self, s: &mut Isel<'_>, d: MOp, x: MOp) {
        alu::iabs(s, d, x)
    }

    fn minmax(&self, s: &mut Isel<'_>, d: MOp, a: MOp, b: MOp, unsigned: bool, max: bool) {
        alu::minmax(s, d, a, b, unsigned, max)
    }

    fn compare64(&self, s: &mut Isel<'_>, cc: Tok, unsigned: bool, a: [MOp; 2], b: [MOp; 2]) {
        alu::compare64(s, cc, unsigned, a, b)
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
        alu::index_scaled(s, d, x, scale, signed, p)
    }

    fn index_cbank(&self, s: &mut Isel<'_>, d: VReg, x: VReg, offset: u32, k: i64) {
        let lo = SassInst::new(op!(LEA.CC), [MOp::rz(), MOp::use_(x), MOp::CBank(offset), MOp::Imm(k)]);
        // sm_50's LEA.HI.X takes the carry from CC: no carry operand.
        let hi = SassInst::new(op!(LEA.HI.X), [MOp::rz(), MOp::use_(x), MOp::CBank(offset + 4), MOp::rz(), MOp::Imm(k)]);
        s.pair_op(d, lo, hi);
    }

    fn add_sext(&self, s: &mut Isel<'_>, d: VReg, p: VReg, o: VReg) {
        alu::add_sext(s, d, p, o)
    }

    fn shift64(&self, s: &mut Isel<'_>, d: VReg, op: BinaryOp, a: VReg, amount: i64) -> Result<(), String> {
        alu::shift64(s, d, op, a, amount)
    }

    fn shift64_by(&self, s: &mut Isel<'_>, d: VReg, op: BinaryOp, a: VReg, k: VReg) {
        alu::shift64_by(s, d, op, a, MOp::use_(k))
    }

    /// ptxas 11.8's min.f64/max.f64: `DMNMX R2, R10, c[0x0][0x150], PT` (max: `!PT`),
    /// minNum/maxNum; two NaNs give the canonical NaN.
    fn fminmax64(&self, s: &mut Isel<'_>, d: VReg, a: VReg, b: VReg, max: bool) {
        let p = MOp::Pred { num: 7, not: max };
        s.emit(SassInst::new(op!(DMNMX), [MOp::def(d.reg(), 2), MOp::use_pair(a), MOp::use_pair(b), p]));
    }

    fn f64_one(&self, s: &mut Isel<'_>) -> MOp {
        let one = s.new_vreg(RegClass::Pair);
        s.make_pair(one, MOp::rz(), MOp::Imm(0x3ff0_0000));
        MOp::use_pair(one)
    }

    fn compare_imm(&self, s: &mut Isel<'_>, v: i64) -> MOp {
        if (-(1 << 19)..(1 << 19)).contains(&v) {
            return MOp::Imm(v);
        }
        let t = s.new_vreg(RegClass::Single);
        s.emit(self.mov(&[MOp::def(t.reg(), 1)], MOp::Imm(v)));
        MOp::use_(t)
    }

    fn scan_exclusive(&self, s: &mut Isel<'_>, d: VReg, base: VReg, sum: VReg, _x: VReg) {
        let from = s.new_vreg(RegClass::Single);
        s.emit(self.shfl_up(MOp::p0(), MOp::def(from.reg(), 1), MOp::use_(sum.reg()), MOp::Imm(1)));
        let below = s.new_vreg(RegClass::Single);
        s.emit(SassInst::new(op!(SEL), [MOp::def(below.reg(), 1), MOp::use_(from.reg()), MOp::rz(), MOp::p0()]));
        s.emit(self.add(MOp::def(d.reg(), 1), MOp::use_(base.reg()), MOp::use_(below.reg())));
    }

    fn active_lanes(&self, s: &mut Isel<'_>, _in_register: bool) -> Result<MOp, IselError> {
        Ok(MOp::use_(s.active50().reg()))
    }

    fn reduce_lanes(&self, _s: &mut Isel<'_>, _op: ReduceOp, _x: VReg) -> Result<VReg, String> {
        Err("a reduction across the lanes in one instruction (`REDUX`) has no sm_50 form".into())
    }

    fn barrier(&self, s: &mut Isel<'_>) {
        s.emit(SassInst::new(op!(BAR.SYNC), [MOp::Imm(0)]));
        s.emit(SassInst::new(op!(MEMBAR.CTA), []));
    }

    fn surface_slot(&self, _s: &mut Isel<'_>, word: u32) -> MOp {
        MOp::Imm(i64::from(word / 4))
    }

    fn bits(&self, s: &mut Isel<'_>, d: VReg, data: &InstData) -> Result<(), IselError> {
        match *data {
            InstData::Binary { op, args: [a, b] } if op == BinaryOp::Umulhi || s.ty(a) != Type::I32 => s.mulhi(d, op, a, b),
            _ => s.bits_sm50(d, data),
        }
    }

    fn subgroup(&self, s: &mut Isel<'_>, d: VReg, data: &InstData) -> Result<(), IselError> {
        s.subgroup_sm50(d, data)
    }

    fn int_float(&self, s: &mut Isel<'_>, d: VReg, op: ConvOp, from: Type, to: Type, r: VReg) -> Result<(), IselError> {
        s.int_float_sm50(d, op, from, to, r);
        Ok(())
    }

    fn f16_arith(&self, s: &mut Isel<'_>, d: VReg, op: BinaryOp, a: VReg, b: VReg) -> Result<(), IselError> {
        s.half_arith_sm50(d, op, a, b)
    }

    fn f16_convert(&self, s: &mut Isel<'_>, d: VReg, from: Type, to: Type, r: VReg) -> Result<(), IselError> {
        s.half_convert_sm50(d, from, to, r)
    }

    fn shared_to_generic(&self, s: &mut Isel<'_>, d: VReg, ptr: Value) -> Result<(), IselError> {
        s.shared_to_generic_sm50(d, ptr);
        Ok(())
    }

    fn atomic_cas(&self, s: &mut Isel<'_>, data: &InstData) -> Result<(), IselError> {
        s.lower_cas_sm50(data)
    }

    fn generic_access(&self, s: &mut Isel<'_>, data: &InstData) -> Result<bool, IselError> {
        if !s.is_generic_access(data) {
            return Ok(false);
        }
        s.lower_generic_sm50(data)?;
        Ok(true)
    }
}
