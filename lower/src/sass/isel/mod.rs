//! Instruction selection: a legalized IR function → [`VCode<SassInst>`].
//!
//! Every IR value gets one virtual register whose class is its shape:
//! 32-bit and narrower values are singles, 64-bit values and global or
//! generic pointers are even pairs. Predicates never live in predicate
//! registers across instructions: a compare feeding `brif` or `select` is
//! re-issued into P0 right before its use, and any other use gets the
//! predicate as 0/1 in a register. That keeps predicate allocation out of
//! the picture at the cost of an occasional extra `ISETP`.
//!
//! Critical edges are split (regalloc2 needs it): a `brif` target with
//! several predecessors is reached through an empty block.
//!
//! The rooms: this selector (the files beside this one) is shared by the SASS targets and asks
//! the target, through [`Isa`] (`isa.rs`), wherever their instructions differ: the spelling of
//! one instruction (an add, a carry pair, a logic op, a shift, an atomic), a sequence (a multiply
//! on sm_50's 16-bit multiplier, a 64-bit compare, a pointer plus an index, the active lanes'
//! mask), or a whole IR instruction (bit fields, subgroup instructions, conversions, CAS).
//! `sm90/` answers for Hopper and `sm50/` for Maxwell, each building its own instructions in
//! the same rooms: `mod.rs` (the `Isa` implementation), `bits.rs`, `subgroup.rs`,
//! `convert.rs` and `memory.rs` (CAS) in both; sm_90's subgroup room goes on in `shuffle.rs`
//! and `reduce64.rs`, and sm_50 has its multiply and shift sequences (`alu.rs`) and generic
//! addressing (`generic.rs`). The shared files call a target only through `Isa`: the one
//! place that names `sm50`/`sm90` is `isa_of`. Every selected instruction is resolved against
//! the target's form table as it is emitted ([`Isel::emit`]).

mod aggregate;
mod alu;
mod convert;
mod dce;
mod divide;
mod divide64;
mod fdiv;
mod fdiv64;
mod half;
mod isa;
mod memory;
mod mulhi;
mod operand_fit;
mod sm50;
mod sm90;
mod surface;
pub use surface::surface_slot_words;

use super::inst::{Flow, MOp, SassInst, SharedForms};
use super::target::SassTarget;
use crate::vcode::{BlockId, HwReg, OperandRule, Reg, RegClass, VCode, VCodeBuilder, VReg};
use atomc_ir::{Block, Function, InstData, Type, Value};
use atomc_sass::op;
use cranelift_entity::SecondaryMap;
pub(crate) use isa::{DivCvt, Isa};
use smallvec::SmallVec;
// Keyed by entity indices: no need for a DoS-resistant hash on every lookup.
use rustc_hash::FxHashMap as HashMap;

/// Why selection failed: an instruction this backend has no lowering for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{target} cannot express `{op}`: {reason}")]
pub struct IselError {
    /// The target.
    pub target: &'static str,
    /// The instruction as the IR spells it.
    pub op: String,
    /// Why.
    pub reason: String,
    /// Where.
    pub loc: atomc_ir::SrcLoc,
    /// The instruction of the legalized function (none for the function as a whole).
    pub inst: Option<atomc_ir::Inst>,
    /// The selector produced an instruction its target cannot encode: a bug in atomc, not a
    /// refusal of the input.
    pub unencodable: bool,
}

/// The register class of a value of type `ty`.
pub fn class_of(ty: Type) -> RegClass {
    if ty.bits() == 64 {
        RegClass::Pair
    } else {
        RegClass::Single
    }
}

