//! The vocabulary of atomic operations: which read-modify-write, with what
//! memory order, at what scope, on which kind of surface.
//!
//! The semantics given here are the ones the reference interpreter
//! implements and every backend must preserve.

use crate::keywords::keyword_enum;

keyword_enum! {
    /// The operation of an `atomic_rmw` (and of a `surface_atomic`).
    ///
    /// Each op reads the old value `old` at the address, computes `new` from
    /// `old` and the operand `x`, stores `new`, and returns `old`, all as one
    /// indivisible step. Legal types per op (checked by the verifier):
    ///
    /// | op | types |
    /// | --- | --- |
    /// | `add`, `sub`, `and`, `nand`, `or`, `xor`, `xchg`, `smin`, `smax`, `umin`, `umax` | `i8` `i16` `i32` `i64` (`xchg` also every float type) |
    /// | `fadd`, `fsub` | `f16` `f32` `f64` `f16x2` `bf16x2` |
    /// | `fmin`, `fmax` | `f16` `f32` `f64` `f16x2` `bf16x2` |
    /// | `inc_wrap`, `dec_wrap` | `i32` |
    pub enum RmwOp {
        /// `new = old + x` (wrapping).
        Add = "add",
        /// `new = old - x` (wrapping).
        Sub = "sub",
        /// `new = old & x`.
        And = "and",
        /// `new = !(old & x)` (CLIF's and LLVM's `nand`). No GPU has it as one instruction;
        /// every target's capability table makes it a compare-and-swap loop.
        Nand = "nand",
        /// `new = old | x`.
        Or = "or",
        /// `new = old ^ x`.
        Xor = "xor",
        /// `new = x`.
        Xchg = "xchg",
        /// `new = min(old, x)`, both read as two's-complement signed.
        Smin = "smin",
        /// `new = max(old, x)`, both read as two's-complement signed.
        Smax = "smax",
        /// `new = min(old, x)`, both read as unsigned.
        Umin = "umin",
        /// `new = max(old, x)`, both read as unsigned.
        Umax = "umax",
        /// `new = old + x` in IEEE arithmetic, round to nearest even; packed
        /// types add lane by lane.
        Fadd = "fadd",
        /// `new = old - x` in IEEE arithmetic, round to nearest even, NaN and
        /// signed-zero results as `fadd` gives them for `old + (-x)` (the same
        /// value: subtraction is addition of the negation, exactly); packed
        /// types subtract lane by lane.
        Fsub = "fsub",
        /// `new = minNum(old, x)`: if exactly one side is NaN the other side
        /// is the result; if both are NaN the result is a quiet NaN whose
        /// payload is the target's (the interpreter gives the canonical
        /// `0x7fc00000`, NVIDIA's units `0x7fffffff`); `-0.0` is less than
        /// `+0.0`. Packed types work lane by lane.
        Fmin = "fmin",
        /// `new = maxNum(old, x)`, with the NaN and signed-zero rules of `fmin`.
        Fmax = "fmax",
        /// The seeds' `INC`: `new = if old >= x (unsigned) { 0 } else { old + 1 }`.
        IncWrap = "inc_wrap",
        /// The seeds' `DEC`: `new = if old == 0 || old > x (unsigned) { x } else { old - 1 }`.
        DecWrap = "dec_wrap",
    }
}

impl RmwOp {
    /// Whether this op is defined on values of type `ty` (the IR's own rule;
    /// a target may support less and legalize the rest).
    pub fn accepts_type(self, ty: crate::Type) -> bool {
        use crate::Type;
        match self {
            RmwOp::Add
            | RmwOp::Sub
            | RmwOp::And
            | RmwOp::Nand
            | RmwOp::Or
            | RmwOp::Xor
            | RmwOp::Smin
            | RmwOp::Smax
            | RmwOp::Umin
            | RmwOp::Umax => ty.is_int(),
            RmwOp::Xchg => ty.is_int() || ty.is_float() || ty.is_packed_float(),
            RmwOp::Fadd | RmwOp::Fsub | RmwOp::Fmin | RmwOp::Fmax => ty.is_float() || ty.is_packed_float(),
            RmwOp::IncWrap | RmwOp::DecWrap => ty == Type::I32,
        }
    }
}

