//! The whole-IR matrix (bounded set: register shapes and a few edge constants per row): every
//! instruction of the IR is covered (from the IR's own opcode list; atomics by the atomics
//! matrix); every kernel compiles for every target or is refused by the capability table; every
//! SASS kernel that compiles runs on the emulator with the interpreter's result. What still
//! fails is listed in [`KNOWN`], exactly: a new failure fails the test, and so does a listed one
//! that no longer fails (remove its entry, so the merge of the fix shows it going away).
//! The full set is `atomc support --whole-ir` (docs/support.md).

use atomc::Target;
use atomc_cli::support::{self, TARGETS};
use atomc_cli::whole_ir::{self, cases, reason_head, Cell, Run};
use std::collections::{BTreeMap, BTreeSet};

/// Known failures of the bounded set: (target, op row, type, class, kernels, reason). Classes:
/// `ice` (internal error), `differs` (the emulator's memory is not the interpreter's), `refused`
/// (SASS only: the goal is that every instruction compiles for SASS; vISA refusals are the
/// platform's and listed in docs/support.md), `not run` (a SASS kernel that compiled but did not
/// run: an emulator gap or a kernel the interpreter rejects).
const KNOWN: &[(&str, &str, &str, &str, usize, &str)] = &[
    ("sm_50", "bfi", "i16", "refused", 18, "not selected for sm_50 for this type"),
    ("sm_50", "bfi", "i64", "refused", 18, "not selected for sm_50 for this type"),
    ("sm_50", "bfi", "i8", "refused", 18, "not selected for sm_50 for this type"),
    ("sm_50", "fma", "f16", "refused", 13, "not selected for sm_50 for this type"),
    ("sm_50", "reduce add", "i16", "refused", 1, "sub-word reductions are not selected for sm_50 (their wrapping and sign are not formed): widen to i32"),
    ("sm_50", "reduce add", "i8", "refused", 1, "sub-word reductions are not selected for sm_50 (their wrapping and sign are not formed): widen to i32"),
    ("sm_50", "reduce and", "i16", "refused", 1, "sub-word reductions are not selected for sm_50 (their wrapping and sign are not formed): widen to i32"),
    ("sm_50", "reduce and", "i8", "refused", 1, "sub-word reductions are not selected for sm_50 (their wrapping and sign are not formed): widen to i32"),
    ("sm_50", "reduce or", "i16", "refused", 1, "sub-word reductions are not selected for sm_50 (their wrapping and sign are not formed): widen to i32"),
    ("sm_50", "reduce or", "i8", "refused", 1, "sub-word reductions are not selected for sm_50 (their wrapping and sign are not formed): widen to i32"),
    ("sm_50", "reduce smax", "i16", "refused", 1, "sub-word reductions are not selected for sm_50 (their wrapping and sign are not formed): widen to i32"),
    ("sm_50", "reduce smax", "i8", "refused", 1, "sub-word reductions are not selected for sm_50 (their wrapping and sign are not formed): widen to i32"),
    ("sm_50", "reduce smin", "i16", "refused", 1, "sub-word reductions are not selected for sm_50 (their wrapping and sign are not formed): widen to i32"),
    ("sm_50", "reduce smin", "i8", "refused", 1, "sub-word reductions are not selected for sm_50 (their wrapping and sign are not formed): widen to i32"),
    ("sm_50", "reduce umax", "i16", "refused", 1, "sub-word reductions are not selected for sm_50 (their wrapping and sign are not formed): widen to i32"),
    ("sm_50", "reduce umax", "i8", "refused", 1, "sub-word reductions are not selected for sm_50 (their wrapping and sign are not formed): widen to i32"),
    ("sm_50", "reduce umin", "i16", "refused", 1, "sub-word reductions are not selected for sm_50 (their wrapping and sign are not formed): widen to i32"),
    ("sm_50", "reduce umin", "i8", "refused", 1, "sub-word reductions are not selected for sm_50 (their wrapping and sign are not formed): widen to i32"),
    ("sm_50", "reduce xor", "i16", "refused", 1, "sub-word reductions are not selected for sm_50 (their wrapping and sign are not formed): widen to i32"),
    ("sm_50", "reduce xor", "i8", "refused", 1, "sub-word reductions are not selected for sm_50 (their wrapping and sign are not formed): widen to i32"),
    ("sm_50", "sbfe", "i16", "refused", 18, "not selected for sm_50 for this type"),
    ("sm_50", "sbfe", "i64", "refused", 18, "not selected for sm_50 for this type"),
    ("sm_50", "sbfe", "i8", "refused", 18, "not selected for sm_50 for this type"),
    ("sm_50", "ubfe", "i16", "refused", 18, "not selected for sm_50 for this type"),
    ("sm_50", "ubfe", "i64", "refused", 18, "not selected for sm_50 for this type"),
    ("sm_50", "ubfe", "i8", "refused", 18, "not selected for sm_50 for this type"),
    ("sm_90", "bfi", "i16", "refused", 18, "sm_90 selects bit-field extract and insert of i32 only"),
    ("sm_90", "bfi", "i64", "refused", 18, "sm_90 selects bit-field extract and insert of i32 only"),
    ("sm_90", "bfi", "i8", "refused", 18, "sm_90 selects bit-field extract and insert of i32 only"),
    ("sm_90", "fma", "f16", "refused", 13, "not selected for sm_90 yet (issue 14 part 2)"),
    ("sm_90", "match_any", "f16", "refused", 1, "sm_90 does not select match_any or vote_eq of an f16, whose register bits above the half are not kept defined (issue 14 part 2)"),
    ("sm_90", "sbfe", "i16", "refused", 18, "sm_90 selects bit-field extract and insert of i32 only"),
    ("sm_90", "sbfe", "i64", "refused", 18, "sm_90 selects bit-field extract and insert of i32 only"),
    ("sm_90", "sbfe", "i8", "refused", 18, "sm_90 selects bit-field extract and insert of i32 only"),
    ("sm_90", "ubfe", "i16", "refused", 18, "sm_90 selects bit-field extract and insert of i32 only"),
    ("sm_90", "ubfe", "i64", "refused", 18, "sm_90 selects bit-field extract and insert of i32 only"),
    ("sm_90", "ubfe", "i8", "refused", 18, "sm_90 selects bit-field extract and insert of i32 only"),
    ("sm_90", "vote_eq", "f16", "refused", 1, "sm_90 does not select match_any or vote_eq of an f16, whose register bits above the half are not kept defined (issue 14 part 2)"),
];

