//! The reference interpreter: runs a kernel over a grid of threads, or a
//! function with return values on one thread, exactly as the doc comments
//! of [`InstData`](crate::InstData) and [`RmwOp`](crate::RmwOp) specify.
//! Every backend is tested against it.
//!
//! * **Threads and interleaving** — see [`sched`] (in short:
//!   all threads of all blocks round-robin in linear order, one
//!   instruction per turn; barriers per block; deadlocks and a step limit
//!   are errors).
//! * **Subgroups** — see [`InstData`](crate::InstData#subgroups): lanes of
//!   [`Launch::subgroup_size`] consecutive threads; a subgroup instruction
//!   parks its lane until the subgroup's other live lanes park too, then
//!   runs for the lanes that reached it together (`subgroup.rs`).
//! * **Memory and pointers** — see [`memory`]: global buffers
//!   at `0x1_0000_0000 * (i + 1)`, shared memory per block addressed by
//!   32-bit offsets, a shared window at [`SHARED_WINDOW_BASE`] in the
//!   generic space, surfaces bound at slots or named by handles.
//! * **Values** are bit patterns; integers wrap; floats round to nearest even
//!   once per operation, and an arithmetic NaN result is the canonical quiet
//!   NaN (`0x7e00`, `0x7fc00000`, `0x7ff8000000000000`, bf16 `0x7fc0`);
//!   `fneg`/`fabs` only touch the sign bit. See `float.rs`.
//! * **Memory orders and scopes** have no effect: the interleaving is
//!   sequentially consistent, so `fence` does nothing and every atomic is
//!   indivisible by construction. Plain loads and stores are also
//!   performed in one step each.
//! * **Errors** never panic: see [`InterpError`]; each run-time error names
//!   the instruction (`v5 = load`, `store`), its source position, and the
//!   thread. Undefined behaviour is an error (the list is `docs/ir.md`,
//!   "Undefined behaviour"): a barrier some threads of the block return
//!   without reaching ([`InterpError::BarrierNotReached`]) as much as an
//!   out-of-bounds access.
//! * **Run lines**: [`run_line`] executes the filetests' `; run:` language,
//!   described in [`runline`].
//!
//! ```
//! use atomc_ir::interp::{self, DataValue, Dim3, Launch, Memory};
//! use atomc_ir::{AddrSpace, FunctionBuilder, MemOrder, RmwOp, Scope, Type};
//!
//! let mut b = FunctionBuilder::new("count", &[Type::Ptr(AddrSpace::Global)]);
//! let p = b.param(0);
//! let one = b.iconst(Type::I32, 1);
//! b.atomic_rmw(RmwOp::Add, Type::I32, MemOrder::Relaxed, Scope::Gpu, p, 0, one);
//! b.ret(&[]);
//! let func = b.finish();
//!
//! let mut mem = Memory::new();
//! let buf = mem.add_buffer(vec![0; 4]);
//! let arg = DataValue::Ptr(AddrSpace::Global, mem.buffer_addr(buf));
//! interp::run_kernel(&func, &Launch::new(Dim3::x(2), Dim3::x(128), vec![arg]), &mut mem).unwrap();
//! assert_eq!(mem.buffer(buf), &256u32.to_le_bytes());
//!
//! interp::run_line(&func, "grid 2 block 128 args(b0) b0: i32[1] = 0 => b0 == [256]").unwrap();
//! ```

mod arith;
mod bits;
mod decode;
mod error;
mod exec;
mod float;
pub mod memory;
pub mod runline;
pub mod sched;
mod subgroup;
mod value;

pub use decode::Program;
pub use error::{InterpError, Site};
pub use float::{bf16_bits_to_f32, f16_bits_to_f32, f32_to_bf16_bits, f32_to_f16_bits};
pub use memory::{
    BufferId, Memory, Surface, SurfaceId, GLOBAL_BASE, MAX_BUFFER_BYTES, SHARED_WINDOW_BASE,
    SURFACE_HANDLE_BASE,
};
pub use runline::{parse_run_line, run_line, KernelParam, RunLineError, RunReport, RunSpec};
pub use sched::{
    Dim3, Launch, RunStats, DEFAULT_STEP_LIMIT, DEFAULT_SUBGROUP_SIZE, MAX_SHARED_BYTES, MAX_THREADS,
};
pub use value::DataValue;

use crate::Function;
use sched::Machine;

impl Program<'_> {
    /// Runs the kernel over `launch.grid` × `launch.block` threads against
    /// `mem`. The function may also return values (each thread's are
    /// dropped).
    pub fn launch(&self, launch: &Launch, mem: &mut Memory) -> Result<RunStats, InterpError> {
        let mut m = Machine::new(self, mem, launch)?;
        m.run(launch.step_limit)
    }

    /// Runs the function on a single thread (grid 1, block 1) with the
    /// given arguments and memory, and returns its return values.
    pub fn call_with_memory(
        &self,
        args: &[DataValue],
        mem: &mut Memory,
    ) -> Result<Vec<DataValue>, InterpError> {
        let launch = Launch::new(Dim3::x(1), Dim3::x(1), args.to_vec());
        let mut m = Machine::new(self, mem, &launch)?;
        m.run(launch.step_limit)?;
        let bits = m.ret.take().unwrap_or_default();
        Ok(self
            .func
            .returns
            .iter()
            .zip(bits)
            .map(|(&ty, b)| DataValue::from_bits(ty, b))
            .collect())
    }
}

/// `new` of a read-modify-write of type `ty`: `op(old, x)` with the interpreter's semantics
/// (wrapping integers, the float rules of `float.rs`). For emulators of machine atomics, so
/// that they agree with the interpreter by construction.
pub fn rmw(op: crate::RmwOp, ty: crate::Type, old: u64, x: u64) -> u64 {
    arith::rmw(op, ty, old, x)
}

/// Decodes and launches a kernel (see [`Program::launch`]).
pub fn run_kernel(
    func: &Function,
    launch: &Launch,
    mem: &mut Memory,
) -> Result<RunStats, InterpError> {
    Program::new(func)?.launch(launch, mem)
}

/// Calls a function on one thread with no memory; returns its results.
pub fn call(func: &Function, args: &[DataValue]) -> Result<Vec<DataValue>, InterpError> {
    Program::new(func)?.call_with_memory(args, &mut Memory::new())
}

/// Calls a function on one thread with one scratch global buffer of
/// `scratch_bytes` zeroed bytes at [`GLOBAL_BASE`] (for code translated from
/// stack-slot users, which address the scratch buffer by that constant).
/// Returns the results and the scratch buffer's final contents.
pub fn call_with_scratch(
    func: &Function,
    args: &[DataValue],
    scratch_bytes: usize,
) -> Result<(Vec<DataValue>, Vec<u8>), InterpError> {
    let mut mem = Memory::new();
    let id = mem.add_buffer(vec![0; scratch_bytes]);
    let out = Program::new(func)?.call_with_memory(args, &mut mem)?;
    Ok((out, mem.buffer(id).to_vec()))
}