keyword_enum! {
    /// The memory order of an atomic, as in the PTX and C++ memory models.
    ///
    /// Legal per instruction: `atomic_load` takes `relaxed`, `acquire`,
    /// `seq_cst`; `atomic_store` takes `relaxed`, `release`, `seq_cst`;
    /// `fence` takes `acquire`, `release`, `acq_rel`, `seq_cst`; the
    /// read-modify-write atomics take all five.
    pub enum MemOrder {
        /// Atomic with respect to other atomics on the same location, no
        /// ordering of other accesses.
        Relaxed = "relaxed",
        /// Later accesses of this thread are not performed before this one.
        Acquire = "acquire",
        /// Earlier accesses of this thread are performed before this one.
        Release = "release",
        /// Both `acquire` and `release`.
        AcqRel = "acq_rel",
        /// `acq_rel`, and all `seq_cst` operations of the scope appear in one
        /// total order.
        SeqCst = "seq_cst",
    }
}

impl MemOrder {
    /// Has acquire semantics (`acquire`, `acq_rel`, `seq_cst`).
    pub fn acquires(self) -> bool {
        matches!(self, MemOrder::Acquire | MemOrder::AcqRel | MemOrder::SeqCst)
    }

    /// Has release semantics (`release`, `acq_rel`, `seq_cst`).
    pub fn releases(self) -> bool {
        matches!(self, MemOrder::Release | MemOrder::AcqRel | MemOrder::SeqCst)
    }
}

keyword_enum! {
    /// The set of threads an atomic's ordering (and atomicity) is
    /// guaranteed with respect to.
    pub enum Scope {
        /// The threads of the same block (CTA).
        Cta = "cta",
        /// Every thread of the device.
        Gpu = "gpu",
        /// Every thread of the device, other devices and the host.
        Sys = "sys",
    }
}

keyword_enum! {
    /// The shape of a surface addressed by a surface atomic; fixes how many
    /// coordinates the instruction takes.
    pub enum SurfaceDim {
        /// One coordinate: x.
        D1 = "1d",
        /// One coordinate: x, into a buffer surface.
        D1Buffer = "1d_buffer",
        /// Two: x, array layer.
        D1Array = "1d_array",
        /// Two: x, y.
        D2 = "2d",
        /// Three: x, y, array layer.
        D2Array = "2d_array",
        /// Three: x, y, z.
        D3 = "3d",
    }
}

impl SurfaceDim {
    /// Number of `i32` coordinates the instruction takes.
    pub fn coord_count(self) -> usize {
        match self {
            SurfaceDim::D1 | SurfaceDim::D1Buffer => 1,
            SurfaceDim::D1Array | SurfaceDim::D2 => 2,
            SurfaceDim::D2Array | SurfaceDim::D3 => 3,
        }
    }
}

keyword_enum! {
    /// How the x coordinate of a surface atomic is read.
    pub enum SurfaceAddressing {
        /// x counts elements (texels).
        Coord = "coord",
        /// x is a byte offset within the row; it must be a multiple of the
        /// element size. (SASS selects `.BA`, x in bytes, for both: `atomc_sass::surface`.)
        Bytes = "bytes",
    }
}

keyword_enum! {
    /// What a surface atomic does when a coordinate is out of range.
    pub enum SurfaceClamp {
        /// Ignore the access: memory is unchanged and the result is 0.
        Ign = "ign",
        /// Clamp each coordinate to the nearest edge.
        Near = "near",
        /// Trap: the kernel fails (the interpreter reports an error).
        Trap = "trap",
    }
}

/// Which surface a surface atomic names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SurfaceRef {
    /// A surface bound at a fixed slot of the kernel's binding table.
    /// Text: `slot N`.
    Slot(u16),
    /// A bindless handle held in a `surface` value. Text: the value. The
    /// lanes of a thread may hold different handles. The targets use the
    /// handle's low 32 bits ([`crate::Type::Surface`]): on Intel the bindless
    /// surface-state offset, one per distinct handle of the SIMD thread.
    Handle(crate::Value),
}

/// The full description of a surface access: shape, addressing, clamping.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SurfaceAccess {
    /// Shape of the surface; fixes the coordinate count.
    pub dim: SurfaceDim,
    /// Element or byte addressing of x.
    pub addressing: SurfaceAddressing,
    /// Out-of-range behaviour.
    pub clamp: SurfaceClamp,
    /// The surface.
    pub surface: SurfaceRef,
}
