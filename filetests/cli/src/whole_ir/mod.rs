//! The whole-IR support matrix: every non-atomic instruction × type × operand shape
//! ([`cases`]) compiled for every target; each SASS kernel that compiles runs on the emulator
//! against the reference interpreter on edge inputs ([`edges`]). `atomc support --whole-ir`
//! prints its table (`--quick` for the bounded set the test runs); the atomics have their own
//! matrix (`crate::support`).

pub mod cases;
pub mod edges;
pub mod kernel;

use crate::support::TARGETS;
use atomc::emulate::{interpret, run_and_judge, Schedule};
use atomc::ir::interp::parse_run_line;
use atomc::{CompileError, Emit, Output, Target};
use cases::OpCase;
use std::collections::BTreeMap;
use std::fmt::Write;

/// What one kernel gave on one target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Compiled; for SASS, how its run on the emulator compared with the interpreter.
    Compiled(Run),
    /// Refused before selection, with the capability table's reason.
    Refused(String),
    /// Anything else: an internal error.
    Failed(String),
}

/// A compiled kernel's run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Run {
    /// The emulator's memory meets the interpreter's.
    Same,
    /// It does not: a miscompile (or an emulator bug).
    Differs(String),
    /// Not run: no simulator for the target here, no meaning for the inputs, or an emulator gap.
    NotRun(String),
}

/// Compiles and runs every case on every target, in parallel over cases.
pub fn run(cases: &[OpCase]) -> Vec<Vec<Cell>> {
    use rayon::prelude::*;
    cases.par_iter().map(one).collect()
}

fn one(case: &OpCase) -> Vec<Cell> {
    let reference = reference(case);
    TARGETS.iter().map(|&t| cell(case, t, &reference)).collect()
}

/// A kernel's run line with the interpreter's output as its check, and the interpreter's
/// memory; or why it is not run.
type Reference = Result<(atomc::ir::interp::RunSpec, Vec<Vec<u8>>), String>;

/// The run line with the interpreter's output as its check, and the interpreter's memory.
fn reference(case: &OpCase) -> Reference {
    let launch = case.launch.as_ref().ok_or("the IR gives these inputs no meaning")?;
    let spec = parse_run_line(&case.func, launch).map_err(|e| format!("run line: {e}"))?;
    let want = guarded(|| interpret(&case.func, &spec))?.map_err(|e| format!("interpreter: {e}"))?;
    let decls = spec.decls();
    let (out, bytes) = (decls.last().ok_or("no output")?, want.last().ok_or("no output")?);
    let size = out.elem.bytes();
    let elems: Vec<String> = bytes
        .chunks(size)
        .map(|c| {
            let mut b = [0u8; 8];
            b[..size].copy_from_slice(c);
            format!("{:#x}", u64::from_le_bytes(b))
        })
        .collect();
    let line = format!("{launch} => o == [{}]", elems.join(", "));
    let spec = parse_run_line(&case.func, &line).map_err(|e| format!("checked run line: {e}"))?;
    Ok((spec, want))
}

fn cell(case: &OpCase, target: Target, reference: &Reference) -> Cell {
    let sass = !matches!(target, Target::Visa(_));
    let emit = if sass { Emit::Cubin } else { Emit::Isa };
    let bin = match guarded(|| atomc::compile(&case.func, target, emit)) {
        Ok(Ok(Output::Binary(b))) => b,
        Ok(Ok(_)) => return Cell::Compiled(Run::NotRun("no binary".into())),
        Ok(Err(CompileError::Unsupported { reason, .. })) => return Cell::Refused(reason),
        Ok(Err(e)) => return Cell::Failed(e.to_string()),
        Err(panic) => return Cell::Failed(format!("panic: {panic}")),
    };
    if !sass {
        return Cell::Compiled(Run::NotRun("the vISA simulator runs in the root crate's tests only".into()));
    }
    let (spec, want) = match reference {
        Ok(r) => r,
        Err(e) => return Cell::Compiled(Run::NotRun(e.clone())),
    };
    Cell::Compiled(match guarded(|| run_and_judge(&bin, &case.func, spec, want, Schedule::RoundRobin)) {
        Ok(Ok(_)) => Run::Same,
        Ok(Err(e)) if e.contains("not supported by the emulator") || e.contains("cannot be decoded") => Run::NotRun(format!("emulator: {e}")),
        Ok(Err(e)) => Run::Differs(e),
        Err(panic) => Run::Differs(format!("emulator panic: {panic}")),
    })
}

/// Runs `f`, turning a panic into its message.
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|p| {
        p.downcast_ref::<String>().cloned().or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_else(|| "panic".into())
    })
}

