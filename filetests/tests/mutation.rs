//! Bad input never panics: every filetest (and the shipped examples) is fed
//! to the parser (the CLIF importer for `.clif` files), the verifier, the
//! printer and the interpreter in
//! truncated and byte-mutated variants. Every variant must end in `Ok` or
//! in an error that renders to a non-empty message; a panic anywhere is a
//! failure. The variants are deterministic (a fixed-seed PRNG), so a
//! failure reproduces; the test prints `mutation: N cases, M panics`.
//!
//! Interpreting is bounded: each `run:` line gets `steps 20000` and
//! launches larger than 1024 threads or 65536 declared elements are only
//! parsed, not run, so that a mutated size cannot make the test slow.

use atomc_filetests::panic_capture;
use atomc_ir::interp::runline::parse_run_line;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Byte mutations in all, shared out over the files (at least 40 and at most
/// 320 per file), which keeps the test well under a minute in a debug build on two
/// cores as the number of filetests grows.
const MUTATIONS_TOTAL: usize = 30_000;
/// Line-boundary prefixes per file at most.
const MAX_LINE_PREFIXES: usize = 400;
/// Prefixes cut at byte positions per file (plus one per line).
const PREFIXES_PER_FILE: usize = 48;
/// The step limit every mutated run line gets.
const STEPS: u64 = 20_000;

/// SplitMix64: small, deterministic, good enough to pick mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// Tokens a mutation may substitute: edge numbers, keywords, punctuation.
const TOKENS: &[&str] = &[
    "0",
    "-1",
    "1",
    "4294967296",
    "0xffffffffffffffff",
    "99999999999999999999",
    "-9223372036854775808",
    "nan",
    "inf",
    "-0.0",
    "1e400",
    "0x7fc00001",
    "v0",
    "v999999",
    "v4294967295",
    "block0",
    "block4294967295",
    "i8",
    "i64",
    "f16x2",
    "bf16x2",
    "pred",
    "surface",
    "ptr.shared",
    "ptr.generic",
    "sys",
    "cta",
    "seq_cst",
    "relaxed",
    "acquire",
    "slot",
    "9999",
    "[",
    "]",
    "(",
    ")",
    ",",
    "=",
    "=>",
    ":",
    "+",
    "-",
    "function",
    "}",
    "{",
    "return",
    "barrier",
    "jump",
    "brif",
    "%k",
    "iota",
    "grid",
    "block",
    "shared",
    "65536",
    "sorted",
    "as set",
    "sum",
    "all",
    "error \"x\"",
    "1d",
    "3d",
    "bytes",
    "trap",
    "inc_wrap",
    "dec_wrap",
    "fmin",
    "atomic_cas.i32",
    "v0+3",
    "v0-8388608",
];

/// Bytes an insertion or replacement may use.
const BYTES: &[u8] = b"0123456789abcdefvx%[](),:;=+-._ \n\tblock";

fn mutate(src: &str, rng: &mut Rng) -> (String, String) {
    let mut bytes = src.as_bytes().to_vec();
    let mut what = Vec::new();
    for _ in 0..1 + rng.below(3) {
        let len = bytes.len();
        match rng.below(8) {
            0 if len > 0 => {
                let i = rng.below(len);
                bytes[i] = BYTES[rng.below(BYTES.len())];
                what.push(format!("replace byte {i}"));
            }
            1 => {
                let i = rng.below(len + 1);
                bytes.insert(i, BYTES[rng.below(BYTES.len())]);
                what.push(format!("insert at {i}"));
            }
            2 if len > 0 => {
                let i = rng.below(len);
                bytes.remove(i);
                what.push(format!("delete byte {i}"));
            }
            3 if len > 0 => {
                let i = rng.below(len);
                let n = (1 + rng.below(8)).min(len - i);
                bytes.drain(i..i + n);
                what.push(format!("delete {n} bytes at {i}"));
            }
            4 => {
                let text = String::from_utf8_lossy(&bytes).into_owned();
                let spans = token_spans(&text);
                if spans.len() >= 2 {
                    let (a, b) = (rng.below(spans.len()), rng.below(spans.len()));
                    let (a, b) = (spans[a.min(b)], spans[a.max(b)]);
                    if a != b {
                        let s = format!(
                            "{}{}{}{}{}",
                            &text[..a.0],
                            &text[b.0..b.1],
                            &text[a.1..b.0],
                            &text[a.0..a.1],
                            &text[b.1..]
                        );
                        bytes = s.into_bytes();
                        what.push(format!("swap tokens at {} and {}", a.0, b.0));
                    }
                }
            }
            5 => {
                let text = String::from_utf8_lossy(&bytes).into_owned();
                let spans = token_spans(&text);
                if !spans.is_empty() {
                    let (s, e) = spans[rng.below(spans.len())];
                    let t = TOKENS[rng.below(TOKENS.len())];
                    bytes = format!("{}{}{}", &text[..s], t, &text[e..]).into_bytes();
                    what.push(format!("token at {s} -> {t}"));
                }
            }
            6 | 7 => {
                let text = String::from_utf8_lossy(&bytes).into_owned();
                let mut lines: Vec<&str> = text.lines().collect();
                if !lines.is_empty() {
                    let i = rng.below(lines.len());
                    if rng.below(2) == 0 {
                        lines.insert(i, lines[i]);
                        what.push(format!("duplicate line {}", i + 1));
                    } else {
                        lines.remove(i);
                        what.push(format!("delete line {}", i + 1));
                    }
                    bytes = (lines.join("\n") + "\n").into_bytes();
                }
            }
            _ => {}
        }
    }
    (String::from_utf8_lossy(&bytes).into_owned(), what.join(", "))
}

/// Byte ranges of whitespace-separated tokens.
fn token_spans(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push((s, i));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, text.len()));
    }
    out
}