pub(crate) struct Isel<'a> {
    pub func: &'a Function,
    pub target: &'static SassTarget,
    /// The target's answers where its instructions differ ([`Isa`]).
    pub isa: &'static dyn Isa,
    pub b: VCodeBuilder<SassInst>,
    /// Selected code per block, pushed to `b` after dead-code elimination.
    pending: Vec<dce::PendingBlock>,
    pub block: BlockId,
    pub vregs: SecondaryMap<Value, Option<VReg>>,
    pub uses: SecondaryMap<Value, u32>,
    /// Uses other than as the condition of `brif`/`select`.
    pub non_cond_uses: SecondaryMap<Value, u32>,
    pub blocks: HashMap<Block, BlockId>,
    /// The edge blocks of each `brif` (then, else).
    pub edge_blocks: HashMap<Block, [Option<BlockId>; 2]>,
    pub ir_block: Block,
    /// An instruction the selector produced that no form of the target's table encodes (a
    /// selector bug, reported before allocation with the IR instruction it came from).
    pub unencodable: Option<String>,
    /// An instruction whose immediate no form of the target holds, in its field or in a
    /// register ([`operand_fit`]): a refusal of the IR instruction, naming it and the target.
    pub refused: Option<String>,
    /// Resolutions of instruction shapes: the thread's, kept from function to function.
    pub forms: SharedForms,
    /// The constant-bank offset of each kernel parameter.
    pub param_cbank: HashMap<Value, u32>,
    /// The register each parameter was last loaded into and the block that loaded it (see
    /// [`Isel::reg`]); empty until the parameters' offsets are known.
    param_loads: HashMap<Value, (BlockId, VReg)>,
    params_placed: bool,
    /// Coordinate tuples already built in a block, by their values.
    pub coord_tuples: HashMap<(BlockId, Vec<Value>, u32), VReg>,
    pub inst: atomc_ir::Inst,
    /// The warp-uniform values, where the target aggregates atomics.
    pub uniformity: Option<crate::uniform::Uniformity>,
    /// Where lanes meet before subgroup instructions after loops, where the target needs it.
    sync_plan: crate::subgroup_sync::SyncPlan,
    /// The mask of the lanes at the entry of each block of `sync_plan` that records one (a
    /// register).
    sync_masks: HashMap<Block, MOp>,
}

/// Selects machine instructions for a legalized, verified kernel.
/// Whether `func` loads, stores or performs atomics on shared memory.
fn uses_shared_memory(func: &Function) -> bool {
    func.inst_order().any(|(_, i)| {
        let addr = match &func.insts[i] {
            InstData::Load { addr, .. }
            | InstData::Store { addr, .. }
            | InstData::AtomicLoad { addr, .. }
            | InstData::AtomicStore { addr, .. }
            | InstData::AtomicRmw { addr, .. }
            | InstData::AtomicCas { addr, .. } => addr.ptr,
            // A generic address in the shared window is the shared address under its high word.
            InstData::PtrToGeneric { ptr } => *ptr,
            _ => return false,
        };
        func.value_type(addr).addr_space() == Some(atomc_ir::AddrSpace::Shared)
    })
}

/// The selection rules of `sm`.
fn isa_of(sm: atomc_sass::Sm) -> &'static dyn Isa {
    match sm {
        atomc_sass::Sm::Sm50 => &sm50::Sm50,
        atomc_sass::Sm::Sm90 => &sm90::Sm90,
    }
}

pub fn select(func: &Function, target: &'static SassTarget) -> Result<VCode<SassInst>, IselError> {
    select_with(func, target, true)
}

