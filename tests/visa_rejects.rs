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


