//! The emulator's ordering model sees a missing fence: atomc's message-passing kernels
//! (`filetests/interpret/message-passing.atom`), compiled by atomc and by ptxas from atomc's
//! PTX, give the right data under every random seed tried, and the same cubins with a fence or L1 invalidation (`MEMBAR`, `CCTL.IVALL`), or all
//! of them, replaced by `NOP` give wrong data under some seed, on sm_90 and sm_50.

mod common;

use atomc::emulate::{self, Schedule};
use atomc::Target;
use atomc_emit::cubin::inspect::inspect;
use atomc_emit::sass::hazard;
use atomc_emit::sass::{sm50, sm90, Arch};
use common::cases::collect_cases;
use common::emu::{cubin, Producer};

const SEEDS: u64 = 200;

/// `bytes` with the instructions of `kernel` that fence or invalidate replaced by a `NOP` with
/// their schedule fields (the `which`-th of them only, or all); how many there are.
fn without_fences(arch: &Arch, bytes: &[u8], kernel: &str, which: Option<usize>) -> (Vec<u8>, usize) {
    let (_, code) = hazard::code_sections(bytes).expect("code").into_iter().find(|(n, _)| n == kernel).expect("the kernel");
    let mut code: Vec<_> = hazard::decode_lenient(arch, &code).into_iter().map(|s| s.instr.expect("decodes")).collect();
    let nop = arch.assemble_line("NOP ;", 0).expect("assembles").expect("an instruction");
    let mut n = 0;
    for ins in &mut code {
        let form = &arch.forms[ins.form as usize];
        if form.facts.fence || form.meanings(&ins.mods).any(|m| m.invalidates) {
            if which.is_none_or(|w| w == n) {
                *ins = atomc_emit::sass::Instr { sched: ins.sched, ..nop.clone() };
            }
            n += 1;
        }
    }
    let enc = if arch.name == "sm_50" {
        arch.encode_bundles(&code).expect("encodes")
    } else {
        code.iter().flat_map(|i| arch.encode(i).expect("encodes")).collect()
    };
    let s = inspect(bytes).expect("a cubin");
    let sec = s.section(&format!(".text.{kernel}")).expect("the kernel's code");
    assert_eq!(enc.len() as u64, sec.size);
    let mut out = bytes.to_vec();
    out[sec.offset as usize..(sec.offset + sec.size) as usize].copy_from_slice(&enc);
    (out, n)
}

#[test]
fn a_missing_fence_changes_the_outcome() {
    let (cases, problems) = collect_cases();
    assert!(problems.is_empty(), "{problems:#?}");
    let cases: Vec<_> = cases.iter().filter(|c| c.label.starts_with("message-passing:")).collect();
    assert_eq!(cases.len(), 2);
    for target in [Target::Sm90, Target::Sm50] {
        let arch = if target == Target::Sm90 { sm90() } else { sm50() };
        for (case, who) in cases.iter().flat_map(|c| [(c, Producer::Atomc), (c, Producer::Ptxas)]) {
            let bytes = cubin(&case.func, target, who).expect("compiles");
            let want = emulate::interpret(&case.func, &case.spec).expect("interprets");
            let run = |b: &[u8], seed| emulate::run_and_judge(b, &case.func, &case.spec, &want, Schedule::Random(seed));
            for seed in 0..SEEDS {
                if let Err(e) = run(&bytes, seed) {
                    panic!("{} ({who:?}) on {target:?}, seed {seed}: {e}", case.label);
                }
            }
            // atomc's code: each fence alone (the producer's drains its store buffer, the
            // consumer's drops its stale line), then both. ptxas's (which may fence a side
            // twice, `fence.acq_rel.gpu` for an acquire fence): all of them.
            let n = without_fences(arch, &bytes, &case.func.name, None).1;
            let mutants = if who == Producer::Atomc {
                assert_eq!(n, 2, "{}: one fence per side", case.label);
                vec![Some(0), Some(1), None]
            } else {
                assert!(n >= 2, "{} ({who:?}): {n} fences", case.label);
                vec![None]
            };
            for which in mutants {
                let (broken, _) = without_fences(arch, &bytes, &case.func.name, which);
                let wrong = (0..SEEDS).filter(|&s| run(&broken, s).is_err()).count();
                let what = which.map_or(format!("all {n} fences"), |w| format!("fence {w}"));
                eprintln!("{} ({who:?}) on {target:?} without {what}: wrong under {wrong} of {SEEDS} seeds", case.label);
                assert!(wrong > 0, "{} ({who:?}) on {target:?}: no seed shows the missing {what}", case.label);
            }
        }
    }
}