/// [`select`], with warp aggregation of atomics (`isel::aggregate`) on or off.
pub fn select_with(func: &Function, target: &'static SassTarget, aggregate: bool) -> Result<VCode<SassInst>, IselError> {
    let mut uses: SecondaryMap<Value, u32> = SecondaryMap::new();
    let mut non_cond_uses: SecondaryMap<Value, u32> = SecondaryMap::new();
    for (_, inst) in func.inst_order() {
        let data = &func.insts[inst];
        let cond = match data {
            InstData::Brif { cond, .. } | InstData::Select { cond, .. } => Some(*cond),
            _ => None,
        };
        let mut cond_seen = false;
        for v in data.args() {
            uses[v] += 1;
            if Some(v) == cond && !cond_seen {
                cond_seen = true;
            } else {
                non_cond_uses[v] += 1;
            }
        }
    }
    // Blocks in reverse postorder, each followed by the two edge blocks of
    // its `brif`: regalloc2 (and its checker) expect a forward
    // predecessor to come before its successor. Unreachable blocks are
    // not selected.
    let order: Vec<Block> = atomc_ir::verify::dominators::DominatorTree::compute(func).rpo().to_vec();
    let mut b = VCodeBuilder::new();
    let entry = b.new_block();
    let mut blocks = HashMap::default();
    let mut edge_blocks = HashMap::default();
    // Predecessor counts (an edge per branch target, so a `brif` to one block twice counts 2).
    let mut preds: HashMap<Block, u32> = HashMap::default();
    for &blk in &order {
        if let Some(t) = func.terminator(blk) {
            match &func.insts[t] {
                InstData::Jump { dest } => *preds.entry(dest.block).or_default() += 1,
                InstData::Brif { then_dest, else_dest, .. } => {
                    *preds.entry(then_dest.block).or_default() += 1;
                    *preds.entry(else_dest.block).or_default() += 1;
                }
                _ => {}
            }
        }
    }
    for &blk in &order {
        blocks.insert(blk, b.new_block());
        if let Some(t) = func.terminator(blk) {
            if let InstData::Brif { then_dest, else_dest, .. } = &func.insts[t] {
                // Only a critical edge (its target has other predecessors) needs a block of its own.
                let mut split = |d: &atomc_ir::BlockCall| (preds[&d.block] > 1).then(|| b.new_block());
                let (then_split, else_split) = (split(then_dest), split(else_dest));
                edge_blocks.insert(blk, [then_split, else_split]);
            }
        }
    }
    let first_inst = func.inst_order().next().map(|(_, i)| i).unwrap_or_else(|| atomc_ir::Inst::from_u32(0));
    let mut s = Isel { func, target, isa: isa_of(target.sm), b, block: entry, pending: Vec::new(), vregs: SecondaryMap::new(), uses, non_cond_uses, blocks, edge_blocks, inst: first_inst, ir_block: func.layout[0], unencodable: None, refused: None, forms: SharedForms::lend((target.arch)()), param_cbank: HashMap::default(), param_loads: HashMap::default(), params_placed: false, coord_tuples: HashMap::default(), uniformity: (target.warp_aggregation.is_some() || target.vector_aggregation).then(|| crate::uniform::Uniformity::of(func)), sync_plan: if target.warpsync_subgroups { crate::subgroup_sync::SyncPlan::of(func) } else { Default::default() }, sync_masks: HashMap::default() };
    if !aggregate {
        s.uniformity = None;
    }
    let mask_blocks = s.sync_plan.mask_blocks();

    // Block parameters of every block but the entry become vreg params;
    // the entry's parameters are the kernel parameters, read from the
    // constant bank in a parameterless VCode entry block.
    for (i, &blk) in order.iter().enumerate() {
        let vb = s.blocks[&blk];
        for &p in &func.blocks[blk].params {
            let class = class_of(func.value_type(p));
            let v = if i == 0 { s.b.new_vreg(class) } else { s.b.append_block_param(vb, class) };
            s.vregs[p] = Some(v);
        }
    }
    s.load_params()?;
    if let Some(why) = s.unencodable.take() {
        return Err(s.unencodable_err(why));
    }
    let first = s.blocks[&func.layout[0]];
    s.push_branch(SassInst::jump(first), &[(first, &[])]);

    for &blk in &order {
        s.block = s.blocks[&blk];
        s.ir_block = blk;
        // Most IR instructions select to one to three machine instructions.
        s.pending_block().insts.reserve(2 * func.blocks[blk].insts.len());
        if mask_blocks.contains(&blk) {
            s.record_lane_mask(blk)?;
        }
        for &inst in &func.blocks[blk].insts {
            s.inst = inst;
            s.sync_lanes_before(inst)?;
            s.lower_inst(inst)?;
            if let Some(why) = s.refused.take() {
                return Err(s.err(why));
            }
            if let Some(why) = s.unencodable.take() {
                return Err(s.unencodable_err(why));
            }
        }
    }
    s.flush();
    s.b.finish().map_err(|e| IselError {
        target: target.name,
        op: "(function)".into(),
        reason: format!("internal error building machine code: {e}"),
        loc: Default::default(),
        inst: None,
        unencodable: false,
    })
}

impl SassInst {
    /// `BRA target`.
    pub fn jump(target: BlockId) -> SassInst {
        let mut i = SassInst::new(op!(BRA), [MOp::Label(target)]);
        i.flow = Flow::Jump;
        i
    }
}

impl<'a> Isel<'a> {
    pub fn err(&self, reason: impl Into<String>) -> IselError {
        IselError {
            target: self.target.name,
            op: self.func.insts[self.inst].opcode_name().to_string(),
            reason: reason.into(),
            loc: self.func.inst_locs[self.inst],
            inst: Some(self.inst),
            unencodable: false,
        }
    }

