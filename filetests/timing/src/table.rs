//! The calibrated table and its text form (`data/sm50.tsv`, `data/sm90.tsv`).
//!
//! ```text
//! # comment lines
//! fixed       PRODUCER  READER  ROLE  KIND  MIN  SAMPLES  EXAMPLE
//! scoreboard  PRODUCER/KIND  READS_BEHIND_A_SCOREBOARD  READS_TIMED_BY_STALLS
//! ```
//!
//! `fixed`: ptxas's code reads a `KIND` location (`r`, `p`, `ur`, `up`, `cc`) written by a
//! `PRODUCER`-class instruction without a scoreboard, through a `READER`-class operand of
//! `ROLE` (`src`, `addr`, `guard`), never sooner than `MIN` cycles after the producer issued, over
//! `SAMPLES` reads; `EXAMPLE` is one read at `MIN`. `scoreboard`: how often ptxas's code read a
//! producer class's result of a kind (`SHFL/r`, `SHFL/p`) behind a scoreboard and how often
//! after stalls alone (with no wait on the way).

use super::listing::Family;
use std::collections::BTreeMap;
use std::fmt::Write;

/// A class pair.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key {
    pub producer: String,
    pub reader: String,
    pub role: String,
    pub kind: String,
}

impl std::fmt::Display for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} → {} ({} {})", self.producer, self.reader, self.role, self.kind)
    }
}

/// What ptxas's code shows for a class pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fixed {
    pub min: u32,
    pub samples: u32,
    pub example: String,
}

/// How a producer class's results were read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reads {
    pub behind_scoreboard: u32,
    pub by_stalls: u32,
}

impl Reads {
    /// ptxas treats the class as variable-latency: it read a result behind a scoreboard and
    /// never by stalls alone.
    pub fn variable(&self) -> bool {
        self.behind_scoreboard > 0 && self.by_stalls == 0
    }
}

/// A calibrated table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    pub header: Vec<String>,
    pub fixed: BTreeMap<Key, Fixed>,
    pub reads: BTreeMap<String, Reads>,
}

impl Table {
    /// Samples over every pair.
    pub fn samples(&self) -> u64 {
        self.fixed.values().map(|f| f.samples as u64).sum()
    }

    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for h in &self.header {
            let _ = writeln!(s, "# {h}");
        }
        let _ = writeln!(s, "# fixed\tPRODUCER\tREADER\tROLE\tKIND\tMIN\tSAMPLES\tEXAMPLE");
        for (k, f) in &self.fixed {
            let _ = writeln!(s, "fixed\t{}\t{}\t{}\t{}\t{}\t{}\t{}", k.producer, k.reader, k.role, k.kind, f.min, f.samples, f.example);
        }
        let _ = writeln!(s, "# scoreboard\tPRODUCER/KIND\tREADS_BEHIND_A_SCOREBOARD\tREADS_TIMED_BY_STALLS");
        for (p, r) in &self.reads {
            let _ = writeln!(s, "scoreboard\t{p}\t{}\t{}", r.behind_scoreboard, r.by_stalls);
        }
        s
    }

    pub fn parse(text: &str) -> Result<Table, String> {
        let mut t = Table::default();
        for (n, line) in text.lines().enumerate() {
            let bad = || format!("line {}: {line}", n + 1);
            if let Some(h) = line.strip_prefix("# ") {
                if !h.starts_with("fixed\t") && !h.starts_with("scoreboard\t") {
                    t.header.push(h.to_string());
                }
                continue;
            }
            let f: Vec<&str> = line.split('\t').collect();
            let num = |i: usize| f.get(i).and_then(|x| x.parse::<u32>().ok()).ok_or_else(bad);
            match f.first() {
                Some(&"fixed") if f.len() == 8 => {
                    let key = Key { producer: f[1].into(), reader: f[2].into(), role: f[3].into(), kind: f[4].into() };
                    t.fixed.insert(key, Fixed { min: num(5)?, samples: num(6)?, example: f[7].into() });
                }
                Some(&"scoreboard") if f.len() == 4 => {
                    t.reads.insert(f[1].into(), Reads { behind_scoreboard: num(2)?, by_stalls: num(3)? });
                }
                _ if line.trim().is_empty() => {}
                _ => return Err(bad()),
            }
        }
        Ok(t)
    }

    /// The stored table of a family (`data/sm50.tsv`, `data/sm90.tsv`).
    pub fn stored(family: Family) -> Result<Table, String> {
        Table::parse(&std::fs::read_to_string(path(family)).map_err(|e| e.to_string())?)
    }
}

/// Where a family's table is kept.
pub fn path(family: Family) -> std::path::PathBuf {
    let name = match family {
        Family::Sm50 => "sm50.tsv",
        Family::Sm90 => "sm90.tsv",
    };
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data").join(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let mut t = Table { header: vec!["ptxas 11.8".into()], ..Table::default() };
        let key = Key { producer: "MOV".into(), reader: "alu".into(), role: "src".into(), kind: "r".into() };
        t.fixed.insert(key, Fixed { min: 6, samples: 719, example: "MOV R9, RZ ⟶ IADD R3, R9, R2".into() });
        t.reads.insert("LDG".into(), Reads { behind_scoreboard: 4, by_stalls: 0 });
        assert_eq!(Table::parse(&t.to_text()).unwrap(), t);
        assert!(t.reads["LDG"].variable());
    }
}
