//! The kernels: built with atomc's `FunctionBuilder`, or with `cranelift-frontend` and
//! imported, using atomc's GPU intrinsics (see `atomc::clif`).

use atomc::clif::{self, ImportOptions};
use atomc::ir::{self, AddrSpace, BinaryOp, ConvOp, FunctionBuilder, InstData, MemOrder, RmwOp, Scope, SpecialReg, SrcLoc, TernaryOp};
use cranelift_codegen::ir::{self as cl, condcodes::IntCC, types, AbiParam, InstBuilder, MemFlagsData, UserFuncName};
use cranelift_codegen::isa::CallConv;
use cranelift_frontend::{FunctionBuilder as ClifBuilder, FunctionBuilderContext};
use types::{F16, I32, I64};

/// `count(counters)`: `counters[thread_id.x] += 1`, relaxed at gpu scope; built in code.
pub fn count() -> ir::Function {
    let mut b = FunctionBuilder::new("count", &[ir::Type::Ptr(AddrSpace::Global)]);
    let tid = b.special(SpecialReg::ThreadIdX);
    let tid64 = b.convert(ConvOp::Uextend, ir::Type::I64, tid);
    let four = b.iconst(ir::Type::I64, 4);
    let off = b.binary(BinaryOp::Imul, tid64, four);
    let p = b.ptr_add(b.param(0), off);
    let one = b.iconst(ir::Type::I32, 1);
    b.atomic_rmw(RmwOp::Add, ir::Type::I32, MemOrder::Relaxed, Scope::Gpu, p, 0, one);
    b.ret(&[]);
    b.finish()
}

/// A CLIF kernel: its signature, then `body` fills the entry block (parameters bound).
fn clif_kernel(name: &str, params: &[cl::Type], body: impl FnOnce(&mut ClifBuilder, &[cl::Value])) -> cl::Function {
    let mut sig = cl::Signature::new(CallConv::SystemV);
    sig.params.extend(params.iter().map(|&t| AbiParam::new(t)));
    let mut func = cl::Function::with_name_signature(UserFuncName::testcase(name), sig);
    let mut ctx = FunctionBuilderContext::new();
    let mut b = ClifBuilder::new(&mut func, &mut ctx);
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let args = b.block_params(entry).to_vec();
    body(&mut b, &args);
    b.seal_all_blocks();
    b.finalize(clif::frontend_config());
    func
}

/// Calls an intrinsic and returns its result, if it has one.
fn call(b: &mut ClifBuilder, f: cl::FuncRef, args: &[cl::Value]) -> Option<cl::Value> {
    let inst = b.ins().call(f, args);
    b.inst_results(inst).first().copied()
}

fn import(f: &cl::Function, opts: &ImportOptions) -> ir::Function {
    clif::import(f, opts).unwrap_or_else(|e| panic!("{e}"))
}

/// `histogram(data, n, hist)`: 16 bins per block in shared memory (relaxed, cta scope), added
/// into the global histogram (relaxed, gpu scope); one element per thread, 64 bytes shared.
pub fn histogram() -> ir::Function {
    let f = clif_kernel("histogram", &[I64, I32, I64], |b, args| {
        let (data, n, hist) = (args[0], args[1], args[2]);
        let tid_x = clif::intrinsic(b, "atomc_thread_id_x", &[], &[I32]);
        let bid_x = clif::intrinsic(b, "atomc_block_id_x", &[], &[I32]);
        let bdim_x = clif::intrinsic(b, "atomc_block_dim_x", &[], &[I32]);
        let shared = clif::intrinsic(b, "atomc_shared", &[I32], &[I64]);
        let barrier = clif::intrinsic(b, "atomc_barrier", &[], &[]);
        let add_cta = clif::intrinsic(b, "atomc_atomic_rmw_add_relaxed_cta", &[I64, I32], &[I32]);
        let add_gpu = clif::intrinsic(b, "atomc_atomic_rmw_add_relaxed_gpu", &[I64, I32], &[I32]);
        let flags = MemFlagsData::trusted();
        let [zero_bin, count, counted, flush, add_bin, done] = [(); 6].map(|_| b.create_block());
        let tid = call(b, tid_x, &[]).expect("a result");
        let zero = b.ins().iconst(I32, 0);
        let bins = call(b, shared, &[zero]).expect("a result");
        let tid4 = b.ins().imul_imm_u(tid, 4);
        let tid4 = b.ins().uextend(I64, tid4);
        let my_bin = b.ins().iadd(bins, tid4);
        let owner = b.ins().icmp_imm_u(IntCC::UnsignedLessThan, tid, 16);
        b.ins().brif(owner, zero_bin, &[], count, &[]);
        b.switch_to_block(zero_bin);
        b.ins().store(flags, zero, my_bin, 0);
        b.ins().jump(count, &[]);
        b.switch_to_block(count);
        call(b, barrier, &[]);
        let bid = call(b, bid_x, &[]).expect("a result");
        let bdim = call(b, bdim_x, &[]).expect("a result");
        let i = b.ins().imul(bid, bdim);
        let i = b.ins().iadd(i, tid);
        let in_range = b.ins().icmp(IntCC::UnsignedLessThan, i, n);
        b.ins().brif(in_range, counted, &[], flush, &[]);
        b.switch_to_block(counted);
        let i4 = b.ins().imul_imm_u(i, 4);
        let i4 = b.ins().uextend(I64, i4);
        let at = b.ins().iadd(data, i4);
        let x = b.ins().load(I32, flags, at, 0);
        let bin = b.ins().band_imm_u(x, 15);
        let bin4 = b.ins().imul_imm_u(bin, 4);
        let bin4 = b.ins().uextend(I64, bin4);
        let slot = b.ins().iadd(bins, bin4);
        let one = b.ins().iconst(I32, 1);
        call(b, add_cta, &[slot, one]);
        b.ins().jump(flush, &[]);
        b.switch_to_block(flush);
        call(b, barrier, &[]);
        b.ins().brif(owner, add_bin, &[], done, &[]);
        b.switch_to_block(add_bin);
        let mine = b.ins().load(I32, flags, my_bin, 0);
        let global = b.ins().iadd(hist, tid4);
        call(b, add_gpu, &[global, mine]);
        b.ins().jump(done, &[]);
        b.switch_to_block(done);
        b.ins().return_(&[]);
    });
    import(&f, &ImportOptions::default())
}