    fn unencodable_err(&self, why: String) -> IselError {
        IselError { unencodable: true, ..self.err(format!("selected {why}")) }
    }

    fn pending_block(&mut self) -> &mut dce::PendingBlock {
        let i = self.block.index();
        while self.pending.len() <= i {
            self.pending.push(dce::PendingBlock { insts: Vec::new(), succ_args: Vec::new(), targets: Vec::new() });
        }
        &mut self.pending[i]
    }

    /// Appends a selected instruction, spelled for the target, once its form is resolved (see
    /// [`SassInst::resolve`]); one no form accepts is recorded for `select` to report with the
    /// IR instruction's location. An immediate its form cannot hold goes through a register
    /// where a form takes one there, and is refused where none does ([`operand_fit`]).
    pub fn emit(&mut self, mut inst: SassInst) {
        if let Err(why) = inst.resolve_cached((self.target.arch)(), &mut self.forms) {
            if let Some(fixed) = self.zeros_in_registers(&inst) {
                inst = fixed;
            } else if let Some(fixed) = self.immediates_in_registers(&inst) {
                inst = fixed;
            } else if let Some(refusal) =
                operand_fit::immediate_misfit(&inst, (self.target.arch)(), &mut self.forms)
            {
                self.refused.get_or_insert(refusal);
            } else {
                self.unencodable.get_or_insert(why);
            }
        }
        self.pending_block().insts.push(inst);
    }

    /// `inst` with each RZ it reads replaced by a register holding zero, emitted before it,
    /// when that is what its form needs: a slot the form table marks not-RZ (`RegSpec::rz_ok`,
    /// e.g. the compare and swap values of every CAS form) refuses RZ, and then no form
    /// resolves. `None` when that was not the reason.
    fn zeros_in_registers(&mut self, inst: &SassInst) -> Option<SassInst> {
        let zero_read = |op: &MOp| matches!(op, MOp::Reg { reg: Reg::Zero, rule: OperandRule::Use, neg: false, .. });
        if !inst.ops.iter().any(zero_read) {
            return None;
        }
        // Registers in their place first (R0, as resolution's placeholders are): nothing is
        // emitted unless the instruction then resolves.
        let mut trial = inst.clone();
        for op in trial.ops.iter_mut().filter(|op| zero_read(op)) {
            let MOp::Reg { reg, .. } = op else { unreachable!() };
            *reg = Reg::Hw(HwReg::new(0).expect("R0"));
        }
        trial.resolve_cached((self.target.arch)(), &mut self.forms).ok()?;
        let mut fixed = inst.clone();
        for op in fixed.ops.iter_mut() {
            if zero_read(op) {
                let MOp::Reg { width, .. } = *op else { unreachable!() };
                let (class, ty) = if width == 2 { (RegClass::Pair, Type::I64) } else { (RegClass::Single, Type::I32) };
                let z = self.b.new_vreg(class);
                self.constant(z, ty, 0);
                *op = MOp::Reg { reg: z.reg(), width, rule: OperandRule::Use, neg: false };
            }
        }
        fixed.resolve_cached((self.target.arch)(), &mut self.forms).ok()?;
        Some(fixed)
    }

    fn push_branch(&mut self, mut inst: SassInst, targets: &[(BlockId, &[VReg])]) {
        if let Err(why) = inst.resolve_cached((self.target.arch)(), &mut self.forms) {
            self.unencodable.get_or_insert(why);
        }
        let b = self.pending_block();
        b.insts.push(inst);
        b.succ_args = targets.iter().map(|(_, a)| a.to_vec()).collect();
        b.targets = targets.iter().map(|(t, _)| *t).collect();
    }

    /// Removes dead code and hands every block to the builder.
    fn flush(&mut self) {
        dce::run(&mut self.pending, self.b.num_vregs());
        for (i, mut pb) in std::mem::take(&mut self.pending).into_iter().enumerate() {
            let block = BlockId(i as u32);
            let Some(term) = pb.insts.pop() else { continue };
            self.b.append(block, pb.insts);
            if term.flow == Flow::Exit {
                self.b.push(block, term);
            } else {
                let t: Vec<(BlockId, &[VReg])> = pb.targets.iter().zip(&pb.succ_args).map(|(b, a)| (*b, a.as_slice())).collect();
                self.b.push_branch(block, term, &t);
            }
        }
    }

