//! A toy SASS-like instruction set for the allocator tests and the bench.
#![allow(dead_code)]

use atomc_lower::vcode::{
    HwReg, MachInst, OperandVisitor, Reg, RegClass, RegForm, SpillInfo, SpillSlot, VCode,
    VCodeBuilder, VReg,
};
use atomc_regalloc::AllocOptions;

#[derive(Clone, Debug)]
pub enum T {
    /// Kernel arguments: defines each field.
    Args {
        dsts: Vec<(Reg, u8)>,
    },
    /// `dst = constant` (width 1, 2 or 4).
    Const {
        dst: Reg,
        width: u8,
    },
    /// `dst = a + b`.
    Add {
        dst: Reg,
        a: Reg,
        b: Reg,
        width: u8,
    },
    /// New tuple `dst.tuple` = `old` with part `dst` (width `w`) replaced by `old.part(src) + val`.
    /// Fields: old (whole, use), val (use), dst (reuse def of field 0).
    AddInto {
        old: Reg,
        old_width: u8,
        val: Reg,
        dst: Reg,
        w: u8,
    },
    /// Build a pair from two singles (two MOVs; early def since the first MOV writes before the
    /// second reads).
    Pack2 {
        dst: Reg,
        lo: Reg,
        hi: Reg,
    },
    /// Register copy (selected or inserted).
    Copy {
        dst: Reg,
        src: Reg,
        width: u8,
    },
    /// `ATOM.CAS`: Rd, Ra, Rb, Rc. `reuse`: Rd is written in place over Rb's tuple.
    Cas {
        wide: bool,
        rd: Reg,
        ra: Reg,
        rb: Reg,
        rc: Reg,
        reuse: bool,
    },
    /// SUATOM: Rd, Ra (coords), Rb, Rc (handle).
    Suatom {
        coords: u8,
        wide: bool,
        cas: bool,
        rd: Reg,
        ra: Reg,
        rb: Reg,
        rc: Reg,
    },
    /// `dst = (a == b)` as a single register (the toy has no predicates).
    CmpEq {
        dst: Reg,
        a: Reg,
        b: Reg,
        width: u8,
    },
    /// Store `val` to `[addr]`.
    Store {
        addr: Reg,
        val: Reg,
        width: u8,
    },
    Spill {
        slot: SpillSlot,
        src: Reg,
        width: u8,
    },
    Reload {
        dst: Reg,
        slot: SpillSlot,
        width: u8,
    },
    Jump,
    BranchIf {
        cond: Reg,
    },
    Exit,
    /// Any form with explicit fields, to forge instructions in checker tests.
    Raw {
        form: RegForm,
        fields: Vec<(Reg, u8, atomc_lower::vcode::OperandRule)>,
    },
}

