//! The memory a generated kernel shares between threads, and the discipline that keeps its final
//! contents independent of the threads' interleaving (see the crate docs for the rule).
//!
//! * A **contended slot** is one word that many threads update. Each slot gets one [`Class`] for
//!   the whole kernel: every update of the slot applies that class's operation, and the
//!   operations of one class commute (`add`/`sub`, `and`, `or`, `xor`, each min/max, exact
//!   small-integer `fadd`, `fmin`/`fmax`), so the final value does not depend on the order.
//!   A [`Class::Uniform`] slot sees one single function `f` (the same op with the same constant
//!   operand), so even the multiset of old values `{f⁰(init), f¹(init), ...}` is fixed.
//! * A **shared** slot or per-thread array is written in at most one phase (the code between two
//!   top-level barriers) and read only in other phases, so every read sees a settled value.

use super::text::Ty;
use crate::rng::Rng;

/// Where a slot lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    Global,
    Shared,
}

/// The one operation family a contended slot sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// `add` and `sub` (and CAS loops doing `iadd`/`isub`).
    Add,
    And,
    Or,
    Xor,
    Smin,
    Smax,
    Umin,
    Umax,
    /// `fadd` and `fsub` of small integers: every partial sum is exact, so rounding cannot
    /// depend on order.
    Fadd,
    Fmin,
    Fmax,
    /// One function applied by every update.
    Uniform(Uni),
}

/// The single function of a [`Class::Uniform`] slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Uni {
    /// `atomic_rmw op` with this constant operand (an integer, or a small float's integer value).
    Rmw(&'static str, i64),
    /// `atomic_cas` with constant expected and replacement values.
    Cas(i64, i64),
    /// `atomic_store` of a constant (no old value).
    Store(i64),
}

impl Class {
    /// The `atomic_rmw` spellings a non-uniform class may use.
    pub fn rmw_ops(self) -> &'static [&'static str] {
        match self {
            Class::Add => &["add", "sub"],
            Class::And => &["and"],
            Class::Or => &["or"],
            Class::Xor => &["xor"],
            Class::Smin => &["smin"],
            Class::Smax => &["smax"],
            Class::Umin => &["umin"],
            Class::Umax => &["umax"],
            Class::Fadd => &["fadd", "fsub"],
            Class::Fmin => &["fmin"],
            Class::Fmax => &["fmax"],
            Class::Uniform(_) => &[],
        }
    }

    /// Whether an old value may feed this class as an operand (a reduction of tickets): the
    /// integer classes only (a float sum of tickets could round).
    pub fn reduces_tickets(self) -> bool {
        matches!(
            self,
            Class::Add
                | Class::And
                | Class::Or
                | Class::Xor
                | Class::Smin
                | Class::Smax
                | Class::Umin
                | Class::Umax
        )
    }
}

/// The arithmetic instruction that computes an `atomic_rmw` op, for CAS loops (`None`: none).
pub fn binop_of(op: &str) -> Option<&'static str> {
    Some(match op {
        "add" => "iadd",
        "sub" => "isub",
        "and" => "band",
        "or" => "bor",
        "xor" => "bxor",
        "smin" => "smin",
        "smax" => "smax",
        "umin" => "umin",
        "umax" => "umax",
        "fadd" => "fadd",
        "fsub" => "fsub",
        "fmin" => "fmin",
        "fmax" => "fmax",
        _ => return None,
    })
}

/// One contended word.
#[derive(Clone, Debug)]
pub struct Slot {
    pub space: Space,
    pub ty: Ty,
    /// Byte offset in its global buffer (by type) or in shared memory.
    pub offset: u32,
    pub class: Class,
    /// The initial value (integer value; for `f32` the float's integer value).
    pub init: i64,
    pub phases: Phases,
    /// For a [`Class::Uniform`] slot: what its old values feed, fixed at its first update. Only
    /// the multiset of *all* the slot's old values is interleaving-independent, so every update
    /// must send its old value to the same place the same way.
    pub olds: Olds,
}

/// Where a uniform slot's old values go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Olds {
    /// Not decided yet (no update written).
    #[default]
    Undecided,
    /// Dropped by every update.
    Unused,
    /// Stored to one ticket range by the slot's only update (not in a loop).
    Ticket,
    /// Fed by every update to global slot `target` with `op`.
    Reduce { target: usize, op: &'static str },
}

