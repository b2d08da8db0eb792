//! Every function of every `.atom` file under `filetests/filetests/`
//! (all targets' tests, the interpreter's included) is compiled for vISA
//! TGLLP: it must either lower to a kernel that passes atomc's operand
//! rules and GenX_IR (text and `.isa` paths), or be refused with an
//! `Unsupported` diagnostic — never an internal error.

#[path = "visa_common/mod.rs"]
mod visa_common;

use atomc::{CompileError, Target, VisaPlatform};
use atomc_oracle::{require, Tool};
use atomc_emit::visa::Platform;
use visa_common::all_filetest_files;

#[test]
fn every_filetest_function_lowers_or_is_refused_cleanly() {
    let genx = require(Tool::GenXIR).is_some();
    let files = all_filetest_files();
    let (mut lowered, mut refused, mut invalid) = (0, 0, 0);
    let mut failures = Vec::new();
    let mut spilled = Vec::new();
    let mut reasons = std::collections::BTreeMap::new();
    for path in &files {
        let Ok(src) = std::fs::read_to_string(path) else {
            continue;
        };
        let Ok(funcs) = atomc::ir::parse::parse(&src) else {
            continue;
        };
        for f in funcs {
            let name = format!("{}:%{}", path.display(), f.name);
            match atomc::visa_kernel(&f, Target::Visa(VisaPlatform::Tgllp), &Default::default()) {
                Ok(k) => {
                    lowered += 1;
                    if genx {
                        match visa_common::genx_round_trip(&k, Platform::Tgllp) {
                            Ok(()) => {}
                            // GenX_IR 1.0.12504 exits with status 1 after writing the code of a
                            // kernel its finalizer had to spill ("Spill memory used = 29664
                            // bytes" for spill-live-values.atom's 260 live values at SIMD8): a
                            // limit of the part's register file, reported apart.
                            Err(e) if e.to_string().contains("Spill memory used") => spilled.push(name),
                            Err(e) => failures.push(format!("{name}: {e}")),
                        }
                    }
                }
                Err(CompileError::Unsupported { op, reason, .. }) => {
                    refused += 1;
                    let key = format!(
                        "{}: {reason}",
                        op.split_whitespace()
                            .find(|w| !w.starts_with('v') && *w != "=")
                            .unwrap_or(&op)
                    );
                    *reasons.entry(key).or_insert(0usize) += 1;
                }
                Err(CompileError::Verify(_)) => invalid += 1,
                Err(e) => failures.push(format!("{name}: {e}")),
            }
        }
    }
    println!(
        "vISA corpus: {} files; {lowered} functions lowered and checked, {refused} refused as unsupported, {invalid} invalid IR (verifier tests), {} failures",
        files.len(),
        failures.len()
    );
    for (r, n) in &reasons {
        println!("  refused {n:>3}× {r}");
    }
    for n in &spilled {
        println!("  spilled by GenX_IR's finalizer (exit status 1, code written): {n}");
    }
    for f in failures.iter().take(10) {
        println!("FAIL {f}");
    }
    assert!(failures.is_empty());
}
