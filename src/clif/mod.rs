//! Cranelift IR in: translate a [`cranelift_codegen::ir::Function`] (built
//! with `cranelift-frontend`'s `FunctionBuilder`, or read from `.clif`
//! text) into an atomc IR [`Function`](atomc_ir::Function), then compile it
//! like any other atomc function.
//!
//! Many Rust front ends already produce CLIF; this module lets them target
//! GPU atomics without learning a second IR. The translation is one pass
//! over the function's reachable blocks in reverse postorder.
//!
//! # Example: an atomic histogram, from `FunctionBuilder` to SASS
//!
//! ```
//! use cranelift_codegen::ir::{self, types, AbiParam, InstBuilder, MemFlagsData, UserFuncName};
//! use cranelift_codegen::ir::AtomicRmwOp;
//! use cranelift_codegen::isa::CallConv;
//! use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
//! use atomc::{clif, Emit, Output, Target};
//!
//! // fn hist(base: *mut u32, bucket: u32) { atomic_add(base + 4 * bucket, 1) }
//! let mut sig = ir::Signature::new(CallConv::SystemV);
//! sig.params.push(AbiParam::new(types::I64)); // base
//! sig.params.push(AbiParam::new(types::I32)); // bucket
//! let mut func = ir::Function::with_name_signature(UserFuncName::testcase("hist"), sig);
//! let mut ctx = FunctionBuilderContext::new();
//! let mut b = FunctionBuilder::new(&mut func, &mut ctx);
//! let entry = b.create_block();
//! b.append_block_params_for_function_params(entry);
//! b.switch_to_block(entry);
//! b.seal_block(entry);
//! let (base, bucket) = (b.block_params(entry)[0], b.block_params(entry)[1]);
//! let bucket64 = b.ins().uextend(types::I64, bucket);
//! let four = b.ins().iconst(types::I64, 4);
//! let offset = b.ins().imul(bucket64, four);
//! let addr = b.ins().iadd(base, offset);
//! let one = b.ins().iconst(types::I32, 1);
//! b.ins().atomic_rmw(types::I32, MemFlagsData::trusted(), AtomicRmwOp::Add, addr, one);
//! b.ins().return_(&[]);
//! b.finalize(clif::frontend_config());
//!
//! // CLIF atomics are sequentially consistent; atomc makes that explicit
//! // (`seq_cst` at the scope of `ImportOptions::scope`, `gpu` by default),
//! // and `base` becomes a `ptr.global` kernel parameter.
//! let kernel = clif::import(&func, &clif::ImportOptions::default()).expect("imports");
//! println!("{kernel}");
//! assert!(kernel.to_string().contains("atomic_rmw.i32 add seq_cst gpu"));
//!
//! match atomc::compile(&kernel, Target::Sm90, Emit::Asm).expect("compiles") {
//!     Output::Text(sass) => {
//!         println!("{sass}");
//!         assert!(sass.contains("ATOM") || sass.contains("RED"));
//!     }
//!     Output::Binary(_) => unreachable!("--emit asm is text"),
//! }
//! ```
//!
//! # Kernels: GPU intrinsics, address spaces, orders
//!
//! CLIF has no thread ids, no barrier, one kind of memory and one kind of
//! atomic. A kernel gets them through **calls of imported functions with
//! agreed names** (test-case names, `%atomc_...` in CLIF text;
//! [`intrinsic`] declares one in a `FunctionBuilder`). A call of such a name
//! is not a call: it becomes the atomc instruction below. `T` is any type the
//! atomc instruction takes for the op (the signature's types say which); an
//! `<order>` is `relaxed acquire release acq_rel seq_cst` and a `<scope>`
//! `cta gpu sys`.
//!
//! | intrinsic (callee name) | signature | atomc |
//! | --- | --- | --- |
//! | `atomc_thread_id_x` `_y` `_z`, `atomc_block_id_*`, `atomc_block_dim_*`, `atomc_grid_dim_*`, `atomc_lane_id` | `() -> i32` | `thread_id.x` .. `lane_id` |
//! | `atomc_barrier` | `()` | `barrier` (the block's threads meet; shared memory written before is visible after) |
//! | `atomc_shared` | `(i32) -> i64` | `bitcast.ptr.shared`: the address of that byte offset in the block's shared memory (an imported kernel declares no shared variables, so offset 0 is the start of the launch's dynamic shared memory) |
//! | `atomc_atomic_rmw_<op>_<order>_<scope>` | `(i64, T) -> T` | `atomic_rmw.T <op> <order> <scope>`, `<op>` one of atomc's ([`RmwOp`](atomc_ir::RmwOp): `add` .. `umax`, `fadd`, `fmin`, `fmax`, `inc_wrap`, `dec_wrap`) |
//! | `atomc_atomic_cas_<order>_<scope>` | `(i64, T, T) -> T` | `atomic_cas.T <order> <scope>` (address, expected, replacement) |
//! | `atomc_atomic_load_<order>_<scope>` | `(i64) -> T` | `atomic_load.T <order> <scope>` |
//! | `atomc_atomic_store_<order>_<scope>` | `(T, i64)` | `atomic_store.T <order> <scope>` (value first, as CLIF's `atomic_store`) |
//! | `atomc_fence_<order>_<scope>` | `()` | `fence <order> <scope>` |
//!
//! For example `%atomc_atomic_rmw_add_relaxed_gpu(i64, i32) -> i32` is a
//! relaxed 32-bit add at gpu scope, and `%atomc_fence_acq_rel_cta()` a
//! block-scoped fence.
//!
//! **Address spaces follow the address**, not the access: an address
//! computed from `atomc_shared` (through `iadd`/`isub`, as any CLIF
//! address) is a shared-memory address for every load, store and atomic
//! that uses it; a pointer parameter is in [`ImportOptions::address_space`]
//! (`global`). So one function can count into shared bins and add the bins
//! into a global histogram, as CUDA kernels do.
//!
//! **Order and scope** are per access: the intrinsic's name carries them.
//! CLIF's own `atomic_rmw`, `atomic_cas`, `atomic_load`, `atomic_store` and
//! `fence` keep their CLIF meaning, `seq_cst` at [`ImportOptions::scope`]:
//! on sm_90 that costs a `MEMBAR.SC` and the cache invalidations around each
//! one, which a relaxed counter does not need.
//!
//! Why calls and not `MemFlags` bits: a call's name and signature are
//! visible in the text and checked at import, and the same CLIF still means
//! something sane to a CPU backend (a call of an external function), while
//! every `MemFlags` field (alias region, trap code, endianness) already
//! means something to Cranelift's optimiser. Misuse is an [`ImportError`]
//! naming the call: an `atomc_` name that is no intrinsic (a typo, an order
//! or scope atomc lacks), a signature other than the table's, or an rmw op
//! on a type it does not take. Calls of other names are rejected as before.
//!
//! ## A relaxed atomic counter
//!
//! ```
//! use cranelift_codegen::ir::{self, types, AbiParam, InstBuilder, UserFuncName};
//! use cranelift_codegen::isa::CallConv;
//! use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
//! use atomc::{clif, Target};
//!
//! // fn count(counter: *mut u32) { atomic_add_relaxed_gpu(counter, 1) }
//! let mut sig = ir::Signature::new(CallConv::SystemV);
//! sig.params.push(AbiParam::new(types::I64));
//! let mut func = ir::Function::with_name_signature(UserFuncName::testcase("count"), sig);
//! let mut ctx = FunctionBuilderContext::new();
//! let mut b = FunctionBuilder::new(&mut func, &mut ctx);
//! let add = clif::intrinsic(&mut b, "atomc_atomic_rmw_add_relaxed_gpu", &[types::I64, types::I32], &[types::I32]);
//! let entry = b.create_block();
//! b.append_block_params_for_function_params(entry);
//! b.switch_to_block(entry);
//! b.seal_block(entry);
//! let counter = b.block_params(entry)[0];
//! let one = b.ins().iconst(types::I32, 1);
//! b.ins().call(add, &[counter, one]);
//! b.ins().return_(&[]);
//! b.finalize(clif::frontend_config());
//!
//! let kernel = clif::import(&func, &clif::ImportOptions::default()).expect("imports");
//! assert!(kernel.to_string().contains("atomic_rmw.i32 add relaxed gpu"));
//! let sass = atomc::compile_kernel(&kernel, Target::Sm90, &Default::default()).expect("compiles").listing();
//! assert!(sass.contains("REDG.E.ADD.STRONG.GPU"), "{sass}");
//! assert!(!sass.contains("MEMBAR"), "a relaxed counter needs no fence:\n{sass}");
//! ```
//!
//! ## A shared-memory histogram
//!
//! Each block counts into 16 bins in shared memory (relaxed, cta scope),
//! then thread `b < 16` adds bin `b` into the global histogram (relaxed,
//! gpu scope). One element per thread; launch with 64 bytes of shared
//! memory.
//!
//! ```
//! use cranelift_codegen::ir::{self, condcodes::IntCC, types, AbiParam, InstBuilder, MemFlagsData, UserFuncName};
//! use cranelift_codegen::isa::CallConv;
//! use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
//! use atomc::{clif, Target};
//! use types::{I32, I64};
//!
//! // fn histogram(data: *const u32, n: u32, hist: *mut u32)
//! let mut sig = ir::Signature::new(CallConv::SystemV);
//! sig.params.extend([AbiParam::new(I64), AbiParam::new(I32), AbiParam::new(I64)]);
//! let mut func = ir::Function::with_name_signature(UserFuncName::testcase("histogram"), sig);
//! let mut ctx = FunctionBuilderContext::new();
//! let mut b = FunctionBuilder::new(&mut func, &mut ctx);
//! let tid_x = clif::intrinsic(&mut b, "atomc_thread_id_x", &[], &[I32]);
//! let bid_x = clif::intrinsic(&mut b, "atomc_block_id_x", &[], &[I32]);
//! let bdim_x = clif::intrinsic(&mut b, "atomc_block_dim_x", &[], &[I32]);
//! let shared = clif::intrinsic(&mut b, "atomc_shared", &[I32], &[I64]);
//! let barrier = clif::intrinsic(&mut b, "atomc_barrier", &[], &[]);
//! let add_cta = clif::intrinsic(&mut b, "atomc_atomic_rmw_add_relaxed_cta", &[I64, I32], &[I32]);
//! let add_gpu = clif::intrinsic(&mut b, "atomc_atomic_rmw_add_relaxed_gpu", &[I64, I32], &[I32]);
//! let call = |b: &mut FunctionBuilder, f, args: &[ir::Value]| {
//!     let inst = b.ins().call(f, args);
//!     b.inst_results(inst).first().copied()
//! };
//! let flags = MemFlagsData::trusted();
//! let [entry, zero_bin, count, counted, flush, add_bin, done] = [(); 7].map(|_| b.create_block());
//! b.append_block_params_for_function_params(entry);
//! b.switch_to_block(entry);
//! let (data, n, hist) = (b.block_params(entry)[0], b.block_params(entry)[1], b.block_params(entry)[2]);
//! let tid = call(&mut b, tid_x, &[]).unwrap();
//! let zero = b.ins().iconst(I32, 0);
//! let bins = call(&mut b, shared, &[zero]).unwrap(); // the block's bins, shared offset 0
//! let tid4 = b.ins().imul_imm_u(tid, 4);
//! let tid4 = b.ins().uextend(I64, tid4);
//! let my_bin = b.ins().iadd(bins, tid4); // &bins[tid]: a shared address
//! let owner = b.ins().icmp_imm_u(IntCC::UnsignedLessThan, tid, 16);
//! b.ins().brif(owner, zero_bin, &[], count, &[]);
//! b.switch_to_block(zero_bin);
//! b.ins().store(flags, zero, my_bin, 0);
//! b.ins().jump(count, &[]);
//! b.switch_to_block(count);
//! call(&mut b, barrier, &[]); // the bins are zero before anyone counts
//! let bid = call(&mut b, bid_x, &[]).unwrap();
//! let bdim = call(&mut b, bdim_x, &[]).unwrap();
//! let i = b.ins().imul(bid, bdim);
//! let i = b.ins().iadd(i, tid);
//! let in_range = b.ins().icmp(IntCC::UnsignedLessThan, i, n);
//! b.ins().brif(in_range, counted, &[], flush, &[]);
//! b.switch_to_block(counted);
//! let i4 = b.ins().imul_imm_u(i, 4);
//! let i4 = b.ins().uextend(I64, i4);
//! let at = b.ins().iadd(data, i4);
//! let x = b.ins().load(I32, flags, at, 0);
//! let bin = b.ins().band_imm_u(x, 15);
//! let bin4 = b.ins().imul_imm_u(bin, 4);
//! let bin4 = b.ins().uextend(I64, bin4);
//! let slot = b.ins().iadd(bins, bin4); // &bins[bin]: shared too
//! let one = b.ins().iconst(I32, 1);
//! call(&mut b, add_cta, &[slot, one]);
//! b.ins().jump(flush, &[]);
//! b.switch_to_block(flush);
//! call(&mut b, barrier, &[]); // every count of the block is in
//! b.ins().brif(owner, add_bin, &[], done, &[]);
//! b.switch_to_block(add_bin);
//! let mine = b.ins().load(I32, flags, my_bin, 0);
//! let global = b.ins().iadd(hist, tid4); // &hist[tid]: a global address
//! call(&mut b, add_gpu, &[global, mine]);
//! b.ins().jump(done, &[]);
//! b.switch_to_block(done);
//! b.ins().return_(&[]);
//! b.seal_all_blocks();
//! b.finalize(clif::frontend_config());
//!
//! let kernel = clif::import(&func, &clif::ImportOptions::default()).expect("imports");
//! let text = kernel.to_string();
//! assert!(text.contains("function %histogram(ptr.global, i32, ptr.global)"), "{text}");
//! assert!(text.contains("atomic_rmw.i32 add relaxed cta"), "{text}");
//! assert!(text.contains("atomic_rmw.i32 add relaxed gpu"), "{text}");
//! let k = atomc::compile_kernel(&kernel, Target::Sm90, &Default::default()).expect("compiles");
//! let sass = k.listing();
//! assert!(sass.contains("BAR.SYNC"), "{sass}");
//! assert!(sass.contains("ATOMS.") || sass.contains("REDS."), "a shared-memory atomic:\n{sass}");
//! assert!(sass.contains("REDG.E.ADD.STRONG.GPU"), "{sass}");
//! assert!(!sass.contains("MEMBAR"), "{sass}");
//! assert_eq!(k.usage().expect("described").barriers, 1);
//! ```
//!
//! # How CLIF maps to atomc
//!
//! | CLIF | atomc |
//! | --- | --- |
//! | `iconst`, `f16const`, `f32const`, `f64const` | `iconst`, `fconst` |
//! | `iadd isub imul udiv sdiv urem srem band bor bxor ishl ushr sshr umin umax smin smax umulhi smulhi` | the same binary op (shift amounts converted to the shifted type) |
//! | `iabs`, `bitselect` | expanded with `icmp`/`select`, `band`/`bnot`/`bor` |
//! | `ineg bnot fneg fabs`, `fadd fsub fmul fdiv`, `fma` | the same op |
//! | `fmin fmax` (NaN-propagating) | atomc's `fmin`/`fmax` (minNum/maxNum) plus a `select` that returns NaN when an operand is NaN |
//! | `icmp`, `fcmp` | `icmp`/`fcmp` producing a `pred`; `one ueq ult ule ugt uge` as the negation of an ordered compare. Where CLIF uses the result as an `i8`, a `select` makes 0 or 1 |
//! | `select`, `select_spectre_guard` | `select` (a non-`pred` condition is compared with 0) |
//! | `uextend sextend ireduce fpromote fdemote fcvt_*`, `bitcast` | the same conversion (CLIF's trapping `fcvt_to_*int` become atomc's saturating ones) |
//! | `load`, `uload8`..`sload32`, `store`, `istore8`..`istore32` | `load`/`store` (+ `uextend`/`sextend`/`ireduce`) |
//! | `atomic_rmw add sub and nand or xor xchg umin umax smin smax` | `atomic_rmw` with the same op |
//! | `atomic_cas`, `atomic_load`, `atomic_store`, `fence` | the same instruction, `seq_cst` at [`ImportOptions::scope`] |
//! | `jump`, `brif`, `br_table`, `return` | `jump`, `brif`, a chain of `brif`s, `return` |
//! | `stack_addr` | rejected, or with [`StackSlots::Scratch`] a constant address in the interpreter's scratch buffer |
//!
//! **Ordering and scope.** CLIF has one kind of atomic: sequentially
//! consistent, with no scope. Every imported atomic and fence is `seq_cst`;
//! the scope is [`ImportOptions::scope`], `gpu` by default: the threads a
//! kernel's atomics synchronise are the grid's threads, and `sys` (which
//! also orders against the host and peer devices) makes every `seq_cst`
//! access pay for system-wide fences. Choose `Scope::Sys` for memory shared
//! with a concurrently running host.
//!
//! **Pointers.** CLIF addresses are plain `i64` values; atomc addresses are
//! typed pointers. An `i64` function parameter that is the base of some
//! address becomes a `ptr.<space>` parameter ([`ImportOptions::address_space`],
//! `global` by default; [`ImportOptions::pointer_params`] turns this off).
//! The base is found by following the address back through `iadd` (left
//! operand first, then right) and `isub` (left operand) until a parameter,
//! a `stack_addr` or a loaded value: so in `iadd base, index` only `base`
//! becomes a pointer. `iadd`/`isub` of a pointer and an integer becomes
//! `ptr_add`. Any other integer used as an address is converted with
//! `bitcast.ptr.<space>` (for `shared`, `ireduce.i32` first), and a pointer
//! used as an integer with `bitcast.i64`.
//!
//! **Endianness.** atomc's targets are little-endian: accesses without an
//! endianness flag and with `little` are the same access. A `big` access is
//! rejected unless [`ImportOptions::emulate_big_endian`] is set: then values are byte-swapped around the access (shifts and
//! masks), bitwise and exchange atomics swap their operand and result, and
//! the arithmetic and min/max atomics become CAS loops that swap, compute
//! and swap back, so they stay atomic.
//!
//! **Rejected** (an [`ImportError`] naming the CLIF instruction): calls of
//! every kind but the [intrinsics](#kernels-gpu-intrinsics-address-spaces-orders), `i128` and vector values, traps, global values and symbols,
//! stack slots (unless [`StackSlots::Scratch`]), big-endian accesses (unless
//! emulated), instructions with several results, and any instruction
//! without an atomc equivalent (`sqrt`, `popcnt`, ...). [`parse_clif_file`]
//! reports the line of the rejected instruction.
//!
//! **Not preserved**: CLIF traps on integer division by zero and on
//! `fcvt_to_*int` overflow; atomc's interpreter reports division by zero as
//! an error, and its float-to-int conversions saturate; `sdiv` of `MIN` by
//! `-1` wraps instead of trapping. Misaligned addresses, legal in CLIF, are
//! errors in atomc.
//!
//! The imported function is verified by atomc's verifier (a failure is
//! [`ImportError::Invalid`]) and numbered in text order, as if parsed.
//!
//! **Locations.** Every atomc instruction made for a CLIF instruction gets
//! its location, so that a target's refusal points into the front end's
//! source: CLIF's `SourceLoc` (`FunctionBuilder::set_srcloc`), an opaque
//! number the front end chose, becomes the line (column 0); for `.clif`
//! text ([`parse_clif_file`]) the instruction's line and column in the file.

