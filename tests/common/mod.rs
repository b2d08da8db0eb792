//! Shared by the integration tests: every valid kernel among the filetests.
#![allow(dead_code)]

use std::path::Path;

/// `(file:%name, function)` for every verified kernel in `filetests/filetests`, sorted.
pub fn filetest_kernels() -> Vec<(String, atomc::ir::Function)> {
    kernels_under("filetests/filetests")
}

/// `(file:%name, function)` for every bench kernel (`filetests/bench`), sorted.
pub fn bench_kernels() -> Vec<(String, atomc::ir::Function)> {
    kernels_under("filetests/bench")
}

fn kernels_under(dir: &str) -> Vec<(String, atomc::ir::Function)> {
    let mut out = Vec::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "atom") {
                let src = std::fs::read_to_string(&p).unwrap();
                if let Ok(parsed) = atomc::ir::parse::parse_file(&src) {
                    for pf in parsed.functions {
                        if pf.func.is_kernel() && atomc::ir::verify::verify(&pf.func).is_ok() {
                            out.push((format!("{}:%{}", p.display(), pf.func.name), pf.func));
                        }
                    }
                }
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// The compile of `name` for an oracle test: a kernel the target refuses (an error that names
/// the op, the target and the reason, from a capability table or from selection) is `None`;
/// any other error, an internal one, fails the test.
pub fn compiled_or_refused(
    name: &str,
    result: Result<atomc::pipeline::SassOutput, atomc::CompileError>,
) -> Option<atomc::pipeline::SassOutput> {
    match result {
        Ok(out) => Some(out),
        Err(atomc::CompileError::Unsupported { .. }) => None,
        Err(e) => panic!("{name}: not compiled, and not refused either: {e}"),
    }
}

/// atomc's listing of a stream of kernels, `(kernel, address, text)`, against nvdisasm's
/// `listing` of the same stream (each of its lines through `clean`): one message per
/// instruction nvdisasm prints otherwise, or not at all.
pub fn nvdisasm_mismatches(
    expected: &[(String, u64, String)],
    listing: &str,
    clean: impl Fn(&str) -> String,
) -> Vec<String> {
    let theirs: std::collections::HashMap<u64, String> =
        atomc_oracle::disasm_instructions(listing).into_iter().map(|l| (l.offset as u64, clean(&l.text))).collect();
    let mut mismatches = Vec::new();
    for (name, addr, ours) in expected {
        match theirs.get(addr) {
            Some(t) if t == ours => {}
            Some(t) => mismatches.push(format!("{name} @{addr:#x}: atomc `{ours}`, nvdisasm `{t}`")),
            None => mismatches.push(format!("{name} @{addr:#x}: nvdisasm printed nothing for `{ours}`")),
        }
    }
    mismatches
}

/// Appends atomc's listing of one compiled kernel to an nvdisasm sweep's `expected`: each
/// instruction as atomc prints it (without the `;`) at its address in the stream, `base` being
/// the stream's length before the kernel.
pub fn push_listing(
    expected: &mut Vec<(String, u64, String)>,
    name: &str,
    out: &atomc::pipeline::SassOutput,
    base: u64,
) {
    for (i, ins) in out.kernel.instrs.iter().enumerate() {
        let addr = base + out.arch.instr_addr(i);
        let ours = out.arch.print_at(ins, addr);
        expected.push((name.to_string(), addr, ours.trim_end_matches(';').trim_end().to_string()));
    }
}

/// The end of an nvdisasm sweep: prints the agreement line (`what`, the counts, then `note`)
/// and fails on any mismatch, or when no kernel was compiled at all.
pub fn assert_nvdisasm_agreement(what: &str, kernels: usize, instructions: usize, mismatches: &[String], note: &str) {
    println!("{what} agreement: {kernels} kernels, {instructions} instructions, {} mismatches{note}", mismatches.len());
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    assert!(kernels > 0);
}

/// `f` over `items` on a few threads (the oracle tests spend their time
/// waiting for external tools), results in input order.
pub fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()) * 2;
    let chunk = items.len().div_ceil(workers.max(1)).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = items.chunks(chunk).map(|c| s.spawn(|| c.iter().map(&f).collect::<Vec<R>>())).collect();
        handles.into_iter().flat_map(|h| h.join().expect("worker panicked")).collect()
    })
}

pub mod cases;
pub mod emu;
