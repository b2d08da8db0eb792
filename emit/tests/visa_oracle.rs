//! The vISA writers against the oracle, GenX_IR 1.0.12504 (visa.md §8):
//! every kernel atomc's validator accepts must (a) compile from our text
//! with rc 0, no errors file and no assert/WARNING/ERROR line, and (b) from
//! our `.isa` to the same Gen code and the same `-dumpcommonisa` print.
//! Each test prints `N kernel×platform pairs checked …, N failures`.

#[path = "visa_oracle/check.rs"]
mod check;
#[path = "visa_oracle/kernels.rs"]
mod kernels;

use atomc_emit::oracle::{require, Tool};
use atomc_emit::visa::*;
use check::Tally;

const PLATFORMS: [Platform; 3] = [Platform::Tgllp, Platform::Dg2, Platform::Pvc];

fn run(what: &str, ks: impl Fn(Platform) -> Vec<Kernel>) {
    if require(Tool::GenXIR).is_none() {
        return;
    }
    let mut t = Tally::default();
    for p in PLATFORMS {
        for k in ks(p) {
            t.add(&k, p);
        }
    }
    t.report(what);
    assert!(t.failures.is_empty(), "{} failures", t.failures.len());
    assert!(t.checked > 0);
}

#[test]
fn svm_atomic_every_op_width_exec_size_and_form() {
    run("svm_atomic matrix", |_| kernels::atomic_matrix());
}

#[test]
fn cas_retry_loops_with_simd_goto() {
    run("CAS loops", kernels::cas_loops);
}

#[test]
fn alu_conversions_and_control_flow() {
    run("ALU and control flow", kernels::alu_tour);
}

#[test]
fn gather_scatter_and_fences() {
    run("gather/scatter/fence", |_| kernels::memory());
}

/// predec has no text spelling, so only our `.isa` can carry it: GenX_IR
/// must read it (rc 0, clean output) on the pre-XeHP platform we test.
#[test]
fn predec_binary_only() {
    if require(Tool::GenXIR).is_none() {
        return;
    }
    let k = kernels::atomic(AtomicOp::PreDec, AtomicWidth::W32, Exec::new(ExecSize::S8), kernels::Form::Plain);
    validate(&k, Platform::Tgllp).expect("predec is valid on TGLLP");
    assert!(validate(&k, Platform::Dg2).is_err(), "predec is refused on XeHP+");
    let out = atomc_emit::oracle::genx_ir(atomc_emit::oracle::GenxInput::Binary(&k.to_isa()), "TGLLP")
        .expect("GenX_IR reads predec from .isa");
    assert!(out.asm.contains("send"), "{}", out.asm);
    println!("visa oracle [predec]: 1 kernel×platform pair checked (.isa only), 0 failures");
}
