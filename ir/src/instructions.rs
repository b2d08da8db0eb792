//! Instructions: what each one computes, its operands and its result type.
//!
//! An instruction has at most one result. Operand types are checked by the
//! verifier (`verify.rs`); the rules are given on each variant.
//!
//! Memory instructions address `ptr + offset`, where `offset` is a signed
//! byte constant written `v0+8` / `v0-4` in the text. The effective address
//! must be a multiple of the access size (the verifier checks the constant
//! part; the interpreter checks the rest at run time).

use crate::atomics::{MemOrder, RmwOp, Scope, SurfaceAccess};
use crate::keywords::keyword_enum;
use crate::{AddrSpace, Block, Type, Value};
use smallvec::SmallVec;

keyword_enum! {
    /// One-operand arithmetic. The result has the operand's type.
    pub enum UnaryOp {
        /// Two's-complement negation of an integer.
        Ineg = "ineg",
        /// Bitwise not of an integer.
        Bnot = "bnot",
        /// Float negation (flips the sign bit, NaNs included).
        Fneg = "fneg",
        /// Float absolute value (clears the sign bit).
        Fabs = "fabs",
    }
}

keyword_enum! {
    /// Two-operand arithmetic. Both operands and the result have one type:
    /// an integer type for the `i`/`u`/`s`/`b` ops, a scalar float type
    /// for the `f` ops. Shifts take the shift amount modulo the bit width.
    pub enum BinaryOp {
        /// Wrapping add.
        Iadd = "iadd",
        /// Wrapping subtract.
        Isub = "isub",
        /// Wrapping multiply (low half).
        Imul = "imul",
        /// Unsigned divide; division by zero is an error in the interpreter.
        Udiv = "udiv",
        /// Signed divide, rounding toward zero; `MIN / -1` wraps to `MIN`.
        Sdiv = "sdiv",
        /// Unsigned remainder.
        Urem = "urem",
        /// Signed remainder (sign of the dividend).
        Srem = "srem",
        /// Bitwise and.
        Band = "band",
        /// Bitwise or.
        Bor = "bor",
        /// Bitwise exclusive or.
        Bxor = "bxor",
        /// Shift left.
        Ishl = "ishl",
        /// Logical shift right.
        Ushr = "ushr",
        /// Arithmetic shift right.
        Sshr = "sshr",
        /// Unsigned minimum.
        Umin = "umin",
        /// Unsigned maximum.
        Umax = "umax",
        /// Signed minimum.
        Smin = "smin",
        /// Signed maximum.
        Smax = "smax",
        /// IEEE add, round to nearest even.
        Fadd = "fadd",
        /// IEEE subtract.
        Fsub = "fsub",
        /// IEEE multiply.
        Fmul = "fmul",
        /// IEEE divide.
        Fdiv = "fdiv",
        /// minNum (see [`RmwOp::Fmin`]).
        Fmin = "fmin",
        /// maxNum (see [`RmwOp::Fmax`]).
        Fmax = "fmax",
    }
}

impl BinaryOp {
    /// Whether the op works on floats (else on integers).
    pub fn is_float(self) -> bool {
        matches!(
            self,
            BinaryOp::Fadd | BinaryOp::Fsub | BinaryOp::Fmul | BinaryOp::Fdiv | BinaryOp::Fmin | BinaryOp::Fmax
        )
    }
}

impl UnaryOp {
    /// Whether the op works on floats (else on integers).
    pub fn is_float(self) -> bool {
        matches!(self, UnaryOp::Fneg | UnaryOp::Fabs)
    }
}

keyword_enum! {
    /// Integer comparison condition of `icmp`.
    pub enum IntCC {
        /// Equal.
        Eq = "eq",
        /// Not equal.
        Ne = "ne",
        /// Signed less than.
        Slt = "slt",
        /// Signed less than or equal.
        Sle = "sle",
        /// Signed greater than.
        Sgt = "sgt",
        /// Signed greater than or equal.
        Sge = "sge",
        /// Unsigned less than.
        Ult = "ult",
        /// Unsigned less than or equal.
        Ule = "ule",
        /// Unsigned greater than.
        Ugt = "ugt",
        /// Unsigned greater than or equal.
        Uge = "uge",
    }
}

