//! Loads, stores, atomics, fences and barriers. The target spells each atomic
//! ([`super::Isa::rmw`]) and selects `atomic_cas` in its own room ([`super::Isa::atomic_cas`]:
//! `sm90/memory.rs`, `sm50/memory.rs`).

use super::{Isel, IselError};
use crate::sass::inst::{MOp, SassInst};
use crate::vcode::VReg;
use atomc_ir::{AddrSpace, Address, InstData, RmwOp, Type};
use atomc_sass::op::{t, Tok, Toks};
use atomc_sass::{op, toks};

/// The `.U8`-style size token of a plain load or store.
fn ldst_size(ty: Type) -> Option<Tok> {
    match ty.bits() {
        8 => Some(t::U8),
        16 => Some(t::U16),
        64 => Some(t::_64),
        _ => None,
    }
}

/// The op and size spelling of an atomic (`ADD`, `MIN.S32`, `ADD.64`,
/// `ADD.F32.FTZ.RN`, ...), as seed 004's modifier groups print them.
pub(super) fn atom_op(op: RmwOp, ty: Type) -> Option<Toks> {
    let name = match op {
        RmwOp::Add | RmwOp::Fadd => t::ADD,
        RmwOp::And => t::AND,
        RmwOp::Or => t::OR,
        RmwOp::Xor => t::XOR,
        RmwOp::Xchg => t::EXCH,
        RmwOp::Smin | RmwOp::Umin | RmwOp::Fmin => t::MIN,
        RmwOp::Smax | RmwOp::Umax | RmwOp::Fmax => t::MAX,
        RmwOp::IncWrap => t::INC,
        RmwOp::DecWrap => t::DEC,
        RmwOp::Sub | RmwOp::Fsub | RmwOp::Nand => return None,
    };
    let signed = matches!(op, RmwOp::Smin | RmwOp::Smax);
    let size: &[Tok] = match (ty, op) {
        (Type::F32, RmwOp::Fadd) => &toks!(F32.FTZ.RN),
        (Type::F64, RmwOp::Fadd) => &toks!(F64.RN),
        (Type::F16x2, _) if op != RmwOp::Xchg => &toks!(F16x2.RN),
        (Type::BF16x2, _) if op != RmwOp::Xchg => &toks!(BF16x2.RN),
        (ty, _) if ty.bits() == 64 && signed => &toks!(S64),
        (ty, _) if ty.bits() == 64 => &toks!(64),
        (_, _) if signed => &toks!(S32),
        _ => &[],
    };
    Some(Toks::of(&[name]).with(size))
}

