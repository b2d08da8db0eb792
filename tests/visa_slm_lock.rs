//! The TGLLP spinlock of 64-bit SLM atomics (lower/src/visa/slm_lock.rs) under contention from
//! several hardware threads: `%slm_lock_threads` of compile/visa/slm-atomics64-tgllp.atom runs
//! as one thread group of `64 / simd` (at most 8) hardware threads on the vISA simulator, the
//! threads interleaved at random (several seeds), against the IR interpreter running the same
//! block; its final memory does not depend on the order the lock is taken in, so the two must
//! agree. A second test breaks the lock (every lane believes its acquire succeeded) and
//! requires every run to notice.

#[path = "visa_common/mod.rs"]
mod visa_common;
#[path = "visa_sim/mod.rs"]
mod visa_sim;

use atomc::ir::interp::{run_kernel, DataValue, Dim3, Launch, Memory};
use atomc::ir::{AddrSpace, Function, Type};
use atomc::{Target, VisaPlatform};
use atomc_emit::visa::{ExecSize, Kernel, Op, Platform};
use atomc_lower::visa::Options;
use visa_common::{break_lock, first_diff, global_buffer, lock_test_threads, BrokenLockRuns};
use visa_sim::{Mem, Sim};

/// The block's SLM in both runs; the lock word follows it.
const SLM_BYTES: u32 = 2048;

/// Runs `f` on the interpreter and `k` as `threads` hardware threads of `lanes` on the simulator
/// (switching threads after a random 1 to 16 instructions); `Err` says how they differ.
fn group_run(f: &Function, k: &Kernel, lanes: u32, threads: u32, seed: u64) -> Result<(), String> {
    let mut mem = Memory::new();
    let (mut args, mut bufs, mut inputs) = (Vec::new(), Vec::new(), Vec::new());
    let entry = f.entry_block().unwrap();
    for (i, &v) in f.blocks[entry].params.iter().enumerate() {
        match f.value_type(v) {
            Type::Ptr(AddrSpace::Global) => {
                let (dv, raw) = global_buffer(&mut mem, i as u64 + 1, &mut bufs);
                args.push(dv);
                inputs.push((format!("{v}"), raw));
            }
            Type::Ptr(AddrSpace::Shared) => {
                args.push(DataValue::Ptr(AddrSpace::Shared, 0));
                inputs.push((format!("{v}"), 0u32.to_le_bytes().to_vec()));
            }
            t => return Err(format!("parameter type {t} not set up here")),
        }
    }
    let block = lanes * threads;
    let mut launch = Launch::new(Dim3::x(1), Dim3::x(block), args);
    launch.shared_bytes = SLM_BYTES;
    launch.subgroup_size = lanes;
    run_kernel(f, &launch, &mut mem).map_err(|e| format!("interpreter: {e}"))?;

    // One memory for the group: the buffers, then the SLM with garbage in the lock word.
    let mut slm = vec![0u8; SLM_BYTES as usize];
    slm.extend([0xa5u8; 4]);
    let mut shared = Mem { bufs: bufs.iter().map(|(_, a, init)| (*a, init.clone())).collect() };
    shared.bufs.push((visa_sim::SLM_BASE, slm));
    let mut sims: Vec<Sim> = (0..threads)
        .map(|t| {
            let mut sim = Sim::new(k, Platform::Tgllp, lanes, Mem::default());
            let tid: Vec<u8> = (0..lanes.max(8)).flat_map(|i| (t * lanes + i % lanes).to_le_bytes()).collect();
            let lane: Vec<u8> = (0..lanes.max(8)).flat_map(|i| (i % lanes).to_le_bytes()).collect();
            for v in &k.vars {
                match v.name.as_str() {
                    "TID_X" => sim.set(&v.name, &tid),
                    "LANE_ID" => sim.set(&v.name, &lane),
                    "BLOCK_DIM_X" => sim.set(&v.name, &block.to_le_bytes()),
                    "SLM_LOCK" => sim.set(&v.name, &SLM_BYTES.to_le_bytes()),
                    n if n.starts_with("BLOCK_DIM") || n.starts_with("GRID_DIM") => sim.set(n, &1u32.to_le_bytes()),
                    n if n.starts_with("TID_") || n.starts_with("BLOCK_ID") => {
                        sim.set(n, &vec![0u8; v.bytes() as usize])
                    }
                    _ => {}
                }
            }
            for (n, raw) in &inputs {
                sim.set(n, raw);
            }
            sim
        })
        .collect();
    visa_sim::run_group(&mut sims, &mut shared, &mut Vec::new(), seed, true)?;
    for ((id, _, _), (_, got)) in bufs.iter().zip(&shared.bufs) {
        first_diff(mem.buffer(*id), got, "memory")?;
    }
    Ok(())
}

/// The kernels run here, lowered for TGLLP at `simd`.
fn kernels(simd: ExecSize) -> Vec<(String, Function, Kernel)> {
    visa_common::visa_filetest_kernels()
        .into_iter()
        .filter(|(n, _)| n.starts_with("slm-atomics64-tgllp/%slm_lock_threads"))
        .map(|(n, f)| {
            let opts = Options { simd, ..Default::default() };
            let k = atomc::visa_kernel(&f, Target::Visa(VisaPlatform::Tgllp), &opts).expect("lowered for TGLLP");
            assert!(k.vars.iter().any(|v| v.name == "SLM_LOCK"), "{n}: no lock word");
            (n, f, k)
        })
        .collect()
}

const WIDTHS: [ExecSize; 4] = [ExecSize::S4, ExecSize::S8, ExecSize::S16, ExecSize::S32];

#[test]
fn locked_atomics_agree_across_hardware_threads() {
    let mut runs = 0;
    for simd in WIDTHS {
        let lanes = simd.lanes();
        let threads = lock_test_threads(lanes);
        for (name, f, k) in kernels(simd) {
            for seed in 0..4 {
                if let Err(e) = group_run(&f, &k, lanes, threads, seed) {
                    panic!("{name} simd{lanes} x {threads} threads, seed {seed}: {e}");
                }
                runs += 1;
            }
        }
    }
    println!("vISA SLM lock: {runs} runs (SIMD 4/8/16/32, up to 8 hardware threads, 4 seeds) agree");
    assert!(runs >= 16);
}

#[test]
fn a_broken_lock_is_noticed() {
    let mut runs = BrokenLockRuns::default();
    for simd in WIDTHS {
        let lanes = simd.lanes();
        for (name, f, mut k) in kernels(simd) {
            assert!(break_lock(&mut k, Op::DwordAtomic), "{name}: no acquire found");
            runs.record(&format!("{name} simd{lanes}"), group_run(&f, &k, lanes, lock_test_threads(lanes), 0));
        }
    }
    runs.assert_all_noticed("vISA SLM lock", 4);
}
