//! Capabilities as data: for each target, one table that says, for every
//! atomic op × type × address space, whether the hardware does it natively
//! or which rewrite the legalizer applies. The target check, the legalizer
//! and the filetest generator all read these tables; nothing else decides
//! legality of an atomic.
//!
//! A table is a list of [`Rule`]s; the first rule that matches an access
//! wins, so specific rows come before general ones. Every row carries the
//! evidence for it.

mod sass_surface;
mod sm50;
mod sm90;
mod visa;

use atomc_ir::{AddrSpace, MemOrder, RmwOp, SurfaceClamp, Type};

pub use sm50::SM50;
pub use sm90::SM90;
pub use visa::{VISA_DG2, VISA_PVC, VISA_TGLLP};

/// The kind of atomic access a rule talks about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicKind {
    /// `atomic_rmw` with this op.
    Rmw(RmwOp),
    /// `atomic_cas`.
    Cas,
    /// `atomic_load`.
    Load,
    /// `atomic_store`.
    Store,
    /// `surface_rmw` with this op.
    SurfaceRmw(RmwOp),
    /// `surface_cas`.
    SurfaceCas,
}

impl AtomicKind {
    /// The addition a [`Lowering::NegateToAdd`] subtraction becomes (`sub` → `add`,
    /// `fsub` → `fadd`, on memory or on a surface); `None` for every other kind.
    pub fn negated_to_add(self) -> Option<AtomicKind> {
        let add = |op| match op {
            RmwOp::Sub => Some(RmwOp::Add),
            RmwOp::Fsub => Some(RmwOp::Fadd),
            _ => None,
        };
        match self {
            AtomicKind::Rmw(op) => add(op).map(AtomicKind::Rmw),
            AtomicKind::SurfaceRmw(op) => add(op).map(AtomicKind::SurfaceRmw),
            _ => None,
        }
    }

    /// The IR spelling, for diagnostics.
    pub fn describe(self) -> String {
        match self {
            AtomicKind::Rmw(op) => format!("atomic_rmw {op}"),
            AtomicKind::Cas => "atomic_cas".into(),
            AtomicKind::Load => "atomic_load".into(),
            AtomicKind::Store => "atomic_store".into(),
            AtomicKind::SurfaceRmw(op) => format!("surface_rmw {op}"),
            AtomicKind::SurfaceCas => "surface_cas".into(),
        }
    }
}

/// What the backend does with an access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lowering {
    /// One native instruction (RED when the result is unused and the
    /// target has a reduction for the op).
    Native,
    /// `sub x` becomes `add (ineg x)`, `fsub x` becomes `fadd` of `x` with its sign flipped;
    /// the `add`/`fadd` row for the same type and space then decides how that is lowered
    /// (and whether it can be: the check refuses the subtraction for the addition's reason).
    NegateToAdd,
    /// A compare-and-swap retry loop on the same width.
    CasLoop,
    /// A compare-and-swap retry loop on the aligned 32-bit word that holds
    /// the 8- or 16-bit value.
    SubwordCasLoop,
    /// The target cannot express it at all; the compile fails with this reason.
    Unsupported(&'static str),
}

/// Which ops, types and spaces a rule covers; an empty slice matches all.
#[derive(Clone, Copy, Debug)]
pub struct Rule {
    /// The kinds of access this row is about.
    pub kinds: &'static [AtomicKind],
    /// Value types (empty: any).
    pub types: &'static [Type],
    /// Address spaces (empty: any; surface rows leave it empty).
    pub spaces: &'static [AddrSpace],
    /// The decision.
    pub lowering: Lowering,
    /// Why: the document or tool output this row rests on.
    pub evidence: &'static str,
}

impl Rule {
    fn matches(&self, kind: AtomicKind, ty: Type, space: Option<AddrSpace>) -> bool {
        (self.kinds.is_empty() || self.kinds.contains(&kind))
            && (self.types.is_empty() || self.types.contains(&ty))
            && (self.spaces.is_empty() || space.is_some_and(|s| self.spaces.contains(&s)))
    }
}

