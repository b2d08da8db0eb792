//! The launch contract atomc keeps as ptxas keeps it, each rule checked on atomc's code for every
//! filetest kernel and, as evidence, on ptxas's code for the same kernels:
//!
//! * sm_90 shared memory lives past a reserved 1 KiB window selected by `SR_CgaCtaId`: the code
//!   computes the base with `S2UR`/`UMOV 0x400`/`ULEA` and the cubin sizes `.nv.shared.<k>`
//!   0x400 (ptxas 13.5 does both for every kernel that touches shared memory);
//! * sm_90 loops contain a `YIELD` (ptxas 13.5 puts one in every loop it emits).

mod common;

use atomc::{pipeline, Emit, Output, Target};
use atomc_emit::cubin::inspect::inspect;
use atomc_emit::oracle::{self, Sm, Tool};

/// Instruction texts of a listing (`/*0040*/  TEXT ;` lines), with their addresses.
fn lines(listing: &str) -> Vec<(u64, String)> {
    oracle::disasm_instructions(listing)
        .into_iter()
        .map(|l| (l.offset as u64, l.text.trim_start_matches('{').trim().to_string()))
        .collect()
}

/// Backward branches `(branch address, target address)`.
fn back_edges(code: &[(u64, String)]) -> Vec<(u64, u64)> {
    code.iter()
        .filter_map(|(at, t)| {
            let t = if t.starts_with('@') { t.split_once(' ')?.1 } else { t.as_str() };
            let target = t.strip_prefix("BRA ")?.trim_end_matches(" ;").trim_end_matches(';').trim();
            let target = u64::from_str_radix(target.trim_start_matches("0x"), 16).ok()?;
            (target <= *at).then_some((*at, target))
        })
        .filter(|(at, target)| at != target) // the end-of-kernel self-branch
        .collect()
}

fn yields_in_loops(code: &[(u64, String)]) -> (usize, usize) {
    let edges = back_edges(code);
    let with = edges
        .iter()
        .filter(|(at, target)| code.iter().any(|(a, t)| a >= target && a <= at && t.starts_with("YIELD")))
        .count();
    (edges.len(), with)
}

fn uses_shared(code: &[(u64, String)]) -> bool {
    code.iter().any(|(_, t)| ["LDS", "STS", "ATOMS"].iter().any(|m| t.contains(&format!("{m} ")) || t.contains(&format!("{m}."))))
}

fn has_window_prologue(code: &[(u64, String)]) -> bool {
    let text: Vec<&str> = code.iter().map(|(_, t)| t.as_str()).collect();
    text.iter().any(|t| t.starts_with("S2UR") && t.contains("SR_CgaCtaId"))
        && text.iter().any(|t| t.starts_with("UMOV") && t.contains("0x400"))
        && text.iter().any(|t| (t.starts_with("ULEA") || t.starts_with("UPRMT")))
}

#[test]
fn sm90_loops_yield_and_shared_memory_sits_past_the_reserved_window() {
    let (mut loops, mut yielding, mut shared, mut windowed) = (0, 0, 0, 0);
    let mut bad = Vec::new();
    for (name, func) in common::filetest_kernels() {
        let Ok(out) = pipeline::compile_sass(&func, Target::Sm90) else { continue };
        let code = lines(&out.kernel.listing(out.arch, false));
        let (l, y) = yields_in_loops(&code);
        loops += l;
        yielding += y;
        if l != y {
            bad.push(format!("{name}: {} of {l} loops without YIELD", l - y));
        }
        if uses_shared(&code) {
            shared += 1;
            let cubin = match atomc::compile(&func, Target::Sm90, Emit::Cubin) {
                Ok(Output::Binary(b)) => b,
                other => panic!("{name}: no cubin: {other:?}"),
            };
            let s = inspect(&cubin).expect("atomc's cubin reads");
            let size = s.section(&format!(".nv.shared.{}", func.name)).map(|sh| sh.size);
            if has_window_prologue(&code) && size == Some(0x400) {
                windowed += 1;
            } else {
                bad.push(format!("{name}: shared memory without the window (prologue or .nv.shared size {size:?})"));
            }
        }
    }
    println!("atomc sm_90: {yielding}/{loops} loops yield; {windowed}/{shared} shared-memory kernels use the window");
    assert!(loops > 10 && shared > 5, "too few kernels exercise the rules");
    assert!(bad.is_empty(), "{bad:#?}");
}

/// The evidence: ptxas 13.5's code for the same kernels follows both rules.
#[test]
fn ptxas_sm90_does_the_same() {
    if oracle::require(Tool::Ptxas13).is_none() || oracle::require(Tool::Cuobjdump13).is_none() {
        return;
    }
    let kernels = common::filetest_kernels();
    let results = common::par_map(&kernels, |(_, func)| {
        let ptx = atomc_emit::ptx::emit_ptx(func, 90).ok()?;
        let sass = oracle::ptxas_sass(Sm::Sm90, &ptx).ok()?;
        let code = lines(&sass);
        Some((yields_in_loops(&code), uses_shared(&code), has_window_prologue(&code)))
    });
    let (mut loops, mut yielding, mut shared, mut windowed) = (0, 0, 0, 0);
    for ((l, y), s, w) in results.into_iter().flatten() {
        loops += l;
        yielding += y;
        shared += s as usize;
        windowed += (s && w) as usize;
    }
    println!("ptxas 13 sm_90: {yielding}/{loops} loops yield; {windowed}/{shared} shared-memory kernels use the window");
    assert!(loops > 10 && yielding * 10 >= loops * 9, "ptxas yields in {yielding}/{loops} loops");
    assert!(shared > 5 && windowed == shared, "ptxas windows {windowed}/{shared} shared kernels");
}
