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
use atomc::{Emit, Output, Target};
use atomc_oracle::{self as oracle, Sm, Tool};
use common::cases::{collect_cases, Case};

/// How long one launch may take before the test gives up on the whole run: a kernel that spins
/// forever (a lock that is never released, a miscompiled loop) would otherwise hang the suite.
const LAUNCH_LIMIT: Duration = Duration::from_secs(60);

/// Starts a thread that ends the process when a launch named on the channel is not followed by
/// `None` (done) within [`LAUNCH_LIMIT`].
fn watchdog() -> mpsc::Sender<Option<String>> {
    let (tx, rx) = mpsc::channel::<Option<String>>();
    std::thread::spawn(move || {
        let mut current: Option<String> = None;
        loop {
            match rx.recv_timeout(LAUNCH_LIMIT) {
                Ok(msg) => current = msg,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Some(what) = &current {
                        eprintln!("gpu: {what} did not finish within {LAUNCH_LIMIT:?}; giving up");
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

/// Both compiler outputs for sm_90: atomc's cubin and atomc's PTX.
fn compile_both(func: &Function) -> Result<(Vec<u8>, String), String> {
    let cubin = match atomc::compile(func, Target::Sm90, Emit::Cubin) {
        Ok(Output::Binary(b)) => b,
        Ok(_) => return Err("cubin: not binary output".into()),
        Err(e) => return Err(format!("cubin: {e}")),
    };
    let ptx = match atomc::compile(func, Target::Sm90, Emit::Ptx) {
        Ok(Output::Text(t)) => t,
        Ok(_) => return Err("ptx: not text output".into()),
        Err(e) => return Err(format!("ptx: {e}")),
    };
    Ok((cubin, ptx))
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
        match compile_both(&case.func) {
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
    let (mut run, mut agree, mut bytewise) = (0, 0, 0);
    let mut mismatches = Vec::new();
    let mut not_compiled = 0;
    let dog = watchdog();
    for case in &cases {
        let Ok((atomc_cubin, ptx)) = compile_both(&case.func) else {
            not_compiled += 1;
            continue;
        };
        let ptxas_cubin = match oracle::ptxas(Sm::Sm90, &ptx) {
            Ok(c) => c,
            Err(e) => {
                mismatches.push(format!("{}: ptxas rejects atomc's PTX: {e}", case.label));
                continue;
            }
        };
        let want = match interpret(case) {
            Ok(w) => w,
            Err(e) => {
                mismatches.push(format!("{}: interpreter: {e}", case.label));
                continue;
            }
        };
        let args = match gpu_args(case) {
            Ok(a) => a,
            Err(e) => {
                mismatches.push(format!("{}: {e}", case.label));
                continue;
            }
        };
        let inits: Vec<Vec<u8>> = case.spec.decls().into_iter().map(|d| d.init).collect();
        let (grid, block) = sizes(case);
        let name = case.func.name.as_str();
        let shared = case.spec.shared_bytes();
        run += 1;
        let mut ok = true;
        let mut exact = true;
        let mut results = Vec::new();
        for (who, cubin) in [("atomc", &atomc_cubin), ("ptxas", &ptxas_cubin)] {
            let _ = dog.send(Some(format!("{}: {who}'s cubin", case.label)));
            let result = gpu::run_kernel(&driver, cubin, name, grid, block, shared, &args, &inits);
            let _ = dog.send(None);
            match result {
                Ok(got) => {
                    match judge(case, &got, &want) {
                        Ok(same) => exact &= same,
                        Err(e) => {
                            ok = false;
                            mismatches.push(format!("{}: {who}'s cubin {e}", case.label));
                        }
                    }
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
         {not_compiled} launches skipped (atomc does not compile them for sm_90), mismatches: {list}"
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
        let Ok((atomc_cubin, ptx)) = compile_both(&case.func) else {
            continue;
        };
        let ptxas_cubin = match oracle::ptxas(Sm::Sm90, &ptx) {
            Ok(c) => c,
            Err(e) => {
                mismatches.push(format!("{}: ptxas rejects atomc's PTX: {e}", case.label));
                continue;
            }
        };
        let want = match interpret(case) {
            Ok(w) => w,
            Err(e) => {
                mismatches.push(format!("{}: interpreter: {e}", case.label));
                continue;
            }
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
