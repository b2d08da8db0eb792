//! Differential test: every vISA compile filetest kernel runs on the IR's
//! reference interpreter (one block of SIMD-width threads) and, lowered,
//! on the vISA simulator of `visa_sim` (one hardware thread); the final
//! memory must agree. Pointer parameters get their own 512-byte buffer of
//! pseudo-random bytes, scalars fixed values. A second test breaks the
//! lowered kernels on purpose to show the comparison notices.

#[path = "visa_common/mod.rs"]
mod visa_common;
#[path = "visa_sim/mod.rs"]
mod visa_sim;

use atomc::ir::interp::{run_kernel, DataValue, Dim3, Launch, Memory, Surface, SurfaceId};
use atomc::ir::{AddrSpace, Function, Type};
use atomc::{Target, VisaPlatform};
use atomc_emit::visa::{AtomicOp, ExecSize, Ext, Kernel, Op, Platform};
use atomc_lower::visa::Options;
use visa_common::{all_filetest_files, first_diff, global_buffer, init_bytes};

/// Shared memory per block in both runs.
const SLM_BYTES: u32 = 2048;

/// What one differential run found.
enum Outcome {
    /// Same memory; whether the kernel changed memory at all.
    Agree(bool),
    Differ(String),
    Skipped(String),
}

