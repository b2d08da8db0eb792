//! Records the commit the binary is built from (for `atomc --version`).

use std::process::Command;

/// `git` run from this package's folder, its trimmed output when it succeeds.
fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok().filter(|o| o.status.success())?;
    String::from_utf8(out.stdout).ok().map(|s| s.trim().to_string()).filter(|s| !s.is_empty())
}

fn main() {
    let commit = git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "commit unknown".to_string());
    println!("cargo:rustc-env=ATOMC_COMMIT={commit}");
    // The repository's git folders, found by git itself: this package sits two levels below
    // the root, and a worktree keeps its HEAD apart from the shared refs. Relative paths from
    // here named nothing, so the commit stayed that of the first build.
    let dirs = [git(&["rev-parse", "--absolute-git-dir"]), git(&["rev-parse", "--path-format=absolute", "--git-common-dir"])];
    for dir in dirs.iter().flatten() {
        for p in ["HEAD", "refs/heads", "packed-refs"] {
            let path = std::path::Path::new(dir).join(p);
            if path.exists() {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
