//! Edge-value kernels: straight-line code over every non-atomic instruction and every data
//! type (sub-word integers, f16, packed floats), its operands drawn from the edges of each type
//! (inputs and constants alike, on either side, shift amounts beyond the width included), each
//! result stored so it is compared. Every `EDGE_EVERY`th seed is one. The first steps of a
//! kernel walk the instruction list from a seed-dependent place, so a short range of seeds
//! reaches every instruction; the rest are random. Some kernels also update a bound surface
//! (each thread its own element, so the interleaving does not matter).

use atomc::ir::{BinaryOp, ConvOp, FloatCC, IntCC, ReduceOp, ShuffleMode, SpecialReg, TernaryOp, Type, UnaryOp, VoteOp};
use atomc_cli::whole_ir::edges;
use std::fmt::Write;

use super::{Buffer, Compare, Program};
use crate::rng::Rng;

/// One seed in this many is an edge-value kernel.
pub const EDGE_EVERY: u64 = 4;
/// Inputs per thread (`i64` words, each an edge of a random type).
const INPUTS: usize = 8;
/// Instructions under test per kernel (each with its own output slot): few, so that one
/// instruction a target refuses (which refuses the whole kernel) hides little.
const STEPS: usize = 8;

const INTS: [Type; 4] = [Type::I8, Type::I16, Type::I32, Type::I64];
const FLOATS: [Type; 3] = [Type::F16, Type::F32, Type::F64];
const DATA: [Type; 9] =
    [Type::I8, Type::I16, Type::I32, Type::I64, Type::F16, Type::F32, Type::F64, Type::F16x2, Type::BF16x2];

/// What one step tests.
#[derive(Clone, Copy, Debug)]
enum Step {
    Unary(UnaryOp),
    Binary(BinaryOp),
    Ternary(TernaryOp),
    Bfi,
    Icmp(IntCC),
    Fcmp(FloatCC),
    Select,
    Conv(ConvOp),
    Special(SpecialReg),
    Vote(VoteOp),
    Shuffle(ShuffleMode),
    Reduce(ReduceOp),
    Ballot,
    ActiveMask,
    MatchAny,
    /// Store to the thread's shared slot and load it back (`shared_addr`, `store`, `load`).
    Shared,
    /// Load an input through a generic pointer (`ptr_to_generic`).
    Generic,
    /// A diamond choosing between two values (`brif`, `jump`, a block parameter).
    Branch,
}

/// Every step kind, from the IR's keyword enums.
fn steps() -> Vec<Step> {
    let mut s: Vec<Step> = UnaryOp::ALL.iter().map(|&o| Step::Unary(o)).collect();
    s.extend(BinaryOp::ALL.iter().map(|&o| Step::Binary(o)));
    s.extend(TernaryOp::ALL.iter().map(|&o| Step::Ternary(o)));
    s.extend(IntCC::ALL.iter().map(|&o| Step::Icmp(o)));
    s.extend(FloatCC::ALL.iter().map(|&o| Step::Fcmp(o)));
    s.extend(ConvOp::ALL.iter().map(|&o| Step::Conv(o)));
    s.extend(SpecialReg::ALL.iter().map(|&o| Step::Special(o)));
    s.extend(VoteOp::ALL.iter().map(|&o| Step::Vote(o)));
    s.extend(ShuffleMode::ALL.iter().map(|&o| Step::Shuffle(o)));
    s.extend(ReduceOp::ALL.iter().map(|&o| Step::Reduce(o)));
    s.extend([Step::Bfi, Step::Select, Step::Ballot, Step::ActiveMask, Step::MatchAny, Step::Shared, Step::Generic, Step::Branch]);
    s
}

struct K<'a> {
    rng: &'a mut Rng,
    out: String,
    next: u32,
    next_block: u32,
    /// Values by type.
    pool: Vec<(Type, String)>,
    tid: String,
    /// The thread's input words, integer results and float results.
    inp: String,
    oi: String,
    of: String,
}

