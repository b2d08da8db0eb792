//! Every read ptxas's code makes through the class pairs that match a filter, counted by the
//! cycles after the producer: the evidence behind one line of the calibrated table.
//!
//!   cargo run -p atomc-timing-oracle --bin pair-samples -- sm_90 PRODUCER [READER [ROLE [KIND]]]
//!
//! A field `*` matches any class. The corpus is the calibration's (atomc's PTX of every `.atom`
//! kernel, and the generated kernels), through the same cache.

use atomc_timing_oracle::listing::Family;
use atomc_timing_oracle::{calibrate, corpus, generate};
use rayon::prelude::*;
use std::collections::BTreeMap;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let family = match args.first().map(String::as_str) {
        Some("sm_50") => Family::Sm50,
        Some("sm_90") => Family::Sm90,
        _ => {
            eprintln!("usage: pair-samples sm_50|sm_90 PRODUCER [READER [ROLE [KIND]]]");
            std::process::exit(2);
        }
    };
    let filter: Vec<&str> = args[1..].iter().map(String::as_str).collect();
    let mut ptx: Vec<(String, String)> =
        corpus::atom_kernels().iter().filter_map(|(n, f)| corpus::ptx_of(family, f).map(|p| (n.clone(), p))).collect();
    ptx.extend(generate::kernels(family));
    let listings: Vec<_> = ptx.par_iter().map(|(_, p)| corpus::ptxas(family, p)).collect();
    // key → cycles → (count, first example)
    let mut found: BTreeMap<String, BTreeMap<u32, (u32, String)>> = BTreeMap::new();
    for ks in listings.into_iter().flatten() {
        for k in &ks {
            for s in calibrate::samples(k, family) {
                let fields = [&s.key.producer, &s.key.reader, &s.key.role, &s.key.kind];
                if filter.iter().zip(fields).all(|(f, v)| *f == "*" || f == v) {
                    let e = found.entry(s.key.to_string()).or_default().entry(s.cycles).or_insert((0, s.example.clone()));
                    e.0 += 1;
                }
            }
        }
    }
    for (key, by_cycles) in &found {
        println!("{key}");
        for (c, (n, ex)) in by_cycles {
            println!("  {c:3} cycles × {n:5}   e.g. {ex}");
        }
    }
}
