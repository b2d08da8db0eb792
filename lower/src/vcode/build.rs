//! Building a [`VCode`] and the container itself.

use super::{
    BlockId, Field, MachInst, Operand, OperandKind, OperandPos, OperandRule, OperandVisitor, Reg,
    RegClass, VReg,
};
use smallvec::SmallVec;
use std::fmt;
use std::ops::Range;

/// Why a [`VCodeBuilder`] could not produce a [`VCode`] (a bug in instruction selection).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VCodeError {
    #[error("{0} has no instructions")]
    EmptyBlock(BlockId),
    #[error("{0} does not end in a branch or return")]
    MissingTerminator(BlockId),
    #[error("{block}: instruction {inst} ends a block but is not its last")]
    TerminatorInMiddle { block: BlockId, inst: usize },
    #[error("the entry block may not have parameters")]
    EntryParams,
    #[error("{block} branches to unknown block {target}")]
    UnknownBlock { block: BlockId, target: BlockId },
    #[error("{block} passes {given} arguments to {target}, which has {expected} parameters")]
    ArgCount {
        block: BlockId,
        target: BlockId,
        given: usize,
        expected: usize,
    },
    #[error("{block} passes {arg} to parameter {param} of {target}: classes differ")]
    ArgClass {
        block: BlockId,
        target: BlockId,
        arg: VReg,
        param: VReg,
    },
    #[error("instruction {inst} field {field}: {reg} is not a virtual register of this function")]
    UnknownVReg { inst: usize, field: usize, reg: Reg },
    #[error("instruction {inst} field {field}: {width} registers from {reg} do not fit its tuple (or are misaligned in it)")]
    BadPart {
        inst: usize,
        field: usize,
        reg: Reg,
        width: u8,
    },
    #[error("instruction {inst} field {field}: reuse of field {target}, which is not an earlier use of a virtual register of the same class")]
    BadReuse {
        inst: usize,
        field: usize,
        target: usize,
    },
    #[error("instruction {inst}: {vreg} is both read and written")]
    UseAndDef { inst: usize, vreg: VReg },
    #[error("instruction {inst}: the fields writing {vreg} disagree on the rule")]
    ConflictingDefRules { inst: usize, vreg: VReg },
    #[error("too many virtual registers")]
    TooManyVRegs,
}

/// Per-block data of a finished [`VCode`].
#[derive(Clone, Debug, Default)]
pub struct BlockData {
    /// Instruction indices of the block (contiguous; block i+1 follows block i).
    pub insts: Range<u32>,
    /// Block parameters (defined on entry, like regalloc2 block params).
    pub params: Vec<VReg>,
    /// Successors in branch order.
    pub succs: SmallVec<[BlockId; 2]>,
    /// Arguments passed to each successor's parameters, parallel to `succs`.
    pub succ_args: SmallVec<[Vec<VReg>; 2]>,
    /// Predecessors.
    pub preds: SmallVec<[BlockId; 4]>,
}

/// Machine code on virtual registers, ready for register allocation.
#[derive(Clone, Debug)]
pub struct VCode<I> {
    insts: Vec<I>,
    fields: Vec<Field>,
    field_offsets: Vec<u32>,
    operands: Vec<Operand>,
    operand_offsets: Vec<u32>,
    blocks: Vec<BlockData>,
    vreg_classes: Vec<RegClass>,
}

impl<I> VCode<I> {
    /// Number of instructions (still counted once [`VCode::take_insts`] took them out).
    pub fn num_insts(&self) -> usize {
        self.operand_offsets.len() - 1
    }

    /// Number of blocks (block 0 is the entry).
    pub fn num_blocks(&self) -> usize {
        self.blocks.len()
    }

    /// Number of virtual registers.
    pub fn num_vregs(&self) -> usize {
        self.vreg_classes.len()
    }

    /// Class of virtual register index `v`.
    pub fn vreg_class(&self, v: usize) -> RegClass {
        self.vreg_classes[v]
    }

    /// All instructions in layout order.
    pub fn insts(&self) -> &[I] {
        &self.insts
    }

    /// Instruction `i`.
    pub fn inst(&self, i: usize) -> &I {
        &self.insts[i]
    }

    /// Block `b`.
    pub fn block(&self, b: BlockId) -> &BlockData {
        &self.blocks[b.index()]
    }

    /// All blocks.
    pub fn blocks(&self) -> &[BlockData] {
        &self.blocks
    }

