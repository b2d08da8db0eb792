//! Every filetest kernel atomc compiles for sm_90 is disassembled by
//! NVIDIA's nvdisasm (CUDA 13), which must print exactly atomc's own
//! listing, instruction by instruction. The schedule fields are not
//! printed by nvdisasm; they round-trip through the form table's decoder.

mod common;

use atomc::{pipeline, Target};
use atomc_emit::oracle::{self, Sm, Tool};

#[test]
fn nvdisasm_agrees_with_every_compiled_kernel() {
    let Some(_) = oracle::require(Tool::Nvdisasm13) else { return };
    let (mut kernels, mut insts) = (0, 0);
    let mut mismatches = Vec::new();
    for (name, func) in common::filetest_kernels() {
        let Ok(out) = pipeline::compile_sass(&func, Target::Sm90) else { continue };
        let bytes = out.kernel.bytes(out.arch).expect("encodes");
        let listing = oracle::nvdisasm(Sm::Sm90, &bytes).unwrap_or_else(|e| panic!("{name}: nvdisasm failed: {e}"));
        let theirs = oracle::disasm_instructions(&listing);
        kernels += 1;
        for (i, ins) in out.kernel.instrs.iter().enumerate() {
            let ours = out.arch.print_at(ins, (i * 16) as u64);
            let ours = ours.trim_end_matches(';').trim_end();
            insts += 1;
            match theirs.get(i) {
                Some(t) if t.text == ours => {}
                Some(t) => mismatches.push(format!("{name} @{:#x}: atomc `{ours}`, nvdisasm `{}`", i * 16, t.text)),
                None => mismatches.push(format!("{name} @{:#x}: nvdisasm printed nothing for `{ours}`", i * 16)),
            }
            // The decoder must give back the same instruction, schedule included.
            let word = &bytes[i * 16..i * 16 + 16];
            let back = out.arch.decode(word).expect("decodes");
            assert_eq!(&back, ins, "{name} @{:#x}: decode(encode(x)) != x", i * 16);
        }
    }
    println!("sm_90 nvdisasm agreement: {kernels} kernels, {insts} instructions, {} mismatches", mismatches.len());
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    assert!(kernels > 0);
}
