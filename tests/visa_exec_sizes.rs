//! SIMD widths 1, 2 and 4 (the other `svm_atomic` exec sizes; 8 is the
//! default the filetests use): every vISA filetest kernel lowered at each
//! width goes through GenX_IR's text and `.isa` paths on TGLLP, DG2 and
//! PVC, and its messages carry the width.

#[path = "visa_common/mod.rs"]
mod visa_common;

use atomc::{CompileError, Target, VisaPlatform};
use atomc_emit::oracle::{require, Tool};
use atomc_emit::visa::{ExecSize, Op, Platform};
use atomc_emit::visa_lower::Options;

#[test]
fn every_filetest_kernel_at_simd_1_2_4() {
    if require(Tool::GenXIR).is_none() {
        return;
    }
    let platforms = [
        (VisaPlatform::Tgllp, Platform::Tgllp),
        (VisaPlatform::Dg2, Platform::Dg2),
        (VisaPlatform::Pvc, Platform::Pvc),
    ];
    let (mut checked, mut failures) = (0, Vec::new());
    for simd in [ExecSize::S1, ExecSize::S2, ExecSize::S4] {
        for (name, f) in visa_common::visa_filetest_kernels() {
            for (vp, p) in platforms {
                let k = match atomc::visa_kernel(&f, Target::Visa(vp), &Options { simd }) {
                    Ok(k) => k,
                    Err(CompileError::Unsupported { .. }) => continue,
                    Err(e) => {
                        failures.push(format!("{name} simd{} {p}: {e}", simd.lanes()));
                        continue;
                    }
                };
                for i in k.insts.iter().filter(|i| i.op == Op::SvmAtomic) {
                    assert!(
                        i.exec.size == simd || (i.exec.size == ExecSize::S1 && i.exec.nomask),
                        "{name}: {:?}",
                        i.exec
                    );
                }
                checked += 1;
                if let Err(e) = visa_common::genx_round_trip(&k, p) {
                    failures.push(format!("{name} simd{} {p}: {e}", simd.lanes()));
                }
            }
        }
    }
    println!("vISA exec sizes 1/2/4: {checked} kernel×platform×width triples checked, {} failures", failures.len());
    for f in failures.iter().take(5) {
        println!("FAIL {f}");
    }
    assert!(failures.is_empty());
}

#[test]
fn simd16_is_refused_with_a_reason() {
    let src = "function %k(ptr.global) {\nblock0(v0: ptr.global):\n    return\n}\n";
    let f = &atomc::ir::parse::parse(src).unwrap()[0];
    let e = atomc::visa_kernel(f, Target::Visa(VisaPlatform::Tgllp), &Options { simd: ExecSize::S16 }).unwrap_err();
    assert!(e.to_string().contains("exec sizes 1, 2, 4 and 8"), "{e}");
}