mod analysis;
mod endian;
mod error;
mod intrinsics;
mod memory;
mod ops;
mod text;
mod translate;

pub use error::{ClifError, ImportError};
pub use text::{parse_clif_file, parse_clif_file_with};
pub use translate::import;

use atomc_ir::{AddrSpace, Scope};

/// How [`import`] treats CLIF stack slots (`stack_addr`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum StackSlots {
    /// Stack slots have no GPU meaning (a kernel has no addressable stack
    /// that atomics could synchronise on): `stack_addr` is an error.
    #[default]
    Reject,
    /// For running in atomc's reference interpreter: each slot gets a
    /// 16-byte aligned range of one scratch global buffer at
    /// [`GLOBAL_BASE`](atomc_ir::interp::GLOBAL_BASE), laid out in slot
    /// order (see [`scratch_bytes`]); call the result with
    /// [`call_with_scratch`](atomc_ir::interp::call_with_scratch).
    Scratch,
}

/// Choices the CLIF text cannot express.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImportOptions {
    /// The scope of every atomic and fence (they are all `seq_cst`).
    /// Default: `gpu`.
    pub scope: Scope,
    /// The address space of memory accesses through CLIF addresses and of
    /// pointer parameters. Default: `global`.
    pub address_space: AddrSpace,
    /// Turn `i64` parameters used as base addresses into pointer parameters.
    /// Default: true. With false every parameter keeps its CLIF type.
    pub pointer_params: bool,
    /// What `stack_addr` becomes. Default: [`StackSlots::Reject`].
    pub stack_slots: StackSlots,
    /// Accept `big` memory accesses by swapping bytes around little-endian
    /// ones (and turning `atomic_rmw add sub umin umax smin smax` into
    /// CAS loops, since those ops do not commute with a byte swap).
    /// Default: false, `big` is an error.
    pub emulate_big_endian: bool,
}

