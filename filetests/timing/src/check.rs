//! Checking code (atomc's) against a calibrated table.

use super::class;
use super::flow::{deps, Counting};
use super::listing::{Family, Kernel};
use super::table::{Key, Table};
use std::fmt;

/// A finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// A fixed-latency result read sooner than ptxas ever reads one of its class pair.
    TooSoon { key: Key, got: u32, need: u32, producer: String, reader: String },
    /// A result read, or overwritten, with no wait on the scoreboard its producer set.
    Unwaited { producer: String, reader: String, loc: String, sb: u8 },
    /// A result of a class ptxas always reads behind a scoreboard, read without one.
    NoScoreboard { class: String, producer: String, reader: String },
    /// A class pair ptxas's code never shows: the corpus cannot vouch for it.
    Uncovered { key: Key, got: u32, producer: String, reader: String },
}

impl Finding {
    pub fn is_hazard(&self) -> bool {
        !matches!(self, Finding::Uncovered { .. })
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Finding::TooSoon { key, got, need, producer, reader } => {
                write!(f, "{reader} reads {got} cycle(s) after {producer}; ptxas's minimum for {key} is {need}")
            }
            Finding::Unwaited { producer, reader, loc, sb } => {
                write!(f, "{reader} uses {loc} without a wait on SB{sb}, set by {producer}")
            }
            Finding::NoScoreboard { class, producer, reader } => {
                write!(f, "{reader} reads the result of {producer} by stalls alone; ptxas always waits on a scoreboard for {class}")
            }
            Finding::Uncovered { key, got, producer, reader } => {
                write!(f, "{reader} reads {got} cycle(s) after {producer}: ptxas's code never shows {key}")
            }
        }
    }
}

/// Checks one kernel's code against `t`.
pub fn check(t: &Table, k: &Kernel, family: Family) -> Vec<Finding> {
    let d = deps(k, family, Counting::Conservative);
    let mut out = Vec::new();
    for f in &d.fixed {
        let (p, r) = (&k.insts[f.producer], &k.insts[f.reader]);
        let pclass = class::producer(p, family);
        let reads = t.reads.get(&format!("{pclass}/{}", f.loc.kind()));
        let variable = reads.is_some_and(|x| x.variable());
        // A scoreboarded result of a variable-latency class is the scoreboard's to time; so is
        // one of a class ptxas's code never times at all (a surface atomic: PTX has none), whose
        // readers the scoreboard check below covers.
        if f.scoreboarded && (variable || reads.is_none()) {
            continue;
        }
        let (producer, reader) = (p.to_string(), r.to_string());
        if variable {
            out.push(Finding::NoScoreboard { class: pclass, producer, reader });
            continue;
        }
        let key = Key { producer: pclass, reader: class::reader(r, f.role, family), role: f.role.name().into(), kind: f.loc.kind().into() };
        let figure = t.fixed.get(&key).map(|f| f.min);
        match figure {
            Some(min) if f.cycles < min => out.push(Finding::TooSoon { key, got: f.cycles, need: min, producer, reader }),
            Some(_) => {}
            None => out.push(Finding::Uncovered { key, got: f.cycles, producer, reader }),
        }
    }
    for v in d.var.iter().filter(|v| v.unwaited) {
        let (p, r) = (&k.insts[v.producer], &k.insts[v.reader]);
        out.push(Finding::Unwaited { producer: p.to_string(), reader: r.to_string(), loc: v.loc.to_string(), sb: v.sb });
    }
    out.sort_by_key(|f| f.to_string());
    out.dedup();
    out
}
