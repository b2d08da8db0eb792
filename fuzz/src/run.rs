//! Many seeds: runs [`check`](crate::check::check) over a range on several threads and sums the
//! verdicts into a [`Summary`].

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::check::{check, Options, Report, Verdict};

/// The sums over a run.
#[derive(Default)]
pub struct Summary {
    pub programs: u64,
    /// Programs every NVIDIA stage of which (atomc's cubins and PTX, ptxas, the emulator runs)
    /// ended `Ok`: the ones that went all the way through.
    pub sass_clean: u64,
    /// Stage verdicts by class (`ok`, `refused`, `mismatch`, ...).
    pub stages: BTreeMap<&'static str, u64>,
    /// Refusals by their reason (value numbers blanked, so one reason counts once per kind).
    pub refusals: BTreeMap<String, u64>,
    /// Emulator gaps by their text (likewise).
    pub emu_unsupported: BTreeMap<String, u64>,
    /// The failing programs' reports, by seed.
    pub failures: Vec<Report>,
    pub wall: Duration,
}

impl Summary {
    /// Programs with at least one failing stage, by class.
    pub fn failing(&self, class: &str) -> u64 {
        self.failures
            .iter()
            .filter(|r| r.failures().any(|(_, v)| v.class() == class))
            .count() as u64
    }

    /// The one-line summary.
    pub fn line(&self) -> String {
        let per = if self.programs == 0 {
            0.0
        } else {
            self.wall.as_secs_f64() * 1000.0 / self.programs as f64
        };
        let n = |c: &str| self.stages.get(c).copied().unwrap_or(0);
        format!(
            "fuzz: {} programs ({} through every NVIDIA stage), stages: {} ok, {} refused by target, {} emulator-unsupported, \
             {} skipped; ICEs {}, generator bugs {}, mismatches {} ({:.1} s, {per:.0} ms/program)",
            self.programs,
            self.sass_clean,
            n("ok"),
            n("refused"),
            n("emu-unsupported"),
            n("skipped"),
            self.failing("ice"),
            self.failing("generator"),
            self.failing("mismatch"),
            self.wall.as_secs_f64(),
        )
    }

    fn add(&mut self, r: Report) {
        self.programs += 1;
        if r.stages
            .iter()
            .filter(|(s, _)| s.contains("sm_"))
            .all(|(_, v)| *v == Verdict::Ok)
        {
            self.sass_clean += 1;
        }
        for (_, v) in &r.stages {
            *self.stages.entry(v.class()).or_default() += 1;
            match v {
                Verdict::Refused(why) => *self.refusals.entry(normalize(why)).or_default() += 1,
                Verdict::EmuUnsupported(why) => {
                    *self.emu_unsupported.entry(normalize(why)).or_default() += 1
                }
                _ => {}
            }
        }
        if r.failed() {
            self.failures.push(r);
        }
    }
}

/// `text` with value, register and hex numbers blanked (`v12` → `vN`, `%3p` → `%Np`, `R7` →
/// `RN`, `0x1f` → `0xN`), so one reason counts once however the registers fell.
fn normalize(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        out.push(c as char);
        i += 1;
        let word_start = i < 2 || !b[i - 2].is_ascii_alphanumeric();
        let hex = c == b'x' && i >= 2 && b[i - 2] == b'0';
        let reg = matches!(c, b'v' | b'%' | b'R') && word_start;
        if (hex || reg) && i < b.len() && b[i].is_ascii_digit() {
            while i < b.len() && (b[i].is_ascii_digit() || (hex && b[i].is_ascii_hexdigit())) {
                i += 1;
            }
            out.push('N');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn normalize_blanks_registers() {
        assert_eq!(
            super::normalize("`I2F R24, R24 ;` v12 %3p 0x1f sm_90 i64"),
            "`I2F RN, RN ;` vN %Np 0xN sm_90 i64"
        );
    }
}

/// Checks every seed of `seeds` on `jobs` threads; `progress` sees each report as it finishes.
pub fn run(
    seeds: Range<u64>,
    jobs: usize,
    opts: &Options,
    progress: &(dyn Fn(&Report) + Sync),
) -> Summary {
    let start = Instant::now();
    let next = AtomicU64::new(seeds.start);
    let summary = Mutex::new(Summary::default());
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| loop {
                let seed = next.fetch_add(1, Ordering::Relaxed);
                if seed >= seeds.end {
                    return;
                }
                let r = check(seed, opts);
                progress(&r);
                if let Ok(mut sum) = summary.lock() {
                    sum.add(r);
                }
            });
        }
    });
    let mut sum = summary.into_inner().unwrap_or_else(|e| e.into_inner());
    sum.failures.sort_by_key(|r| r.program.seed);
    sum.wall = start.elapsed();
    sum
}