impl K<'_> {
    fn def(&mut self, rhs: impl std::fmt::Display) -> String {
        let v = format!("v{}", self.next);
        self.next += 1;
        let _ = writeln!(self.out, "    {v} = {rhs}");
        v
    }

    fn stmt(&mut self, s: impl std::fmt::Display) {
        let _ = writeln!(self.out, "    {s}");
    }

    /// An edge constant of `ty` (scalar types only).
    fn constant(&mut self, ty: Type) -> String {
        let e = edges::of(ty);
        let bits = *self.rng.pick(&e);
        if ty.is_int() {
            let w = ty.bits();
            self.def(format!("iconst.{ty} {}", ((bits << (64 - w)) as i64) >> (64 - w)))
        } else {
            self.def(format!("fconst.{ty} 0x{bits:0w$x}", w = ty.bits() as usize / 4))
        }
    }

    /// An operand of `ty`: a value of the pool or (sometimes, for scalars) an edge constant.
    fn operand(&mut self, ty: Type) -> String {
        let have: Vec<String> = self.pool.iter().filter(|(t, _)| *t == ty).map(|(_, v)| v.clone()).collect();
        if have.is_empty() || (!ty.is_packed_float() && ty != Type::Pred && self.rng.chance(35)) {
            if ty == Type::Pred {
                let (a, b) = (self.operand(Type::I32), self.operand(Type::I32));
                return self.def(format!("icmp slt {a}, {b}"));
            }
            if ty.is_packed_float() {
                let x = self.operand(Type::I32);
                return self.def(format!("bitcast.{ty} {x}"));
            }
            return self.constant(ty);
        }
        self.rng.pick(&have).clone()
    }

    fn pick_ty(&mut self, from: &[Type]) -> Type {
        *self.rng.pick(from)
    }

    /// One step; its result value and type.
    fn step(&mut self, step: Step) -> (String, Type) {
        match step {
            Step::Unary(op) => {
                let ty = self.pick_ty(if op.is_float() { &FLOATS } else { &INTS });
                let a = self.operand(ty);
                (self.def(format!("{op} {a}")), ty)
            }
            Step::Binary(op) => {
                let ty = self.pick_ty(if op.is_float() { &FLOATS } else { &INTS });
                let (a, mut b) = (self.operand(ty), self.operand(ty));
                if matches!(op, BinaryOp::Udiv | BinaryOp::Sdiv | BinaryOp::Urem | BinaryOp::Srem) {
                    // A zero divisor has no meaning in the IR: replace it by one.
                    let (zero, one) = (self.def(format!("iconst.{ty} 0")), self.def(format!("iconst.{ty} 1")));
                    let z = self.def(format!("icmp eq {b}, {zero}"));
                    b = self.def(format!("select {z}, {one}, {b}"));
                }
                (self.def(format!("{op} {a}, {b}")), ty)
            }
            Step::Ternary(op) if op.is_float() => {
                let ty = self.pick_ty(&FLOATS);
                let (a, b, c) = (self.operand(ty), self.operand(ty), self.operand(ty));
                (self.def(format!("{op} {a}, {b}, {c}")), ty)
            }
            Step::Ternary(op) => {
                let ty = self.pick_ty(&INTS);
                let (x, p, l) = (self.operand(ty), self.operand(Type::I32), self.operand(Type::I32));
                (self.def(format!("{op} {x}, {p}, {l}")), ty)
            }
            Step::Bfi => {
                let ty = self.pick_ty(&INTS);
                let (x, b, p, l) = (self.operand(ty), self.operand(ty), self.operand(Type::I32), self.operand(Type::I32));
                (self.def(format!("bfi {x}, {b}, {p}, {l}")), ty)
            }
            Step::Icmp(cc) => {
                let ty = self.pick_ty(&INTS);
                let (a, b) = (self.operand(ty), self.operand(ty));
                (self.def(format!("icmp {cc} {a}, {b}")), Type::Pred)
            }
            Step::Fcmp(cc) => {
                let ty = self.pick_ty(&FLOATS);
                let (a, b) = (self.operand(ty), self.operand(ty));
                (self.def(format!("fcmp {cc} {a}, {b}")), Type::Pred)
            }
            Step::Select => {
                let ty = self.pick_ty(&DATA);
                let (c, a, b) = (self.operand(Type::Pred), self.operand(ty), self.operand(ty));
                (self.def(format!("select {c}, {a}, {b}")), ty)
            }
            Step::Conv(op) => {
                let (from, to) = self.conversion(op);
                let a = self.operand(from);
                (self.def(format!("{op}.{to} {a}")), to)
            }
            Step::Special(reg) => (self.def(reg.name()), Type::I32),
            Step::Vote(VoteOp::Eq) | Step::MatchAny => {
                let ty = self.pick_ty(&DATA);
                let x = self.operand(ty);
                let name = if let Step::Vote(op) = step { op.name() } else { "match_any" };
                let rty = if matches!(step, Step::MatchAny) { Type::I32 } else { Type::Pred };
                (self.def(format!("{name} {x}")), rty)
            }
            Step::Vote(op) => {
                let c = self.operand(Type::Pred);
                (self.def(format!("{op} {c}")), Type::Pred)
            }
            Step::Ballot => {
                let c = self.operand(Type::Pred);
                (self.def(format!("ballot {c}")), Type::I32)
            }
            Step::ActiveMask => (self.def("active_mask"), Type::I32),
            Step::Shuffle(mode) => {
                let ty = self.pick_ty(&DATA);
                let (x, lane) = (self.operand(ty), self.operand(Type::I32));
                (self.def(format!("shuffle {mode} {x}, {lane}")), ty)
            }
            Step::Reduce(op) => {
                let ty = self.pick_ty(&INTS);
                let x = self.operand(ty);
                (self.def(format!("reduce {op} {x}")), ty)
            }
            Step::Shared => {
                let ty = self.pick_ty(&DATA);
                let x = self.operand(ty);
                let base = self.def("shared_addr sm0");
                let eight = self.def("iconst.i32 8");
                let off = self.def(format!("imul {}, {eight}", self.tid));
                let p = self.def(format!("ptr_add {base}, {off}"));
                self.stmt(format!("store {x}, {p}"));
                (self.def(format!("load.{ty} {p}")), ty)
            }
            Step::Generic => {
                let ty = self.pick_ty(&DATA);
                let g = self.def(format!("ptr_to_generic {}", self.inp));
                let k = self.rng.below(INPUTS as u64) * 8;
                (self.def(format!("load.{ty} {g}+{k}")), ty)
            }
            Step::Branch => {
                let ty = self.pick_ty(&DATA);
                let (c, a, b) = (self.operand(Type::Pred), self.operand(ty), self.operand(ty));
                let (t, e, j) = (self.next_block, self.next_block + 1, self.next_block + 2);
                self.next_block += 3;
                self.stmt(format!("brif {c}, block{t}, block{e}"));
                let _ = writeln!(self.out, "block{t}:\n    jump block{j}({a})\nblock{e}:\n    jump block{j}({b})");
                let v = format!("v{}", self.next);
                self.next += 1;
                let _ = writeln!(self.out, "block{j}({v}: {ty}):");
                (v, ty)
            }
        }
    }

    /// A (from, to) pair the conversion takes.
    fn conversion(&mut self, op: ConvOp) -> (Type, Type) {
        let ints = &INTS;
        loop {
            let (a, b) = match op {
                ConvOp::Uextend | ConvOp::Sextend => (self.pick_ty(ints), self.pick_ty(ints)),
                ConvOp::Ireduce => (self.pick_ty(ints), self.pick_ty(ints)),
                ConvOp::Fpromote | ConvOp::Fdemote => (self.pick_ty(&FLOATS), self.pick_ty(&FLOATS)),
                ConvOp::FcvtToSint | ConvOp::FcvtToUint => return (self.pick_ty(&FLOATS), self.pick_ty(ints)),
                ConvOp::FcvtFromSint | ConvOp::FcvtFromUint => return (self.pick_ty(ints), self.pick_ty(&FLOATS)),
                ConvOp::Bitcast => {
                    let a = self.pick_ty(&DATA);
                    let same: Vec<Type> = DATA.into_iter().filter(|t| t.bits() == a.bits() && *t != a).collect();
                    if same.is_empty() {
                        continue;
                    }
                    return (a, self.pick_ty(&same));
                }
            };
            let widen = matches!(op, ConvOp::Uextend | ConvOp::Sextend | ConvOp::Fpromote);
            if (widen && a.bits() < b.bits()) || (!widen && a.bits() > b.bits()) {
                return (a, b);
            }
        }
    }

    /// `v`, or the canonical NaN where `v` is a NaN: a computed NaN's payload is the target's
    /// (the run line's rule), and widening a NaN keeps or drops its payload by target.
    fn canonical_nan(&mut self, v: &str, ty: Type) -> String {
        let nan = match ty {
            Type::F16 => "0x7e00",
            Type::F32 => "0x7fc00000",
            _ => "0x7ff8000000000000",
        };
        let n = self.def(format!("fconst.{ty} {nan}"));
        let uno = self.def(format!("fcmp uno {v}, {v}"));
        self.def(format!("select {uno}, {n}, {v}"))
    }

    /// Stores result `v` of `ty` into output slot `slot`: integers (and predicates) sign-
    /// extended into `eo` (`v1`), floats promoted to f64 into `ef` (`v2`; a NaN compares as any
    /// NaN), packed floats as their lanes' f32 values into `ef`.
    fn store(&mut self, v: &str, ty: Type, slot: usize) {
        let idx = |k: &mut Self, buf: &str, s: usize| {
            let off = k.def(format!("iconst.i64 {}", s * 8));
            let p = k.def(format!("ptr_add {buf}, {off}"));
            p
        };
        if ty == Type::Pred || ty.is_int() {
            let x = match ty {
                Type::Pred => {
                    let (one, zero) = (self.def("iconst.i64 1"), self.def("iconst.i64 0"));
                    self.def(format!("select {v}, {one}, {zero}"))
                }
                Type::I64 => v.to_string(),
                _ => self.def(format!("sextend.i64 {v}")),
            };
            let p = idx(self, &self.oi.clone(), slot);
            self.stmt(format!("store {x}, {p}"));
        } else if ty.is_packed_float() {
            let w = self.def(format!("bitcast.i32 {v}"));
            for lane in 0..2 {
                let sh = self.def(format!("iconst.i32 {}", 16 * lane));
                let bits = self.def(format!("ushr {w}, {sh}"));
                let f = if ty == Type::F16x2 {
                    let h = self.def(format!("ireduce.i16 {bits}"));
                    let h = self.def(format!("bitcast.f16 {h}"));
                    let h = self.canonical_nan(&h, Type::F16);
                    self.def(format!("fpromote.f64 {h}"))
                } else {
                    // A bfloat16 lane is the high half of the f32 of the same value.
                    let s16 = self.def("iconst.i32 16");
                    let hi = self.def(format!("ishl {bits}, {s16}"));
                    let f = self.def(format!("bitcast.f32 {hi}"));
                    let f = self.canonical_nan(&f, Type::F32);
                    self.def(format!("fpromote.f64 {f}"))
                };
                let p = idx(self, &self.of.clone(), slot * 2 + lane);
                self.stmt(format!("store {f}, {p}"));
            }
        } else {
            let v = self.canonical_nan(v, ty);
            let x = if ty == Type::F64 { v } else { self.def(format!("fpromote.f64 {v}")) };
            let p = idx(self, &self.of.clone(), slot * 2);
            self.stmt(format!("store {x}, {p}"));
        }
    }
}

