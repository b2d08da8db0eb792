//! `atomc run FILE`: parse, verify and run kernels in the reference
//! interpreter. Without `--run`, every function's own `; run:` comments
//! are executed (as `test interpret` does); with `--run 'run: ...'` the
//! given lines are run against the selected function (`--function`, or the
//! file's only function); `--grid`, `--block`, `--shared`, `--init`,
//! `--args` and `--expect` build one more such line. The run-line syntax (grid, initial memory,
//! expected memory and results) is the interpreter's; see `docs/ir.md`.
//!
//! With `--target sm_90|sm_50` the kernels are compiled by atomc and each run line is launched
//! on the SASS emulator (`atomc-emu`, timing checks on) instead, and judged as the GPU harness
//! judges a GPU: the buffers hold the interpreter's bytes, or every check of the line holds.
//! A line the emulator cannot run (a call of a function with results, an expected error, other
//! subgroup sizes) is listed as not run and counted, by reason, in the closing line; with
//! `--strict` each is an error.

use super::{input, Failure, UserError};
use atomc_filetests::testfile::TestFile;
use std::path::PathBuf;

/// Arguments of `atomc run`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The .atom file (`-` for stdin).
    file: PathBuf,
    /// A run line to execute instead of the file's own, e.g.
    /// `run: ...`; may be repeated.
    #[arg(long = "run", value_name = "RUN-LINE")]
    runs: Vec<String>,
    /// The function the --run lines apply to (default: the only one).
    #[arg(long)]
    function: Option<String>,
    /// Grid size for a launch built from options: `N`, `NxM` or `NxMxK`.
    #[arg(long)]
    grid: Option<String>,
    /// Block size for a launch built from options.
    #[arg(long)]
    block: Option<String>,
    /// Shared memory bytes per block for a launch built from options.
    #[arg(long)]
    shared: Option<u32>,
    /// A memory declaration, e.g. `buf: i32[256] = 0` (repeatable).
    #[arg(long = "init", value_name = "DECL")]
    inits: Vec<String>,
    /// The kernel arguments, e.g. `buf, 7`.
    #[arg(long)]
    args: Option<String>,
    /// A check on memory after the run, e.g. `buf sum == 256` (repeatable).
    #[arg(long = "expect", value_name = "CHECK")]
    expects: Vec<String>,
    /// Compile with atomc for this target and run on the SASS emulator.
    #[arg(long, value_parser = ["sm_50", "sm_90"])]
    target: Option<String>,
    /// With --target: interleave warps pseudo-randomly from this seed (default: round robin).
    #[arg(long, requires = "target")]
    seed: Option<u64>,
    /// Also print every buffer's final contents (the interpreter's run).
    #[arg(long)]
    show_memory: bool,
    /// With --target: compile with at most N general registers (spilling the rest).
    #[arg(long, value_name = "N", requires = "target", value_parser = clap::value_parser!(u32).range(16..=255))]
    max_registers: Option<u32>,
    /// With --target: a run line the emulator cannot run is an error, not a line not run.
    #[arg(long, requires = "target")]
    strict: bool,
}

impl Args {
    /// The run line the launch options describe, if any was given.
    fn option_line(&self) -> Option<String> {
        if self.grid.is_none()
            && self.block.is_none()
            && self.shared.is_none()
            && self.inits.is_empty()
            && self.args.is_none()
        {
            return None;
        }
        let mut parts = Vec::new();
        if let Some(g) = &self.grid {
            parts.push(format!("grid {g}"));
        }
        if let Some(b) = &self.block {
            parts.push(format!("block {b}"));
        }
        if let Some(s) = self.shared {
            parts.push(format!("shared {s}"));
        }
        parts.extend(self.inits.iter().cloned());
        parts.push(format!("args({})", self.args.as_deref().unwrap_or("")));
        let mut line = format!("run: {}", parts.join(", "));
        if !self.expects.is_empty() {
            line.push_str(" => ");
            line.push_str(&self.expects.join(", "));
        }
        Some(line)
    }
}

/// Runs `atomc run`.
pub fn run(args: Args) -> Result<(), Failure> {
    let input = input::parse(&args.file)?;
    input.verify()?;
    // A --function the file lacks is a command-line mistake, whichever lines run.
    input.select(args.function.as_deref())?;
    let mut jobs: Vec<(usize, String, Option<usize>)> = Vec::new(); // (function index, line text, source line)
    let mut given = args.runs.clone();
    given.extend(args.option_line());
    if given.is_empty() {
        let scan = TestFile::scan(&input.source).map_err(UserError)?;
        for (i, range) in scan.funcs.iter().enumerate() {
            if args.function.as_deref().is_some_and(|n| n.trim_start_matches('%') != range.name) {
                continue;
            }
            for c in scan.func_comments(range).filter(|c| !c.note && c.text.starts_with("run")) {
                jobs.push((i, c.text.clone(), Some(c.line)));
            }
        }
        if jobs.is_empty() {
            return Err(Failure::Input(format!("{}: no `; run:` lines to execute (give one with --run)", input.name)));
        }
    } else {
        let selected = input.select(args.function.as_deref())?;
        if selected.len() != 1 {
            return Err(Failure::Usage(format!(
                "{} has {} functions; pick one with --function",
                input.name,
                input.funcs.len()
            )));
        }
        let index = input.funcs.iter().position(|f| std::ptr::eq(f, selected[0])).unwrap_or(0);
        for r in &given {
            let line =
                if r.trim_start().starts_with("run") { r.trim().to_string() } else { format!("run: {}", r.trim()) };
            jobs.push((index, line, None));
        }
    }
    if let Some(t) = &args.target {
        return emulate(&input, &jobs, t, args.seed, args.max_registers, args.strict);
    }
    let mut failed = 0;
    for (i, line, src_line) in &jobs {
        let f = &input.funcs[*i];
        let place = src_line.map(|l| format!("{}:{l}: ", input.name)).unwrap_or_default();
        let text = line.trim_start().strip_prefix("run").unwrap_or(line).trim_start().trim_start_matches(':');
        match atomc::ir::interp::parse_run_line(f, text).and_then(|spec| spec.execute(f)) {
            Ok(report) => {
                match report.returned_text() {
                    Some(values) => println!("{place}ok %{} returned {values}: {line}", f.name),
                    None => println!("{place}ok %{}: {line}", f.name),
                }
                if args.show_memory {
                    for (name, elems) in &report.memory {
                        const SHOW: usize = 64;
                        let more = if elems.len() > SHOW {
                            format!(", ... ({} elements)", elems.len())
                        } else {
                            String::new()
                        };
                        println!("    {name} = [{}{more}]", elems[..elems.len().min(SHOW)].join(", "));
                    }
                }
            }
            Err(e) => {
                failed += 1;
                eprintln!("{place}error: %{}: {e}\n    {line}", f.name);
            }
        }
    }
    if failed == 0 {
        println!("{} run line(s) passed", jobs.len());
        Ok(())
    } else {
        Err(Failure::Input(format!("{failed} of {} run line(s) failed", jobs.len())))
    }
}

