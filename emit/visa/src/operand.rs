//! Operands of vISA instructions.
//!
//! vISA has two operand families (visa.md §1.3): *vector* operands
//! (general-variable regions, predicates, immediates; ALU instructions and
//! control flow) and *raw* operands (a variable plus a byte offset; message
//! instructions such as `svm_atomic`). Labels are a third, trivial kind;
//! surfaces a fourth: the surface byte of a message, and the *state* operand
//! `SURFACE(offset)` that `movs` writes (a vector operand of class 6).

use super::kernel::{LabelId, PredId, Surf, VarId};
use super::types::Type;

/// Source modifier (visa.md §1.3 tag bits 3-5; text `(-)`, `(abs)`,
/// `(-abs)`, `(~)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SrcMod {
    /// No modifier.
    None,
    /// Arithmetic negation.
    Neg,
    /// Absolute value.
    Abs,
    /// Negated absolute value.
    NegAbs,
    /// Bitwise not (logic instructions).
    Not,
}

impl SrcMod {
    /// The 3-bit code placed in bits 3-5 of the operand tag.
    pub fn code(self) -> u8 {
        match self {
            SrcMod::None => 0,
            SrcMod::Abs => 1,
            SrcMod::Neg => 2,
            SrcMod::NegAbs => 3,
            SrcMod::Not => 5,
        }
    }

    /// The text prefix.
    pub fn prefix(self) -> &'static str {
        match self {
            SrcMod::None => "",
            SrcMod::Neg => "(-)",
            SrcMod::Abs => "(abs)",
            SrcMod::NegAbs => "(-abs)",
            SrcMod::Not => "(~)",
        }
    }
}

/// A source region `<vstride;width,hstride>` in elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Region {
    /// Vertical stride.
    pub vstride: u8,
    /// Width.
    pub width: u8,
    /// Horizontal stride.
    pub hstride: u8,
}

impl Region {
    /// `<1;1,0>`: one element per lane, contiguous.
    pub const CONTIGUOUS: Region = Region {
        vstride: 1,
        width: 1,
        hstride: 0,
    };
    /// `<0;1,0>`: the same element for every lane.
    pub const SCALAR: Region = Region {
        vstride: 0,
        width: 1,
        hstride: 0,
    };
    /// `<2;1,0>`: every other element (low or high halves of 64-bit values).
    pub const STRIDE2: Region = Region {
        vstride: 2,
        width: 1,
        hstride: 0,
    };
}

/// Encodes one stride/width value as the 4-bit region code of visa.md §1.3
/// (0 = none, 1 → 0, 2 → 1, 3 → 2, 4 → 4, 5 → 8, 6 → 16, 7 → 32). Values
/// that are not a power of two (or 0) have no code; the validator rejects
/// them and the writer encodes them as "none".
pub fn region_code(v: u8) -> u8 {
    match v {
        0 => 1,
        1 => 2,
        2 => 3,
        4 => 4,
        8 => 5,
        16 => 6,
        32 => 7,
        _ => 0,
    }
}

/// An immediate value: its type and its bits (little-endian, low bits used).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Imm {
    /// The immediate's type.
    pub ty: Type,
    /// Raw bits; for floats, the IEEE encoding.
    pub bits: u64,
}

impl Imm {
    /// An unsigned 32-bit immediate.
    pub fn ud(v: u32) -> Imm {
        Imm {
            ty: Type::UD,
            bits: v as u64,
        }
    }
    /// A signed 32-bit immediate.
    pub fn d(v: i32) -> Imm {
        Imm {
            ty: Type::D,
            bits: v as u32 as u64,
        }
    }
    /// An unsigned 16-bit immediate.
    pub fn uw(v: u16) -> Imm {
        Imm {
            ty: Type::UW,
            bits: v as u64,
        }
    }
    /// A signed 16-bit immediate.
    pub fn w(v: i16) -> Imm {
        Imm {
            ty: Type::W,
            bits: v as u16 as u64,
        }
    }
    /// An unsigned 64-bit immediate.
    pub fn uq(v: u64) -> Imm {
        Imm {
            ty: Type::UQ,
            bits: v,
        }
    }
    /// A signed 64-bit immediate.
    pub fn q(v: i64) -> Imm {
        Imm {
            ty: Type::Q,
            bits: v as u64,
        }
    }
    /// A single-precision immediate.
    pub fn f(v: f32) -> Imm {
        Imm {
            ty: Type::F,
            bits: v.to_bits() as u64,
        }
    }
    /// A double-precision immediate.
    pub fn df(v: f64) -> Imm {
        Imm {
            ty: Type::DF,
            bits: v.to_bits(),
        }
    }
    /// A half-precision immediate given by its IEEE bits.
    pub fn hf_bits(bits: u16) -> Imm {
        Imm {
            ty: Type::HF,
            bits: bits as u64,
        }
    }
    /// Number of value bytes in the binary form: 8 for 64-bit types, else 4.
    pub fn byte_len(self) -> usize {
        if self.ty.size() == 8 {
            8
        } else {
            4
        }
    }
    /// The bits truncated to the type's width.
    pub fn masked_bits(self) -> u64 {
        match self.ty.size() {
            8 => self.bits,
            s => self.bits & ((1u64 << (8 * s)) - 1),
        }
    }
}

