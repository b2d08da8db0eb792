//! Valid IR the vISA backend refuses, with its diagnostic: every function
//! of `filetests/filetests/compile/visa/reject/*.atom` must fail to compile
//! for every `target visa platform=P` line of its file, with an
//! `Unsupported` error whose text contains the function's `; rejects:`
//! comment. The command line prints it and exits with status 1.

use atomc::{CompileError, Emit, Target};
use std::path::Path;

#[test]
fn every_reject_filetest_fails_with_its_diagnostic() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("filetests/filetests/compile/visa/reject");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    let (mut checked, mut problems) = (0, Vec::new());
    for path in files.iter().filter(|p| p.extension().is_some_and(|e| e == "atom")) {
        let src = std::fs::read_to_string(path).unwrap();
        let parsed = atomc::ir::parse::parse_file(&src).expect("reject files parse");
        let targets: Vec<Target> = parsed
            .headers
            .iter()
            .filter_map(|h| h.text.strip_prefix("target visa platform="))
            .map(|p| Target::from_name(&format!("visa:{}", p.trim())).expect("known platform"))
            .collect();
        assert!(!targets.is_empty(), "{}: no vISA target", path.display());
        for pf in &parsed.functions {
            let want = pf
                .comments
                .iter()
                .find_map(|c| c.text.strip_prefix("rejects: "))
                .unwrap_or_else(|| panic!("{}: %{} has no `; rejects:` comment", path.display(), pf.func.name));
            for &t in &targets {
                checked += 1;
                match atomc::compile(&pf.func, t, Emit::Visaasm) {
                    Err(e @ CompileError::Unsupported { .. }) if e.to_string().contains(want) => {}
                    Err(e) => problems.push(format!("%{} on {t}: wrong error: {e}\n  wanted: {want}", pf.func.name)),
                    Ok(_) => problems.push(format!("%{} on {t}: compiled, wanted: {want}", pf.func.name)),
                }
            }
        }
    }
    println!(
        "vISA rejects: {checked} function×platform pairs refused with their diagnostic, {} problems",
        problems.len()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(checked > 0);
}

#[test]
fn the_cli_prints_the_diagnostic_and_exits_1() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("filetests/filetests/compile/visa/reject/no-fp64.atom");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_atomc"))
        .args(["compile"])
        .arg(&file)
        .args([
            "--target",
            "visa",
            "--platform",
            "TGLLP",
            "--emit",
            "visaasm",
            "--function",
            "fadd64",
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("visa:TGLLP cannot express `v7 = fadd v6, v1`: f64 arithmetic needs an fp64 ALU"),
        "{err}"
    );
}

#[test]
fn the_cli_writes_visaasm_and_isa() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("filetests/filetests/compile/visa/rmw-ops.atom");
    let dir = std::env::temp_dir().join(format!("atomc-visa-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (emit, name) in [("visaasm", "k.visaasm"), ("isa", "k.isa")] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_atomc"))
            .arg("compile")
            .arg(&file)
            .args([
                "--target",
                "visa",
                "--platform",
                "DG2",
                "--emit",
                emit,
                "--function",
                "add",
                "-o",
            ])
            .arg(dir.join(name))
            .output()
            .expect("runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let text = std::fs::read_to_string(dir.join("k.visaasm")).unwrap();
    assert!(text.contains("svm_atomic.add (M1, 8)"), "{text}");
    let isa = std::fs::read(dir.join("k.isa")).unwrap();
    assert_eq!(&isa[..6], b"CISA\x04\x01");
    let _ = std::fs::remove_dir_all(&dir);
}
