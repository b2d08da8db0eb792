//! The `atomc` command line (placeholder until the CLI lands).

fn main() {
    eprintln!("atomc: command line under construction");
    std::process::exit(2);
}
