//! Calibration: ptxas's schedules → a [`Table`].
//!
//! ptxas's code is right by assumption, so every read it makes of a fixed-latency result
//! proves that many cycles enough for that class pair; the table keeps the fewest. Only reads
//! timed by stall fields alone count (no scoreboard wait on the way, which could have taken
//! longer than the stalls say), and stalls count at face value (the longest reading, so the
//! figure can only err towards strict).

use super::class;
use super::flow::{deps, Counting};
use super::listing::{Family, Kernel};
use super::table::{Fixed, Key, Table};

/// One read of a fixed-latency result that ptxas times by stalls alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    pub key: Key,
    pub cycles: u32,
    /// `PRODUCER ⟶ READER (kernel)`.
    pub example: String,
}

/// The reads of one kernel of ptxas's code that calibrate.
pub fn samples(k: &Kernel, family: Family) -> Vec<Sample> {
    let d = deps(k, family, Counting::Face);
    let mut out = Vec::new();
    for f in &d.fixed {
        let (p, r) = (&k.insts[f.producer], &k.insts[f.reader]);
        if f.scoreboarded {
            continue;
        }
        // Reads behind a wait on another scoreboard may lean on an in-order completion; only
        // the others show that ptxas times this result by stalls.
        let Some(cycles) = f.free_cycles else { continue };
        let key = Key {
            producer: class::producer(p, family),
            reader: class::reader(r, f.role, family),
            role: f.role.name().into(),
            kind: f.loc.kind().into(),
        };
        out.push(Sample { key, cycles, example: format!("{} ⟶ {} ({})", p.text(), r.text(), k.name) });
    }
    out
}

/// Adds one kernel of ptxas's code to the table.
pub fn add(t: &mut Table, k: &Kernel, family: Family) {
    for s in samples(k, family) {
        t.reads.entry(format!("{}/{}", s.key.producer, s.key.kind)).or_default().by_stalls += 1;
        let e = t.fixed.entry(s.key).or_insert(Fixed { min: s.cycles, samples: 0, example: s.example.clone() });
        e.samples += 1;
        if s.cycles < e.min {
            e.min = s.cycles;
            e.example = s.example;
        }
    }
    let d = deps(k, family, Counting::Face);
    for v in d.var.iter().filter(|v| !v.overwrite && !v.unwaited) {
        t.reads.entry(format!("{}/{}", class::producer(&k.insts[v.producer], family), v.loc.kind())).or_default().behind_scoreboard += 1;
    }
}
