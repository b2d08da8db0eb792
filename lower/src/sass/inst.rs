//! The machine instruction of both SASS targets: one hardware instruction,
//! spelled as nvdisasm spells it, whose register operands are virtual until
//! allocation. Encoding knowledge stays in the form tables (`atomc-sass`): the
//! selector resolves each instruction to a form and its modifier values when it
//! is selected ([`SassInst::resolve`]), so an instruction no form encodes stops
//! selection with its source location, and emission fills the allocated
//! registers into that form ([`SassInst::typed`]). The opcode bits are written
//! down exactly once.

use crate::vcode::{
    BlockId, HwReg, MachInst, OperandRule, OperandVisitor, Reg, RegClass, RegForm, SpillInfo, SpillSlot, FRAME_REG,
};
use atomc_sass::instr::{Instr, Operand, Pred};
use atomc_sass::op;
use atomc_sass::op::{t, Opcode};
use atomc_sass::facts::Facts;
use atomc_sass::written::Written;
use atomc_sass::Arch;
use smallvec::{smallvec, SmallVec};
use std::fmt::{self, Write};
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// Fixed predicate used for every condition: conditions are recomputed
/// right before their use, so no predicate outlives two instructions.
pub const COND_PRED: u8 = 0;

/// One operand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MOp {
    /// A general register field naming `width` consecutive registers.
    Reg { reg: Reg, width: u8, rule: OperandRule, neg: bool },
    /// A predicate, `P0`..`P6` or `PT` (7), possibly negated.
    Pred { num: u8, not: bool },
    /// A uniform predicate, `UP0`..`UP6` or `UPT` (7) (not allocated, like [`MOp::UReg`]).
    UPred { num: u8, not: bool },
    /// An integer immediate, printed in hex (`0x1f`, `-0x4`).
    Imm(i64),
    /// An f32 immediate.
    F32(f32),
    /// `c[0x0][offset]`.
    CBank(u32),
    /// `[base+offset]`; `width` registers from `base` form the address
    /// (2 for a 64-bit address, up to 4 for surface coordinates). `ubase`
    /// adds a uniform register (`[R2+UR4+0x10]`): the sm_90 shared window.
    Mem { base: Reg, width: u8, offset: i32, ubase: Option<u8> },
    /// A uniform register `UR4` (not allocated: fixed by the target's conventions).
    UReg(u8),
    /// A convergence barrier register `B0`..`B15` (sm_90 `BSSY`/`BSYNC`).
    BReg(u8),
    /// A special register (`SR_TID.X`), by a thin reference so that an operand stays 16 bytes.
    SReg(&'static &'static str),
    /// A branch target, resolved to an address at emission.
    Label(BlockId),
    /// Not printed: the tuple an in-place partial write keeps the other
    /// parts of (the `ReuseDef` of the written field points here).
    Tied { reg: Reg, width: u8 },
}

impl MOp {
    /// A source register.
    pub fn use_(reg: impl Into<Reg>) -> MOp {
        MOp::Reg { reg: reg.into(), width: 1, rule: OperandRule::Use, neg: false }
    }
    /// A source naming a pair.
    pub fn use_pair(reg: impl Into<Reg>) -> MOp {
        MOp::Reg { reg: reg.into(), width: 2, rule: OperandRule::Use, neg: false }
    }
    /// A negated source (`-R5`).
    pub fn neg(reg: impl Into<Reg>) -> MOp {
        MOp::Reg { reg: reg.into(), width: 1, rule: OperandRule::Use, neg: true }
    }
    /// A result register of `width` registers.
    pub fn def(reg: impl Into<Reg>, width: u8) -> MOp {
        MOp::Reg { reg: reg.into(), width, rule: OperandRule::Def, neg: false }
    }
    /// A result written in place over the tuple of field `field`.
    pub fn reuse_def(reg: impl Into<Reg>, field: usize) -> MOp {
        MOp::Reg { reg: reg.into(), width: 1, rule: OperandRule::ReuseDef(field as u8), neg: false }
    }
    /// `RZ`.
    pub fn rz() -> MOp {
        MOp::Reg { reg: Reg::Zero, width: 1, rule: OperandRule::Use, neg: false }
    }
    /// `PT`.
    pub fn pt() -> MOp {
        MOp::Pred { num: 7, not: false }
    }
    /// The condition predicate.
    pub fn p0() -> MOp {
        MOp::Pred { num: COND_PRED, not: false }
    }
}

