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
use crate::{AddrSpace, Block, SharedVar, Type, Value};
use smallvec::SmallVec;

/// Visits every value operand of an instruction in text order, branch arguments included:
/// `$visit` runs with `$v` bound to each operand's place, a `&Value` when `$inst` is a
/// `&InstData` and a `&mut Value` when it is a `&mut InstData` (the patterns bind by
/// reference either way). Reading and rewriting operands share this one list, so they
/// cannot disagree about order or coverage.
macro_rules! value_operands {
    ($inst:expr, $v:ident => $visit:expr) => {{
        macro_rules! visit {
            ($place:expr) => {{
                let $v = $place;
                $visit;
            }};
        }
        match $inst {
            InstData::Iconst { .. }
            | InstData::Fconst { .. }
            | InstData::Special { .. }
            | InstData::SharedAddr { .. }
            | InstData::Fence { .. }
            | InstData::Barrier
            | InstData::ActiveMask => {}
            InstData::Unary { arg, .. }
            | InstData::Convert { arg, .. }
            | InstData::Vote { arg, .. }
            | InstData::MatchAny { arg }
            | InstData::Reduce { arg, .. }
            | InstData::Ballot { cond: arg }
            | InstData::PtrToGeneric { ptr: arg }
            | InstData::Load { addr: Address { ptr: arg, .. }, .. }
            | InstData::AtomicLoad { addr: Address { ptr: arg, .. }, .. } => visit!(arg),
            InstData::Shuffle { args, .. } | InstData::Binary { args, .. } | InstData::Icmp { args, .. } | InstData::Fcmp { args, .. } => {
                for a in args {
                    visit!(a)
                }
            }
            InstData::Ternary { args, .. } => {
                for a in args {
                    visit!(a)
                }
            }
            InstData::Bfi { args } => {
                for a in args {
                    visit!(a)
                }
            }
            InstData::Select { cond, args } => {
                visit!(cond);
                for a in args {
                    visit!(a)
                }
            }
            InstData::PtrAdd { ptr, offset } => {
                visit!(ptr);
                visit!(offset);
            }
            InstData::Store { value, addr: Address { ptr, .. } } | InstData::AtomicStore { value, addr: Address { ptr, .. }, .. } => {
                visit!(value);
                visit!(ptr);
            }
            InstData::AtomicRmw { addr: Address { ptr, .. }, arg, .. } => {
                visit!(ptr);
                visit!(arg);
            }
            InstData::AtomicCas { addr: Address { ptr, .. }, expected, replacement, .. } => {
                visit!(ptr);
                visit!(expected);
                visit!(replacement);
            }
            InstData::SurfaceRmw { access, coords, arg, .. } => {
                if let SurfaceAccess { surface: crate::SurfaceRef::Handle(h), .. } = access {
                    visit!(h)
                }
                for c in coords {
                    visit!(c)
                }
                visit!(arg);
            }
            InstData::SurfaceCas { access, coords, expected, replacement, .. } => {
                if let SurfaceAccess { surface: crate::SurfaceRef::Handle(h), .. } = access {
                    visit!(h)
                }
                for c in coords {
                    visit!(c)
                }
                visit!(expected);
                visit!(replacement);
            }
            InstData::Jump { dest: BlockCall { args, .. } } => {
                for a in args {
                    visit!(a)
                }
            }
            InstData::Brif { cond, then_dest: BlockCall { args: then_args, .. }, else_dest: BlockCall { args: else_args, .. } } => {
                visit!(cond);
                for a in then_args {
                    visit!(a)
                }
                for a in else_args {
                    visit!(a)
                }
            }
            InstData::Return { args } => {
                for a in args {
                    visit!(a)
                }
            }
        }
    }};
}

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
        /// Population count: the number of one bits of an integer, as that
        /// integer type (`popcnt.i64` of all ones is 64).
        Popcnt = "popcnt",
        /// Count leading zeros of an integer: the zero bits above its highest
        /// one bit; the type's width for 0.
        Clz = "clz",
        /// Count trailing zeros of an integer: the zero bits below its lowest
        /// one bit; the type's width for 0.
        Ctz = "ctz",
        /// Bit reversal of an integer: bit `i` of the result is bit
        /// `width - 1 - i` of the operand.
        Bitrev = "bitrev",
    }
}

