//! The evidence for "no CAS reads RZ as its compare or swap value" (the `rz_ok: false` compare
//! and swap slots of the CAS forms in `tables/{sm90,sm50}/atomics.rs`): ptxas 13.5 (sm_90)
//! and 11.8 (sm_50) compile CAS with a zero compare value, a zero swap value, both, 64-bit
//! and shared-memory variants (`tests/ptx/cas_zero_operands.ptx`), and every time put the zero
//! in a register first: sm_90 `HFMA2.MMA R4, -RZ, RZ, 0, 0` (32-bit) or `CS2R R4, SRZ` (a
//! pair), sm_50 `MOV R4, RZ`; then `ATOMG.E.CAS.STRONG.GPU PT, R5, [R2], R4, R5`,
//! `ATOM.E.CAS R0, [R2], R4, R5`.

mod sass_util;

use atomc_oracle::{self as oracle, Sm, Tool};

const PTX: &str = include_str!("ptx/cas_zero_operands.ptx");

/// The compare and swap operands of a CAS line: its last two.
fn compare_swap(text: &str) -> Vec<String> {
    let ops: Vec<String> = text.split(',').map(|s| s.trim().trim_end_matches('}').trim().to_string()).collect();
    ops[ops.len() - 2..].to_vec()
}

#[test]
fn ptxas_puts_a_zero_compare_or_swap_value_in_a_register() {
    if !sass_util::have_tools(&[Tool::Ptxas13, Tool::Ptxas118]) {
        return;
    }
    for (sm, zero_makers) in [(Sm::Sm90, &["HFMA2.MMA", "CS2R"][..]), (Sm::Sm50, &["MOV"][..])] {
        let lines = oracle::ptxas_sass(sm, PTX).unwrap_or_else(|e| panic!("ptxas {sm:?}: {e}"));
        let cas: Vec<&str> = lines.iter().map(|l| l.text.as_str()).filter(|t| t.contains(".CAS")).collect();
        assert_eq!(cas.len(), 7, "{sm:?}: one CAS per kernel: {cas:?}");
        for t in &cas {
            assert!(!compare_swap(t).iter().any(|o| o == "RZ"), "{sm:?}: `{t}`");
        }
        let zeros = lines
            .iter()
            .filter(|l| zero_makers.iter().any(|m| l.text.contains(m)) && l.text.contains("RZ"))
            .count();
        assert!(zeros >= 7, "{sm:?}: a zero made in a register for each kernel, found {zeros}");
        println!("{sm:?}: {cas:?}");
    }
}