keyword_enum! {
    /// Float comparison condition of `fcmp`. All but `ne` and `uno` are
    /// ordered: false when either side is NaN.
    pub enum FloatCC {
        /// Ordered and equal.
        Eq = "eq",
        /// Unordered or not equal.
        Ne = "ne",
        /// Ordered and less than.
        Lt = "lt",
        /// Ordered and less than or equal.
        Le = "le",
        /// Ordered and greater than.
        Gt = "gt",
        /// Ordered and greater than or equal.
        Ge = "ge",
        /// Neither side is NaN.
        Ord = "ord",
        /// Either side is NaN.
        Uno = "uno",
    }
}

keyword_enum! {
    /// Conversions; the target type is written on the opcode (`uextend.i64`).
    pub enum ConvOp {
        /// Zero-extend an integer to a wider integer type.
        Uextend = "uextend",
        /// Sign-extend an integer to a wider integer type.
        Sextend = "sextend",
        /// Keep the low bits of an integer in a narrower integer type.
        Ireduce = "ireduce",
        /// Widen a float exactly (`f16` → `f32` → `f64`).
        Fpromote = "fpromote",
        /// Narrow a float, round to nearest even.
        Fdemote = "fdemote",
        /// Float to signed integer, rounding toward zero, saturating; NaN → 0.
        FcvtToSint = "fcvt_to_sint",
        /// Float to unsigned integer, rounding toward zero, saturating; NaN → 0.
        FcvtToUint = "fcvt_to_uint",
        /// Signed integer to float, round to nearest even.
        FcvtFromSint = "fcvt_from_sint",
        /// Unsigned integer to float, round to nearest even.
        FcvtFromUint = "fcvt_from_uint",
        /// Reinterpret the bits as another type of the same width (including
        /// pointers and `i32`/`i64`, `pred` excluded).
        Bitcast = "bitcast",
    }
}

keyword_enum! {
    /// A read-only per-thread hardware value; every one is an `i32`.
    pub enum SpecialReg {
        /// Thread index within the block, x.
        ThreadIdX = "thread_id.x",
        /// Thread index within the block, y.
        ThreadIdY = "thread_id.y",
        /// Thread index within the block, z.
        ThreadIdZ = "thread_id.z",
        /// Block index within the grid, x.
        BlockIdX = "block_id.x",
        /// Block index within the grid, y.
        BlockIdY = "block_id.y",
        /// Block index within the grid, z.
        BlockIdZ = "block_id.z",
        /// Threads per block, x.
        BlockDimX = "block_dim.x",
        /// Threads per block, y.
        BlockDimY = "block_dim.y",
        /// Threads per block, z.
        BlockDimZ = "block_dim.z",
        /// Blocks per grid, x.
        GridDimX = "grid_dim.x",
        /// Blocks per grid, y.
        GridDimY = "grid_dim.y",
        /// Blocks per grid, z.
        GridDimZ = "grid_dim.z",
        /// Lane index within the warp (SIMD lane on vISA), 0..32.
        LaneId = "lane_id",
    }
}

/// A branch target: a block and the values passed to its parameters.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BlockCall {
    /// The target block.
    pub block: Block,
    /// One argument per block parameter, same types.
    pub args: SmallVec<[Value; 4]>,
}

/// An address operand `ptr + offset` of a memory instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Address {
    /// A pointer value (`ptr.global`, `ptr.shared` or `ptr.generic`); its
    /// type fixes the address space of the access.
    pub ptr: Value,
    /// A signed constant byte offset, 24 bits (−2^23 .. 2^23) at most.
    pub offset: i32,
}

/// The largest magnitude of a constant address offset (SM90 has 24 signed
/// bits; SM50 has 20 for atomics and the legalizer folds the rest).
pub const MAX_ADDRESS_OFFSET: i32 = (1 << 23) - 1;

