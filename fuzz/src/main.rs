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
