//! The opcode table of the text format.
//!
//! Spellings are never written here: the keyword enums (`UnaryOp`,
//! `BinaryOp`, `ConvOp`, `SpecialReg`) and [`InstData::opcode_name`] already
//! own them. This table only says which shape each opcode has, and finds an
//! opcode by building a prototype instruction and asking it for its name.

use crate::atomics::{MemOrder, RmwOp, Scope, SurfaceAccess, SurfaceAddressing, SurfaceClamp, SurfaceDim, SurfaceRef};
use crate::instructions::{
    Address, BinaryOp, BlockCall, ConvOp, FloatCC, InstData, IntCC, ReduceOp, ShuffleMode, SpecialReg, TernaryOp,
    UnaryOp, VoteOp,
};
use crate::{Block, Type, Value};
use smallvec::SmallVec;

/// The shape of an instruction in the text: which operands follow the
/// opcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    Iconst,
    Fconst,
    Unary(UnaryOp),
    Binary(BinaryOp),
    Ternary(TernaryOp),
    Bfi,
    Icmp,
    Fcmp,
    Select,
    Convert(ConvOp),
    PtrAdd,
    PtrToGeneric,
    Special(SpecialReg),
    SharedAddr,
    Load,
    Store,
    AtomicRmw,
    AtomicCas,
    AtomicLoad,
    AtomicStore,
    Fence,
    SurfaceRmw,
    SurfaceCas,
    Barrier,
    ActiveMask,
    Ballot,
    Vote(VoteOp),
    Shuffle,
    MatchAny,
    Reduce,
    Jump,
    Brif,
    Return,
}

/// The opcodes not spelled by a keyword enum.
const FIXED: [Op; 27] = [
    Op::SharedAddr,
    Op::Bfi,
    Op::ActiveMask,
    Op::Ballot,
    Op::Shuffle,
    Op::MatchAny,
    Op::Reduce,
    Op::Iconst,
    Op::Fconst,
    Op::Icmp,
    Op::Fcmp,
    Op::Select,
    Op::PtrAdd,
    Op::PtrToGeneric,
    Op::Load,
    Op::Store,
    Op::AtomicRmw,
    Op::AtomicCas,
    Op::AtomicLoad,
    Op::AtomicStore,
    Op::Fence,
    Op::SurfaceRmw,
    Op::SurfaceCas,
    Op::Barrier,
    Op::Jump,
    Op::Brif,
    Op::Return,
];

impl Op {
    /// Every opcode: the keyword enums' members, then the fixed ones.
    pub(crate) fn all() -> impl Iterator<Item = Op> {
        let unary = UnaryOp::ALL.iter().map(|&o| Op::Unary(o));
        let binary = BinaryOp::ALL.iter().map(|&o| Op::Binary(o));
        let ternary = TernaryOp::ALL.iter().map(|&o| Op::Ternary(o));
        let vote = VoteOp::ALL.iter().map(|&o| Op::Vote(o));
        let convert = ConvOp::ALL.iter().map(|&o| Op::Convert(o));
        let special = SpecialReg::ALL.iter().map(|&o| Op::Special(o));
        unary.chain(binary).chain(ternary).chain(vote).chain(convert).chain(special).chain(FIXED)
    }

    /// Finds the opcode spelled `name` (without any `.T` suffix).
    pub(crate) fn from_name(name: &str) -> Option<Op> {
        UnaryOp::from_name(name)
            .map(Op::Unary)
            .or_else(|| BinaryOp::from_name(name).map(Op::Binary))
            .or_else(|| TernaryOp::from_name(name).map(Op::Ternary))
            .or_else(|| VoteOp::from_name(name).map(Op::Vote))
            .or_else(|| ConvOp::from_name(name).map(Op::Convert))
            .or_else(|| SpecialReg::from_name(name).map(Op::Special))
            .or_else(|| FIXED.into_iter().find(|op| op.name() == name))
    }