fn differential(name: &str, f: &Function, k: &Kernel, p: Platform, lanes: u32) -> Outcome {
    let mut mem = Memory::new();
    let (mut args, mut bufs, mut inputs) = (Vec::new(), Vec::new(), Vec::new());
    // Surfaces, as (id, extent, initial data, bindless surface-state offset): bound slots have
    // none; a `surface` parameter's handle is the interpreter's, whose low word the simulator's
    // `%bss` names.
    let mut surfs: Vec<(SurfaceId, [u32; 3], u32, Vec<u8>, Option<u32>)> = Vec::new();
    let entry = f.entry_block().unwrap();
    for (i, &p) in f.blocks[entry].params.iter().enumerate() {
        let t = f.value_type(p);
        let (dv, raw): (DataValue, Vec<u8>) = match t {
            Type::Ptr(AddrSpace::Global) => global_buffer(&mut mem, i as u64 + 1, &mut bufs),
            // Shared memory: the block's SLM from offset 0 (zeroed, as the interpreter's).
            Type::Ptr(AddrSpace::Shared) => (DataValue::Ptr(AddrSpace::Shared, 0), 0u32.to_le_bytes().to_vec()),
            Type::I8 => (DataValue::I8(5), 5u32.to_le_bytes().to_vec()),
            Type::I16 => (DataValue::I16(300), 300u32.to_le_bytes().to_vec()),
            Type::I32 => (DataValue::I32(7 + i as i32), (7 + i as u32).to_le_bytes().to_vec()),
            Type::I64 => {
                let v = 0x1_0000_0003u64 + i as u64;
                (DataValue::I64(v as i64), v.to_le_bytes().to_vec())
            }
            Type::F32 => (DataValue::f32(1.5), 1.5f32.to_bits().to_le_bytes().to_vec()),
            // 1.5 in f16, zero-extended like every narrow input.
            Type::F16 => (DataValue::F16(0x3e00), 0x3e00u32.to_le_bytes().to_vec()),
            // (1.0, 1.5) in f16 halves.
            Type::F16x2 => (DataValue::F16x2(0x3e00_3c00), 0x3e00_3c00u32.to_le_bytes().to_vec()),
            Type::F64 => (
                DataValue::F64(2.5f64.to_bits()),
                2.5f64.to_bits().to_le_bytes().to_vec(),
            ),
            // A 16×10×10 surface of pseudo-random 4-byte elements per handle, as for the slots.
            Type::Surface => {
                let extent = [16, 10, 10];
                let data = init_bytes(200 + i as u64, 16 * 10 * 10 * 4);
                let id = mem.add_surface(Surface { extent, elem_bytes: 4, data: data.clone() });
                let h = mem.surface_handle(id);
                surfs.push((id, extent, 4, data, Some(h as u32)));
                (DataValue::Surface(h), h.to_le_bytes().to_vec())
            }
            _ => return Outcome::Skipped(format!("{name} (parameter {t})")),
        };
        args.push(dv);
        inputs.push((format!("{p}"), raw));
    }
    // Each bound slot of the lowered kernel (surface argument `SLOTn`) gets a 16×10×10 surface
    // of pseudo-random elements of the kernel's type for it (i32, or i64 as R32G32 texels):
    // coordinates from the lane ids and the scalars land inside and outside it (clamp ign).
    for (i, t) in k.surfaces.iter().enumerate() {
        let Some(slot) = t.name.strip_prefix("SLOT").and_then(|n| n.parse::<u16>().ok()) else {
            return Outcome::Skipped(format!("{name} (surface {})", t.name));
        };
        let extent = [16, 10, 10];
        let elem_bytes = visa_common::slot_elem_bytes(f, slot);
        let data = init_bytes(100 + i as u64, 16 * 10 * 10 * elem_bytes as usize);
        let id = mem.add_surface(Surface { extent, elem_bytes, data: data.clone() });
        mem.bind_slot(slot, id);
        surfs.push((id, extent, elem_bytes, data, None));
    }
    let mut launch = Launch::new(Dim3::x(1), Dim3::x(lanes), args);
    launch.shared_bytes = SLM_BYTES;
    // The IR's subgroup on Intel is the hardware thread's SIMD lanes.
    launch.subgroup_size = lanes;
    if let Err(e) = run_kernel(f, &launch, &mut mem) {
        return Outcome::Skipped(format!("{name} (interpreter: {e})"));
    }
    let mut m = visa_sim::Mem {
        bufs: bufs.iter().map(|(_, a, init)| (*a, init.clone())).collect(),
    };
    // A kernel with 64-bit SLM atomics on TGLLP gets the lock word the launch reserves past the
    // block's SLM (`SLM_LOCK`), holding garbage at launch: the kernel must clear it itself.
    let lock = k.vars.iter().any(|v| v.name == "SLM_LOCK");
    let mut slm = vec![0u8; SLM_BYTES as usize];
    if lock {
        slm.extend([0xa5u8; 4]);
    }
    m.bufs.push((visa_sim::SLM_BASE, slm));
    // 64-bit surface atomics take a spinlock on a global dword the launch zeroes.
    m.bufs.push((visa_sim::SURFACE_LOCK_ADDR, vec![0u8; 4]));
    let mut sim = visa_sim::Sim::new(k, p, lanes, m);
    for (_, extent, texel_bytes, data, bss) in &surfs {
        let s = visa_sim::typed::SimSurface { extent: *extent, texel_bytes: *texel_bytes, data: data.clone() };
        match bss {
            Some(h) => sim.bindless.push((*h, s)),
            None => sim.surfaces.push(s),
        }
    }
    let ids: Vec<u8> = (0..lanes.max(8)).flat_map(|i| (i % lanes).to_le_bytes()).collect();
    for v in &k.vars {
        match v.name.as_str() {
            "TID_X" | "LANE_ID" => sim.set(&v.name, &ids),
            "TID_Y" | "TID_Z" | "BLOCK_ID_X" | "BLOCK_ID_Y" | "BLOCK_ID_Z" => {
                sim.set(&v.name, &vec![0u8; v.bytes() as usize])
            }
            "BLOCK_DIM_X" => sim.set(&v.name, &lanes.to_le_bytes()),
            "SLM_LOCK" => sim.set(&v.name, &SLM_BYTES.to_le_bytes()),
            "SURFACE_LOCK" => sim.set(&v.name, &visa_sim::SURFACE_LOCK_ADDR.to_le_bytes()),
            n if n.starts_with("BLOCK_DIM") || n.starts_with("GRID_DIM") => sim.set(n, &1u32.to_le_bytes()),
            _ => {}
        }
    }
    for (n, raw) in &inputs {
        sim.set(n, raw);
    }
    if let Err(e) = sim.run(100_000) {
        return Outcome::Differ(format!("{name} simd{lanes}: simulator: {e}"));
    }
    for ((id, _, _), (_, got)) in bufs.iter().zip(&sim.mem.bufs) {
        if let Err(e) = first_diff(mem.buffer(*id), got, "memory") {
            return Outcome::Differ(format!("{name} simd{lanes}: {e}"));
        }
    }
    let (mut bound, mut bindless) = (sim.surfaces.iter(), sim.bindless.iter().map(|(_, s)| s));
    let mut touched = false;
    for (id, _, _, init, bss) in &surfs {
        let got = if bss.is_some() { bindless.next() } else { bound.next() };
        let got = got.expect("one simulator surface per surface");
        let want = &mem.surface(*id).expect("added above").data;
        if let Err(e) = first_diff(want, &got.data, "surface") {
            return Outcome::Differ(format!("{name} simd{lanes}: {e}"));
        }
        touched |= want != init;
    }
    Outcome::Agree(touched || bufs.iter().any(|(id, _, init)| mem.buffer(*id) != &init[..]))
}