keyword_enum! {
    /// Two-operand arithmetic. Both operands and the result have one type:
    /// an integer type for the `i`/`u`/`s`/`b` ops, a scalar float type
    /// for the `f` ops. Shifts take the shift amount modulo the bit width (`amount & (width -
    /// 1)`, read as unsigned). docs/ir.md, "What the instructions compute", states every edge.
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
        /// The high half of the full `2 × width`-bit product of two unsigned
        /// integers (`umulhi.i32 a, b` = `(a as u64 * b as u64) >> 32`).
        Umulhi = "umulhi",
        /// The high half of the full `2 × width`-bit product of two signed
        /// integers (two's complement), on every integer width.
        Smulhi = "smulhi",
    }
}

keyword_enum! {
    /// Three-operand arithmetic; the result has the first operand's type.
    ///
    /// The bit-field extracts take the field's position and length from the
    /// low 8 bits of their `i32` operands (as PTX's `bfe` does): `p = pos &
    /// 0xff`, `l = len & 0xff`. Field bits at or above the type's width read
    /// as zero (`ubfe`) or as the sign bit of the value (`sbfe`).
    pub enum TernaryOp {
        /// `fma a, b, c`: `a × b + c` with a single rounding (round to nearest
        /// even), on one scalar float type; NaN results are the canonical NaN.
        Fma = "fma",
        /// `ubfe x, pos, len`: the unsigned bit field of integer `x` at bit `p`,
        /// `l` bits long, zero-extended: bit `i < l` of the result is bit
        /// `p + i` of `x` (zero where `p + i >= width`); 0 when `l` is 0.
        Ubfe = "ubfe",
        /// `sbfe x, pos, len`: the signed bit field: as `ubfe`, then
        /// sign-extended from the field's top bit, which is bit
        /// `min(p + l, width) - 1` of `x` (so a field reaching past the top
        /// takes `x`'s sign bit); 0 when `l` is 0, and a field starting at or
        /// above the width is all copies of `x`'s sign bit.
        Sbfe = "sbfe",
    }
}

impl TernaryOp {
    /// Whether the op works on floats (else on integers).
    pub fn is_float(self) -> bool {
        self == TernaryOp::Fma
    }
}

keyword_enum! {
    /// The votes of `vote_*`: one `pred` for every active lane of the subgroup.
    pub enum VoteOp {
        /// `vote_any c`: whether `c` is true in at least one active lane.
        Any = "vote_any",
        /// `vote_all c`: whether `c` is true in every active lane.
        All = "vote_all",
        /// `vote_eq x`: whether `x` has one bit pattern in every active lane
        /// (any value type but `surface`; a `pred` too).
        Eq = "vote_eq",
    }
}

keyword_enum! {
    /// Where `shuffle` reads from. `n` is the subgroup size, `lane` this
    /// lane's index, `y` the second operand (an `i32`, read as unsigned).
    pub enum ShuffleMode {
        /// Lane `y mod n`.
        Idx = "idx",
        /// Lane `lane - y`; out of range (`y > lane`) reads this lane's own value.
        Up = "up",
        /// Lane `lane + y`; out of range (`lane + y >= n`) reads this lane's own value.
        Down = "down",
        /// Lane `lane ^ (y mod n)` (a butterfly).
        Xor = "xor",
    }
}

