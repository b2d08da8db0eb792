//! Shared by the integration tests: every valid kernel among the filetests.
#![allow(dead_code)]

use std::path::Path;

/// `(file:%name, function)` for every verified kernel in `filetests/filetests`, sorted.
pub fn filetest_kernels() -> Vec<(String, atomc::ir::Function)> {
    let mut out = Vec::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("filetests/filetests");
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

/// The compile of `name` for an oracle test: a kernel the target refuses for a reason its
/// capability tables give (docs/support.md) is `None`; any other error fails the test.
pub fn compiled_or_refused(
    name: &str,
    result: Result<atomc::pipeline::SassOutput, atomc::CompileError>,
) -> Option<atomc::pipeline::SassOutput> {
    match result {
        Ok(out) => Some(out),
        Err(e) if refused_by_table(&e) => None,
        Err(e) => panic!("{name}: not compiled, and not refused by a capability table: {e}"),
    }
}

/// Whether `e` is a refusal whose reason one of the capability tables states.
pub fn refused_by_table(e: &atomc::CompileError) -> bool {
    use atomc_lower::caps::{self, Lowering};
    use atomc_lower::caps_ops::{rules_for, OpLowering};
    let atomc::CompileError::Unsupported { reason, .. } = e else { return false };
    let tables = [&caps::SM90, &caps::SM50, &caps::VISA_TGLLP, &caps::VISA_DG2, &caps::VISA_PVC];
    let atomic = tables.iter().flat_map(|t| t.rules).any(|r| matches!(r.lowering, Lowering::Unsupported(why) if reason == why));
    let ops = tables.iter().flat_map(|t| rules_for(t.name)).any(|r| match r.lowering {
        OpLowering::Unsupported(why) | OpLowering::NativeWhereConverged(why) => reason == why,
        OpLowering::Native => false,
    });
    atomic || ops || reason == "no capability rule covers it"
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
