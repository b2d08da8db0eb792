//! Every atomic access the verifier accepts compiles for every target, or is refused by the
//! target's capability table (issue: one legality authority, no internal errors); and
//! docs/support.md is the table `atomc support` prints for the current tables.

use atomc_cli::support::{self, Outcome, TARGETS};

#[test]
fn every_verified_access_compiles_or_is_refused_by_the_table() {
    let started = std::time::Instant::now();
    let cases = support::cases();
    let results = support::run(&cases);
    let mut failures = Vec::new();
    for (case, outs) in cases.iter().zip(&results) {
        for (t, o) in TARGETS.iter().zip(outs) {
            if let Outcome::Failed(e) = o {
                failures.push(format!("{} {} {} ({}) on {t}: {e}", case.row.0, case.row.1, case.row.2, case.variant));
            }
        }
    }
    for (i, t) in TARGETS.iter().enumerate() {
        let compiled = results.iter().filter(|o| o[i] == Outcome::Compiled).count();
        let refused = results.iter().filter(|o| matches!(o[i], Outcome::Refused(_))).count();
        println!("{t}: {} kernels, {compiled} compiled, {refused} refused by the table", cases.len());
    }
    println!("support matrix: {} kernels x {} targets in {:.1?}", cases.len(), TARGETS.len(), started.elapsed());
    assert!(cases.len() > 1000, "only {} verified kernels", cases.len());
    if let Ok(path) = std::env::var("ATOMC_SUPPORT_FAILURES") {
        std::fs::write(path, failures.join("\n")).expect("write the failures");
    }
    assert!(failures.is_empty(), "{} internal errors, first: {:#?}", failures.len(), &failures[..failures.len().min(20)]);
    let doc = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/support.md");
    let want = support::markdown(&cases, &results);
    let text = std::fs::read_to_string(&doc).unwrap_or_default();
    // The whole-IR matrix follows the atomics table (`atomc support --whole-ir`).
    let (have, rest) = match text.find(support::WHOLE_IR_HEADING) {
        Some(i) => text.split_at(i),
        None => (text.as_str(), ""),
    };
    if std::env::var_os("ATOMC_SUPPORT_BLESS").is_some() {
        std::fs::write(&doc, format!("{want}{rest}")).expect("write docs/support.md");
    } else {
        assert!(have == want, "docs/support.md is not the current table: run this test with ATOMC_SUPPORT_BLESS=1 (or put `atomc support`'s output before its whole-IR section)");
    }
}
