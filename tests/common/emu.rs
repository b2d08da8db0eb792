//! Running the shared cases on the SASS emulator: compile (atomc's cubin, or ptxas's from
//! atomc's PTX), run each run line, judge against the interpreter, and sum up.

use super::cases::Case;
use atomc::emulate::{self, Schedule};
use atomc::{Emit, Output, Target};
use atomc_emit::oracle::{self, Sm};
use std::collections::BTreeSet;

/// Who compiled the cubin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Producer {
    Atomc,
    Ptxas,
}

/// ptxas's cubin of atomc's PTX, or atomc's own cubin.
pub fn cubin(func: &atomc::ir::Function, target: Target, who: Producer) -> Result<Vec<u8>, String> {
    match who {
        Producer::Atomc => match atomc::compile(func, target, Emit::Cubin) {
            Ok(Output::Binary(b)) => Ok(b),
            Ok(_) => Err("not binary output".into()),
            Err(e) => Err(format!("atomc: {e}")),
        },
        Producer::Ptxas => {
            let ptx = match atomc::compile(func, target, Emit::Ptx) {
                Ok(Output::Text(t)) => t,
                Ok(_) => return Err("ptx: not text output".into()),
                Err(e) => return Err(format!("ptx: {e}")),
            };
            let sm = if target == Target::Sm90 { Sm::Sm90 } else { Sm::Sm50 };
            oracle::ptxas(sm, &ptx).map_err(|e| format!("ptxas: {e}"))
        }
    }
}

/// The result of one case.
pub struct Ran {
    pub label: String,
    /// `None`: not compiled (the reason); `Some(Ok(exact))` or `Some(Err(why))`.
    pub result: Result<Result<bool, String>, String>,
    pub forms: BTreeSet<String>,
}

/// Runs every case on the emulator with the cubins of `who` for `target`.
pub fn run_all(cases: &[Case], target: Target, who: Producer, schedule: Schedule) -> Vec<Ran> {
    let cubins = super::par_map(cases, |c| cubin(&c.func, target, who));
    cases
        .iter()
        .zip(cubins)
        .map(|(case, cubin)| {
            let mut forms = BTreeSet::new();
            let result = cubin.map(|cubin| {
                let want = emulate::interpret(&case.func, &case.spec)?;
                let (exact, out) = emulate::run_and_judge(&cubin, &case.func, &case.spec, &want, schedule)?;
                forms.extend(out.stats.forms.keys().cloned());
                Ok(exact)
            });
            Ran {
                label: case.label.clone(),
                result,
                forms,
            }
        })
        .collect()
}

/// Counts: (run, exact, by checks, failures as `label: why`, not compiled, distinct forms).
pub fn summary(ran: &[Ran]) -> (usize, usize, usize, Vec<String>, usize, BTreeSet<String>) {
    let (mut run, mut exact, mut checks, mut skipped) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    let mut forms = BTreeSet::new();
    for r in ran {
        forms.extend(r.forms.iter().cloned());
        match &r.result {
            Err(_) => skipped += 1,
            Ok(res) => {
                run += 1;
                match res {
                    Ok(true) => exact += 1,
                    Ok(false) => checks += 1,
                    Err(e) => failures.push(format!("{}: {e}", r.label)),
                }
            }
        }
    }
    (run, exact, checks, failures, skipped, forms)
}
