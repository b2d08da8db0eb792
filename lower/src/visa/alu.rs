//! ALU instructions, conversions and pointer arithmetic.
//!
//! 32-bit and narrower integers are `ud` dwords (narrow ones zero-extended:
//! results that can carry into the upper bits are masked). 64-bit integers
//! and pointers are computed on their `ud` halves (`<2;1,0>` regions), since
//! TGLLP and DG2 have no 64-bit integer ALU and GenX_IR does not emulate one.

use atomc_ir::{BinaryOp, ConvOp, FloatCC, Inst, InstData, IntCC, Type as IrType, UnaryOp, Value};

use super::values::{canonical, is64, Loc};
use super::{Lower, LowerError};
use atomc_visa::{Imm, Op, Operand, Relop, SrcMod, Type, VarId};

/// A binary instruction being lowered: `res = op(args)`, in uniform registers where `u`.
#[derive(Clone, Copy)]
pub(crate) struct Binary {
    pub(crate) inst: Inst,
    pub(crate) op: BinaryOp,
    pub(crate) args: [Value; 2],
    pub(crate) res: Value,
    pub(crate) u: bool,
}

/// A conversion being lowered: `res = op(arg)` of type `to`, in uniform registers where `u`.
#[derive(Clone, Copy)]
pub(crate) struct Conversion {
    pub(crate) inst: Inst,
    pub(crate) op: ConvOp,
    pub(crate) to: IrType,
    pub(crate) arg: Value,
    pub(crate) res: Value,
    pub(crate) u: bool,
}

/// Negates a source: a modifier on a register, the value on an immediate.
pub(crate) fn neg(o: Operand) -> Operand {
    match o {
        Operand::Imm(i) => {
            let b = (i.bits as u32).wrapping_neg() as u64;
            Operand::imm(Imm { ty: i.ty, bits: b })
        }
        other => other.with_mod(SrcMod::Neg),
    }
}

/// The mask of an integer type's bits within a dword.
fn mask(t: IrType) -> Option<u32> {
    match t.bits() {
        8 => Some(0xff),
        16 => Some(0xffff),
        _ => None,
    }
}

