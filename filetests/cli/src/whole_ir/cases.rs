//! Every non-atomic instruction of the IR × every type the verifier accepts for it × operand
//! shapes (registers, and each edge constant of the type on either side), one kernel each.
//! The opcodes come from the IR's keyword enums (a new op of an enum is covered without
//! further work); a kernel the verifier rejects is a type the op does not take and is dropped.

use super::edges;
use super::kernel::{build, Arg, Frame, Kb};
use atomc::ir::{self, BinaryOp, ConvOp, FloatCC, IntCC, ReduceOp, ShuffleMode, SpecialReg, TernaryOp, Type, UnaryOp, VoteOp};

/// One kernel of the whole-IR matrix.
pub struct OpCase {
    /// The row: the opcode (with its condition or mode) ...
    pub op: String,
    /// ... and the type (`from→to` for conversions).
    pub ty: String,
    /// The operand shape: `reg`, `rhs C`, `lhs C`, ...
    pub shape: String,
    pub func: ir::Function,
    /// The run line without checks; `None` where the IR gives the inputs no meaning (a
    /// constant zero divisor).
    pub launch: Option<String>,
}

/// The data types: integers, floats, packed floats.
const DATA: [Type; 9] =
    [Type::I8, Type::I16, Type::I32, Type::I64, Type::F16, Type::F32, Type::F64, Type::F16x2, Type::BF16x2];

/// Threads of the subgroup kernels: two warps.
const SUBGROUP_THREADS: usize = 64;

struct Cases(Vec<OpCase>);

impl Cases {
    fn push(&mut self, op: &str, ty: &str, shape: &str, args: &[Arg], frame: &Frame, body: impl FnOnce(&mut Kb, &[String]) -> (String, Type)) {
        let runs = !args.iter().any(|a| matches!(a, Arg::In(_, v) if v.is_empty()));
        let built = build(args, frame, body);
        let Ok(mut funcs) = ir::parse::parse(&built.text) else { return };
        let func = funcs.remove(0);
        if ir::verify::verify(&func).is_err() {
            return;
        }
        let launch = runs.then_some(built.launch);
        self.0.push(OpCase { op: op.into(), ty: ty.into(), shape: shape.into(), func, launch });
    }
}

/// Every case; `quick` keeps the register shapes and a few constants per row (the bounded
/// test), else every edge constant on each side.
pub fn all(quick: bool) -> Vec<OpCase> {
    let mut c = Cases(Vec::new());
    constants(&mut c, quick);
    unary(&mut c, quick);
    binary(&mut c, quick);
    compares(&mut c, quick);
    ternary(&mut c, quick);
    select(&mut c, quick);
    conversions(&mut c, quick);
    memory(&mut c);
    special(&mut c);
    subgroup(&mut c, quick);
    c.0
}

/// The constants a row tries: every edge, or (quick) the ones that most often need a wide
/// immediate or a special case.
fn consts(ty: Type, quick: bool) -> Vec<u64> {
    let e = edges::of(ty);
    if !quick || e.len() <= 4 {
        return e;
    }
    // The first edge (0), MAX, MIN and the last (a value beyond 20 or 32 bits, or a float edge).
    vec![e[0], e[5], e[6], e[e.len() - 1]]
}

fn hex(bits: u64) -> String {
    format!("{bits:#x}")
}

/// All pairs of `e`, as two input columns.
fn pairs(e: &[u64], keep: impl Fn(u64, u64) -> bool) -> (Vec<u64>, Vec<u64>) {
    e.iter().flat_map(|&a| e.iter().map(move |&b| (a, b))).filter(|&(a, b)| keep(a, b)).unzip()
}

fn constants(c: &mut Cases, quick: bool) {
    for ty in DATA.into_iter().filter(|t| !t.is_packed_float()) {
        let op = if ty.is_int() { "iconst" } else { "fconst" };
        for k in consts(ty, quick) {
            c.push(op, &ty.to_string(), &hex(k), &[Arg::Const(ty, k)], &Frame { threads: 1, ..Frame::default() }, |_, v| (v[0].clone(), ty));
        }
    }
}