/// What kind of control transfer an instruction is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Falls through.
    None,
    /// `BRA` to the block of its `Label` operand.
    Jump,
    /// `@P0 BRA then` and, unless it falls through, `BRA else`.
    CondJump { then_block: BlockId, else_block: BlockId, negate: bool },
    /// `EXIT`.
    Exit,
}

/// One SASS instruction (or, for [`Flow::CondJump`], a branch pair).
#[derive(Clone, Debug, PartialEq)]
pub struct SassInst {
    /// `@P0` / `@!P0` guard.
    pub guard: Option<(u8, bool)>,
    /// Mnemonic with its modifiers as token ids, spelled `ATOMG.E.ADD.STRONG.GPU` ([`Opcode`]).
    pub opcode: Opcode,
    /// Operands in nvdisasm order.
    pub ops: SmallVec<[MOp; 6]>,
    /// Control flow.
    pub flow: Flow,
    /// The register-rule row the post-allocation checker applies.
    pub form: RegForm,
    /// Spill bookkeeping for the checker.
    pub spill: Option<SpillInfo>,
    /// The form and modifier values chosen at selection ([`SassInst::resolve`]).
    pub resolved: Option<Arc<Resolved>>,
    /// Half-precision swizzles, two bits per written operand (operand `i` at `2i`): 2 prints
    /// `.H0_H0`, 3 `.H1_H1` after the register (sm_90 `HADD2.F32 R0, -RZ, R2.H0_H0`).
    pub swizzle: u16,
}

/// What an instruction resolved to in its target's form table when it was selected: the form,
/// its modifier values, and operand values with a placeholder for every register and branch
/// target. Emission fills in the allocated registers and the addresses ([`SassInst::typed`]),
/// so a selected instruction is encoded without being printed and parsed again, and one no form
/// accepts is refused at selection, before allocation.
#[derive(Clone, Debug, PartialEq)]
pub struct Resolved {
    /// The opcode it was resolved from: a later edit of the opcode or guard makes it stale.
    opcode: Opcode,
    guard: Option<(u8, bool)>,
    /// The operands it was resolved from, compared by [`same_shape`].
    shape: SmallVec<[MOp; 6]>,
    /// For each operand slot of `instr`, the written operand (not counting `Tied` ones) it holds.
    slots: SmallVec<[Option<u8>; 6]>,
    instr: Instr,
    /// The resolved form's description (operand roles, effects, timing class).
    facts: Facts,
}

/// Resolutions by instruction shape, shared by the instructions of one selection: a hash of
/// the shape ([`shape_hash`]) to the resolutions (or the assembler's refusal) of the shapes
/// with that hash, told apart by [`same_resolution`].
#[derive(Debug, Default)]
pub struct FormCache(rustc_hash::FxHashMap<u64, SmallVec<[(SassInst, Result<Option<Arc<Resolved>>, String>); 1]>>);

/// More shapes than any selector vocabulary makes; a cache past it is not kept for the next
/// function (a generated kernel with many distinct shapes cannot grow it without bound).
const SHARED_FORMS_LIMIT: usize = 1 << 16;

