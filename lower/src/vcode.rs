//! Target-independent machine IR: blocks of machine instructions on virtual registers.
//!
//! Instruction selection produces a [`VCode<I>`] for a target's instruction type `I`; the
//! register allocator (crate `atomc-regalloc`) reads it through the [`MachInst`] trait and
//! hands back hardware registers plus moves/spills to insert.
//!
//! The register model follows the "classes are shapes" design: a virtual register is either
//! one 32-bit GPR ([`RegClass::Single`]), an even-aligned 64-bit pair ([`RegClass::Pair`]) or a
//! 4-aligned quad ([`RegClass::Quad`]). The allocator maps each shape to its own register class,
//! so alignment holds by construction. An instruction names its registers through *fields*
//! ([`Reg`] values it visits in a fixed order); a field may name a part of a tuple
//! (`v7.hi()`), which costs nothing: the allocator sees a use of the whole tuple. A field that
//! writes only part of a tuple is modelled as a def of a *new* tuple that reuses the register of
//! the old one ([`OperandRule::ReuseDef`]), so the untouched half carries over.
//!
//! RZ is not a register: it is [`Reg::Zero`], never shown to the allocator. Whether a field
//! may hold RZ is a property of the target's encoding forms, checked after allocation against
//! the rule table in `atomc-regalloc`.
//!
//! # Example
//!
//! An SM50-style 32-bit CAS whose result overwrites the compare value in place:
//!
//! ```
//! use atomc_lower::vcode::*;
//!
//! #[derive(Clone, Debug)]
//! enum MInst {
//!     Args { addr: Reg, group: Reg },
//!     /// `ATOM.E.CAS Rd, [Ra], Rb, Rc`; Rd reuses the group tuple (field 2).
//!     Cas { rd: Reg, ra: Reg, rb: Reg, rc: Reg },
//!     Exit { keep: Reg },
//! }
//!
//! impl MachInst for MInst {
//!     fn visit_operands(&mut self, v: &mut dyn OperandVisitor) {
//!         match self {
//!             MInst::Args { addr, group } => {
//!                 v.def_reg(addr, 2);
//!                 v.def_reg(group, 2);
//!             }
//!             MInst::Cas { rd, ra, rb, rc } => {
//!                 v.reuse_def(rd, 1, 2);
//!                 v.use_reg(ra, 2);
//!                 v.use_reg(rb, 1);
//!                 v.use_reg(rc, 1);
//!             }
//!             MInst::Exit { keep } => v.use_reg(keep, 2),
//!         }
//!     }
//!     fn is_branch(&self) -> bool { false }
//!     fn is_ret(&self) -> bool { matches!(self, MInst::Exit { .. }) }
//!     fn reg_form(&self) -> RegForm {
//!         match self {
//!             MInst::Cas { .. } => RegForm::AtomCas { wide: false },
//!             _ => RegForm::Plain,
//!         }
//!     }
//!     fn gen_move(_: HwReg, _: HwReg, _: RegClass, _: &mut Vec<Self>) {}
//!     fn gen_spill(_: SpillSlot, _: HwReg, _: RegClass, _: &mut Vec<Self>) {}
//!     fn gen_reload(_: HwReg, _: SpillSlot, _: RegClass, _: &mut Vec<Self>) {}
//! }
//!
//! let mut b = VCodeBuilder::<MInst>::new();
//! let entry = b.new_block();
//! let addr = b.new_vreg(RegClass::Pair);
//! let group = b.new_vreg(RegClass::Pair); // [compare, swap] = R2n, R2n+1
//! let result = b.new_vreg(RegClass::Pair); // result in .lo, swap carried over in .hi
//! b.push(entry, MInst::Args { addr: addr.reg(), group: group.reg() });
//! b.push(entry, MInst::Cas { rd: result.lo(), ra: addr.reg(), rb: group.lo(), rc: group.hi() });
//! b.push(entry, MInst::Exit { keep: result.reg() });
//! let vcode = b.finish().unwrap();
//! assert_eq!(vcode.inst_operands(1).len(), 3); // result, addr, group: one operand per tuple
//! ```

