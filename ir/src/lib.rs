//! atomc's intermediate representation: a small SSA IR for GPU kernels with
//! first-class atomics.
//!
//! The IR is CLIF-like: a [`Function`] is a list of blocks with parameters,
//! each a list of instructions over SSA [`Value`]s. On top of CLIF it knows
//! address spaces ([`AddrSpace`]), memory order and scope on every atomic
//! ([`MemOrder`], [`Scope`]), surfaces ([`SurfaceAccess`]), per-thread
//! hardware ids ([`SpecialReg`]) and kernel parameters (the entry block's
//! parameters).
//!
//! ```text
//! function %count(ptr.global) {
//! block0(v0: ptr.global):
//!     v1 = iconst.i32 1
//!     v2 = atomic_rmw.i32 add relaxed gpu v0, v1
//!     return
//! }
//! ```
//!
//! The doc comments of [`InstData`] and of the enums it uses are the
//! specification of each instruction; `docs/ir.md` gives the grammar.

mod atomics;
pub mod builder;
mod function;
mod instructions;
mod keywords;
mod types;

pub mod diagnostic;
pub mod interp;
pub mod parse;
pub mod print;
pub mod verify;

pub use atomics::{
    MemOrder, RmwOp, Scope, SurfaceAccess, SurfaceAddressing, SurfaceClamp, SurfaceDim, SurfaceRef,
};
pub use builder::FunctionBuilder;
pub use function::{
    Block, BlockData, Function, Inst, SharedLayout, SharedVar, SharedVarData, SrcLoc, Value, ValueData, ValueDef,
};
pub use instructions::{
    Address, BinaryOp, BlockCall, ConvOp, FloatCC, InstData, IntCC, ReduceOp, ShuffleMode, SpecialReg,
    TernaryOp, UnaryOp, VoteOp, MAX_ADDRESS_OFFSET,
};
pub use types::{AddrSpace, Type};
