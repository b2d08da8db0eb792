//! Every kernel in the workspace's `.atom` files (filetests and examples), emitted as PTX and
//! assembled by ptxas 11.8 (sm_50, sm_90, and sm_60/70/80 to cover every feature gate of the
//! emitter) and ptxas 13 (sm_90). Kernels PTX cannot express are counted, not failed; a PTX text
//! that ptxas rejects is a failure.

use atomc_oracle::{self as oracle, Tool};
use atomc_lower::ptx::{emit_ptx, emit_ptx_module, PtxError};
use atomc_ir::Function;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

mod ptx_common;
use ptx_common::MATRIX;

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

/// The kernels of every parsable file, each renamed `f<file>_<name>` so all can share a module.
fn corpus(files: &[PathBuf], tally: &mut Tally) -> Vec<(PathBuf, Vec<Function>)> {
    let mut out = Vec::new();
    for (n, path) in files.iter().enumerate() {
        let Ok(src) = std::fs::read_to_string(path) else {
            continue;
        };
        let Ok(mut funcs) = atomc_ir::parse::parse(&src) else {
            tally.unparsed += 1;
            continue;
        };
        for f in &mut funcs {
            f.name = format!("f{n}_{}", f.name);
        }
        out.push((path.clone(), funcs));
    }
    out
}

/// Emits every kernel that can be emitted for `sm` and assembles them all as one module (one
/// ptxas run); when ptxas rejects it, each file is assembled alone to name the culprit.
fn check_target(tool: Tool, sm: u32, corpus: &[(PathBuf, Vec<Function>)], tally: &mut Tally) {
    let verbose = std::env::var_os("ATOMC_PTX_CORPUS_VERBOSE").is_some();
    let mut per_file: Vec<(&Path, Vec<Function>)> = Vec::new();
    for (path, funcs) in corpus {
        let mut ok = Vec::new();
        for f in funcs {
            match emit_ptx(f, sm) {
                Ok(_) => ok.push(f.clone()),
                Err(e) => {
                    if verbose {
                        println!("{} %{} ({tool}, sm_{sm}): {e}", path.display(), f.name);
                    }
                    let unsupported = matches!(e, PtxError::Unsupported { .. });
                    let kind = match &e {
                        PtxError::Unsupported { .. } => format!("unsupported on sm_{sm}"),
                        PtxError::Invalid(_) => "invalid IR (negative test)".to_string(),
                        PtxError::NotAKernel(_) => "not a kernel".to_string(),
                        PtxError::BadName(_) => "name not a PTX identifier".to_string(),
                        PtxError::BadTarget(_) => "bad target".to_string(),
                    };
                    // Count each function once per target, target-independent reasons once.
                    if (sm == 50 && !unsupported) || (unsupported && tool == Tool::Ptxas118) {
                        *tally.skipped.entry(kind).or_default() += 1;
                    }
                }
            }
        }
        if !ok.is_empty() {
            per_file.push((path, ok));
        }
    }
    let all: Vec<Function> = per_file.iter().flat_map(|(_, fs)| fs.iter().cloned()).collect();
    let arch = format!("sm_{sm}");
    let module = match emit_ptx_module(&all, sm) {
        Ok(m) => m,
        Err(e) => {
            tally.failures.push(format!("module for {arch}: {e}"));
            return;
        }
    };
    if oracle::ptxas_with(tool, &arch, &module, &[]).is_ok() {
        *tally.assembled.entry(format!("{tool} {arch}")).or_default() += all.len();
        return;
    }
    for (path, funcs) in &per_file {
        let ptx = emit_ptx_module(funcs, sm).expect("emitted before");
        if let Err(e) = oracle::ptxas_with(tool, &arch, &ptx, &[]) {
            tally
                .failures
                .push(format!("{} ({tool}, {arch}):\n{e}\n--- PTX ---\n{ptx}", path.display()));
        }
    }
    if tally.failures.is_empty() {
        tally.failures.push(format!(
            "{tool} rejected the whole-corpus module for {arch} but no single file"
        ));
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
    let mut tally = Tally::default();
    let corpus = corpus(&files, &mut tally);
    for (tool, sm) in MATRIX {
        check_target(tool, sm, &corpus, &mut tally);
    }
    println!("{} .atom files, {} not parsed", files.len(), tally.unparsed);
    for (k, n) in &tally.assembled {
        println!("assembled by {k}: {n} kernels");
    }
    for (k, n) in &tally.skipped {
        println!("not emitted ({k}): {n}");
    }
    assert!(tally.failures.is_empty(), "{}", tally.failures.join("\n\n"));
}
