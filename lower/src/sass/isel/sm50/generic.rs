//! Generic-address memory access on sm_50.
//!
//! Maxwell's `ATOM` addresses global memory only, so ptxas 11.8 tests at run time whether a
//! generic address lies in the block's shared window and takes `ATOMS` on the shared offset or
//! `ATOM` on the global address. For `atom.add.u32 [%rd1]` on a generic pointer it writes the
//! shared-window test of `isspacep.shared` (`LOP32I.AND R0, R0, 0xff000000`, `ISETP.NE.U32.AND P0,
//! PT, R0, c[0x0][0x0], PT`, `ISETP.EQ.U32.AND P0, PT, RZ, c[0x0][0x144], !P0`: the high word zero
//! and the top byte of the low word the window's, whose generic base is the word at
//! `c[0x0][0x0]`), a branch to `ATOM.E.ADD R4, [R2], R4` or to `LOP32I.AND R2, R2, 0xffffff` +
//! `ATOMS.ADD R4, [R2], R4`, and a SYNC where the two meet.
//!
//! atomc selects no branches inside an instruction, so it predicates both paths instead: the
//! same test into P0, `@P0` the shared access on the low 24 bits, `@!P0` the global one, and
//! `SEL` of the two results. Each lane runs exactly one of the two accesses. Atomic loads and
//! stores take the same two paths (`LDS` / `LDG.E.CV`, `STS` / `STG.E.WT`), as do plain ones.
//!
//! The test is made on the base register of the address; a constant offset folded into the
//! access cannot carry it out of the 16 MiB window of a valid shared address.

use super::Sm50;
use crate::sass::inst::{MOp, SassInst, COND_PRED};
use crate::sass::isel::memory::atom_op;
use crate::sass::isel::{Isa, Isel, IselError};
use crate::vcode::{RegClass, VReg};
use atomc_ir::{AddrSpace, InstData, Type};
use atomc_sass::op;
use atomc_sass::op::{t, Tok};

/// `@P0` (shared) or `@!P0` (global).
pub(super) fn guarded(mut inst: SassInst, global: bool) -> SassInst {
    inst.guard = Some((COND_PRED, global));
    inst
}

/// The `.U8`-style size token of a load or store.
fn size(ty: Type) -> Option<Tok> {
    match ty.bits() {
        8 => Some(t::U8),
        16 => Some(t::U16),
        64 => Some(t::_64),
        _ => None,
    }
}

