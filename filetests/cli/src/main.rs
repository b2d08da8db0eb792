//! The `atomc` command line. See `atomc --help`.
//!
//! Exit codes: 0 success, 1 error in the input (a diagnostic was printed), 2 command-line
//! mistake (clap's and atomc's own), 3 internal error: an internal compiler error, or a panic,
//! which is caught and reported as a bug — never Rust's 101.

mod cli;


fn main() {
    std::process::exit(cli::main());
}
