//! The differential stage proper: every cubin (atomc's and ptxas's, sm_90 and sm_50) runs on the
//! SASS emulator with timing checks on, once round-robin and once under a seeded random
//! schedule, and its memory is judged by the run line's checks (the interpreter's memory, exact
//! or, for ticket ranges, as multisets).

use atomc::ir::interp::RunSpec;
use atomc::ir::Function;
use atomc_emu::{run_cubin, EmuError, Launch, Schedule};

use crate::check::Verdict;
use crate::guard::guarded;

/// Warp instructions one emulated launch may issue: the generated kernels are small and their
/// loops short, so a run that needs more is stuck (a CAS loop that never succeeds).
const STEP_LIMIT: u64 = 2_000_000;

/// Runs each cubin under both schedules; one verdict per (cubin, schedule).
pub fn run(
    func: &Function,
    spec: &RunSpec,
    cubins: &[(String, Vec<u8>)],
    seed: u64,
) -> Vec<(String, Verdict)> {
    let mut out = Vec::new();
    // The run line's launch as `atomc run --target` makes it (buffers, parameters, bound
    // surfaces), with the fuzzer's step limit and the timing check on.
    let base = match atomc::emulate::launch_of(func, spec, Schedule::RoundRobin) {
        Ok(l) => Launch { step_limit: STEP_LIMIT, check_timing: true, ..l },
        Err(e) => return vec![("emulator".into(), Verdict::Generator(format!("kernel parameters: {e}")))],
    };
    for (who, cubin) in cubins {
        for schedule in [Schedule::RoundRobin, Schedule::Random(seed ^ 0x9e37_79b9)] {
            let launch = Launch {
                schedule,
                ..base.clone()
            };
            let name = match schedule {
                Schedule::RoundRobin => "round-robin",
                Schedule::Random(_) => "random",
            };
            let stage = format!("emu {who} {name}");
            let ptxas = who.starts_with("ptxas");
            let verdict = match one_run(func, spec, cubin, &launch) {
                // ptxas's schedule is the hardware's reference: a hazard the timing model finds
                // in it is the model's gap. Its memory is still compared, timing unchecked.
                Verdict::Mismatch(e) if ptxas && e.starts_with(HAZARD) => {
                    let untimed = Launch {
                        check_timing: false,
                        ..launch.clone()
                    };
                    match one_run(func, spec, cubin, &untimed) {
                        Verdict::Ok => Verdict::EmuUnsupported(format!(
                            "timing model rejects ptxas's code: {e}"
                        )),
                        other => other,
                    }
                }
                // A hazard in atomc's code is atomc's bug by its own rules (the emulator checks
                // atomc's hazard model); say whether the values were right regardless.
                Verdict::Mismatch(e) if e.starts_with(HAZARD) => {
                    let untimed = Launch {
                        check_timing: false,
                        ..launch.clone()
                    };
                    let values = match one_run(func, spec, cubin, &untimed) {
                        Verdict::Ok => "memory right without the timing check".to_string(),
                        other => format!(
                            "without the timing check: {}: {}",
                            other.class(),
                            other.detail()
                        ),
                    };
                    Verdict::Mismatch(format!("{e} ({values})"))
                }
                v => v,
            };
            out.push((stage, verdict));
        }
    }
    out
}

/// How [`EmuError::Hazard`] reads.
const HAZARD: &str = "timing hazard";

/// One emulated launch, judged.
fn one_run(func: &Function, spec: &RunSpec, cubin: &[u8], launch: &Launch) -> Verdict {
    match guarded(|| run_cubin(cubin, &func.name, launch)) {
        Err(panic) => Verdict::Mismatch(format!("emulator panic: {panic}")),
        Ok(Err(e @ (EmuError::Unsupported { .. } | EmuError::Decode { .. }))) => {
            Verdict::EmuUnsupported(e.to_string())
        }
        Ok(Err(e)) => Verdict::Mismatch(e.to_string()),
        Ok(Ok(outcome)) => match spec.check_contents(&atomc::emulate::contents(spec, outcome.buffers, &outcome.surfaces)) {
            Ok(()) => Verdict::Ok,
            Err(e) => Verdict::Mismatch(format!("memory differs from the interpreter's: {e}")),
        },
    }
}