mod build;
#[cfg(test)]
mod tests;

pub use build::{BlockData, VCode, VCodeBuilder, VCodeError};

use smallvec::SmallVec;
use std::fmt;

/// The shape of a virtual register: how many consecutive 32-bit GPRs it occupies.
/// Pairs are even-aligned, quads 4-aligned.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RegClass {
    /// One 32-bit GPR.
    Single,
    /// A 64-bit value in `R2n, R2n+1`.
    Pair,
    /// Four GPRs `R4n..R4n+3` (SM50 CAS.64 groups, 128-bit data, 3-4 surface coordinates).
    Quad,
}

impl RegClass {
    /// All classes, widest last.
    pub const ALL: [RegClass; 3] = [RegClass::Single, RegClass::Pair, RegClass::Quad];

    /// Number of 32-bit GPRs a value of this class occupies (also its alignment).
    pub const fn width(self) -> u8 {
        match self {
            RegClass::Single => 1,
            RegClass::Pair => 2,
            RegClass::Quad => 4,
        }
    }

    /// Dense index 0..3 (Single, Pair, Quad).
    pub const fn index(self) -> usize {
        match self {
            RegClass::Single => 0,
            RegClass::Pair => 1,
            RegClass::Quad => 2,
        }
    }

    /// The narrowest class that holds `regs` consecutive registers (3 rounds up to a quad).
    pub const fn for_width(regs: u8) -> Option<RegClass> {
        match regs {
            1 => Some(RegClass::Single),
            2 => Some(RegClass::Pair),
            3 | 4 => Some(RegClass::Quad),
            _ => None,
        }
    }
}

/// A virtual register: a dense index plus its class, packed as `index << 2 | class` in one
/// word (operands stay small; the order is by index, then class).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VReg(u32);

impl VReg {
    /// Largest index; matches regalloc2's 30-bit vreg space.
    pub const MAX_INDEX: usize = (1 << 30) - 1;

    pub(crate) fn new(index: usize, class: RegClass) -> VReg {
        debug_assert!(index <= Self::MAX_INDEX);
        let c = match class {
            RegClass::Single => 0,
            RegClass::Pair => 1,
            RegClass::Quad => 2,
        };
        VReg((index as u32) << 2 | c)
    }

    /// Dense index, 0-based in creation order.
    pub fn index(self) -> usize {
        (self.0 >> 2) as usize
    }

    /// The register's shape.
    pub fn class(self) -> RegClass {
        match self.0 & 3 {
            0 => RegClass::Single,
            1 => RegClass::Pair,
            _ => RegClass::Quad,
        }
    }

    /// The whole tuple as a field value (part 0).
    pub fn reg(self) -> Reg {
        Reg::Virt { vreg: self, sub: 0 }
    }

    /// Register `sub` of the tuple (0-based), e.g. `part(1)` is the high half of a pair.
    pub fn part(self, sub: u8) -> Reg {
        Reg::Virt { vreg: self, sub }
    }

    /// Low register of a pair (same as [`VReg::reg`]).
    pub fn lo(self) -> Reg {
        self.part(0)
    }

    /// High register of a pair.
    pub fn hi(self) -> Reg {
        self.part(1)
    }
}

impl fmt::Debug for VReg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for VReg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let suffix = match self.class() {
            RegClass::Single => "",
            RegClass::Pair => "p",
            RegClass::Quad => "q",
        };
        write!(f, "%{}{}", self.index(), suffix)
    }
}

/// A hardware general-purpose register R0..R254. R255 is RZ, which is [`Reg::Zero`], not a
/// register.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HwReg(u8);

impl HwReg {
    /// The 8-bit encoding of RZ in every register field.
    pub const RZ_ENCODING: u8 = 255;

