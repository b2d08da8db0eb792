//! What the command-line tests share: running the binary, paths in the repository, scratch
//! directories.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Runs `atomc ARGS` with `stdin` as its standard input: exit code, stdout bytes, stderr.
pub fn atomc_with(args: &[&str], stdin: Option<&[u8]>) -> (i32, Vec<u8>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_atomc"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run atomc");
    let mut input = child.stdin.take().expect("stdin");
    input.write_all(stdin.unwrap_or_default()).expect("write stdin");
    drop(input);
    let out = child.wait_with_output().expect("atomc ends");
    (out.status.code().unwrap_or(-1), out.stdout, String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Runs `atomc ARGS`: exit code, stdout, stderr.
pub fn atomc(args: &[&str]) -> (i32, String, String) {
    let (rc, out, err) = atomc_with(args, None);
    (rc, String::from_utf8_lossy(&out).into_owned(), err)
}

/// A path in the repository (this package lives in `filetests/cli`).
pub fn repo(p: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(p).display().to_string()
}

/// A scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("atomc-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}