impl Lower<'_> {
    fn op_text(&self, inst: Inst) -> String {
        atomc_ir::print::inst_to_string(self.f, inst).trim().to_string()
    }

    /// An unsupported-instruction error naming `inst`.
    pub(crate) fn reject(&self, inst: Inst, reason: &str) -> LowerError {
        self.unsupported(&self.op_text(inst), reason)
    }

    /// No usable fp64 ALU: TGLLP and DG2 have none (ocloc refuses `double`
    /// there), and GenX_IR cannot split a `df` instruction of exec size 2
    /// ("ReduceExecSize.cpp: no legal emask found", measured on PVC).
    pub(crate) fn no_fp64(&self) -> bool {
        self.p.lacks_int64_alu() || self.simd == atomc_visa::ExecSize::S2
    }

    /// Makes sure two sources are not both immediates (the first goes to a
    /// register).
    pub(crate) fn unimm(&mut self, a: Operand, b: Operand, ty: Type) -> (Operand, Operand) {
        if matches!(a, Operand::Imm(_)) && matches!(b, Operand::Imm(_)) {
            let t = self.tmp(ty, true);
            let ex = self.exec(true);
            self.k.mov(ex, Operand::dst(t), a);
            (Operand::scalar(t), b)
        } else {
            (a, b)
        }
    }

    /// `and dst, dst, mask` for narrow integer results.
    pub(crate) fn narrow(&mut self, var: VarId, t: IrType, uniform: bool) {
        if let Some(m) = mask(t) {
            let ex = self.exec(uniform);
            let s = if uniform {
                Operand::scalar(var)
            } else {
                Operand::src(var)
            };
            self.k
                .binary(Op::And, ex, Operand::dst(var), s, Operand::imm(Imm::ud(m)));
        }
    }

    /// A signed (`d`) source holding `v` sign-extended from its width.
    pub(crate) fn sext32(&mut self, v: Value) -> Result<Operand, LowerError> {
        let t = self.ty(v);
        let bits = t.bits();
        if bits >= 32 {
            return self.src(v, Type::D);
        }
        if let Loc::Const(c) = self.loc(v)? {
            let sh = 64 - bits;
            return Ok(Operand::imm(Imm::d(((c << sh) as i64 >> sh) as i32)));
        }
        let u = self.is_uniform(v);
        let tmp = self.tmp(Type::D, u);
        let ex = self.exec(u);
        let s = self.src(v, Type::D)?;
        let sh = Operand::imm(Imm::ud(32 - bits));
        let ts = if u { Operand::scalar(tmp) } else { Operand::src(tmp) };
        self.k.binary(Op::Shl, ex, Operand::dst(tmp), s, sh);
        self.k.binary(Op::Asr, ex, Operand::dst(tmp), ts, sh);
        Ok(ts)
    }

    /// The low and high halves of an integer value as `ud` sources; a
    /// narrower value is extended (signed or not) to 64 bits.
    pub(crate) fn halves(&mut self, v: Value, signed: bool) -> Result<(Operand, Operand), LowerError> {
        if is64(self.ty(v)) {
            return Ok((self.half(v, false, Type::UD)?, self.half(v, true, Type::UD)?));
        }
        let lo = if signed {
            self.sext32(v)?
        } else {
            self.src(v, Type::UD)?
        };
        if let Operand::Imm(i) = lo {
            let hi = if signed && (i.bits as u32 as i32) < 0 {
                0xffff_ffff
            } else {
                0
            };
            let lo = Operand::imm(Imm::ud(i.bits as u32));
            return Ok((lo, Operand::imm(Imm::ud(hi))));
        }
        if !signed {
            return Ok((lo, Operand::imm(Imm::ud(0))));
        }
        let u = self.is_uniform(v);
        let hi = self.tmp(Type::D, u);
        let ex = self.exec(u);
        self.k
            .binary(Op::Asr, ex, Operand::dst(hi), lo, Operand::imm(Imm::ud(31)));
        let hv = self.view(hi, Type::UD);
        let lv = match lo {
            Operand::Src {
                var, row, col, region, ..
            } => Operand::src_at(self.view(var, Type::UD), row, col, region),
            o => o,
        };
        Ok((lv, if u { Operand::scalar(hv) } else { Operand::src(hv) }))
    }
}