keyword_enum! {
    /// The combining op of `reduce`: integers only, over the active lanes.
    pub enum ReduceOp {
        /// Wrapping sum.
        Add = "add",
        /// Unsigned minimum.
        Umin = "umin",
        /// Unsigned maximum.
        Umax = "umax",
        /// Signed minimum.
        Smin = "smin",
        /// Signed maximum.
        Smax = "smax",
        /// Bitwise and.
        And = "and",
        /// Bitwise or.
        Or = "or",
        /// Bitwise exclusive or.
        Xor = "xor",
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
        /// Lane index within the subgroup, `0 .. n` (a warp's lane on NVIDIA,
        /// the SIMD lane on vISA; see [Subgroups](InstData#subgroups)).
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
///
/// # Subgroups
///
/// The threads of a block form *subgroups* of `n` consecutive threads in
/// block order (linear thread index, x fastest): lanes `0 .. n` of subgroup
/// `k` are threads `k·n .. k·n + n`, and `lane_id` is the index within it.
/// `n` is the target's: 32 on NVIDIA (a warp); on Intel the kernel's SIMD
/// width (8, 16 or 32); 32 in the interpreter unless the run line says
/// `subgroup N` (a power of two, 1 to 32). The last subgroup of a block
/// whose size is not a multiple of `n` is partial: its missing lanes are
/// never active.
///
/// The subgroup instructions (`active_mask`, `ballot`, `vote_*`, `shuffle`,
/// `match_any`, `reduce`) are executed by the subgroup's *active lanes*
/// together: the lanes that reach the same instruction together. Control
/// flow decides which lanes those are: every lane starts converged; a
/// `brif` whose condition differs between lanes splits them, and the lanes
/// reconverge where the paths meet again (the branch's immediate
/// post-dominator). A lane that has returned is inactive. Precisely, a
/// lane that reaches a subgroup instruction waits until every other live
/// lane of its subgroup also waits (at a subgroup instruction or a
/// `barrier`). Then the lanes waiting at a subgroup instruction `S` execute
/// it together, unless other lanes wait at a subgroup instruction `T` from
/// which `S` can be reached but which cannot be reached from `S` (those are
/// behind: `S` waits for them); the rest keep waiting. A lane that never
/// waits (one that spins on memory another lane of its subgroup writes only
/// after a subgroup instruction) holds its subgroup back.
///
/// Results are defined for every active lane; inactive lanes take no part
/// (a `ballot` bit of an inactive lane is 0, a `shuffle` from an inactive
/// lane reads the reader's own value).
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
    /// `vN = op a, b, c`: see [`TernaryOp`]. `fma` takes three operands of
    /// one scalar float type; `ubfe`/`sbfe` an integer and two `i32`s.
    Ternary { op: TernaryOp, args: [Value; 3] },
    /// `vN = bfi x, base, pos, len`: bit-field insert. `x` and `base` have
    /// one integer type, the result's; `pos` and `len` are `i32`s of which
    /// the low 8 bits count (`p`, `l`, as for [`TernaryOp::Ubfe`]). The result
    /// is `base` with bits `p .. p + l` replaced by the low `l` bits of `x`;
    /// bits at or above the width are dropped (so `base` when `l` is 0 or
    /// `p >= width`).
    Bfi { args: [Value; 4] },
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
    /// `vN = shared_addr smK`: the address of the kernel's shared variable `smK` (declared
    /// `smK = shared SIZE, align A` before the first block), a `ptr.shared` to its first byte.
    /// Every thread of a block sees the same variable; each block has its own. See
    /// [`Function::shared_layout`](crate::Function::shared_layout) for where it lies.
    SharedAddr { var: SharedVar },
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
    /// `vN = active_mask`: the subgroup's active lanes as an `i32` mask
    /// (bit `i` is lane `i`). See [Subgroups](InstData#subgroups).
    ActiveMask,
    /// `vN = ballot c`: an `i32` mask of the active lanes whose `pred` `c`
    /// is true (bit `i` is lane `i`; inactive lanes' bits are 0).
    Ballot { cond: Value },
    /// `vN = vote_any c` etc.: see [`VoteOp`]; result `pred`, the same in
    /// every active lane.
    Vote { op: VoteOp, arg: Value },
    /// `vN = shuffle mode x, y`: `x` as the source lane given by `mode` and
    /// the `i32` `y` has it (see [`ShuffleMode`]). `x` is an integer, float,
    /// packed float or pointer; the result has its type. A source lane that
    /// is out of range (`up`, `down`), inactive, or past the last thread of
    /// a partial subgroup gives this lane's own `x`.
    Shuffle { mode: ShuffleMode, args: [Value; 2] },
    /// `vN = match_any x`: an `i32` mask of the active lanes whose `x` has
    /// this lane's bit pattern (this lane's bit always set). `x` is an
    /// integer, float, packed float or pointer.
    MatchAny { arg: Value },
    /// `vN = reduce op x`: `op` (see [`ReduceOp`]) over the integer `x` of
    /// every active lane; every active lane gets the result, of `x`'s type.
    Reduce { op: ReduceOp, arg: Value },
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
            InstData::SharedAddr { .. } => "shared_addr",
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
            InstData::Ternary { op, .. } => op.name(),
            InstData::Bfi { .. } => "bfi",
            InstData::ActiveMask => "active_mask",
            InstData::Ballot { .. } => "ballot",
            InstData::Vote { op, .. } => op.name(),
            InstData::Shuffle { .. } => "shuffle",
            InstData::MatchAny { .. } => "match_any",
            InstData::Reduce { .. } => "reduce",
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

    /// Whether this is a subgroup instruction (executed by the active lanes
    /// of a subgroup together; see [Subgroups](InstData#subgroups)).
    pub fn is_subgroup(&self) -> bool {
        matches!(
            self,
            InstData::ActiveMask
                | InstData::Ballot { .. }
                | InstData::Vote { .. }
                | InstData::Shuffle { .. }
                | InstData::MatchAny { .. }
                | InstData::Reduce { .. }
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
        self.for_each_arg(|v| out.push(v));
        out
    }

    /// Calls `f` on every value operand, in [`InstData::map_args`]'s order.
    pub fn for_each_arg(&self, mut f: impl FnMut(Value)) {
        value_operands!(self, v => f(*v));
    }

    /// Replaces every value operand (branch arguments included) by `f(v)`,
    /// visiting them in text order.
    pub fn map_args(&mut self, mut f: impl FnMut(Value) -> Value) {
        value_operands!(self, v => *v = f(*v));
    }

    /// The type of the result, or `None` for instructions without one.
    /// `value_type` gives the types of operands (needed for ops whose
    /// result type follows an operand).
    pub fn result_type(&self, value_type: impl Fn(Value) -> Type) -> Option<Type> {
        match self {
            InstData::Iconst { ty, .. } | InstData::Fconst { ty, .. } => Some(*ty),
            InstData::Unary { arg, .. } | InstData::Reduce { arg, .. } => Some(value_type(*arg)),
            InstData::Ternary { args, .. } => Some(value_type(args[0])),
            InstData::Bfi { args } => Some(value_type(args[0])),
            InstData::Shuffle { args, .. } => Some(value_type(args[0])),
            InstData::ActiveMask | InstData::Ballot { .. } | InstData::MatchAny { .. } => Some(Type::I32),
            InstData::Vote { .. } => Some(Type::Pred),
            InstData::Binary { args, .. } | InstData::Select { args, .. } => Some(value_type(args[0])),
            InstData::Icmp { .. } | InstData::Fcmp { .. } => Some(Type::Pred),
            InstData::Convert { to, .. } => Some(*to),
            InstData::PtrAdd { ptr, .. } => Some(value_type(*ptr)),
            InstData::PtrToGeneric { .. } => Some(Type::Ptr(AddrSpace::Generic)),
            InstData::Special { .. } => Some(Type::I32),
            InstData::SharedAddr { .. } => Some(Type::Ptr(AddrSpace::Shared)),
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

