//! The bit ops, `fma`, multiply-high and the subgroup instructions in PTX. For sm_90 the
//! subgroup instructions on 32- and 64-bit values (and `pred` votes), `bitrev` and the i32
//! bit fields are written (so that ptxas's code for them can check the emulator); the rest is
//! refused naming the instruction (never an internal error).
//!
//! Every `.sync` instruction names the lanes that are active where it runs (`activemask`), the
//! IR's active lanes. `shfl.sync` from an inactive lane gives an undefined value, so a shuffle
//! also tests the source lane's bit of that mask and keeps its own value where it is clear, as
//! the IR says (the same test atomc's SASS makes: `sass/isel/sm90/shuffle.rs`).

use super::regs::{class_of, Class};
use crate::subgroup_sync::SyncPlan;
use super::{Emitter, PtxError};
use atomc_ir::{BinaryOp, Inst, InstData, ReduceOp, ShuffleMode, TernaryOp, Type, UnaryOp, Value, VoteOp};

/// Whether `data` is one of the instructions this file answers for.
pub(super) fn owns(data: &InstData) -> bool {
    match data {
        InstData::Unary { op, .. } => matches!(op, UnaryOp::Popcnt | UnaryOp::Clz | UnaryOp::Ctz | UnaryOp::Bitrev),
        InstData::Binary { op, .. } => matches!(op, BinaryOp::Umulhi | BinaryOp::Smulhi),
        InstData::Ternary { .. } | InstData::Bfi { .. } => true,
        other => other.is_subgroup(),
    }
}

pub(super) fn inst(e: &mut Emitter<'_>, inst: Inst, data: &InstData, result: Option<Value>) -> Result<(), PtxError> {
    let refuse =
        |e: &Emitter<'_>| Err(e.unsupported(data.opcode_name(), "atomc's PTX emitter has no lowering for it yet"));
    let (Some(res), true) = (result, e.sm >= 90) else { return refuse(e) };
    if data.is_subgroup() {
        // `activemask` names the lanes that happen to be together; after a loop the IR's lanes
        // meet first, which atomc's SASS arranges (`subgroup_sync`) and this emitter does not.
        let plan = SyncPlan::of(e.func);
        if plan.mask_from.contains_key(&inst) || plan.unplaceable.contains(&inst) {
            let why = "atomc's PTX emitter does not bring lanes that left a loop apart together before it";
            return Err(e.unsupported(data.opcode_name(), why));
        }
    }
    let d = e.reg(res);
    // The value operand's register class decides (32- or 64-bit bits, or a pred).
    let class = |e: &Emitter<'_>, v: Value| class_of(e.ty(v));
    let bits = |c: Class| if matches!(c, Class::B64 | Class::F64) { "b64" } else { "b32" };
    let wide_or_word = |c: Class| matches!(c, Class::B32 | Class::F32 | Class::B64 | Class::F64);
    match *data {
        InstData::Unary { op: UnaryOp::Bitrev, arg } if matches!(e.ty(arg), Type::I32 | Type::I64) => {
            let a = e.reg(arg);
            e.line(format!("brev.{} {d}, {a}", bits(class(e, arg))));
        }
        InstData::Ternary { op: op @ (TernaryOp::Ubfe | TernaryOp::Sbfe), args } if e.ty(args[0]) == Type::I32 => {
            let [x, p, l] = args.map(|v| e.reg(v));
            let t = if op == TernaryOp::Ubfe { "u32" } else { "s32" };
            e.line(format!("bfe.{t} {d}, {x}, {p}, {l}"));
        }
        InstData::Bfi { args } if e.ty(args[0]) == Type::I32 => {
            let [x, b, p, l] = args.map(|v| e.reg(v));
            e.line(format!("bfi.b32 {d}, {x}, {b}, {p}, {l}"));
        }
        InstData::ActiveMask => e.line(format!("activemask.b32 {d}")),
        InstData::Ballot { cond } => {
            let (c, m) = (e.reg(cond), active(e));
            e.line(format!("vote.sync.ballot.b32 {d}, {c}, {m}"));
        }
        InstData::Vote { op, arg } if e.ty(arg) == Type::Pred => {
            let (c, m) = (e.reg(arg), active(e));
            let mode = match op {
                VoteOp::Any => "any",
                VoteOp::All => "all",
                VoteOp::Eq => "uni",
            };
            e.line(format!("vote.sync.{mode}.pred {d}, {c}, {m}"));
        }
        InstData::Vote { op: VoteOp::Eq, arg } if wide_or_word(class(e, arg)) => {
            let (x, m) = (e.reg(arg), active(e));
            let t = e.regs.temp_class(Class::B32);
            e.line(format!("match.all.sync.{} {t}|{d}, {x}, {m}", bits(class(e, arg))));
        }
        InstData::MatchAny { arg } if wide_or_word(class(e, arg)) => {
            let (x, m) = (e.reg(arg), active(e));
            e.line(format!("match.any.sync.{} {d}, {x}, {m}", bits(class(e, arg))));
        }
        InstData::Reduce { op, arg } if e.ty(arg) == Type::I32 => {
            let (x, m) = (e.reg(arg), active(e));
            let op = match op {
                ReduceOp::Add => "add.u32",
                ReduceOp::Umin => "min.u32",
                ReduceOp::Umax => "max.u32",
                ReduceOp::Smin => "min.s32",
                ReduceOp::Smax => "max.s32",
                ReduceOp::And => "and.b32",
                ReduceOp::Or => "or.b32",
                ReduceOp::Xor => "xor.b32",
            };
            e.line(format!("redux.sync.{op} {d}, {x}, {m}"));
        }
        InstData::Shuffle { mode, args } if wide_or_word(class(e, args[0])) => shuffle(e, &d, mode, args[0], args[1]),
        _ => return refuse(e),
    }
    Ok(())
}