    /// The register fields of instruction `i`, as selected.
    pub fn inst_fields(&self, i: usize) -> &[Field] {
        let (a, b) = (self.field_offsets[i], self.field_offsets[i + 1]);
        &self.fields[a as usize..b as usize]
    }

    /// The register fields of all instructions together.
    pub fn num_fields(&self) -> usize {
        self.fields.len()
    }

    /// The allocator operands of all instructions together.
    pub fn num_operands(&self) -> usize {
        self.operands.len()
    }

    /// The allocator operands of instruction `i`.
    pub fn inst_operands(&self, i: usize) -> &[Operand] {
        let (a, b) = (self.operand_offsets[i], self.operand_offsets[i + 1]);
        &self.operands[a as usize..b as usize]
    }

    /// Consume into the instruction list.
    pub fn into_insts(self) -> Vec<I> {
        self.insts
    }

    /// Takes the instructions out, leaving what describes them (blocks, fields, operands,
    /// register classes) for the allocation checker, so that the allocated code can be made
    /// from them in place. [`VCode::inst`] and [`VCode::insts`] find none afterwards.
    pub fn take_insts(&mut self) -> Vec<I> {
        std::mem::take(&mut self.insts)
    }
}

impl<I: fmt::Display> fmt::Display for VCode<I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (b, data) in self.blocks.iter().enumerate() {
            write!(f, "block{b}(")?;
            for (k, p) in data.params.iter().enumerate() {
                let sep = if k == 0 { "" } else { ", " };
                write!(f, "{sep}{p}")?;
            }
            writeln!(f, "):")?;
            for i in data.insts.clone() {
                writeln!(f, "  {}", self.insts[i as usize])?;
            }
            for (s, args) in data.succs.iter().zip(&data.succ_args) {
                if !args.is_empty() {
                    let list: Vec<String> = args.iter().map(|a| a.to_string()).collect();
                    writeln!(f, "  ; -> {s}({})", list.join(", "))?;
                }
            }
        }
        Ok(())
    }
}

#[derive(Clone, Debug)]
struct BuildBlock<I> {
    params: Vec<VReg>,
    insts: Vec<I>,
    succs: Vec<(BlockId, Vec<VReg>)>,
}

/// Builds a [`VCode`]: create registers and blocks in any order, append instructions to any
/// block, then [`finish`](VCodeBuilder::finish). Blocks are laid out in creation order.
///
/// The result must satisfy regalloc2's input rules, which `finish` and the allocator check:
/// SSA (one def per register), no critical edges (split them with an empty jump block), no
/// parameters on the entry block (define kernel arguments with an instruction).
#[derive(Clone, Debug)]
pub struct VCodeBuilder<I> {
    blocks: Vec<BuildBlock<I>>,
    vreg_classes: Vec<RegClass>,
}

impl<I: MachInst> Default for VCodeBuilder<I> {
    fn default() -> Self {
        Self::new()
    }
}

impl<I: MachInst> VCodeBuilder<I> {
    /// An empty function.
    pub fn new() -> Self {
        VCodeBuilder {
            blocks: Vec::new(),
            vreg_classes: Vec::new(),
        }
    }

    /// Number of virtual registers made so far.
    pub fn num_vregs(&self) -> usize {
        self.vreg_classes.len()
    }

    /// A fresh virtual register of `class`.
    pub fn new_vreg(&mut self, class: RegClass) -> VReg {
        let v = VReg::new(self.vreg_classes.len(), class);
        self.vreg_classes.push(class);
        v
    }

    /// A fresh, empty block. The first block created is the entry.
    pub fn new_block(&mut self) -> BlockId {
        self.blocks.push(BuildBlock {
            params: Vec::new(),
            insts: Vec::new(),
            succs: Vec::new(),
        });
        BlockId(self.blocks.len() as u32 - 1)
    }

    /// Append a parameter of `class` to `block`.
    pub fn append_block_param(&mut self, block: BlockId, class: RegClass) -> VReg {
        let v = self.new_vreg(class);
        self.blocks[block.index()].params.push(v);
        v
    }

    /// Make room for `n` more instructions in `block`.
    pub fn reserve(&mut self, block: BlockId, n: usize) {
        self.blocks[block.index()].insts.reserve(n);
    }

    /// Append non-branch instructions to `block`, taking `insts` over when the block is still
    /// empty (no copy of a large block).
    pub fn append(&mut self, block: BlockId, mut insts: Vec<I>) {
        let body = &mut self.blocks[block.index()].insts;
        if body.is_empty() {
            *body = insts;
        } else {
            body.append(&mut insts);
        }
    }

