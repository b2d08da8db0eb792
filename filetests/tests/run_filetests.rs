//! Runs every filetest under `filetests/` (this crate's folder of `.atom`
//! files) and the shipped `examples/` with the facade's compiler, as
//! `atomc test filetests/filetests examples` does.

use std::path::PathBuf;

/// The facade's `compile` as the runner's backend.
struct FacadeBackend;

impl atomc_filetests::Backend for FacadeBackend {
    fn compile(&self, func: &atomc::ir::Function, target: &str, emit: &str) -> Result<String, String> {
        let t = atomc::Target::from_name(target).ok_or(format!("unknown target `{target}`"))?;
        let e = atomc::Emit::from_name(emit).ok_or(format!("unknown emit kind `{emit}`"))?;
        match atomc::compile(func, t, e).map_err(|e| e.to_string())? {
            atomc::Output::Text(s) => Ok(s),
            atomc::Output::Binary(b) => Ok(atomc_filetests::hex_dump(&b)),
        }
    }

    fn import_clif(&self, body: &str) -> Result<Vec<atomc::ir::Function>, Vec<atomc::ir::diagnostic::Diagnostic>> {
        atomc::clif::parse_clif_file(body).map_err(|e| vec![e.diagnostic()])
    }
}

#[test]
fn filetests() {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let roots = [here.join("filetests"), here.join("../examples")];
    let opts = atomc_filetests::RunOptions::default();
    let summary = atomc_filetests::run(&roots, &opts, &FacadeBackend);
    let report = summary.report(false);
    println!("{report}");
    let stale = summary.unreferenced_snapshots(&opts.snapshot_dir);
    if !stale.is_empty() {
        println!(
            "warning: {} snapshot(s) no filetest uses (renamed or removed tests; delete them):",
            stale.len()
        );
        for p in &stale {
            println!("    {}", p.display());
        }
    }
    assert!(summary.passed() >= 1, "no filetests found");
    assert_eq!(summary.failed(), 0, "filetests failed:\n{report}");
}
