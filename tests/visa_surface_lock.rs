//! The global spinlock of 64-bit surface atomics (lower/src/visa/surface_lock.rs) under
//! contention from several hardware threads: the kernels of compile/visa/surface-atomics64.atom
//! whose final memory does not depend on the order the lock is taken in (`%surf64_threads`:
//! every lane on the same elements, every op, results used and unused, `ign` and `near`;
//! `%surf64_ops` and `%surf64_cas`: each lane on its own element, the lock shared by all) run as
//! `64 / simd` hardware threads (at most 8) on the vISA simulator, interleaved at random
//! (several seeds), against the IR interpreter; on TGLLP, DG2 and PVC (PVC writes a channel per
//! message). A second test breaks the lock (every lane believes its acquire succeeded) and
//! requires every run to notice.

#[path = "visa_common/mod.rs"]
mod visa_common;
#[path = "visa_sim/mod.rs"]
mod visa_sim;

use atomc::ir::interp::{run_kernel, DataValue, Dim3, Launch, Memory, Surface};
use atomc::ir::{AddrSpace, Function, Type};
use atomc::{Target, VisaPlatform};
use atomc_emit::visa::{ExecSize, Kernel, Op, Platform};
use atomc_lower::visa::Options;
use visa_sim::typed::SimSurface;
use visa_common::{break_lock, first_diff, global_buffer, init_bytes, lock_test_threads, BrokenLockRuns};
use visa_sim::{Mem, Sim};

/// The surface at slot 0 in both runs: 64 × 16 texels of 8 bytes.
const EXTENT: [u32; 3] = [64, 16, 1];

/// The kernels run here.
const KERNELS: [&str; 3] = ["surf64_threads", "surf64_ops", "surf64_cas"];

/// Runs `f` on the interpreter and `k` as `threads` hardware threads of `lanes` on the simulator
/// of `p` (switching threads after a random 1 to 16 instructions); `Err` says how they differ.
fn group_run(f: &Function, k: &Kernel, p: Platform, lanes: u32, threads: u32, seed: u64) -> Result<(), String> {
    let mut mem = Memory::new();
    let (mut args, mut bufs, mut inputs) = (Vec::new(), Vec::new(), Vec::new());
    let entry = f.entry_block().unwrap();
    for (i, &v) in f.blocks[entry].params.iter().enumerate() {
        let (dv, raw) = match f.value_type(v) {
            Type::Ptr(AddrSpace::Global) => global_buffer(&mut mem, i as u64 + 1, &mut bufs),
            Type::I32 => (DataValue::I32(3), 3u32.to_le_bytes().to_vec()),
            Type::I64 => (DataValue::I64(0x0101_0101_0303_0303), 0x0101_0101_0303_0303u64.to_le_bytes().to_vec()),
            t => return Err(format!("parameter type {t} not set up here")),
        };
        args.push(dv);
        inputs.push((format!("{v}"), raw));
    }
    let texels = EXTENT.iter().product::<u32>() as usize;
    let surf_init = init_bytes(100 + seed, texels * 8);
    let sid = mem.add_surface(Surface { extent: EXTENT, elem_bytes: 8, data: surf_init.clone() });
    mem.bind_slot(0, sid);
    let block = lanes * threads;
    let mut launch = Launch::new(Dim3::x(1), Dim3::x(block), args);
    launch.subgroup_size = lanes;
    run_kernel(f, &launch, &mut mem).map_err(|e| format!("interpreter: {e}"))?;

    // One memory for the group: the buffers and the lock word, zeroed by the launch.
    let mut shared = Mem { bufs: bufs.iter().map(|(_, a, init)| (*a, init.clone())).collect() };
    shared.bufs.push((visa_sim::SURFACE_LOCK_ADDR, vec![0u8; 4]));
    let mut surfaces = vec![SimSurface { extent: EXTENT, texel_bytes: 8, data: surf_init }];
    let mut sims: Vec<Sim> = (0..threads)
        .map(|t| {
            let mut sim = Sim::new(k, p, lanes, Mem::default());
            let tid: Vec<u8> = (0..lanes.max(8)).flat_map(|i| (t * lanes + i % lanes).to_le_bytes()).collect();
            for v in &k.vars {
                match v.name.as_str() {
                    "TID_X" => sim.set(&v.name, &tid),
                    "SURFACE_LOCK" => sim.set(&v.name, &visa_sim::SURFACE_LOCK_ADDR.to_le_bytes()),
                    "BLOCK_DIM_X" => sim.set(&v.name, &block.to_le_bytes()),
                    "TID_Y" | "TID_Z" => sim.set(&v.name, &vec![0u8; v.bytes() as usize]),
                    _ => {}
                }
            }
            for (n, raw) in &inputs {
                sim.set(n, raw);
            }
            sim
        })
        .collect();
    visa_sim::run_group(&mut sims, &mut shared, &mut surfaces, seed, false)?;
    for ((id, _, _), (_, got)) in bufs.iter().zip(&shared.bufs) {
        first_diff(mem.buffer(*id), got, "memory")?;
    }
    first_diff(&mem.surface(sid).expect("added").data, &surfaces[0].data, "surface")?;
    if shared.bufs.last().map(|(_, w)| w.as_slice()) != Some(&[0u8; 4][..]) {
        return Err("the lock word is not 0 at the end".into());
    }
    Ok(())
}

