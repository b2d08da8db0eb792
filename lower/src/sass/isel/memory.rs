//! Loads, stores, atomics, fences and barriers. The target spells each atomic
//! ([`super::Isa::rmw`]) and selects `atomic_cas` in its own room ([`super::Isa::atomic_cas`]:
//! `sm90/memory.rs`, `sm50/memory.rs`).

use super::{Isel, IselError};
use crate::sass::inst::{MOp, SassInst};
use crate::vcode::VReg;
use atomc_ir::{AddrSpace, Address, InstData, RmwOp, Type};

/// The `.U8`-style size suffix of a plain load or store.
fn ldst_size(ty: Type) -> &'static str {
    match ty.bits() {
        8 => ".U8",
        16 => ".U16",
        64 => ".64",
        _ => "",
    }
}

/// The op and size spelling of an atomic (`ADD`, `MIN.S32`, `ADD.64`,
/// `ADD.F32.FTZ.RN`, ...), as seed 004's modifier groups print them.
pub(super) fn atom_op(op: RmwOp, ty: Type) -> Option<String> {
    let name = match op {
        RmwOp::Add | RmwOp::Fadd => "ADD",
        RmwOp::And => "AND",
        RmwOp::Or => "OR",
        RmwOp::Xor => "XOR",
        RmwOp::Xchg => "EXCH",
        RmwOp::Smin | RmwOp::Umin | RmwOp::Fmin => "MIN",
        RmwOp::Smax | RmwOp::Umax | RmwOp::Fmax => "MAX",
        RmwOp::IncWrap => "INC",
        RmwOp::DecWrap => "DEC",
        RmwOp::Sub | RmwOp::Fsub | RmwOp::Nand => return None,
    };
    let signed = matches!(op, RmwOp::Smin | RmwOp::Smax);
    let size = match (ty, op) {
        (Type::F32, RmwOp::Fadd) => ".F32.FTZ.RN",
        (Type::F64, RmwOp::Fadd) => ".F64.RN",
        (Type::F16x2, _) if op != RmwOp::Xchg => ".F16x2.RN",
        (Type::BF16x2, _) if op != RmwOp::Xchg => ".BF16x2.RN",
        (t, _) if t.bits() == 64 && signed => ".S64",
        (t, _) if t.bits() == 64 => ".64",
        (_, _) if signed => ".S32",
        _ => "",
    };
    Some(format!("{name}{size}"))
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
        let t = self.target;
        match data {
            InstData::Load { ty, addr } | InstData::AtomicLoad { ty, addr, .. } => {
                let strong = match data {
                    InstData::AtomicLoad { scope, .. } => t.strong(*scope),
                    _ => "",
                };
                let (m, space) = self.mem(addr);
                let d = self.result().expect("loads have results");
                // sm_50 has no STRONG qualifiers: ptxas 11.8 compiles the volatile load that
                // stands for a relaxed atomic load to `LDG.E.CV` (cache-volatile: fetched again
                // from L2 every time), so a spin on a flag sees other blocks' stores.
                let cache = if strong.is_empty() && matches!(data, InstData::AtomicLoad { .. }) { ".CV" } else { "" };
                let opc = match space {
                    AddrSpace::Global => format!("LDG.E{cache}{}{strong}", ldst_size(*ty)),
                    AddrSpace::Generic => format!("LD.E{}{strong}", ldst_size(*ty)),
                    AddrSpace::Shared => format!("LDS{}", ldst_size(*ty)),
                };
                self.emit(SassInst::new(opc, [MOp::def(d.reg(), d.class().width()), m]));
            }
            InstData::Store { value, addr } | InstData::AtomicStore { value, addr, .. } => {
                let strong = match data {
                    InstData::AtomicStore { scope, .. } => t.strong(*scope),
                    _ => "",
                };
                let ty = self.ty(*value);
                let (m, space) = self.mem(addr);
                let v = self.data(*value);
                // ptxas 11.8, sm_50: `st.volatile.global` → `STG.E.WT` (write-through to L2).
                let cache = if strong.is_empty() && matches!(data, InstData::AtomicStore { .. }) { ".WT" } else { "" };
                let opc = match space {
                    AddrSpace::Global => format!("STG.E{cache}{}{strong}", ldst_size(ty)),
                    AddrSpace::Generic => format!("ST.E{}{strong}", ldst_size(ty)),
                    AddrSpace::Shared => format!("STS{}", ldst_size(ty)),
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
                let inst = self.isa.rmw(space, &spelled, t.strong(*scope), d, m, x, wide).map_err(|r| self.err(r))?;
                self.emit(inst);
            }
            InstData::AtomicCas { .. } => self.isa.atomic_cas(self, data)?,
            InstData::Fence { order, scope } => {
                for opc in t.fence(*order, *scope) {
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