/// One out-of-range mode of surface atomics on a target: `Native` (the lowering realises
/// it) or `Unsupported` with the reason.
#[derive(Clone, Copy, Debug)]
pub struct ClampRule {
    /// The mode.
    pub clamp: SurfaceClamp,
    /// The decision (`Native` or `Unsupported`).
    pub lowering: Lowering,
    /// Why.
    pub evidence: &'static str,
}

/// How a memory order is realised around a relaxed atomic: the legalizer
/// turns an ordered atomic into `fence before; atomic relaxed; fence after`
/// with the orders given here (`None`: no fence on that side).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OrderFences {
    /// Fence placed before the access.
    pub before: Option<MemOrder>,
    /// Fence placed after the access.
    pub after: Option<MemOrder>,
}

/// One target's capability table.
#[derive(Debug)]
pub struct TargetCaps {
    /// The target's name as the command line spells it.
    pub name: &'static str,
    /// The rules, first match wins.
    pub rules: &'static [Rule],
    /// The rows for the non-atomic instructions the target may lack ([`crate::caps_ops`]).
    pub ops: &'static [crate::caps_ops::OpRule],
    /// What the target does with each out-of-range mode of a surface atomic (first match
    /// wins; a mode no row names is native). Consulted after [`Self::rules`], so a refused
    /// op or type is reported for its own reason first.
    pub surface_clamps: &'static [ClampRule],
    /// How the target brings lanes that left a loop apart together before a subgroup
    /// instruction, which decides where such an instruction is refused.
    pub subgroup_meeting: crate::subgroup_sync::Meeting,
    /// What the target's float-to-integer conversion gives for NaN, where the IR asks for 0
    /// ([`crate::legalize::nan_to_int`] adds the select that makes it 0).
    pub nan_to_int: NanToInt,
}

/// A target's float-to-integer conversion of a NaN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NanToInt {
    /// 0, as the IR's `fcvt_to_sint` / `fcvt_to_uint` say.
    Zero,
    /// NVIDIA's `F2I` (and PTX's `cvt.rzi`, PTX ISA 9.0, `cvt`): 0 when neither the source is
    /// f64 nor the result 64 bits wide, else the result's top bit alone (`0x80` for an f64 to
    /// an 8-bit integer, `0x8000_0000_0000_0000` for an f32 to a 64-bit one), signed or
    /// unsigned alike. Seen on an H100 (docs/gpu-runs.md, run 9: `conversions-all-sizes`, by
    /// atomc's `F2I.S64`, `F2I.S8.F64` and ptxas's code from `cvt.rzi` alike).
    TopBitWhenWide,
}

impl NanToInt {
    /// Whether converting a NaN of type `from` to the integer type `to` gives 0.
    pub fn gives_zero(self, from: Type, to: Type) -> bool {
        match self {
            NanToInt::Zero => true,
            NanToInt::TopBitWhenWide => from != Type::F64 && to.bits() < 64,
        }
    }
}

impl TargetCaps {
    /// The first rule that matches, or a synthetic "unsupported" rule.
    /// A [`Lowering::NegateToAdd`] row is returned as it is: [`Self::lowering`] follows it.
    pub fn lookup(&self, kind: AtomicKind, ty: Type, space: Option<AddrSpace>) -> Rule {
        self.rules.iter().find(|r| r.matches(kind, ty, space)).copied().unwrap_or(Rule {
            kinds: &[],
            types: &[],
            spaces: &[],
            lowering: Lowering::Unsupported("no capability rule covers it"),
            evidence: "",
        })
    }