/// `--target`: each run line on the SASS emulator with atomc's cubin.
fn emulate(
    input: &input::Input,
    jobs: &[(usize, String, Option<usize>)],
    target: &str,
    seed: Option<u64>,
    max_registers: Option<u32>,
    strict: bool,
) -> Result<(), Failure> {
    use atomc::emulate::{self, Schedule};
    let t = atomc::Target::from_name(target).ok_or_else(|| Failure::Usage(format!("unknown target {target}")))?;
    let schedule = seed.map_or(Schedule::RoundRobin, Schedule::Random);
    let mut cubins: std::collections::HashMap<usize, Result<Vec<u8>, String>> = std::collections::HashMap::new();
    let mut failed = 0;
    // Why lines were not run, with how many.
    let mut not_run: Vec<(String, usize)> = Vec::new();
    for (i, line, src_line) in jobs {
        let f = &input.funcs[*i];
        let place = src_line.map(|l| format!("{}:{l}: ", input.name)).unwrap_or_default();
        let text = line.trim_start().strip_prefix("run").unwrap_or(line).trim_start().trim_start_matches(':');
        let spec = match atomc::ir::interp::parse_run_line(f, text) {
            Ok(s) => s,
            Err(e) => {
                failed += 1;
                eprintln!("{place}error: %{}: {e}\n    {line}", f.name);
                continue;
            }
        };
        if let Some(why) = not_emulated(f, &spec) {
            let verdict = if strict { "error" } else { "not run" };
            eprintln!("{place}{verdict}: %{} ({why}): {line}", f.name);
            match not_run.iter_mut().find(|(w, _)| *w == why) {
                Some(e) => e.1 += 1,
                None => not_run.push((why, 1)),
            }
            continue;
        }
        let cubin = cubins.entry(*i).or_insert_with(|| {
            match atomc::compile_with(f, t, atomc::Emit::Cubin, &atomc::Options { max_registers, ..Default::default() }) {
                Ok(atomc::Output::Binary(b)) => Ok(b),
                Ok(_) => Err("no binary output".into()),
                Err(e) => Err(e.to_string()),
            }
        });
        let result = cubin.clone().and_then(|cubin| {
            let want = emulate::interpret(f, &spec)?;
            let (exact, out) = emulate::run_and_judge(&cubin, f, &spec, &want, schedule)?;
            spec.check_contents(&out.buffers).map_err(|e| e.to_string())?;
            Ok((exact, out))
        });
        match result {
            Ok((exact, out)) => println!(
                "{place}ok %{} on {target} ({}, {} warp instructions, {} atomics): {line}",
                f.name,
                if exact { "the interpreter's bytes" } else { "the line's checks hold" },
                out.stats.instructions,
                out.stats.atomics
            ),
            Err(e) => {
                failed += 1;
                eprintln!("{place}error: %{} on {target}: {e}\n    {line}", f.name);
            }
        }
    }
    let skipped: usize = not_run.iter().map(|(_, n)| n).sum();
    let ran = jobs.len() - skipped;
    let why: Vec<String> = not_run.iter().map(|(w, n)| format!("{n} {w}")).collect();
    let not_run_text = if skipped == 0 {
        String::new()
    } else {
        format!("; {skipped} line(s) not run: {}", why.join(", "))
    };
    if failed == 0 && !(strict && skipped > 0) {
        println!("{ran} run line(s) passed on {target} (emulated){not_run_text}");
        Ok(())
    } else if failed == 0 {
        Err(Failure::Input(format!(
            "--strict: {skipped} run line(s) the emulator cannot run: {}",
            why.join(", ")
        )))
    } else {
        Err(Failure::Input(format!("{failed} of {ran} run line(s) failed on {target} (emulated){not_run_text}")))
    }
}

/// Why the emulator cannot run a line, if it cannot: it launches kernels with 32-lane warps
/// and compares memory, so a call's results, an expected error and other subgroup sizes are
/// beyond it.
fn not_emulated(f: &atomc::ir::Function, spec: &atomc::ir::interp::RunSpec) -> Option<String> {
    if !f.returns.is_empty() {
        Some("call(s) of a function with results; the emulator launches kernels".to_string())
    } else if spec.expected_error().is_some() {
        Some("expected error(s); the emulator compares results".to_string())
    } else if spec.subgroup_size() != 32 {
        Some(format!("line(s) with subgroups of {}; warps have 32 lanes", spec.subgroup_size()))
    } else {
        None
    }
}