/// An instruction: opcode and operands. Text form per variant in brackets.
#[derive(Clone, Debug, PartialEq)]
pub enum InstData {
    /// `vN = iconst.T imm`: an integer constant of integer type `T`. `imm` is
    /// written in decimal (may be negative) or `0x` hex; it is stored
    /// sign-extended from `T`'s width.
    Iconst { ty: Type, imm: i64 },
    /// `vN = fconst.T lit`: a float constant of scalar float type `T`, kept as
    /// its bit pattern (zero-extended). Text: a decimal literal that reads
    /// back exactly, `inf`, `-inf`, or `0xBITS` for any other pattern (NaNs).
    Fconst { ty: Type, bits: u64 },
    /// `vN = op a`: see [`UnaryOp`].
    Unary { op: UnaryOp, arg: Value },
    /// `vN = op a, b`: see [`BinaryOp`].
    Binary { op: BinaryOp, args: [Value; 2] },
    /// `vN = icmp cc a, b`: compares two integers (or two pointers of one
    /// space) → `pred`.
    Icmp { cond: IntCC, args: [Value; 2] },
    /// `vN = fcmp cc a, b`: compares two scalar floats → `pred`.
    Fcmp { cond: FloatCC, args: [Value; 2] },
    /// `vN = select c, a, b`: `a` if the `pred` `c` is true, else `b`; `a` and
    /// `b` have one type, the result's.
    Select { cond: Value, args: [Value; 2] },
    /// `vN = op.T a`: see [`ConvOp`].
    Convert { op: ConvOp, to: Type, arg: Value },
    /// `vN = ptr_add p, off`: pointer plus a signed byte offset held in an
    /// `i32` or `i64`; the result has `p`'s type.
    PtrAdd { ptr: Value, offset: Value },
    /// `vN = ptr_to_generic p`: a `global` or `shared` pointer as a `generic`
    /// pointer to the same byte.
    PtrToGeneric { ptr: Value },
    /// `vN = thread_id.x` etc.: see [`SpecialReg`]; result `i32`.
    Special { reg: SpecialReg },
    /// `vN = load.T p+off`: a plain (non-atomic, weak) load of memory type `T`.
    Load { ty: Type, addr: Address },
    /// `store v, p+off`: a plain store of `v`.
    Store { value: Value, addr: Address },
    /// `vN = atomic_rmw.T op order scope p+off, x`: see [`RmwOp`]; `x` and the
    /// result have type `T`. An `i8`/`i16` (or `f16`) atomic may be carried out on
    /// the naturally aligned 32-bit word that holds it (a CAS loop where the target
    /// has no sub-word atomic, as NVIDIA's compilers do too): that whole word must
    /// be addressable memory, though only the element's bytes change.
    AtomicRmw {
        op: RmwOp,
        ty: Type,
        order: MemOrder,
        scope: Scope,
        addr: Address,
        arg: Value,
    },
    /// `vN = atomic_cas.T order scope p+off, expected, replacement`: reads
    /// `old`; if `old == expected` (bitwise) stores `replacement`; returns
    /// `old`. `T` is an integer type, a float type or a packed float type.
    AtomicCas {
        ty: Type,
        order: MemOrder,
        scope: Scope,
        addr: Address,
        expected: Value,
        replacement: Value,
    },
    /// `vN = atomic_load.T order scope p+off`.
    AtomicLoad { ty: Type, order: MemOrder, scope: Scope, addr: Address },
    /// `atomic_store.T order scope p+off, v`.
    AtomicStore {
        ty: Type,
        order: MemOrder,
        scope: Scope,
        addr: Address,
        value: Value,
    },
    /// `fence order scope`: orders this thread's memory accesses.
    Fence { order: MemOrder, scope: Scope },
    /// `vN = surface_rmw.T op dim addressing clamp order scope surf [c0, c1, ..], x`
    /// where `surf` is `slot N` or a `surface` value and the `i32`
    /// coordinates number [`SurfaceDim::coord_count`]. The surface holds
    /// elements of type `T` (`i32`, `i64`, `f32`, `f16x2`); `op` as in
    /// `atomic_rmw`.
    SurfaceRmw {
        op: RmwOp,
        ty: Type,
        order: MemOrder,
        scope: Scope,
        access: SurfaceAccess,
        coords: SmallVec<[Value; 3]>,
        arg: Value,
    },
    /// `vN = surface_cas.T dim addressing clamp order scope surf [coords], expected, replacement`.
    SurfaceCas {
        ty: Type,
        order: MemOrder,
        scope: Scope,
        access: SurfaceAccess,
        coords: SmallVec<[Value; 3]>,
        expected: Value,
        replacement: Value,
    },
    /// `barrier`: waits until every thread of the block reaches it; also
    /// orders shared-memory accesses like `fence acq_rel cta`.
    Barrier,
    /// `jump blockN(args)`: unconditional branch. A terminator.
    Jump { dest: BlockCall },
    /// `brif c, blockA(args), blockB(args)`: branch to the first target when
    /// the `pred` `c` is true, else to the second. A terminator.
    Brif { cond: Value, then_dest: BlockCall, else_dest: BlockCall },
    /// `return` or `return v, ..`: ends the thread; values must match the
    /// function's return types (kernels return nothing). A terminator.
    Return { args: SmallVec<[Value; 2]> },
}

