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

/// The crate version and the commit it was built from.
const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (", env!("ATOMC_COMMIT"), ")");

const AFTER_HELP: &str = "\
Targets:
  sm_50         NVIDIA Maxwell SASS (cubin, listing, raw words, PTX)
  sm_90         NVIDIA Hopper SASS (cubin, listing, raw words, PTX)
  visa          Intel vISA (`.visaasm` text, `.isa` binary); --platform TGLLP (default), DG2 or PVC

Exit codes: 0 success, 1 error in the input (a diagnostic is printed), 2 command-line mistake,
3 internal error (a bug in atomc).";
use std::path::PathBuf;

/// atomc: a compiler backend for GPU atomics (SASS sm_50/sm_90, Intel vISA).
#[derive(Parser, Debug)]
#[command(name = "atomc", version = VERSION, about, long_about = None, after_help = AFTER_HELP)]
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
    /// Compile every atomic access the verifier accepts for every target and print the
    /// support table (markdown; docs/support.md is its output).
    Support(SupportArgs),
}

/// `atomc support`: the atomics table, or the whole-IR matrix.
#[derive(clap::Args, Debug)]
pub struct SupportArgs {
    /// Every non-atomic instruction × type × operand shape (edge constants on either side),
    /// compiled for every target and, on SASS, run on the emulator against the interpreter;
    /// prints the figures per target and the refusals, internal errors and differing runs by row.
    #[arg(long)]
    whole_ir: bool,
    /// With --whole-ir: the bounded set the test runs (a few constants per row, not every edge).
    #[arg(long, requires = "whole_ir")]
    quick: bool,
}

/// An error in the input the user can act on: printed to stderr, exit code 1.
#[derive(Debug)]
pub struct UserError(pub String);

impl<T: std::fmt::Display> From<T> for UserError {
    fn from(e: T) -> UserError {
        UserError(e.to_string())
    }
}

/// Why a command failed; each kind has its own exit code.
#[derive(Debug)]
pub enum Failure {
    /// An error in the input (a diagnostic was printed): exit code 1.
    Input(String),
    /// A command-line mistake (an option that does not apply, binary output to a terminal):
    /// exit code 2, as clap's own usage errors.
    Usage(String),
    /// A bug in atomc (an internal compiler error, or a caught panic): exit code 3.
    Internal(String),
}

impl Failure {
    /// The message.
    pub fn message(&self) -> &str {
        match self {
            Failure::Input(m) | Failure::Usage(m) | Failure::Internal(m) => m,
        }
    }

    /// The exit code of this kind of failure.
    pub fn code(&self) -> i32 {
        match self {
            Failure::Input(_) => 1,
            Failure::Usage(_) => 2,
            Failure::Internal(_) => 3,
        }
    }
}

impl From<UserError> for Failure {
    fn from(e: UserError) -> Failure {
        Failure::Input(e.0)
    }
}

/// Parses the arguments, runs the command, returns the exit code.
pub fn main() -> i32 {
    let cli = Cli::parse();
    exit_code(atomc_filetests::panic_capture::catch(|| dispatch(cli)))
}

/// Prints the error, if any, and maps the outcome to the exit code: 0, the failure's code,
/// or 3 for a caught panic (reported as a bug).
fn exit_code(result: Result<Result<(), Failure>, String>) -> i32 {
    match result {
        Ok(Ok(())) => 0,
        Ok(Err(f)) => {
            let msg = f.message().trim_end();
            if matches!(f, Failure::Internal(_)) {
                eprintln!("atomc: internal error (this is a bug in atomc, please report it): {msg}");
            } else if msg.contains(": error") {
                eprintln!("{msg}");
            } else if !msg.is_empty() {
                eprintln!("atomc: error: {msg}");
            }
            f.code()
        }
        Err(panic) => {
            eprintln!("atomc: internal error (this is a bug in atomc, please report it): {panic}");
            3
        }
    }
}

fn dispatch(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        Command::Compile(a) => compile::run(a),
        Command::Asm(a) => asm::asm(a),
        Command::Disasm(a) => asm::disasm(a),
        Command::Run(a) => run::run(a),
        Command::Test(a) => test::run(a),
        Command::Verify(a) => verify::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Support(a) if a.whole_ir => {
            let started = std::time::Instant::now();
            let cases = atomc_cli::whole_ir::cases::all(a.quick);
            let results = atomc_cli::whole_ir::run(&cases);
            print!("{}", atomc_cli::whole_ir::markdown(&cases, &results));
            eprintln!("{} kernels x {} targets in {:.1?}", cases.len(), atomc_cli::support::TARGETS.len(), started.elapsed());
            Ok(())
        }
        Command::Support(_) => {
            let cases = atomc_cli::support::cases();
            print!("{}", atomc_cli::support::markdown(&cases, &atomc_cli::support::run(&cases)));
            Ok(())
        }
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