thread_local! {
    /// Each architecture's [`FormCache`] on this thread, between two lends of [`SharedForms`].
    static SHARED_FORMS: std::cell::RefCell<Vec<(&'static str, FormCache)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// The calling thread's [`FormCache`] for one architecture, lent for one selection or
/// emission and given back when dropped. A shape resolves alike in every function, so a
/// process that compiles many kernels (a shader compiler linking atomc, `atomc test`)
/// assembles each shape once instead of once per function.
#[derive(Debug)]
pub struct SharedForms {
    arch: &'static str,
    cache: FormCache,
}

impl SharedForms {
    /// Borrows this thread's cache for `arch` (an empty one the first time).
    pub fn lend(arch: &Arch) -> SharedForms {
        let cache = SHARED_FORMS.with(|c| {
            let mut c = c.borrow_mut();
            c.iter().position(|(name, _)| *name == arch.name).map(|i| c.swap_remove(i).1).unwrap_or_default()
        });
        SharedForms { arch: arch.name, cache }
    }
}

impl std::ops::Deref for SharedForms {
    type Target = FormCache;
    fn deref(&self) -> &FormCache {
        &self.cache
    }
}

impl std::ops::DerefMut for SharedForms {
    fn deref_mut(&mut self) -> &mut FormCache {
        &mut self.cache
    }
}

impl Drop for SharedForms {
    fn drop(&mut self) {
        if self.cache.0.len() > SHARED_FORMS_LIMIT {
            return;
        }
        let cache = std::mem::take(&mut self.cache);
        // `try_with`: a thread being torn down has no cache to keep.
        let _ = SHARED_FORMS.try_with(|c| c.borrow_mut().push((self.arch, cache)));
    }
}

/// What resolution depends on: the opcode, the guard, and each operand but for which virtual
/// register it names (its part of a tuple does matter: `v7.1` stands for `R1`).
fn shape_hash(inst: &SassInst) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    inst.opcode.hash(&mut h);
    let guard = inst.guard.map_or(0, |(num, not)| 0x100 | (num as u64) << 1 | not as u64);
    h.write_u64(guard | (inst.swizzle as u64) << 16);
    // One word per operand: every instruction of a selection is hashed, most of them hits.
    let small = |v: Option<u8>| v.map_or(0x100, u64::from);
    for op in &inst.ops {
        let (tag, bits) = match op {
            MOp::Reg { reg, width, neg, .. } => (0, small(placeholder_of(reg)) | (*width as u64) << 9 | (*neg as u64) << 17),
            MOp::Mem { base, width, offset, ubase } => {
                (1, small(placeholder_of(base)) | (*width as u64) << 9 | small(*ubase) << 17 | (*offset as u32 as u64) << 26)
            }
            MOp::Pred { num, not } => (2, *num as u64 | (*not as u64) << 8),
            MOp::UPred { num, not } => (3, *num as u64 | (*not as u64) << 8),
            MOp::Imm(v) => {
                let (neg, len) = imm_class(*v);
                (4, len as u64 | (neg as u64) << 8)
            }
            MOp::F32(f) => (5, f.to_bits() as u64),
            MOp::CBank(o) => (6, *o as u64),
            MOp::UReg(n) => (7, *n as u64),
            MOp::BReg(n) => (8, *n as u64),
            MOp::SReg(name) => {
                name.hash(&mut h);
                (9, 0)
            }
            MOp::Label(_) => (10, 0),
            MOp::Tied { .. } => (11, 0),
        };
        h.write_u64(tag << 59 | bits);
    }
    h.finish()
}

/// The register a field stands for while its instruction is resolved: a virtual tuple at R0.
fn placeholder_of(r: &Reg) -> Option<u8> {
    match r {
        Reg::Virt { sub, .. } => Some(*sub),
        Reg::Hw(h) => Some(h.number()),
        Reg::Zero => None,
    }
}

/// Whether two instructions resolve alike (see [`shape_hash`]).
fn same_resolution(a: &SassInst, b: &SassInst) -> bool {
    let regs_alike = |x: &MOp, y: &MOp| match (x, y) {
        (MOp::Reg { reg: r, .. }, MOp::Reg { reg: r2, .. }) | (MOp::Mem { base: r, .. }, MOp::Mem { base: r2, .. }) => {
            placeholder_of(r) == placeholder_of(r2)
        }
        _ => true,
    };
    a.opcode == b.opcode
        && a.guard == b.guard
        && a.swizzle == b.swizzle
        && a.flow == b.flow
        && a.ops.len() == b.ops.len()
        && a.ops.iter().zip(&b.ops).all(|(x, y)| same_shape(x, y) && regs_alike(x, y))
}

/// An integer immediate's sign and bit length. Every range check of the form table (a field's
/// signed or unsigned width) answers alike for values of one class, so they resolve to the same
/// form, and [`SassInst::typed`] writes the value itself into it: a kernel of many different
/// constants does not assemble one text per constant.
fn imm_class(v: i64) -> (bool, u32) {
    if v < 0 {
        (true, 64 - (!v).leading_zeros())
    } else {
        (false, 64 - v.leading_zeros())
    }
}

/// Whether two operands encode alike but for their register numbers, branch targets and
/// immediates of one [`imm_class`].
fn same_shape(a: &MOp, b: &MOp) -> bool {
    let zero = |r: &Reg| *r == Reg::Zero;
    match (a, b) {
        (MOp::Imm(x), MOp::Imm(y)) => imm_class(*x) == imm_class(*y),
        (MOp::Reg { reg: r, width: w, neg: n, .. }, MOp::Reg { reg: r2, width: w2, neg: n2, .. }) => {
            zero(r) == zero(r2) && w == w2 && n == n2
        }
        (MOp::Mem { base, width, offset, ubase }, MOp::Mem { base: b2, width: w2, offset: o2, ubase: u2 }) => {
            zero(base) == zero(b2) && width == w2 && offset == o2 && ubase == u2
        }
        (MOp::Label(_), MOp::Label(_)) | (MOp::Tied { .. }, MOp::Tied { .. }) => true,
        _ => a == b,
    }
}

impl SassInst {
    /// An instruction as the selector spells it. Its timing class and operand roles are the
    /// form's, looked up when the dependency pass runs (`atomc_sass::roles`, `latency`).
    pub fn new(opcode: Opcode, ops: impl IntoIterator<Item = MOp>) -> SassInst {
        SassInst {
            guard: None,
            opcode,
            ops: ops.into_iter().collect(),
            flow: Flow::None,
            form: RegForm::Plain,
            spill: None,
            resolved: None,
            swizzle: 0,
        }
    }

    /// Sets the swizzle of written operand `i` (2 `.H0_H0`, 3 `.H1_H1`).
    pub fn with_swizzle(mut self, i: usize, swz: u16) -> SassInst {
        self.swizzle = (self.swizzle & !(3 << (2 * i))) | (swz & 3) << (2 * i);
        self
    }

    /// Sets the register-rule row.
    pub fn with_form(mut self, form: RegForm) -> SassInst {
        self.form = form;
        self
    }

    /// The registers this instruction reads and writes, as hardware numbers
    /// (after allocation): `(reads, writes)`; RZ excluded.
    pub fn hw_regs(&self) -> (SmallVec<[u8; 8]>, SmallVec<[u8; 4]>) {
        let (mut reads, mut writes) = (SmallVec::new(), SmallVec::new());
        let mut add = |reg: &Reg, width: u8, rule: OperandRule| {
            if let Reg::Hw(r) = reg {
                for k in 0..width {
                    let n = r.number() + k;
                    if rule.is_def() {
                        writes.push(n);
                    } else {
                        reads.push(n);
                    }
                }
            }
        };
        for op in &self.ops {
            match op {
                MOp::Reg { reg, width, rule, .. } => add(reg, *width, *rule),
                MOp::Mem { base, width, .. } => add(base, *width, OperandRule::Use),
                _ => {}
            }
        }
        (reads, writes)
    }

    /// nvdisasm-syntax text; `label` resolves branch targets to byte addresses.
    pub fn text(&self, label: &dyn Fn(BlockId) -> String) -> String {
        self.text_with(label, &reg_name)
    }

    /// Resolves the instruction against `arch`'s form table (see [`Resolved`]). The error is
    /// the assembler's reason, with the instruction as selected.
    pub fn resolve(&mut self, arch: &Arch) -> Result<(), String> {
        self.resolve_cached(arch, &mut FormCache::default())
    }

    /// [`SassInst::resolve`] through `cache`: instructions of one shape (the same text with
    /// their registers as placeholders) resolve alike, so each shape is assembled once.
    pub fn resolve_cached(&mut self, arch: &Arch, cache: &mut FormCache) -> Result<(), String> {
        if matches!(self.flow, Flow::CondJump { .. }) {
            // A branch pair until the layout splits it into `BRA`s.
            return Ok(());
        }
        let key = shape_hash(self);
        let bucket = cache.0.entry(key).or_default();
        let found = match bucket.iter().find(|(seen, _)| same_resolution(seen, self)) {
            Some((_, found)) => found.clone(),
            None => {
                let found = self.resolve_uncached(arch);
                let mut seen = self.clone();
                seen.resolved = None;
                bucket.push((seen, found.clone()));
                found
            }
        };
        match found {
            Ok(resolved) => {
                self.resolved = resolved;
                Ok(())
            }
            Err(why) => Err(format!("`{self}`: {why}")),
        }
    }

    /// Hands the instruction's operands to the form table as values, with placeholder
    /// registers: nothing is printed or parsed.
    fn resolve_uncached(&self, arch: &Arch) -> Result<Option<Arc<Resolved>>, String> {
        // Every virtual tuple at R0 meets the forms' alignment, not-RZ and implied-register
        // (`Rb+1`) rules; the allocator's rules and the post-allocation checker own the real
        // numbers.
        let shown = self.ops.iter().filter(|op| !matches!(op, MOp::Tied { .. })).count();
        let written: SmallVec<[Written; 6]> = self
            .ops
            .iter()
            .filter(|op| !matches!(op, MOp::Tied { .. }))
            .enumerate()
            .filter_map(|(i, op)| written_of(op, (self.swizzle >> (2 * i) & 3) as u8, arch))
            .collect();
        let guard = self.guard.map(|(num, not)| Pred { num, not });
        match arch.assemble_op(guard, self.opcode, &written, 0) {
            Ok(instr) => {
                // Which written operand each slot holds; a `PT` nvdisasm hides holds none.
                let hidden = arch.hidden_operands(instr.form, shown);
                let mut written = 0..shown as u8;
                let slots: SmallVec<[Option<u8>; 6]> =
                    (0..instr.ops.len()).map(|k| if hidden.contains(&k) { None } else { written.next() }).collect();
                let (opcode, guard, shape) = (self.opcode, self.guard, self.ops.clone());
                let facts = arch.forms[instr.form as usize].facts;
                Ok(Some(Arc::new(Resolved { opcode, guard, shape, slots, instr, facts })))
            }
            Err(e) => Err(e.msg),
        }
    }

    /// The encodable instruction at byte address `addr`, from the form chosen at selection and
    /// this instruction's allocated registers; `label` gives a block's address. `None` when it
    /// was never resolved, was edited since, or still names a virtual register.
    pub fn typed(&self, arch: &Arch, addr: u64, label: &dyn Fn(BlockId) -> u64) -> Option<Instr> {
        let r = self.resolved.as_deref()?;
        let unchanged = r.opcode == self.opcode
            && r.guard == self.guard
            && r.shape.len() == self.ops.len()
            && r.shape.iter().zip(&self.ops).all(|(a, b)| same_shape(a, b));
        if !unchanged {
            return None;
        }
        // Copied slice by slice (`Clone` of a `SmallVec` copies element by element).
        let mut instr = Instr {
            mods: SmallVec::from_slice(&r.instr.mods),
            ops: SmallVec::from_slice(&r.instr.ops),
            ..r.instr
        };
        let shown: SmallVec<[&MOp; 6]> = self.ops.iter().filter(|op| !matches!(op, MOp::Tied { .. })).collect();
        for (slot, op) in r.slots.iter().zip(instr.ops.iter_mut()) {
            let Some(k) = slot else { continue };
            let mop = shown[*k as usize];
            match (mop, op) {
                (MOp::Reg { reg, .. }, Operand::Reg(r)) => r.num = reg.encoding()?,
                (MOp::Mem { base, .. }, Operand::Mem(m)) => m.base = base.encoding()?,
                (MOp::Label(b), Operand::Target(t)) => *t = label(*b) as i64 - addr as i64 - arch.word_bytes as i64,
                (MOp::Imm(v), Operand::Imm(x)) => *x = *v,
                (MOp::Reg { .. } | MOp::Mem { .. } | MOp::Label(_) | MOp::Imm(_), _) => return None,
                _ => {}
            }
        }
        Some(instr)
    }

    /// The facts of the form the instruction resolved to at selection (`None` before
    /// resolution, for a branch pair, or after an edit of its opcode).
    pub fn facts(&self) -> Option<&Facts> {
        self.resolved.as_deref().filter(|r| r.opcode == self.opcode).map(|r| &r.facts)
    }

    /// Whether the resolved form does more than write its results ([`Facts::has_side_effects`];
    /// `None` where [`SassInst::facts`] is `None`).
    pub fn side_effects(&self) -> Option<bool> {
        self.facts().map(Facts::has_side_effects)
    }

    /// [`SassInst::text`] with registers named by `reg`.
    fn text_with(&self, label: &dyn Fn(BlockId) -> String, reg: &dyn Fn(&Reg) -> String) -> String {
        let mut s = String::new();
        if let Some((p, not)) = self.guard {
            let _ = write!(s, "@{}P{} ", if not { "!" } else { "" }, p);
        }
        let _ = write!(s, "{}", self.opcode);
        let shown = self.ops.iter().filter(|op| !matches!(op, MOp::Tied { .. }));
        for (i, op) in shown.enumerate() {
            s.push_str(if i == 0 { " " } else { ", " });
            write_op(&mut s, op, label, reg);
            match self.swizzle >> (2 * i) & 3 {
                2 => s.push_str(".H0_H0"),
                3 => s.push_str(".H1_H1"),
                _ => {}
            }
        }
        s.push_str(" ;");
        s
    }
}

/// Operand `op` as the form table takes it, its registers as resolution's placeholders
/// ([`placeholder_of`]) and `swz` its half-precision swizzle; a branch target at address 0.
/// `None` for a tied operand, which is not written.
fn written_of<'a>(op: &'a MOp, swz: u8, arch: &Arch) -> Option<Written<'a>> {
    let num = |r: &Reg| placeholder_of(r).unwrap_or(arch.rz);
    Some(match op {
        MOp::Reg { reg, neg, .. } => {
            Written::Reg { reg: atomc_sass::Reg { num: num(reg), neg: *neg, swz, ..Default::default() }, suffix: false }
        }
        MOp::Pred { num, not } => Written::Pred(Pred { num: *num, not: *not }),
        MOp::UPred { num, not } => Written::UPred(Pred { num: *num, not: *not }),
        MOp::Imm(v) => Written::Int(*v),
        MOp::F32(f) => Written::Float(*f as f64),
        MOp::CBank(offset) => {
            Written::CBank { bank: 0, base: arch.rz, offset: *offset as i64, neg: false, abs: false, h1: false }
        }
        // nvdisasm's `[UR4+0x4]` names no general register; `[RZ+0x4]` does.
        MOp::Mem { base, offset, ubase, .. } => Written::Mem {
            desc: None,
            base: (*base != Reg::Zero || ubase.is_none()).then(|| num(base)),
            width: atomc_sass::BaseWidth::Plain,
            scale: 0,
            ureg: *ubase,
            offset: (*offset != 0).then_some(*offset as i64),
        },
        MOp::UReg(n) => Written::UReg(atomc_sass::Reg { num: *n, swz, ..Default::default() }),
        MOp::BReg(n) => Written::BReg(*n),
        MOp::SReg(name) => Written::SReg(name),
        MOp::Label(_) => Written::Target(0),
        MOp::Tied { .. } => return None,
    })
}