/// Lowers one ALU, conversion or id instruction.
pub(crate) fn lower(l: &mut Lower<'_>, inst: Inst) -> Result<(), LowerError> {
    let f = l.f;
    let data = &f.insts[inst];
    let Some(res) = f.inst_result(inst) else { return Ok(()) };
    let rt = f.value_type(res);
    let u = l.is_uniform(res);
    let ex = l.exec(u);
    match *data {
        InstData::Iconst { imm, .. } => {
            let bits = if rt.bits() >= 64 {
                imm as u64
            } else {
                imm as u64 & ((1u64 << rt.bits()) - 1)
            };
            l.vals.insert(res, Loc::Const(bits));
        }
        InstData::Fconst { bits, .. } => {
            l.vals.insert(res, Loc::Const(bits));
        }
        InstData::Special { reg } => {
            let (var, uni) = super::abi::special(l, reg).ok_or_else(|| l.reject(inst, "no input for it"))?;
            l.vals.insert(res, Loc::Var { var, uniform: uni });
        }
        InstData::Unary { op, arg } => unary(l, inst, op, arg, res, u)?,
        InstData::Binary { op, args } => binary(l, Binary { inst, op, args, res, u })?,
        InstData::Icmp { cond, args } => {
            let at = f.value_type(args[0]);
            let p = if is64(at) {
                let p = l.cmp64(cond, args[0], args[1], u)?;
                l.vals.insert(res, Loc::Pred { pred: p, uniform: u });
                return Ok(());
            } else {
                let signed = matches!(cond, IntCC::Slt | IntCC::Sle | IntCC::Sgt | IntCC::Sge);
                let (a, b) = if signed {
                    (l.sext32(args[0])?, l.sext32(args[1])?)
                } else {
                    (l.src(args[0], Type::UD)?, l.src(args[1], Type::UD)?)
                };
                let ty = if signed { Type::D } else { Type::UD };
                let (a, b) = l.unimm(a, b, ty);
                let r = match cond {
                    IntCC::Eq => Relop::Eq,
                    IntCC::Ne => Relop::Ne,
                    IntCC::Slt | IntCC::Ult => Relop::Lt,
                    IntCC::Sle | IntCC::Ule => Relop::Le,
                    IntCC::Sgt | IntCC::Ugt => Relop::Gt,
                    IntCC::Sge | IntCC::Uge => Relop::Ge,
                };
                let p = l.def_pred(res, u);
                let pex = l.pred_exec(u);
                l.k.cmp(pex, r, Operand::pred(p), a, b);
                p
            };
            let _ = p;
        }
        InstData::Fcmp { cond, args } => {
            let at = f.value_type(args[0]);
            let ty = match at {
                IrType::F32 => Type::F,
                IrType::F64 if !l.no_fp64() => Type::DF,
                IrType::F64 => {
                    // Integer code on the halves (fcmp64.rs).
                    let (a, b) = (l.halves(args[0], false)?, l.halves(args[1], false)?);
                    let p = l.def_pred(res, u);
                    l.fcmp64(p, u, cond, a, b);
                    return Ok(());
                }
                IrType::F16 => Type::HF,
                _ => return Err(l.reject(inst, "float compares are lowered for f16, f32 and f64")),
            };
            let (a, b, ty) = if ty == Type::HF {
                // Widened exactly to f32, where the compare is the same.
                let a = super::alu64::rd(super::half::widen(l, inst, args[0], u)?, u);
                let b = super::alu64::rd(super::half::widen(l, inst, args[1], u)?, u);
                (a, b, Type::F)
            } else {
                (l.src_whole(args[0], ty)?, l.src_whole(args[1], ty)?, ty)
            };
            let (a, b) = l.unimm(a, b, ty);
            let p = l.def_pred(res, u);
            let pex = l.pred_exec(u);
            let r = match cond {
                FloatCC::Eq => Some(Relop::Eq),
                FloatCC::Ne => Some(Relop::Ne),
                FloatCC::Lt => Some(Relop::Lt),
                FloatCC::Le => Some(Relop::Le),
                FloatCC::Gt => Some(Relop::Gt),
                FloatCC::Ge => Some(Relop::Ge),
                FloatCC::Ord | FloatCC::Uno => None,
            };
            match r {
                Some(r) => {
                    l.k.cmp(pex, r, Operand::pred(p), a, b);
                }
                None => {
                    // ord: a == a && b == b; uno: a != a || b != b.
                    let (r, op) = if cond == FloatCC::Ord {
                        (Relop::Eq, Op::And)
                    } else {
                        (Relop::Ne, Op::Or)
                    };
                    let p2 = l.tmp_pred();
                    l.k.cmp(pex, r, Operand::pred(p), a, a);
                    l.k.cmp(pex, r, Operand::pred(p2), b, b);
                    l.k.binary(op, pex, Operand::pred(p), Operand::pred(p), Operand::pred(p2));
                }
            }
        }
        InstData::Select { cond, args } => {
            let (p, _) = l.pred(cond)?;
            let ty = canonical(rt).ok_or_else(|| l.reject(inst, "no vISA type holds the result"))?;
            let r = l.def_var(res, u)?;
            let guard = atomc_visa::Predicate::on(p);
            if ty.size() == 8 {
                for hi in [false, true] {
                    let a = l.half(args[0], hi, Type::UD)?;
                    let b = l.half(args[1], hi, Type::UD)?;
                    let (a, b) = l.unimm(a, b, Type::UD);
                    let d = l.half_dst(r, u, hi, Type::UD);
                    l.k.binary(Op::Sel, ex, d, a, b).predicated(guard);
                }
            } else {
                let a = l.src(args[0], ty)?;
                let b = l.src(args[1], ty)?;
                let (a, b) = l.unimm(a, b, ty);
                l.k.binary(Op::Sel, ex, Operand::dst(r), a, b).predicated(guard);
            }
        }
        InstData::Convert { op, to, arg } => convert(l, Conversion { inst, op, to, arg, res, u })?,
        InstData::PtrAdd { ptr, offset } if f.value_type(ptr).bits() == 32 => {
            // A shared pointer: a 32-bit SLM offset plus the offset's low word.
            let a = l.src(ptr, Type::UD)?;
            let b = if is64(l.ty(offset)) { l.half(offset, false, Type::UD)? } else { l.src(offset, Type::UD)? };
            let (a, b) = l.unimm(a, b, Type::UD);
            let r = l.def_var(res, u)?;
            let ex = l.exec(u);
            l.k.add(ex, Operand::dst(r), a, b);
        }
        InstData::PtrAdd { ptr, offset } => {
            let a = l.halves(ptr, false)?;
            let b = l.halves(offset, true)?;
            let r = l.def_var(res, u)?;
            l.add64(r, u, a, b);
        }
        InstData::PtrToGeneric { ptr } => {
            if f.value_type(ptr).bits() != 64 {
                return Err(l.reject(inst, "a shared pointer is an SLM offset; generic (A64) addresses of SLM are not emitted"));
            }
            let loc = l.loc(ptr)?;
            l.vals.insert(res, loc);
        }
        _ => return Err(l.reject(inst, "not an ALU instruction")),
    }
    Ok(())
}

