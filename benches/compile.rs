//! Compile-time benchmark: a generated kernel of about 10,000 IR
//! instructions (integer arithmetic, address computation and atomics in
//! a chain, so values stay live and the allocator has work), compiled to
//! sm_90 machine code. Reports time per IR instruction.
//!
//! `cargo bench --bench compile`

use atomc::ir::{AddrSpace, BinaryOp, FunctionBuilder, MemOrder, RmwOp, Scope, SpecialReg, Type};
use atomc::{pipeline, Target};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

mod common;

/// A straight-line kernel with `n` groups of 10 instructions each.
pub fn generated_kernel(groups: usize) -> atomc::ir::Function {
    let mut b = FunctionBuilder::new("big", &[Type::Ptr(AddrSpace::Global), Type::Ptr(AddrSpace::Global)]);
    let (out, table) = (b.param(0), b.param(1));
    let tid = b.special(SpecialReg::ThreadIdX);
    let mut acc = tid;
    let four = b.iconst(Type::I64, 4);
    let mask = b.iconst(Type::I32, 1023);
    for k in 0..groups {
        let c = b.iconst(Type::I32, (k as i64 * 7919) & 0xffff);
        let x = b.binary(BinaryOp::Iadd, acc, c);
        let y = b.binary(BinaryOp::Bxor, x, tid);
        let p = common::table_word(&mut b, table, y, mask, four);
        let old = b.atomic_rmw(RmwOp::Add, Type::I32, MemOrder::Relaxed, Scope::Gpu, p, 0, x);
        acc = b.binary(BinaryOp::Iadd, old, y);
    }
    b.store(acc, out, 0);
    b.ret(&[]);
    b.finish()
}

fn bench(c: &mut Criterion) {
    let func = generated_kernel(1111);
    let n = func.inst_order().count();
    let mut g = c.benchmark_group("compile");
    g.sample_size(10);
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function(format!("sm_90 {n} IR instructions"), |bch| {
        bch.iter(|| pipeline::compile_sass(&func, Target::Sm90).expect("compiles"))
    });
    g.finish();
    let out = pipeline::compile_sass(&func, Target::Sm90).expect("compiles");
    println!(
        "generated kernel: {n} IR instructions -> {} SASS instructions, {} registers",
        out.kernel.body_len, out.allocated.alloc.num_regs
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