impl Isel<'_> {
    /// The memory operand of `addr`, with `ptr_add p, iconst c` chains
    /// folded into the 24-bit signed offset.
    pub(super) fn mem(&mut self, addr: &Address) -> (MOp, AddrSpace) {
        let space = self.ty(addr.ptr).addr_space().expect("verified pointer");
        let (mut ptr, mut offset) = (addr.ptr, addr.offset as i64);
        while let atomc_ir::ValueDef::Result(i) = self.func.values[ptr].def {
            let InstData::PtrAdd { ptr: base, offset: off } = self.func.insts[i] else { break };
            let Some(c) = self.const_value(off) else { break };
            let c = if self.ty(off) == Type::I32 { c as i32 as i64 } else { c as i64 };
            let folded = offset + c;
            if folded.abs() > atomc_ir::MAX_ADDRESS_OFFSET as i64 {
                break;
            }
            (ptr, offset) = (base, folded);
        }
        let base = self.reg(ptr);
        let ubase = match (space, &self.target.shared_window) {
            (AddrSpace::Shared, Some(w)) => Some(w.base_ureg),
            _ => None,
        };
        (MOp::Mem { base: base.reg(), width: base.class().width(), offset: offset as i32, ubase }, space)
    }

    pub(super) fn data(&mut self, v: atomc_ir::Value) -> MOp {
        // A 32-bit zero is RZ (`STG.E.STRONG.GPU [R2], RZ`, ptxas 11.8 and 13.5): no register
        // holds the constant across the blocks between its definition and the store.
        if self.const_value(v) == Some(0) && self.ty(v).bits() <= 32 {
            return MOp::rz();
        }
        let r = self.reg(v);
        MOp::Reg { reg: r.reg(), width: r.class().width(), rule: crate::vcode::OperandRule::Use, neg: false }
    }

    /// The result field, or RZ of the result's width when it is unused.
    pub(super) fn def_or_rz(&mut self, used: bool) -> (MOp, Option<VReg>) {
        match (used, self.result()) {
            (true, Some(d)) => (MOp::def(d.reg(), d.class().width()), Some(d)),
            (_, d) => {
                let width = d.map_or(1, |d| d.class().width());
                (
                    MOp::Reg { reg: crate::vcode::Reg::Zero, width, rule: crate::vcode::OperandRule::Def, neg: false },
                    None,
                )
            }
        }
    }

    /// Whether `data` loads, stores or performs an atomic through a generic pointer.
    pub(super) fn is_generic_access(&self, data: &InstData) -> bool {
        let addr = match data {
            InstData::Load { addr, .. }
            | InstData::Store { addr, .. }
            | InstData::AtomicLoad { addr, .. }
            | InstData::AtomicStore { addr, .. }
            | InstData::AtomicRmw { addr, .. } => addr,
            _ => return false,
        };
        self.ty(addr.ptr).addr_space() == Some(AddrSpace::Generic)
    }

    pub(super) fn lower_memory(&mut self, data: &InstData) -> Result<(), IselError> {
        if self.isa.generic_access(self, data)? {
            return Ok(());
        }
        let tg = self.target;
        match data {
            InstData::Load { ty, addr } | InstData::AtomicLoad { ty, addr, .. } => {
                let strong = match data {
                    InstData::AtomicLoad { scope, .. } => tg.strong(*scope),
                    _ => &[],
                };
                let (m, space) = self.mem(addr);
                let d = self.result().expect("loads have results");
                // sm_50 has no STRONG qualifiers: ptxas 11.8 compiles the volatile load that
                // stands for a relaxed atomic load to `LDG.E.CV` (cache-volatile: fetched again
                // from L2 every time), so a spin on a flag sees other blocks' stores.
                let cache = (strong.is_empty() && matches!(data, InstData::AtomicLoad { .. })).then_some(t::CV);
                let opc = match space {
                    AddrSpace::Global => op!(LDG.E).with(cache).with(ldst_size(*ty)).with(strong),
                    AddrSpace::Generic => op!(LD.E).with(ldst_size(*ty)).with(strong),
                    AddrSpace::Shared => op!(LDS).with(ldst_size(*ty)),
                };
                self.emit(SassInst::new(opc, [MOp::def(d.reg(), d.class().width()), m]));
            }
            InstData::Store { value, addr } | InstData::AtomicStore { value, addr, .. } => {
                let strong = match data {
                    InstData::AtomicStore { scope, .. } => tg.strong(*scope),
                    _ => &[],
                };
                let ty = self.ty(*value);
                let (m, space) = self.mem(addr);
                let v = self.data(*value);
                // ptxas 11.8, sm_50: `st.volatile.global` → `STG.E.WT` (write-through to L2).
                let cache = (strong.is_empty() && matches!(data, InstData::AtomicStore { .. })).then_some(t::WT);
                let opc = match space {
                    AddrSpace::Global => op!(STG.E).with(cache).with(ldst_size(ty)).with(strong),
                    AddrSpace::Generic => op!(ST.E).with(ldst_size(ty)).with(strong),
                    AddrSpace::Shared => op!(STS).with(ldst_size(ty)),
                };
                self.emit(SassInst::new(opc, [m, v]));
            }
            InstData::AtomicRmw { .. } if self.aggregate_rmw(data)? => {}
            InstData::AtomicRmw { op, ty, scope, addr, arg, .. } => {
                let Some(spelled) = atom_op(*op, *ty) else {
                    return Err(self.err("`sub` must be legalized to `add` first"));
                };
                let used = self.result_used();
                let (m, space) = self.mem(addr);
                let x = self.data(*arg);
                let wide = ty.bits() == 64;
                let reducible = !matches!(op, RmwOp::Xchg);
                let d = match space {
                    AddrSpace::Global if !used && reducible => None,
                    _ => Some(self.def_or_rz(used).0),
                };
                let inst = self.isa.rmw(space, spelled, tg.strong(*scope), d, m, x, wide).map_err(|r| self.err(r))?;
                self.emit(inst);
            }
            InstData::AtomicCas { .. } => self.isa.atomic_cas(self, data)?,
            InstData::Fence { order, scope } => {
                for opc in tg.fence(*order, *scope) {
                    self.emit(SassInst::new(opc, []));
                }
            }
            InstData::Barrier => self.isa.barrier(self),
            InstData::SurfaceRmw { .. } | InstData::SurfaceCas { .. } => return self.lower_surface(data),
            other => unreachable!("not a memory instruction: {}", other.opcode_name()),
        }
        Ok(())
    }
}