fn unary(c: &mut Cases, quick: bool) {
    for &op in UnaryOp::ALL {
        for ty in DATA {
            let name = op.name();
            let e = edges::of(ty);
            let f = Frame::default();
            c.push(name, &ty.to_string(), "reg", &[Arg::In(ty, e)], &f, |k, v| (k.def(format!("{name} {}", v[0])), ty));
            if ty.is_packed_float() {
                continue;
            }
            for k in consts(ty, quick) {
                let f = Frame { threads: 1, ..Frame::default() };
                c.push(name, &ty.to_string(), &format!("const {}", hex(k)), &[Arg::Const(ty, k)], &f, |kb, v| {
                    (kb.def(format!("{name} {}", v[0])), ty)
                });
            }
        }
    }
}

/// Whether the IR gives `op` no meaning for a zero right operand (the interpreter reports it).
fn traps_on_zero(op: BinaryOp) -> bool {
    matches!(op, BinaryOp::Udiv | BinaryOp::Sdiv | BinaryOp::Urem | BinaryOp::Srem)
}

/// A two-operand row: its name, operand and result types, and how the instruction is written.
struct TwoOps<'a> {
    op: &'a str,
    ty: Type,
    result: Type,
    text: &'a dyn Fn(&str, &str) -> String,
    /// A zero right operand has no meaning (not run).
    zero_bad: bool,
    /// The result feeds a `brif` (no register shape: the select form has it).
    branch: bool,
}

/// A two-operand row: registers on both sides, then each constant on the right and on the left.
fn two_operands(c: &mut Cases, quick: bool, row: TwoOps) {
    let TwoOps { op, ty, result, text, zero_bad, branch } = row;
    let e = edges::of(ty);
    let ok_rhs = |b: u64| !zero_bad || b != 0;
    let (a, b) = pairs(&e, |_, b| ok_rhs(b));
    let f = Frame { branch, ..Frame::default() };
    if !branch {
        c.push(op, &ty.to_string(), "reg", &[Arg::In(ty, a.clone()), Arg::In(ty, b.clone())], &f, |k, v| (k.def(text(&v[0], &v[1])), result));
        // The left operand computed (`bxor` with all ones, the complement of the input), so its
        // register may hold bits above the type that a load would not leave there.
        if ty.is_int() {
            let not_a: Vec<u64> = a.iter().map(|x| !x & edges::mask(ty.bits())).collect();
            c.push(op, &ty.to_string(), "reg, lhs computed", &[Arg::In(ty, not_a), Arg::In(ty, b)], &f, |k, v| {
                let ones = k.constant(ty, edges::mask(ty.bits()));
                let x = k.def(format!("bxor {}, {ones}", v[0]));
                (k.def(text(&x, &v[1])), result)
            });
        }
    }
    if ty.is_packed_float() {
        return;
    }
    for k in consts(ty, quick) {
        let lhs: Vec<u64> = e.iter().copied().filter(|&b| ok_rhs(b)).collect();
        // A zero divisor constant: compiled, not run.
        let rhs_in = if ok_rhs(k) { e.clone() } else { Vec::new() };
        c.push(op, &ty.to_string(), &format!("rhs {}", hex(k)), &[Arg::In(ty, rhs_in), Arg::Const(ty, k)], &f, |kb, v| {
            (kb.def(text(&v[0], &v[1])), result)
        });
        c.push(op, &ty.to_string(), &format!("lhs {}", hex(k)), &[Arg::Const(ty, k), Arg::In(ty, lhs)], &f, |kb, v| {
            (kb.def(text(&v[0], &v[1])), result)
        });
    }
}

fn binary(c: &mut Cases, quick: bool) {
    for &op in BinaryOp::ALL {
        let name = op.name();
        for ty in DATA {
            let text = |a: &str, b: &str| format!("{name} {a}, {b}");
            two_operands(c, quick, TwoOps { op: name, ty, result: ty, text: &text, zero_bad: traps_on_zero(op), branch: false });
        }
    }
}

