//! No compare-and-swap reads RZ as its compare or swap value, on either SASS target, in any
//! kernel of the filetests, the bench corpus and the examples. ptxas never does: for
//! `atom.global.cas.b32 %r2, [%rd2], 0, %r1` ptxas 13.5 (sm_90) writes
//! `HFMA2.MMA R4, -RZ, RZ, 0, 0` and compares with R4, ptxas 11.8 (sm_50) `MOV R4, RZ`; a
//! 64-bit zero is `CS2R R4, SRZ` / two `MOV`s (emit/sass/tests/ptx/cas_zero_operands.ptx).
//! Whether the hardware reads RZ as zero there is unverified (docs/gpu-runs.md), so atomc
//! does not rely on it. The count is taken from the final, encoded instructions.

mod common;

use atomc::{pipeline, Target};
use atomc_emit::sass::{Arch, Instr, Operand};
use std::path::Path;

/// The compare and swap operands of a CAS instruction: the register operands after its
/// address, but a surface CAS's packed group only (its last register is the handle).
fn cas_values<'a>(arch: &Arch, ins: &'a Instr) -> Option<Vec<&'a Operand>> {
    let form = &arch.forms[ins.form as usize];
    if !form.key.contains("CAS") {
        return None;
    }
    let at = ins.ops.iter().position(|o| matches!(o, Operand::Mem(_)))? + 1;
    let regs = ins.ops[at..].iter().filter(|o| matches!(o, Operand::Reg(_)));
    Some(if form.mnemonic == "SUATOM" { regs.take(1).collect() } else { regs.collect() })
}

/// `(file:%kernel, function)` of every kernel in the bench corpus and the examples.
fn corpus_kernels() -> Vec<(String, atomc::ir::Function)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = common::filetest_kernels();
    for dir in ["filetests/bench", "examples"] {
        let mut files: Vec<_> = std::fs::read_dir(root.join(dir)).unwrap().flatten().map(|e| e.path()).collect();
        files.sort();
        for p in files.iter().filter(|p| p.extension().is_some_and(|x| x == "atom")) {
            let parsed = atomc::ir::parse::parse_file(&std::fs::read_to_string(p).unwrap()).expect("parse");
            for pf in parsed.functions.into_iter().filter(|f| f.func.is_kernel()) {
                out.push((format!("{}:%{}", p.display(), pf.func.name), pf.func));
            }
        }
    }
    out
}

#[test]
fn no_cas_reads_rz_as_compare_or_swap() {
    let kernels = corpus_kernels();
    let mut bad = Vec::new();
    for target in [Target::Sm90, Target::Sm50] {
        let (mut compiled, mut cas, mut with_rz) = (0, 0, 0);
        let results = common::par_map(&kernels, |(name, f)| (name.clone(), pipeline::compile_sass(f, target)));
        for (name, result) in results {
            let Some(out) = common::compiled_or_refused(&name, result) else { continue };
            compiled += 1;
            for ins in &out.kernel.instrs {
                let Some(values) = cas_values(out.arch, ins) else { continue };
                cas += 1;
                if values.iter().any(|o| matches!(o, Operand::Reg(r) if r.num == 255)) {
                    with_rz += 1;
                    bad.push(format!("{target:?} {name}: `{}`", out.arch.print(ins)));
                }
            }
        }
        println!("{target:?}: {compiled} kernels compiled, {cas} CAS instructions, {with_rz} with RZ as compare or swap");
        assert!(cas > 0, "{target:?}: the corpus has CAS instructions");
    }
    assert!(bad.is_empty(), "CAS with RZ as compare or swap:\n{}", bad.join("\n"));
}
