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
//! Without a CUDA driver (or without an sm_90 device, or without ptxas) the GPU test prints a
//! `SKIPPED (...)` line and passes. `gpu_cases_prepare` runs everywhere: it builds the same case
//! list, compiles both cubins' inputs and runs the interpreter, so the harness is exercised on
//! machines without a GPU.

#![cfg(feature = "gpu")]

use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

use atomc::gpu::{self, Driver, KernelArg};
use atomc::ir::interp::{self, KernelParam, RunSpec};
use atomc::ir::{Function, Type};
use atomc::{Emit, Output, Target};
use atomc_emit::oracle::{self, Sm, Tool};
use atomc_filetests::testfile::TestFile;

/// Benchmark kernels with inputs: (file stem, run line).
const BENCH_RUNS: &[(&str, &str)] = &[
    ("hist_global", "grid 4 block 64 args(d, h) d: i32[256] = iota h: i32[256] => h all == 1"),
    ("counter_i64", "block 64 args(c, o, 3) c: i64[1] = 0 o: i64[64] => c == [2208]"),
    (
        "argmax_umax64",
        "grid 2 block 64 args(m, s) m: u64[1] = 0 s: u32[128] = iota => m == [0x7f0000007f]",
    ),
    (
        "reduce_shared_sum",
        "grid 2 block 64 shared 4 args(s, d, 0) s: i32[1] = 0 d: i32[128] = 1 => s == [128]",
    ),
    ("f32_add_native", "grid 2 block 64 args(o, i, v) o: f32[8] i: i32[128] = 0 v: f32[128] = 1.0 => o[0] == 128.0"),
];

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

/// One launch to try.
struct Case {
    /// `file:function#line-index`, for messages.
    label: String,
    func: Function,
    spec: RunSpec,
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Whether `func` can run on a GPU from a run line at all.
fn is_gpu_kernel(func: &Function) -> bool {
    func.returns.is_empty() && !func.params().iter().any(|t| matches!(t, Type::Surface))
}

/// Whether this run line describes a launch the GPU can repeat.
fn is_gpu_launch(spec: &RunSpec) -> bool {
    spec.expected_error().is_none() && !spec.decls().iter().any(|d| d.surface)
}

/// The run lines of the interpret filetests and the bench kernels, as cases.
fn collect_cases() -> (Vec<Case>, Vec<String>) {
    let mut cases = Vec::new();
    let mut problems = Vec::new();
    let dir = repo().join("filetests/filetests/interpret");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "atom"));
    files.sort();
    for path in &files {
        let src = match std::fs::read_to_string(path) {
            Ok(s) => s,
            Err(e) => {
                problems.push(format!("{}: {e}", path.display()));
                continue;
            }
        };
        let file = match TestFile::scan(&src) {
            Ok(f) => f,
            Err(e) => {
                problems.push(format!("{}: {e}", path.display()));
                continue;
            }
        };
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("?")
            .to_string();
        for range in &file.funcs {
            let Some(func) = parse_one(&file.func_text(range)) else {
                continue;
            };
            if !is_gpu_kernel(&func) {
                continue;
            }
            let runs: Vec<&str> = file
                .func_comments(range)
                .filter_map(|c| c.text.strip_prefix("run:"))
                .collect();
            for (i, line) in runs.iter().enumerate() {
                let Ok(spec) = interp::parse_run_line(&func, line) else {
                    continue;
                };
                if is_gpu_launch(&spec) {
                    let label = format!("{stem}:{}#{i}", func.name);
                    cases.push(Case {
                        label,
                        func: func.clone(),
                        spec,
                    });
                }
            }
        }
    }
    for (stem, line) in BENCH_RUNS {
        let path = repo().join("filetests/bench").join(format!("{stem}.atom"));
        let src = std::fs::read_to_string(&path).unwrap_or_default();
        let Some(func) = parse_one(&src) else {
            problems.push(format!(
                "{}: does not parse as one function",
                path.display()
            ));
            continue;
        };
        match interp::parse_run_line(&func, line) {
            Ok(spec) => cases.push(Case {
                label: format!("bench/{stem}"),
                func,
                spec,
            }),
            Err(e) => problems.push(format!("bench/{stem}: {e}")),
        }
    }
    (cases, problems)
}

fn parse_one(text: &str) -> Option<Function> {
    let mut funcs = atomc::ir::parse::parse(text).ok()?;
    (funcs.len() == 1).then(|| funcs.remove(0))
}

/// The interpreter's final contents of every declaration.
fn interpret(case: &Case) -> Result<Vec<Vec<u8>>, String> {
    case.spec.interpret(&case.func).map_err(|e| e.to_string())
}

/// The kernel parameters as the GPU receives them (see atomc's PTX parameter types).
fn gpu_args(case: &Case) -> Result<Vec<KernelArg>, String> {
    let params = case.spec.kernel_params(&case.func)?;
    Ok(params
        .into_iter()
        .map(|p| match p {
            KernelParam::Bytes(b) => KernelArg::Bytes(b),
            KernelParam::Buffer { index, offset } => KernelArg::Buffer { index, offset },
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
    if got == want {
        return Ok(true);
    }
    if case.spec.check_count() == 0 {
        return Err(
            "differs from the interpreter, and the run line has no checks to judge it by".into(),
        );
    }
    case.spec.check_contents(got).map(|_| false).map_err(|e| {
        let first = got
            .iter()
            .zip(want)
            .zip(case.spec.decls())
            .find(|((g, w), _)| g != w)
            .map(|(_, d)| d.name.to_string())
            .unwrap_or_default();
        format!("differs from the interpreter (first in `{first}`) and the run line fails: {e}")
    })
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
        Err(e) => {
            eprintln!("SKIPPED (no CUDA driver): {e}");
            return;
        }
    };
    let device = match driver.device(0) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("SKIPPED (no CUDA device): {e}");
            return;
        }
    };
    let cc = device.compute_capability().expect("compute capability");
    let name = device.name().unwrap_or_default();
    if cc != (9, 0) {
        eprintln!(
            "SKIPPED (device {name} is sm_{}{}, these cubins are sm_90): nothing run",
            cc.0, cc.1
        );
        return;
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
        let (grid, block) = case.spec.launch_dims();
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
