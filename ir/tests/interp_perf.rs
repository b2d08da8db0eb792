//! Interpreter throughput (run in release, prints instructions per second):
//! `cargo test --release -p atomc-ir --test interp_perf -- --nocapture`.

mod interp_common;
use atomc_ir::interp::{DataValue, Dim3, Launch, Memory, Program};
use atomc_ir::AddrSpace;
use interp_common::func;
use std::time::Instant;

/// A loop of `n` iterations per thread, each an arithmetic step and a
/// contended atomic add.
const LOOP: &str = "function %loop(ptr.global, i32) {
block0(v0: ptr.global, v1: i32):
    v2 = iconst.i32 0
    jump block1(v2)
block1(v3: i32):
    v4 = iconst.i32 1
    v5 = iadd v3, v4
    v6 = atomic_rmw.i32 add relaxed gpu v0, v4
    v7 = icmp ult v5, v1
    brif v7, block1(v5), block2
block2:
    return
}
";

#[test]
fn throughput_of_a_contended_loop() {
    let f = func(LOOP);
    let prog = Program::new(&f).unwrap();
    let mut mem = Memory::new();
    let buf = mem.add_buffer(vec![0; 4]);
    let n = if cfg!(debug_assertions) { 200u32 } else { 2000 };
    let args = vec![
        DataValue::Ptr(AddrSpace::Global, mem.buffer_addr(buf)),
        DataValue::I32(n as i32),
    ];
    let mut launch = Launch::new(Dim3::x(4), Dim3::x(256), args);
    launch.step_limit = u64::MAX;
    let t = Instant::now();
    let stats = prog.launch(&launch, &mut mem).unwrap();
    let secs = t.elapsed().as_secs_f64();
    assert_eq!(mem.buffer(buf), &(1024 * n).to_le_bytes());
    println!(
        "{} instructions in {:.3} s: {:.1} million instructions per second",
        stats.steps,
        secs,
        stats.steps as f64 / secs / 1e6
    );
}

/// One thread loops while 65535 others return at once: the scheduler
/// must not rescan the finished threads on every step.
#[test]
fn a_long_tail_after_many_threads_return_is_cheap() {
    let f = func(
        "function %tail(ptr.global, i32) {
block0(v0: ptr.global, v1: i32):
    v2 = thread_id.x
    v3 = block_id.x
    v4 = bor v2, v3
    v5 = iconst.i32 0
    v6 = icmp eq v4, v5
    brif v6, block1(v5), block2
block1(v7: i32):
    v8 = iconst.i32 1
    v9 = iadd v7, v8
    v10 = icmp ult v9, v1
    brif v10, block1(v9), block3(v9)
block3(v11: i32):
    store v11, v0
    jump block2
block2:
    return
}
",
    );
    let prog = Program::new(&f).unwrap();
    let mut mem = Memory::new();
    let buf = mem.add_buffer(vec![0; 4]);
    let n = 200_000;
    let args = vec![DataValue::Ptr(AddrSpace::Global, mem.buffer_addr(buf)), DataValue::I32(n)];
    let t = Instant::now();
    let stats = prog.launch(&Launch::new(Dim3::x(256), Dim3::x(256), args), &mut mem).unwrap();
    let secs = t.elapsed().as_secs_f64();
    println!("65536 threads, one looping: {} instructions in {secs:.3} s", stats.steps);
    assert_eq!(mem.buffer(buf), &n.to_le_bytes());
    assert!(secs < 20.0, "the finished threads are rescanned on every step");
}
