//! Shared by the integration tests: every valid kernel among the filetests.
#![allow(dead_code)]

use std::path::Path;

/// `(file:%name, function)` for every verified kernel in `filetests/filetests`, sorted.
pub fn filetest_kernels() -> Vec<(String, atomc::ir::Function)> {
    let mut out = Vec::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("filetests/filetests");
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "atom") {
                let src = std::fs::read_to_string(&p).unwrap();
                if let Ok(parsed) = atomc::ir::parse::parse_file(&src) {
                    for pf in parsed.functions {
                        if pf.func.is_kernel() && atomc::ir::verify::verify(&pf.func).is_ok() {
                            out.push((format!("{}:%{}", p.display(), pf.func.name), pf.func));
                        }
                    }
                }
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}