#[test]
fn lowered_kernels_compute_what_the_ir_computes() {
    let (mut agreed, mut changed, mut skipped, mut failures) = (0, 0, Vec::new(), Vec::new());
    for (name, f) in visa_common::visa_filetest_kernels() {
        for simd in [ExecSize::S8, ExecSize::S4, ExecSize::S16] {
            // The platform a file is written for (its name ends in `-dg2` or `-pvc`), else the
            // first that lowers the kernel: TGLLP, or DG2 for what only DG2 and PVC express
            // (64-bit SLM atomics), or PVC. (Not every platform: PVC's native `df` arithmetic
            // is simulated with the host's NaN rules, not the IR's canonical NaN.)
            let file = name.split('/').next().unwrap_or("");
            let mut platforms = vec![
                (VisaPlatform::Tgllp, Platform::Tgllp),
                (VisaPlatform::Dg2, Platform::Dg2),
                (VisaPlatform::Pvc, Platform::Pvc),
            ];
            if file.ends_with("-pvc") {
                platforms.rotate_left(2);
            } else if file.ends_with("-dg2") {
                platforms.rotate_left(1);
            }
            let mut any = false;
            for (vp, p) in platforms {
                let opts = Options { simd, ..Default::default() };
                let Ok(k) = atomc::visa_kernel(&f, Target::Visa(vp), &opts) else { continue };
                any = true;
                match differential(&format!("{name} on {p}"), &f, &k, p, simd.lanes()) {
                    Outcome::Agree(c) => {
                        agreed += 1;
                        changed += c as usize;
                    }
                    Outcome::Differ(d) => failures.push(d),
                    Outcome::Skipped(s) => skipped.push(s),
                }
                break;
            }
            if !any {
                skipped.push(format!("{name} simd{} (not lowered for TGLLP, DG2 or PVC)", simd.lanes()));
            }
        }
    }
    println!(
        "vISA differential: {agreed} kernel×width runs agree with the IR interpreter ({changed} changed memory), {} differ, {} skipped",
        failures.len(),
        skipped.len()
    );
    for s in &skipped {
        println!("  skipped {s}");
    }
    for f in &failures {
        println!("DIFF {f}");
    }
    assert!(failures.is_empty());
    assert!(changed * 4 >= agreed * 3, "most kernels must write memory");
}