fn unary(l: &mut Lower<'_>, inst: Inst, op: UnaryOp, arg: Value, res: Value, u: bool) -> Result<(), LowerError> {
    let rt = l.ty(res);
    let ex = l.exec(u);
    if rt == IrType::F16 && matches!(op, UnaryOp::Fneg | UnaryOp::Fabs) {
        return super::half::unary(l, inst, op, arg, res, u);
    }
    if rt == IrType::F16 || rt.is_packed_float() {
        return Err(l.reject(inst, "f16 and packed-float arithmetic is not lowered for vISA"));
    }
    let r = l.def_var(res, u)?;
    // Float sign operations are bit operations on the (high) dword: exact
    // for NaNs, and free of any fp64 need.
    let sign_op = match op {
        UnaryOp::Fneg => Some((Op::Xor, 0x8000_0000u32)),
        UnaryOp::Fabs => Some((Op::And, 0x7fff_ffffu32)),
        _ => None,
    };
    if let Some((bop, m)) = sign_op {
        if is64(rt) {
            let lo = l.half(arg, false, Type::UD)?;
            let hi = l.half(arg, true, Type::UD)?;
            let dl = l.half_dst(r, u, false, Type::UD);
            let dh = l.half_dst(r, u, true, Type::UD);
            l.k.mov(ex, dl, lo);
            l.k.binary(bop, ex, dh, hi, Operand::imm(Imm::ud(m)));
        } else {
            let a = l.src(arg, Type::UD)?;
            let d = l.dst(r, Type::UD);
            l.k.binary(bop, ex, d, a, Operand::imm(Imm::ud(m)));
        }
        return Ok(());
    }
    if is64(rt) {
        let a = l.halves(arg, false)?;
        match op {
            UnaryOp::Ineg => l.sub64(r, u, (Operand::imm(Imm::ud(0)), Operand::imm(Imm::ud(0))), a),
            _ => {
                for (hi, s) in [(false, a.0), (true, a.1)] {
                    let d = l.half_dst(r, u, hi, Type::UD);
                    l.k.unary(Op::Not, ex, d, s);
                }
            }
        }
        return Ok(());
    }
    match op {
        UnaryOp::Ineg => {
            let a = l.src(arg, Type::D)?;
            let d = l.dst(r, Type::D);
            l.k.mov(ex, d, neg(a));
        }
        _ => {
            let a = l.src(arg, Type::UD)?;
            l.k.unary(Op::Not, ex, Operand::dst(r), a);
        }
    }
    l.narrow(r, rt, u);
    Ok(())
}