    /// Append a non-branch instruction (or a return) to `block`.
    pub fn push(&mut self, block: BlockId, inst: I) {
        self.blocks[block.index()].insts.push(inst);
    }

    /// Append the block's branch with its successors and the arguments for their parameters.
    pub fn push_branch(&mut self, block: BlockId, inst: I, targets: &[(BlockId, &[VReg])]) {
        let b = &mut self.blocks[block.index()];
        b.insts.push(inst);
        b.succs = targets.iter().map(|(t, a)| (*t, a.to_vec())).collect();
    }

    /// Validate, collect operands, lay out the blocks.
    pub fn finish(self) -> Result<VCode<I>, VCodeError> {
        if self.vreg_classes.len() > VReg::MAX_INDEX {
            return Err(VCodeError::TooManyVRegs);
        }
        let n_blocks = self.blocks.len();
        // Sized once: a kernel of 100k instructions would otherwise be copied on every doubling.
        let n_insts: usize = self.blocks.iter().map(|b| b.insts.len()).sum();
        let mut out = VCode {
            // With room for the moves register allocation inserts, so that rebuilding the
            // function in place (`atomc_regalloc::apply_in_place`) does not move it; room never
            // used is never touched.
            insts: Vec::with_capacity(n_insts + n_insts / 4),
            fields: Vec::with_capacity(n_insts * 3),
            field_offsets: Vec::with_capacity(n_insts + 1),
            operands: Vec::with_capacity(n_insts * 3),
            operand_offsets: Vec::with_capacity(n_insts + 1),
            blocks: Vec::with_capacity(n_blocks),
            vreg_classes: self.vreg_classes,
        };
        out.field_offsets.push(0);
        out.operand_offsets.push(0);
        let mut scratch = Scratch::default();
        if let Some(entry) = self.blocks.first() {
            if !entry.params.is_empty() {
                return Err(VCodeError::EntryParams);
            }
        }
        let params: Vec<Vec<VReg>> = self.blocks.iter().map(|b| b.params.clone()).collect();
        for (bi, mut block) in self.blocks.into_iter().enumerate() {
            let id = BlockId(bi as u32);
            let Some(last) = block.insts.last() else {
                return Err(VCodeError::EmptyBlock(id));
            };
            if !last.is_term() {
                return Err(VCodeError::MissingTerminator(id));
            }
            let start = out.insts.len() as u32;
            let mut data = BlockData {
                params: block.params,
                ..BlockData::default()
            };
            for (target, args) in block.succs {
                let Some(tparams) = params.get(target.index()) else {
                    return Err(VCodeError::UnknownBlock { block: id, target });
                };
                if tparams.len() != args.len() {
                    return Err(VCodeError::ArgCount {
                        block: id,
                        target,
                        given: args.len(),
                        expected: tparams.len(),
                    });
                }
                for (a, p) in args.iter().zip(tparams) {
                    if a.class() != p.class() {
                        return Err(VCodeError::ArgClass {
                            block: id,
                            target,
                            arg: *a,
                            param: *p,
                        });
                    }
                }
                data.succs.push(target);
                data.succ_args.push(args);
            }
            let n = block.insts.len();
            for (k, inst) in block.insts.iter_mut().enumerate() {
                let index = start as usize + k;
                if k + 1 < n && inst.is_term() {
                    return Err(VCodeError::TerminatorInMiddle {
                        block: id,
                        inst: index,
                    });
                }
                out.collect(index, inst, &mut scratch)?;
            }
            // One copy of the block, not a move of each instruction in and out of a local.
            out.insts.append(&mut block.insts);
            data.insts = start..out.insts.len() as u32;
            out.blocks.push(data);
        }
        for b in 0..n_blocks {
            let succs = out.blocks[b].succs.clone();
            for s in succs {
                out.blocks[s.index()].preds.push(BlockId(b as u32));
            }
        }
        Ok(out)
    }
}

impl<I: MachInst> VCode<I> {
    /// Record the fields and allocator operands of instruction `index`.
    fn collect(&mut self, index: usize, inst: &mut I, scratch: &mut Scratch) -> Result<(), VCodeError> {
        scratch.fields.clear();
        scratch.operands.clear();
        scratch.def_rules.clear();
        let mut c = Collector {
            inst: index,
            classes: &self.vreg_classes,
            fields: std::mem::take(&mut scratch.fields),
            operands: std::mem::take(&mut scratch.operands),
            def_rules: std::mem::take(&mut scratch.def_rules),
            error: None,
        };
        inst.visit_operands(&mut c);
        c.resolve_reuses();
        if let Some(e) = c.error {
            return Err(e);
        }
        self.fields.extend_from_slice(&c.fields);
        self.field_offsets.push(self.fields.len() as u32);
        self.operands.extend_from_slice(&c.operands);
        self.operand_offsets.push(self.operands.len() as u32);
        (scratch.fields, scratch.operands, scratch.def_rules) = (c.fields, c.operands, c.def_rules);
        Ok(())
    }
}

