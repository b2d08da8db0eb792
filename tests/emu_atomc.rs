//! atomc's own cubins (sm_90 and sm_50) for every launchable run line of the interpret
//! filetests plus the bench kernels, run on the SASS emulator with the timing model on and
//! judged against the reference interpreter. ptxas's code of the same kernels passes
//! (`tests/emu_ptxas.rs`), so a failure here is most likely a bug in atomc's code generation.
//! Known failures are listed in one place with the emulator's reason; a listed case that
//! passes fails the test, so a fix is noticed and the list kept honest.

mod common;

use atomc::emulate::Schedule;
use atomc::Target;
use common::cases::Case;
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

/// Other interleavings: seeded random warp (and divergent path) order. The test command runs
/// one seed, the full run (`ATOMC_TEST_FULL=1`) three.
#[test]
fn emu_atomc_random() {
    let seeds: &[u64] = if atomc_oracle::slice::full() { &[1, 2, 3] } else { &[1] };
    for &seed in seeds {
        check(Target::Sm90, "sm_90", Schedule::Random(seed));
        check(Target::Sm50, "sm_50", Schedule::Random(seed));
    }
}

const CAPS_SLICE: u32 = 2;

/// Every case again under register caps of 32 and 16 (the cap ptxas's `--maxrregcount` would
/// set; 16 is the lowest atomc accepts): atomc's sm_90 and sm_50 kernels must still compile,
/// and each one whose code the cap changed (spills to local memory, registers used as spill
/// slots) runs on the emulator and is judged like any other. Cases with their own `max-registers:` line keep it.
#[test]
fn emu_atomc_register_caps() {
    let (cases, problems) = common::cases::collect_cases();
    assert!(problems.is_empty(), "{problems:#?}");
    // The uncapped run above covers every case; the test command caps one in two.
    let cases = atomc_oracle::slice::sample(cases, CAPS_SLICE, |c| &c.label);
    eprintln!("register caps: {}", atomc_oracle::slice::describe(CAPS_SLICE));
    for (target, name) in [(Target::Sm90, "sm_90"), (Target::Sm50, "sm_50")] {
        let asm = |c: &Case, max_registers| {
            let opts = atomc::Options { max_registers, ..Default::default() };
            match atomc::compile_with(&c.func, target, atomc::Emit::Asm, &opts) {
                Ok(atomc::Output::Text(t)) => Ok(t),
                Ok(_) => Err("not text".to_string()),
                Err(e) => Err(e.to_string()),
            }
        };
        let plain = common::par_map(&cases, |c| asm(c, c.max_registers).ok());
        for cap in [32, 16] {
            let capped: Vec<_> = cases
                .iter()
                .cloned()
                .map(|mut c| {
                    c.max_registers = Some(c.max_registers.map_or(cap, |own| own.min(cap)));
                    c
                })
                .collect();
            let code = common::par_map(&capped, |c| asm(c, c.max_registers));
            let not_compiled: Vec<String> = code
                .iter()
                .zip(&plain)
                .zip(&capped)
                .filter(|((c, p), _)| c.is_err() && p.is_some())
                .map(|((c, _), case)| format!("{}: {}", case.label, c.as_ref().err().map_or("", |e| e.as_str())))
                .collect();
            assert!(not_compiled.is_empty(), "{name} under --max-registers {cap}: {not_compiled:#?}");
            // A kernel whose code the cap left as it was has run above already.
            let changed: Vec<Case> = capped
                .into_iter()
                .zip(code.iter().zip(&plain))
                .filter(|(_, (c, p))| c.as_ref().ok() != p.as_ref())
                .map(|(case, _)| case)
                .collect();
            let ran = run_all(&changed, target, Producer::Atomc, Schedule::RoundRobin);
            let (run, exact, checks, failures, _, _) = summary(&ran);
            let unexpected: Vec<&String> = failures
                .iter()
                .filter(|f| {
                    let label = f.split(": ").next().unwrap_or("");
                    !KNOWN_FAILURES.iter().any(|(t, l, _)| *t == name && *l == label)
                })
                .collect();
            eprintln!(
                "emu {name} atomc under --max-registers {cap}: {run} kernels whose code the cap changed run, {} \
                 passed, {} failed ({} unexpected)",
                exact + checks,
                failures.len(),
                unexpected.len()
            );
            assert!(unexpected.is_empty(), "{name} under --max-registers {cap}: {unexpected:#?}");
            let least = if atomc_oracle::slice::full() { 20 } else { 20 / CAPS_SLICE as usize };
            assert!(cap > 16 || run >= least, "only {run} kernels changed under --max-registers {cap}");
        }
    }
}
