//! `atomc asm` and `atomc disasm`: SASS text ↔ raw instruction words, both
//! driven by the architecture's instruction-form table
//! (`atomc_emit::sass`). sm_90 is available; sm_50's bundled control words
//! are not yet.

use super::{input::read_source, write_output, UserError};
use atomc_emit::sass::Arch;
use std::path::{Path, PathBuf};

/// Arguments of `atomc asm`.
#[derive(clap::Args, Debug)]
pub struct AsmArgs {
    /// sm_50 or sm_90.
    #[arg(long, value_parser = ["sm_50", "sm_90"])]
    target: String,
    /// nvdisasm-syntax SASS lines (`-` or nothing for stdin).
    file: Option<PathBuf>,
    /// Where to write the raw words.
    #[arg(short, long)]
    output: PathBuf,
}

/// Arguments of `atomc disasm`.
#[derive(clap::Args, Debug)]
pub struct DisasmArgs {
    /// sm_50 or sm_90.
    #[arg(long, value_parser = ["sm_50", "sm_90"])]
    target: String,
    /// Raw instruction words.
    file: PathBuf,
    /// Also print each instruction's scheduling fields (stall, yield,
    /// barriers, reuse) as a comment.
    #[arg(long)]
    sched: bool,
    /// Output file (default: stdout).
    #[arg(short, long)]
    output: Option<PathBuf>,
}

fn arch(target: &str) -> Result<&'static Arch, UserError> {
    match target {
        "sm_90" => Ok(atomc_emit::sass::sm90()),
        "sm_50" => Ok(atomc_emit::sass::sm50()),
        other => Err(UserError(format!("no SASS tables for {other}"))),
    }
}

/// Runs `atomc asm`.
pub fn asm(args: AsmArgs) -> Result<(), UserError> {
    let arch = arch(&args.target)?;
    let (name, text) = read_source(args.file.as_deref().unwrap_or(Path::new("-")))?;
    let code = arch.assemble(&text).map_err(|e| UserError(format!("{name}:{e}")))?;
    let bytes = arch.encode_all(&code).map_err(|e| UserError(format!("{name}: cannot encode: {e}")))?;
    write_output(Some(&args.output), &bytes)
}

/// Runs `atomc disasm`.
pub fn disasm(args: DisasmArgs) -> Result<(), UserError> {
    let arch = arch(&args.target)?;
    let bytes = std::fs::read(&args.file).map_err(|e| UserError(format!("cannot read {}: {e}", args.file.display())))?;
    let text = arch
        .disassemble(&bytes, args.sched)
        .map_err(|(at, e)| UserError(format!("{}: at byte {at:#x}: {e}", args.file.display())))?;
    write_output(args.output.as_ref(), text.as_bytes())
}