impl InstData {
    /// The opcode spelling (for diagnostics).
    pub fn opcode_name(&self) -> &'static str {
        match self {
            InstData::Iconst { .. } => "iconst",
            InstData::Fconst { .. } => "fconst",
            InstData::Unary { op, .. } => op.name(),
            InstData::Binary { op, .. } => op.name(),
            InstData::Icmp { .. } => "icmp",
            InstData::Fcmp { .. } => "fcmp",
            InstData::Select { .. } => "select",
            InstData::Convert { op, .. } => op.name(),
            InstData::PtrAdd { .. } => "ptr_add",
            InstData::PtrToGeneric { .. } => "ptr_to_generic",
            InstData::Special { reg } => reg.name(),
            InstData::Load { .. } => "load",
            InstData::Store { .. } => "store",
            InstData::AtomicRmw { .. } => "atomic_rmw",
            InstData::AtomicCas { .. } => "atomic_cas",
            InstData::AtomicLoad { .. } => "atomic_load",
            InstData::AtomicStore { .. } => "atomic_store",
            InstData::Fence { .. } => "fence",
            InstData::SurfaceRmw { .. } => "surface_rmw",
            InstData::SurfaceCas { .. } => "surface_cas",
            InstData::Barrier => "barrier",
            InstData::Jump { .. } => "jump",
            InstData::Brif { .. } => "brif",
            InstData::Return { .. } => "return",
        }
    }

    /// Whether this instruction ends a block.
    pub fn is_terminator(&self) -> bool {
        matches!(self, InstData::Jump { .. } | InstData::Brif { .. } | InstData::Return { .. })
    }

    /// Whether this is one of the atomic instructions (fences included).
    pub fn is_atomic(&self) -> bool {
        matches!(
            self,
            InstData::AtomicRmw { .. }
                | InstData::AtomicCas { .. }
                | InstData::AtomicLoad { .. }
                | InstData::AtomicStore { .. }
                | InstData::Fence { .. }
                | InstData::SurfaceRmw { .. }
                | InstData::SurfaceCas { .. }
        )
    }

    /// The memory address operand, for instructions that have one.
    pub fn address(&self) -> Option<Address> {
        match self {
            InstData::Load { addr, .. }
            | InstData::Store { addr, .. }
            | InstData::AtomicRmw { addr, .. }
            | InstData::AtomicCas { addr, .. }
            | InstData::AtomicLoad { addr, .. }
            | InstData::AtomicStore { addr, .. } => Some(*addr),
            _ => None,
        }
    }

    /// The branch targets of a terminator, in order.
    pub fn branch_targets(&self) -> SmallVec<[&BlockCall; 2]> {
        match self {
            InstData::Jump { dest } => smallvec::smallvec![dest],
            InstData::Brif { then_dest, else_dest, .. } => smallvec::smallvec![then_dest, else_dest],
            _ => SmallVec::new(),
        }
    }

    /// Mutable access to the branch targets of a terminator.
    pub fn branch_targets_mut(&mut self) -> SmallVec<[&mut BlockCall; 2]> {
        match self {
            InstData::Jump { dest } => smallvec::smallvec![dest],
            InstData::Brif { then_dest, else_dest, .. } => smallvec::smallvec![then_dest, else_dest],
            _ => SmallVec::new(),
        }
    }

    /// Every value operand, in text order (branch arguments included).
    pub fn args(&self) -> SmallVec<[Value; 4]> {
        let mut out = SmallVec::new();
        // The visitor only reads; cloning keeps one traversal for both uses.
        let mut copy = self.clone();
        copy.map_args(|v| {
            out.push(v);
            v
        });
        out
    }

    /// Replaces every value operand (branch arguments included) by `f(v)`,
    /// visiting them in text order.
    pub fn map_args(&mut self, mut f: impl FnMut(Value) -> Value) {
        let addr = |a: &mut Address, f: &mut dyn FnMut(Value) -> Value| a.ptr = f(a.ptr);
        match self {
            InstData::Iconst { .. }
            | InstData::Fconst { .. }
            | InstData::Special { .. }
            | InstData::Fence { .. }
            | InstData::Barrier => {}
            InstData::Unary { arg, .. } | InstData::Convert { arg, .. } => *arg = f(*arg),
            InstData::Binary { args, .. } | InstData::Icmp { args, .. } | InstData::Fcmp { args, .. } => {
                args[0] = f(args[0]);
                args[1] = f(args[1]);
            }
            InstData::Select { cond, args } => {
                *cond = f(*cond);
                args[0] = f(args[0]);
                args[1] = f(args[1]);
            }
            InstData::PtrAdd { ptr, offset } => {
                *ptr = f(*ptr);
                *offset = f(*offset);
            }
            InstData::PtrToGeneric { ptr } => *ptr = f(*ptr),
            InstData::Load { addr: a, .. } | InstData::AtomicLoad { addr: a, .. } => addr(a, &mut f),
            InstData::Store { value, addr: a } | InstData::AtomicStore { value, addr: a, .. } => {
                *value = f(*value);
                addr(a, &mut f);
            }
            InstData::AtomicRmw { addr: a, arg, .. } => {
                addr(a, &mut f);
                *arg = f(*arg);
            }
            InstData::AtomicCas { addr: a, expected, replacement, .. } => {
                addr(a, &mut f);
                *expected = f(*expected);
                *replacement = f(*replacement);
            }
            InstData::SurfaceRmw { access, coords, arg, .. } => {
                map_surface(access, &mut f);
                coords.iter_mut().for_each(|c| *c = f(*c));
                *arg = f(*arg);
            }
            InstData::SurfaceCas { access, coords, expected, replacement, .. } => {
                map_surface(access, &mut f);
                coords.iter_mut().for_each(|c| *c = f(*c));
                *expected = f(*expected);
                *replacement = f(*replacement);
            }
            InstData::Jump { dest } => dest.args.iter_mut().for_each(|a| *a = f(*a)),
            InstData::Brif { cond, then_dest, else_dest } => {
                *cond = f(*cond);
                then_dest.args.iter_mut().for_each(|a| *a = f(*a));
                else_dest.args.iter_mut().for_each(|a| *a = f(*a));
            }
            InstData::Return { args } => args.iter_mut().for_each(|a| *a = f(*a)),
        }
    }

    /// The type of the result, or `None` for instructions without one.
    /// `value_type` gives the types of operands (needed for ops whose
    /// result type follows an operand).
    pub fn result_type(&self, value_type: impl Fn(Value) -> Type) -> Option<Type> {
        match self {
            InstData::Iconst { ty, .. } | InstData::Fconst { ty, .. } => Some(*ty),
            InstData::Unary { arg, .. } => Some(value_type(*arg)),
            InstData::Binary { args, .. } | InstData::Select { args, .. } => Some(value_type(args[0])),
            InstData::Icmp { .. } | InstData::Fcmp { .. } => Some(Type::Pred),
            InstData::Convert { to, .. } => Some(*to),
            InstData::PtrAdd { ptr, .. } => Some(value_type(*ptr)),
            InstData::PtrToGeneric { .. } => Some(Type::Ptr(AddrSpace::Generic)),
            InstData::Special { .. } => Some(Type::I32),
            InstData::Load { ty, .. }
            | InstData::AtomicRmw { ty, .. }
            | InstData::AtomicCas { ty, .. }
            | InstData::AtomicLoad { ty, .. }
            | InstData::SurfaceRmw { ty, .. }
            | InstData::SurfaceCas { ty, .. } => Some(*ty),
            InstData::Store { .. }
            | InstData::AtomicStore { .. }
            | InstData::Fence { .. }
            | InstData::Barrier
            | InstData::Jump { .. }
            | InstData::Brif { .. }
            | InstData::Return { .. } => None,
        }
    }
}

fn map_surface(access: &mut SurfaceAccess, f: &mut impl FnMut(Value) -> Value) {
    if let crate::SurfaceRef::Handle(v) = &mut access.surface {
        *v = f(*v);
    }
}