fn compares(c: &mut Cases, quick: bool) {
    for &cc in IntCC::ALL {
        for ty in DATA.into_iter().filter(|t| t.is_int()) {
            let text = |a: &str, b: &str| format!("icmp {cc} {a}, {b}");
            let row = format!("icmp {cc}");
            two_operands(c, quick, TwoOps { op: &row, ty, result: Type::Pred, text: &text, zero_bad: false, branch: false });
            // A compare that only feeds a branch (the form that selects a predicate-setting
            // compare with an immediate).
            let row = format!("icmp {cc} (brif)");
            two_operands(c, quick, TwoOps { op: &row, ty, result: Type::Pred, text: &text, zero_bad: false, branch: true });
        }
    }
    for &cc in FloatCC::ALL {
        for ty in DATA.into_iter().filter(|t| !t.is_int()) {
            let text = |a: &str, b: &str| format!("fcmp {cc} {a}, {b}");
            let row = format!("fcmp {cc}");
            two_operands(c, quick, TwoOps { op: &row, ty, result: Type::Pred, text: &text, zero_bad: false, branch: false });
        }
    }
}

/// Bit-field (position, length) operands: inside, at and beyond the type's width, and beyond
/// the low 8 bits the IR reads.
fn fields(w: u64) -> Vec<(u64, u64)> {
    vec![(0, 0), (0, 1), (0, 8), (1, 7), (3, 5), (8, 8), (0, w), (1, w), (w - 1, 1), (w - 1, 2), (w, 1), (w + 1, 3), (31, 1), (32, 1), (255, 1), (0x104, 3), (5, 0x103)]
}

fn ternary(c: &mut Cases, quick: bool) {
    for &op in TernaryOp::ALL {
        let name = op.name();
        for ty in DATA {
            let e = edges::of(ty);
            let n = e.len();
            if op.is_float() {
                // Triples: every pair, with a third operand that moves along.
                let (a, b) = pairs(&e, |_, _| true);
                let third: Vec<u64> = (0..a.len()).map(|i| e[(i * 7 + 3) % n]).collect();
                let f = Frame::default();
                c.push(name, &ty.to_string(), "reg", &[Arg::In(ty, a.clone()), Arg::In(ty, b.clone()), Arg::In(ty, third)], &f, |k, v| {
                    (k.def(format!("{name} {}, {}, {}", v[0], v[1], v[2])), ty)
                });
                if ty.is_packed_float() {
                    continue;
                }
                for pos in 0..3 {
                    for k in consts(ty, quick) {
                        let mut args = vec![Arg::In(ty, a.clone()), Arg::In(ty, b.clone())];
                        args.insert(pos, Arg::Const(ty, k));
                        c.push(name, &ty.to_string(), &format!("const {} at {pos}", hex(k)), &args, &f, |kb, v| {
                            (kb.def(format!("{name} {}, {}, {}", v[0], v[1], v[2])), ty)
                        });
                    }
                }
            } else {
                bit_fields(c, name, ty, &e, |kb, v| (kb.def(format!("{name} {}, {}, {}", v[0], v[1], v[2])), ty), 1);
            }
        }
    }
    for ty in DATA.into_iter().filter(|t| t.is_int()) {
        let e = edges::of(ty);
        bit_fields(c, "bfi", ty, &e, |kb, v| (kb.def(format!("bfi {}, {}, {}, {}", v[0], v[1], v[2], v[3])), ty), 2);
    }
}

/// A bit-field row: `values` leading operands of `ty` from the edges, then position and
/// length, as registers (every field with every value) and as constants (each field).
fn bit_fields(c: &mut Cases, name: &str, ty: Type, e: &[u64], body: impl Fn(&mut Kb, &[String]) -> (String, Type), values: usize) {
    let fs = fields(ty.bits() as u64);
    let n = e.len();
    let mut cols: Vec<Vec<u64>> = vec![Vec::new(); values + 2];
    for (i, &x) in e.iter().enumerate() {
        for &(p, l) in &fs {
            cols[0].push(x);
            if values == 2 {
                cols[1].push(e[(i + 3) % n]);
            }
            cols[values].push(p);
            cols[values + 1].push(l);
        }
    }
    let mut args: Vec<Arg> = (0..values).map(|i| Arg::In(ty, cols[i].clone())).collect();
    args.push(Arg::In(Type::I32, cols[values].clone()));
    args.push(Arg::In(Type::I32, cols[values + 1].clone()));
    c.push(name, &ty.to_string(), "reg", &args, &Frame::default(), &body);
    for (p, l) in fs {
        let mut args: Vec<Arg> = (0..values).map(|i| Arg::In(ty, if i == 0 { e.to_vec() } else { rotate(e, 3) })).collect();
        args.push(Arg::Const(Type::I32, p));
        args.push(Arg::Const(Type::I32, l));
        c.push(name, &ty.to_string(), &format!("field {p},{l}"), &args, &Frame::default(), &body);
    }
}

