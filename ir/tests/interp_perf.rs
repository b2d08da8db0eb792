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
