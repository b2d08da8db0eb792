//! Running the shared cases on the SASS emulator: compile (atomc's cubin, or ptxas's from
//! atomc's PTX), run each run line, judge against the interpreter, and sum up.

use super::cases::Case;
use atomc::emulate::{self, Schedule};
use atomc::{Emit, Output, Target};
use atomc_oracle::{self as oracle, Sm};
use std::collections::BTreeSet;

/// Who compiled the cubin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Producer {
    Atomc,
    Ptxas,
}

/// ptxas's cubin of atomc's PTX, or atomc's own cubin.
pub fn cubin(func: &atomc::ir::Function, target: Target, who: Producer) -> Result<Vec<u8>, String> {
    cubin_capped(func, target, who, None)
}

/// [`cubin`] with atomc's register cap (ptxas's code is not capped).
pub fn cubin_capped(
    func: &atomc::ir::Function,
    target: Target,
    who: Producer,
    max_registers: Option<u32>,
) -> Result<Vec<u8>, String> {
    match who {
        Producer::Atomc => match atomc::compile_with(func, target, Emit::Cubin, &atomc::Options { max_registers, ..Default::default() }) {
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
    let cubins = super::par_map(cases, |c| cubin_capped(&c.func, target, who, c.max_registers));
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

// ---- Known differences and failures, in one place ------------------------------------------

/// Cases where ptxas's code is right for the hardware and the interpreter's run line is not,
/// with the reason: (label, reason). A listed case that passes fails the test (the list is
/// stale), as does any mismatch not listed.
pub const KNOWN: &[(&str, &str, &str)] = &[
    (
        "sm_50",
        "spinlock:locked_add#0",
        "Maxwell has no independent thread scheduling: the lock's winner waits at the loop's reconvergence point \
         while the other lanes of its warp spin on the lock forever (step limit), as on the hardware",
    ),
    (
        "sm_50",
        "bench/ticket_lock",
        "Maxwell has no independent thread scheduling: the lanes of one warp holding later tickets spin \
         while the lane being served waits at the loop's reconvergence point (step limit), as on the hardware",
    ),
];

/// Cases ptxas compiles to forms the SASS form table cannot decode yet (so the emulator cannot
/// run them): (label prefix, what is missing). A listed case that runs fails the test.
pub const UNDECODABLE: &[(&str, &str)] = &[
    (
        "minmax64-sm50:plain#",
        "sm_90 UISETP with .EX (ptxas 13.5's min.s64/max.u64 of uniform operands: `UISETP.LT.U32.AND` + \
         `UISETP.LT.AND.EX` + `USEL` per half, the sequence atomc selects in vector registers)",
    ),
    (
        "divide64:div64",
        "sm_90 IMAD.WIDE.U32 / IMAD.HI.U32 with a carry-out predicate (ptxas 13.5's div.u64 subroutine)",
    ),
    (
        "fdiv64-edges:fdiv64",
        "sm_90 DFMA with an immediate (ptxas 13.5's div.rn.f64 slow path: `DFMA R2, R4, -R6, 1`). Until \
         the emulator's timing model shared `hazard::read_late`, this run stopped earlier on a false hazard: \
         `MUFU.RCP64H` reading an FP64 result 6 cycles after its DMUL",
    ),
    (
        "wide-constants-sm50:relax#",
        "sm_90 VIADDMNMX (0x246), the add-then-min ptxas 13 writes for a relaxation's `min(d + w, d')` \
         (`VIADDMNMX R7, R0, R6, R7, PT`); atomc adds, compares and selects",
    ),
    (
        "conversions-all-sizes:f32_to_ints#",
        "sm_90 F2IP (0x243), the packing convert ptxas 13.5 writes for cvt.rzi.u8.f32 (`F2IP.U8.F32.TRUNC.NTZ \
         R0, RZ, R0, RZ`); atomc converts with `F2I.U8.TRUNC.NTZ` and masks",
    ),
];

/// (target, label, why it fails) — the emulator's message at the time of listing.
pub const KNOWN_FAILURES: &[(&str, &str, &str)] = &[
    (
        "sm_50",
        "subgroup-after-loops:lock_then_vote#0",
        "Maxwell has no independent thread scheduling: the lock's winner waits at the acquire loop's \
         reconvergence point (SYNC) while the other lanes of its warp spin on the lock (step limit), \
         as spinlock:locked_add below; on sm_90 (and on an H100) it runs",
    ),
    (
        "sm_50",
        "load-store:message#0",
        "step limit: the waiting lanes spin while the writing lane of the same warp waits on the \
         reconvergence stack. The emulator's Maxwell model runs a divergent branch's fall-through \
         lanes first; that the hardware does the same is not verified here (ptxas's code for this \
         kernel passes under the same model)",
    ),
    (
        "sm_50",
        "spinlock:locked_add#0",
        "Maxwell has no independent thread scheduling: the lock's winner waits at the loop's \
         reconvergence point (SYNC) while the other lanes of its warp spin on the lock forever (step \
         limit), as on the hardware; ptxas 11.8's code does the same (KNOWN above)",
    ),
    (
        "sm_50",
        "bench/ticket_lock",
        "Maxwell has no independent thread scheduling: a warp's later ticket holders spin while the \
         lane being served waits at the reconvergence point (step limit); ptxas 11.8's code does the \
         same (KNOWN above). On sm_90 (independent thread scheduling) it runs",
    ),
];

/// Run lines whose checks hold only in the interpreter's interleaving (so any other order, a
/// GPU's or the emulator's random one, fails them): (label, why). Allowed to fail under
/// `Schedule::Random`.
/// (None today: `contention-xchg`'s lines were rewritten to hold in any order after an H100
/// run showed another thread exchanging last.)
pub const ORDER_DEPENDENT: &[(&str, &str)] = &[];

/// Whether a failure of `who`'s code for `target` ("sm_90"/"sm_50") is one listed above.
pub fn is_known(who: Producer, target: &str, label: &str, message: &str) -> bool {
    match who {
        Producer::Ptxas => {
            KNOWN.iter().any(|(t, l, _)| *t == target && *l == label)
                || (target == "sm_90" && UNDECODABLE.iter().any(|(l, _)| label.starts_with(l)) && message.contains("cannot be decoded"))
        }
        Producer::Atomc => KNOWN_FAILURES.iter().any(|(t, l, _)| *t == target && *l == label),
    }
}