fn reg_name(reg: &Reg) -> String {
    match reg {
        Reg::Zero => "RZ".into(),
        Reg::Hw(r) => format!("R{}", r.number()),
        Reg::Virt { vreg, sub: 0 } => format!("{vreg}"),
        Reg::Virt { vreg, sub } => format!("{vreg}.{sub}"),
    }
}

fn hex(v: i64) -> String {
    if v < 0 {
        format!("-0x{:x}", v.unsigned_abs())
    } else {
        format!("0x{v:x}")
    }
}

fn write_op(s: &mut String, op: &MOp, label: &dyn Fn(BlockId) -> String, reg_name: &dyn Fn(&Reg) -> String) {
    match op {
        MOp::Reg { reg, neg, .. } => {
            if *neg {
                s.push('-');
            }
            s.push_str(&reg_name(reg));
        }
        MOp::Pred { num, not } => {
            if *not {
                s.push('!');
            }
            if *num == 7 {
                s.push_str("PT");
            } else {
                let _ = write!(s, "P{num}");
            }
        }
        MOp::UPred { num, not } => {
            if *not {
                s.push('!');
            }
            if *num == 7 {
                s.push_str("UPT");
            } else {
                let _ = write!(s, "UP{num}");
            }
        }
        MOp::Imm(v) => s.push_str(&hex(*v)),
        MOp::F32(f) => {
            let _ = write!(s, "{f}");
        }
        MOp::CBank(off) => {
            let _ = write!(s, "c[0x0][0x{off:x}]");
        }
        MOp::Mem { base, offset, ubase, .. } => {
            s.push('[');
            // nvdisasm prints plain-address forms as `[R2+0x4]` even with
            // `.E` (the 64-bit pair is implied); `.64` appears only in the
            // uniform-register and descriptor forms, which atomc does not use.
            // With a uniform base it prints `[R2+UR4+0x4]`, and `[UR4+0x4]` for RZ.
            match (base, ubase) {
                (Reg::Zero, Some(u)) => {
                    let _ = write!(s, "UR{u}");
                }
                (_, Some(u)) => {
                    let _ = write!(s, "{}+UR{u}", reg_name(base));
                }
                (_, None) => s.push_str(&reg_name(base)),
            }
            // nvdisasm joins the parts with `+`, a negative offset too: `[R2+-0x4]`.
            if *offset != 0 {
                s.push('+');
                s.push_str(&hex(*offset as i64));
            }
            s.push(']');
        }
        MOp::SReg(name) => s.push_str(name),
        MOp::BReg(n) => {
            let _ = write!(s, "B{n}");
        }
        MOp::UReg(63) => s.push_str("URZ"),
        MOp::UReg(n) => {
            let _ = write!(s, "UR{n}");
        }
        MOp::Label(b) => s.push_str(&label(*b)),
        MOp::Tied { .. } => {}
    }
}