/// The collector's buffers, kept from one instruction to the next.
#[derive(Default)]
struct Scratch {
    fields: Vec<Field>,
    operands: Vec<Operand>,
    def_rules: Vec<Option<OperandRule>>,
}

/// The visitor that turns fields into allocator operands (one per distinct vreg and role).
struct Collector<'a> {
    inst: usize,
    classes: &'a [RegClass],
    fields: Vec<Field>,
    operands: Vec<Operand>,
    /// Per operand: the rule of its def fields (`None` for uses).
    def_rules: Vec<Option<OperandRule>>,
    error: Option<VCodeError>,
}

impl Collector<'_> {
    fn fail(&mut self, e: VCodeError) {
        if self.error.is_none() {
            self.error = Some(e);
        }
    }

    fn operand_for(&mut self, vreg: VReg, rule: OperandRule) -> Option<u32> {
        let (kind, pos) = match rule {
            OperandRule::Use => (OperandKind::Use, OperandPos::Early),
            OperandRule::LateUse => (OperandKind::Use, OperandPos::Late),
            OperandRule::Def | OperandRule::ReuseDef(_) => (OperandKind::Def, OperandPos::Late),
            OperandRule::EarlyDef => (OperandKind::Def, OperandPos::Early),
        };
        for (k, op) in self.operands.iter().enumerate() {
            if op.vreg != vreg {
                continue;
            }
            if op.kind != kind {
                self.fail(VCodeError::UseAndDef {
                    inst: self.inst,
                    vreg,
                });
                return None;
            }
            if kind == OperandKind::Use && op.pos != pos {
                continue;
            }
            if kind == OperandKind::Def && self.def_rules[k] != Some(rule) {
                self.fail(VCodeError::ConflictingDefRules {
                    inst: self.inst,
                    vreg,
                });
                return None;
            }
            return Some(k as u32);
        }
        self.operands.push(Operand {
            vreg,
            kind,
            pos,
            reuse: None,
        });
        self.def_rules
            .push((kind == OperandKind::Def).then_some(rule));
        Some(self.operands.len() as u32 - 1)
    }

    /// Point each reusing def at its target's operand, once all fields are known (the reused
    /// field may come after the def in visit order, e.g. `Rd` before `Rb`).
    fn resolve_reuses(&mut self) {
        for index in 0..self.fields.len() {
            let f = self.fields[index];
            let (OperandRule::ReuseDef(target), Some(op), Reg::Virt { vreg, .. }) =
                (f.rule, f.operand, f.reg)
            else {
                continue;
            };
            let used = self
                .fields
                .get(usize::from(target))
                .and_then(|t| match (t.reg, t.rule, t.operand) {
                    (Reg::Virt { vreg: u, .. }, OperandRule::Use, Some(uop))
                        if u.class() == vreg.class() =>
                    {
                        Some(uop)
                    }
                    _ => None,
                });
            match used {
                Some(uop) => self.operands[op as usize].reuse = Some(uop),
                None => self.fail(VCodeError::BadReuse {
                    inst: self.inst,
                    field: index,
                    target: target.into(),
                }),
            }
        }
    }
}

impl OperandVisitor for Collector<'_> {
    fn field(&mut self, reg: &mut Reg, width: u8, rule: OperandRule) {
        let index = self.fields.len();
        let mut operand = None;
        if let Reg::Virt { vreg, sub } = *reg {
            if self.classes.get(vreg.index()) != Some(&vreg.class()) {
                self.fail(VCodeError::UnknownVReg {
                    inst: self.inst,
                    field: index,
                    reg: *reg,
                });
            } else {
                let cw = vreg.class().width();
                let align = width.max(1).next_power_of_two();
                if width == 0 || sub.saturating_add(width) > cw || sub % align != 0 {
                    self.fail(VCodeError::BadPart {
                        inst: self.inst,
                        field: index,
                        reg: *reg,
                        width,
                    });
                } else {
                    operand = self.operand_for(vreg, rule);
                }
            }
        }
        self.fields.push(Field {
            reg: *reg,
            width,
            rule,
            operand,
        });
    }
}
