//! The post-allocation checker: re-verifies every register rule on the final instructions.
//!
//! It trusts neither regalloc2 nor the hardware mapping. It reads the hardware registers out of
//! the final instructions themselves and checks
//! * per field, against the target's rule table: pair/quad/group alignment, RZ only where the
//!   form allows it, the field widths the form requires, reserved and out-of-range registers,
//!   the SM50 CAS adjacency (Rc = Rb+1 / Rb+2);
//! * across the function, that no two live values share a register: a forward dataflow over the
//!   physical registers and spill slots tracks which (virtual register, part) each location
//!   holds, through defs, inserted moves, spills, reloads and block-parameter edges; every read
//!   must find the value the selected instruction meant to read. A value overwritten while still
//!   needed shows up as a read of the wrong value.
//!
//! Cheap (linear per pass, a few passes for loops), so it runs on every compile.

use crate::rebuild::{FinalCode, Origin};
use crate::rules::{FieldRule, TargetRules, Width};
use atomc_lower::vcode::{fields_of, MachInst, OperandRule, Reg, SpillInfo, VCode};
use smallvec::SmallVec;
use std::fmt;

/// Which final instruction an error is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct At {
    pub block: u32,
    /// Index into the final instruction list.
    pub inst: u32,
    pub origin: Origin,
    /// The instruction, printed.
    pub text: String,
}

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "block{} inst {} `{}`", self.block, self.inst, self.text)
    }
}

/// A register rule the final code breaks.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    #[error("{at}: field {field} still names virtual register {reg}")]
    Unallocated { at: At, field: String, reg: String },
    #[error("{at}: form {form} has {expected} register fields, the instruction visits {found}")]
    FieldCount {
        at: At,
        form: &'static str,
        expected: usize,
        found: usize,
    },
    #[error("{at}: {form} field {field} must name {expected} registers, names {found}")]
    Width {
        at: At,
        form: &'static str,
        field: String,
        expected: u8,
        found: u8,
    },
    #[error("{at}: {form} field {field} = R{reg} is not aligned to {align}")]
    Misaligned {
        at: At,
        form: &'static str,
        field: String,
        reg: u8,
        align: u8,
    },
    #[error("{at}: {form} field {field} may not be RZ")]
    RzNotAllowed {
        at: At,
        form: &'static str,
        field: String,
    },
    #[error("{at}: field {field} uses reserved register R{reg}")]
    Reserved { at: At, field: String, reg: u8 },
    #[error("{at}: field {field} reaches R{reg}, beyond the usable R0..R{last}")]
    OutOfRange {
        at: At,
        field: String,
        reg: u16,
        last: u8,
    },
    #[error("{at}: {form} field {field} must be R{expected} (field {base} + {offset}), is R{found}")]
    Tie {
        at: At,
        form: &'static str,
        field: String,
        base: String,
        offset: u8,
        expected: u16,
        found: u8,
    },
    #[error("{at}: field {field} reads R{reg} expecting {expected}, but it holds {found}")]
    WrongValue {
        at: At,
        field: String,
        reg: u16,
        expected: String,
        found: String,
    },
    #[error("{at}: does not match selected instruction {vinst} (field count, width, rule, or a non-virtual field changed)")]
    Mismatch { at: At, vinst: u32 },
    #[error("{at}: inserted by the allocator but neither a move, a spill nor a reload")]
    UnknownEdit { at: At },
    #[error("{at}: spill slot at byte {offset} is not aligned to the {bytes}-byte access")]
    SlotMisaligned { at: At, offset: u32, bytes: u32 },
    #[error("{at}: writes R{reg}, the frame register of the local-memory spill slots")]
    FrameClobbered { at: At, reg: u8 },
    #[error("{at}: spills to local memory, but the function has no frame register")]
    NoFrame { at: At },
}

/// Check `code` (the allocated `vcode`) against `rules`. Returns the first violation.
pub fn check_allocation<I: MachInst>(
    rules: &TargetRules,
    vcode: &VCode<I>,
    code: &FinalCode<I>,
) -> Result<(), RuleError> {
    // Every instruction's fields in one array (instruction `i`'s at `spans[i]`): one
    // allocation instead of one list per instruction.
    let mut fields = Vec::with_capacity(code.insts.len() * 4);
    let mut spans = vec![(0u32, 0u32); code.insts.len()];
    for (b, range) in code.blocks.iter().enumerate() {
        for i in range.clone() {
            let start = fields.len();
            code.insts[i as usize].read_operands(&mut |reg, width, rule| fields.push((reg, width, rule)));
            let f = &fields[start..];
            check_local(rules, f, &code.insts[i as usize], || at(code, b, i))?;
            check_frame(code, f, &code.insts[i as usize], || at(code, b, i))?;
            spans[i as usize] = (start as u32, fields.len() as u32);
        }
    }
    Values::new(rules, vcode, code, &fields, &spans).run()
}