/// The comparison has teeth: swapping the value operands of every
/// `cmpxchg`, or turning `add` into `sub`, in the lowered kernels must be
/// noticed for most kernels that use them.
#[test]
fn broken_lowerings_are_noticed() {
    let (mut broken, mut noticed) = (0, 0);
    for (name, f) in visa_common::visa_filetest_kernels() {
        let Ok(mut k) = atomc::visa_kernel(&f, Target::Visa(VisaPlatform::Tgllp), &Options::default()) else {
            continue;
        };
        let mut touched = false;
        for i in k.insts.iter_mut().filter(|i| i.op == Op::SvmAtomic) {
            match i.ext {
                Ext::Atomic(AtomicOp::CmpXchg, _) => {
                    i.operands.swap(1, 2);
                    touched = true;
                }
                Ext::Atomic(AtomicOp::Add, w) => {
                    i.ext = Ext::Atomic(AtomicOp::Sub, w);
                    touched = true;
                }
                _ => {}
            }
        }
        if !touched {
            continue;
        }
        broken += 1;
        match differential(&name, &f, &k, Platform::Tgllp, 8) {
            Outcome::Differ(_) => noticed += 1,
            _ => println!(
                "  not noticed: {name} (its CAS compares fail either way, or the atomic's effect is not stored)"
            ),
        }
    }
    println!("vISA differential: {noticed} of {broken} deliberately broken kernels noticed");
    assert!(broken > 0 && noticed * 10 >= broken * 6, "{noticed} of {broken}");
}

/// Every lowerable kernel of every `.atom` filetest (all folders), SIMD8.
/// Prints the runs that differ; kernels whose memory depends on the order
/// lanes reach a contended address may legitimately differ.
#[test]
#[ignore]
fn corpus_differential() {
    let files = all_filetest_files();
    let (mut agreed, mut differ) = (0, 0);
    for path in files {
        let Ok(src) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Ok(funcs) = atomc::ir::parse::parse(&src) else {
            continue;
        };
        for f in funcs {
            let name = format!("{}:%{}", path.display(), f.name);
            let Ok(k) = atomc::visa_kernel(&f, Target::Visa(VisaPlatform::Tgllp), &Options::default()) else {
                continue;
            };
            match differential(&name, &f, &k, Platform::Tgllp, 8) {
                Outcome::Agree(_) => agreed += 1,
                Outcome::Differ(d) => {
                    differ += 1;
                    println!("DIFF {d}");
                }
                Outcome::Skipped(_) => {}
            }
        }
    }
    println!("vISA corpus differential: {agreed} agree, {differ} differ");
}

/// The subgroup sequences depend on the execution mask: reading the lane mask with every
/// channel enabled (`mov (M1_NM, n) t 1`), or leaving the disabled channels of a reduction's
/// copy without the identity, must be noticed on the kernels that run part of their lanes.
#[test]
fn subgroup_mask_breakage_is_noticed() {
    breakage_is_noticed("subgroup/", "subgroup kernels with a broken mask", |k| {
        let mut touched = false;
        for i in k.insts.iter_mut().filter(|i| i.op == Op::Mov && i.exec.size == ExecSize::S8) {
            if let Some(atomc_emit::visa::Operand::Imm(imm)) = i.operands.get(1) {
                if !i.exec.nomask && imm.bits == 1 {
                    i.exec.nomask = true;
                    touched = true;
                } else if i.exec.nomask && (imm.bits == 0xffff_ffff || imm.bits == 0x7fff_ffff) {
                    i.exec.nomask = false;
                    touched = true;
                }
            }
        }
        touched
    });
}

/// The bit-op kernels' results reach memory: swapping `lzd` and `fbl`, `bfrev` for `mov`,
/// `mulh` for `mul`, or dropping the predicated fix-ups of `bfe`/`bfi` must be noticed.
#[test]
fn bit_op_breakage_is_noticed() {
    breakage_is_noticed("bits/", "broken bit-op kernels", |k| {
        let before = k.insts.len();
        k.insts.retain(|i| !(i.op == Op::Mov && i.pred.is_some()));
        let mut touched = k.insts.len() != before;
        for i in k.insts.iter_mut() {
            let new = match i.op {
                Op::Lzd => Op::Fbl,
                Op::Fbl => Op::Lzd,
                Op::Bfrev => Op::Mov,
                Op::Mulh => Op::Mul,
                Op::Cbit => Op::Mov,
                Op::Mad => Op::Add,
                _ => continue,
            };
            if new == Op::Add {
                i.operands.truncate(3);
            }
            i.op = new;
            touched = true;
        }
        touched
    });
}

