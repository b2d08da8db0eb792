//! The `regalloc2::Function` view of a [`VCode`].
//!
//! `VCode` lives in `atomc-lower`, which does not depend on regalloc2, so the adapter converts
//! its operands, block parameters and edges into regalloc2's types once (linear in the size of
//! the function) and answers the allocator's queries from those arrays. regalloc2 sees only the
//! virtual registers the code uses, numbered densely in the VCode's order (its own checker's
//! messages name those numbers; [`Ra2Func::vcode_names`] renames an SSA error's).

use atomc_lower::vcode::{MachInst, OperandKind, OperandPos, RegClass, VCode, VReg};
use regalloc2 as ra2;

/// regalloc2 class for a shape: Int = single, Float = pair, Vector = quad.
pub fn ra2_class(c: RegClass) -> ra2::RegClass {
    match c {
        RegClass::Single => ra2::RegClass::Int,
        RegClass::Pair => ra2::RegClass::Float,
        RegClass::Quad => ra2::RegClass::Vector,
    }
}

/// The shape for a regalloc2 class.
pub fn shape_of(c: ra2::RegClass) -> RegClass {
    match c {
        ra2::RegClass::Int => RegClass::Single,
        ra2::RegClass::Float => RegClass::Pair,
        ra2::RegClass::Vector => RegClass::Quad,
    }
}

/// Dense regalloc2 numbers for the VCode's virtual registers that are used: selection leaves
/// many numbered but unused (values folded into an immediate, an address or a predicate, or
/// removed as dead), and regalloc2's per-value work and memory follow the count it is told.
/// The numbering keeps the VCode's order, so regalloc2 sees the same function up to the names.
struct Renumber {
    dense: Vec<u32>,
    /// The VCode's number of each dense one.
    original: Vec<u32>,
}

impl Renumber {
    const UNUSED: u32 = u32::MAX;

    fn new<I: MachInst>(vcode: &VCode<I>) -> Renumber {
        let mut dense = vec![Self::UNUSED; vcode.num_vregs()];
        for i in 0..vcode.num_insts() {
            for op in vcode.inst_operands(i) {
                dense[op.vreg.index()] = 0;
            }
        }
        for b in vcode.blocks() {
            for v in b.params.iter().chain(b.succ_args.iter().flatten()) {
                dense[v.index()] = 0;
            }
        }
        let mut original = Vec::with_capacity(dense.len());
        for (v, d) in dense.iter_mut().enumerate() {
            if *d != Self::UNUSED {
                *d = original.len() as u32;
                original.push(v as u32);
            }
        }
        Renumber { dense, original }
    }

    fn vreg(&self, v: VReg) -> ra2::VReg {
        ra2::VReg::new(self.dense[v.index()] as usize, ra2_class(v.class()))
    }
}

/// Lists of `T`, one after another in one vector: list `i` is
/// `items[offsets[i]..offsets[i + 1]]`.
struct Flat<T> {
    items: Vec<T>,
    offsets: Vec<u32>,
}

impl<T> Flat<T> {
    fn with_capacity(lists: usize) -> Self {
        let mut offsets = Vec::with_capacity(lists + 1);
        offsets.push(0);
        Flat { items: Vec::new(), offsets }
    }

    /// Appends the next list.
    fn push(&mut self, list: impl IntoIterator<Item = T>) {
        self.items.extend(list);
        self.offsets.push(self.items.len() as u32);
    }

    fn get(&self, i: usize) -> &[T] {
        &self.items[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }
}

/// A VCode seen as a regalloc2 function.
pub struct Ra2Func<'a, I> {
    vcode: &'a VCode<I>,
    operands: Vec<ra2::Operand>,
    operand_offsets: Vec<u32>,
    /// Per block, flat with offsets (one list each rather than a list per block): the block
    /// parameters, successors, predecessors, and the arguments of each edge, edges numbered
    /// as `succs` lists them.
    params: Flat<ra2::VReg>,
    succs: Flat<ra2::Block>,
    preds: Flat<ra2::Block>,
    succ_args: Flat<ra2::VReg>,
    block_ends: Vec<u32>,
    /// The VCode's number of each regalloc2 value ([`Renumber`]).
    original_vregs: Vec<u32>,
}