fn rotate(e: &[u64], k: usize) -> Vec<u64> {
    (0..e.len()).map(|i| e[(i + k) % e.len()]).collect()
}

fn select(c: &mut Cases, quick: bool) {
    for ty in DATA {
        let e = edges::of(ty);
        let conds: Vec<u64> = (0..e.len() as u64).map(|i| i % 2).collect();
        let body = |k: &mut Kb, v: &[String]| (k.def(format!("select {}, {}, {}", v[0], v[1], v[2])), ty);
        let f = Frame::default();
        c.push("select", &ty.to_string(), "reg", &[Arg::In(Type::Pred, conds.clone()), Arg::In(ty, e.clone()), Arg::In(ty, rotate(&e, 1))], &f, body);
        if ty.is_packed_float() {
            continue;
        }
        for k in consts(ty, quick) {
            let args = [Arg::In(Type::Pred, conds.clone()), Arg::Const(ty, k), Arg::In(ty, e.clone())];
            c.push("select", &ty.to_string(), &format!("a {}", hex(k)), &args, &f, body);
            let args = [Arg::In(Type::Pred, conds.clone()), Arg::In(ty, e.clone()), Arg::Const(ty, k)];
            c.push("select", &ty.to_string(), &format!("b {}", hex(k)), &args, &f, body);
        }
    }
}

fn conversions(c: &mut Cases, quick: bool) {
    for &op in ConvOp::ALL {
        for from in DATA {
            for to in DATA {
                let name = op.name();
                let row = format!("{from}→{to}");
                let body = |k: &mut Kb, v: &[String]| (k.def(format!("{name}.{to} {}", v[0])), to);
                c.push(name, &row, "reg", &[Arg::In(from, edges::of(from))], &Frame::default(), body);
                if from.is_packed_float() {
                    continue;
                }
                for k in consts(from, quick) {
                    let f = Frame { threads: 1, ..Frame::default() };
                    c.push(name, &row, &format!("const {}", hex(k)), &[Arg::Const(from, k)], &f, body);
                }
            }
        }
    }
}

/// Loads and stores of every data type in every space (shared memory through a shared
/// variable, generic pointers from global and shared ones), and `ptr_add` scales.
fn memory(c: &mut Cases) {
    for ty in DATA {
        let e = edges::of(ty);
        let n = e.len() as u32;
        let ts = ty.to_string();
        let f = Frame::default();
        c.push("load", &ts, "global", &[Arg::In(ty, e.clone())], &f, |_, v| (v[0].clone(), ty));
        let padded = Frame { pad: 1, ..Frame::default() };
        c.push("load", &ts, "global +offset", &[Arg::In(ty, e.clone())], &padded, |k, _| {
            // The next element, through a constant address offset.
            (k.def(format!("load.{ty} {}+{}", k.ptrs[0], ty.bytes())), ty)
        });
        let shared = Frame { shared: Some(n * ty.bytes()), ..Frame::default() };
        let through_shared = |generic: bool| {
            move |k: &mut Kb, v: &[String]| {
                let base = k.def("shared_addr sm0");
                let size = k.def(format!("iconst.i32 {}", ty.bytes()));
                let off = k.def(format!("imul {}, {size}", k.tid));
                let mut p = k.def(format!("ptr_add {base}, {off}"));
                if generic {
                    p = k.def(format!("ptr_to_generic {p}"));
                }
                k.stmt(format!("store {}, {p}", v[0]));
                k.stmt("barrier");
                (k.def(format!("load.{ty} {p}")), ty)
            }
        };
        c.push("load", &ts, "shared", &[Arg::In(ty, e.clone())], &shared, through_shared(false));
        c.push("ptr_to_generic", &ts, "shared", &[Arg::In(ty, e.clone())], &shared, through_shared(true));
        c.push("ptr_to_generic", &ts, "global", &[Arg::In(ty, e.clone())], &f, |k, _| {
            let g = k.def(format!("ptr_to_generic {}", k.ptrs[0]));
            (k.def(format!("load.{ty} {g}")), ty)
        });
    }
    // Element sizes that are and are not powers of two (arrays of 12-byte structs).
    for stride in [4u32, 8, 12, 16, 20, 24, 36, 48, 100] {
        let f = Frame { out_stride: Some(stride), ..Frame::default() };
        c.push("ptr_add", "i32", &format!("scale {stride}"), &[Arg::In(Type::I32, edges::int(Type::I32))], &f, |_, v| (v[0].clone(), Type::I32));
    }
    for stride in [1u32, 2, 3, 5, 7] {
        let f = Frame { out_stride: Some(stride), ..Frame::default() };
        c.push("ptr_add", "i8", &format!("scale {stride}"), &[Arg::In(Type::I8, edges::int(Type::I8))], &f, |_, v| (v[0].clone(), Type::I8));
    }
}

