//! Rebuilds the calibrated timing tables (`filetests/timing/data/sm50.tsv`, `sm90.tsv`) from
//! ptxas's code of the corpus: atomc's PTX of every filetest, bench and example kernel, and the
//! generated kernels of `atomc_timing_oracle::generate`.
//!
//!   cargo run --release -p atomc-timing-oracle --bin calibrate-timing [-- sm_50|sm_90]

use atomc_timing_oracle::listing::Family;
use atomc_timing_oracle::{calibrate, corpus, generate, table};
use rayon::prelude::*;

fn main() {
    let which: Vec<String> = std::env::args().skip(1).collect();
    for family in [Family::Sm50, Family::Sm90] {
        if !which.is_empty() && !which.iter().any(|w| w == family.name()) {
            continue;
        }
        if !corpus::tools(family) {
            eprintln!("{}: ptxas/nvdisasm not installed (scripts/install-tools.sh)", family.name());
            std::process::exit(1);
        }
        let kernels = corpus::atom_kernels();
        let mut ptx: Vec<(String, String)> =
            kernels.iter().filter_map(|(n, f)| corpus::ptx_of(family, f).map(|p| (n.clone(), p))).collect();
        let from_atom = ptx.len();
        ptx.extend(generate::kernels(family));
        let listings: Vec<_> = ptx.par_iter().map(|(n, p)| (n, corpus::ptxas(family, p))).collect();
        let mut t = table::Table::default();
        let (mut ok, mut failed, mut insts) = (0, 0, 0);
        for (name, l) in listings {
            match l {
                Ok(ks) => {
                    ok += 1;
                    for k in &ks {
                        insts += k.insts.len();
                        calibrate::add(&mut t, k, family);
                    }
                }
                Err(e) => {
                    failed += 1;
                    eprintln!("{name}: {}", e.lines().next().unwrap_or(""));
                }
            }
        }
        let (tool, version) = match family {
            Family::Sm50 => ("ptxas 11.8", "CUDA 11.8"),
            Family::Sm90 => ("ptxas 13", "CUDA 13"),
        };
        t.header = vec![
            format!("Fixed latencies of {}, calibrated from {tool}'s own schedules (nvdisasm of {version}).", family.name()),
            format!(
                "Corpus: {ok} PTX modules ({from_atom} of atomc's .atom kernels, {} generated), {insts} instructions; {failed} not compiled.",
                ptx.len() - from_atom
            ),
            "Rebuilt by: cargo run --release -p atomc-timing-oracle --bin calibrate-timing".into(),
        ];
        std::fs::write(table::path(family), t.to_text()).expect("writes the table");
        println!(
            "{}: {} class pairs, {} samples, {} producer classes, from {ok} modules ({insts} instructions)",
            family.name(),
            t.fixed.len(),
            t.samples(),
            t.reads.len()
        );
    }
}
