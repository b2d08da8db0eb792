//! ptxas corpus: compile every `tests/ptx/*.ptx` with ptxas 13 for sm_90, decode each
//! instruction of every `.text.*` section with the form table, re-encode it and compare bit for
//! bit (schedule bits included), and compare our printed text with nvdisasm's listing of the
//! same cubin. Prints counts; instructions the table does not know are reported by mnemonic.

mod sass_util;

use atomc_oracle::{self as oracle, Sm, Tool};
use atomc_sass::hazard::code_sections;
use atomc_sass::sm90;
use std::collections::BTreeMap;
use std::path::PathBuf;

fn ptx_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/ptx");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "ptx")).collect())
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn ptxas_corpus_decodes_and_reencodes_bit_exact() {
    if !sass_util::have_tools(&[Tool::Ptxas13, Tool::Nvdisasm13]) {
        return;
    }
    let arch = sm90();
    let (mut total, mut decoded, mut exact, mut printed_same) = (0usize, 0usize, 0usize, 0usize);
    let mut unknown: BTreeMap<String, usize> = BTreeMap::new();
    let mut fails = Vec::new();
    let files = ptx_files();
    assert!(!files.is_empty(), "no PTX files under tests/ptx");
    for path in &files {
        let ptx = std::fs::read_to_string(path).expect("read ptx");
        let cubin = oracle::ptxas(Sm::Sm90, &ptx).unwrap_or_else(|e| panic!("ptxas {}: {}", path.display(), e));
        for (kernel, code) in code_sections(&cubin).expect("parse cubin") {
            let name = format!(".text.{kernel}");
            let listing = sass_util::nvdisasm_lines(&code).unwrap_or_else(|e| panic!("nvdisasm {}: {}", name, e));
            for (i, chunk) in code.chunks(16).enumerate() {
                total += 1;
                let theirs = listing.iter().find(|(o, _)| *o as usize == i * 16).map(|(_, t)| t.clone()).unwrap_or_default();
                match arch.decode(chunk) {
                    Ok(ins) => {
                        decoded += 1;
                        match arch.encode(&ins) {
                            Ok(b) if b == chunk => exact += 1,
                            Ok(_) => fails.push(format!("{} +{:#x}: re-encoding differs for `{}`", name, i * 16, theirs)),
                            Err(e) => fails.push(format!("{} +{:#x}: `{}`: {}", name, i * 16, theirs, e)),
                        }
                        let ours = arch.print_at(&ins, (i * 16) as u64);
                        if ours == theirs {
                            printed_same += 1;
                        } else {
                            fails.push(format!("{} +{:#x}: ours `{}` vs nvdisasm `{}`", name, i * 16, ours, theirs));
                        }
                    }
                    Err(e) => {
                        let mn = theirs.trim_start_matches(|c| c != ' ' && theirs.starts_with('@')).trim();
                        let mn = mn.split([' ', ';']).next().unwrap_or("?").to_string();
                        *unknown.entry(mn.clone()).or_default() += 1;
                        if std::env::var("ATOMC_SASS_VERBOSE").is_ok() {
                            eprintln!("{} +{:#x}: `{}`: {}", name, i * 16, theirs, e);
                        }
                    }
                }
            }
        }
    }
    println!(
        "sm_90 ptxas corpus: {} files, {} instructions, {} decoded, {} re-encoded bit-exact, {} printed as nvdisasm, {} mismatches, {} unknown",
        files.len(),
        total,
        decoded,
        exact,
        printed_same,
        fails.len(),
        total - decoded
    );
    for (mn, n) in &unknown {
        println!("  not in table yet: {:<36} {}", mn, n);
    }
    assert!(fails.is_empty(), "{} mismatches:\n{}", fails.len(), fails.join("\n"));
}
