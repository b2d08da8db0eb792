//! Every valid kernel among the filetests goes through selection and
//! register allocation for sm_90 (the rule checker runs on each), or is
//! rejected with a clear "cannot express" error; never an internal error.

use atomc::{pipeline, CompileError, Target};
use std::path::Path;

fn filetest_kernels() -> Vec<(String, atomc::ir::Function)> {
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

#[test]
fn sm90_selection_and_allocation() {
    let (mut ok, mut unsupported, mut moves) = (0, 0, 0);
    let mut reasons = std::collections::BTreeMap::<String, usize>::new();
    let mut internal = Vec::new();
    for (name, func) in filetest_kernels() {
        match pipeline::allocate(&func, Target::Sm90) {
            Ok(a) => {
                ok += 1;
                moves += a.alloc.stats.moves;
            }
            Err(CompileError::Unsupported { op, reason, .. }) => {
                unsupported += 1;
                *reasons.entry(format!("{op}: {reason}")).or_default() += 1;
            }
            Err(e) => internal.push(format!("{name}: {e}")),
        }
    }
    println!("sm_90: {ok} kernels allocated and checked ({moves} allocator moves), {unsupported} rejected as unsupported:");
    for (r, n) in &reasons {
        println!("  {n:3} × {r}");
    }
    assert!(internal.is_empty(), "internal errors:\n{}", internal.join("\n"));
}
