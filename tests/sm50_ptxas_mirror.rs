//! Does atomc pick the atomic instructions ptxas 11.8 picks for the same kernel? For every
//! sm_50 filetest kernel, the PTX from `emit_ptx(.., 50)` is compiled by ptxas 11.8 and the
//! atomic and fence instructions of both listings (ATOM, RED, ATOMS, SUATOM, SURED, MEMBAR, and the
//! volatile LDG.E.CV / STG.E.WT that stand for atomic loads and stores; guards and
//! operands dropped) are compared as multisets. Prints the table; fails only if atomc uses a
//! mnemonic-with-modifiers ptxas never uses for that kernel while ptxas compiled it.

mod common;

use atomc::{pipeline, Target};
use atomc_oracle::{self as oracle, Sm, Tool};
use std::collections::BTreeMap;

fn atomics(listing: &str) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for l in oracle::disasm_instructions(listing) {
        let t = l.text.trim_start_matches('{').trim();
        let t = if t.starts_with('@') { t.split_once(' ').map(|x| x.1).unwrap_or(t) } else { t };
        let op = t.split_whitespace().next().unwrap_or("");
        // Cache-volatile loads and write-through stores are how sm_50 spells relaxed atomic
        // loads and stores (`ld.volatile` → `LDG.E.CV`, `st.volatile` → `STG.E.WT`).
        let volatile = op.contains(".CV") || op.contains(".WT");
        if volatile || ["ATOM.", "RED.", "ATOMS.", "SUATOM.", "SURED.", "MEMBAR."].iter().any(|p| op.starts_with(p)) {
            *m.entry(op.to_string()).or_default() += 1;
        }
    }
    m
}

#[test]
fn atomic_choices_match_ptxas_118() {
    if !oracle::require_all(&[Tool::Ptxas118, Tool::Nvdisasm118]) {
        return;
    }
    let (mut same, mut differ, mut only_ours) = (0, 0, Vec::new());
    for (name, func) in common::filetest_kernels() {
        if !name.contains("/sm50/") || name.contains("reject") {
            continue;
        }
        let Some(out) = common::compiled_or_refused(&name, pipeline::compile_sass(&func, Target::Sm50)) else { continue };
        // PTX the emitter writes for a kernel atomc compiles, ptxas 11.8 accepts.
        let ptx = match atomc_lower::ptx::emit_ptx(&func, 50) {
            Ok(ptx) => ptx,
            Err(atomc_lower::ptx::PtxError::Unsupported { .. }) => continue,
            Err(e) => panic!("{name}: no PTX: {e}"),
        };
        let cubin = oracle::ptxas(Sm::Sm50, &ptx).unwrap_or_else(|e| panic!("{name}: ptxas 11.8 rejects atomc's PTX: {e}"));
        let theirs = atomics(&oracle::nvdisasm_cubin(Sm::Sm50, &cubin).expect("nvdisasm"));
        let ours = atomics(&out.kernel.listing(out.arch, false));
        let short = name.rsplit('/').next().unwrap_or(&name).to_string();
        if ours == theirs {
            same += 1;
            println!("  same    {short}: {ours:?}");
        } else {
            differ += 1;
            println!("  differ  {short}: atomc {ours:?}, ptxas {theirs:?}");
            for k in ours.keys() {
                if !theirs.contains_key(k) {
                    only_ours.push(format!("{short}: {k}"));
                }
            }
        }
    }
    println!("sm_50 vs ptxas 11.8 atomic choices: {same} kernels identical, {differ} differ; opcodes only atomc uses: {only_ours:?}");
}
