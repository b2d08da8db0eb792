//! Code-quality reference: atomc's vISA for the kernels of
//! `filetests/filetests/compile/visa/igc-equivalents.atom` against the vISA
//! Intel's own compiler (IGC 1.0.12504 via `ocloc`) wrote for the same
//! OpenCL C kernels, at the same SIMD width, on TGLLP. Counts vISA
//! instructions, `svm_atomic` messages and — through GenX_IR — Gen
//! instructions. The IGC dumps are not part of the repository: they are read
//! from the reference samples beside it, or from `ATOMC_IGC_REFERENCE` (a
//! directory holding `<kernel>.tgllp.simd<N>.visaasm`). Results:
//! docs/visa-vs-igc.md.

#[path = "visa_common/mod.rs"]
mod visa_common;

use atomc::{Target, VisaPlatform};
use atomc_oracle::{genx_ir, require, GenxInput, Tool};
use atomc_emit::visa::{ExecSize, Op};
use atomc_lower::visa::Options;

/// vISA instruction lines of a `.visaasm` (labels, declarations and
/// comments excluded).
fn visa_insts(text: &str) -> (usize, usize) {
    let body = match text.find("\n_main_0:") {
        Some(i) => &text[i..],
        None => text,
    };
    let lines: Vec<&str> = body
        .lines()
        .filter(|l| l.starts_with("    ") && !l.trim().is_empty() && !l.trim_start().starts_with("//"))
        .collect();
    (lines.len(), lines.iter().filter(|l| l.contains("svm_atomic")).count())
}

/// Gen instructions in GenX_IR's `.asm` (comments and labels excluded).
fn gen_insts(asm: &str) -> usize {
    asm.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//") && !l.ends_with(':'))
        .count()
}

#[test]
fn compare_with_igc() {
    // The samples live beside the repository (`../shared/reference/visa-samples`);
    // ATOMC_IGC_REFERENCE overrides the place.
    let default = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/reference/visa-samples/igc_reference");
    let dir = match std::env::var("ATOMC_IGC_REFERENCE") {
        Ok(d) => d,
        Err(_) if default.is_dir() => default.to_string_lossy().into_owned(),
        Err(_) => {
            eprintln!("SKIPPED: no IGC reference dumps (set ATOMC_IGC_REFERENCE to the igc_reference/ directory of the vISA samples)");
            return;
        }
    };
    if require(Tool::GenXIR).is_none() {
        return;
    }
    let kernels = visa_common::visa_filetest_kernels();
    println!("| kernel | SIMD | IGC vISA insts | atomc vISA insts | IGC svm_atomic | atomc svm_atomic | IGC Gen insts | atomc Gen insts | atomc SIMD8 vISA / Gen |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for (name, simd) in [
        ("k_add_used", 32),
        ("k_add_unused", 32),
        ("k_cas", 32),
        ("k_cas64", 32),
        ("k_add64", 32),
        ("k_min", 32),
        ("k_xchgf", 32),
        ("k_fadd", 16),
        ("k_fmin", 32),
    ] {
        let path = std::path::Path::new(&dir).join(format!("{name}.tgllp.simd{simd}.visaasm"));
        let igc = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let (iv, ia) = visa_insts(&igc);
        let ig = genx_ir(GenxInput::Text(&igc), "TGLLP")
            .map(|o| gen_insts(&o.asm).to_string())
            .unwrap_or_else(|_| "n/a".into());
        let f = &kernels
            .iter()
            .find(|(n, _)| n == &format!("igc-equivalents/%{name}"))
            .expect("kernel in igc-equivalents.atom")
            .1;
        let size = ExecSize::from_lanes(simd).unwrap();
        let ours = atomc::visa_kernel(f, Target::Visa(VisaPlatform::Tgllp), &Options { simd: size, ..Default::default() }).expect("compiles");
        let ov = ours.insts.iter().filter(|i| i.op != Op::Label).count();
        let oa = ours.insts.iter().filter(|i| i.op == Op::SvmAtomic).count();
        let og = gen_insts(
            &genx_ir(GenxInput::Text(&ours.to_text()), "TGLLP")
                .expect("GenX_IR accepts ours")
                .asm,
        );
        let o8 = atomc::visa_kernel(f, Target::Visa(VisaPlatform::Tgllp), &Options::default()).expect("compiles");
        let o8v = o8.insts.iter().filter(|i| i.op != Op::Label).count();
        let o8g = gen_insts(
            &genx_ir(GenxInput::Text(&o8.to_text()), "TGLLP")
                .expect("GenX_IR accepts ours")
                .asm,
        );
        println!("| {name} | {simd} | {iv} | {ov} | {ia} | {oa} | {ig} | {og} | {o8v} / {o8g} |");
    }
}

/// Prints atomc's SIMD32 k_add_used and its Gen code (for looking at it:
/// `cargo test --test visa_igc_compare -- --ignored --nocapture`).
#[test]
#[ignore]
fn show_k_add_used_simd32() {
    let kernels = visa_common::visa_filetest_kernels();
    let f = &kernels
        .iter()
        .find(|(n, _)| n == "igc-equivalents/%k_add_used")
        .unwrap()
        .1;
    let k = atomc::visa_kernel(f, Target::Visa(VisaPlatform::Tgllp), &Options { simd: ExecSize::S32, ..Default::default() }).unwrap();
    println!("{}", k.to_text());
    println!("{}", genx_ir(GenxInput::Text(&k.to_text()), "TGLLP").unwrap().asm);
}