impl fmt::Display for SassInst {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.flow {
            Flow::CondJump { then_block, else_block, negate } => {
                let p = if negate { "!P0" } else { "P0" };
                write!(f, "@{p} BRA {then_block} ; BRA {else_block} ;")
            }
            _ => f.write_str(&self.text(&|b| b.to_string())),
        }
    }
}

impl MachInst for SassInst {
    fn visit_operands(&mut self, v: &mut dyn OperandVisitor) {
        for op in self.ops.iter_mut() {
            match op {
                MOp::Reg { reg, width, rule, .. } => v.field(reg, *width, *rule),
                MOp::Mem { base, width, .. } => v.field(base, *width, OperandRule::Use),
                MOp::Tied { reg, width } => v.field(reg, *width, OperandRule::Use),
                _ => {}
            }
        }
    }

    fn read_operands(&self, f: &mut dyn FnMut(Reg, u8, OperandRule)) {
        for op in &self.ops {
            match *op {
                MOp::Reg { reg, width, rule, .. } => f(reg, width, rule),
                MOp::Mem { base, width, .. } => f(base, width, OperandRule::Use),
                MOp::Tied { reg, width } => f(reg, width, OperandRule::Use),
                _ => {}
            }
        }
    }

    fn is_branch(&self) -> bool {
        matches!(self.flow, Flow::Jump | Flow::CondJump { .. })
    }

