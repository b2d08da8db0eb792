//! Every filetest kernel atomc compiles for sm_90 is disassembled by
//! NVIDIA's nvdisasm (CUDA 13), which must print exactly atomc's own
//! listing, instruction by instruction. The schedule fields are not
//! printed by nvdisasm; they round-trip through the form table's decoder.
//! All kernels go to nvdisasm as one stream (one process, not one per
//! kernel); each kernel's listing is printed at its offset in the stream.

mod common;

use atomc::{pipeline, Target};
use atomc_oracle::{self as oracle, Sm, Tool};

#[test]
fn nvdisasm_agrees_with_every_compiled_kernel() {
    let Some(_) = oracle::require(Tool::Nvdisasm13) else { return };
    let mut stream = Vec::new();
    let mut expected = Vec::new(); // (kernel, offset, text)
    let mut kernels = 0;
    for (name, func) in common::filetest_kernels() {
        let Some(out) = common::compiled_or_refused(&name, pipeline::compile_sass(&func, Target::Sm90)) else { continue };
        let bytes = out.kernel.bytes(out.arch).expect("encodes");
        common::push_listing(&mut expected, &name, &out, stream.len() as u64);
        // The decoder must give back the same instruction, schedule included.
        for (i, ins) in out.kernel.instrs.iter().enumerate() {
            let back = out.arch.decode(&bytes[i * 16..i * 16 + 16]).expect("decodes");
            assert_eq!(&back, ins, "{name} @{:#x}: decode(encode(x)) != x", i * 16);
        }
        stream.extend_from_slice(&bytes);
        kernels += 1;
    }
    let listing = oracle::nvdisasm(Sm::Sm90, &stream).expect("nvdisasm runs");
    let mismatches = common::nvdisasm_mismatches(&expected, &listing, str::to_string);
    common::assert_nvdisasm_agreement("sm_90 nvdisasm", kernels, expected.len(), &mismatches, "");
}
