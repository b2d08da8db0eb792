//! Every function of every vISA compile filetest, lowered for TGLLP, DG2
//! and PVC, goes through GenX_IR 1.0.12504 twice (visa.md §8): our
//! `.visaasm` must compile with exit status 0, no errors file and no
//! assertion/WARNING/ERROR line; our `.isa`, read back by GenX_IR, must give
//! the same Gen assembly and the same `-dumpcommonisa` print.
//!
//! A function the platform cannot express (f64 arithmetic and 64-bit integer
//! conversions on TGLLP and DG2, which have no fp64 and no 64-bit integer ALU)
//! must fail with `Unsupported`; it is counted
//! apart and never silently skipped.

#[path = "visa_common/mod.rs"]
mod visa_common;

use atomc::{CompileError, Target, VisaPlatform};
use atomc_oracle::{require, Tool};
use atomc_emit::visa::Platform;

const PLATFORMS: [(VisaPlatform, Platform); 3] = [
    (VisaPlatform::Tgllp, Platform::Tgllp),
    (VisaPlatform::Dg2, Platform::Dg2),
    (VisaPlatform::Pvc, Platform::Pvc),
];

#[test]
fn genx_ir_accepts_every_visa_filetest_on_tgllp_dg2_pvc() {
    if require(Tool::GenXIR).is_none() {
        return;
    }
    let kernels = visa_common::visa_filetest_kernels();
    assert!(!kernels.is_empty());
    let (mut checked, mut identical, mut not_expressible) = (0, 0, Vec::new());
    let mut failures = Vec::new();
    for (name, f) in &kernels {
        for (vp, p) in PLATFORMS {
            let k = match atomc::visa_kernel(f, Target::Visa(vp), &Default::default()) {
                Ok(k) => k,
                Err(CompileError::Unsupported { op, reason, .. }) => {
                    not_expressible.push(format!("{name} on {p}: `{op}`: {reason}"));
                    continue;
                }
                Err(e) => {
                    failures.push(format!("{name} on {p}: {e}"));
                    continue;
                }
            };
            checked += 1;
            match visa_common::genx_round_trip(&k, p) {
                Ok(()) => identical += 1,
                Err(e) => failures.push(format!("{name} on {p}: {e}")),
            }
        }
    }
    println!(
        "vISA: {} filetests × 3 platforms checked ({checked} kernel×platform pairs), {} failures; text-vs-binary identical: {identical}",
        kernels.len(),
        failures.len()
    );
    for n in &not_expressible {
        println!("  not expressible (expected): {n}");
    }
    for f in failures.iter().take(10) {
        println!("FAIL {f}");
    }
    assert!(failures.is_empty(), "{} failures", failures.len());
    // Only the f64 functions and the 64-bit integer conversions may be refused, and only on the
    // parts without fp64 and a 64-bit integer ALU; integer division, only on the parts without
    // an integer divide (64-bit SLM atomics compile everywhere: a spinlock on TGLLP).
    for n in &not_expressible {
        let fp64 = (n.contains("f64") || n.contains("64-bit integer ALU")) && !n.contains(" on PVC:");
        let divide = n.contains("no integer divide") && !n.contains(" on TGLLP:");
        assert!(fp64 || divide, "unexpected refusal: {n}");
    }
}

/// The bindless rows of docs/support.md through GenX_IR: every surface read-modify-write op
/// and CAS on an i32, f32 or f16x2 uniform handle (the support table's kernel shape: the
/// handle a parameter), each on one dim of the six in turn, with clamp `ign` or `near` and the
/// result used or not, alternately. Each that lowers must pass the text and `.isa` round trip on
/// TGLLP, DG2 and PVC; at least one per op must lower.
#[test]
fn bindless_support_kernels_pass_genx_ir() {
    use atomc::ir::{RmwOp, SurfaceDim};
    if require(Tool::GenXIR).is_none() {
        return;
    }
    let ops: Vec<Option<RmwOp>> = RmwOp::ALL.iter().copied().map(Some).chain([None]).collect();
    let (mut checked, mut lowered_ops, mut failures) = (0, std::collections::HashSet::new(), Vec::new());
    let mut n = 0usize;
    for &op in &ops {
        for ty in ["i32", "f32", "f16x2"] {
            n += 1;
            let dim = SurfaceDim::ALL[n % SurfaceDim::ALL.len()];
            let clamp = if n % 2 == 0 { "near" } else { "ign" };
            let coords = vec!["v3"; dim.coord_count()].join(", ");
            let access = format!("{dim} coord {clamp} relaxed gpu v2 [{coords}]");
            let inst = match op {
                Some(o) => format!("surface_rmw.{ty} {o} {access}, v1"),
                None => format!("surface_cas.{ty} {access}, v1, v1"),
            };
            let keep = if n % 3 == 0 { "" } else { "    store v4, v0\n" };
            let text = format!(
                "function %k(ptr.global, {ty}, surface, i32) {{\n\
                 block0(v0: ptr.global, v1: {ty}, v2: surface, v3: i32):\n    v4 = {inst}\n{keep}    return\n}}\n"
            );
            let funcs = atomc::ir::parse::parse(&text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
            // Op and type pairs the IR has no such atomic for (`and` on f32, …).
            if atomc::ir::verify::verify(&funcs[0]).is_err() {
                continue;
            }
            for (vp, p) in PLATFORMS {
                let Ok(k) = atomc::visa_kernel(&funcs[0], Target::Visa(vp), &Default::default()) else { continue };
                lowered_ops.insert(op);
                checked += 1;
                if let Err(e) = visa_common::genx_round_trip(&k, p) {
                    failures.push(format!("{inst} on {p}: {e}"));
                }
            }
        }
    }
    println!("vISA bindless support kernels: {checked} kernel×platform pairs checked, {} failures", failures.len());
    for f in failures.iter().take(5) {
        println!("FAIL {f}");
    }
    assert!(failures.is_empty());
    assert!(checked >= 60, "{checked} pairs");
    let missing: Vec<&Option<RmwOp>> = ops.iter().filter(|o| !lowered_ops.contains(*o)).collect();
    assert!(missing.is_empty(), "never lowered: {missing:?}");
}
