//! atomc's cubin and ptxas's cubin of the same kernel, run on a GPU through the CUDA driver,
//! compared with each other and with the reference interpreter.
//!
//! Kernels: every function of `filetests/filetests/interpret/*.atom` that is a kernel (no
//! return values, no surfaces) with a `; run:` line that launches it without expecting an error,
//! plus a few benchmark kernels from `filetests/bench/` with the inputs written below. Each is
//! compiled for sm_90 by atomc (`Emit::Cubin`) and, from atomc's PTX, by ptxas 13.
//!
//! Per launch, each GPU result (one per cubin) is judged against the interpreter's memory:
//! * **bytes**: every declared buffer holds exactly the interpreter's bytes;
//! * **checks**: the bytes differ, but every `=>` check of the run line holds on the GPU's memory
//!   (the checks are the order-independent ones, `sorted`, `as set`, `sum`, where the threads'
//!   interleaving is free; the interpreter's one interleaving is just one of the allowed ones);
//! * otherwise a mismatch, which fails the test.
//!
//! Without a CUDA driver or an sm_90 device, both cubins run on the SASS emulator
//! (`atomc-emu`, timing checks on) instead, judged the same way; cases the emulator cannot run
//! yet, or that are known to differ (see `tests/emu_ptxas.rs`, `tests/emu_atomc.rs`), are listed
//! by the message, not failed. Without ptxas the test prints a `SKIPPED (...)` line.
//! `gpu_cases_prepare` runs everywhere: it builds the same case list, compiles both cubins'
//! inputs and runs the interpreter.

#![cfg(feature = "gpu")]

mod common;

use std::sync::mpsc;
use std::time::Duration;

use atomc::gpu::{self, Driver, KernelArg};
use atomc::emulate::{self, Param, Schedule};
use atomc::ir::Function;
use atomc::{Emit, Options, Output, Target};
use atomc_oracle::{self as oracle, Sm, Tool};
use common::cases::{collect_cases, Case};

/// How long one launch may take before the test gives up on the whole run (`ATOMC_GPU_LAUNCH_LIMIT`
/// seconds, default 60): a kernel that spins forever (a lock that is never released, a
/// miscompiled loop) would otherwise hang the suite.
fn launch_limit() -> Duration {
    let secs = std::env::var("ATOMC_GPU_LAUNCH_LIMIT").ok().and_then(|s| s.parse().ok()).unwrap_or(60);
    Duration::from_secs(secs)
}

