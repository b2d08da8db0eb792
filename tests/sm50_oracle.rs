//! Every filetest kernel atomc compiles for sm_50 (the sm_50 filetests and every other kernel
//! the sm_50 backend accepts) is disassembled by NVIDIA's nvdisasm from CUDA 11.8
//! (`-b SM50`), which must print exactly atomc's own listing, instruction by instruction, at
//! the same addresses (control words skipped). The control words are not printed by nvdisasm;
//! they round-trip through the bundle decoder.

mod common;

use atomc::{pipeline, Target};
use atomc_emit::oracle::{self, Sm, Tool};

#[test]
fn nvdisasm_118_agrees_with_every_compiled_kernel() {
    let Some(_) = oracle::require(Tool::Nvdisasm118) else { return };
    let (mut kernels, mut insts, mut refused) = (0, 0, 0);
    let mut mismatches = Vec::new();
    for (name, func) in common::filetest_kernels() {
        let out = match pipeline::compile_sass(&func, Target::Sm50) {
            Ok(out) => out,
            Err(e) => {
                refused += 1;
                if name.contains("/sm50/") && !name.contains("reject") {
                    mismatches.push(format!("{name}: the sm_50 filetest does not compile: {e}"));
                }
                continue;
            }
        };
        let bytes = out.kernel.bytes(out.arch).expect("encodes");
        let listing = oracle::nvdisasm(Sm::Sm50, &bytes).unwrap_or_else(|e| panic!("{name}: nvdisasm failed: {e}"));
        let theirs = oracle::disasm_instructions(&listing);
        kernels += 1;
        for (i, ins) in out.kernel.instrs.iter().enumerate() {
            let addr = out.arch.instr_addr(i);
            let ours = out.arch.print_at(ins, addr);
            let ours = ours.trim_end_matches(';').trim_end();
            insts += 1;
            let clean = |t: &str| t.trim_start_matches('{').trim_end_matches('}').trim().to_string();
            match theirs.iter().find(|t| t.offset as u64 == addr) {
                Some(t) if clean(&t.text) == ours => {}
                Some(t) => mismatches.push(format!("{name} @{addr:#x}: atomc `{ours}`, nvdisasm `{}`", t.text)),
                None => mismatches.push(format!("{name} @{addr:#x}: nvdisasm printed nothing for `{ours}`")),
            }
        }
        // The bundle decoder gives back the same instructions, schedule fields included.
        let back = out.arch.decode_bundles(&bytes).unwrap_or_else(|(at, e)| panic!("{name} @{at:#x}: {e}"));
        assert_eq!(back, out.kernel.instrs, "{name}: decode(encode(x)) != x");
    }
    println!(
        "sm_50 nvdisasm 11.8 agreement: {kernels} kernels, {insts} instructions, {} mismatches ({refused} filetest kernels refused by the sm_50 backend)",
        mismatches.len()
    );
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    assert!(kernels > 0);
}
