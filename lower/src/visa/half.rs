//! f16 arithmetic. An f16 value lives zero-extended in the low half of a
//! dword (`ud`); an op widens its operands to f32 through an `hf` view (`mov`
//! converts exactly), computes in f32 and narrows the result with one `mov`
//! to the `hf` view (round to nearest even). For add, subtract and multiply
//! that is the correctly rounded f16 result: f32 carries 24 ≥ 2·11 + 2
//! significand bits, so rounding twice cannot differ from rounding once;
//! min and max are exact. The sign ops are bit operations on the low word.
//! This is what the CAS-loop bodies of f16 atomics need (fadd, fmin, fmax).

use atomc_ir::{BinaryOp, Inst, UnaryOp, Value};

use super::alu::Binary;
use super::values::Loc;
use super::{Lower, LowerError};
use atomc_visa::{Imm, Op, Operand, Region, SrcMod, Type, VarId};

/// An f16 binary op.
pub(crate) fn binary(l: &mut Lower<'_>, bin: Binary) -> Result<(), LowerError> {
    let Binary { inst, op, args, res, u } = bin;
    // Fdiv in f32 (`divm` or integer code), then rounded to f16: f32's 24 bits are more than
    // 2 × 11 + 2, so the double rounding is innocuous (ir/src/interp/float.rs).
    let vop = super::alu::float_op(op).ok_or_else(|| l.reject(inst, "not an f16 operation"))?;
    super::alu::refuse_simd2_divergent_float(l, inst, u)?;
    let a = widen(l, inst, args[0], u)?;
    let b = widen(l, inst, args[1], u)?;
    let ex = l.exec(u);
    let t = l.tmp(Type::F, u);
    if op == BinaryOp::Fdiv && !super::alu::divm_ok(l, u) {
        let zero = Operand::imm(Imm::ud(0));
        let (av, bv) = (l.view(a, Type::UD), l.view(b, Type::UD));
        let (sa, sb) = (l.rd(av, u), l.rd(bv, u));
        let q = l.fdiv_soft(u, super::soft_convert::F32, (sa, zero), (sb, zero)).0;
        let tv = l.view(t, Type::UD);
        l.k.mov(ex, Operand::dst(tv), q);
        let r = l.def_var(res, u)?;
        l.k.mov(ex, Operand::dst(r), Operand::imm(Imm::ud(0)));
        let h = l.view(r, Type::HF);
        l.k.mov(ex, Operand::dst_at(h, 0, 0, if u { 1 } else { 2 }), Operand::src(t));
        return Ok(());
    }
    let b = if op == BinaryOp::Fsub { Operand::src(b).with_mod(SrcMod::Neg) } else { Operand::src(b) };
    l.k.binary(vop, ex, Operand::dst(t), Operand::src(a), b);
    let r = l.def_var(res, u)?;
    l.k.mov(ex, Operand::dst(r), Operand::imm(Imm::ud(0)));
    let h = l.view(r, Type::HF);
    l.k.mov(ex, Operand::dst_at(h, 0, 0, if u { 1 } else { 2 }), Operand::src(t));
    Ok(())
}

/// `fneg`/`fabs` on f16: flip or clear bit 15.
pub(crate) fn unary(
    l: &mut Lower<'_>,
    inst: Inst,
    op: UnaryOp,
    arg: Value,
    res: Value,
    u: bool,
) -> Result<(), LowerError> {
    let (bop, m) = match op {
        UnaryOp::Fneg => (Op::Xor, 0x8000),
        UnaryOp::Fabs => (Op::And, 0x7fff),
        _ => return Err(l.reject(inst, "not an f16 op")),
    };
    let a = l.src(arg, Type::UD)?;
    let r = l.def_var(res, u)?;
    let ex = l.exec(u);
    let (a, b) = l.unimm(a, Operand::imm(Imm::ud(m)), Type::UD);
    l.k.binary(bop, ex, Operand::dst(r), a, b);
    Ok(())
}

/// An f16 value as an f32 temporary.
pub(crate) fn widen(l: &mut Lower<'_>, inst: Inst, v: Value, u: bool) -> Result<VarId, LowerError> {
    let s = match l.mat(v)? {
        Loc::Const(b) => Operand::imm(Imm::hf_bits(b as u16)),
        Loc::Var { var, uniform } => {
            let h = l.view(var, Type::HF);
            Operand::src_at(h, 0, 0, if uniform { Region::SCALAR } else { Region::STRIDE2 })
        }
        _ => return Err(l.reject(inst, "not a number")),
    };
    let t = l.tmp(Type::F, u);
    let ex = l.exec(u);
    l.k.mov(ex, Operand::dst(t), s);
    Ok(t)
}