/// Starts a thread that ends the process when a launch named on the channel (its label and
/// whose cubin) is not followed by `None` (done) within [`launch_limit`]. The last line it
/// prints, `gpu: hung: LABEL`, names the launch for `ATOMC_GPU_SKIP`.
fn watchdog() -> mpsc::Sender<Option<(String, &'static str)>> {
    let (tx, rx) = mpsc::channel::<Option<(String, &'static str)>>();
    let limit = launch_limit();
    std::thread::spawn(move || {
        let mut current: Option<(String, &'static str)> = None;
        loop {
            match rx.recv_timeout(limit) {
                Ok(msg) => current = msg,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Some((label, who)) = &current {
                        eprintln!("gpu: {label}: {who}'s cubin did not finish within {limit:?}; giving up");
                        eprintln!("gpu: hung: {label}");
                        std::process::exit(1);
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => return,
            }
        }
    });
    tx
}

fn sizes(case: &Case) -> ([u32; 3], [u32; 3]) {
    emulate::sizes(&case.spec)
}

/// The value of `r`; or `None`, with its error noted in `mismatches` as `context: error`.
fn noted<T, E: std::fmt::Display>(
    r: Result<T, E>,
    mismatches: &mut Vec<String>,
    context: impl FnOnce() -> String,
) -> Option<T> {
    r.map_err(|e| mismatches.push(format!("{}: {e}", context()))).ok()
}

fn interpret(case: &Case) -> Result<Vec<Vec<u8>>, String> {
    emulate::interpret(&case.func, &case.spec)
}

/// The kernel parameters as the GPU receives them (see atomc's PTX parameter types).
fn gpu_args(case: &Case) -> Result<Vec<KernelArg>, String> {
    Ok(emulate::kernel_params(&case.func, &case.spec)?
        .into_iter()
        .map(|p| match p {
            Param::Bytes(b) => KernelArg::Bytes(b),
            Param::Buffer { index, offset } => KernelArg::Buffer { index, offset },
        })
        .collect())
}

/// atomc's sm_90 cubin of `func` under a register cap (`None`: the whole file).
fn capped_cubin(func: &Function, max_registers: Option<u32>) -> Result<Vec<u8>, String> {
    match atomc::compile_with(func, Target::Sm90, Emit::Cubin, &Options { max_registers, ..Default::default() }) {
        Ok(Output::Binary(b)) => Ok(b),
        Ok(_) => Err("cubin: not binary output".into()),
        Err(e) => Err(format!("cubin: {e}")),
    }
}

/// Both compiler outputs for sm_90: atomc's cubin (under the case's register cap) and atomc's PTX.
fn compile_both(func: &Function, max_registers: Option<u32>) -> Result<(Vec<u8>, String), String> {
    let cubin = capped_cubin(func, max_registers)?;
    let ptx = match atomc::compile(func, Target::Sm90, Emit::Ptx) {
        Ok(Output::Text(t)) => t,
        Ok(_) => return Err("ptx: not text output".into()),
        Err(e) => return Err(format!("ptx: {e}")),
    };
    Ok((cubin, ptx))
}

/// The register cap of the second atomc cubin each case runs with: the bench kernels and the
/// filetests must still compile and run when 32 registers are all a thread may use.
const TIGHT_CAP: u32 = 32;

/// Labels named in `ATOMC_GPU_SKIP` (comma-separated): launches left out of a hardware run, for
/// a rerun after one hung (the watchdog ends the process and names it).
fn skipped_labels() -> Vec<String> {
    std::env::var("ATOMC_GPU_SKIP")
        .map(|s| s.split(',').map(|l| l.trim().to_string()).filter(|l| !l.is_empty()).collect())
        .unwrap_or_default()
}

/// How one GPU result relates to the interpreter's.
fn judge(case: &Case, got: &[Vec<u8>], want: &[Vec<u8>]) -> Result<bool, String> {
    emulate::judge(&case.spec, got, want)
}

#[test]
fn gpu_cases_prepare() {
    let (cases, problems) = collect_cases();
    assert!(
        problems.is_empty(),
        "cannot read the kernels: {problems:#?}"
    );
    let mut compiled = 0;
    let mut bad = Vec::new();
    for case in &cases {
        match compile_both(&case.func, case.max_registers) {
            Ok(_) => compiled += 1,
            Err(e) => eprintln!("gpu cases: {} is not compiled for sm_90: {e}", case.label),
        }
        let want = interpret(case).unwrap_or_else(|e| panic!("{}: interpreter: {e}", case.label));
        if let Err(e) = case.spec.check_contents(&want) {
            bad.push(format!(
                "{}: the interpreter's own run fails its line: {e}",
                case.label
            ));
        }
        if let Err(e) = gpu_args(case) {
            bad.push(format!("{}: {e}", case.label));
        }
    }
    eprintln!(
        "gpu cases: {} launches, {compiled} compile for sm_90 (atomc cubin + PTX)",
        cases.len()
    );
    assert!(bad.is_empty(), "{bad:#?}");
    assert!(compiled >= 20, "only {compiled} launches compile for sm_90");
}

#[test]
fn gpu_run() {
    let driver = match Driver::load() {
        Ok(d) => d,
        Err(e) => return emulated(&format!("no CUDA driver: {e}")),
    };
    let device = match driver.device(0) {
        Ok(d) => d,
        Err(e) => return emulated(&format!("no CUDA device: {e}")),
    };
    let cc = device.compute_capability().expect("compute capability");
    let name = device.name().unwrap_or_default();
    if cc != (9, 0) {
        return emulated(&format!("device {name} is sm_{}{}, these cubins are sm_90", cc.0, cc.1));
    }
    if oracle::require(Tool::Ptxas13).is_none() {
        return;
    }
    eprintln!(
        "gpu: device {name}, sm_{}{}, driver {}",
        cc.0,
        cc.1,
        driver.version().unwrap_or(0)
    );
    let (cases, problems) = collect_cases();
    assert!(
        problems.is_empty(),
        "cannot read the kernels: {problems:#?}"
    );
    let skip = skipped_labels();
    let (mut run, mut agree, mut bytewise) = (0, 0, 0);
    let (mut capped_run, mut capped_ok) = (0, 0);
    let mut mismatches = Vec::new();
    let mut not_compiled = 0;
    let dog = watchdog();
    let mut atomc_alone = 0;
    for case in cases.iter().filter(|c| !skip.contains(&c.label)) {
        // atomc's cubin alone (judged by the interpreter) where atomc writes no PTX for the
        // kernel: the ops it selects for sm_90 but not yet for PTX.
        let (atomc_cubin, ptx) = match compile_both(&case.func, case.max_registers) {
            Ok((c, p)) => (c, Some(p)),
            Err(_) => match capped_cubin(&case.func, case.max_registers) {
                Ok(c) => {
                    atomc_alone += 1;
                    (c, None)
                }
                Err(_) => {
                    not_compiled += 1;
                    continue;
                }
            },
        };
        let ptxas = ptx.map(|p| oracle::ptxas(Sm::Sm90, &p)).transpose();
        let Some(ptxas_cubin) = noted(ptxas, &mut mismatches, || format!("{}: ptxas rejects atomc's PTX", case.label))
        else {
            continue;
        };
        let Some(want) = noted(interpret(case), &mut mismatches, || format!("{}: interpreter", case.label)) else {
            continue;
        };
        let Some(args) = noted(gpu_args(case), &mut mismatches, || case.label.clone()) else {
            continue;
        };
        let inits: Vec<Vec<u8>> = case.spec.decls().into_iter().map(|d| d.init).collect();
        let (grid, block) = sizes(case);
        let name = case.func.name.as_str();
        let shared = case.spec.shared_bytes();
        // A second atomc cubin under a tight register cap, where that changes the code.
        let capped = match case.max_registers {
            None => match capped_cubin(&case.func, Some(TIGHT_CAP)) {
                Ok(c) if c != atomc_cubin => Some(c),
                Ok(_) => None,
                Err(e) => {
                    mismatches.push(format!("{}: under --max-registers {TIGHT_CAP}: {e}", case.label));
                    None
                }
            },
            Some(_) => None,
        };
        run += 1;
        let mut ok = true;
        let mut exact = true;
        let mut results = Vec::new();
        let mut cubins = vec![("atomc", &atomc_cubin)];
        if let Some(c) = &ptxas_cubin {
            cubins.push(("ptxas", c));
        }
        if let Some(c) = &capped {
            cubins.push(("atomc --max-registers 32", c));
            capped_run += 1;
        }
        for (who, cubin) in cubins {
            eprintln!("gpu: {}: {who}", case.label);
            let _ = dog.send(Some((case.label.clone(), who)));
            let result = gpu::run_kernel(&driver, cubin, name, grid, block, shared, &args, &inits);
            let _ = dog.send(None);
            let verdict = result.map_err(|e| e.to_string()).and_then(|got| {
                let same = judge(case, &got, &want)?;
                Ok((got, same))
            });
            match verdict {
                // The capped cubin is judged against the interpreter alone: it may take other
                // (equally allowed) interleavings than the uncapped one.
                Ok(_) if who.starts_with("atomc --max") => capped_ok += 1,
                Ok((got, same)) => {
                    exact &= same;
                    results.push(got);
                }
                Err(e) => {
                    ok = false;
                    mismatches.push(format!("{}: {who}'s cubin: {e}", case.label));
                }
            }
        }
        if let [a, p] = results.as_slice() {
            if a != p && exact {
                exact = false;
            }
        }
        if ok {
            agree += 1;
            bytewise += usize::from(exact);
        }
    }
    let list = if mismatches.is_empty() {
        "none".to_string()
    } else {
        mismatches.join("; ")
    };
    eprintln!(
        "gpu: {run} kernels run, atomc == ptxas == interpreter on {agree} \
         ({bytewise} byte for byte, the rest by the run lines' order-independent checks), \
         {not_compiled} launches skipped (atomc does not compile them for sm_90), \
         {atomc_alone} run with atomc's cubin alone (no PTX for them yet), \
         {capped_ok} of {capped_run} atomc cubins under --max-registers {TIGHT_CAP} agree too, \
         {} left out by ATOMC_GPU_SKIP, mismatches: {list}",
        skip.len()
    );
    assert!(mismatches.is_empty(), "{} mismatches", mismatches.len());
}

/// The GPU-less stand-in: both cubins of every case on the SASS emulator, judged the same way.
fn emulated(why: &str) {
    if oracle::require(Tool::Ptxas13).is_none() {
        return;
    }
    eprintln!("gpu: {why}; running both cubins on the SASS emulator instead");
    let (cases, problems) = collect_cases();
    assert!(problems.is_empty(), "cannot read the kernels: {problems:#?}");
    let (mut run, mut agree, mut known) = (0, 0, 0);
    let mut mismatches = Vec::new();
    for case in &cases {
        let Ok((atomc_cubin, ptx)) = compile_both(&case.func, case.max_registers) else {
            continue;
        };
        let ptxas = oracle::ptxas(Sm::Sm90, &ptx);
        let Some(ptxas_cubin) = noted(ptxas, &mut mismatches, || format!("{}: ptxas rejects atomc's PTX", case.label))
        else {
            continue;
        };
        let Some(want) = noted(interpret(case), &mut mismatches, || format!("{}: interpreter", case.label)) else {
            continue;
        };
        run += 1;
        let mut ok = true;
        for (who, producer, cubin) in [
            ("atomc", common::emu::Producer::Atomc, &atomc_cubin),
            ("ptxas", common::emu::Producer::Ptxas, &ptxas_cubin),
        ] {
            if let Err(e) = emulate::run_and_judge(cubin, &case.func, &case.spec, &want, Schedule::RoundRobin) {
                ok = false;
                if common::emu::is_known(producer, "sm_90", &case.label, &e) {
                    known += 1;
                } else {
                    mismatches.push(format!("{}: {who}'s cubin on the emulator: {e}", case.label));
                }
            }
        }
        agree += usize::from(ok);
    }
    eprintln!(
        "gpu (emulated): {run} kernels run, atomc and ptxas == interpreter on {agree}, {known} known \
         differences or gaps, mismatches: {}",
        if mismatches.is_empty() { "none".to_string() } else { mismatches.join("; ") }
    );
    assert!(mismatches.is_empty(), "{} mismatches on the emulator", mismatches.len());
}

/// Contended-atomic kernels at a size where the hardware's atomic throughput shows: (bench file
/// stem, run line). The checks hold whatever order the threads win in.
const THROUGHPUT_RUNS: &[(&str, &str)] = &[
    ("counter_red", "grid 1024 block 256 args(c) c: i32[1] = 0 => c == [262144]"),
    (
        "counter_slot",
        "grid 1024 block 256 args(c, s) c: i32[1] = 0 s: i32[262144] => c == [262144], s sorted == iota",
    ),
    (
        "counter_i64",
        "grid 1024 block 256 args(c, o, 3) c: i64[1] = 0 o: i64[256] => c == [34209792]",
    ),
    (
        "compact_append",
        "grid 1024 block 256 args(c, d, o) c: i32[1] = 0 d: i32[262144] = iota o: i32[262144] => c == [393216]",
    ),
    (
        "hist_global",
        "grid 1024 block 256 args(d, h) d: i32[262144] = iota h: i32[256] => h all == 1024",
    ),
    (
        "hist_shared",
        "grid 1024 block 256 shared 1024 args(d, h, 0) d: i32[262144] = iota h: i32[256] => h all == 1024",
    ),
    (
        "f32_add_native",
        "grid 1024 block 256 args(o, i, v) o: f32[8] i: i32[262144] = 0 v: f32[262144] = 1.0 => o[0] == 262144.0",
    ),
    (
        "reduce_minmax",
        "grid 1024 block 256 args(r, d) r: i32[4] = [2147483647, -2147483648, -1, 0] d: i32[262144] = iota \
         => r == [0, 262143, 0, 262143]",
    ),
];

/// Launches timed per cubin in one round; the median over all rounds is reported.
const TIMED_LAUNCHES: usize = 21;

/// Rounds of [`TIMED_LAUNCHES`] launches, atomc's and ptxas's cubins taking turns, so that a
/// change of clock or load during the test falls on both.
const TIMED_ROUNDS: usize = 5;

/// atomc's and ptxas's cubins of contended-atomic kernels, timed on the GPU: the median of
/// [`TIMED_ROUNDS`] × [`TIMED_LAUNCHES`] launches each (CUDA events around each launch: the
/// device's time), with the run line's checks on each round's first launch's memory. Hardware only: without an sm_90 device it says
/// so and passes (the emulator's timing says nothing about the hardware's atomic units).
#[test]
fn gpu_throughput() {
    let Ok(driver) = Driver::load() else {
        return eprintln!("gpu timing: SKIPPED (no CUDA driver)");
    };
    let Ok(device) = driver.device(0) else {
        return eprintln!("gpu timing: SKIPPED (no CUDA device)");
    };
    if device.compute_capability().ok() != Some((9, 0)) {
        return eprintln!("gpu timing: SKIPPED (the device is not sm_90)");
    }
    if oracle::require(Tool::Ptxas13).is_none() {
        return;
    }
    let dog = watchdog();
    let mut failures = Vec::new();
    for (stem, line) in THROUGHPUT_RUNS {
        let path = common::cases::repo().join("filetests/bench").join(format!("{stem}.atom"));
        let src = std::fs::read_to_string(&path).expect("bench kernel");
        let func = atomc::ir::parse::parse(&src).expect("parses").remove(0);
        let spec = atomc::ir::interp::parse_run_line(&func, line).expect("run line");
        let (cubin, ptx) = compile_both(&func, None).expect("compiles for sm_90");
        let ptxas_cubin = oracle::ptxas(Sm::Sm90, &ptx).expect("ptxas accepts atomc's PTX");
        let args: Vec<KernelArg> = emulate::kernel_params(&func, &spec)
            .expect("parameters")
            .into_iter()
            .map(|p| match p {
                Param::Bytes(b) => KernelArg::Bytes(b),
                Param::Buffer { index, offset } => KernelArg::Buffer { index, offset },
            })
            .collect();
        let inits: Vec<Vec<u8>> = spec.decls().into_iter().map(|d| d.init).collect();
        let (grid, block) = emulate::sizes(&spec);
        let shape = gpu::LaunchShape { grid, block, shared_bytes: spec.shared_bytes() };
        let mut times = [Vec::new(), Vec::new()];
        // Each round's median, to show the spread between rounds.
        let mut rounds = [Vec::new(), Vec::new()];
        for _ in 0..TIMED_ROUNDS {
            for (k, (who, image)) in [("atomc", &cubin), ("ptxas", &ptxas_cubin)].into_iter().enumerate() {
                let _ = dog.send(Some((format!("timing {stem}"), who)));
                let timed = gpu::time_kernel(&driver, image, &func.name, shape, &args, &inits, TIMED_LAUNCHES);
                let _ = dog.send(None);
                match timed {
                    Ok((memory, mut round)) => {
                        if let Err(e) = spec.check_contents(&memory) {
                            failures.push(format!("{stem}: {who}'s cubin: {e}"));
                        }
                        round.sort();
                        rounds[k].push(round[round.len() / 2].as_secs_f64() * 1e6);
                        times[k].extend(round);
                    }
                    Err(e) => failures.push(format!("{stem}: {who}'s cubin: {e}")),
                }
            }
        }
        let medians: Vec<_> = times
            .iter_mut()
            .filter(|t| t.len() == TIMED_ROUNDS * TIMED_LAUNCHES)
            .map(|t| {
                t.sort();
                t[t.len() / 2]
            })
            .collect();
        let spread = |r: &[f64]| {
            let (lo, hi) = r.iter().fold((f64::MAX, 0f64), |(lo, hi), &x| (lo.min(x), hi.max(x)));
            format!("{lo:.1}-{hi:.1}")
        };
        if let [a, p] = medians.as_slice() {
            eprintln!(
                "gpu timing: {stem}: {} threads, atomc {:.1} us, ptxas {:.1} us, atomc/ptxas {:.2} \
                 (rounds' medians: atomc {}, ptxas {})",
                grid.iter().chain(&block).product::<u32>(),
                a.as_secs_f64() * 1e6,
                p.as_secs_f64() * 1e6,
                a.as_secs_f64() / p.as_secs_f64(),
                spread(&rounds[0]),
                spread(&rounds[1])
            );
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The timed kernels' run lines parse, name every parameter, and both kernels compile: checked
/// everywhere, so a hardware run does not find a typo.
#[test]
fn gpu_throughput_runs_prepare() {
    for (stem, line) in THROUGHPUT_RUNS {
        let path = common::cases::repo().join("filetests/bench").join(format!("{stem}.atom"));
        let src = std::fs::read_to_string(&path).expect("bench kernel");
        let func = atomc::ir::parse::parse(&src).expect("parses").remove(0);
        let spec = atomc::ir::interp::parse_run_line(&func, line).unwrap_or_else(|e| panic!("{stem}: {e}"));
        emulate::kernel_params(&func, &spec).unwrap_or_else(|e| panic!("{stem}: {e}"));
        compile_both(&func, None).unwrap_or_else(|e| panic!("{stem}: {e}"));
    }
}
