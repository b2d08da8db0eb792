//! Runs one kernel through GenX_IR both ways (visa.md §8) and compares.

use atomc_oracle::{genx_ir, GenxInput};
use atomc_visa::{Kernel, Platform};

/// Counts for the summary line.
#[derive(Default, Debug)]
pub struct Tally {
    /// Kernel × platform pairs run through both paths.
    pub checked: usize,
    /// Pairs atomc's validator refused (not run).
    pub refused: usize,
    /// Failure descriptions.
    pub failures: Vec<String>,
}

impl Tally {
    /// Validates every pair, and runs the accepted ones through GenX_IR on
    /// two threads (GenX_IR is single-threaded and each run is short).
    pub fn run_all(pairs: Vec<(Kernel, Platform)>) -> Tally {
        let mut t = Tally::default();
        let mut todo = Vec::new();
        for (k, p) in pairs {
            if atomc_visa::validate(&k, p).is_err() {
                t.refused += 1;
            } else {
                todo.push((k, p));
            }
        }
        t.checked = todo.len();
        let next = std::sync::atomic::AtomicUsize::new(0);
        let failures = std::sync::Mutex::new(Vec::new());
        std::thread::scope(|s| {
            for _ in 0..2 {
                s.spawn(|| loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some((k, p)) = todo.get(i) else { break };
                    if let Err(e) = check(k, *p) {
                        failures
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .push(format!("{} on {p}: {e}", k.name));
                    }
                });
            }
        });
        t.failures = failures.into_inner().unwrap_or_else(|e| e.into_inner());
        t
    }

    pub fn report(&self, what: &str) {
        println!(
            "visa oracle [{what}]: {} kernel×platform pairs checked (text + .isa), {} refused by atomc's rules, {} failures",
            self.checked,
            self.refused,
            self.failures.len()
        );
        for f in self.failures.iter().take(20) {
            println!("  FAIL {f}");
        }
    }
}

/// Drops comments and blank lines, and undoes the label renaming of
/// GenX_IR's `.isa` reader (`NAME` → `NAME_<string index>`).
fn normalize(s: &str, renames: &[(String, String)]) -> String {
    let mut out = String::new();
    for line in s.lines() {
        let t = line.trim_end();
        if t.trim_start().starts_with("//") || t.trim().is_empty() || t.starts_with(".version") {
            continue;
        }
        // Cut trailing `/// $n` instruction-number comments.
        let t = match t.find("///") {
            Some(i) => t[..i].trim_end(),
            None => t,
        };
        let mut l = t.to_string();
        for (from, to) in renames {
            l = l.replace(from.as_str(), to.as_str());
        }
        // The renamed labels shift the listing's column padding.
        out.push_str(&l.split_whitespace().collect::<Vec<_>>().join(" "));
        out.push('\n');
    }
    out
}

/// The reader's names for the kernel's labels: string-pool index = kernel
/// name, variables, predicates, labels (all distinct in our tests).
fn label_renames(k: &Kernel) -> Vec<(String, String)> {
    let base = 1 + k.vars.len() + k.preds.len();
    let mut v: Vec<(String, String)> = k
        .labels
        .iter()
        .enumerate()
        .map(|(i, l)| (format!("{l}_{}", base + i), l.clone()))
        .collect();
    // Longest first so `L1_12` is not hit by a shorter rename.
    v.sort_by_key(|(from, _)| std::cmp::Reverse(from.len()));
    v
}

/// Text path: rc 0, no errors file, no assert/WARNING/ERROR (the oracle
/// checks those). Binary path: the same, then the same Gen code and the
/// same `-dumpcommonisa` print as the text path.
pub fn check(k: &Kernel, p: Platform) -> Result<(), String> {
    let text = k.to_text();
    let t = genx_ir(GenxInput::Text(&text), p.genx_name())
        .map_err(|e| format!("text path: {e}\n{text}"))?;
    let isa = k.to_isa();
    let b = genx_ir(GenxInput::Binary(&isa), p.genx_name())
        .map_err(|e| format!(".isa path: {e}\n{text}"))?;
    let ren = label_renames(k);
    let (ta, ba) = (normalize(&t.asm, &[]), normalize(&b.asm, &ren));
    if ta != ba {
        return Err(format!(
            "Gen code differs between text and .isa\n--- text\n{ta}--- isa\n{ba}"
        ));
    }
    let (td, bd) = (
        normalize(t.visaasm.as_deref().unwrap_or(""), &[]),
        normalize(b.visaasm.as_deref().unwrap_or(""), &ren),
    );
    if td.is_empty() || td != bd {
        return Err(format!(
            "-dumpcommonisa differs between text and .isa\n--- text\n{td}--- isa\n{bd}"
        ));
    }
    Ok(())
}