    fn is_ret(&self) -> bool {
        self.flow == Flow::Exit
    }

    fn is_move(&self) -> Option<(Reg, Reg)> {
        match self.ops.as_slice() {
            [MOp::Reg { reg: d, .. }, MOp::Reg { reg: s, .. }] if self.opcode == op!(MOV) => Some((*d, *s)),
            _ => None,
        }
    }

    fn copy_fields(&self) -> Option<(usize, usize)> {
        if self.opcode != op!(MOV) || self.guard.is_some() {
            return None;
        }
        let reg = |o: &MOp, def: bool| matches!(o, MOp::Reg { neg: false, rule, reg: Reg::Virt { .. } | Reg::Hw(_), .. } if rule.is_def() == def);
        match self.ops.as_slice() {
            [d, s] if reg(d, true) && reg(s, false) => Some((0, 1)),
            [MOp::Tied { .. }, d, s] if reg(d, true) && reg(s, false) => Some((1, 2)),
            _ => None,
        }
    }

    fn reads_before_writing(&self) -> bool {
        // The form says (`Facts::reads_sources_first`: the global and shared atomics); an early
        // def is written before the sources are read.
        self.facts().is_some_and(|f| f.reads_sources_first)
            && self.ops.iter().all(|o| !matches!(o, MOp::Reg { rule: OperandRule::EarlyDef, .. }))
    }

