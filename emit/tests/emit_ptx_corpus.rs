//! Every kernel in the workspace's `.atom` files (filetests and examples), emitted as PTX and
//! assembled by ptxas 11.8 (sm_50, sm_90) and ptxas 13 (sm_90). Kernels PTX cannot express are
//! counted, not failed; a PTX text that ptxas rejects is a failure.

use atomc_emit::oracle::{self, Tool};
use atomc_emit::ptx::{emit_ptx, emit_ptx_module, PtxError};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

const MATRIX: [(Tool, u32); 3] = [(Tool::Ptxas118, 50), (Tool::Ptxas118, 90), (Tool::Ptxas13, 90)];

fn atom_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            atom_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "atom") {
            out.push(path);
        }
    }
}

#[derive(Default)]
struct Tally {
    /// Kernels assembled, per (tool, sm).
    assembled: BTreeMap<String, usize>,
    /// Kernels not emitted, per reason kind.
    skipped: BTreeMap<String, usize>,
    /// Files the parser rejected (negative tests).
    unparsed: usize,
    failures: Vec<String>,
}

fn check_file(path: &Path, tally: &Mutex<Tally>) {
    let Ok(src) = std::fs::read_to_string(path) else { return };
    let Ok(funcs) = atomc_ir::parse::parse(&src) else {
        tally.lock().unwrap().unparsed += 1;
        return;
    };
    for (tool, sm) in MATRIX {
        let mut ok = Vec::new();
        for f in &funcs {
            match emit_ptx(f, sm) {
                Ok(_) => ok.push(f.clone()),
                Err(e) => {
                    let kind = match &e {
                        PtxError::Unsupported { .. } => format!("unsupported on sm_{sm}"),
                        PtxError::Invalid(_) => "invalid IR (negative test)".to_string(),
                        PtxError::NotAKernel(_) => "not a kernel".to_string(),
                        PtxError::BadName(_) => "name not a PTX identifier".to_string(),
                        PtxError::BadTarget(_) => "bad target".to_string(),
                    };
                    if std::env::var_os("ATOMC_PTX_CORPUS_VERBOSE").is_some() {
                        println!("{} %{} ({tool}, sm_{sm}): {e}", path.display(), f.name);
                    }
                    // Count each function once per target (and target-independent reasons once).
                    let unsupported = matches!(e, PtxError::Unsupported { .. });
                    if sm == 50 || (unsupported && tool == Tool::Ptxas13) {
                        *tally.lock().unwrap().skipped.entry(kind).or_default() += 1;
                    }
                }
            }
        }
        if ok.is_empty() {
            continue;
        }
        let ptx = match emit_ptx_module(&ok, sm) {
            Ok(p) => p,
            Err(e) => {
                tally
                    .lock()
                    .unwrap()
                    .failures
                    .push(format!("{}: module: {e}", path.display()));
                continue;
            }
        };
        match oracle::ptxas_with(tool, &format!("sm_{sm}"), &ptx, &[]) {
            Ok(_) => {
                *tally
                    .lock()
                    .unwrap()
                    .assembled
                    .entry(format!("{tool} sm_{sm}"))
                    .or_default() += ok.len()
            }
            Err(e) => tally.lock().unwrap().failures.push(format!(
                "{} ({tool}, sm_{sm}):\n{e}\n--- PTX ---\n{ptx}",
                path.display()
            )),
        }
    }
}

#[test]
fn every_atom_kernel_assembles() {
    if !oracle::require_all(&[Tool::Ptxas118, Tool::Ptxas13]) {
        return;
    }
    let root = oracle::workspace_root().expect("workspace root");
    let mut files = Vec::new();
    atom_files(&root.join("filetests"), &mut files);
    atom_files(&root.join("examples"), &mut files);
    let tally = Mutex::new(Tally::default());
    let next = Mutex::new(0usize);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = {
                    let mut n = next.lock().unwrap();
                    *n += 1;
                    *n - 1
                };
                let Some(path) = files.get(i) else { break };
                check_file(path, &tally);
            });
        }
    });
    let tally = tally.into_inner().unwrap();
    println!("{} .atom files, {} not parsed", files.len(), tally.unparsed);
    for (k, n) in &tally.assembled {
        println!("assembled by {k}: {n} kernels");
    }
    for (k, n) in &tally.skipped {
        println!("not emitted ({k}): {n}");
    }
    assert!(tally.failures.is_empty(), "{}", tally.failures.join("\n\n"));
}
