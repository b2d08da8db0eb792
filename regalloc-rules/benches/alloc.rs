//! Allocation speed on a 10,000-instruction straight-line kernel (toy ISA).
//!
//! `cargo bench -p atomc-regalloc --bench alloc` prints criterion's time per iteration; divide by
//! the instruction count (printed first) for microseconds per instruction.

#[path = "../tests/common/mod.rs"]
mod common;

use atomc_regalloc::{allocate, apply, check_allocation, AllocOptions, rules, Sm};
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let vc = common::straight_line(10_000, 24);
    let rules = rules(Sm::Sm90);
    let opts = AllocOptions {
        validate_ssa: false,
        regalloc2_checker: false,
        ..AllocOptions::default()
    };
    let alloc = allocate(&vc, rules, &opts).expect("allocates");
    let code = apply(&vc, &alloc);
    println!(
        "kernel: {} instructions, {} vregs; {} GPRs, moves {}, spills {}, reloads {}",
        vc.num_insts(),
        vc.num_vregs(),
        alloc.num_regs,
        alloc.stats.moves,
        alloc.stats.spills,
        alloc.stats.reloads
    );
    let mut g = c.benchmark_group("straight_line_10k");
    g.sample_size(20);
    g.bench_function("allocate (Ion, env sizing, mapping)", |b| {
        b.iter(|| allocate(black_box(&vc), rules, &opts).expect("allocates"))
    });
    g.bench_function("rebuild", |b| b.iter(|| apply(black_box(&vc), &alloc)));
    g.bench_function("rule checker", |b| {
        b.iter(|| check_allocation(rules, black_box(&vc), &code).expect("passes"))
    });
    let ssa = AllocOptions {
        validate_ssa: true,
        ..opts
    };
    g.bench_function("allocate + validate_ssa", |b| {
        b.iter(|| allocate(black_box(&vc), rules, &ssa).expect("allocates"))
    });
    let debug = AllocOptions {
        validate_ssa: true,
        regalloc2_checker: true,
        ..AllocOptions::default()
    };
    g.bench_function("allocate + validate_ssa + regalloc2 checker", |b| {
        b.iter(|| allocate(black_box(&vc), rules, &debug).expect("allocates"))
    });
    g.finish();

    // The same kernel with only 16 registers offered per class: Ion splits and spills.
    let tight = AllocOptions {
        max_per_class: 16,
        ..opts
    };
    let a = allocate(&vc, rules, &tight).expect("allocates");
    println!(
        "tight: {} GPRs, moves {}, spills {}, reloads {}",
        a.num_regs, a.stats.moves, a.stats.spills, a.stats.reloads
    );
    let mut g = c.benchmark_group("straight_line_10k_16_per_class");
    g.sample_size(10);
    g.bench_function("allocate", |b| {
        b.iter(|| allocate(black_box(&vc), rules, &tight).expect("allocates"))
    });
    g.finish();
}

fn config() -> Criterion {
    Criterion::default().without_plots()
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench
}
criterion_main!(benches);