    /// `R<n>`; `None` for 255 (RZ).
    pub const fn new(n: u8) -> Option<HwReg> {
        if n == Self::RZ_ENCODING {
            None
        } else {
            Some(HwReg(n))
        }
    }

    /// The register number (the field's encoding).
    pub const fn number(self) -> u8 {
        self.0
    }

    /// `R<n+k>`, if it is still a register.
    pub fn offset(self, k: u8) -> Option<HwReg> {
        self.0.checked_add(k).and_then(HwReg::new)
    }
}

impl fmt::Debug for HwReg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "R{}", self.0)
    }
}

impl fmt::Display for HwReg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "R{}", self.0)
    }
}

/// What a register field of an instruction holds.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Reg {
    /// Register `sub` of virtual register `vreg` (before allocation).
    Virt { vreg: VReg, sub: u8 },
    /// A hardware register (after allocation, or a pre-coloured field the allocator ignores).
    Hw(HwReg),
    /// RZ: reads as zero, writes are discarded. Never an allocator operand.
    Zero,
}

impl Reg {
    /// The 8-bit field encoding, once allocated (`None` while virtual).
    pub fn encoding(self) -> Option<u8> {
        match self {
            Reg::Virt { .. } => None,
            Reg::Hw(r) => Some(r.number()),
            Reg::Zero => Some(HwReg::RZ_ENCODING),
        }
    }

    /// The hardware register, if this field holds one.
    pub fn hw(self) -> Option<HwReg> {
        match self {
            Reg::Hw(r) => Some(r),
            _ => None,
        }
    }

    /// The virtual register, if this field is still virtual.
    pub fn vreg(self) -> Option<VReg> {
        match self {
            Reg::Virt { vreg, .. } => Some(vreg),
            _ => None,
        }
    }
}

impl From<VReg> for Reg {
    fn from(v: VReg) -> Reg {
        v.reg()
    }
}

impl From<HwReg> for Reg {
    fn from(r: HwReg) -> Reg {
        Reg::Hw(r)
    }
}

impl fmt::Display for Reg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reg::Virt { vreg, sub: 0 } => write!(f, "{vreg}"),
            Reg::Virt { vreg, sub } => write!(f, "{vreg}.{sub}"),
            Reg::Hw(r) => write!(f, "{r}"),
            Reg::Zero => f.write_str("RZ"),
        }
    }
}

/// How the allocator must treat one register field.
///
/// "Early" and "late" are the two points of an instruction: sources are read early, results
/// written late, so a result may share a register with a source that dies here.
///
/// There is deliberately no fixed-register rule: kernels have no register ABI, and the
/// allocator renumbers its registers widest-first after allocation, so a regalloc2 fixed
/// register would not survive as a hardware number. A field that must name a specific hardware
/// register can hold [`Reg::Hw`]; the allocator does not see it, and the post-allocation checker
/// reports any value it clobbers.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum OperandRule {
    /// Read at the start of the instruction (the normal source).
    Use,
    /// Read at the end: never shares a register with a result of this instruction. Use it when
    /// a multi-instruction sequence writes a result before reading this source.
    LateUse,
    /// Written at the end (the normal result).
    Def,
    /// Written at the start: never shares a register with any source (a temporary, or a result
    /// a sequence writes before it has read all sources).
    EarlyDef,
    /// Written at the end into the register(s) of field `field` (a `Use` of this instruction,
    /// same class): the in-place update of a tuple, e.g. "write the low half of this pair".
    /// The tuple parts the instruction does not write keep the reused value's parts.
    ReuseDef(u8),
}

impl OperandRule {
    /// Does the field write its register(s)?
    pub fn is_def(self) -> bool {
        matches!(
            self,
            OperandRule::Def | OperandRule::EarlyDef | OperandRule::ReuseDef(_)
        )
    }
}