    /// The opcode's spelling.
    pub(crate) fn name(self) -> &'static str {
        self.prototype().opcode_name()
    }

    /// Whether the opcode is written with a type suffix (`.T`).
    pub(crate) fn takes_type(self) -> bool {
        matches!(
            self,
            Op::Iconst
                | Op::Fconst
                | Op::Convert(_)
                | Op::Load
                | Op::AtomicRmw
                | Op::AtomicCas
                | Op::AtomicLoad
                | Op::AtomicStore
                | Op::SurfaceRmw
                | Op::SurfaceCas
        )
    }

    /// What follows the opcode, for "expected ..." messages.
    pub(crate) fn operand_pattern(self) -> &'static str {
        match self {
            Op::Iconst => "N",
            Op::Fconst => "X",
            Op::Unary(_) | Op::Convert(_) => "a",
            Op::Binary(_) => "a, b",
            Op::Ternary(_) => "a, b, c",
            Op::Bfi => "x, base, pos, len",
            Op::ActiveMask => "",
            Op::Ballot | Op::Vote(_) | Op::MatchAny => "x",
            Op::Shuffle => "mode x, lane",
            Op::Reduce => "op x",
            Op::Icmp | Op::Fcmp => "cc a, b",
            Op::Select => "c, a, b",
            Op::PtrAdd => "p, off",
            Op::PtrToGeneric => "p",
            Op::Special(_) | Op::Barrier => "",
            Op::SharedAddr => "smN",
            Op::Load => "p+off",
            Op::Store => "v, p+off",
            Op::AtomicRmw => "op order scope p+off, x",
            Op::AtomicCas => "order scope p+off, expected, replacement",
            Op::AtomicLoad => "order scope p+off",
            Op::AtomicStore => "order scope p+off, v",
            Op::Fence => "order scope",
            Op::SurfaceRmw => "op dim addressing clamp order scope surf [coords], x",
            Op::SurfaceCas => "dim addressing clamp order scope surf [coords], expected, replacement",
            Op::Jump => "blockN(args)",
            Op::Brif => "c, blockA(args), blockB(args)",
            Op::Return => "v, ..",
        }
    }

    /// The full usage line, e.g. `atomic_load.T order scope p+off`.
    pub(crate) fn usage(self) -> String {
        let suffix = if self.takes_type() { ".T" } else { "" };
        let pattern = self.operand_pattern();
        let sep = if pattern.is_empty() { "" } else { " " };
        format!("{}{suffix}{sep}{pattern}", self.name())
    }

    /// An instruction of this shape with placeholder operands.
    fn prototype(self) -> InstData {
        let v = Value::from_u32(0);
        let addr = Address { ptr: v, offset: 0 };
        let (order, scope, ty) = (MemOrder::Relaxed, Scope::Gpu, Type::I32);
        let access = SurfaceAccess {
            dim: SurfaceDim::D1,
            addressing: SurfaceAddressing::Coord,
            clamp: SurfaceClamp::Ign,
            surface: SurfaceRef::Slot(0),
        };
        let call = BlockCall { block: Block::from_u32(0), args: SmallVec::new() };
        match self {
            Op::Iconst => InstData::Iconst { ty, imm: 0 },
            Op::Fconst => InstData::Fconst { ty, bits: 0 },
            Op::Unary(op) => InstData::Unary { op, arg: v },
            Op::Binary(op) => InstData::Binary { op, args: [v, v] },
            Op::Ternary(op) => InstData::Ternary { op, args: [v, v, v] },
            Op::Bfi => InstData::Bfi { args: [v, v, v, v] },
            Op::ActiveMask => InstData::ActiveMask,
            Op::Ballot => InstData::Ballot { cond: v },
            Op::Vote(op) => InstData::Vote { op, arg: v },
            Op::Shuffle => InstData::Shuffle { mode: ShuffleMode::Idx, args: [v, v] },
            Op::MatchAny => InstData::MatchAny { arg: v },
            Op::Reduce => InstData::Reduce { op: ReduceOp::Add, arg: v },
            Op::Icmp => InstData::Icmp { cond: IntCC::Eq, args: [v, v] },
            Op::Fcmp => InstData::Fcmp { cond: FloatCC::Eq, args: [v, v] },
            Op::Select => InstData::Select { cond: v, args: [v, v] },
            Op::Convert(op) => InstData::Convert { op, to: ty, arg: v },
            Op::PtrAdd => InstData::PtrAdd { ptr: v, offset: v },
            Op::PtrToGeneric => InstData::PtrToGeneric { ptr: v },
            Op::Special(reg) => InstData::Special { reg },
            Op::SharedAddr => InstData::SharedAddr { var: crate::SharedVar::from_u32(0) },
            Op::Load => InstData::Load { ty, addr },
            Op::Store => InstData::Store { value: v, addr },
            Op::AtomicRmw => InstData::AtomicRmw { op: RmwOp::Add, ty, order, scope, addr, arg: v },
            Op::AtomicCas => InstData::AtomicCas { ty, order, scope, addr, expected: v, replacement: v },
            Op::AtomicLoad => InstData::AtomicLoad { ty, order, scope, addr },
            Op::AtomicStore => InstData::AtomicStore { ty, order, scope, addr, value: v },
            Op::Fence => InstData::Fence { order, scope },
            Op::SurfaceRmw => {
                InstData::SurfaceRmw { op: RmwOp::Add, ty, order, scope, access, coords: SmallVec::new(), arg: v }
            }
            Op::SurfaceCas => {
                InstData::SurfaceCas { ty, order, scope, access, coords: SmallVec::new(), expected: v, replacement: v }
            }
            Op::Barrier => InstData::Barrier,
            Op::Jump => InstData::Jump { dest: call },
            Op::Brif => InstData::Brif { cond: v, then_dest: call.clone(), else_dest: call },
            Op::Return => InstData::Return { args: SmallVec::new() },
        }
    }

    /// Whether instructions of this opcode define a result.
    pub(crate) fn has_result(self) -> bool {
        self.prototype().result_type(|_| Type::I32).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entity_prefixes_match_the_parser() {
        use crate::parse::words;
        assert_eq!(Value::from_u32(3).to_string(), format!("{}3", words::VALUE));
        assert_eq!(Block::from_u32(3).to_string(), format!("{}3", words::BLOCK));
    }

    #[test]
    fn every_opcode_is_listed_once_and_found_by_its_name() {
        let names: Vec<&str> = crate::parse::opcode_names().collect();
        for (i, n) in names.iter().enumerate() {
            assert!(!names[..i].contains(n), "{n} listed twice");
            assert_eq!(Op::from_name(n).map(Op::name), Some(*n));
        }
    }

    #[test]
    fn every_fixed_opcode_is_found_by_its_name() {
        for op in FIXED {
            assert_eq!(Op::from_name(op.name()), Some(op));
        }
    }
}
