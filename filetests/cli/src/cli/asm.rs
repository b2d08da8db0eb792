//! `atomc asm` and `atomc disasm`: SASS text ↔ raw instruction words, both
//! driven by the architecture's instruction-form table
//! (`atomc_emit::sass`). sm_90 is available; sm_50's bundled control words
//! are not yet.

use super::{input::read_source, write_output, Failure, UserError};
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
    /// sm_50 or sm_90 (for raw words; a cubin names its own).
    #[arg(long, value_parser = ["sm_50", "sm_90"])]
    target: Option<String>,
    /// Raw instruction words, or a cubin (every kernel, each headed by its `.text.NAME:`
    /// label); `-` or nothing for stdin.
    file: Option<PathBuf>,
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
pub fn asm(args: AsmArgs) -> Result<(), Failure> {
    let arch = arch(&args.target)?;
    let (name, text) = read_source(args.file.as_deref().unwrap_or(Path::new("-")))?;
    let code = arch.assemble(&text).map_err(|e| UserError(format!("{name}:{e}")))?;
    let bytes = arch.encode_all(&code).map_err(|e| UserError(format!("{name}: cannot encode: {e}")))?;
    Ok(write_output(Some(&args.output), &bytes)?)
}

/// Runs `atomc disasm`.
pub fn disasm(args: DisasmArgs) -> Result<(), Failure> {
    let (name, bytes) = match args.file.as_deref().filter(|p| p.as_os_str() != "-") {
        Some(p) => (
            p.display().to_string(),
            std::fs::read(p).map_err(|e| Failure::Usage(format!("cannot read {}: {e}", p.display())))?,
        ),
        None => {
            let mut b = Vec::new();
            std::io::Read::read_to_end(&mut std::io::stdin(), &mut b)
                .map_err(|e| UserError(format!("cannot read stdin: {e}")))?;
            ("<stdin>".to_string(), b)
        }
    };
    let text = if bytes.starts_with(b"\x7fELF") {
        disasm_cubin(&name, &bytes, args.target.as_deref(), args.sched)?
    } else {
        let Some(target) = args.target.as_deref() else {
            return Err(Failure::Usage(
                "raw instruction words need --target sm_50|sm_90 (a cubin names its own)".into(),
            ));
        };
        arch(target)?
            .disassemble(&bytes, args.sched)
            .map_err(|(at, e)| UserError(format!("{name}: at byte {at:#x}: {e}")))?
    };
    Ok(write_output(args.output.as_ref(), text.as_bytes())?)
}

/// Every kernel of a cubin, each headed by its `.text.NAME:` label as nvdisasm heads it.
fn disasm_cubin(name: &str, bytes: &[u8], target: Option<&str>, sched: bool) -> Result<String, Failure> {
    let summary = atomc_emit::cubin::inspect::inspect(bytes).map_err(|e| UserError(format!("{name}: {e}")))?;
    let f = summary.header.e_flags;
    // The classic layout keeps the SM number in bits 0..7, CUDA 13's in bits 8..15.
    let sm = [f & 0xff, (f >> 8) & 0xff].into_iter().find(|v| *v == 50 || *v == 90);
    let Some(sm) = sm else {
        return Err(UserError(format!("{name}: a cubin for neither sm_50 nor sm_90 (e_flags {f:#x})")).into());
    };
    let own = format!("sm_{sm}");
    if target.is_some_and(|t| t != own) {
        return Err(Failure::Usage(format!("{name} is an {own} cubin, not {}", target.unwrap_or_default())));
    }
    let arch = arch(&own)?;
    let mut out = String::new();
    for sec in summary.sections.iter().filter(|s| s.name.starts_with(".text.")) {
        let code = bytes
            .get(sec.offset as usize..(sec.offset + sec.size) as usize)
            .ok_or_else(|| UserError(format!("{name}: {} lies outside the file", sec.name)))?;
        let text = arch
            .disassemble(code, sched)
            .map_err(|(at, e)| UserError(format!("{name}: {}: at byte {at:#x}: {e}", sec.name)))?;
        out.push_str(&format!("{}:\n{text}", sec.name));
    }
    if out.is_empty() {
        return Err(UserError(format!("{name}: the cubin holds no kernel code")).into());
    }
    Ok(out)
}