/// `run: steps 20000 ...` with any other `steps N` removed.
fn bounded_run_line(text: &str) -> String {
    let body = text.trim_start().strip_prefix("run:").unwrap_or(text);
    let words: Vec<&str> = body.split(' ').collect();
    let mut kept = Vec::new();
    let mut i = 0;
    while i < words.len() {
        if words[i] == "steps" {
            i += 2;
            continue;
        }
        kept.push(words[i]);
        i += 1;
    }
    format!("run: steps {STEPS} {}", kept.join(" "))
}

/// Whether a run line is small enough to execute: at most 1024 threads,
/// 65536 declared elements and 65536 bytes of shared memory (by a textual
/// reading; the interpreter's own limits are far higher).
fn small_enough(line: &str) -> bool {
    let dims = |s: &str| -> Option<u64> {
        let s = s.trim_end_matches(',');
        s.split(['x', 'X'])
            .try_fold(1u64, |acc, p| p.parse::<u64>().ok().map(|n| acc.saturating_mul(n)))
    };
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut threads = 1u64;
    for w in words.windows(2) {
        match w[0] {
            "grid" | "block" => threads = threads.saturating_mul(dims(w[1]).unwrap_or(1)),
            "shared" if dims(w[1]).unwrap_or(0) > 65536 => return false,
            _ => {}
        }
    }
    let mut elems = 0u64;
    for part in line.split('[').skip(1) {
        if let Some(inner) = part.split(']').next() {
            if let Some(n) = dims(inner) {
                elems = elems.saturating_add(n);
            }
        }
    }
    threads <= 1024 && elems <= 65536
}

#[derive(Default)]
struct Counts {
    cases: AtomicUsize,
    runs: AtomicUsize,
    parse_errors: AtomicUsize,
    verify_errors: AtomicUsize,
}

/// Runs one variant through every stage; `Err` describes a broken rule
/// (an empty rendered error).
fn check_variant(src: &str, clif: bool, counts: &Counts) -> Result<(), String> {
    let funcs = if clif { import_clif(src, counts)? } else { parse_atom(src, counts)? };
    for (func, runs) in &funcs {
        if let Err(diags) = atomc_ir::verify::verify(func) {
            counts.verify_errors.fetch_add(1, Ordering::Relaxed);
            let r = atomc_ir::diagnostic::render("mutant.atom", src, &diags);
            if diags.is_empty() || !r.contains("error") {
                return Err(format!("verify error renders as {r:?}"));
            }
            continue;
        }
        let printed = atomc_ir::print::print_function(func);
        if let Err(d) = atomc_ir::parse::parse(&printed) {
            return Err(format!("printed text does not parse: {d:?}\n{printed}"));
        }
        for text in runs {
            let line = bounded_run_line(text);
            let spec = parse_run_line(func, &line);
            if spec.is_ok() && small_enough(&line) {
                counts.runs.fetch_add(1, Ordering::Relaxed);
                if let Err(e) = atomc_ir::interp::run_line(func, &line) {
                    if e.to_string().trim().is_empty() {
                        return Err(format!("run error renders empty for {line}"));
                    }
                }
            } else if let Err(e) = spec {
                if e.to_string().trim().is_empty() {
                    return Err(format!("run-line error renders empty for {line}"));
                }
            }
        }
    }
    Ok(())
}

/// A function with the texts of its `run:` comments.
type WithRuns = Vec<(atomc_ir::Function, Vec<String>)>;

/// Parses atomc IR text; `Ok(empty)` after a (well-rendered) parse error.
fn parse_atom(src: &str, counts: &Counts) -> Result<WithRuns, String> {
    match atomc_ir::parse::parse_file(src) {
        Ok(p) => Ok(p
            .functions
            .into_iter()
            .map(|pf| {
                let runs = pf.comments.iter().filter(|c| c.text.trim_start().starts_with("run:")).map(|c| c.text.clone());
                let runs = runs.collect();
                (pf.func, runs)
            })
            .collect()),
        Err(diags) => {
            counts.parse_errors.fetch_add(1, Ordering::Relaxed);
            let r = atomc_ir::diagnostic::render("mutant.atom", src, &diags);
            if diags.is_empty() || !r.contains("error") {
                Err(format!("parse error renders as {r:?}"))
            } else {
                Ok(Vec::new())
            }
        }
    }
}