impl<'a, I: MachInst> Ra2Func<'a, I> {
    /// Convert once.
    pub fn new(vcode: &'a VCode<I>) -> Self {
        let renumber = Renumber::new(vcode);
        let ra2_vreg = |v: VReg| renumber.vreg(v);
        let mut operands = Vec::with_capacity(vcode.num_operands());
        let mut operand_offsets = Vec::with_capacity(vcode.num_insts() + 1);
        operand_offsets.push(0);
        for i in 0..vcode.num_insts() {
            for op in vcode.inst_operands(i) {
                let v = ra2_vreg(op.vreg);
                let kind = match op.kind {
                    OperandKind::Use => ra2::OperandKind::Use,
                    OperandKind::Def => ra2::OperandKind::Def,
                };
                let pos = match op.pos {
                    OperandPos::Early => ra2::OperandPos::Early,
                    OperandPos::Late => ra2::OperandPos::Late,
                };
                let constraint = match op.reuse {
                    Some(k) => ra2::OperandConstraint::Reuse(k as usize),
                    None => ra2::OperandConstraint::Reg,
                };
                operands.push(ra2::Operand::new(v, constraint, kind, pos));
            }
            operand_offsets.push(operands.len() as u32);
        }
        let blocks = vcode.blocks();
        let block = |b: &atomc_lower::vcode::BlockId| ra2::Block::new(b.index());
        let mut params = Flat::with_capacity(blocks.len());
        let mut succs = Flat::with_capacity(blocks.len());
        let mut preds = Flat::with_capacity(blocks.len());
        let mut succ_args = Flat::with_capacity(2 * blocks.len());
        for b in blocks {
            params.push(b.params.iter().map(|v| ra2_vreg(*v)));
            succs.push(b.succs.iter().map(block));
            preds.push(b.preds.iter().map(block));
            for a in &b.succ_args {
                succ_args.push(a.iter().map(|v| ra2_vreg(*v)));
            }
        }
        Ra2Func {
            vcode,
            operands,
            operand_offsets,
            params,
            succs,
            preds,
            succ_args,
            block_ends: blocks.iter().map(|b| b.insts.end).collect(),
            original_vregs: renumber.original,
        }
    }

    /// The underlying VCode.
    pub fn vcode(&self) -> &'a VCode<I> {
        self.vcode
    }

    /// `e` with the value it names (if any) numbered as in the VCode again.
    pub fn vcode_names(&self, e: ra2::RegAllocError) -> ra2::RegAllocError {
        match e {
            ra2::RegAllocError::SSA(v, inst) => {
                let original = self.original_vregs.get(v.vreg()).map_or(v.vreg(), |&o| o as usize);
                ra2::RegAllocError::SSA(ra2::VReg::new(original, v.class()), inst)
            }
            e => e,
        }
    }

    fn block_of(&self, inst: ra2::Inst) -> usize {
        self.block_ends
            .partition_point(|&end| end as usize <= inst.index())
    }
}

impl<I: MachInst> ra2::Function for Ra2Func<'_, I> {
    fn num_insts(&self) -> usize {
        self.vcode.num_insts()
    }

    fn num_blocks(&self) -> usize {
        self.vcode.num_blocks()
    }

    fn entry_block(&self) -> ra2::Block {
        ra2::Block::new(0)
    }

    fn block_insns(&self, block: ra2::Block) -> ra2::InstRange {
        let r = &self.vcode.blocks()[block.index()].insts;
        ra2::InstRange::new(
            ra2::Inst::new(r.start as usize),
            ra2::Inst::new(r.end as usize),
        )
    }

    fn block_succs(&self, block: ra2::Block) -> &[ra2::Block] {
        self.succs.get(block.index())
    }

    fn block_preds(&self, block: ra2::Block) -> &[ra2::Block] {
        self.preds.get(block.index())
    }

    fn block_params(&self, block: ra2::Block) -> &[ra2::VReg] {
        self.params.get(block.index())
    }

    fn is_ret(&self, insn: ra2::Inst) -> bool {
        self.vcode.inst(insn.index()).is_ret()
    }

    fn is_branch(&self, insn: ra2::Inst) -> bool {
        self.vcode.inst(insn.index()).is_branch()
    }

    fn branch_blockparams(
        &self,
        block: ra2::Block,
        insn: ra2::Inst,
        succ_idx: usize,
    ) -> &[ra2::VReg] {
        debug_assert_eq!(self.block_of(insn), block.index());
        // One argument list per successor, blocks in order: a block's first list is numbered
        // by the successors of the blocks before it.
        let first = self.succs.offsets[block.index()] as usize;
        self.succ_args.get(first + succ_idx)
    }

    fn inst_operands(&self, insn: ra2::Inst) -> &[ra2::Operand] {
        let i = insn.index();
        let (a, b) = (self.operand_offsets[i], self.operand_offsets[i + 1]);
        &self.operands[a as usize..b as usize]
    }

    fn inst_clobbers(&self, _insn: ra2::Inst) -> ra2::PRegSet {
        ra2::PRegSet::empty()
    }

    fn num_vregs(&self) -> usize {
        self.original_vregs.len()
    }

    fn spillslot_size(&self, regclass: ra2::RegClass) -> usize {
        shape_of(regclass).width() as usize
    }
}