/// One operand of an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// A general-variable destination `V(row,col)<hstride>`.
    Dst {
        /// Variable.
        var: VarId,
        /// Row offset (GRF units).
        row: u8,
        /// Column offset (elements).
        col: u8,
        /// Horizontal stride (0, 1, 2 or 4).
        hstride: u8,
    },
    /// A general-variable source `[mod]V(row,col)<vs;w,hs>`.
    Src {
        /// Variable.
        var: VarId,
        /// Row offset (GRF units).
        row: u8,
        /// Column offset (elements).
        col: u8,
        /// Region.
        region: Region,
        /// Source modifier.
        modifier: SrcMod,
    },
    /// An immediate source.
    Imm(Imm),
    /// A predicate variable used as an operand (`cmp`/`setp` destination,
    /// logic ops on predicates).
    Pred(PredId),
    /// A raw operand `V.offset`; `var == None` is `%null.0` (V0).
    Raw {
        /// Variable, or `None` for `%null`.
        var: Option<VarId>,
        /// Byte offset.
        offset: u16,
    },
    /// A label (jump target).
    Label(LabelId),
    /// A surface (the surface byte of a typed message).
    Surface(Surf),
    /// A surface's state `SURFACE(offset)` (text `%bss(0)`), the destination
    /// of `movs`; binary: tag 6, class byte 0 (surface), UW surface number, UB
    /// offset (visa.md §1.3 "state (6)").
    State {
        /// The surface.
        surface: Surf,
        /// Element offset (0: the one `movs` form GenX_IR lowers soundly).
        offset: u8,
    },
}

impl Operand {
    /// `V(0,0)<1>`.
    pub fn dst(var: VarId) -> Operand {
        Operand::Dst {
            var,
            row: 0,
            col: 0,
            hstride: 1,
        }
    }
    /// `V(row,col)<hstride>`.
    pub fn dst_at(var: VarId, row: u8, col: u8, hstride: u8) -> Operand {
        Operand::Dst {
            var,
            row,
            col,
            hstride,
        }
    }
    /// `V(0,0)<1;1,0>`.
    pub fn src(var: VarId) -> Operand {
        Operand::Src {
            var,
            row: 0,
            col: 0,
            region: Region::CONTIGUOUS,
            modifier: SrcMod::None,
        }
    }
    /// `V(0,0)<0;1,0>`: broadcast the first element.
    pub fn scalar(var: VarId) -> Operand {
        Operand::Src {
            var,
            row: 0,
            col: 0,
            region: Region::SCALAR,
            modifier: SrcMod::None,
        }
    }
    /// `V(row,col)<region>`.
    pub fn src_at(var: VarId, row: u8, col: u8, region: Region) -> Operand {
        Operand::Src {
            var,
            row,
            col,
            region,
            modifier: SrcMod::None,
        }
    }
    /// This source with a modifier (no effect on other operand kinds).
    pub fn with_mod(self, m: SrcMod) -> Operand {
        match self {
            Operand::Src {
                var,
                row,
                col,
                region,
                ..
            } => Operand::Src {
                var,
                row,
                col,
                region,
                modifier: m,
            },
            other => other,
        }
    }
    /// An immediate.
    pub fn imm(i: Imm) -> Operand {
        Operand::Imm(i)
    }
    /// A predicate operand.
    pub fn pred(p: PredId) -> Operand {
        Operand::Pred(p)
    }
    /// `V.0`.
    pub fn raw(var: VarId) -> Operand {
        Operand::Raw {
            var: Some(var),
            offset: 0,
        }
    }
    /// `V.offset`.
    pub fn raw_at(var: VarId, offset: u16) -> Operand {
        Operand::Raw {
            var: Some(var),
            offset,
        }
    }
    /// `%null.0`.
    pub fn null() -> Operand {
        Operand::Raw {
            var: None,
            offset: 0,
        }
    }
    /// A label.
    pub fn label(l: LabelId) -> Operand {
        Operand::Label(l)
    }
    /// `SURFACE(0)`: the state operand `movs` writes.
    pub fn state(surface: impl Into<Surf>) -> Operand {
        Operand::State { surface: surface.into(), offset: 0 }
    }
    /// Whether this is `%null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Operand::Raw { var: None, .. })
    }
    /// The general variable this operand names, if any.
    pub fn var(&self) -> Option<VarId> {
        match *self {
            Operand::Dst { var, .. } | Operand::Src { var, .. } => Some(var),
            Operand::Raw { var, .. } => var,
            _ => None,
        }
    }
}
