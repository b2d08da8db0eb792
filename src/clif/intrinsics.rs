//! GPU intrinsics in CLIF: calls of imported functions with agreed `%atomc_*` names (the
//! convention is documented in the module docs of [`crate::clif`]).
//!
//! Calls, rather than memory flags, because a call's name and signature are visible in the
//! text and checked here, and because every `MemFlags` bit Cranelift has means something to
//! Cranelift's own optimiser (alias regions, trap codes): reusing one for an order or an
//! address space would change what a CPU build of the same CLIF does.

use super::translate::{Repr, Translator};
use atomc_ir::{AddrSpace, ConvOp, InstData, MemOrder, RmwOp, Scope, SpecialReg, Type};
use cranelift_codegen::ir::{self as cl, types as clt, ExternalName, InstructionData as D};

/// The prefix of every intrinsic name.
pub const PREFIX: &str = "atomc_";

/// One GPU intrinsic, parsed from its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Intrinsic {
    /// `atomc_thread_id_x` .. `atomc_lane_id`: `() -> i32`.
    Special(SpecialReg),
    /// `atomc_barrier`: `()`.
    Barrier,
    /// `atomc_shared`: `(i32) -> i64`, the address of a byte offset in the block's shared memory.
    Shared,
    /// `atomc_atomic_rmw_<op>_<order>_<scope>`: `(i64, T) -> T`.
    Rmw(RmwOp, MemOrder, Scope),
    /// `atomc_atomic_cas_<order>_<scope>`: `(i64, T, T) -> T`.
    Cas(MemOrder, Scope),
    /// `atomc_atomic_load_<order>_<scope>`: `(i64) -> T`.
    Load(MemOrder, Scope),
    /// `atomc_atomic_store_<order>_<scope>`: `(T, i64)`, value first as in CLIF's `atomic_store`.
    Store(MemOrder, Scope),
    /// `atomc_fence_<order>_<scope>`: `()`.
    Fence(MemOrder, Scope),
}

/// The intrinsic a name (without `%`) stands for; `None` for an unknown `atomc_` name.
pub(super) fn parse(name: &str) -> Option<Intrinsic> {
    let rest = name.strip_prefix(PREFIX)?;
    if rest == "barrier" {
        return Some(Intrinsic::Barrier);
    }
    if rest == "shared" {
        return Some(Intrinsic::Shared);
    }
    if let Some(reg) = SpecialReg::ALL.iter().find(|r| r.name().replace('.', "_") == rest) {
        return Some(Intrinsic::Special(*reg));
    }
    let (rest, order, scope) = order_scope(rest)?;
    Some(match rest {
        "atomic_cas" => Intrinsic::Cas(order, scope),
        "atomic_load" => Intrinsic::Load(order, scope),
        "atomic_store" => Intrinsic::Store(order, scope),
        "fence" => Intrinsic::Fence(order, scope),
        _ => Intrinsic::Rmw(RmwOp::from_name(rest.strip_prefix("atomic_rmw_")?)?, order, scope),
    })
}

/// Splits `<head>_<order>_<scope>` (orders and scopes may contain `_`).
fn order_scope(s: &str) -> Option<(&str, MemOrder, Scope)> {
    let (scope, s) = Scope::ALL.iter().find_map(|sc| Some((*sc, s.strip_suffix(sc.name())?.strip_suffix('_')?)))?;
    let (order, s) = MemOrder::ALL.iter().find_map(|o| Some((*o, s.strip_suffix(o.name())?.strip_suffix('_')?)))?;
    Some((s, order, scope))
}

/// The name a call calls, without `%`, if it is a test-case name (`%name` in CLIF text).
pub(super) fn callee_name(src: &cl::Function, data: &D) -> Option<String> {
    let D::Call { func_ref, .. } = *data else { return None };
    match &src.dfg.ext_funcs.get(func_ref)?.name {
        ExternalName::TestCase(t) => Some(t.to_string().trim_start_matches('%').to_string()),
        _ => None,
    }
}

/// Whether a call is meant as an intrinsic (its callee's name has the prefix).
pub(super) fn is_intrinsic_call(src: &cl::Function, data: &D) -> bool {
    callee_name(src, data).is_some_and(|n| n.starts_with(PREFIX))
}

/// The index of the address among an intrinsic's arguments.
pub(super) fn address_arg(i: Intrinsic) -> Option<usize> {
    match i {
        Intrinsic::Rmw(..) | Intrinsic::Cas(..) | Intrinsic::Load(..) => Some(0),
        Intrinsic::Store(..) => Some(1),
        _ => None,
    }
}

/// The address operand of a call of an atomic intrinsic.
pub(super) fn call_address(src: &cl::Function, inst: cl::Inst) -> Option<cl::Value> {
    let data = &src.dfg.insts[inst];
    let i = parse(&callee_name(src, data)?)?;
    src.dfg.inst_args(inst).get(address_arg(i)?).copied()
}

/// The names, for error messages.
const GRAMMAR: &str = "atomc_thread_id_{x,y,z}, atomc_block_id_*, atomc_block_dim_*, atomc_grid_dim_*, \
    atomc_lane_id, atomc_barrier, atomc_shared, atomc_atomic_rmw_<op>_<order>_<scope>, \
    atomc_atomic_cas_<order>_<scope>, atomc_atomic_load_<order>_<scope>, \
    atomc_atomic_store_<order>_<scope>, atomc_fence_<order>_<scope>";

