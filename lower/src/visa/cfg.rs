//! Block layout, block arguments and branches (SIMD `goto` or scalar `jmp`).

use atomc_ir::{Block, BlockCall, Function, InstData, RmwOp, Value};

use super::values::{canonical, Loc};
use super::{Lower, LowerError};
use atomc_visa::{Exec, ExecSize, LabelId, Operand, Predicate};

/// The reachable blocks in reverse post-order, the entry first. A loop's
/// body then follows its header and a backward branch closes it, which is
/// the shape SIMD `goto` needs (visa.md §5).
pub(crate) fn reverse_post_order(f: &Function) -> Vec<Block> {
    let Some(entry) = f.entry_block() else {
        return Vec::new();
    };
    let mut seen = std::collections::HashSet::new();
    let mut post = Vec::new();
    // Iterative DFS: (block, next successor index).
    let mut stack = vec![(entry, 0usize)];
    seen.insert(entry);
    while let Some(&mut (b, ref mut i)) = stack.last_mut() {
        // Successors are visited last-first, so that the first one (a
        // `brif`'s then-block) comes first in the layout: source order, in
        // which a producer lane written before its consumers runs first.
        let mut succs = f.successors(b);
        succs.reverse();
        if *i < succs.len() {
            let s = succs[*i];
            *i += 1;
            if seen.insert(s) {
                stack.push((s, 0));
            }
        } else {
            post.push(b);
            stack.pop();
        }
    }
    post.reverse();
    post
}

/// At most this many instructions are predicated instead of branched over.
const IFCONV_MAX: usize = 12;

/// Finds the `if` blocks emitted as predicated straight-line code instead
/// of a `goto` around them: a block `s` right after its only predecessor
/// `b` in the layout, reached from `b`'s varying `brif`, without
/// parameters, ending in `jump j` (no arguments) where `j` is `b`'s other
/// target. Its memory instructions get the branch predicate (vISA `(P)
/// svm_atomic`), its ALU instructions run unguarded (their results are
/// only read inside `s`). Then sets [`Lower::divergent`] from the
/// branches that remain.
pub(crate) fn find_if_conversions(l: &mut Lower<'_>) {
    let f = l.f;
    let mut preds: std::collections::HashMap<Block, usize> = Default::default();
    for &b in &l.order {
        for s in f.successors(b) {
            *preds.entry(s).or_default() += 1;
        }
    }
    let order = l.order.clone();
    let mut remaining = false;
    for (i, &b) in order.iter().enumerate() {
        if !l.varying_branches.contains(&b) {
            continue;
        }
        let Some(t) = f.terminator(b) else { continue };
        let InstData::Brif {
            then_dest, else_dest, ..
        } = &f.insts[t]
        else {
            continue;
        };
        let next = order.get(i + 1).copied();
        let mut converted = false;
        for (small, join, on_true) in [(then_dest, else_dest, true), (else_dest, then_dest, false)] {
            let s = small.block;
            if Some(s) != next || s == join.block || s == b || preds.get(&s) != Some(&1) || !small.args.is_empty() {
                continue;
            }
            if !f.blocks[s].params.is_empty() || f.blocks[s].insts.len() > IFCONV_MAX {
                continue;
            }
            // Predication would leave the skipped lanes enabled for a subgroup instruction, and
            // for the lane minimum that picks a varying bindless handle (`bindless`); a 64-bit
            // SLM atomic on TGLLP and a 64-bit surface atomic are lock loops closed by a goto
            // (`slm_lock`, `surface_lock`), and so are a 64-bit SLM store on DG2/PVC (`slm64`)
            // and a surface fadd/inc_wrap/dec_wrap (`surface_loop`): a loop's goto would need
            // the guard.
            let locked = |i| {
                (!l.p.is_xehp_plus() && super::slm_lock::is_locked_atomic(f, i)) || super::surface_lock::is_locked(f, i)
            };
            let looped = |i| match &f.insts[i] {
                InstData::SurfaceRmw { op, .. } => matches!(op, RmwOp::Fadd | RmwOp::IncWrap | RmwOp::DecWrap),
                InstData::AtomicStore { ty, addr, .. } => {
                    ty.bits() == 64 && f.value_type(addr.ptr).addr_space() == Some(atomc_ir::AddrSpace::Shared)
                }
                _ => false,
            };
            let varying_handle = |i| match &f.insts[i] {
                InstData::SurfaceRmw { access, .. } | InstData::SurfaceCas { access, .. } => match access.surface {
                    atomc_ir::SurfaceRef::Handle(h) => !l.uniform_set.as_ref().is_some_and(|u| u.is_uniform(h)),
                    atomc_ir::SurfaceRef::Slot(_) => false,
                },
                _ => false,
            };
            if f.blocks[s].insts.iter().any(|&i| f.insts[i].is_subgroup() || locked(i) || looped(i) || varying_handle(i)) {
                continue;
            }
            let Some(st) = f.terminator(s) else { continue };
            let ok_term =
                matches!(&f.insts[st], InstData::Jump { dest } if dest.block == join.block && dest.args.is_empty());
            if ok_term {
                l.ifconv.insert(s, (b, on_true));
                converted = true;
                break;
            }
        }
        remaining |= !converted;
    }
    l.divergent = remaining;
}

/// Declares the parameters of every block but the entry (all varying).
pub(crate) fn declare_block_params(l: &mut Lower<'_>) -> Result<(), LowerError> {
    let f = l.f;
    for &b in l.order.clone().iter().skip(1) {
        for &p in &f.blocks[b].params {
            let t = f.value_type(p);
            if canonical(t).is_none() {
                return Err(l.unsupported(
                    &format!("block parameter {p}: {t}"),
                    "block parameters of this type are not lowered (predicates and f16 included)",
                ));
            }
            l.def_var(p, false)?;
        }
    }
    Ok(())
}

