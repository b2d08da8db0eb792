//! Argument parsing (clap derive) and dispatch to the subcommands.

mod asm;
mod bench;
mod compile;
mod input;
mod run;
mod test;
mod verify;

#[cfg(test)]
mod tests;

use clap::{Parser, Subcommand};
use std::path::PathBuf;

/// atomc: a compiler backend for GPU atomics (SASS sm_50/sm_90, Intel vISA).
#[derive(Parser, Debug)]
#[command(name = "atomc", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Compile the functions of an .atom file for a target.
    Compile(compile::Args),
    /// Assemble nvdisasm-syntax SASS lines into raw instruction words.
    Asm(asm::AsmArgs),
    /// Disassemble raw instruction words into nvdisasm-syntax SASS lines.
    Disasm(asm::DisasmArgs),
    /// Run kernels in the reference interpreter (their `; run:` lines, or --run).
    Run(run::Args),
    /// Run filetests; ends with `N passed, N failed`.
    Test(test::Args),
    /// Parse and verify an .atom file.
    Verify(verify::Args),
    /// Compare compile time and code with ptxas on the benchmark corpus.
    Bench(bench::Args),
}

/// A failure the user can act on: printed to stderr, exit code 1.
#[derive(Debug)]
pub struct UserError(pub String);

impl<T: std::fmt::Display> From<T> for UserError {
    fn from(e: T) -> UserError {
        UserError(e.to_string())
    }
}

/// Parses the arguments, runs the command, returns the exit code.
pub fn main() -> i32 {
    let cli = Cli::parse();
    exit_code(atomc_filetests::panic_capture::catch(|| dispatch(cli)))
}

/// Prints the error, if any, and maps the outcome to the exit code: 0, or
/// 1 for a user error and for a caught panic (reported as a bug).
fn exit_code(result: Result<Result<(), UserError>, String>) -> i32 {
    match result {
        Ok(Ok(())) => 0,
        Ok(Err(UserError(msg))) => {
            if !msg.is_empty() {
                let msg = msg.trim_end();
                if msg.contains(": error") {
                    eprintln!("{msg}");
                } else {
                    eprintln!("atomc: error: {msg}");
                }
            }
            1
        }
        Err(panic) => {
            eprintln!("atomc: internal error (this is a bug in atomc, please report it): {panic}");
            1
        }
    }
}

fn dispatch(cli: Cli) -> Result<(), UserError> {
    match cli.command {
        Command::Compile(a) => compile::run(a),
        Command::Asm(a) => asm::asm(a),
        Command::Disasm(a) => asm::disasm(a),
        Command::Run(a) => run::run(a),
        Command::Test(a) => test::run(a),
        Command::Verify(a) => verify::run(a),
        Command::Bench(a) => bench::run(a),
    }
}

/// Writes `bytes` to `out`, or to stdout when `out` is `None` or `-`.
fn write_output(out: Option<&PathBuf>, bytes: &[u8]) -> Result<(), UserError> {
    use std::io::Write;
    match out {
        Some(p) if p.as_os_str() != "-" => {
            std::fs::write(p, bytes).map_err(|e| UserError(format!("cannot write {}: {e}", p.display())))
        }
        _ => {
            let mut stdout = std::io::stdout().lock();
            stdout
                .write_all(bytes)
                .and_then(|_| stdout.flush())
                .map_err(|e| UserError(format!("cannot write output: {e}")))
        }
    }
}
