//! The launches the GPU harness and the emulator tests share: every launchable `; run:` line of
//! `filetests/filetests/interpret/*.atom` plus a few benchmark kernels with inputs.

use std::path::PathBuf;

use atomc::ir::interp::{self, RunSpec};
use atomc::ir::{Function, Type};
use atomc_filetests::testfile::TestFile;

/// Benchmark kernels with inputs: (file stem, run line).
pub const BENCH_RUNS: &[(&str, &str)] = &[
    (
        "hist_global",
        "grid 4 block 64 args(d, h) d: i32[256] = iota h: i32[256] => h all == 1",
    ),
    (
        "counter_i64",
        "block 64 args(c, o, 3) c: i64[1] = 0 o: i64[64] => c == [2208]",
    ),
    (
        "argmax_umax64",
        "grid 2 block 64 args(m, s) m: u64[1] = 0 s: u32[128] = iota => m == [0x7f0000007f]",
    ),
    (
        "reduce_shared_sum",
        "grid 2 block 64 shared 4 args(s, d, 0) s: i32[1] = 0 d: i32[128] = 1 => s == [128]",
    ),
    (
        "f32_add_native",
        "grid 2 block 64 args(o, i, v) o: f32[8] i: i32[128] = 0 v: f32[128] = 1.0 => o[0] == 128.0",
    ),
    ("counter_red", "grid 2 block 64 args(c) c: i32[1] = 0 => c == [128]"),
    (
        "compact_append",
        "grid 2 block 64 args(c, d, o) c: i32[1] = 0 d: i32[128] = iota o: i32[128] => c == [192]",
    ),
    (
        "reduce_minmax",
        "grid 2 block 64 args(r, d) r: i32[4] = [2147483647, -2147483648, -1, 0] d: i32[128] = iota => r == [0, 127, 0, 127]",
    ),
    (
        "counter_slot",
        "grid 2 block 64 args(c, s) c: i32[1] = 0 s: i32[128] => c == [128], s sorted == iota",
    ),
    (
        "spinlock_cas",
        "grid 64 block 32 args(l, c) l: i32[1] = 0 c: i64[1] = 0 => l == [0], c == [64]",
    ),
    (
        "ticket_lock",
        "grid 2 block 32 args(n, s, c) n: i32[1] = 0 s: i32[1] = 0 c: i32[1] = 0 => n == [64], s == [64], c == [64]",
    ),
    (
        "bitset_or",
        "grid 2 block 64 args(b, k) b: i32[4] = 0 k: i32[128] = iota => b all == -1",
    ),
    (
        "cas64_max_pair",
        "grid 2 block 64 args(m, 21474836487) m: u64[1] = 3 => m == [21474836487]",
    ),
    (
        "work_queue_inc_wrap",
        "grid 2 block 64 args(t, q, 15) t: i32[1] = 0 q: i32[16] = -1 => t == [0]",
    ),
];

/// One launch to try.
#[derive(Clone)]
pub struct Case {
    /// `file:function#line-index`, for messages.
    pub label: String,
    pub func: Function,
    pub spec: RunSpec,
    /// A `; max-registers: N` comment of the function: atomc compiles it with that register cap
    /// (`atomc::Options::max_registers`), so the kernel spills to local memory.
    pub max_registers: Option<u32>,
}

/// The repository: `CARGO_MANIFEST_DIR` as cargo sets it when it runs the test, else where the
/// test was built (a test binary copied to another machine is pointed at its checkout so).
pub fn repo() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from).unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")))
}

/// Whether `func` can run on a GPU from a run line at all.
fn is_gpu_kernel(func: &Function) -> bool {
    func.returns.is_empty() && !func.params().iter().any(|t| matches!(t, Type::Surface))
}

/// Whether this run line describes a launch the GPU can repeat.
fn is_gpu_launch(spec: &RunSpec) -> bool {
    // A run line with subgroups other than 32 lanes is for targets other than NVIDIA's warps.
    spec.expected_error().is_none() && !spec.decls().iter().any(|d| d.surface) && spec.subgroup_size() == 32
}

/// The run lines of the interpret filetests and the bench kernels, as cases; and the problems
/// met reading them.
pub fn collect_cases() -> (Vec<Case>, Vec<String>) {
    let (mut cases, mut problems) = interpret_cases(|f, spec| is_gpu_kernel(f) && is_gpu_launch(spec));
    bench_cases(&mut cases, &mut problems);
    (cases, problems)
}

/// The run lines of the interpret filetests that use surfaces, which the GPU harness does not
/// bind (only the emulator runs them).
#[allow(dead_code)]
pub fn collect_surface_cases() -> (Vec<Case>, Vec<String>) {
    interpret_cases(|f, spec| {
        let surfaces = spec.decls().iter().any(|d| d.surface) || f.params().contains(&Type::Surface);
        surfaces && f.returns.is_empty() && spec.expected_error().is_none() && spec.subgroup_size() == 32
    })
}

fn interpret_cases(keep: impl Fn(&Function, &RunSpec) -> bool) -> (Vec<Case>, Vec<String>) {
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
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("?").to_string();
        for range in &file.funcs {
            let Some(func) = parse_one(&file.func_text(range)) else {
                continue;
            };
            let runs: Vec<&str> = file
                .func_comments(range)
                .filter_map(|c| c.text.strip_prefix("run:"))
                .collect();
            let max_registers = file
                .func_comments(range)
                .find_map(|c| c.text.strip_prefix("max-registers:"))
                .and_then(|n| n.trim().parse().ok());
            for (i, line) in runs.iter().enumerate() {
                let Ok(spec) = interp::parse_run_line(&func, line) else {
                    continue;
                };
                if keep(&func, &spec) {
                    let label = format!("{stem}:{}#{i}", func.name);
                    cases.push(Case {
                        label,
                        func: func.clone(),
                        spec,
                        max_registers,
                    });
                }
            }
        }
    }
    (cases, problems)
}

fn bench_cases(cases: &mut Vec<Case>, problems: &mut Vec<String>) {
    for (stem, line) in BENCH_RUNS {
        let path = repo().join("filetests/bench").join(format!("{stem}.atom"));
        let src = std::fs::read_to_string(&path).unwrap_or_default();
        let Some(func) = parse_one(&src) else {
            problems.push(format!("{}: does not parse as one function", path.display()));
            continue;
        };
        match interp::parse_run_line(&func, line) {
            Ok(spec) => cases.push(Case {
                label: format!("bench/{stem}"),
                func,
                spec,
                max_registers: None,
            }),
            Err(e) => problems.push(format!("bench/{stem}: {e}")),
        }
    }
}

fn parse_one(text: &str) -> Option<Function> {
    let mut funcs = atomc::ir::parse::parse(text).ok()?;
    (funcs.len() == 1).then(|| funcs.remove(0))
}
