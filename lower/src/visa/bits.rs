//! Bit counts, bit fields, `fma` and multiply-high on vISA.
//!
//! `popcnt`, `clz`, `ctz` and `bitrev` are `cbit`, `lzd`, `fbl` and `bfrev` (the instructions
//! IGC gives `llvm.ctpop`, `llvm.ctlz`, `llvm.cttz` and `llvm.bitreverse`), adjusted for the
//! narrow types, which live zero-extended in a dword. The bit-field ops read `pos` and `len`
//! modulo 256 where vISA's `bfe`/`bfi` read them modulo 32, so the cases the hardware fields
//! cannot express (a field reaching the top, starting above it, or 32 bits wide) are patched
//! with predicated moves.

use atomc_ir::{BinaryOp, Inst, InstData, TernaryOp, Type as IrType, UnaryOp, Value};

use super::{Lower, LowerError};
use atomc_visa::{Imm, Op, Operand, Predicate, Relop, Type, VarId};

/// Whether [`lower`] handles the instruction.
pub(crate) fn handles(data: &InstData) -> bool {
    matches!(
        data,
        InstData::Unary { op: UnaryOp::Popcnt | UnaryOp::Clz | UnaryOp::Ctz | UnaryOp::Bitrev, .. }
            | InstData::Binary { op: BinaryOp::Umulhi | BinaryOp::Smulhi, .. }
            | InstData::Ternary { .. }
            | InstData::Bfi { .. }
    )
}

fn ud(v: u32) -> Operand {
    Operand::imm(Imm::ud(v))
}

impl Lower<'_> {
    /// A source reading `var` (one element when `uniform`).
    pub(crate) fn rd(&self, var: VarId, uniform: bool) -> Operand {
        if uniform {
            Operand::scalar(var)
        } else {
            Operand::src(var)
        }
    }

    /// `v` masked to its low 8 bits (`pos` and `len` of the bit-field ops).
    fn low8(&mut self, v: Value, u: bool) -> Result<Operand, LowerError> {
        let s = self.src(v, Type::UD)?;
        if let Operand::Imm(i) = s {
            return Ok(ud(i.bits as u32 & 0xff));
        }
        let t = self.tmp(Type::UD, u);
        let ex = self.exec(u);
        self.k.binary(Op::And, ex, Operand::dst(t), s, ud(0xff));
        Ok(self.rd(t, u))
    }
}

