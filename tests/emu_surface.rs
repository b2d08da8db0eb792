//! Surface atomics on the SASS emulator: the run lines of the interpret filetests that use
//! surfaces (bound slots and bindless handles), which the GPU harness does not bind. First
//! ptxas's cubins of atomc's PTX (`sured` only: unused results of 32/64-bit integer add, min,
//! max, and, or on 1d/2d/3d), whose code is right by assumption, so a disagreement is an
//! emulator bug; then atomc's own cubins, every one of which must compile and agree with the
//! interpreter. Bound slots reach both through the cubin's surface references
//! (`R_CUDA_SURF_HEADER_INDEX` relocations against `atomc_surface_<slot>`), as a driver binds
//! a `.surfref`.

mod common;

use atomc::emulate::Schedule;
use atomc::Target;
use atomc_oracle::{self as oracle, Tool};
use common::emu::{run_all, summary, Producer};

fn check(target: Target, who: Producer, schedule: Schedule) -> usize {
    let (cases, problems) = common::cases::collect_surface_cases();
    assert!(problems.is_empty(), "{problems:#?}");
    assert!(cases.len() >= 8, "only {} surface run lines", cases.len());
    let ran = run_all(&cases, target, who, schedule);
    let (run, exact, checks, failures, skipped, forms) = summary(&ran);
    eprintln!(
        "emu {target:?} {who:?} surfaces ({schedule:?}): {run} run ({exact} byte for byte, {checks} by checks), \
         {} mismatches, {skipped} not compiled; forms {forms:?}",
        failures.len()
    );
    for r in ran.iter().filter(|r| r.result.is_err()) {
        eprintln!("  not compiled: {}: {}", r.label, r.result.as_ref().err().map_or("", |e| e.as_str()));
    }
    assert!(failures.is_empty(), "{failures:#?}");
    if who == Producer::Atomc {
        assert_eq!(skipped, 0, "atomc compiles every surface kernel for {target:?}");
    }
    assert!(forms.iter().any(|f| f.starts_with("SURED") || f.starts_with("SUATOM")), "{forms:?}");
    run
}

#[test]
fn ptxas_sm90_surfaces() {
    if oracle::require(Tool::Ptxas13).is_none() {
        return;
    }
    assert!(check(Target::Sm90, Producer::Ptxas, Schedule::RoundRobin) >= 9);
}

#[test]
fn ptxas_sm50_surfaces() {
    if oracle::require(Tool::Ptxas118).is_none() {
        return;
    }
    assert!(check(Target::Sm50, Producer::Ptxas, Schedule::RoundRobin) >= 9);
}

#[test]
fn atomc_sm90_surfaces() {
    check(Target::Sm90, Producer::Atomc, Schedule::RoundRobin);
    check(Target::Sm90, Producer::Atomc, Schedule::Random(0x5eed));
}

#[test]
fn atomc_sm50_surfaces() {
    check(Target::Sm50, Producer::Atomc, Schedule::RoundRobin);
    check(Target::Sm50, Producer::Atomc, Schedule::Random(0x5eed));
}