/// Breaks each TGLLP kernel of the filetests whose name starts with `prefix` with `mutate`
/// (`false`: nothing to break) and requires the differential run to notice every one.
fn breakage_is_noticed(prefix: &str, what: &str, mutate: impl Fn(&mut atomc_emit::visa::Kernel) -> bool) {
    let (mut broken, mut noticed) = (0, 0);
    for (name, f) in visa_common::visa_filetest_kernels().into_iter().filter(|(n, _)| n.starts_with(prefix)) {
        let Ok(mut k) = atomc::visa_kernel(&f, Target::Visa(VisaPlatform::Tgllp), &Options::default()) else {
            continue;
        };
        if !mutate(&mut k) {
            continue;
        }
        broken += 1;
        match differential(&name, &f, &k, Platform::Tgllp, 8) {
            Outcome::Differ(_) => noticed += 1,
            _ => println!("  not noticed: {name}"),
        }
    }
    println!("vISA differential: {noticed} of {broken} {what} noticed");
    assert!(broken >= 5 && noticed == broken, "{noticed} of {broken}");
}

/// The bindless kernels (`visa/surface-bindless.atom`) at SIMD8 and SIMD16 write what the
/// interpreter writes through their handles; and the handle loop's two `goto`s matter: without
/// the forward one, every lane runs the access on the round's handle, without the backward one
/// the lanes of the other handles never get theirs. Each mutation must be noticed on every
/// kernel with a varying handle.
#[test]
fn bindless_handles_reach_their_surfaces() {
    let kernels: Vec<(String, Function)> = visa_common::visa_filetest_kernels()
        .into_iter()
        .filter(|(n, _)| n.starts_with("surface-bindless/"))
        .collect();
    let tgl = Target::Visa(VisaPlatform::Tgllp);
    let mut runs = 0;
    for (name, f) in &kernels {
        for simd in [ExecSize::S8, ExecSize::S16] {
            let opts = Options { simd, ..Default::default() };
            let k = atomc::visa_kernel(f, tgl, &opts).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(k.insts.iter().any(|i| i.op == Op::Movs), "{name}: no movs");
            match differential(name, f, &k, Platform::Tgllp, simd.lanes()) {
                Outcome::Agree(true) => runs += 1,
                Outcome::Agree(false) => panic!("{name} simd{}: no memory changed", simd.lanes()),
                Outcome::Differ(d) => panic!("{d}"),
                Outcome::Skipped(s) => panic!("skipped {s}"),
            }
        }
    }
    let (mut broken, mut noticed) = (0, 0);
    for (name, f) in kernels.iter().filter(|(n, _)| n.contains("%varying")) {
        for backward in [false, true] {
            let mut k = atomc::visa_kernel(f, tgl, &Options::default()).expect("lowered above");
            let movs = k.insts.iter().position(|i| i.op == Op::Movs).expect("a movs");
            let gotos: Vec<usize> = (movs..k.insts.len()).filter(|&i| k.insts[i].op == Op::Goto).collect();
            // The forward goto follows the movs first; the backward one closes the loop last.
            let at = if backward { *gotos.last().unwrap() } else { gotos[0] };
            k.insts.remove(at);
            broken += 1;
            match differential(name, f, &k, Platform::Tgllp, 8) {
                Outcome::Differ(_) => noticed += 1,
                _ => {
                    let which = if backward { "backward" } else { "forward" };
                    println!("  not noticed: {name} without its {which} goto");
                }
            }
        }
    }
    println!("vISA bindless: {runs} kernel×width runs agree; {noticed} of {broken} broken handle loops noticed");
    assert!(runs >= 14, "{runs} runs");
    assert!(broken >= 8 && noticed == broken, "{noticed} of {broken}");
}