/// Why a call of an `atomc_` name cannot be an intrinsic (unknown name, wrong signature).
pub(super) fn check_call(src: &cl::Function, inst: cl::Inst) -> Option<String> {
    let data = &src.dfg.insts[inst];
    let name = callee_name(src, data)?;
    let Some(i) = parse(&name) else {
        return Some(format!("`%{name}` is no atomc intrinsic (the intrinsics are {GRAMMAR})"));
    };
    let D::Call { func_ref, .. } = *data else { return None };
    let sig = &src.dfg.signatures[src.dfg.ext_funcs[func_ref].signature];
    let params: Vec<cl::Type> = sig.params.iter().map(|p| p.value_type).collect();
    let returns: Vec<cl::Type> = sig.returns.iter().map(|p| p.value_type).collect();
    let t = returns.first().copied().or(params.first().copied()).unwrap_or(clt::INVALID);
    let (want_p, want_r, what): (Vec<cl::Type>, Vec<cl::Type>, &str) = match i {
        Intrinsic::Special(_) => (vec![], vec![clt::I32], "() -> i32"),
        Intrinsic::Barrier => (vec![], vec![], "()"),
        Intrinsic::Fence(..) => (vec![], vec![], "()"),
        Intrinsic::Shared => (vec![clt::I32], vec![clt::I64], "(i32) -> i64"),
        Intrinsic::Rmw(..) => (vec![clt::I64, t], vec![t], "(i64, T) -> T"),
        Intrinsic::Cas(..) => (vec![clt::I64, t, t], vec![t], "(i64, T, T) -> T"),
        Intrinsic::Load(..) => (vec![clt::I64], vec![t], "(i64) -> T"),
        Intrinsic::Store(..) => (vec![t, clt::I64], vec![], "(T, i64)"),
    };
    let shown = |ts: &[cl::Type]| ts.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(", ");
    if params != want_p || returns != want_r {
        return Some(format!("`%{name}` must be declared {what}, not ({}) -> ({})", shown(&params), shown(&returns)));
    }
    if let Intrinsic::Rmw(op, ..) = i {
        let float = t.is_float();
        let ok = match op {
            RmwOp::Fadd | RmwOp::Fsub | RmwOp::Fmin | RmwOp::Fmax => float,
            RmwOp::IncWrap | RmwOp::DecWrap => t == clt::I32,
            RmwOp::Xchg => true,
            _ => t.is_int(),
        };
        if !ok {
            return Some(format!("`%{name}`: atomic_rmw {} does not take {t}", op.name()));
        }
    }
    None
}

impl Translator<'_> {
    /// Translates a call of an intrinsic (its name and signature already checked).
    pub(super) fn intrinsic(&mut self, inst: cl::Inst) -> Result<(), String> {
        let data = self.src.dfg.insts[inst];
        let name = callee_name(self.src, &data).ok_or("not an intrinsic call")?;
        let i = parse(&name).ok_or("not an intrinsic")?;
        let args: Vec<cl::Value> = self.src.dfg.inst_args(inst).to_vec();
        let result = self.src.dfg.inst_results(inst).first().copied();
        let repr = match i {
            Intrinsic::Special(reg) => Some(Repr::Val(self.ins_v(InstData::Special { reg }))),
            Intrinsic::Barrier => {
                self.ins(InstData::Barrier);
                None
            }
            Intrinsic::Fence(order, scope) => {
                self.ins(InstData::Fence { order, scope });
                None
            }
            Intrinsic::Shared => {
                let off = self.val(args[0])?;
                Some(Repr::Ptr(self.convert(ConvOp::Bitcast, Type::Ptr(AddrSpace::Shared), off)))
            }
            Intrinsic::Rmw(op, order, scope) => {
                let ty = self.ty_of(args[1])?;
                let addr = self.access(args[0])?;
                let arg = self.val(args[1])?;
                Some(Repr::Val(self.ins_v(InstData::AtomicRmw { op, ty, order, scope, addr, arg })))
            }
            Intrinsic::Cas(order, scope) => {
                let ty = self.ty_of(args[1])?;
                let addr = self.access(args[0])?;
                let (expected, replacement) = (self.val(args[1])?, self.val(args[2])?);
                let x = self.ins_v(InstData::AtomicCas { ty, order, scope, addr, expected, replacement });
                Some(Repr::Val(x))
            }
            Intrinsic::Load(order, scope) => {
                let res = result.ok_or("expected a result")?;
                let ty = self.ty_of(res)?;
                let addr = self.access(args[0])?;
                Some(Repr::Val(self.ins_v(InstData::AtomicLoad { ty, order, scope, addr })))
            }
            Intrinsic::Store(order, scope) => {
                let value = self.val(args[0])?;
                let ty = self.out.value_type(value);
                let addr = self.access(args[1])?;
                self.ins(InstData::AtomicStore { ty, order, scope, addr, value });
                None
            }
        };
        if let (Some(res), Some(r)) = (result, repr) {
            self.def(res, r);
        }
        Ok(())
    }

    /// An intrinsic's address operand (its space is the pointer's: see `Translator::ptr`).
    fn access(&mut self, addr: cl::Value) -> Result<atomc_ir::Address, String> {
        Ok(atomc_ir::Address { ptr: self.ptr(addr)?, offset: 0 })
    }
}