/// Receives the register fields of one instruction, in the instruction's fixed field order.
///
/// The same visit serves to collect allocator operands (before allocation) and to rewrite
/// virtual registers into hardware ones (after), so the order must not depend on anything
/// but the instruction itself.
pub trait OperandVisitor {
    /// One field naming `width` consecutive registers starting at `reg` (a tuple part, a hardware
    /// register, or RZ). The visitor may overwrite `reg`.
    fn field(&mut self, reg: &mut Reg, width: u8, rule: OperandRule);

    /// A source read at the start.
    fn use_reg(&mut self, reg: &mut Reg, width: u8) {
        self.field(reg, width, OperandRule::Use)
    }

    /// A source read at the end (see [`OperandRule::LateUse`]).
    fn late_use(&mut self, reg: &mut Reg, width: u8) {
        self.field(reg, width, OperandRule::LateUse)
    }

    /// A result written at the end.
    fn def_reg(&mut self, reg: &mut Reg, width: u8) {
        self.field(reg, width, OperandRule::Def)
    }

    /// A result written at the start (see [`OperandRule::EarlyDef`]).
    fn early_def(&mut self, reg: &mut Reg, width: u8) {
        self.field(reg, width, OperandRule::EarlyDef)
    }

    /// A result written in place over field `field`'s tuple (see [`OperandRule::ReuseDef`]).
    fn reuse_def(&mut self, reg: &mut Reg, width: u8, field: usize) {
        self.field(reg, width, OperandRule::ReuseDef(field as u8))
    }
}

/// One register field as recorded in a [`VCode`]: what the instruction named, before allocation.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Field {
    /// The field's value at selection time.
    pub reg: Reg,
    /// Consecutive registers the field names (1..=4).
    pub width: u8,
    /// The allocator rule.
    pub rule: OperandRule,
    /// Index of the allocator operand this field belongs to (several fields naming parts of one
    /// tuple share one operand); `None` for RZ and hardware-register fields.
    pub operand: Option<u32>,
}

/// Whether an allocator operand reads or writes.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum OperandKind {
    Use,
    Def,
}

/// Where in the instruction an operand acts.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum OperandPos {
    Early,
    Late,
}

/// One allocator operand: a whole virtual register (never a part of one) and its constraint.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Operand {
    pub vreg: VReg,
    pub kind: OperandKind,
    pub pos: OperandPos,
    /// For a def: the operand index (not field index) whose register it must reuse.
    pub reuse: Option<u32>,
}

/// The frame register: local-memory spill slots are addressed `[R1+offset]`, as ptxas does; the
/// allocator reserves it whenever a function spills to memory, and the kernel's prologue loads
/// it from the driver's stack pointer.
pub const FRAME_REG: u8 = 1;

/// A spill slot: a byte offset into the thread's local-memory frame (4-byte aligned; pairs
/// 8-byte, quads 16-byte aligned).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct SpillSlot(pub u32);

/// What a spill or reload instruction made by [`MachInst::gen_spill`] /
/// [`MachInst::gen_reload`] does, for the post-allocation checker.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum SpillInfo {
    /// `width` registers from `src` stored at `slot`.
    Store {
        slot: SpillSlot,
        src: HwReg,
        width: u8,
    },
    /// `width` registers loaded from `slot` into `dst`.
    Load {
        dst: HwReg,
        slot: SpillSlot,
        width: u8,
    },
}

/// Names the row of the target's register-rule table an instruction's fields are checked
/// against after allocation. The rows themselves live in `atomc-regalloc` (`rules.rs`); this
/// enum only fixes each form's field order.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum RegForm {
    /// No rule beyond the shapes the fields declare: natural alignment, RZ accepted anywhere.
    Plain,
    /// `ATOM`/`ATOMG`/`ATOMS` with a result, not CAS. Fields: Rd, Ra (address), Rb (data).
    Atom { wide: bool },
    /// `ATOM.CAS` family. Fields: Rd, Ra (address), Rb (compare), Rc (swap, or RZ).
    /// On SM50, Rb and Rc are one packed group (Rc = Rb+1 / Rb+2).
    AtomCas { wide: bool },
    /// `SUATOM` (with Rd) or `SURED` (`has_dst: false`). Fields: [Rd], Ra (coordinates),
    /// Rb (data; the packed compare/swap group for CAS), [Rc (bindless handle)].
    SurfaceAtom {
        coords: u8,
        wide: bool,
        cas: bool,
        has_dst: bool,
        bindless: bool,
    },
}

