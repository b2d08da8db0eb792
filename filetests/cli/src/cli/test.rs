//! `atomc test [PATHS..]`: the filetest runner, with the facade's
//! `compile` as its backend.

use super::Failure;
use std::path::PathBuf;

/// Arguments of `atomc test`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Files or directories (default: `filetests/filetests`).
    paths: Vec<PathBuf>,
    /// List passing files too, with their times.
    #[arg(short, long)]
    verbose: bool,
    /// Rewrite precise-output expectations (same as ATOMC_TEST_BLESS=1).
    #[arg(long)]
    bless: bool,
    /// Worker threads (default: one per core, or ATOMC_FILETESTS_THREADS).
    #[arg(short = 'j', long)]
    threads: Option<usize>,
    /// Do not compare compile outputs with insta snapshots.
    #[arg(long)]
    no_snapshots: bool,
}

/// The facade's compiler, as the runner's backend.
pub struct FacadeBackend;

impl atomc_filetests::Backend for FacadeBackend {
    fn compile(&self, func: &atomc::ir::Function, target: &str, emit: &str) -> Result<String, String> {
        let t = atomc::Target::from_name(target).ok_or(format!("unknown target `{target}`"))?;
        let e = atomc::Emit::from_name(emit).ok_or(format!("unknown emit kind `{emit}`"))?;
        match atomc::compile(func, t, e).map_err(|e| e.to_string())? {
            atomc::Output::Text(s) => Ok(s),
            atomc::Output::Binary(b) => Ok(atomc_filetests::hex_dump(&b)),
        }
    }

    fn import_clif(&self, body: &str) -> Result<Vec<atomc::ir::Function>, Vec<atomc::ir::diagnostic::Diagnostic>> {
        super::input::import_clif(body)
    }
}

/// Runs `atomc test`.
pub fn run(args: Args) -> Result<(), Failure> {
    let everything = args.paths.is_empty();
    let default = PathBuf::from("filetests/filetests");
    if everything && !default.is_dir() {
        // Outside atomc's repository there is no default to run (nor snapshots to check).
        return Err(Failure::Usage("no filetests/filetests here: name the filetests, `atomc test PATHS..`".into()));
    }
    let paths = if everything { vec![default] } else { args.paths };
    let mut opts = atomc_filetests::RunOptions { verbose: args.verbose, ..Default::default() };
    opts.bless |= args.bless;
    opts.snapshots = !args.no_snapshots;
    if args.threads.is_some() {
        opts.threads = args.threads.filter(|&n| n > 0);
    }
    let summary = atomc_filetests::run(&paths, &opts, &FacadeBackend);
    if everything && opts.snapshots {
        for stale in summary.unreferenced_snapshots(&opts.snapshot_dir) {
            eprintln!("warning: no filetest uses snapshot {}", stale.display());
        }
    }
    print!("{}", summary.report(args.verbose));
    if summary.failed() == 0 {
        Ok(())
    } else {
        Err(Failure::Input(String::new()))
    }
}
