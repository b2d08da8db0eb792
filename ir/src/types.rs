//! Value types.
//!
//! Integers are signless, as in CLIF: an `i32` is a 32-bit pattern and the
//! instruction says whether it is read as signed or unsigned (`smin` vs
//! `umin`, `sshr` vs `ushr`, ...).

use std::fmt;

/// An address space: where a pointer points.
///
/// Text form: `global`, `shared`, `generic`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AddrSpace {
    /// Device memory visible to every thread of the grid (and the host).
    /// Pointers are 64 bits.
    Global,
    /// Per-block scratch memory shared by the threads of one block (CTA).
    /// Pointers are 32-bit byte offsets into the block's shared window.
    Shared,
    /// A 64-bit address that may point into global or shared memory; the
    /// hardware (or the lowering) decides at run time which one it is.
    Generic,
}

impl AddrSpace {
    /// Every address space, in text order.
    pub const ALL: [AddrSpace; 3] = [AddrSpace::Global, AddrSpace::Shared, AddrSpace::Generic];

    /// The keyword used in the text format.
    pub fn name(self) -> &'static str {
        match self {
            AddrSpace::Global => "global",
            AddrSpace::Shared => "shared",
            AddrSpace::Generic => "generic",
        }
    }

    /// Width of a pointer into this space, in bits.
    pub fn pointer_bits(self) -> u32 {
        match self {
            AddrSpace::Shared => 32,
            AddrSpace::Global | AddrSpace::Generic => 64,
        }
    }
}

/// The type of an SSA value.
///
/// Text forms: `i8 i16 i32 i64 f16 f32 f64 f16x2 bf16x2 pred ptr.global
/// ptr.shared ptr.generic surface`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// 8-bit integer.
    I8,
    /// 16-bit integer.
    I16,
    /// 32-bit integer.
    I32,
    /// 64-bit integer.
    I64,
    /// IEEE 754 binary16.
    F16,
    /// IEEE 754 binary32.
    F32,
    /// IEEE 754 binary64.
    F64,
    /// Two binary16 lanes packed in 32 bits; lane 0 in bits 0..16.
    F16x2,
    /// Two bfloat16 lanes packed in 32 bits; lane 0 in bits 0..16.
    BF16x2,
    /// A one-bit predicate, the result of comparisons and the condition of
    /// `brif` and `select`. It has no memory representation.
    Pred,
    /// A pointer into the given address space (see [`AddrSpace::pointer_bits`]).
    Ptr(AddrSpace),
    /// An opaque bindless surface handle (a 64-bit descriptor), used by the
    /// bindless form of the surface atomics.
    ///
    /// What the bits mean is the target's: the backends name the surface by
    /// the **low 32 bits** and ignore the upper 32. On NVIDIA they are the
    /// surface's header word (the `Rc` of `SUATOM`/`SURED`); on Intel (vISA)
    /// the surface's bindless surface-state offset as the driver hands it out,
    /// which `movs` writes into the predefined bindless surface `%bss` (on
    /// TGLLP it is added to the message's extended descriptor, so its low 11
    /// bits must be clear; docs/visa.md "Surfaces"). The reference interpreter
    /// gives surface `i` the handle `SURFACE_HANDLE_BASE + i`, low word `i`.
    Surface,
}

impl Type {
    /// Size in bits of a value of this type as stored in registers and memory.
    /// `pred` reports 1.
    pub fn bits(self) -> u32 {
        match self {
            Type::I8 => 8,
            Type::I16 | Type::F16 => 16,
            Type::I32 | Type::F32 | Type::F16x2 | Type::BF16x2 => 32,
            Type::I64 | Type::F64 | Type::Surface => 64,
            Type::Pred => 1,
            Type::Ptr(space) => space.pointer_bits(),
        }
    }

    /// Size in bytes in memory (`pred` reports 1, though it cannot be stored).
    pub fn bytes(self) -> u32 {
        self.bits().div_ceil(8)
    }

    /// `i8`, `i16`, `i32` or `i64`.
    pub fn is_int(self) -> bool {
        matches!(self, Type::I8 | Type::I16 | Type::I32 | Type::I64)
    }

    /// A scalar float type (`f16`, `f32`, `f64`).
    pub fn is_float(self) -> bool {
        matches!(self, Type::F16 | Type::F32 | Type::F64)
    }

    /// A packed two-lane float type (`f16x2`, `bf16x2`).
    pub fn is_packed_float(self) -> bool {
        matches!(self, Type::F16x2 | Type::BF16x2)
    }

    /// A pointer of any address space.
    pub fn is_ptr(self) -> bool {
        matches!(self, Type::Ptr(_))
    }

    /// The address space of a pointer type.
    pub fn addr_space(self) -> Option<AddrSpace> {
        match self {
            Type::Ptr(space) => Some(space),
            _ => None,
        }
    }

    /// Whether values of this type can be loaded from and stored to memory.
    pub fn is_memory_type(self) -> bool {
        !matches!(self, Type::Pred)
    }

    /// The integer type of the same width, if there is one.
    pub fn as_int(self) -> Option<Type> {
        match self.bits() {
            8 => Some(Type::I8),
            16 => Some(Type::I16),
            32 => Some(Type::I32),
            64 => Some(Type::I64),
            _ => None,
        }
    }

    /// Every type that has no parameters, in text order, plus the pointers.
    pub const ALL: [Type; 14] = [
        Type::I8,
        Type::I16,
        Type::I32,
        Type::I64,
        Type::F16,
        Type::F32,
        Type::F64,
        Type::F16x2,
        Type::BF16x2,
        Type::Pred,
        Type::Ptr(AddrSpace::Global),
        Type::Ptr(AddrSpace::Shared),
        Type::Ptr(AddrSpace::Generic),
        Type::Surface,
    ];

    /// Parses the text form of a type.
    pub fn from_name(s: &str) -> Option<Type> {
        Type::ALL.into_iter().find(|t| t.to_string() == s)
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            Type::I8 => "i8",
            Type::I16 => "i16",
            Type::I32 => "i32",
            Type::I64 => "i64",
            Type::F16 => "f16",
            Type::F32 => "f32",
            Type::F64 => "f64",
            Type::F16x2 => "f16x2",
            Type::BF16x2 => "bf16x2",
            Type::Pred => "pred",
            Type::Ptr(space) => return write!(f, "ptr.{}", space.name()),
            Type::Surface => "surface",
        };
        f.write_str(s)
    }
}