fn binary(l: &mut Lower<'_>, bin: Binary) -> Result<(), LowerError> {
    let Binary { inst, op, args, res, u } = bin;
    let rt = l.ty(res);
    let ex = l.exec(u);
    if op.is_float() {
        let ty = match rt {
            IrType::F32 => Type::F,
            IrType::F64 if !l.no_fp64() => Type::DF,
            IrType::F64 if matches!(op, BinaryOp::Fmin | BinaryOp::Fmax) => {
                let (a, b) = (l.halves(args[0], false)?, l.halves(args[1], false)?);
                let r = l.def_var(res, u)?;
                l.fminmax64(r, u, op == BinaryOp::Fmax, a, b);
                return Ok(());
            }
            IrType::F64 if matches!(op, BinaryOp::Fadd | BinaryOp::Fsub) => {
                // Integer code on the halves (soft_f64.rs); a subtraction adds b with its sign
                // flipped.
                let (a, mut b) = (l.halves(args[0], false)?, l.halves(args[1], false)?);
                if op == BinaryOp::Fsub {
                    b.1 = match b.1 {
                        Operand::Imm(i) => Operand::imm(Imm::ud(i.bits as u32 ^ 0x8000_0000)),
                        o => l.op_tmp(Op::Xor, u, o, Operand::imm(Imm::ud(0x8000_0000))),
                    };
                }
                let r = l.def_var(res, u)?;
                l.fadd64(r, u, a, b);
                return Ok(());
            }
            IrType::F64 if op == BinaryOp::Fdiv => {
                // Long division of the significands, rounded once (soft_arith.rs).
                let (a, b) = (l.halves(args[0], false)?, l.halves(args[1], false)?);
                let out = l.fdiv_soft(u, super::soft_convert::F64, a, b);
                let r = l.def_var(res, u)?;
                for (h, x) in [(false, out.0), (true, out.1)] {
                    let d = l.half_dst(r, u, h, Type::UD);
                    l.k.mov(ex, d, x);
                }
                return Ok(());
            }
            IrType::F64 if op == BinaryOp::Fmul => {
                // The significands' product in 32-bit pieces, rounded once (soft_arith.rs).
                let (a, b) = (l.halves(args[0], false)?, l.halves(args[1], false)?);
                let out = l.fmul64_soft(u, a, b);
                let r = l.def_var(res, u)?;
                for (h, x) in [(false, out.0), (true, out.1)] {
                    let d = l.half_dst(r, u, h, Type::UD);
                    l.k.mov(ex, d, x);
                }
                return Ok(());
            }
            IrType::F64 => return Err(l.reject(inst, "not an f64 operation")),
            IrType::F16 => return super::half::binary(l, bin),
            _ => return Err(l.reject(inst, "packed-float arithmetic is not lowered for vISA")),
        };
        if op == BinaryOp::Fdiv && ty == Type::F && !divm_ok(l, u) {
            let out = fdiv32_soft(l, args, u)?;
            let r = l.def_var(res, u)?;
            let d = l.dst(r, Type::UD);
            l.k.mov(ex, d, out);
            return Ok(());
        }
        refuse_simd2_divergent_float(l, inst, u)?;
        let vop = float_op(op).ok_or_else(|| l.reject(inst, "not a float operation"))?;
        let a = l.src_whole(args[0], ty)?;
        let mut b = l.src_whole(args[1], ty)?;
        if op == BinaryOp::Fsub {
            b = match b {
                Operand::Imm(i) => {
                    let sign = if ty == Type::DF { 1u64 << 63 } else { 1u64 << 31 };
                    Operand::imm(Imm {
                        ty,
                        bits: i.bits ^ sign,
                    })
                }
                o => o.with_mod(SrcMod::Neg),
            };
        }
        let (a, b) = l.unimm(a, b, ty);
        let r = l.def_var(res, u)?;
        l.k.binary(vop, ex, Operand::dst(r), a, b);
        return Ok(());
    }
    if matches!(op, BinaryOp::Udiv | BinaryOp::Sdiv | BinaryOp::Urem | BinaryOp::Srem) {
        if is64(rt) {
            // No Gen instruction divides 64-bit integers: long division (soft_divide.rs).
            let (a, b) = (l.halves(args[0], false)?, l.halves(args[1], false)?);
            let out = l.divide64(u, op, a, b);
            let r = l.def_var(res, u)?;
            for (h, x) in [(false, out.0), (true, out.1)] {
                let d = l.half_dst(r, u, h, Type::UD);
                l.k.mov(ex, d, x);
            }
            return Ok(());
        }
        let signed = matches!(op, BinaryOp::Sdiv | BinaryOp::Srem);
        if !l.p.has_int_divide() {
            // DG2 and PVC: long division (soft_divide.rs) on the widened values.
            let (a, b) = if signed {
                let (a, b) = (l.sext32(args[0])?, l.sext32(args[1])?);
                (as_ud(l, a), as_ud(l, b))
            } else {
                (l.src(args[0], Type::UD)?, l.src(args[1], Type::UD)?)
            };
            let out = l.divide32(u, op, a, b);
            let r = l.def_var(res, u)?;
            let d = l.dst(r, Type::UD);
            l.k.mov(ex, d, out);
            l.narrow(r, rt, u);
            return Ok(());
        }
        // The math unit's quotient rounds toward zero and the remainder takes the dividend's
        // sign, as the IR's; narrow values are widened by their signedness first.
        let (a, b, ty) = if signed {
            (l.sext32(args[0])?, l.sext32(args[1])?, Type::D)
        } else {
            (l.src(args[0], Type::UD)?, l.src(args[1], Type::UD)?, Type::UD)
        };
        let (a, b) = l.unimm(a, b, ty);
        let r = l.def_var(res, u)?;
        let d = l.dst(r, ty);
        let vop = if matches!(op, BinaryOp::Udiv | BinaryOp::Sdiv) { Op::Div } else { Op::Mod };
        l.k.binary(vop, ex, d, a, b);
        l.narrow(r, rt, u);
        return Ok(());
    }
    if is64(rt) {
        return super::alu64::binary64(l, bin);
    }
    let r = l.def_var(res, u)?;
    let bits = rt.bits();
    let signed = matches!(op, BinaryOp::Smin | BinaryOp::Smax | BinaryOp::Sshr);
    let (a, b) = match op {
        BinaryOp::Smin | BinaryOp::Smax => (l.sext32(args[0])?, l.sext32(args[1])?),
        BinaryOp::Sshr => (l.sext32(args[0])?, l.src(args[1], Type::UD)?),
        BinaryOp::Isub => (l.src(args[0], Type::D)?, neg(l.src(args[1], Type::D)?)),
        _ => (l.src(args[0], Type::UD)?, l.src(args[1], Type::UD)?),
    };
    // Shift amounts are taken modulo the width; Gen uses the low 5 bits.
    let b = if matches!(op, BinaryOp::Ishl | BinaryOp::Ushr | BinaryOp::Sshr) && bits < 32 {
        match b {
            Operand::Imm(i) => Operand::imm(Imm::ud((i.bits as u32) % bits)),
            o => {
                let t = l.tmp(Type::UD, u);
                l.k.binary(Op::And, ex, Operand::dst(t), o, Operand::imm(Imm::ud(bits - 1)));
                if u {
                    Operand::scalar(t)
                } else {
                    Operand::src(t)
                }
            }
        }
    } else {
        b
    };
    let ty = if signed || op == BinaryOp::Isub {
        Type::D
    } else {
        Type::UD
    };
    let (a, b) = l.unimm(a, b, ty);
    let vop = match op {
        BinaryOp::Iadd | BinaryOp::Isub => Op::Add,
        BinaryOp::Imul => Op::Mul,
        BinaryOp::Band => Op::And,
        BinaryOp::Bor => Op::Or,
        BinaryOp::Bxor => Op::Xor,
        BinaryOp::Ishl => Op::Shl,
        BinaryOp::Ushr => Op::Shr,
        BinaryOp::Sshr => Op::Asr,
        BinaryOp::Umin | BinaryOp::Smin => Op::Min,
        _ => Op::Max,
    };
    let d = l.dst(r, ty);
    l.k.binary(vop, ex, d, a, b);
    if matches!(
        op,
        BinaryOp::Iadd
            | BinaryOp::Isub
            | BinaryOp::Imul
            | BinaryOp::Ishl
            | BinaryOp::Sshr
            | BinaryOp::Smin
            | BinaryOp::Smax
    ) {
        l.narrow(r, rt, u);
    }
    Ok(())
}