fn special(c: &mut Cases) {
    let dims = Some(([2, 3, 2], [4, 2, 2]));
    for &reg in SpecialReg::ALL {
        let f = Frame { dims, ..Frame::default() };
        c.push(reg.name(), "i32", "grid 2x3x2 block 4x2x2", &[], &f, |k, _| (k.def(reg.name()), Type::I32));
    }
}

/// Subgroup instructions over two warps: the first with mixed values, the second with one.
fn subgroup(c: &mut Cases, quick: bool) {
    let t = SUBGROUP_THREADS;
    let conds: Vec<u64> = (0..t).map(|i| u64::from(i >= 32 || i % 3 == 0)).collect();
    let f = Frame { threads: t, ..Frame::default() };
    c.push("active_mask", "i32", "converged", &[], &f, |k, _| (k.def("active_mask"), Type::I32));
    c.push("ballot", "pred", "reg", &[Arg::In(Type::Pred, conds.clone())], &f, |k, v| (k.def(format!("ballot {}", v[0])), Type::I32));
    for &op in VoteOp::ALL {
        let name = op.name();
        if op == VoteOp::Eq {
            for ty in DATA {
                c.push(name, &ty.to_string(), "reg", &[Arg::In(ty, warp_values(ty))], &f, |k, v| (k.def(format!("{name} {}", v[0])), Type::Pred));
            }
        } else {
            c.push(name, "pred", "reg", &[Arg::In(Type::Pred, conds.clone())], &f, |k, v| (k.def(format!("{name} {}", v[0])), Type::Pred));
        }
    }
    let lanes: Vec<u64> = [0u64, 1, 5, 31, 32, 33, 0xffff_ffff, 0x8000_0000, 16].to_vec();
    let lane_col: Vec<u64> = (0..t).map(|i| lanes[i % lanes.len()]).collect();
    for &mode in ShuffleMode::ALL {
        for ty in DATA {
            let body = |k: &mut Kb, v: &[String]| (k.def(format!("shuffle {mode} {}, {}", v[0], v[1])), ty);
            let row = format!("shuffle {mode}");
            c.push(&row, &ty.to_string(), "reg", &[Arg::In(ty, warp_values(ty)), Arg::In(Type::I32, lane_col.clone())], &f, body);
            for &l in lanes.iter().take(if quick { 3 } else { lanes.len() }) {
                c.push(&row, &ty.to_string(), &format!("lane {}", hex(l)), &[Arg::In(ty, warp_values(ty)), Arg::Const(Type::I32, l)], &f, body);
            }
        }
    }
    for ty in DATA {
        c.push("match_any", &ty.to_string(), "reg", &[Arg::In(ty, warp_values(ty))], &f, |k, v| (k.def(format!("match_any {}", v[0])), Type::I32));
    }
    for &op in ReduceOp::ALL {
        for ty in DATA {
            c.push(&format!("reduce {op}"), &ty.to_string(), "reg", &[Arg::In(ty, warp_values(ty))], &f, |k, v| {
                (k.def(format!("reduce {op} {}", v[0])), ty)
            });
        }
    }
}

/// One value per lane of two warps: the edges in turn (with repeats) in the first, the last
/// edge throughout the second.
fn warp_values(ty: Type) -> Vec<u64> {
    let e = edges::of(ty);
    (0..SUBGROUP_THREADS).map(|i| if i < 32 { e[i % e.len()] } else { e[e.len() - 1] }).collect()
}