    fn spill_info(&self) -> Option<SpillInfo> {
        self.spill
    }

    fn reg_form(&self) -> RegForm {
        self.form
    }

    fn gen_move(dst: HwReg, src: HwReg, class: RegClass, out: &mut Vec<Self>) {
        for k in 0..class.width() {
            let (d, s) = (dst.offset(k).expect("in range"), src.offset(k).expect("in range"));
            out.push(SassInst::new(op!(MOV), [MOp::def(d, 1), MOp::use_(s)]));
        }
    }

    fn gen_spill(slot: SpillSlot, src: HwReg, class: RegClass, out: &mut Vec<Self>) {
        let ops: SmallVec<[MOp; 6]> = smallvec![
            MOp::Mem {
                base: Reg::Hw(HwReg::new(FRAME_REG).expect("R1")),
                width: 1,
                offset: slot.0 as i32,
                ubase: None
            },
            MOp::Reg { reg: Reg::Hw(src), width: class.width(), rule: OperandRule::Use, neg: false },
        ];
        let mut inst = SassInst::new(op!(STL).with(spill_size(class)), ops);
        inst.spill = Some(SpillInfo::Store { slot, src, width: class.width() });
        out.push(inst);
    }

    fn gen_reload(dst: HwReg, slot: SpillSlot, class: RegClass, out: &mut Vec<Self>) {
        let ops: SmallVec<[MOp; 6]> = smallvec![
            MOp::Reg { reg: Reg::Hw(dst), width: class.width(), rule: OperandRule::Def, neg: false },
            MOp::Mem {
                base: Reg::Hw(HwReg::new(FRAME_REG).expect("R1")),
                width: 1,
                offset: slot.0 as i32,
                ubase: None
            },
        ];
        let mut inst = SassInst::new(op!(LDL).with(spill_size(class)), ops);
        inst.spill = Some(SpillInfo::Load { dst, slot, width: class.width() });
        out.push(inst);
    }
}

