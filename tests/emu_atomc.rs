//! atomc's own cubins (sm_90 and sm_50) for every launchable run line of the interpret
//! filetests plus the bench kernels, run on the SASS emulator with the timing model on and
//! judged against the reference interpreter. ptxas's code of the same kernels passes
//! (`tests/emu_ptxas.rs`), so a failure here is most likely a bug in atomc's code generation.
//! Known failures are listed in one place with the emulator's reason; a listed case that
//! passes fails the test, so a fix is noticed and the list kept honest.

mod common;

use atomc::emulate::Schedule;
use atomc::Target;
use common::emu::{run_all, summary, Producer, KNOWN_FAILURES, ORDER_DEPENDENT};

fn check(target: Target, name: &str, schedule: Schedule) {
    let (cases, problems) = common::cases::collect_cases();
    assert!(problems.is_empty(), "{problems:#?}");
    let ran = run_all(&cases, target, Producer::Atomc, schedule);
    let (run, exact, checks, failures, skipped, forms) = summary(&ran);
    eprintln!(
        "emu {name} atomc ({schedule:?}): {run} kernels run, {} passed ({exact} byte for byte, {checks} by the run \
         lines' checks), {} failed, {skipped} not compiled; {} forms executed",
        exact + checks,
        failures.len(),
        forms.len()
    );
    let random = matches!(schedule, Schedule::Random(_));
    let listed = |label: &str| {
        KNOWN_FAILURES.iter().any(|(t, l, _)| *t == name && *l == label)
            || (random && ORDER_DEPENDENT.iter().any(|(l, _)| *l == label))
    };
    let mut unexpected = Vec::new();
    for f in &failures {
        let label = f.split(": ").next().unwrap_or("");
        if listed(label) {
            eprintln!("  known failure {f}");
        } else {
            eprintln!("  FAILED {f}");
            unexpected.push(f.clone());
        }
    }
    let fixed: Vec<&str> = KNOWN_FAILURES
        .iter()
        .filter(|(t, l, _)| *t == name && !random && !failures.iter().any(|f| f.starts_with(&format!("{l}: "))))
        .map(|(_, l, _)| *l)
        .collect();
    assert!(
        fixed.is_empty(),
        "listed as failing on {name} but pass now (update KNOWN_FAILURES): {fixed:?}"
    );
    assert!(
        unexpected.is_empty(),
        "{} unexpected failures of atomc's {name} code",
        unexpected.len()
    );
    assert!(run >= 100, "only {run} kernels ran");
}

#[test]
fn emu_atomc_sm90() {
    check(Target::Sm90, "sm_90", Schedule::RoundRobin);
}

#[test]
fn emu_atomc_sm50() {
    check(Target::Sm50, "sm_50", Schedule::RoundRobin);
}

/// Other interleavings: seeded random warp (and divergent path) order.
#[test]
fn emu_atomc_random() {
    for seed in [1, 2, 3] {
        check(Target::Sm90, "sm_90", Schedule::Random(seed));
        check(Target::Sm50, "sm_50", Schedule::Random(seed));
    }
}