/// The frame register (if any) is written by nothing but the prologue, and a spill to memory
/// needs one.
fn check_frame<I: MachInst>(
    code: &FinalCode<I>,
    fields: &[Field],
    inst: &I,
    at: impl Fn() -> At,
) -> Result<(), RuleError> {
    let Some(frame) = code.frame_reg else {
        return match inst.spill_info() {
            Some(_) => Err(RuleError::NoFrame { at: at() }),
            None => Ok(()),
        };
    };
    let f = frame.number();
    for (reg, width, rule) in fields {
        if let (Reg::Hw(r), true) = (reg, rule.is_def()) {
            if (r.number()..r.number().saturating_add(*width)).contains(&f) {
                return Err(RuleError::FrameClobbered { at: at(), reg: f });
            }
        }
    }
    Ok(())
}

/// Check one instruction on hardware registers against `rules`' per-field rules (alignment,
/// RZ, widths, reserved registers, CAS adjacency), e.g. for hand-written assembly. Errors
/// report it as block 0, instruction 0.
pub fn check_inst<I: MachInst>(rules: &TargetRules, inst: &I) -> Result<(), RuleError> {
    let f = fields_of(inst);
    check_local(rules, &f, inst, || At {
        block: 0,
        inst: 0,
        origin: Origin::Inst(0),
        text: format!("{inst:?}"),
    })
}

/// A register field of a final instruction: the register, its width, its rule.
type Field = (Reg, u8, OperandRule);

fn at<I: MachInst>(code: &FinalCode<I>, block: usize, inst: u32) -> At {
    At {
        block: block as u32,
        inst,
        origin: code.origins[inst as usize],
        text: format!("{:?}", code.insts[inst as usize]),
    }
}

/// The rules one instruction's fields can be checked against by themselves.
fn check_local<I: MachInst>(
    rules: &TargetRules,
    fields: &[Field],
    inst: &I,
    at: impl Fn() -> At,
) -> Result<(), RuleError> {
    let row = rules.form(inst.reg_form());
    let form = row.as_ref().map_or("plain", |r| r.name);
    if let Some(row) = &row {
        if row.fields.len() != fields.len() {
            return Err(RuleError::FieldCount {
                at: at(),
                form,
                expected: row.fields.len(),
                found: fields.len(),
            });
        }
    }
    let plain = FieldRule {
        name: "",
        width: Width::Declared,
        align: None,
        rz: true,
    };
    let name = |k: usize| match &row {
        Some(r) => r.fields[k].name.to_string(),
        None => format!("#{k}"),
    };
    for (k, &(reg, width, _)) in fields.iter().enumerate() {
        let rule = row.as_ref().map_or(plain, |r| r.fields[k]);
        if let Width::Exactly(w) = rule.width {
            if w != width {
                return Err(RuleError::Width {
                    at: at(),
                    form,
                    field: name(k),
                    expected: w,
                    found: width,
                });
            }
        }
        match reg {
            Reg::Virt { .. } => {
                return Err(RuleError::Unallocated {
                    at: at(),
                    field: name(k),
                    reg: reg.to_string(),
                })
            }
            Reg::Zero if !rule.rz => {
                return Err(RuleError::RzNotAllowed {
                    at: at(),
                    form,
                    field: name(k),
                })
            }
            Reg::Zero => {}
            Reg::Hw(r) => {
                let n = r.number();
                let align = rule.alignment(width);
                if n % align != 0 {
                    return Err(RuleError::Misaligned {
                        at: at(),
                        form,
                        field: name(k),
                        reg: n,
                        align,
                    });
                }
                for j in 0..u16::from(width) {
                    let m = u16::from(n) + j;
                    if m < 255 && rules.is_reserved(m as u8) {
                        return Err(RuleError::Reserved {
                            at: at(),
                            field: name(k),
                            reg: m as u8,
                        });
                    }
                    if m >= u16::from(rules.usable) {
                        return Err(RuleError::OutOfRange {
                            at: at(),
                            field: name(k),
                            reg: m,
                            last: rules.usable - 1,
                        });
                    }
                }
            }
        }
    }
    if let (Some(row), Some(tie)) = (&row, row.as_ref().and_then(|r| r.tie)) {
        if let (Reg::Hw(b), Reg::Hw(c)) = (fields[tie.base].0, fields[tie.field].0) {
            let expected = u16::from(b.number()) + u16::from(tie.offset);
            if u16::from(c.number()) != expected {
                return Err(RuleError::Tie {
                    at: at(),
                    form: row.name,
                    field: row.fields[tie.field].name.to_string(),
                    base: row.fields[tie.base].name.to_string(),
                    offset: tie.offset,
                    expected,
                    found: c.number(),
                });
            }
        }
    }
    Ok(())
}