    /// The vreg of an IR value (created on first sight: results are
    /// defined by the instruction that asks for them).
    pub fn reg(&mut self, v: Value) -> VReg {
        if self.params_placed {
            if let Some(r) = self.param_load(v) {
                return r;
            }
        }
        if let Some(r) = self.vregs[v] {
            return r;
        }
        let r = self.b.new_vreg(class_of(self.func.value_type(v)));
        self.vregs[v] = Some(r);
        r
    }

    /// The result vreg of the current instruction.
    pub fn result(&mut self) -> Option<VReg> {
        let v = self.func.inst_result(self.inst)?;
        Some(self.reg(v))
    }

    pub fn ty(&self, v: Value) -> Type {
        self.func.value_type(v)
    }

    pub fn new_vreg(&mut self, class: RegClass) -> VReg {
        self.b.new_vreg(class)
    }

    /// Builds pair `dst` from two 32-bit halves (each a register or RZ)
    /// with two MOVs: the first defines the pair, the second rewrites its
    /// high half in place.
    pub fn make_pair(&mut self, dst: VReg, lo: MOp, hi: MOp) {
        let tmp = self.new_vreg(RegClass::Pair);
        self.emit(self.isa.mov(&[MOp::def(tmp.lo(), 2)], lo));
        self.emit(self.isa.mov(&[MOp::Tied { reg: tmp.reg(), width: 2 }, MOp::reuse_def(dst.hi(), 0)], hi));
    }

    /// Emits the two halves of a 64-bit operation: `lo` defines the pair
    /// (its first operand is the result field), `hi` rewrites the high half. Both are built in
    /// the target's spelling with a placeholder result field first.
    pub fn pair_op(&mut self, dst: VReg, lo: SassInst, hi: SassInst) {
        let tmp = self.new_vreg(RegClass::Pair);
        let mut lo = lo;
        lo.ops[0] = MOp::def(tmp.lo(), 2);
        let mut hi = hi;
        hi.ops[0] = MOp::reuse_def(dst.hi(), 0);
        hi.ops.insert(0, MOp::Tied { reg: tmp.reg(), width: 2 });
        self.emit(lo);
        self.emit(hi);
    }

    /// Kernel parameter `v` in a register, loaded where it is read: once per block, right
    /// before the block's first reader. A parameter loaded once at entry would hold its
    /// registers across the whole kernel (three pointers are six registers); ptxas too reads
    /// parameters next to their use (`LDC.64 R2, c[0x0][0x210]` before the atomic, ptxas 13.5).
    /// Reloading for every reading instruction instead saved no bench kernel a register on
    /// sm_90 and cost one on sm_50, for 2-8% more instructions (a 64-bit parameter is two
    /// `MOV`s from the bank on sm_50). Forms that take a constant-bank operand read the
    /// parameter there instead ([`Isel::param_cbank`]), and a load left unread goes in
    /// dead-code elimination.
    fn param_load(&mut self, v: Value) -> Option<VReg> {
        let offset = self.param_cbank(v)?;
        if let Some(&(block, r)) = self.param_loads.get(&v) {
            if block == self.block {
                return Some(r);
            }
        }
        let ty = self.ty(v);
        let r = self.b.new_vreg(class_of(ty));
        self.isa.load_cbank(self, r, ty, offset);
        self.param_loads.insert(v, (self.block, r));
        Some(r)
    }

    fn load_params(&mut self) -> Result<(), IselError> {
        let entry = self.func.layout[0];
        let mut offset = self.target.param_base;
        for &p in &self.func.blocks[entry].params {
            let ty = self.ty(p);
            let size = ty.bytes().max(4);
            offset = offset.next_multiple_of(size);
            self.param_cbank.insert(p, offset);
            offset += size;
        }
        self.params_placed = true;
        if let Some(w) = &self.target.shared_window {
            if uses_shared_memory(self.func) {
                // The shared window's base, once per kernel (see `SharedWindow`).
                let (base, scratch) = (w.base_ureg, w.scratch_ureg);
                let s2ur = SassInst::new(op!(S2UR), [MOp::UReg(scratch), MOp::SReg(&"SR_CgaCtaId")]);
                self.emit(s2ur);
                self.emit(SassInst::new(op!(UMOV), [MOp::UReg(base), MOp::Imm(w.reserved as i64)]));
                let ulea = [MOp::UReg(base), MOp::UReg(scratch), MOp::UReg(base), MOp::Imm(0x18)];
                self.emit(SassInst::new(op!(ULEA), ulea));
            }
        }
        Ok(())
    }

