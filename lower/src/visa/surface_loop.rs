//! Surface read-modify-writes `typed_atomic` has no op for (f32 `fadd`,
//! `inc_wrap`, `dec_wrap`): a `cmpxchg` retry loop on the surface. The
//! current value is read with `or` 0; each round computes the new value,
//! tries `cmpxchg` (src0 = new, src1 = expected), and the lanes whose
//! exchange found another value retry with it, closed by a predicated backward
//! SIMD `goto` (the CAS-loop shape of the reference, §0). An out-of-range
//! access reads 0 and its exchange returns 0, so it leaves after one round
//! with 0, as `ign` wants. Refused under an if-conversion guard: the loop's
//! predicate would also have to leave out the guarded-off lanes. On a varying
//! bindless handle the whole loop is the body of the handle loop
//! ([`super::bindless`]), run by the lanes of one handle at a time.

use atomc_ir::{Inst, MemOrder, RmwOp, Scope, SurfaceAccess, Type as IrType, Value};

use super::bindless::on_surface;
use super::mem::{order_after, order_before};
use super::surface::{coordinates, emit, prepare};
use super::{Lower, LowerError};
use atomc_visa::{AtomicOp, Imm, Op, Operand, Predicate, Relop, Surf, Type};

/// Lowers a surface `fadd` (f32), `inc_wrap` or `dec_wrap` (i32).
#[allow(clippy::too_many_arguments)]
pub(crate) fn rmw(
    l: &mut Lower<'_>,
    inst: Inst,
    op: RmwOp,
    ty: IrType,
    order: MemOrder,
    scope: Scope,
    access: &SurfaceAccess,
    coords: &[Value],
    arg: Value,
) -> Result<(), LowerError> {
    let res = l.f.inst_result(inst);
    let target = prepare(l, inst, ty, access)?;
    if l.guard.is_some() {
        return Err(l.reject(inst, "a surface CAS loop in an if-converted block (the loop would need the guard)"));
    }
    l.fence_for(order_before(order), scope);
    on_surface(l, inst, target, |l, surf| cas_loop(l, op, surf, access, coords, arg, res))?;
    l.fence_for(order_after(order), scope);
    Ok(())
}

/// The read and the retry loop on `surf`; `res` gets the value the winning exchange found.
fn cas_loop(
    l: &mut Lower<'_>,
    op: RmwOp,
    surf: Surf,
    access: &SurfaceAccess,
    coords: &[Value],
    arg: Value,
    res: Option<Value>,
) -> Result<(), LowerError> {
    let uvr = coordinates(l, surf, access, coords)?;
    let x = l.src(arg, if op == RmwOp::Fadd { Type::F } else { Type::UD })?;
    let (zero, cur, new, got) =
        (l.tmp(Type::UD, false), l.tmp(Type::UD, false), l.tmp(Type::UD, false), l.tmp(Type::UD, false));
    let ex = l.exec(false);
    l.k.mov(ex, Operand::dst(zero), Operand::imm(Imm::ud(0)));
    emit(l, AtomicOp::Or, surf, uvr, [Operand::raw(zero), Operand::null(), Operand::raw(cur)])?;
    let name = l.tmp_name("surf_cas");
    let again = l.k.label(name);
    l.k.place(again);
    match op {
        RmwOp::Fadd => {
            let (nf, cf) = (l.view(new, Type::F), l.view(cur, Type::F));
            l.k.add(ex, Operand::dst(nf), Operand::src(cf), x);
        }
        RmwOp::IncWrap => {
            // old >= x ? 0 : old + 1
            l.k.add(ex, Operand::dst(new), Operand::src(cur), Operand::imm(Imm::ud(1)));
            let p = l.tmp_pred();
            l.k.cmp(ex, Relop::Ge, Operand::Pred(p), Operand::src(cur), x);
            l.k.mov(ex, Operand::dst(new), Operand::imm(Imm::ud(0))).predicated(Predicate::on(p));
        }
        _ => {
            // old == 0 || old > x ? x : old - 1
            l.k.add(ex, Operand::dst(new), Operand::src(cur), Operand::imm(Imm::ud(u32::MAX)));
            let (p, q) = (l.tmp_pred(), l.tmp_pred());
            l.k.cmp(ex, Relop::Eq, Operand::Pred(p), Operand::src(cur), Operand::imm(Imm::ud(0)));
            l.k.cmp(ex, Relop::Gt, Operand::Pred(q), Operand::src(cur), x);
            l.k.binary(Op::Or, ex, Operand::Pred(p), Operand::Pred(p), Operand::Pred(q));
            l.k.mov(ex, Operand::dst(new), x).predicated(Predicate::on(p));
        }
    }
    emit(l, AtomicOp::CmpXchg, surf, uvr, [Operand::raw(new), Operand::raw(cur), Operand::raw(got)])?;
    let p = l.tmp_pred();
    l.k.cmp(ex, Relop::Ne, Operand::Pred(p), Operand::src(got), Operand::src(cur));
    l.k.mov(ex, Operand::dst(cur), Operand::src(got)).predicated(Predicate::on(p));
    l.k.goto(ex, again).predicated(Predicate::on(p));
    if let Some(r) = res.filter(|r| l.used(*r)) {
        let var = l.def_var(r, false)?;
        let d = l.view(var, Type::UD);
        l.k.mov(ex, Operand::dst(d), Operand::src(cur));
    }
    Ok(())
}