fn convert(l: &mut Lower<'_>, conv: Conversion) -> Result<(), LowerError> {
    let Conversion { inst, op, to, arg, res, u } = conv;
    let from = l.ty(arg);
    let ex = l.exec(u);
    match op {
        ConvOp::Bitcast => {
            let (Some(ft), Some(tt)) = (canonical(from), canonical(to)) else {
                return Err(l.reject(inst, "no vISA type holds this value"));
            };
            let loc = match l.loc(arg)? {
                Loc::Zext { .. } if tt == Type::UQ => l.loc(arg)?,
                _ => match l.mat(arg)? {
                    Loc::Var { var, uniform } if ft != tt => Loc::Var {
                        var: l.view(var, tt),
                        uniform,
                    },
                    other => other,
                },
            };
            l.vals.insert(res, loc);
        }
        ConvOp::Uextend | ConvOp::Sextend if !is64(to) => {
            if op == ConvOp::Uextend {
                let loc = l.loc(arg)?;
                l.vals.insert(res, loc);
            } else {
                let s = l.sext32(arg)?;
                let r = l.def_var(res, u)?;
                let d = l.dst(r, Type::D);
                l.k.mov(ex, d, s);
                l.narrow(r, to, u);
            }
        }
        ConvOp::Uextend if from.bits() == 32 => {
            l.vals.insert(res, Loc::Zext { src: arg, uniform: u });
        }
        ConvOp::Uextend | ConvOp::Sextend => {
            let (lo, hi) = l.halves(arg, op == ConvOp::Sextend)?;
            let r = l.def_var(res, u)?;
            let dl = l.half_dst(r, u, false, Type::UD);
            let dh = l.half_dst(r, u, true, Type::UD);
            l.k.mov(ex, dl, lo);
            l.k.mov(ex, dh, hi);
        }
        ConvOp::Ireduce => {
            let s = if is64(from) {
                l.half(arg, false, Type::UD)?
            } else {
                l.src(arg, Type::UD)?
            };
            let r = l.def_var(res, u)?;
            match mask(to) {
                Some(m) => {
                    l.k.binary(Op::And, ex, Operand::dst(r), s, Operand::imm(Imm::ud(m)));
                }
                None => {
                    l.k.mov(ex, Operand::dst(r), s);
                }
            }
        }
        // f16 lives in the low half of a dword: read and write it through
        // an `hf` view with stride 2.
        ConvOp::Fpromote if from == IrType::F16 && to == IrType::F32 => {
            let s = match l.mat(arg)? {
                Loc::Const(b) => Operand::imm(Imm::hf_bits(b as u16)),
                Loc::Var { var, uniform } => {
                    let h = l.view(var, Type::HF);
                    let region = if uniform {
                        atomc_visa::Region::SCALAR
                    } else {
                        atomc_visa::Region::STRIDE2
                    };
                    Operand::src_at(h, 0, 0, region)
                }
                _ => return Err(l.reject(inst, "not a number")),
            };
            let r = l.def_var(res, u)?;
            l.k.mov(ex, Operand::dst(r), s);
        }
        ConvOp::Fdemote if from == IrType::F32 && to == IrType::F16 => {
            let s = l.src(arg, Type::F)?;
            let r = l.def_var(res, u)?;
            l.k.mov(ex, Operand::dst(r), Operand::imm(Imm::ud(0)));
            let h = l.view(r, Type::HF);
            l.k.mov(ex, Operand::dst_at(h, 0, 0, if u { 1 } else { 2 }), s);
        }
        ConvOp::Fpromote if from == IrType::F32 && to == IrType::F64 && !l.no_fp64() => {
            let s = l.src(arg, Type::F)?;
            let r = l.def_var(res, u)?;
            l.k.mov(ex, Operand::dst(r), s);
        }
        ConvOp::Fdemote if from == IrType::F64 && to == IrType::F32 && !l.no_fp64() => {
            let s = l.src_whole(arg, Type::DF)?;
            let r = l.def_var(res, u)?;
            l.k.mov(ex, Operand::dst(r), s);
        }
        _ => {
            if !super::numeric::convert(l, conv)? {
                return Err(l.reject(inst, "this conversion is not lowered for vISA"));
            }
        }
    }
    Ok(())
}