    /// What finally happens to an access: the matching row's lowering, except that a
    /// subtraction negated to an addition whose own row refuses it (or that no addition
    /// answers) is refused for that reason.
    pub fn lowering(&self, kind: AtomicKind, ty: Type, space: Option<AddrSpace>) -> Lowering {
        match self.lookup(kind, ty, space).lowering {
            Lowering::NegateToAdd => match kind.negated_to_add().map(|add| self.lookup(add, ty, space).lowering) {
                Some(r @ Lowering::Unsupported(_)) => r,
                Some(Lowering::NegateToAdd) | None => Lowering::Unsupported("the table negates an op with no addition to become"),
                Some(_) => Lowering::NegateToAdd,
            },
            l => l,
        }
    }

    /// The row for a surface atomic's out-of-range mode (native when no row names it).
    pub fn lookup_clamp(&self, clamp: SurfaceClamp) -> ClampRule {
        self.surface_clamps.iter().find(|r| r.clamp == clamp).copied().unwrap_or(ClampRule {
            clamp,
            lowering: Lowering::Native,
            evidence: "",
        })
    }

    /// The fences that realise `order` (see [`OrderFences`]).
    pub fn fences_for(&self, order: MemOrder) -> OrderFences {
        let (before, after) = match order {
            MemOrder::Relaxed => (None, None),
            MemOrder::Acquire => (None, Some(MemOrder::Acquire)),
            MemOrder::Release => (Some(MemOrder::Release), None),
            MemOrder::AcqRel => (Some(MemOrder::Release), Some(MemOrder::Acquire)),
            MemOrder::SeqCst => (Some(MemOrder::SeqCst), Some(MemOrder::Acquire)),
        };
        OrderFences { before, after }
    }
}

/// Shorthands for the tables.
pub(crate) mod t {
    use super::AtomicKind::{self, *};
    use atomc_ir::RmwOp::*;
    use atomc_ir::{AddrSpace, Type};

