//! Every filetest kernel atomc compiles for sm_50 (the sm_50 filetests and every other kernel
//! the sm_50 backend accepts) is disassembled by NVIDIA's nvdisasm from CUDA 11.8
//! (`-b SM50`), which must print exactly atomc's own listing, instruction by instruction, at
//! the same addresses (control words skipped). The control words are not printed by nvdisasm;
//! they round-trip through the bundle decoder.

mod common;

use atomc::{pipeline, Target};
use atomc_oracle::{self as oracle, Sm, Tool};

#[test]
fn nvdisasm_118_agrees_with_every_compiled_kernel() {
    let Some(_) = oracle::require(Tool::Nvdisasm118) else { return };
    let (mut kernels, mut refused) = (0, 0);
    let mut mismatches = Vec::new();
    // All kernels go to nvdisasm as one stream of whole bundles; each kernel's
    // listing is printed at its offset in the stream.
    let mut stream = Vec::new();
    let mut expected = Vec::new(); // (kernel, address, text)
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
        common::push_listing(&mut expected, &name, &out, stream.len() as u64);
        // The bundle decoder gives back the same instructions, schedule fields included.
        let back = out.arch.decode_bundles(&bytes).unwrap_or_else(|(at, e)| panic!("{name} @{at:#x}: {e}"));
        assert_eq!(back, out.kernel.instrs, "{name}: decode(encode(x)) != x");
        stream.extend_from_slice(&bytes);
        kernels += 1;
    }
    let listing = oracle::nvdisasm(Sm::Sm50, &stream).expect("nvdisasm runs");
    // nvdisasm prints the instructions of a bundle between `{` and `}`.
    let clean = |t: &str| t.trim_start_matches('{').trim_end_matches('}').trim().to_string();
    mismatches.extend(common::nvdisasm_mismatches(&expected, &listing, clean));
    let note = format!(" ({refused} filetest kernels refused by the sm_50 backend)");
    common::assert_nvdisasm_agreement("sm_50 nvdisasm 11.8", kernels, expected.len(), &mismatches, &note);
}
