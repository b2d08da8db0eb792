//! Capabilities of the non-atomic instructions that not every target selects: the bit ops
//! (`popcnt`, `clz`, `ctz`, `bitrev`, `ubfe`, `sbfe`, `bfi`), `fma`, `umulhi`/`smulhi`, integer
//! and float division and the subgroup instructions. Like [`crate::caps`], one table per target, first matching row
//! wins, every row with its evidence; the legalizer's check refuses what a table does not mark
//! native, naming the op, the type, the target and the location, before selection.

pub(crate) mod sm50;
pub(crate) mod sm90;
pub(crate) mod visa;

use atomc_ir::{BinaryOp, Function, InstData, ReduceOp, ShuffleMode, TernaryOp, Type, UnaryOp, VoteOp};

/// An instruction kind a row talks about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpKind {
    Unary(UnaryOp),
    Binary(BinaryOp),
    Ternary(TernaryOp),
    Bfi,
    ActiveMask,
    Ballot,
    Vote(VoteOp),
    Shuffle(ShuffleMode),
    MatchAny,
    Reduce(ReduceOp),
}

impl OpKind {
    /// The IR spelling, for diagnostics.
    pub fn describe(self) -> String {
        match self {
            OpKind::Unary(op) => op.name().into(),
            OpKind::Binary(op) => op.name().into(),
            OpKind::Ternary(op) => op.name().into(),
            OpKind::Bfi => "bfi".into(),
            OpKind::ActiveMask => "active_mask".into(),
            OpKind::Ballot => "ballot".into(),
            OpKind::Vote(op) => op.name().into(),
            OpKind::Shuffle(mode) => format!("shuffle {mode}"),
            OpKind::MatchAny => "match_any".into(),
            OpKind::Reduce(op) => format!("reduce {op}"),
        }
    }
}

/// What the backend does with an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpLowering {
    /// The selector has a sequence for it.
    Native,
    /// The selector has a sequence for it that needs the lanes that reach it together: after a
    /// loop it waits for them with a mask taken where they were together before
    /// ([`crate::subgroup_sync`]). Where no such place exists the compile fails with this reason.
    NativeWhereConverged(&'static str),
    /// [`crate::legalize::widen_bits`] rewrites it into the op on 32-bit values (the operand
    /// zero-extended, or the two halves of a 64-bit one) and a fix-up, which must be native.
    FromI32,
    /// The compile fails with this reason.
    Unsupported(&'static str),
}

/// One row: kinds and operand types (empty: any), the decision and its evidence.
#[derive(Clone, Copy, Debug)]
pub struct OpRule {
    pub kinds: &'static [OpKind],
    pub types: &'static [Type],
    pub lowering: OpLowering,
    pub evidence: &'static str,
}

/// The decision for `kind` on `ty` (the operand type that decides: the value operand of
/// subgroup instructions, the first operand otherwise).
pub fn lookup(rules: &[OpRule], kind: OpKind, ty: Type) -> OpLowering {
    rules
        .iter()
        .find(|r| (r.kinds.is_empty() || r.kinds.contains(&kind)) && (r.types.is_empty() || r.types.contains(&ty)))
        .map_or(OpLowering::Unsupported("no capability row covers it"), |r| r.lowering)
}

/// The table key of an instruction this module governs, or `None` for every other one.
pub fn op_key(func: &Function, data: &InstData) -> Option<(OpKind, Type)> {
    let ty = |v| func.value_type(v);
    Some(match *data {
        InstData::Unary { op: op @ (UnaryOp::Popcnt | UnaryOp::Clz | UnaryOp::Ctz | UnaryOp::Bitrev), arg } => {
            (OpKind::Unary(op), ty(arg))
        }
        InstData::Binary { op: op @ (BinaryOp::Umulhi | BinaryOp::Smulhi), args } => (OpKind::Binary(op), ty(args[0])),
        InstData::Binary { op: op @ (BinaryOp::Udiv | BinaryOp::Sdiv | BinaryOp::Urem | BinaryOp::Srem | BinaryOp::Fdiv), args } => {
            (OpKind::Binary(op), ty(args[0]))
        }
        InstData::Ternary { op, args } => (OpKind::Ternary(op), ty(args[0])),
        InstData::Bfi { args } => (OpKind::Bfi, ty(args[0])),
        InstData::ActiveMask => (OpKind::ActiveMask, Type::I32),
        InstData::Ballot { cond } => (OpKind::Ballot, ty(cond)),
        InstData::Vote { op, arg } => (OpKind::Vote(op), ty(arg)),
        InstData::Shuffle { mode, args } => (OpKind::Shuffle(mode), ty(args[0])),
        InstData::MatchAny { arg } => (OpKind::MatchAny, ty(arg)),
        InstData::Reduce { op, arg } => (OpKind::Reduce(op), ty(arg)),
        _ => return None,
    })
}

/// Shorthands for the tables.
pub(crate) mod k {
    use super::OpKind::{self, *};
    use atomc_ir::{BinaryOp, ReduceOp, ShuffleMode, TernaryOp, UnaryOp, VoteOp};

    pub const BIT_COUNTS: &[OpKind] =
        &[Unary(UnaryOp::Popcnt), Unary(UnaryOp::Clz), Unary(UnaryOp::Ctz), Unary(UnaryOp::Bitrev)];
    pub const MULHI: &[OpKind] = &[Binary(BinaryOp::Umulhi), Binary(BinaryOp::Smulhi)];
    pub const FMA: &[OpKind] = &[Ternary(TernaryOp::Fma)];
    pub const DIVIDE: &[OpKind] =
        &[Binary(BinaryOp::Udiv), Binary(BinaryOp::Sdiv), Binary(BinaryOp::Urem), Binary(BinaryOp::Srem)];
    pub const FDIV: &[OpKind] = &[Binary(BinaryOp::Fdiv)];
    pub const BITFIELD: &[OpKind] = &[Ternary(TernaryOp::Ubfe), Ternary(TernaryOp::Sbfe), Bfi];
    pub const SUBGROUP: &[OpKind] = &[
        ActiveMask,
        Ballot,
        Vote(VoteOp::Any),
        Vote(VoteOp::All),
        Vote(VoteOp::Eq),
        Shuffle(ShuffleMode::Idx),
        Shuffle(ShuffleMode::Up),
        Shuffle(ShuffleMode::Down),
        Shuffle(ShuffleMode::Xor),
        MatchAny,
        Reduce(ReduceOp::Add),
        Reduce(ReduceOp::Umin),
        Reduce(ReduceOp::Umax),
        Reduce(ReduceOp::Smin),
        Reduce(ReduceOp::Smax),
        Reduce(ReduceOp::And),
        Reduce(ReduceOp::Or),
        Reduce(ReduceOp::Xor),
    ];
}