    fn lower_inst(&mut self, inst: atomc_ir::Inst) -> Result<(), IselError> {
        let data = self.func.insts[inst].clone();
        match &data {
            InstData::Jump { dest } => {
                let target = self.blocks[&dest.block];
                let args: SmallVec<[VReg; 4]> = dest.args.iter().map(|&a| self.reg(a)).collect();
                self.push_branch(SassInst::jump(target), &[(target, &args)]);
            }
            InstData::Brif { cond, then_dest, else_dest } => {
                let negate = self.cond_into_p0(*cond)?;
                let mut targets: Vec<(BlockId, Vec<VReg>)> = Vec::new();
                let edges = self.edge_blocks[&self.ir_block];
                for (dest, split) in [then_dest, else_dest].into_iter().zip(edges) {
                    let args: Vec<VReg> = dest.args.iter().map(|&a| self.reg(a)).collect();
                    let target = self.blocks[&dest.block];
                    let Some(split) = split else {
                        targets.push((target, args));
                        continue;
                    };
                    // Split the edge: regalloc2 places edge moves in a block
                    // with a single predecessor.
                    let here = self.block;
                    self.block = split;
                    self.push_branch(SassInst::jump(target), &[(target, &args)]);
                    self.block = here;
                    targets.push((split, Vec::new()));
                }
                let mut br = SassInst::new(op!(BRA), []);
                br.flow = Flow::CondJump { then_block: targets[0].0, else_block: targets[1].0, negate };
                let t: Vec<(BlockId, &[VReg])> = targets.iter().map(|(b, a)| (*b, a.as_slice())).collect();
                self.push_branch(br, &t);
            }
            InstData::Return { args } => {
                if !args.is_empty() {
                    return Err(self.err("kernels return nothing; functions with results cannot be compiled"));
                }
                let mut exit = SassInst::new(op!(EXIT), []);
                exit.flow = Flow::Exit;
                self.push_branch(exit, &[]);
            }
            InstData::Load { .. }
            | InstData::Store { .. }
            | InstData::AtomicRmw { .. }
            | InstData::AtomicCas { .. }
            | InstData::AtomicLoad { .. }
            | InstData::AtomicStore { .. }
            | InstData::Fence { .. }
            | InstData::SurfaceRmw { .. }
            | InstData::SurfaceCas { .. }
            | InstData::Barrier => self.lower_memory(&data)?,
            _ => self.lower_alu(&data)?,
        }
        Ok(())
    }

    /// At the entry of a block the plan names: the mask of the lanes there ([`Isa::active_lanes`]
    /// in a register), for the `WARPSYNC`s of the subgroup instructions after the loops that
    /// follow.
    fn record_lane_mask(&mut self, blk: Block) -> Result<(), IselError> {
        let m = self.isa.active_lanes(self, true)?;
        self.sync_masks.insert(blk, m);
        Ok(())
    }

    /// `WARPSYNC mask` before a subgroup instruction the plan brings lanes together for.
    fn sync_lanes_before(&mut self, inst: atomc_ir::Inst) -> Result<(), IselError> {
        let Some(blk) = self.sync_plan.mask_from.get(&inst) else {
            if self.sync_plan.unplaceable.contains(&inst) {
                return Err(self.err("no place to bring its lanes together (the legalizer should have refused it)"));
            }
            return Ok(());
        };
        let m = self.sync_masks[blk];
        self.emit(SassInst::new(op!(WARPSYNC), [m]));
        Ok(())
    }

    /// Whether `v`'s single register is used as a 64-bit pair.
    /// Where kernel parameter `v` lives in constant bank 0 (`None` for any other value).
    pub fn param_cbank(&self, v: Value) -> Option<u32> {
        self.param_cbank.get(&v).copied()
    }

    pub fn is_pair(&self, v: Value) -> bool {
        class_of(self.ty(v)) == RegClass::Pair
    }

    /// Whether the result of the current instruction is used at all.
    pub fn result_used(&self) -> bool {
        self.func.inst_result(self.inst).is_some_and(|v| self.uses[v] > 0)
    }
}
