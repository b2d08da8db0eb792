//! `atomc-fuzz`: the long run of the differential fuzzer (see `docs/fuzzing.md`).
//!
//! ```text
//! atomc-fuzz [--seeds A..B] [--jobs N] [--no-ptxas] [--no-emu] [--genx] [--print SEED] [--verbose]
//! ```
//!
//! Prints every failing seed with its stage, error, kernel and run line (as a filetest ready to
//! minimise), the refusals and emulator gaps by reason, and the summary line. Exits 1 when any
//! program failed.

use std::process::ExitCode;

use atomc_fuzz::check::Options;

struct Args {
    seeds: std::ops::Range<u64>,
    jobs: usize,
    opts: Options,
    print: Option<u64>,
    /// A filetest to check instead of generated kernels (each function with each run line).
    file: Option<String>,
    /// With `--file`: also print atomc's PTX for sm_90.
    ptx: bool,
    verbose: bool,
}

fn parse_args() -> Result<Args, String> {
    let jobs = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let mut a = Args {
        seeds: 0..1000,
        jobs,
        opts: Options::default(),
        print: None,
        file: None,
        ptx: false,
        verbose: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--seeds" => {
                let v = value("--seeds")?;
                let (lo, hi) = v.split_once("..").ok_or("--seeds takes A..B")?;
                let lo: u64 = lo.parse().map_err(|e| format!("--seeds: {e}"))?;
                let hi: u64 = hi.parse().map_err(|e| format!("--seeds: {e}"))?;
                a.seeds = lo..hi;
            }
            "--jobs" => a.jobs = value("--jobs")?.parse().map_err(|e| format!("--jobs: {e}"))?,
            "--print" => a.print = Some(value("--print")?.parse().map_err(|e| format!("--print: {e}"))?),
            "--file" => a.file = Some(value("--file")?),
            "--ptx" => a.ptx = true,
            "--no-ptxas" => a.opts.ptxas = false,
            "--genx" => a.opts.genx = true,
            "--no-emu" => a.opts.emu = false,
            "--verbose" => a.verbose = true,
            "-h" | "--help" => {
                return Err("usage: atomc-fuzz [--seeds A..B] [--jobs N] [--no-ptxas] [--no-emu] [--genx] [--print SEED] [--verbose]".into())
            }
            other => return Err(format!("unknown argument `{other}` (try --help)")),
        }
    }
    Ok(a)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    if let Some(path) = &args.file {
        return check_file(path, &args);
    }
    if let Some(seed) = args.print {
        let r = atomc_fuzz::check::check(seed, &args.opts);
        print!("{}", r.filetest());
        for (stage, v) in &r.stages {
            println!(
                "; {stage}: {} {}",
                v.class(),
                v.detail().lines().next().unwrap_or("")
            );
        }
        return ExitCode::SUCCESS;
    }
    let verbose = args.verbose;
    let progress = move |r: &atomc_fuzz::check::Report| {
        if r.failed() {
            eprintln!("seed {}: FAILED", r.program.seed);
        } else if verbose {
            eprintln!("seed {}: ok ({} ms)", r.program.seed, r.elapsed.as_millis());
        }
    };
    let sum = atomc_fuzz::run::run(args.seeds.clone(), args.jobs, &args.opts, &progress);
    for r in &sum.failures {
        println!("==== seed {} failed", r.program.seed);
        for (stage, v) in r.failures() {
            println!("{stage}: {}: {}", v.class(), v.detail());
        }
        println!("---- kernel (as a filetest)\n{}", r.filetest());
    }
    println!("refusals by reason:");
    for (why, n) in &sum.refusals {
        println!("  {n:6}  {why}");
    }
    if !sum.emu_unsupported.is_empty() {
        println!("emulator gaps by reason:");
        for (why, n) in &sum.emu_unsupported {
            println!("  {n:6}  {why}");
        }
    }
    println!(
        "seeds {}..{}, {} jobs",
        args.seeds.start, args.seeds.end, args.jobs
    );
    println!("{}", sum.line());
    if sum.failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// `--file`: every function of a filetest with each of its run lines through the stages.
fn check_file(path: &str, args: &Args) -> ExitCode {
    let src = match std::fs::read_to_string(path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(2);
        }
    };
    let file = match atomc_filetests::testfile::TestFile::scan(&src) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(2);
        }
    };
    let mut failed = false;
    for range in &file.funcs {
        let func = match atomc::ir::parse::parse(&file.func_text(range)) {
            Ok(mut fs) if fs.len() == 1 => fs.remove(0),
            _ => {
                eprintln!("{path}: a function does not parse");
                return ExitCode::from(2);
            }
        };
        if args.ptx {
            match atomc::compile(&func, atomc::Target::Sm90, atomc::Emit::Ptx) {
                Ok(atomc::Output::Text(t)) => println!("{t}"),
                other => println!("no PTX: {other:?}"),
            }
        }
        for line in file
            .func_comments(range)
            .filter_map(|c| c.text.strip_prefix("run:"))
        {
            let spec = match atomc::ir::interp::parse_run_line(&func, line) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("{path}: %{}: {e}", func.name);
                    return ExitCode::from(2);
                }
            };
            for (stage, v) in atomc_fuzz::check::check_kernel(&func, &spec, &args.opts, 0) {
                failed |= v.is_failure();
                println!("%{}: {stage}: {} {}", func.name, v.class(), v.detail());
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