/// A per-thread array in shared memory (`B` elements, one per thread of the block).
#[derive(Clone, Debug)]
pub struct Array {
    pub ty: Ty,
    pub offset: u32,
    pub phases: Phases,
}

/// When a shared location is written and read, in phases (the code between two top-level
/// barriers): written in at most one phase, read only in others.
#[derive(Clone, Copy, Debug, Default)]
pub struct Phases {
    write: Option<u32>,
    /// Bit `p`: read in phase `p`.
    reads: u64,
}

impl Phases {
    /// Whether the location may be written (by several threads, or read by others) in `phase`.
    pub fn can_write(&self, phase: u32) -> bool {
        self.write.is_none_or(|w| w == phase) && self.reads & (1 << phase) == 0
    }

    /// Records a write in `phase` (call after [`can_write`](Self::can_write)).
    pub fn note_write(&mut self, phase: u32) {
        self.write = Some(phase);
    }

    /// Whether others' writes may be read in `phase`.
    pub fn can_read(&self, phase: u32) -> bool {
        self.write != Some(phase)
    }

    /// Records a read in `phase` (call after [`can_read`](Self::can_read)).
    pub fn note_read(&mut self, phase: u32) {
        self.reads |= 1 << phase;
    }
}

/// A random class for a slot of type `ty`; `no_minmax` leaves out the min/max families (atomc
/// expands 64-bit shared min/max into a CAS loop whose 64-bit min/max it does not select).
pub fn random_class(rng: &mut Rng, ty: Ty, no_minmax: bool) -> Class {
    let class = random_class_any(rng, ty);
    let minmax = |c: Class| match c {
        Class::Smin | Class::Smax | Class::Umin | Class::Umax => true,
        Class::Uniform(Uni::Rmw(op, _)) => op.ends_with("min") || op.ends_with("max"),
        _ => false,
    };
    if no_minmax && minmax(class) {
        Class::Add
    } else {
        class
    }
}

fn random_class_any(rng: &mut Rng, ty: Ty) -> Class {
    if ty == Ty::F32 {
        return match rng.below(6) {
            0 | 1 => Class::Fadd,
            2 => Class::Fmin,
            3 => Class::Fmax,
            _ => Class::Uniform(random_uni(rng, ty)),
        };
    }
    let classes = [
        Class::Add,
        Class::Add,
        Class::And,
        Class::Or,
        Class::Xor,
        Class::Smin,
        Class::Smax,
        Class::Umin,
        Class::Umax,
    ];
    if rng.chance(30) {
        Class::Uniform(random_uni(rng, ty))
    } else {
        *rng.pick(&classes)
    }
}

fn random_uni(rng: &mut Rng, ty: Ty) -> Uni {
    let c = small_const(rng);
    if rng.chance(15) {
        return Uni::Cas(rng.range(-2, 3), c);
    }
    if rng.chance(10) {
        return Uni::Store(c);
    }
    let op = match ty {
        Ty::F32 => *rng.pick(&["fadd", "fsub", "xchg", "fmin", "fmax"]),
        Ty::I32 => *rng.pick(&[
            "add", "add", "sub", "and", "or", "xor", "xchg", "smin", "smax", "umin", "umax",
            "inc_wrap", "inc_wrap", "dec_wrap",
        ]),
        _ => *rng.pick(&[
            "add", "add", "sub", "and", "or", "xor", "xchg", "smin", "smax", "umin", "umax",
        ]),
    };
    let c = match op {
        "inc_wrap" | "dec_wrap" => rng.range(1, 40),
        _ => c,
    };
    Uni::Rmw(op, c)
}

/// A small constant, sometimes negative or a bit pattern with high bits set.
pub fn small_const(rng: &mut Rng) -> i64 {
    match rng.below(8) {
        0 => -rng.range(1, 9),
        1 => rng.range(0, 0xffff) << 8,
        _ => rng.range(0, 17),
    }
}

/// A slot's initial value for its type (`f32`: a small integer, exact as a float).
pub fn random_init(rng: &mut Rng, ty: Ty) -> i64 {
    match ty {
        Ty::F32 => rng.range(-8, 8),
        Ty::I64 if rng.chance(30) => {
            (rng.next_u64() >> 1) as i64 * if rng.chance(50) { -1 } else { 1 }
        }
        _ if rng.chance(20) => -rng.range(1, 1000),
        _ => rng.range(0, 1000),
    }
}
