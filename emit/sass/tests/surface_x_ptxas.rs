//! The evidence for `atomc_sass::surface` (x in bytes under `.BA`, in elements without it):
//! ptxas 13.5 (sm_90) and 11.8 (sm_50) on `tests/ptx/surface_x_units.ptx`, whose kernels
//! reduce at x = the `x` parameter: byte-addressed `sured.b` (k_b) becomes `SURED.D.BA`,
//! element-addressed `sured.p` (k_p, k_p2) `SURED.D` without `.BA`, and in all three the
//! coordinate register is the parameter as loaded, unscaled.

mod sass_util;

use atomc_oracle::{self as oracle, Sm, Tool};
use atomc_sass::surface::{element_x, x_shift, SELECT_BA};

const PTX: &str = include_str!("ptx/surface_x_units.ptx");

/// `(kernel, instruction)` lines of a cuobjdump listing.
fn listing(sm: Sm) -> Vec<(String, String)> {
    let cubin = oracle::ptxas(sm, PTX).unwrap_or_else(|e| panic!("ptxas {sm:?}: {e}"));
    let text = oracle::cuobjdump_sass(sm, &cubin).expect("cuobjdump");
    let mut kernel = String::new();
    let mut out = Vec::new();
    for line in text.lines() {
        if let Some(k) = line.trim().strip_prefix("Function : ") {
            kernel = k.to_string();
        } else if let Some(l) = oracle::disasm_instructions(line).pop() {
            out.push((kernel.clone(), l.text));
        }
    }
    out
}

#[test]
fn ptxas_ba_means_byte_x_and_its_absence_element_x() {
    if !sass_util::have_tools(&[Tool::Ptxas13, Tool::Ptxas118]) {
        return;
    }
    // Where each target's ptxas finds the `x` parameter (after the 8-byte surface handle).
    for (sm, x_param) in [(Sm::Sm90, "c[0x0][0x218]"), (Sm::Sm50, "c[0x0][0x148]")] {
        let lines = listing(sm);
        for (kernel, ba) in [("k_b", true), ("k_p", false), ("k_p2", false)] {
            let code: Vec<&String> = lines.iter().filter(|(k, _)| k == kernel).map(|(_, t)| t).collect();
            let sured: Vec<&&String> = code.iter().filter(|t| t.contains("SURED")).collect();
            assert!(!sured.is_empty(), "{sm:?} {kernel}: {code:#?}");
            for s in &sured {
                assert_eq!(s.contains(".BA."), ba, "{sm:?} {kernel}: `{s}`");
                // The base register `[Rn]` holds x as the parameter was loaded.
                let base = s.split('[').nth(1).and_then(|r| r.split(']').next()).expect("address");
                let load = format!("{base}, {x_param}");
                assert!(code.iter().any(|t| t.ends_with(&load)), "{sm:?} {kernel}: no `{load}` before `{s}`");
            }
        }
    }
}

#[test]
fn the_decided_fact() {
    assert!(SELECT_BA, "atomc selects `.BA` (see the module's evidence)");
    assert_eq!((x_shift(4), x_shift(8)), (2, 3));
    assert_eq!(element_x(12, 4, true), Ok(3));
    assert_eq!(element_x(-8, 8, true), Ok(-1));
    assert_eq!(element_x(6, 4, true), Err(6));
    assert_eq!(element_x(6, 4, false), Ok(6));
}