type Key = (String, String, String, String);

#[test]
fn every_instruction_is_covered_and_every_kernel_compiles_and_runs_like_the_interpreter() {
    let started = std::time::Instant::now();
    let cases = cases::all(true);
    let mut covered: BTreeSet<&str> = BTreeSet::new();
    let atomics = support::cases();
    for f in cases.iter().map(|c| &c.func).chain(atomics.iter().map(|c| &c.func)) {
        for (_, inst) in f.insts.iter() {
            covered.insert(inst.opcode_name());
        }
    }
    let missing: Vec<&str> = atomc::ir::parse::opcode_names().filter(|n| !covered.contains(n)).collect();
    assert!(missing.is_empty(), "opcodes no matrix kernel uses: {missing:?}");

    let results = whole_ir::run(&cases);
    let mut got: BTreeMap<Key, (usize, String)> = BTreeMap::new();
    for (case, row) in cases.iter().zip(&results) {
        for (t, c) in TARGETS.iter().zip(row) {
            let (class, why) = match c {
                Cell::Failed(e) => ("ice", reason_head(e)),
                Cell::Compiled(Run::Differs(e)) => ("differs", e.lines().next().unwrap_or("").to_string()),
                Cell::Refused(r) if !matches!(t, Target::Visa(_)) => ("refused", r.clone()),
                // A SASS kernel not run for another reason than inputs the IR gives no meaning
                // (a zero divisor constant) is a generator bug or an emulator gap.
                Cell::Compiled(Run::NotRun(why)) if !matches!(t, Target::Visa(_)) && !why.starts_with("the IR gives") => {
                    ("not run", reason_head(why))
                }
                _ => continue,
            };
            let e = got.entry((t.to_string(), case.op.clone(), case.ty.clone(), class.into())).or_insert((0, why));
            e.0 += 1;
        }
    }
    println!("{}", whole_ir::markdown(&cases, &results).lines().take(7).collect::<Vec<_>>().join("\n"));
    println!("whole-IR matrix (bounded): {} kernels x {} targets in {:.1?}", cases.len(), TARGETS.len(), started.elapsed());

    let mut problems = Vec::new();
    let mut known: BTreeMap<Key, (usize, &str)> = BTreeMap::new();
    for &(t, op, ty, class, n, why) in KNOWN {
        known.insert((t.into(), op.into(), ty.into(), class.into()), (n, why));
    }
    for (k, (n, why)) in &got {
        match known.get(k) {
            None => problems.push(format!("new failure: {k:?} in {n} kernels: {why}")),
            Some((m, _)) if m != n => problems.push(format!("{k:?}: {n} kernels fail, KNOWN lists {m}: update the entry")),
            _ => {}
        }
    }
    for (k, (_, why)) in &known {
        if !got.contains_key(k) {
            problems.push(format!("unexpected pass: {k:?} no longer fails ({why}); remove it from KNOWN"));
        }
    }
    if !problems.is_empty() {
        // The current list, ready to paste where the change is intended.
        let list: Vec<String> = got
            .iter()
            .map(|((t, op, ty, class), (n, why))| format!("    ({t:?}, {op:?}, {ty:?}, {class:?}, {n}, {why:?}),"))
            .collect();
        eprintln!("current failures:\n{}", list.join("\n"));
    }
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}