    pub const INTS32: &[Type] = &[Type::I32];
    pub const INTS64: &[Type] = &[Type::I64];
    pub const SUBWORD: &[Type] = &[Type::I8, Type::I16, Type::F16];
    pub const GLOBALISH: &[AddrSpace] = &[AddrSpace::Global, AddrSpace::Generic];
    pub const SHARED: &[AddrSpace] = &[AddrSpace::Shared];
    pub const INT_RMW: &[AtomicKind] = &[
        Rmw(Add), Rmw(And), Rmw(Or), Rmw(Xor), Rmw(Xchg), Rmw(Smin), Rmw(Smax), Rmw(Umin), Rmw(Umax),
    ];
    pub const BITWISE_ADD_XCHG: &[AtomicKind] = &[Rmw(Add), Rmw(And), Rmw(Or), Rmw(Xor), Rmw(Xchg)];
    pub const MINMAX: &[AtomicKind] = &[Rmw(Smin), Rmw(Smax), Rmw(Umin), Rmw(Umax)];
    pub const WRAP: &[AtomicKind] = &[Rmw(IncWrap), Rmw(DecWrap)];
    pub const SUB: &[AtomicKind] = &[Rmw(Sub)];
    pub const FSUB: &[AtomicKind] = &[Rmw(Fsub), SurfaceRmw(Fsub)];
    pub const FADD: &[AtomicKind] = &[Rmw(Fadd)];
    pub const FMINMAX: &[AtomicKind] = &[Rmw(Fmin), Rmw(Fmax)];
    pub const LOAD_STORE: &[AtomicKind] = &[Load, Store];
    /// Every read-modify-write on memory, for the catch-all loop rows. `nand` reaches only
    /// those: no target has it as one instruction (the ATOM/ATOMS/RED op fields of sm_50 and
    /// sm_90 hold ADD MIN MAX INC DEC AND OR XOR EXCH CAS, seed 004 group 4 and seed 000; PTX
    /// has no `atom.nand`; vISA's atomic ops have none, reference §6).
    pub const ALL_RMW: &[AtomicKind] = &[
        Rmw(Add), Rmw(Sub), Rmw(And), Rmw(Nand), Rmw(Or), Rmw(Xor), Rmw(Xchg), Rmw(Smin), Rmw(Smax),
        Rmw(Umin), Rmw(Umax), Rmw(Fadd), Rmw(Fmin), Rmw(Fmax), Rmw(IncWrap), Rmw(DecWrap),
    ];
    pub const SURFACE_INT: &[AtomicKind] = &[
        SurfaceRmw(Add), SurfaceRmw(And), SurfaceRmw(Or), SurfaceRmw(Xor), SurfaceRmw(Xchg),
        SurfaceRmw(Smin), SurfaceRmw(Smax), SurfaceRmw(Umin), SurfaceRmw(Umax), SurfaceRmw(IncWrap),
        SurfaceRmw(DecWrap), SurfaceCas,
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLES: [&TargetCaps; 5] = [&SM90, &SM50, &VISA_TGLLP, &VISA_DG2, &VISA_PVC];

    /// A `NegateToAdd` row names only subtractions: the pass has an addition for each.
    #[test]
    fn negated_rows_are_subtractions() {
        for caps in TABLES {
            for r in caps.rules.iter().filter(|r| r.lowering == Lowering::NegateToAdd) {
                assert!(!r.kinds.is_empty(), "{}: a NegateToAdd row for every kind", caps.name);
                for k in r.kinds {
                    assert!(k.negated_to_add().is_some(), "{}: NegateToAdd on {}", caps.name, k.describe());
                }
            }
        }
    }

    /// `nand` is never native: a loop wherever `and` is lowered at all, refused where it is.
    #[test]
    fn nand_is_a_loop_where_and_is_lowered() {
        let ints = [Type::I8, Type::I16, Type::I32, Type::I64];
        for caps in TABLES {
            for ty in ints {
                for space in [AddrSpace::Global, AddrSpace::Shared, AddrSpace::Generic] {
                    let nand = caps.lowering(AtomicKind::Rmw(RmwOp::Nand), ty, Some(space));
                    let and = caps.lowering(AtomicKind::Rmw(RmwOp::And), ty, Some(space));
                    match and {
                        Lowering::Unsupported(_) => assert!(matches!(nand, Lowering::Unsupported(_)), "{} {ty} {space:?}: {nand:?}", caps.name),
                        _ => assert!(
                            matches!(nand, Lowering::CasLoop | Lowering::SubwordCasLoop),
                            "{} {ty} {space:?}: nand {nand:?}, and {and:?}",
                            caps.name
                        ),
                    }
                }
            }
        }
    }

    /// `fsub` is refused exactly where `fadd` is, on memory and on surfaces.
    #[test]
    fn fsub_follows_fadd() {
        let floats = [Type::F16, Type::F32, Type::F64, Type::F16x2, Type::BF16x2];
        let refused = |l: Lowering| matches!(l, Lowering::Unsupported(_));
        for caps in TABLES {
            for ty in floats {
                for space in [Some(AddrSpace::Global), Some(AddrSpace::Shared), Some(AddrSpace::Generic), None] {
                    let (sub, add) = match space {
                        Some(_) => (AtomicKind::Rmw(RmwOp::Fsub), AtomicKind::Rmw(RmwOp::Fadd)),
                        None => (AtomicKind::SurfaceRmw(RmwOp::Fsub), AtomicKind::SurfaceRmw(RmwOp::Fadd)),
                    };
                    let (s, a) = (caps.lowering(sub, ty, space), caps.lowering(add, ty, space));
                    assert_eq!(refused(s), refused(a), "{} {ty} {space:?}: fsub {s:?}, fadd {a:?}", caps.name);
                    if !refused(s) {
                        assert_eq!(s, Lowering::NegateToAdd, "{} {ty} {space:?}", caps.name);
                    }
                }
            }
        }
    }
}
