//! `atomc verify FILE`: parse and verify, report every error.

use super::{input, Failure};
use std::path::PathBuf;

/// Arguments of `atomc verify`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The .atom file (`-` for stdin).
    file: PathBuf,
}

/// Runs `atomc verify`.
pub fn run(args: Args) -> Result<(), Failure> {
    let input = input::parse(&args.file)?;
    input.verify()?;
    println!("{}: {} function(s) verified", input.name, input.funcs.len());
    Ok(())
}
