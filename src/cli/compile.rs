//! `atomc compile FILE --target T --emit E [-o OUT]`.

use super::{input, write_output, UserError};
use atomc::{Emit, Output, Target};
use std::path::PathBuf;

/// Arguments of `atomc compile`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The .atom file (`-` for stdin).
    file: PathBuf,
    /// sm_50, sm_90 or visa.
    #[arg(long, value_parser = ["sm_50", "sm_90", "visa"])]
    target: String,
    /// The Intel platform for `--target visa` (TGLLP, DG2, PVC).
    #[arg(long)]
    platform: Option<String>,
    /// What to produce.
    #[arg(long, value_parser = Emit::ALL.map(|(_, n)| n))]
    emit: String,
    /// Compile only this function (default: all).
    #[arg(long)]
    function: Option<String>,
    /// Output file (default: stdout).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Use at most N general registers per thread (sm_50, sm_90; like ptxas --maxrregcount):
    /// the rest spill to local memory. At least 16.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(16..=255))]
    max_registers: Option<u32>,
}

/// Parses `--target` and `--platform` into a [`Target`].
pub fn target(name: &str, platform: Option<&str>) -> Result<Target, UserError> {
    let full = match (name, platform) {
        ("visa", Some(p)) => format!("visa:{p}"),
        (_, Some(_)) => return Err(UserError("--platform applies to --target visa only".into())),
        (n, None) => n.to_string(),
    };
    Target::from_name(&full).ok_or_else(|| UserError(format!("unknown target `{full}` (platforms: TGLLP, DG2, PVC)")))
}

/// Runs `atomc compile`.
pub fn run(args: Args) -> Result<(), UserError> {
    let target = target(&args.target, args.platform.as_deref())?;
    let emit = Emit::from_name(&args.emit).ok_or_else(|| UserError(format!("unknown emit kind `{}`", args.emit)))?;
    let input = input::parse(&args.file)?;
    let funcs = input.select(args.function.as_deref())?;
    if emit.is_binary() && funcs.len() != 1 {
        return Err(UserError(format!(
            "--emit {} makes one binary per function and {} has {}; pick one with --function",
            args.emit,
            input.name,
            funcs.len()
        )));
    }
    let opts = atomc::Options { max_registers: args.max_registers };
    let mut text = String::new();
    for f in funcs {
        match atomc::compile_with(f, target, emit, &opts) {
            Ok(Output::Text(t)) => text.push_str(&t),
            Ok(Output::Binary(b)) => {
                use std::io::IsTerminal;
                if args.output.is_none() && std::io::stdout().is_terminal() {
                    return Err(UserError(format!("--emit {} is binary; write it to a file with -o FILE", args.emit)));
                }
                return write_output(args.output.as_ref(), &b);
            }
            Err(atomc::CompileError::Verify(diags)) => return Err(UserError(input.render(&diags))),
            Err(e) => return Err(UserError(format!("{}: %{}: {e}", input.name, f.name))),
        }
    }
    write_output(args.output.as_ref(), text.as_bytes())
}