/// The type a copy moves `ty` as: `df` as `uq` (a 64-bit integer copy is
/// split by GenX_IR; a `df` move would need an fp64 ALU).
fn copy_ty(ty: atomc_visa::Type) -> atomc_visa::Type {
    if ty == atomc_visa::Type::DF {
        atomc_visa::Type::UQ
    } else {
        ty
    }
}

/// Lowers one block: its label (if anything branches to it), its
/// instructions and its terminator. `next` is the block laid out after it.
pub(crate) fn lower_block(l: &mut Lower<'_>, b: Block, next: Option<Block>) -> Result<(), LowerError> {
    let f = l.f;
    if Some(b) != f.entry_block() {
        let lab = label(l, b);
        l.k.place(lab);
    }
    for &inst in &f.blocks[b].insts {
        match &f.insts[inst] {
            InstData::Jump { dest } => {
                copy_args(l, dest, None)?;
                if Some(dest.block) != next {
                    branch(l, None, dest.block);
                }
            }
            InstData::Brif {
                cond,
                then_dest,
                else_dest,
            } => {
                let (p, _) = l.pred(*cond)?;
                copy_args(l, then_dest, Some(Predicate::on(p)))?;
                copy_args(l, else_dest, Some(Predicate::not(p)))?;
                let small = [(then_dest, else_dest, true), (else_dest, then_dest, false)]
                    .into_iter()
                    .find(|(s, _, _)| l.ifconv.get(&s.block).is_some_and(|&(from, _)| from == b));
                if let Some((s, join, on_true)) = small {
                    let guard = if on_true { Predicate::on(p) } else { Predicate::not(p) };
                    l.guard = Some(guard);
                    let body = f.blocks[s.block].insts.clone();
                    for &i in &body[..body.len() - 1] {
                        super::lower_inst(l, i)?;
                    }
                    l.guard = None;
                    if Some(join.block) != next {
                        branch(l, None, join.block);
                    }
                } else if then_dest.block == else_dest.block {
                    if Some(then_dest.block) != next {
                        branch(l, None, then_dest.block);
                    }
                } else if Some(then_dest.block) == next {
                    branch(l, Some(Predicate::not(p)), else_dest.block);
                } else {
                    branch(l, Some(Predicate::on(p)), then_dest.block);
                    if Some(else_dest.block) != next {
                        branch(l, None, else_dest.block);
                    }
                }
            }
            InstData::Return { args } => {
                if !args.is_empty() {
                    return Err(l.unsupported("return", "kernels return no values"));
                }
                if next.is_some() {
                    if l.divergent {
                        let exit = *l.exit.get_or_insert_with(|| l.k.label("EXIT"));
                        let ex = Exec::new(l.simd);
                        l.k.goto(ex, exit);
                    } else {
                        l.k.ret();
                    }
                }
            }
            _ => super::lower_inst(l, inst)?,
        }
    }
    Ok(())
}

/// The label of a block, created on first use.
fn label(l: &mut Lower<'_>, b: Block) -> LabelId {
    if let Some(&lab) = l.labels.get(&b) {
        return lab;
    }
    let lab = l.k.label(format!("{b}"));
    l.labels.insert(b, lab);
    lab
}

/// A branch to `to`: a SIMD `goto` when the function has divergent
/// branches, else a scalar `jmp`.
fn branch(l: &mut Lower<'_>, guard: Option<Predicate>, to: Block) {
    let lab = label(l, to);
    let inst = if l.divergent {
        let ex = Exec::new(l.simd);
        l.k.goto(ex, lab)
    } else {
        l.k.jmp(Exec::new(ExecSize::S1), lab)
    };
    if let Some(g) = guard {
        inst.predicated(g);
    }
}

/// Copies a branch's arguments into the target's parameters, under
/// `guard` (the lanes that take this edge). Parallel-copy semantics: when
/// an argument is a parameter of the same block written earlier in the
/// sequence, every argument goes through a temporary first.
fn copy_args(l: &mut Lower<'_>, call: &BlockCall, guard: Option<Predicate>) -> Result<(), LowerError> {
    let f = l.f;
    let params = f.blocks[call.block].params.clone();
    if params.is_empty() {
        return Ok(());
    }
    let mut srcs: Vec<Value> = call.args.to_vec();
    let hazard = srcs.iter().enumerate().any(|(i, a)| params[..i].contains(a));
    let mut staged = Vec::new();
    if hazard {
        for &a in &srcs {
            let t = f.value_type(a);
            let ty = copy_ty(canonical(t).ok_or_else(|| l.unsupported(&format!("{a}: {t}"), "no vISA type holds it"))?);
            let tmp = l.tmp(ty, false);
            let s = l.src_whole(a, ty)?;
            l.k.mov(Exec::new(l.simd), Operand::dst(tmp), s).pred = guard;
            staged.push(tmp);
        }
    }
    for (i, (&p, a)) in params.iter().zip(srcs.drain(..)).enumerate() {
        if p == a || !l.used(p) {
            continue;
        }
        let t = f.value_type(p);
        let ty = copy_ty(canonical(t).ok_or_else(|| l.unsupported(&format!("{p}: {t}"), "no vISA type holds it"))?);
        let Loc::Var { var, .. } = l.loc(p)? else {
            return Err(l.unsupported(&format!("{p}"), "block parameter is not a variable"));
        };
        let s = match staged.get(i) {
            Some(&tmp) => Operand::src(tmp),
            None => l.src_whole(a, ty)?,
        };
        let ex = Exec::new(l.simd);
        let d = l.dst(var, ty);
        l.k.mov(ex, d, s).pred = guard;
    }
    Ok(())
}
