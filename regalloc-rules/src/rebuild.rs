//! Rebuilding the instruction list after allocation: every field rewritten to its hardware
//! register, the allocator's moves/spills/reloads inserted as target instructions.

use crate::alloc::{Allocation, Edit};
use atomc_lower::vcode::{fields_of, HwReg, MachInst, OperandRule, OperandVisitor, Reg, VCode};
use std::ops::Range;

/// Where a final instruction came from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// VCode instruction `n`, rewritten.
    Inst(u32),
    /// Made by `gen_move` / `gen_spill` / `gen_reload` for allocator edit `n`.
    Edit(u32),
    /// The frame set-up put before everything once allocation is checked.
    Prologue,
}

/// The allocated function: instructions on hardware registers, in layout order.
#[derive(Clone, Debug)]
pub struct FinalCode<I> {
    pub insts: Vec<I>,
    /// Parallel to `insts`.
    pub origins: Vec<Origin>,
    /// Instruction ranges of the VCode's blocks (same block numbering).
    pub blocks: Vec<Range<u32>>,
    /// The frame register local-memory spill slots are addressed from (`R1`), if any spill
    /// goes to memory: nothing but the prologue may write it.
    pub frame_reg: Option<HwReg>,
}

impl<I> FinalCode<I> {
    /// Number of instructions the allocator's edits turned into.
    pub fn inserted(&self) -> usize {
        self.origins
            .iter()
            .filter(|o| matches!(o, Origin::Edit(_)))
            .count()
    }
}

impl<I> FinalCode<I> {
    /// Put `insts` (the kernel's frame set-up) at the start of the entry block; their origin
    /// reads `Origin::Prologue`.
    pub fn prepend(&mut self, insts: Vec<I>) {
        let n = insts.len() as u32;
        if n == 0 {
            return;
        }
        self.origins.splice(0..0, std::iter::repeat_n(Origin::Prologue, n as usize));
        self.insts.splice(0..0, insts);
        for (b, r) in self.blocks.iter_mut().enumerate() {
            r.start += if b == 0 { 0 } else { n };
            r.end += n;
        }
    }
}

impl<I: MachInst> FinalCode<I> {
    /// Drop the selected copies whose source and destination got one register (see
    /// `HwMap::compact`): they do nothing. Run after the checker, which follows the copy.
    pub fn drop_self_copies(&mut self) {
        let mut keep = Vec::with_capacity(self.insts.len());
        for (inst, origin) in self.insts.iter().zip(&self.origins) {
            let same = matches!(origin, Origin::Inst(_))
                && inst.copy_fields().is_some_and(|(d, s)| {
                    let f = fields_of(inst);
                    matches!((f.get(d), f.get(s)), (Some((Reg::Hw(a), ..)), Some((Reg::Hw(b), ..))) if a == b)
                });
            keep.push(!same);
        }
        if keep.iter().all(|&k| k) {
            return;
        }
        let mut new_index = Vec::with_capacity(keep.len() + 1);
        let mut n = 0u32;
        for &k in &keep {
            new_index.push(n);
            n += u32::from(k);
        }
        new_index.push(n);
        for r in self.blocks.iter_mut() {
            *r = new_index[r.start as usize]..new_index[r.end as usize];
        }
        let mut k = keep.iter();
        self.insts.retain(|_| *k.next().expect("one flag per instruction"));
        let mut k = keep.iter();
        self.origins.retain(|_| *k.next().expect("one flag per instruction"));
    }
}

impl<I: std::fmt::Debug> std::fmt::Display for FinalCode<I> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (b, range) in self.blocks.iter().enumerate() {
            writeln!(f, "block{b}:")?;
            for i in range.clone() {
                let mark = match self.origins[i as usize] {
                    Origin::Inst(_) => "  ",
                    Origin::Edit(_) | Origin::Prologue => "+ ",
                };
                writeln!(f, "  {mark}{:?}", self.insts[i as usize])?;
            }
        }
        Ok(())
    }
}

/// Rewrites virtual fields from a precomputed per-field register list.
struct Rewrite<'a> {
    regs: &'a [Option<HwReg>],
    next: usize,
}

impl OperandVisitor for Rewrite<'_> {
    fn field(&mut self, reg: &mut Reg, _width: u8, _rule: OperandRule) {
        if let (Reg::Virt { .. }, Some(Some(hw))) = (*reg, self.regs.get(self.next)) {
            *reg = Reg::Hw(*hw);
        }
        self.next += 1;
    }
}

/// Apply `alloc` to `vcode`.
pub fn apply<I: MachInst>(vcode: &VCode<I>, alloc: &Allocation) -> FinalCode<I> {
    apply_in_place(vcode, vcode.insts().to_vec(), alloc)
}

/// [`apply`] to `insts`, the instructions taken out of `vcode` ([`VCode::take_insts`]): they
/// are rewritten where they are and moved apart for the instructions of the allocator's edits,
/// so a large function is not copied.
pub fn apply_in_place<I: MachInst>(vcode: &VCode<I>, mut insts: Vec<I>, alloc: &Allocation) -> FinalCode<I> {
    for (i, inst) in insts.iter_mut().enumerate() {
        inst.visit_operands(&mut Rewrite {
            regs: alloc.inst_regs(i),
            next: 0,
        });
    }
    // The final order, as origins: each edit's instructions go before or after the instruction
    // it is attached to.
    let mut made = Vec::new();
    let mut origins = Vec::with_capacity(insts.len() + alloc.edits.len());
    let mut blocks = Vec::with_capacity(vcode.num_blocks());
    let mut next_edit = 0;
    let mut emit_edits = |origins: &mut Vec<Origin>, made: &mut Vec<I>, upto: (u32, bool)| {
        while let Some(e) = alloc.edits.get(next_edit) {
            if (e.inst, e.after) > upto {
                break;
            }
            let before = made.len();
            match e.edit {
                Edit::Move { dst, src, class } => I::gen_move(dst, src, class, made),
                Edit::Spill { slot, src, class } => I::gen_spill(slot, src, class, made),
                Edit::Reload { dst, slot, class } => I::gen_reload(dst, slot, class, made),
            }
            origins.extend(std::iter::repeat_n(Origin::Edit(next_edit as u32), made.len() - before));
            next_edit += 1;
        }
    };
    for block in vcode.blocks() {
        let start = origins.len() as u32;
        for i in block.insts.clone() {
            emit_edits(&mut origins, &mut made, (i, false));
            origins.push(Origin::Inst(i));
            emit_edits(&mut origins, &mut made, (i, true));
        }
        blocks.push(start..origins.len() as u32);
    }
    // Make room at the end (filled with copies of the edits' instructions, overwritten below),
    // then move every instruction to its place, last first: instruction `i` only moves up, to
    // a place no instruction still to move is in.
    insts.extend_from_slice(&made);
    for (to, origin) in origins.iter().enumerate().rev() {
        match *origin {
            Origin::Inst(i) => insts.swap(to, i as usize),
            _ => insts[to] = made.pop().expect("one instruction per edit origin"),
        }
        if made.is_empty() {
            // The rest are in place already.
            break;
        }
    }
    FinalCode {
        insts,
        origins,
        blocks,
        frame_reg: alloc.frame_reg,
    }
}