/// Lowers one instruction of [`handles`].
pub(crate) fn lower(l: &mut Lower<'_>, inst: Inst) -> Result<(), LowerError> {
    let f = l.f;
    let Some(res) = f.inst_result(inst) else { return Ok(()) };
    let u = l.is_uniform(res);
    let ex = l.exec(u);
    let rt = f.value_type(res);
    let width = rt.bits();
    match f.insts[inst] {
        InstData::Unary { op, arg } if width == 64 => counts64(l, op, arg, res, u)?,
        InstData::Unary { op, arg } => {
            let a = l.src(arg, Type::UD)?;
            let a = if matches!(a, Operand::Imm(_)) {
                let t = l.tmp(Type::UD, u);
                l.k.mov(ex, Operand::dst(t), a);
                l.rd(t, u)
            } else {
                a
            };
            let r = l.def_var(res, u)?;
            let rs = l.rd(r, u);
            let d = Operand::dst(r);
            match op {
                UnaryOp::Popcnt => {
                    l.k.unary(Op::Cbit, ex, d, a);
                }
                // lzd counts 32 for 0; a narrow value has 32 - width zeros above it.
                UnaryOp::Clz => {
                    l.k.unary(Op::Lzd, ex, d, a);
                    if width < 32 {
                        l.k.add(ex, d, rs, Operand::imm(Imm::d(-(32 - width as i32))));
                    }
                }
                // fbl gives 0xffffffff for 0, where ctz is the width.
                UnaryOp::Ctz => {
                    l.k.unary(Op::Fbl, ex, d, a);
                    l.k.binary(Op::Min, ex, d, rs, ud(width));
                }
                _ => {
                    l.k.unary(Op::Bfrev, ex, d, a);
                    if width < 32 {
                        l.k.binary(Op::Shr, ex, d, rs, ud(32 - width));
                    }
                }
            }
        }
        InstData::Binary { op, args } if width == 64 => {
            let (a, b) = (l.halves(args[0], false)?, l.halves(args[1], false)?);
            let r = l.def_var(res, u)?;
            l.mulhi64(r, u, op == BinaryOp::Smulhi, a, b);
        }
        InstData::Binary { op, args } if width < 32 => {
            // The whole product of two extended sub-word values fits in a dword: its bits from
            // the width up, shifted in as zeros (the zero-extended form sub-word values keep).
            let signed = op == BinaryOp::Smulhi;
            let ty = if signed { Type::D } else { Type::UD };
            let (a, b) = if signed {
                (l.sext32(args[0])?, l.sext32(args[1])?)
            } else {
                (l.src(args[0], ty)?, l.src(args[1], ty)?)
            };
            let (a, b) = l.unimm(a, b, ty);
            let p = l.tmp(ty, u);
            l.k.binary(Op::Mul, ex, Operand::dst(p), a, b);
            let r = l.def_var(res, u)?;
            let d = l.dst(r, Type::UD);
            let pv = l.view(p, Type::UD);
            let ps = l.rd(pv, u);
            l.k.binary(Op::Shr, ex, d, ps, ud(width));
        }
        InstData::Binary { op, args } => {
            let ty = if op == BinaryOp::Smulhi { Type::D } else { Type::UD };
            let a = l.src(args[0], ty)?;
            let b = l.src(args[1], ty)?;
            let (a, b) = l.unimm(a, b, ty);
            let r = l.def_var(res, u)?;
            let d = l.dst(r, ty);
            l.k.binary(Op::Mulh, ex, d, a, b);
        }
        InstData::Ternary { op: TernaryOp::Fma, args } => {
            let ty = if rt == IrType::F32 { Type::F } else { Type::DF };
            let a = l.src_whole(args[0], ty)?;
            let b = l.src_whole(args[1], ty)?;
            let c = l.src_whole(args[2], ty)?;
            let (a, b) = l.unimm(a, b, ty);
            let r = l.def_var(res, u)?;
            // Gen's float mad rounds once (IGC selects it for llvm.fma).
            l.k.mad(ex, Operand::dst(r), a, b, c);
        }
        InstData::Ternary { op, args } => {
            let signed = op == TernaryOp::Sbfe;
            let ty = if signed { Type::D } else { Type::UD };
            let x = l.src(args[0], ty)?;
            let p = l.low8(args[1], u)?;
            let n = l.low8(args[2], u)?;
            let r = l.def_var(res, u)?;
            let d = l.dst(r, ty);
            if let (Operand::Imm(pi), Operand::Imm(ni)) = (p, n) {
                // A constant field: the one case that applies.
                let (pc, nc) = (pi.bits as u32, ni.bits as u32);
                let x = reg(l, x, ty, u);
                if nc == 0 || (pc >= 32 && !signed) {
                    l.k.mov(ex, d, Operand::imm(Imm { ty, bits: 0 }));
                } else if pc + nc >= 32 {
                    let op = if signed { Op::Asr } else { Op::Shr };
                    l.k.binary(op, ex, d, x, ud(pc.min(31)));
                } else {
                    l.k.push(atomc_visa::Inst::new(Op::Bfe, ex, atomc_visa::Ext::None, vec![d, n, p, x]));
                }
                return Ok(());
            }
            // The field reaches the top (or starts above it): x shifted down by p; for sbfe a
            // shift by min(p, 31) also gives the sign copies of a field starting above the top.
            if signed {
                let ts = match p {
                    Operand::Imm(i) => ud((i.bits as u32).min(31)),
                    p => {
                        let t = l.tmp(Type::UD, u);
                        l.k.binary(Op::Min, ex, Operand::dst(t), p, ud(31));
                        l.rd(t, u)
                    }
                };
                let (x, ts) = l.unimm(x, ts, ty);
                l.k.binary(Op::Asr, ex, d, x, ts);
            } else {
                let (x, p) = l.unimm(x, p, ty);
                l.k.binary(Op::Shr, ex, d, x, p);
            }
            // Inside the dword: the hardware field (p + l < 32, so both fit in 5 bits).
            let end = l.tmp(Type::UD, u);
            let (pp, nn) = l.unimm(p, n, Type::UD);
            l.k.add(ex, Operand::dst(end), pp, nn);
            let inside = l.tmp_pred();
            let pex = l.pred_exec(u);
            let ends = l.rd(end, u);
            l.k.cmp(pex, Relop::Lt, Operand::pred(inside), ends, ud(32));
            let x = reg(l, x, ty, u);
            l.k.push(atomc_visa::Inst::new(Op::Bfe, ex, atomc_visa::Ext::None, vec![d, n, p, x]))
                .predicated(Predicate::on(inside));
            // ubfe: nothing left at or above bit 32; sbfe: an empty field is 0.
            let zero = l.tmp_pred();
            let (relop, a) = if signed { (Relop::Eq, n) } else { (Relop::Ge, p) };
            let limit = if signed { 0 } else { 32 };
            let (a, b) = l.unimm(a, ud(limit), Type::UD);
            l.k.cmp(pex, relop, Operand::pred(zero), a, b);
            l.k.mov(ex, d, Operand::imm(Imm { ty, bits: 0 })).predicated(Predicate::on(zero));
        }
        InstData::Bfi { args } => {
            let x = l.src(args[0], Type::UD)?;
            let base = l.src(args[1], Type::UD)?;
            let p = l.low8(args[2], u)?;
            let n = l.low8(args[3], u)?;
            let r = l.def_var(res, u)?;
            let d = Operand::dst(r);
            if let (Operand::Imm(pi), Operand::Imm(ni)) = (p, n) {
                let (pc, nc) = (pi.bits as u32, ni.bits as u32);
                let xr = reg(l, x, Type::UD, u);
                let br = reg(l, base, Type::UD, u);
                if nc == 0 || pc >= 32 {
                    l.k.mov(ex, d, br);
                } else if pc == 0 && nc >= 32 {
                    l.k.mov(ex, d, xr);
                } else {
                    let w = ud(nc.min(32 - pc));
                    l.k.push(atomc_visa::Inst::new(Op::Bfi, ex, atomc_visa::Ext::None, vec![d, w, p, xr, br]));
                }
                return Ok(());
            }
            // The field is min(l, 32 - p) wide; 32 (p = 0, l >= 32) is all of x, which the
            // 5-bit width field cannot say; p >= 32 leaves base.
            let room = l.tmp(Type::D, u);
            let pd = match p {
                Operand::Imm(i) => Operand::imm(Imm::d(-(i.bits as i32))),
                o => super::alu::neg(retype(l, o, Type::D)),
            };
            l.k.add(ex, Operand::dst(room), pd, Operand::imm(Imm::d(32)));
            let w = l.tmp(Type::UD, u);
            let roomv = l.view(room, Type::UD);
            let rooms = l.rd(roomv, u);
            let (nn, rr) = l.unimm(n, rooms, Type::UD);
            l.k.binary(Op::Min, ex, Operand::dst(w), nn, rr);
            let ws = l.rd(w, u);
            let xr = reg(l, x, Type::UD, u);
            let br = reg(l, base, Type::UD, u);
            l.k.push(atomc_visa::Inst::new(Op::Bfi, ex, atomc_visa::Ext::None, vec![d, ws, p, xr, br]));
            let pex = l.pred_exec(u);
            let all = l.tmp_pred();
            l.k.cmp(pex, Relop::Ge, Operand::pred(all), ws, ud(32));
            l.k.mov(ex, d, xr).predicated(Predicate::on(all));
            let above = l.tmp_pred();
            let (pp, lim) = l.unimm(p, ud(32), Type::UD);
            l.k.cmp(pex, Relop::Ge, Operand::pred(above), pp, lim);
            l.k.mov(ex, d, br).predicated(Predicate::on(above));
        }
        _ => return Err(l.reject(inst, "not a bit, fma or multiply-high instruction")),
    }
    Ok(())
}