/// A value part: `vreg index * 4 + part`.
type Val = u32;
/// The values one location holds (sorted, usually 0-2 entries).
type Vals = SmallVec<[Val; 2]>;

/// Locations: R0..R254 at 0..255, spill slot bytes/4 at 256 + n.
const SLOTS: usize = 256;

fn describe(v: Val, vcode_classes: &dyn Fn(usize) -> char) -> String {
    let (idx, part) = ((v / 4) as usize, v % 4);
    format!("%{}{}.{}", idx, vcode_classes(idx), part)
}

struct Values<'a, I> {
    rules: &'a TargetRules,
    vcode: &'a VCode<I>,
    code: &'a FinalCode<I>,
    fields: &'a [Field],
    spans: &'a [(u32, u32)],
}

impl<'a, I: MachInst> Values<'a, I> {
    fn new(
        rules: &'a TargetRules,
        vcode: &'a VCode<I>,
        code: &'a FinalCode<I>,
        fields: &'a [Field],
        spans: &'a [(u32, u32)],
    ) -> Self {
        Values {
            rules,
            vcode,
            code,
            fields,
            spans,
        }
    }

    fn class_char(&self) -> impl Fn(usize) -> char + '_ {
        |v| match self.vcode.vreg_class(v).width() {
            1 => 's',
            2 => 'p',
            _ => 'q',
        }
    }

    fn run(&self) -> Result<(), RuleError> {
        let nb = self.code.blocks.len();
        let mut block_in: Vec<Option<Vec<Vals>>> = vec![None; nb];
        if nb == 0 {
            return Ok(());
        }
        block_in[0] = Some(Vec::new());
        // Lowest block first: in a layout that mostly runs forward, a block then waits for
        // every forward predecessor, so each is visited about once (loop headers again), where
        // a stack would walk on from a join before its other side is done and walk the rest
        // of the function again from there.
        let mut work = std::collections::BinaryHeap::from([std::cmp::Reverse(0usize)]);
        let mut queued = vec![false; nb];
        queued[0] = true;
        while let Some(std::cmp::Reverse(b)) = work.pop() {
            queued[b] = false;
            let mut state = block_in[b].clone().unwrap_or_default();
            for i in self.code.blocks[b].clone() {
                self.transfer(b, i, &mut state)?;
            }
            let data = &self.vcode.blocks()[b];
            for (s, args) in data.succs.iter().zip(&data.succ_args) {
                let params = &self.vcode.block(*s).params;
                let edge = rename(&state, args, params);
                let merged = match &block_in[s.index()] {
                    None => edge,
                    Some(old) => meet(old, &edge),
                };
                if block_in[s.index()].as_ref() != Some(&merged) {
                    block_in[s.index()] = Some(merged);
                    if !queued[s.index()] {
                        queued[s.index()] = true;
                        work.push(std::cmp::Reverse(s.index()));
                    }
                }
            }
        }
        Ok(())
    }

    fn transfer(&self, b: usize, i: u32, state: &mut Vec<Vals>) -> Result<(), RuleError> {
        let (from, to) = self.spans[i as usize];
        let fields = &self.fields[from as usize..to as usize];
        let inst = &self.code.insts[i as usize];
        match self.code.origins[i as usize] {
            Origin::Inst(v) => self.transfer_inst(b, i, v, fields, state),
            // The frame set-up is added after checking; it holds no value of the function.
            Origin::Prologue => Ok(()),
            Origin::Edit(_) => {
                let copies: SmallVec<[(usize, usize); 4]> = if let Some((d, s)) = inst.is_move() {
                    let width = fields.iter().find(|f| f.2.is_def()).map_or(1, |f| f.1);
                    match (d, s) {
                        (Reg::Hw(d), Reg::Hw(s)) => (0..usize::from(width))
                            .map(|j| (usize::from(d.number()) + j, usize::from(s.number()) + j))
                            .collect(),
                        _ => {
                            return Err(RuleError::UnknownEdit {
                                at: at(self.code, b, i),
                            })
                        }
                    }
                } else {
                    if let Some(
                        SpillInfo::Store { slot, width, .. } | SpillInfo::Load { slot, width, .. },
                    ) = inst.spill_info()
                    {
                        let bytes = 4 * u32::from(width.max(1)).next_power_of_two();
                        if slot.0 % bytes != 0 {
                            return Err(RuleError::SlotMisaligned {
                                at: at(self.code, b, i),
                                offset: slot.0,
                                bytes,
                            });
                        }
                    }
                    match inst.spill_info() {
                        Some(SpillInfo::Store { slot, src, width }) => (0..usize::from(width))
                            .map(|j| {
                                (
                                    SLOTS + slot.0 as usize / 4 + j,
                                    usize::from(src.number()) + j,
                                )
                            })
                            .collect(),
                        Some(SpillInfo::Load { dst, slot, width }) => (0..usize::from(width))
                            .map(|j| {
                                (
                                    usize::from(dst.number()) + j,
                                    SLOTS + slot.0 as usize / 4 + j,
                                )
                            })
                            .collect(),
                        None => {
                            return Err(RuleError::UnknownEdit {
                                at: at(self.code, b, i),
                            })
                        }
                    }
                };
                let vals: SmallVec<[Vals; 4]> =
                    copies.iter().map(|&(_, s)| get(state, s)).collect();
                for (&(d, _), v) in copies.iter().zip(vals) {
                    set(state, d, v);
                }
                Ok(())
            }
        }
    }

    fn transfer_inst(
        &self,
        b: usize,
        i: u32,
        v: u32,
        fields: &[Field],
        state: &mut Vec<Vals>,
    ) -> Result<(), RuleError> {
        let vfields = self.vcode.inst_fields(v as usize);
        let mismatch = || RuleError::Mismatch {
            at: at(self.code, b, i),
            vinst: v,
        };
        if vfields.len() != fields.len() {
            return Err(mismatch());
        }
        // Reads.
        for (k, (vf, &(reg, width, rule))) in vfields.iter().zip(fields).enumerate() {
            // Allocation may only turn virtual fields into hardware registers; RZ and
            // pre-coloured fields stay as selected.
            let same_kind = match (vf.reg, reg) {
                (Reg::Virt { .. }, Reg::Hw(_)) | (Reg::Zero, Reg::Zero) => true,
                (Reg::Hw(a), Reg::Hw(b)) => a == b,
                _ => false,
            };
            if vf.width != width || vf.rule != rule || !same_kind {
                return Err(mismatch());
            }
            if rule.is_def() {
                continue;
            }
            let (Reg::Virt { vreg, sub }, Reg::Hw(r)) = (vf.reg, reg) else {
                continue;
            };
            // The tuple an in-place write reuses is not read by the hardware: the operand
            // carries the parts the write leaves to the new tuple (below), and whoever reads
            // those later is checked then. A tuple defined by a copy holds only what has been
            // written into it so far.
            if vfields.iter().any(|f| f.rule == OperandRule::ReuseDef(k as u8)) {
                continue;
            }
            for j in 0..width {
                let loc = usize::from(r.number()) + usize::from(j);
                let want = vreg.index() as u32 * 4 + u32::from(sub + j);
                // Borrowed: this runs for every register every instruction reads.
                if !state.get(loc).is_some_and(|have| have.contains(&want)) {
                    let have = get(state, loc);
                    let cc = self.class_char();
                    let found = if have.is_empty() {
                        "nothing known".to_string()
                    } else {
                        have.iter()
                            .map(|&x| describe(x, &cc))
                            .collect::<Vec<_>>()
                            .join(" / ")
                    };
                    return Err(RuleError::WrongValue {
                        at: at(self.code, b, i),
                        field: self
                            .rules
                            .form(self.code.insts[i as usize].reg_form())
                            .and_then(|r| r.fields.get(k).map(|f| f.name.to_string()))
                            .unwrap_or_else(|| format!("#{k}")),
                        reg: loc as u16,
                        expected: describe(want, &cc),
                        found,
                    });
                }
            }
        }
        // A one-register copy leaves in its destination every value its source held: the
        // allocator may give a copy's source and destination one register (a copy into a
        // tuple half of a value that stays live), so later reads of either value find it.
        let copied = self.code.insts[i as usize].copy_fields().and_then(|(d, s)| {
            match (fields.get(d).map(|f| f.0), fields.get(s).map(|f| f.0)) {
                (Some(Reg::Hw(d)), Some(Reg::Hw(s))) => {
                    Some((usize::from(d.number()), get(state, usize::from(s.number()))))
                }
                _ => None,
            }
        });
        // Writes, then the parts an in-place update carries over from the reused tuple.
        let mut writes: SmallVec<[(usize, Option<Val>); 4]> = SmallVec::new();
        let mut carries: SmallVec<[(usize, Val); 4]> = SmallVec::new();
        for (vf, &(reg, width, rule)) in vfields.iter().zip(fields) {
            if !rule.is_def() {
                continue;
            }
            // A copy (`MOV`) writes one register even where its field names a whole tuple
            // (the copy that defines one); the tuple's other registers keep what they held.
            let width = if copied.is_some() { 1 } else { width };
            let Reg::Hw(r) = reg else { continue };
            let base = usize::from(r.number());
            match vf.reg {
                Reg::Virt { vreg, sub } => {
                    for j in 0..width {
                        let val = vreg.index() as u32 * 4 + u32::from(sub + j);
                        writes.push((base + usize::from(j), Some(val)));
                    }
                    if let OperandRule::ReuseDef(t) = rule {
                        let Some(Reg::Virt { vreg: used, .. }) = vfields.get(usize::from(t)).map(|f| f.reg)
                        else {
                            return Err(mismatch());
                        };
                        let Some(tuple_base) = base.checked_sub(usize::from(sub)) else {
                            return Err(mismatch());
                        };
                        for part in 0..vreg.class().width() {
                            let written = vfields.iter().any(|f| {
                                f.rule.is_def()
                                    && matches!(f.reg, Reg::Virt { vreg: d, sub: s }
                                        if d == vreg && (s..s + f.width).contains(&part))
                            });
                            let from = used.index() as u32 * 4 + u32::from(part);
                            let loc = tuple_base + usize::from(part);
                            if !written && get(state, loc).contains(&from) {
                                carries.push((loc, vreg.index() as u32 * 4 + u32::from(part)));
                            }
                        }
                    }
                }
                _ => {
                    for j in 0..width {
                        writes.push((base + usize::from(j), None));
                    }
                }
            }
        }
        for (loc, val) in writes {
            set(state, loc, val.into_iter().collect());
        }
        if let Some((loc, vals)) = copied {
            let mut have = get(state, loc);
            for val in vals {
                if !have.contains(&val) {
                    have.push(val);
                }
            }
            have.sort_unstable();
            set(state, loc, have);
        }
        for (loc, val) in carries {
            let mut vals = get(state, loc);
            if !vals.contains(&val) {
                vals.push(val);
                vals.sort_unstable();
                set(state, loc, vals);
            }
        }
        Ok(())
    }
}