/// Figures of one target.
#[derive(Default, Debug)]
pub struct Totals {
    pub kernels: usize,
    pub compiled: usize,
    pub refused: BTreeMap<String, usize>,
    pub internal_errors: usize,
    pub same: usize,
    pub differ: usize,
    pub not_run: BTreeMap<String, usize>,
}

/// The figures per target, in [`TARGETS`] order.
pub fn totals(results: &[Vec<Cell>]) -> Vec<Totals> {
    let mut out: Vec<Totals> = TARGETS.iter().map(|_| Totals::default()).collect();
    for row in results {
        for (t, c) in out.iter_mut().zip(row) {
            t.kernels += 1;
            match c {
                Cell::Compiled(run) => {
                    t.compiled += 1;
                    match run {
                        Run::Same => t.same += 1,
                        Run::Differs(_) => t.differ += 1,
                        Run::NotRun(why) => *t.not_run.entry(reason_head(why)).or_default() += 1,
                    }
                }
                Cell::Refused(r) => *t.refused.entry(r.clone()).or_default() += 1,
                Cell::Failed(_) => t.internal_errors += 1,
            }
        }
    }
    out
}

/// A message without its per-kernel details (source position, registers, hex values), so one
/// cause groups once: `k:9:5: ` goes, `R12`/`%7`/`P0` read `RN`/`%N`/`PN`, `0x7fff` reads `0x…`.
pub fn reason_head(why: &str) -> String {
    let why = why.strip_prefix("internal compiler error: ").unwrap_or(why);
    let why = match why.find(": ") {
        Some(i) if why[..i].chars().all(|c| c.is_ascii_alphanumeric() || c == ':' || c == '_') && why[..i].contains(':') => &why[i + 2..],
        _ => why,
    };
    let b: Vec<char> = why.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        out.push(c);
        i += 1;
        let word_start = i < 2 || !b[i - 2].is_ascii_alphanumeric();
        let hex = c == 'x' && i >= 2 && b[i - 2] == '0';
        let reg = matches!(c, 'R' | 'P' | '%') && word_start;
        if (hex || reg) && i < b.len() && b[i].is_ascii_hexdigit() && (hex || b[i].is_ascii_digit()) {
            while i < b.len() && (b[i].is_ascii_digit() || (hex && b[i].is_ascii_hexdigit())) {
                i += 1;
            }
            out.push(if hex { '…' } else { 'N' });
        }
    }
    out
}

/// Kernels and (op, type) rows one cause hits on one target.
type RowsHit = (usize, Vec<String>);

/// The markdown report: figures per target, refusals by reason with the rows they hit,
/// internal errors and differing runs by row.
pub fn markdown(cases: &[OpCase], results: &[Vec<Cell>]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "| target | kernels | compiled | refused | internal errors | runs equal to the interpreter | runs differing | not run |");
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|");
    for (t, x) in TARGETS.iter().zip(totals(results)) {
        let _ = writeln!(
            s,
            "| {t} | {} | {} | {} | {} | {} | {} | {} |",
            x.kernels,
            x.compiled,
            x.refused.values().sum::<usize>(),
            x.internal_errors,
            x.same,
            x.differ,
            x.not_run.values().sum::<usize>()
        );
    }
    // Rows (op, type) per reason and target.
    let mut by_reason: BTreeMap<(String, String), BTreeMap<String, RowsHit>> = BTreeMap::new();
    for (case, row) in cases.iter().zip(results) {
        for (t, c) in TARGETS.iter().zip(row) {
            let (class, why) = match c {
                Cell::Refused(r) => ("refused", r.clone()),
                Cell::Failed(e) => ("internal error", reason_head(e)),
                Cell::Compiled(Run::Differs(_)) => ("differs from the interpreter", String::new()),
                Cell::Compiled(Run::NotRun(why)) if !matches!(t, Target::Visa(_)) => ("not run", reason_head(why)),
                _ => continue,
            };
            let key = (class.to_string(), why);
            let (kernels, rows) = by_reason.entry(key).or_default().entry(t.to_string()).or_default();
            *kernels += 1;
            let name = format!("{} {}", case.op, case.ty);
            if !rows.contains(&name) {
                rows.push(name);
            }
        }
    }
    for ((class, why), targets) in &by_reason {
        let _ = writeln!(s, "\n**{class}**{}{}\n", if why.is_empty() { "" } else { ": " }, why.replace('\n', " "));
        for (t, (kernels, rows)) in targets {
            let _ = writeln!(s, "- {t} ({kernels} kernels, {} rows): {}", rows.len(), rows.join(", "));
        }
    }
    s
}