/// A machine instruction the register allocator can work on.
///
/// In the spirit of Cranelift's `MachInst`: the target's instruction enum holds [`Reg`] fields
/// and describes them through [`MachInst::visit_operands`]; the allocator never looks inside
/// otherwise.
pub trait MachInst: Clone + fmt::Debug {
    /// Visit every register field (including RZ and hardware fields) in a fixed order.
    /// Used both to collect operands and to rewrite registers after allocation.
    fn visit_operands(&mut self, v: &mut dyn OperandVisitor);

    /// Reads every register field in [`MachInst::visit_operands`]'s order, leaving them as
    /// they are. The default visits a copy; a target overrides it to skip the copy.
    fn read_operands(&self, f: &mut dyn FnMut(Reg, u8, OperandRule)) {
        struct Read<'a>(&'a mut dyn FnMut(Reg, u8, OperandRule));
        impl OperandVisitor for Read<'_> {
            fn field(&mut self, reg: &mut Reg, width: u8, rule: OperandRule) {
                (self.0)(*reg, width, rule)
            }
        }
        self.clone().visit_operands(&mut Read(f));
    }

    /// Ends a block (a branch or a return).
    fn is_term(&self) -> bool {
        self.is_branch() || self.is_ret()
    }

    /// Transfers control to successor blocks (block arguments are given to the builder, not
    /// visited as fields).
    fn is_branch(&self) -> bool;

    /// Leaves the kernel (`EXIT`).
    fn is_ret(&self) -> bool;

    /// A plain register copy: `(dst, src)` fields. Used by the checker for inserted moves.
    fn is_move(&self) -> Option<(Reg, Reg)> {
        None
    }

    /// An unguarded copy of one register, in-place half writes included: the indices of the
    /// written and the read field. The allocator may give both one register; the copy then
    /// does nothing and is dropped after checking.
    fn copy_fields(&self) -> Option<(usize, usize)> {
        None
    }

    /// One hardware instruction that reads every source before it writes a result (so a
    /// result may share a register with a source that dies there, whatever their shapes).
    fn reads_before_writing(&self) -> bool {
        false
    }

    /// For instructions made by `gen_spill`/`gen_reload`: what they move where.
    fn spill_info(&self) -> Option<SpillInfo> {
        None
    }

    /// Which register-rule row the fields follow.
    fn reg_form(&self) -> RegForm {
        RegForm::Plain
    }

    /// Copy a value of `class` from `src` to `dst` (a pair may be 2 MOVs or one 64-bit move).
    fn gen_move(dst: HwReg, src: HwReg, class: RegClass, out: &mut Vec<Self>);

    /// Store a value of `class` from `src` to local memory at `slot` (`STL`).
    fn gen_spill(slot: SpillSlot, src: HwReg, class: RegClass, out: &mut Vec<Self>);

    /// Load a value of `class` from local memory at `slot` into `dst` (`LDL`).
    fn gen_reload(dst: HwReg, slot: SpillSlot, class: RegClass, out: &mut Vec<Self>);
}

/// The fields of `inst` in visit order (the instruction itself is left unchanged).
pub fn fields_of<I: MachInst>(inst: &I) -> SmallVec<[(Reg, u8, OperandRule); 8]> {
    let mut out = SmallVec::new();
    inst.read_operands(&mut |reg, width, rule| out.push((reg, width, rule)));
    out
}

/// A basic block of a [`VCode`]. Block 0 is the entry.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct BlockId(pub u32);

impl BlockId {
    /// Dense index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for BlockId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "block{}", self.0)
    }
}