/// Reads Cranelift IR text through the importer, as `atomc test` does for
/// `.clif` files; the run lines come from the runner's own scan.
fn import_clif(src: &str, counts: &Counts) -> Result<WithRuns, String> {
    match atomc::clif::parse_clif_file(&atomc_filetests::clif_body(src)) {
        Ok(funcs) => {
            let scan = atomc_filetests::testfile::TestFile::scan(src).ok();
            let runs_of = |i: usize| -> Vec<String> {
                let Some(scan) = &scan else { return Vec::new() };
                let Some(range) = scan.funcs.get(i) else { return Vec::new() };
                scan.func_comments(range).filter(|c| c.text.starts_with("run:")).map(|c| c.text.clone()).collect()
            };
            Ok(funcs.into_iter().enumerate().map(|(i, f)| (f, runs_of(i))).collect())
        }
        Err(e) => {
            counts.parse_errors.fetch_add(1, Ordering::Relaxed);
            if e.to_string().trim().is_empty() {
                Err("CLIF error renders empty".to_string())
            } else {
                Ok(Vec::new())
            }
        }
    }
}

/// Every variant of one file: (description, text).
fn variants(src: &str, seed: u64, mutations: usize) -> Vec<(String, String)> {
    let mut out = Vec::new();
    // Every line boundary of a small file; of a large one (the precise outputs of unrolled
    // integer-code kernels run to 20,000 lines), evenly spaced ones, so the prefixes cost
    // O(lines) parses, not O(lines²) bytes.
    let lines = src.split_inclusive('\n').count();
    let stride = lines.div_ceil(MAX_LINE_PREFIXES).max(1);
    let mut offset = 0;
    for (i, line) in src.split_inclusive('\n').enumerate() {
        offset += line.len();
        if i % stride != 0 && i + 1 != lines {
            continue;
        }
        out.push((
            format!("prefix of {offset} bytes (line boundary)"),
            src[..offset].to_string(),
        ));
    }
    let step = (src.len() / PREFIXES_PER_FILE).max(1);
    for cut in (0..src.len()).step_by(step) {
        if src.is_char_boundary(cut) {
            out.push((format!("prefix of {cut} bytes"), src[..cut].to_string()));
        }
    }
    let mut rng = Rng(seed);
    for i in 0..mutations {
        let (text, what) = mutate(src, &mut rng);
        out.push((format!("mutation #{i}: {what}"), text));
    }
    out
}

fn files() -> Vec<PathBuf> {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = atomc_filetests::discover(&here.join("filetests")).expect("filetests folder");
    if let Ok(examples) = atomc_filetests::discover(&here.join("../examples")) {
        out.extend(examples);
    }
    out
}

#[test]
fn mutated_filetests_never_panic() {
    let start = std::time::Instant::now();
    let files = files();
    assert!(files.len() >= 10, "found only {} filetests", files.len());
    let counts = Counts::default();
    let mutations = (MUTATIONS_TOTAL / files.len()).clamp(40, 320);
    let failures: Vec<String> = files
        .par_iter()
        .enumerate()
        .flat_map_iter(|(n, path)| {
            let src = std::fs::read_to_string(path).expect("readable filetest");
            let seed = 0x5eed_0000 + n as u64;
            let clif = path.extension().is_some_and(|e| e == "clif");
            let counts = &counts;
            variants(&src, seed, mutations).into_iter().filter_map(move |(what, text)| {
                counts.cases.fetch_add(1, Ordering::Relaxed);
                match panic_capture::catch(|| check_variant(&text, clif, counts)) {
                    Ok(Ok(())) => None,
                    Ok(Err(e)) => Some(format!("{} [{what}]: {e}", path.display())),
                    Err(panic) => Some(format!(
                        "{} [{what}]: PANIC: {panic}\n--- input ---\n{text}",
                        path.display()
                    )),
                }
            })
        })
        .collect();
    let panics = failures.iter().filter(|f| f.contains(": PANIC: ")).count();
    println!(
        "mutation: {} cases ({} files, {} parse errors, {} verify errors, {} run lines executed), {} panics, {} unrendered errors, {:.1} s",
        counts.cases.load(Ordering::Relaxed),
        files.len(),
        counts.parse_errors.load(Ordering::Relaxed),
        counts.verify_errors.load(Ordering::Relaxed),
        counts.runs.load(Ordering::Relaxed),
        panics,
        failures.len() - panics,
        start.elapsed().as_secs_f64()
    );
    for f in failures.iter().take(20) {
        println!("{f}\n");
    }
    assert!(
        failures.is_empty(),
        "{} of the mutated inputs failed (first ones above)",
        failures.len()
    );
}