/// The size token of a spill or reload of `class` (none for one register).
fn spill_size(class: RegClass) -> Option<op::Tok> {
    match class.width() {
        1 => None,
        2 => Some(t::_64),
        _ => Some(t::_128),
    }
}

#[cfg(test)]
mod sizes {
    /// Selection makes, moves and copies one of these per machine instruction: at 100k IR
    /// instructions the copies showed in profiles, so growth here should be on purpose.
    #[test]
    fn machine_instructions_stay_small() {
        assert_eq!(std::mem::size_of::<super::MOp>(), 16);
        assert!(std::mem::size_of::<super::SassInst>() <= 168, "{}", std::mem::size_of::<super::SassInst>());
    }
}

#[cfg(test)]
mod shared_forms {
    use super::*;

    /// A shape resolved while one function's cache is lent is found by the next function on
    /// the thread, and an architecture's cache is not another's.
    #[test]
    fn a_shape_resolved_once_serves_the_next_function() {
        let (sm90, sm50) = (atomc_sass::sm90(), atomc_sass::sm50());
        let mov = || SassInst::new(op!(MOV), [MOp::def(Reg::Zero, 1), MOp::Imm(1)]);
        let first = {
            let mut forms = SharedForms::lend(sm90);
            let before = forms.0.len();
            mov().resolve_cached(sm90, &mut forms).unwrap();
            assert_eq!(forms.0.len(), before + 1);
            before + 1
        };
        let mut again = SharedForms::lend(sm90);
        assert_eq!(again.0.len(), first);
        let mut inst = mov();
        inst.resolve_cached(sm90, &mut again).unwrap();
        assert_eq!(again.0.len(), first, "the shape was resolved again");
        assert!(inst.resolved.is_some());
        assert!(SharedForms::lend(sm50).0.len() < first);
    }
}