impl Default for ImportOptions {
    fn default() -> ImportOptions {
        ImportOptions {
            scope: Scope::Gpu,
            address_space: AddrSpace::Global,
            pointer_params: true,
            stack_slots: StackSlots::Reject,
            emulate_big_endian: false,
        }
    }
}

impl ImportOptions {
    /// Options for running CLIF test functions in atomc's interpreter:
    /// stack slots in the scratch buffer, parameters kept as integers, big
    /// endian emulated.
    pub fn interpreter() -> ImportOptions {
        ImportOptions {
            pointer_params: false,
            stack_slots: StackSlots::Scratch,
            emulate_big_endian: true,
            ..ImportOptions::default()
        }
    }
}

/// The `TargetFrontendConfig` to give `cranelift-frontend` for code meant
/// for atomc: 64-bit addresses (global and generic pointers are 64 bits).
pub fn frontend_config() -> cranelift_codegen::isa::TargetFrontendConfig {
    cranelift_codegen::isa::TargetFrontendConfig {
        default_call_conv: cranelift_codegen::isa::CallConv::SystemV,
        pointer_width: target_lexicon::PointerWidth::U64,
        page_size_align_log2: 12,
    }
}

/// Declares the intrinsic `name` (see [Kernels](self#kernels-gpu-intrinsics-address-spaces-orders))
/// in the function `b` builds, with the signature the convention gives it, and returns the
/// reference to `call`: `params` and `returns` are the CLIF types of the arguments and results
/// (`T` in the table made concrete).
pub fn intrinsic(
    b: &mut cranelift_frontend::FunctionBuilder<'_>,
    name: &str,
    params: &[cranelift_codegen::ir::Type],
    returns: &[cranelift_codegen::ir::Type],
) -> cranelift_codegen::ir::FuncRef {
    use cranelift_codegen::ir::{AbiParam, ExtFuncData, ExternalName, Signature};
    let mut sig = Signature::new(cranelift_codegen::isa::CallConv::SystemV);
    sig.params.extend(params.iter().map(|&t| AbiParam::new(t)));
    sig.returns.extend(returns.iter().map(|&t| AbiParam::new(t)));
    let signature = b.import_signature(sig);
    b.import_function(ExtFuncData {
        name: ExternalName::testcase(name),
        signature,
        colocated: false,
        patchable: false,
    })
}

/// The size of the scratch buffer [`StackSlots::Scratch`] lays `func`'s
/// stack slots out in (0 when it has none).
pub fn scratch_bytes(func: &cranelift_codegen::ir::Function) -> usize {
    analysis::slot_layout(func).1 as usize
}
