//! `atomc bench [--targets sm_90,sm_50] [--corpus DIR] [--out DIR] [--repeat N]`:
//! atomc against ptxas on the benchmark corpus (see `atomc_cli::bench`).

use super::{Failure, UserError};
use atomc_cli::bench;
use atomc::Target;
use std::path::PathBuf;

/// Arguments of `atomc bench`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Comma-separated targets (sm_50, sm_90).
    #[arg(long, default_value = "sm_90,sm_50")]
    targets: String,
    /// The corpus directory (`*.atom`, one kernel per file).
    #[arg(long, default_value = "filetests/bench")]
    corpus: PathBuf,
    /// Where bench.csv, bench.md and bench.svg go.
    #[arg(long, default_value = "target/bench")]
    out: PathBuf,
    /// Repeats per measurement; medians are reported.
    #[arg(long, default_value_t = 5)]
    repeat: usize,
    /// Only kernels whose name contains this text.
    #[arg(long)]
    filter: Option<String>,
}

/// Runs `atomc bench`.
pub fn run(args: Args) -> Result<(), Failure> {
    let targets = args
        .targets
        .split(',')
        .map(|t| match Target::from_name(t.trim()) {
            Some(t @ (Target::Sm50 | Target::Sm90)) => Ok(t),
            _ => Err(Failure::Usage(format!("--targets: `{t}` is not sm_50 or sm_90"))),
        })
        .collect::<Result<Vec<_>, _>>()?;
    if args.repeat == 0 {
        return Err(Failure::Usage("--repeat must be at least 1".into()));
    }
    // Outside the repository the relative default is found from the workspace root.
    let corpus = if args.corpus.is_relative() && !args.corpus.exists() {
        atomc_oracle::workspace_root().map(|r| r.join(&args.corpus)).unwrap_or(args.corpus.clone())
    } else {
        args.corpus.clone()
    };
    let mut kernels = bench::load_corpus(&corpus).map_err(UserError::from)?;
    if let Some(f) = &args.filter {
        let all = kernels.len();
        kernels.retain(|k| k.name.contains(f.as_str()));
        if kernels.is_empty() {
            return Err(Failure::Usage(format!(
                "--filter `{f}` matches none of the {all} kernel(s) of {}",
                corpus.display()
            )));
        }
    }
    let atomc_exe = std::env::current_exe().map_err(|e| UserError(format!("cannot find the atomc binary: {e}")))?;
    let config = bench::Config { targets, repeat: args.repeat, atomc_exe, progress: true };
    let rows = bench::run(&kernels, &config).map_err(UserError::from)?;
    let mut header = format!(
        "## atomc bench, {}\n\n{} kernels, targets {}, {} repeat(s) per measurement, medians.\n",
        bench::utc_date(),
        kernels.len(),
        args.targets,
        args.repeat
    );
    for &t in &config.targets {
        let v = bench::ptxas_version(t).unwrap_or_else(|| "not installed".into());
        header.push_str(&format!("ptxas for {t}: {v}\n"));
    }
    let md = bench::write_reports(&rows, &args.out, &header).map_err(UserError::from)?;
    println!("{md}");
    println!("wrote {}/bench.csv, bench.md, bench.svg", args.out.display());
    Ok(())
}
