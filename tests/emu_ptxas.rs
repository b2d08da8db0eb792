//! The SASS emulator validated on NVIDIA's own code: ptxas's cubins (sm_90 from ptxas 13,
//! sm_50 from ptxas 11.8) of atomc's PTX for every launchable run line of the interpret
//! filetests plus the bench kernels, run with the timing model on and judged against the
//! reference interpreter as `tests/gpu_run.rs` judges a GPU. ptxas's code is right by
//! assumption: a disagreement is an emulator bug.

mod common;

use atomc::emulate::Schedule;
use atomc::Target;
use atomc_emit::oracle::{self, Tool};
use common::emu::{run_all, summary, Producer};

fn validate(target: Target, tool: Tool, name: &str) {
    if oracle::require(tool).is_none() {
        return;
    }
    let (cases, problems) = common::cases::collect_cases();
    assert!(problems.is_empty(), "{problems:#?}");
    let ran = run_all(&cases, target, Producer::Ptxas, Schedule::RoundRobin);
    let (run, exact, checks, failures, skipped, forms) = summary(&ran);
    eprintln!(
        "emu {name} ptxas: {run} kernels run, {} equal the interpreter ({exact} byte for byte, {checks} by the \
         run lines' checks), {} mismatches, {skipped} not compiled; {} forms executed",
        exact + checks,
        failures.len(),
        forms.len()
    );
    for f in &failures {
        eprintln!("  MISMATCH {f}");
    }
    assert!(failures.is_empty(), "{} of {run} ptxas kernels disagree with the interpreter", failures.len());
    assert!(run >= 100, "only {run} kernels ran");
}

#[test]
fn emu_ptxas_sm90() {
    validate(Target::Sm90, Tool::Ptxas13, "sm_90");
}

#[test]
fn emu_ptxas_sm50() {
    validate(Target::Sm50, Tool::Ptxas118, "sm_50");
}