impl Isel<'_> {
    /// P0 := the generic address in `m` lies in the shared window; returns `m` rebased on the
    /// shared offset (the address's low 24 bits) for the shared path.
    pub(super) fn shared_window_test(&mut self, m: MOp) -> MOp {
        let MOp::Mem { base, offset, .. } = m else { unreachable!("a memory operand") };
        let crate::vcode::Reg::Virt { vreg: pair, .. } = base else { unreachable!("a virtual pointer pair") };
        let window = self.new_vreg(RegClass::Single);
        self.emit(SassInst::new(op!(MOV), [MOp::def(window.reg(), 1), MOp::CBank(0)]));
        let top = self.new_vreg(RegClass::Single);
        let lut = |d: VReg, mask: i64| {
            SassInst::new(op!(LOP32I.AND), [MOp::def(d.reg(), 1), MOp::use_(pair.lo()), MOp::Imm(mask)])
        };
        self.emit(lut(top, 0xff00_0000));
        let p0 = MOp::p0();
        self.emit(SassInst::new(
            op!(ISETP.EQ.U32.AND),
            [p0, MOp::pt(), MOp::use_(top.reg()), MOp::use_(window.reg()), MOp::pt()],
        ));
        self.emit(SassInst::new(op!(ISETP.EQ.U32.AND), [p0, MOp::pt(), MOp::use_(pair.hi()), MOp::rz(), p0]));
        let off = self.new_vreg(RegClass::Single);
        self.emit(lut(off, 0x00ff_ffff));
        MOp::Mem { base: off.reg(), width: 1, offset, ubase: None }
    }

    /// A shared offset as a generic address, as ptxas 11.8 writes `cvta.shared.u64`: the
    /// window's base (`c[0x0][0x0]`) or-ed into the low word (`LOP.OR R8, R8, c[0x0][0x0]`),
    /// the high word zero (`MOV R9, RZ`).
    pub(super) fn shared_to_generic_sm50(&mut self, d: VReg, ptr: atomc_ir::Value) {
        let p = self.reg(ptr);
        let window = self.new_vreg(RegClass::Single);
        self.emit(SassInst::new(op!(MOV), [MOp::def(window.reg(), 1), MOp::CBank(0)]));
        let lo = self.new_vreg(RegClass::Single);
        let or = [MOp::def(lo.reg(), 1), MOp::use_(p.reg()), MOp::use_(window.reg()), MOp::rz(), MOp::Imm(0xfc)];
        self.emit(SassInst::new(op!(LOP3.LUT), or));
        self.make_pair(d, MOp::use_(lo.reg()), MOp::rz());
    }

    /// `d := P0 ? shared : global`, one or two registers wide.
    pub(super) fn select_paths(&mut self, d: VReg, shared: VReg, global: VReg) {
        let sel = |a, b| SassInst::new(op!(SEL), [MOp::rz(), MOp::use_(a), MOp::use_(b), MOp::p0()]);
        if d.class() == RegClass::Pair {
            self.pair_op(d, sel(shared.lo(), global.lo()), sel(shared.hi(), global.hi()));
        } else {
            let mut s = sel(shared.reg(), global.reg());
            s.ops[0] = MOp::def(d.reg(), 1);
            self.emit(s);
        }
    }

    /// A result field for one path: a fresh register of the result's class, or RZ.
    pub(super) fn path_def(&mut self, used: bool) -> (MOp, Option<VReg>) {
        match if used { self.result() } else { None } {
            Some(d) => {
                let v = self.new_vreg(d.class());
                (MOp::def(v.reg(), d.class().width()), Some(v))
            }
            None => (self.def_or_rz(false).0, None),
        }
    }

    /// Loads, stores and native atomics (not CAS: `memory.rs`) on a generic
    /// address, both paths predicated.
    pub(super) fn lower_generic_sm50(&mut self, data: &InstData) -> Result<(), IselError> {
        let (global, used) = match data {
            InstData::Load { addr, .. } | InstData::AtomicLoad { addr, .. } => (self.mem(addr).0, true),
            InstData::Store { addr, .. } | InstData::AtomicStore { addr, .. } => (self.mem(addr).0, false),
            InstData::AtomicRmw { addr, .. } => (self.mem(addr).0, self.result_used()),
            other => unreachable!("not a generic access: {}", other.opcode_name()),
        };
        let shared = self.shared_window_test(global);
        let atomic = matches!(data, InstData::AtomicLoad { .. } | InstData::AtomicStore { .. });
        let (ds, vs) = self.path_def(used);
        let (dg, vg) = self.path_def(used);
        let (s_inst, g_inst) = match data {
            InstData::Load { ty, .. } | InstData::AtomicLoad { ty, .. } => {
                // The cache-volatile load ptxas 11.8 writes for `ld.volatile.global` (memory.rs).
                let cv = atomic.then_some(t::CV);
                (
                    SassInst::new(op!(LDS).with(size(*ty)), [ds, shared]),
                    SassInst::new(op!(LDG.E).with(cv).with(size(*ty)), [dg, global]),
                )
            }
            InstData::Store { value, .. } | InstData::AtomicStore { value, .. } => {
                let ty = self.ty(*value);
                let r = self.reg(*value);
                let v = MOp::Reg {
                    reg: r.reg(),
                    width: r.class().width(),
                    rule: crate::vcode::OperandRule::Use,
                    neg: false,
                };
                let wt = atomic.then_some(t::WT);
                (
                    SassInst::new(op!(STS).with(size(ty)), [shared, v]),
                    SassInst::new(op!(STG.E).with(wt).with(size(ty)), [global, v]),
                )
            }
            InstData::AtomicRmw { op, ty, arg, .. } => {
                let Some(spelled) = atom_op(*op, *ty) else {
                    return Err(self.err("`sub` must be legalized to `add` first"));
                };
                let wide = ty.bits() == 64;
                let r = self.reg(*arg);
                let x = MOp::Reg {
                    reg: r.reg(),
                    width: r.class().width(),
                    rule: crate::vcode::OperandRule::Use,
                    neg: false,
                };
                let rmw = |space, d, m| Sm50.rmw(space, spelled, &[], d, m, x, wide).map_err(|r| self.err(r));
                let s = rmw(AddrSpace::Shared, Some(ds), shared)?;
                // An unused result reduces on the global path, as on a global pointer (memory.rs).
                let reduce = !used && *op != atomc_ir::RmwOp::Xchg;
                (s, rmw(AddrSpace::Global, (!reduce).then_some(dg), global)?)
            }
            _ => unreachable!("matched above"),
        };
        self.emit(guarded(s_inst, false));
        self.emit(guarded(g_inst, true));
        if let (Some(vs), Some(vg), Some(d)) = (vs, vg, self.result()) {
            self.select_paths(d, vs, vg);
        }
        Ok(())
    }
}