/// The active lanes, for a `.sync` instruction's member mask.
fn active(e: &mut Emitter<'_>) -> String {
    let m = e.regs.temp_class(Class::B32);
    e.line(format!("activemask.b32 {m}"));
    m
}

/// `shfl.sync` of each 32-bit half, kept only where source lane `j`'s bit of the active mask
/// is set (`shr` clamps, so none for `j >= 32`); `up`/`down` amounts past the warp are clamped
/// to 32 first (`shfl.sync` reads only the low 5 bits of its lane operand).
fn shuffle(e: &mut Emitter<'_>, d: &str, mode: ShuffleMode, x: Value, y: Value) {
    let class = class_of(e.ty(x));
    let (xr, yr) = (e.reg(x), e.reg(y));
    let m = active(e);
    let t = |e: &mut Emitter<'_>| e.regs.temp_class(Class::B32);
    let (lane, j, b) = (t(e), t(e), t(e));
    e.line(format!("mov.u32 {lane}, %laneid"));
    let (name, clamp) = match mode {
        ShuffleMode::Idx => {
            e.line(format!("and.b32 {j}, {yr}, 31"));
            e.line(format!("mov.b32 {b}, {yr}"));
            ("idx", 31)
        }
        ShuffleMode::Xor => {
            e.line(format!("xor.b32 {j}, {lane}, {yr}"));
            e.line(format!("and.b32 {j}, {j}, 31"));
            e.line(format!("mov.b32 {b}, {yr}"));
            ("bfly", 31)
        }
        ShuffleMode::Up | ShuffleMode::Down => {
            e.line(format!("min.u32 {b}, {yr}, 32"));
            let op = if mode == ShuffleMode::Up { "sub" } else { "add" };
            e.line(format!("{op}.s32 {j}, {lane}, {b}"));
            if mode == ShuffleMode::Up {
                ("up", 0)
            } else {
                ("down", 31)
            }
        }
    };
    let (bit, ok) = (t(e), e.regs.temp_class(Class::Pred));
    e.line(format!("shr.b32 {bit}, {m}, {j}"));
    e.line(format!("and.b32 {bit}, {bit}, 1"));
    e.line(format!("setp.ne.b32 {ok}, {bit}, 0"));
    if matches!(class, Class::B64 | Class::F64) {
        let (lo, hi, slo, shi) = (t(e), t(e), t(e), t(e));
        let s = e.regs.temp_class(Class::B64);
        e.line(format!("mov.b64 {{{lo}, {hi}}}, {xr}"));
        e.line(format!("shfl.sync.{name}.b32 {slo}, {lo}, {b}, {clamp}, {m}"));
        e.line(format!("shfl.sync.{name}.b32 {shi}, {hi}, {b}, {clamp}, {m}"));
        e.line(format!("mov.b64 {s}, {{{slo}, {shi}}}"));
        let ty = if class == Class::F64 { "f64" } else { "b64" };
        e.line(format!("selp.{ty} {d}, {s}, {xr}, {ok}"));
    } else {
        let s = e.regs.temp_class(class);
        e.line(format!("shfl.sync.{name}.b32 {s}, {xr}, {b}, {clamp}, {m}"));
        let ty = if class == Class::F32 { "f32" } else { "b32" };
        e.line(format!("selp.{ty} {d}, {s}, {xr}, {ok}"));
    }
}