/// The vISA op of the float `op` (`fsub` is an `add` of the negated operand); `None` for
/// any other op. `divm`, not `div`: `div` on floats is the math unit's approximation.
pub(crate) fn float_op(op: BinaryOp) -> Option<Op> {
    Some(match op {
        BinaryOp::Fadd | BinaryOp::Fsub => Op::Add,
        BinaryOp::Fmul => Op::Mul,
        BinaryOp::Fmin => Op::Min,
        BinaryOp::Fmax => Op::Max,
        BinaryOp::Fdiv => Op::Divm,
        _ => return None,
    })
}

/// GenX_IR 1.0.12504 splits SIMD2 float code on DG2 and PVC into two SIMD1 halves and, under
/// SIMD control flow (a CAS-loop body), finds no emask for them: "ReduceExecSize.cpp:1422 no
/// legal emask found for the split instruction" (measured on f32 and f16 add CAS loops at
/// SIMD2; TGLLP keeps `add (2|M0)`). Such an instruction is refused.
pub(crate) fn refuse_simd2_divergent_float(l: &Lower<'_>, inst: Inst, u: bool) -> Result<(), LowerError> {
    if !u && l.simd == atomc_visa::ExecSize::S2 && l.p.is_xehp_plus() && l.divergent {
        return Err(l.reject(inst, "SIMD2 float arithmetic in divergent code: GenX_IR cannot split it on XeHP+"));
    }
    Ok(())
}