/// `max_index(data, n, out)`: `*out = max(*out, data[i])` for every `i < n`, relaxed at gpu
/// scope, one element per thread.
pub fn max_index() -> ir::Function {
    let f = clif_kernel("max_index", &[I64, I32, I64], |b, args| {
        let (data, n, out) = (args[0], args[1], args[2]);
        let tid_x = clif::intrinsic(b, "atomc_thread_id_x", &[], &[I32]);
        let bid_x = clif::intrinsic(b, "atomc_block_id_x", &[], &[I32]);
        let bdim_x = clif::intrinsic(b, "atomc_block_dim_x", &[], &[I32]);
        let umax = clif::intrinsic(b, "atomc_atomic_rmw_umax_relaxed_gpu", &[I64, I32], &[I32]);
        let [body, done] = [(); 2].map(|_| b.create_block());
        let tid = call(b, tid_x, &[]).expect("a result");
        let bid = call(b, bid_x, &[]).expect("a result");
        let bdim = call(b, bdim_x, &[]).expect("a result");
        let i = b.ins().imul(bid, bdim);
        let i = b.ins().iadd(i, tid);
        let in_range = b.ins().icmp(IntCC::UnsignedLessThan, i, n);
        b.ins().brif(in_range, body, &[], done, &[]);
        b.switch_to_block(body);
        let i4 = b.ins().imul_imm_u(i, 4);
        let i4 = b.ins().uextend(I64, i4);
        let at = b.ins().iadd(data, i4);
        let x = b.ins().load(I32, MemFlagsData::trusted(), at, 0);
        call(b, umax, &[out, x]);
        b.ins().jump(done, &[]);
        b.switch_to_block(done);
        b.ins().return_(&[]);
    });
    import(&f, &ImportOptions::default())
}

/// A kernel the SASS targets refuse (fma of f16: they select FFMA and DFMA), built in code with
/// this file's position of the fma attached; and the file to report it against.
pub fn fma16() -> (ir::Function, &'static str) {
    let params = [ir::Type::Ptr(AddrSpace::Global), ir::Type::F16, ir::Type::F16];
    let mut b = FunctionBuilder::new("fma16", &params);
    b.set_loc(SrcLoc { line: line!() + 2, col: 13 });
    let args = [b.param(1), b.param(2), b.param(1)];
    let q = b.ins(InstData::Ternary { op: TernaryOp::Fma, args }).expect("a result");
    b.set_loc(SrcLoc::default());
    b.store(q, b.param(0), 0);
    b.ret(&[]);
    (b.finish(), file!())
}

/// The same through cranelift-frontend: CLIF's `SourceLoc` (here this file's line) is the
/// line of the refusal.
pub fn fma16_clif() -> (ir::Function, &'static str) {
    let f = clif_kernel("fma16_clif", &[I64, F16, F16], |b, args| {
        b.set_srcloc(cl::SourceLoc::new(line!() + 1));
        let q = b.ins().fma(args[1], args[2], args[1]);
        b.set_srcloc(cl::SourceLoc::default());
        b.ins().store(MemFlagsData::trusted(), q, args[0], 0);
        b.ins().return_(&[]);
    });
    (import(&f, &ImportOptions::default()), file!())
}
