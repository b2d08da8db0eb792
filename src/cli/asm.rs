//! `atomc asm` and `atomc disasm`: SASS text ↔ raw instruction words.

use super::UserError;
use std::path::PathBuf;

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
}

/// Runs `atomc asm`.
pub fn asm(args: AsmArgs) -> Result<(), UserError> {
    let _ = (&args.file, &args.output);
    Err(UserError(format!(
        "asm for {} is not yet available (the SASS assembler has not landed)",
        args.target
    )))
}

/// Runs `atomc disasm`.
pub fn disasm(args: DisasmArgs) -> Result<(), UserError> {
    let _ = &args.file;
    Err(UserError(format!(
        "disasm for {} is not yet available (the SASS disassembler has not landed)",
        args.target
    )))
}