fn get(state: &[Vals], loc: usize) -> Vals {
    state.get(loc).cloned().unwrap_or_default()
}

fn set(state: &mut Vec<Vals>, loc: usize, vals: Vals) {
    if state.len() <= loc {
        state.resize(loc + 1, Vals::new());
    }
    state[loc] = vals;
}

/// The state on an edge: the successor's parameters take the arguments' values.
fn rename(
    state: &[Vals],
    args: &[atomc_lower::vcode::VReg],
    params: &[atomc_lower::vcode::VReg],
) -> Vec<Vals> {
    if params.is_empty() {
        return state.to_vec();
    }
    let is_param = |v: Val| params.iter().any(|p| p.index() as u32 == v / 4);
    let is_arg = |v: Val| args.iter().any(|a| a.index() as u32 == v / 4);
    state
        .iter()
        .map(|vals| {
            // Most locations hold neither: kept as they are (already sorted, without repeats).
            if !vals.iter().any(|&v| is_param(v) || is_arg(v)) {
                return vals.clone();
            }
            let mut out: Vals = vals.iter().copied().filter(|&v| !is_param(v)).collect();
            for &v in vals.iter() {
                for (a, p) in args.iter().zip(params) {
                    if a.index() as u32 == v / 4 {
                        out.push(p.index() as u32 * 4 + v % 4);
                    }
                }
            }
            out.sort_unstable();
            out.dedup();
            out
        })
        .collect()
}

/// Values known in both states.
fn meet(a: &[Vals], b: &[Vals]) -> Vec<Vals> {
    let n = a.len().max(b.len());
    (0..n)
        .map(|loc| {
            let (x, y) = (get(a, loc), get(b, loc));
            x.into_iter().filter(|v| y.contains(v)).collect()
        })
        .collect()
}