/// Whether `divm` (GenX_IR's IEEE divide macro) can divide here: PVC only, and not at SIMD2 in
/// divergent code, which GenX_IR cannot split (as for every float op there).
pub(crate) fn divm_ok(l: &Lower<'_>, u: bool) -> bool {
    l.p.has_ieee_divide() && (u || l.simd != atomc_visa::ExecSize::S2 || !l.divergent)
}

/// An f32 division in integer code (soft_arith.rs `fdiv_soft`): the quotient's bits.
pub(crate) fn fdiv32_soft(l: &mut Lower<'_>, args: [Value; 2], u: bool) -> Result<Operand, LowerError> {
    let (a, b) = (l.src(args[0], Type::UD)?, l.src(args[1], Type::UD)?);
    let zero = Operand::imm(Imm::ud(0));
    Ok(l.fdiv_soft(u, super::soft_convert::F32, (a, zero), (b, zero)).0)
}

/// A 32-bit source seen as `ud` (a `d` view or immediate retyped).
fn as_ud(l: &mut Lower<'_>, o: Operand) -> Operand {
    match o {
        Operand::Src { var, row, col, region, modifier } => {
            let v = l.view(var, Type::UD);
            Operand::Src { var: v, row, col, region, modifier }
        }
        Operand::Imm(i) => Operand::imm(Imm::ud(i.bits as u32)),
        o => o,
    }
}
