//! Warp aggregation measured: lane atomics performed per launch (the SASS emulator's count, one
//! per active lane of an `ATOM*`/`RED*`) by atomc's sm_90 and sm_50 code, which aggregate, and by
//! ptxas 13's sm_90 code of the same kernel, against the IR's own count (the interpreter's:
//! one atomic per lane, what atomc's code did before it aggregated). Every run is judged
//! against the interpreter.
//!
//! On an H100 the aggregated `counter_red` runs 13× faster than the per-lane one
//! (`docs/gpu-runs.md`); here the claim is the count, on every machine.

mod common;

use atomc::emulate::{self, Schedule};
use atomc::Target;
use atomc_oracle::{self as oracle, Tool};
use common::cases::collect_cases;
use common::emu::{cubin, Producer};

/// The bench kernels with warp-uniform addresses, and the aggregation filetests.
const KERNELS: &[&str] = &[
    "bench/counter_red",
    "bench/counter_slot",
    "bench/reduce_minmax",
    "bench/compact_append",
    "warp-aggregation:odd_lanes_take_slots#0",
    "warp-aggregation:count_per_block#0",
    "warp-aggregation:reduce_odd_lanes#0",
    "warp-aggregation-scan:slots_by_lane_operand#0",
    "warp-aggregation-scan:sums_by_lane_operand#1",
];

/// Lane atomics of one launch of `who`'s code for `target`, judged against the interpreter.
fn lane_atomics(case: &common::cases::Case, target: Target, who: Producer) -> Result<u64, String> {
    let image = cubin(&case.func, target, who)?;
    let want = emulate::interpret(&case.func, &case.spec)?;
    let (_, out) = emulate::run_and_judge(&image, &case.func, &case.spec, &want, Schedule::RoundRobin)?;
    Ok(out.stats.atomics)
}

#[test]
fn aggregated_atomics_per_launch() {
    let ptxas = oracle::require(Tool::Ptxas13).is_some();
    let (cases, problems) = collect_cases();
    assert!(problems.is_empty(), "{problems:#?}");
    println!("lane atomics per launch: IR (one per lane) / atomc sm_90 / atomc sm_50 / ptxas 13 sm_90");
    for label in KERNELS {
        let case = cases.iter().find(|c| c.label == *label).unwrap_or_else(|| panic!("no case {label}"));
        let (_, stats) = emulate::interpret_with_stats(&case.func, &case.spec).unwrap_or_else(|e| panic!("{label}: {e}"));
        let per_lane = stats.atomics;
        let ours = lane_atomics(case, Target::Sm90, Producer::Atomc).unwrap_or_else(|e| panic!("{label}: {e}"));
        let sm50 = lane_atomics(case, Target::Sm50, Producer::Atomc).unwrap_or_else(|e| panic!("{label}: {e}"));
        let theirs = if ptxas {
            lane_atomics(case, Target::Sm90, Producer::Ptxas).map_or_else(|e| format!("({e})"), |n| n.to_string())
        } else {
            "(no ptxas)".to_string()
        };
        println!("  {label}: {per_lane} / {ours} / {sm50} / {theirs}");
        assert!(ours * 8 <= per_lane, "{label}: {ours} lane atomics aggregated against {per_lane} per lane");
        // sm_50 has no REDUX: result-unused per-lane operands stay per lane there.
        let sm50_aggregates = !label.contains("reduce") && !label.contains("sums_by_lane");
        if sm50_aggregates {
            assert!(sm50 * 8 <= per_lane, "{label}: sm_50 {sm50} lane atomics against {per_lane} per lane");
        }
        if let Ok(n) = theirs.parse::<u64>() {
            assert!(ours <= n, "{label}: atomc performs {ours} lane atomics, ptxas's code {n}");
        }
    }
}

/// `OptLevel::None` issues every atomic per lane: the emulator counts as many lane atomics as
/// the interpreter, the results still agree, and the vISA code loses its combined message.
#[test]
fn opt_level_none_keeps_every_lane_atomic() {
    use atomc::{Emit, OptLevel, Options, Output};
    let (cases, problems) = collect_cases();
    assert!(problems.is_empty(), "{problems:#?}");
    let case = cases.iter().find(|c| c.label == "bench/counter_red").expect("counter_red");
    let (_, stats) = emulate::interpret_with_stats(&case.func, &case.spec).expect("interprets");
    let want = emulate::interpret(&case.func, &case.spec).expect("interprets");
    let plain = Options { opt_level: OptLevel::None, ..Default::default() };
    for target in [Target::Sm90, Target::Sm50] {
        let Ok(Output::Binary(image)) = atomc::compile_with(&case.func, target, Emit::Cubin, &plain) else {
            panic!("{target}: no cubin")
        };
        let (_, out) = emulate::run_and_judge(&image, &case.func, &case.spec, &want, Schedule::RoundRobin)
            .unwrap_or_else(|e| panic!("{target}: {e}"));
        assert_eq!(out.stats.atomics, stats.atomics, "{target}: one atomic per lane at -O0");
        let aggregated = lane_atomics(case, target, Producer::Atomc).expect("runs");
        assert!(aggregated < stats.atomics, "{target}: the default level aggregates");
    }
    let visa = |opts: &Options| match atomc::compile_with(&case.func, Target::Visa(atomc::VisaPlatform::Tgllp), Emit::Visaasm, opts) {
        Ok(Output::Text(t)) => t,
        other => panic!("vISA: {other:?}"),
    };
    // Aggregated, the lanes' operands are summed into one `(M1_NM, 1)` message.
    assert!(visa(&Options::default()).contains("svm_atomic.add (M1_NM, 1)"));
    assert!(!visa(&plain).contains("svm_atomic.add (M1_NM, 1)"));
}