impl std::fmt::Display for T {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

impl MachInst for T {
    fn visit_operands(&mut self, v: &mut dyn OperandVisitor) {
        match self {
            T::Args { dsts } => {
                for (d, w) in dsts {
                    v.def_reg(d, *w);
                }
            }
            T::Const { dst, width } => v.def_reg(dst, *width),
            T::Add { dst, a, b, width } => {
                v.use_reg(a, *width);
                v.use_reg(b, *width);
                v.def_reg(dst, *width);
            }
            T::AddInto {
                old,
                old_width,
                val,
                dst,
                w,
            } => {
                v.use_reg(old, *old_width);
                v.use_reg(val, *w);
                v.reuse_def(dst, *w, 0);
            }
            T::Pack2 { dst, lo, hi } => {
                v.use_reg(lo, 1);
                v.use_reg(hi, 1);
                v.early_def(dst, 2);
            }
            T::Copy { dst, src, width } => {
                v.use_reg(src, *width);
                v.def_reg(dst, *width);
            }
            T::Cas {
                wide,
                rd,
                ra,
                rb,
                rc,
                reuse,
            } => {
                let w = if *wide { 2 } else { 1 };
                if *reuse {
                    v.reuse_def(rd, w, 2);
                } else {
                    v.def_reg(rd, w);
                }
                v.use_reg(ra, 2);
                v.use_reg(rb, w);
                v.use_reg(rc, w);
            }
            T::Suatom {
                coords,
                wide,
                cas,
                rd,
                ra,
                rb,
                rc,
            } => {
                let w = if *wide { 2 } else { 1 };
                v.def_reg(rd, w);
                v.use_reg(ra, *coords);
                v.use_reg(rb, if *cas { 2 * w } else { w });
                v.use_reg(rc, 1);
            }
            T::CmpEq { dst, a, b, width } => {
                v.use_reg(a, *width);
                v.use_reg(b, *width);
                v.def_reg(dst, 1);
            }
            T::Store { addr, val, width } => {
                v.use_reg(addr, 2);
                v.use_reg(val, *width);
            }
            T::Spill { src, width, .. } => v.use_reg(src, *width),
            T::Reload { dst, width, .. } => v.def_reg(dst, *width),
            T::BranchIf { cond } => v.use_reg(cond, 1),
            T::Jump | T::Exit => {}
            T::Raw { fields, .. } => {
                for (r, w, rule) in fields {
                    v.field(r, *w, *rule);
                }
            }
        }
    }
    fn is_branch(&self) -> bool {
        matches!(self, T::Jump | T::BranchIf { .. })
    }
    fn is_ret(&self) -> bool {
        matches!(self, T::Exit)
    }
    fn is_move(&self) -> Option<(Reg, Reg)> {
        match self {
            T::Copy { dst, src, .. } => Some((*dst, *src)),
            _ => None,
        }
    }
    fn spill_info(&self) -> Option<SpillInfo> {
        match *self {
            T::Spill {
                slot,
                src: Reg::Hw(src),
                width,
            } => Some(SpillInfo::Store { slot, src, width }),
            T::Reload {
                dst: Reg::Hw(dst),
                slot,
                width,
            } => Some(SpillInfo::Load { dst, slot, width }),
            _ => None,
        }
    }
    fn reg_form(&self) -> RegForm {
        match *self {
            T::Cas { wide, .. } => RegForm::AtomCas { wide },
            T::Suatom {
                coords, wide, cas, ..
            } => RegForm::SurfaceAtom {
                coords,
                wide,
                cas,
                has_dst: true,
                bindless: true,
            },
            T::Raw { form, .. } => form,
            _ => RegForm::Plain,
        }
    }
    /// Pairs move as two 32-bit MOVs (SM50 style), quads as two 64-bit moves.
    fn gen_move(dst: HwReg, src: HwReg, class: RegClass, out: &mut Vec<Self>) {
        let (n, w) = match class {
            RegClass::Single => (1, 1),
            RegClass::Pair => (2, 1),
            RegClass::Quad => (2, 2),
        };
        for k in 0..n {
            let off = k * w;
            out.push(T::Copy {
                dst: hw(dst.number() + off),
                src: hw(src.number() + off),
                width: w,
            });
        }
    }
    fn gen_spill(slot: SpillSlot, src: HwReg, class: RegClass, out: &mut Vec<Self>) {
        out.push(T::Spill {
            slot,
            src: src.into(),
            width: class.width(),
        });
    }
    fn gen_reload(dst: HwReg, slot: SpillSlot, class: RegClass, out: &mut Vec<Self>) {
        out.push(T::Reload {
            dst: dst.into(),
            slot,
            width: class.width(),
        });
    }
}

impl T {
    /// `dst = constant`.
    pub fn konst(dst: Reg, width: u8) -> T {
        T::Const { dst, width }
    }
    /// Store `val` to `[addr]`.
    pub fn store(addr: Reg, val: Reg, width: u8) -> T {
        T::Store { addr, val, width }
    }
    /// Register copy.
    pub fn copy(dst: Reg, src: Reg, width: u8) -> T {
        T::Copy { dst, src, width }
    }
    /// Kernel arguments.
    pub fn args(dsts: &[(Reg, u8)]) -> T {
        T::Args {
            dsts: dsts.to_vec(),
        }
    }
}

/// `base` offering at most `per_class` registers of a class and `registers` in all (without the
/// second cap, spills would land in the register file's slot registers, not in memory).
pub fn capped(base: AllocOptions, per_class: u32, registers: u32) -> AllocOptions {
    AllocOptions {
        max_per_class: per_class,
        max_registers: registers,
        ..base
    }
}

/// `R<n>` as a field value.
pub fn hw(n: u8) -> Reg {
    HwReg::new(n).map_or(Reg::Zero, Reg::Hw)
}

/// Overwrite field `k` of `inst` with `r` (to forge bad allocations).
pub fn set_field(inst: &mut T, k: usize, r: Reg) {
    struct Set(usize, usize, Reg);
    impl OperandVisitor for Set {
        fn field(&mut self, reg: &mut Reg, _w: u8, _r: atomc_lower::vcode::OperandRule) {
            if self.0 == self.1 {
                *reg = self.2;
            }
            self.0 += 1;
        }
    }
    inst.visit_operands(&mut Set(0, k, r));
}

/// The SM50 64-bit CAS loop with the expected/new values as one loop-carried quad:
/// `q = [expected, new]`; each iteration writes `new = expected + val` into q.hi in place,
/// copies expected aside, CASes with the result written into q.lo in place, and loops with q.
pub fn cas64_loop() -> VCode<T> {
    cas_loop(true)
}

/// The same loop for a 32-bit CAS: the loop-carried value is a pair `[expected, new]`.
pub fn cas32_loop() -> VCode<T> {
    cas_loop(false)
}

/// The CAS loop of [`cas64_loop`] (`wide`) or [`cas32_loop`]: values of `w` registers, the
/// loop-carried tuple `[expected, new]` of `2 * w`.
fn cas_loop(wide: bool) -> VCode<T> {
    let w: u8 = if wide { 2 } else { 1 };
    let value = RegClass::for_width(w).expect("1 or 2");
    let tuple = RegClass::for_width(2 * w).expect("2 or 4");
    let mut b = VCodeBuilder::<T>::new();
    let (entry, head, latch, exit) = (b.new_block(), b.new_block(), b.new_block(), b.new_block());
    let addr = b.new_vreg(RegClass::Pair);
    let val = b.new_vreg(value);
    let q0 = b.new_vreg(tuple);
    b.push(entry, T::args(&[(addr.reg(), 2), (val.reg(), w)]));
    b.push(entry, T::konst(q0.reg(), 2 * w));
    b.push_branch(entry, T::Jump, &[(head, &[q0])]);
    let q = b.append_block_param(head, tuple);
    let q1 = b.new_vreg(tuple);
    let e = b.new_vreg(value);
    let q2 = b.new_vreg(tuple);
    let c = b.new_vreg(RegClass::Single);
    b.push(
        head,
        T::AddInto {
            old: q.reg(),
            old_width: 2 * w,
            val: val.reg(),
            dst: q1.part(w),
            w,
        },
    );
    b.push(head, T::copy(e.reg(), q1.part(0), w));
    b.push(
        head,
        T::Cas {
            wide,
            rd: q2.part(0),
            ra: addr.reg(),
            rb: q1.part(0),
            rc: q1.part(w),
            reuse: true,
        },
    );
    b.push(
        head,
        T::CmpEq {
            dst: c.reg(),
            a: q2.part(0),
            b: e.reg(),
            width: w,
        },
    );
    b.push_branch(
        head,
        T::BranchIf { cond: c.reg() },
        &[(exit, &[]), (latch, &[])],
    );
    b.push_branch(latch, T::Jump, &[(head, &[q2])]);
    b.push(exit, T::Exit);
    b.finish().expect("valid vcode")
}

/// One block: the address pair as an argument, a constant of each class in turn, then a store
/// of each (all live at once), then exit.
pub fn all_live(classes: impl IntoIterator<Item = RegClass>) -> VCode<T> {
    let mut b = VCodeBuilder::<T>::new();
    let e = b.new_block();
    let addr = b.new_vreg(RegClass::Pair);
    b.push(e, T::args(&[(addr.reg(), 2)]));
    let vals: Vec<VReg> = classes
        .into_iter()
        .map(|class| {
            let v = b.new_vreg(class);
            b.push(e, T::konst(v.reg(), class.width()));
            v
        })
        .collect();
    for v in &vals {
        b.push(e, T::store(addr.reg(), v.reg(), v.class().width()));
    }
    b.push(e, T::Exit);
    b.finish().expect("valid vcode")
}

/// A straight-line kernel of about `n` instructions: a rolling window of `live` singles and
/// `live / 4` pairs, each new value the sum of two older ones, stored at the end.
pub fn straight_line(n: usize, live: usize) -> VCode<T> {
    let mut b = VCodeBuilder::<T>::new();
    let blk = b.new_block();
    let addr = b.new_vreg(RegClass::Pair);
    b.push(blk, T::args(&[(addr.reg(), 2)]));
    let mut singles: Vec<VReg> = Vec::new();
    let mut pairs: Vec<VReg> = Vec::new();
    for k in 0..live {
        let v = b.new_vreg(RegClass::Single);
        b.push(blk, T::konst(v.reg(), 1));
        singles.push(v);
        if k % 4 == 0 {
            let p = b.new_vreg(RegClass::Pair);
            b.push(blk, T::konst(p.reg(), 2));
            pairs.push(p);
        }
    }
    let mut i = 0usize;
    while i + 2 < n {
        // Every fifth value a pair (the sum of neighbours), the others singles (three apart).
        let (vals, step) = if i % 5 == 4 && !pairs.is_empty() {
            (&mut pairs, 1)
        } else {
            (&mut singles, 3)
        };
        let k = i % vals.len();
        let class = vals[k].class();
        let d = b.new_vreg(class);
        let other = vals[(k + step) % vals.len()];
        b.push(
            blk,
            T::Add {
                dst: d.reg(),
                a: vals[k].reg(),
                b: other.reg(),
                width: class.width(),
            },
        );
        vals[k] = d;
        i += 1;
    }
    for s in singles {
        b.push(blk, T::store(addr.reg(), s.reg(), 1));
    }
    for p in pairs {
        b.push(blk, T::store(addr.reg(), p.reg(), 2));
    }
    b.push(blk, T::Exit);
    b.finish().expect("valid vcode")
}