/// The kernels run here, lowered for `p` at `simd`.
fn kernels(vp: VisaPlatform, simd: ExecSize) -> Vec<(String, Function, Kernel)> {
    visa_common::visa_filetest_kernels()
        .into_iter()
        .filter(|(n, _)| KERNELS.iter().any(|k| n == &format!("surface-atomics64/%{k}")))
        .map(|(n, f)| {
            let opts = Options { simd, ..Default::default() };
            let k = atomc::visa_kernel(&f, Target::Visa(vp), &opts).unwrap_or_else(|e| panic!("{n}: {e}"));
            assert!(k.vars.iter().any(|v| v.name == "SURFACE_LOCK"), "{n}: no lock word");
            (n, f, k)
        })
        .collect()
}

/// Platform and widths: SIMD8 everywhere, the SIMD16 and SIMD32 pieces where the 4-byte
/// payloads of the SIMD8 pieces stay GRF aligned (not on PVC's 64-byte GRFs).
fn configs() -> Vec<(VisaPlatform, Platform, ExecSize)> {
    let mut v = Vec::new();
    for simd in [ExecSize::S8, ExecSize::S16, ExecSize::S32] {
        v.push((VisaPlatform::Tgllp, Platform::Tgllp, simd));
    }
    v.push((VisaPlatform::Dg2, Platform::Dg2, ExecSize::S16));
    v.push((VisaPlatform::Pvc, Platform::Pvc, ExecSize::S8));
    v
}

#[test]
fn locked_surface_atomics_agree_across_hardware_threads() {
    let mut runs = 0;
    for (vp, p, simd) in configs() {
        let lanes = simd.lanes();
        let threads = lock_test_threads(lanes);
        for (name, f, k) in kernels(vp, simd) {
            for seed in 0..3 {
                if let Err(e) = group_run(&f, &k, p, lanes, threads, seed) {
                    panic!("{name} on {p} simd{lanes} x {threads} threads, seed {seed}: {e}");
                }
                runs += 1;
            }
        }
    }
    println!(
        "vISA surface lock: {runs} runs (TGLLP SIMD 8/16/32, DG2 SIMD16, PVC SIMD8; up to 8 hardware threads) agree"
    );
    assert!(runs >= 5 * KERNELS.len() * 3);
}

#[test]
fn a_broken_lock_is_noticed() {
    let mut runs = BrokenLockRuns::default();
    for (vp, p, simd) in configs() {
        let lanes = simd.lanes();
        for (name, f, mut k) in kernels(vp, simd).into_iter().filter(|(n, _, _)| n.ends_with("threads")) {
            assert!(break_lock(&mut k, Op::SvmAtomic), "{name}: no acquire found");
            let run = group_run(&f, &k, p, lanes, lock_test_threads(lanes), 0);
            runs.record(&format!("{name} on {p} simd{lanes}"), run);
        }
    }
    runs.assert_all_noticed("vISA surface lock", 5);
}