/// The 64-bit bit counts, on the dword halves (TGLLP and DG2 have no 64-bit integer ALU): the
/// count of the half that decides (the high one for clz, the low one for ctz), or 32 plus the
/// other's when it is 0; the high half of a count is 0.
fn counts64(l: &mut Lower<'_>, op: UnaryOp, arg: Value, res: Value, u: bool) -> Result<(), LowerError> {
    let ex = l.exec(u);
    let lo = l.half(arg, false, Type::UD)?;
    let hi = l.half(arg, true, Type::UD)?;
    let lo = reg(l, lo, Type::UD, u);
    let hi = reg(l, hi, Type::UD, u);
    let r = l.def_var(res, u)?;
    let dl = l.half_dst(r, u, false, Type::UD);
    let dh = l.half_dst(r, u, true, Type::UD);
    let rl = l.half_of(r, u, false, Type::UD);
    if op == UnaryOp::Bitrev {
        l.k.unary(Op::Bfrev, ex, dl, hi);
        l.k.unary(Op::Bfrev, ex, dh, lo);
        return Ok(());
    }
    match op {
        UnaryOp::Popcnt => {
            let t = l.tmp(Type::UD, u);
            l.k.unary(Op::Cbit, ex, dl, lo);
            l.k.unary(Op::Cbit, ex, Operand::dst(t), hi);
            let ts = l.rd(t, u);
            l.k.add(ex, dl, rl, ts);
        }
        UnaryOp::Clz | UnaryOp::Ctz => {
            let clz = op == UnaryOp::Clz;
            // The other half's count plus 32, replaced where the deciding half has a one.
            let (first, other) = if clz { (hi, lo) } else { (lo, hi) };
            let count = if clz { Op::Lzd } else { Op::Fbl };
            l.k.unary(count, ex, dl, other);
            if !clz {
                l.k.binary(Op::Min, ex, dl, rl, ud(32));
            }
            l.k.add(ex, dl, rl, ud(32));
            let some = l.tmp_pred();
            let pex = l.pred_exec(u);
            l.k.cmp(pex, Relop::Ne, Operand::pred(some), first, ud(0));
            l.k.unary(count, ex, dl, first).predicated(Predicate::on(some));
        }
        _ => return Err(l.unsupported("bit count", "not a bit count")),
    }
    l.k.mov(ex, dh, ud(0));
    Ok(())
}

/// `o` in a register (an immediate is moved into a temporary).
fn reg(l: &mut Lower<'_>, o: Operand, ty: Type, u: bool) -> Operand {
    if let Operand::Imm(_) = o {
        let t = l.tmp(ty, u);
        let ex = l.exec(u);
        l.k.mov(ex, Operand::dst(t), o);
        return l.rd(t, u);
    }
    o
}

/// A register source seen as `ty`.
fn retype(l: &mut Lower<'_>, o: Operand, ty: Type) -> Operand {
    match o {
        Operand::Src { var, row, col, region, .. } => Operand::src_at(l.view(var, ty), row, col, region),
        o => o,
    }
}
