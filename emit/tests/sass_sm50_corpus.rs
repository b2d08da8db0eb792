//! ptxas 11.8 corpus for sm_50: the PTX that `emit_ptx(.., 50)` writes for every filetest
//! kernel it accepts, plus the hand-written PTX kernels under `tests/ptx` retargeted to sm_50
//! (those ptxas 11.8 accepts), compiled by ptxas 11.8. Every instruction of every `.text.*`
//! section is decoded with the sm_50 form table, re-encoded (control word included) and
//! compared bit for bit, and our text is compared with nvdisasm 11.8's listing of the same
//! bytes. Instructions the table does not know are counted by mnemonic, not failed.

#[path = "../sass/tests/sass_sm50_util/mod.rs"]
mod sass_sm50_util;

use atomc_oracle::{self as oracle, Sm, Tool};
use atomc_emit::sass::hazard::code_sections;
use atomc_emit::sass::{sm50, Sched};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn filetest_kernels() -> Vec<(String, atomc_ir::Function)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../filetests/filetests");
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "atom") {
                let src = std::fs::read_to_string(&p).unwrap_or_default();
                if let Ok(parsed) = atomc_ir::parse::parse_file(&src) {
                    for pf in parsed.functions {
                        if pf.func.is_kernel() && atomc_ir::verify::verify(&pf.func).is_ok() {
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

/// The hand-written PTX kernels, with their header retargeted to sm_50 / PTX 7.8.
fn retargeted_ptx() -> Vec<(String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("sass/tests/ptx");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| {
            d.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "ptx")).collect()
        })
        .unwrap_or_default();
    v.sort();
    v.into_iter()
        .filter_map(|p| {
            let text = std::fs::read_to_string(&p).ok()?;
            let body: String = text
                .lines()
                .map(|l| {
                    let t = l.trim_start();
                    if t.starts_with(".version") {
                        ".version 7.8".to_string()
                    } else if t.starts_with(".target") {
                        ".target sm_50".to_string()
                    } else {
                        l.to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join("\n");
            Some((p.display().to_string(), body))
        })
        .collect()
}

#[test]
fn ptxas_118_corpus_decodes_and_reencodes_bit_exact() {
    if !oracle::require_all(&[Tool::Ptxas118, Tool::Nvdisasm118]) {
        return;
    }
    let arch = sm50();
    let mut sources: Vec<(String, String)> = Vec::new();
    for (name, func) in filetest_kernels() {
        if let Ok(ptx) = atomc_lower::ptx::emit_ptx(&func, 50) {
            sources.push((name, ptx));
        }
    }
    sources.extend(retargeted_ptx());
    let (mut modules, mut rejected, mut total, mut decoded, mut exact, mut printed_same) =
        (0, 0, 0usize, 0usize, 0usize, 0usize);
    let mut unknown: BTreeMap<String, (usize, u64)> = BTreeMap::new();
    let mut fails = Vec::new();
    for (name, ptx) in &sources {
        let Ok(cubin) = oracle::ptxas(Sm::Sm50, ptx) else {
            rejected += 1;
            continue;
        };
        modules += 1;
        for (kernel, code) in code_sections(&cubin).expect("parse cubin") {
            let sname = format!(".text.{kernel}");
            let listing =
                sass_sm50_util::nvdisasm_lines(&code).unwrap_or_else(|e| panic!("nvdisasm {name} {sname}: {e}"));
            for (b, bundle) in code.chunks(32).enumerate() {
                let ctrl = u64::from_le_bytes(bundle[..8].try_into().expect("8 bytes"));
                for k in 0..3 {
                    let at = b * 32 + 8 + k * 8;
                    total += 1;
                    let word = u64::from_le_bytes(bundle[8 + k * 8..16 + k * 8].try_into().expect("8 bytes"));
                    let theirs =
                        listing.iter().find(|(o, _)| *o as usize == at).map(|(_, t)| t.clone()).unwrap_or_default();
                    match arch.decode_word(word as u128) {
                        Ok(mut ins) => {
                            decoded += 1;
                            let bits = ((ctrl >> (21 * k)) & 0x1f_ffff) as u32;
                            ins.sched = Sched::from_bits(bits);
                            let again = arch.encode_word(&ins).map(|w| w as u64);
                            if again == Ok(word) && ins.sched.to_bits() == bits {
                                exact += 1;
                            } else {
                                fails.push(format!(
                                    "{name} {sname} +{at:#x}: re-encoding differs for `{theirs}`: {again:x?}"
                                ));
                            }
                            let ours = arch.print_at(&ins, at as u64);
                            if sass_sm50_util::norm(&ours) == sass_sm50_util::norm(&theirs) {
                                printed_same += 1;
                            } else {
                                fails.push(format!("{name} {sname} +{at:#x}: ours `{ours}` vs nvdisasm `{theirs}`"));
                            }
                        }
                        Err(_) => {
                            let t = theirs.trim_start_matches('@');
                            let t =
                                if theirs.starts_with('@') { t.split_once(' ').map(|x| x.1).unwrap_or(t) } else { t };
                            let mn = t.split([' ', ';']).next().unwrap_or("?").to_string();
                            unknown.entry(mn).or_insert((0, word)).0 += 1;
                        }
                    }
                }
            }
        }
    }
    println!(
        "sm_50 ptxas 11.8 corpus: {} sources, {} compiled ({} rejected by ptxas), {} instructions, {} decoded, {} re-encoded bit-exact, {} printed as nvdisasm, {} mismatches, {} unknown",
        sources.len(),
        modules,
        rejected,
        total,
        decoded,
        exact,
        printed_same,
        fails.len(),
        total - decoded
    );
    for (mn, (n, example)) in &unknown {
        println!("  not in table: {mn:<40} {n:>4}  e.g. {example:#018x}");
    }
    for f in fails.iter().take(60) {
        println!("  {f}");
    }
    assert!(fails.is_empty(), "{} mismatches", fails.len());
}
