//! The `atomc` command line. See `atomc --help`.
//!
//! Exit codes: 0 success, 1 user error (a diagnostic was printed), 2 usage
//! error (from clap). A panic is a bug in atomc: it is caught, reported as
//! an internal error, and also exits with 1 — never with Rust's 101.

mod cli;

fn main() {
    std::process::exit(cli::main());
}