/// The edge-value kernel of `seed`.
pub fn generate(seed: u64) -> Program {
    let mut rng = Rng::new(seed ^ 0xed6e_0000);
    let threads = *rng.pick(&[1u32, 8, 32, 33, 64]);
    let surface = (seed / EDGE_EVERY).is_multiple_of(3);
    let mut k = K { rng: &mut rng, out: String::new(), next: 3, next_block: 1, pool: Vec::new(), tid: String::new(), inp: String::new(), oi: String::new(), of: String::new() };
    // v0: inputs, v1: integer results, v2: float results (each per thread from the base).
    k.tid = k.def("thread_id.x");
    let t64 = k.def(format!("uextend.i64 {}", k.tid));
    let bases = [(INPUTS * 8, "v0"), (STEPS * 8, "v1"), (STEPS * 16, "v2")].map(|(stride, buf)| {
        let s = k.def(format!("iconst.i64 {stride}"));
        let off = k.def(format!("imul {t64}, {s}"));
        k.def(format!("ptr_add {buf}, {off}"))
    });
    let [inp, oi, of] = bases;
    (k.inp, k.oi, k.of) = (inp, oi, of);
    for i in 0..INPUTS {
        let ty = k.pick_ty(&DATA);
        let x = k.def(format!("load.{ty} {}+{}", k.inp, i * 8));
        k.pool.push((ty, x));
    }
    let all = steps();
    let start = (seed / EDGE_EVERY) as usize * (STEPS / 2);
    let mut results = Vec::new();
    for j in 0..STEPS {
        let step = if j < STEPS / 2 { all[(start + j) % all.len()] } else { *k.rng.pick(&all) };
        let (v, ty) = k.step(step);
        k.pool.push((ty, v.clone()));
        results.push((v, ty));
    }
    if surface {
        let x = k.operand(Type::I32);
        let old = k.def(format!("surface_rmw.i32 add 1d coord ign relaxed gpu slot 0 [{}], {x}", k.tid));
        let y = k.operand(Type::I32);
        let old2 = k.def(format!("surface_cas.i32 1d coord ign relaxed gpu slot 0 [{}], {old}, {y}", k.tid));
        results[STEPS - 2] = (old, Type::I32);
        results[STEPS - 1] = (old2, Type::I32);
    }
    k.stmt("barrier");
    for (slot, (v, ty)) in results.iter().enumerate() {
        k.store(v, *ty, slot);
    }
    k.stmt("return");
    let mut text = format!("function %edge{seed}(ptr.global, ptr.global, ptr.global) {{\n    sm0 = shared {}, align 8\n", threads * 8);
    text += "block0(v0: ptr.global, v1: ptr.global, v2: ptr.global):\n";
    text += &k.out;
    text += "}\n";

    let mut inputs = Vec::new();
    for _ in 0..threads as usize * INPUTS {
        let ty = *rng.pick(&DATA);
        let bits = *rng.pick(&edges::of(ty));
        // Integers sign-extended, so every narrower view of the word is an edge too.
        let w = ty.bits();
        let word = if ty.is_int() { (((bits << (64 - w)) as i64) >> (64 - w)) as u64 } else { bits };
        inputs.push(format!("{word:#x}"));
    }
    let n = threads as usize;
    let mut launch = format!(
        "block {threads} shared {} args(ei, eo, ef) ei: i64[{}] = [{}] eo: i64[{}] ef: f64[{}]",
        threads * 8,
        n * INPUTS,
        inputs.join(", "),
        n * STEPS,
        n * STEPS * 2
    );
    if surface {
        let _ = write!(launch, " s: surface i32[{threads}] slot 0 = 0");
    }
    let b = |name, elem, len| Buffer { name, elem, len, compare: Compare::Exact };
    Program {
        seed,
        text,
        launch,
        buffers: vec![b("ei", "i64", n * INPUTS), b("eo", "i64", n * STEPS), b("ef", "f64", n * STEPS * 2)],
    }
}
