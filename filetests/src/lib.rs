//! The filetest runner behind `atomc test` and the `run_filetests` test.
//!
//! A filetest is a `.atom` file: header lines (`test NAME [OPTIONS]`,
//! `target NAME`), then functions in the IR's text format, with the
//! expectations in `;` comments (see [`testfile`] for the layout and the
//! modules under [`subtest`] for each kind of test):
//!
//! | header | checks |
//! | --- | --- |
//! | `test verify` | verifier errors equal the `; error: RULE` / `; error[RULE]: text` comments |
//! | `test print` | print(parse(text)) is the text, and printing is stable |
//! | `test interpret` | every `; run: ...` line passes in the reference interpreter |
//! | `test legalize` / `test compile [precise-output] [emit=K]` | filecheck lines, precise output (bless with `ATOMC_TEST_BLESS=1`), insta snapshots |
//!
//! Files run in parallel (rayon); results are reported sorted by path;
//! a panic fails its file with the panic's message; the report ends with
//! the line `N passed, N failed`.

mod diff;
mod discover;
mod frontend;
pub mod subtest;
pub mod testfile;

use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub use discover::discover;

/// The compiler, supplied by the caller (the `atomc` facade sits above this
/// crate, so it cannot be called directly).
pub trait Backend: Sync {
    /// Compiles `func` for `target` (as written on the `target` line:
    /// `sm_50`, `sm_90`, `visa`, `visa:DG2`) producing the emit kind named
    /// `emit` (`ir`, `legalized`, `vcode`, `asm`, ...). Binary output is
    /// returned as text (e.g. a hex dump) so it can be compared.
    fn compile(&self, func: &atomc_ir::Function, target: &str, emit: &str) -> Result<String, String>;

    /// Reads the functions of a `.clif` file (Cranelift IR text, with the
    /// header lines already blanked by [`clif_body`]) as atomc IR. The
    /// default has no CLIF reader.
    fn import_clif(&self, body: &str) -> Result<Vec<atomc_ir::Function>, Vec<atomc_ir::diagnostic::Diagnostic>> {
        let _ = body;
        Err(vec![atomc_ir::diagnostic::Diagnostic {
            inst: None,
            loc: Default::default(),
            rule: "clif-import",
            message: "this runner has no CLIF reader".to_string(),
        }])
    }
}

/// The text of a `.clif` filetest as Cranelift's reader should see it: the
/// atomc header lines (`test ...`, `target sm_90`) before the first function
/// become empty lines (so line numbers stay right), comments and functions
/// stay.
pub fn clif_body(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut header = true;
    for line in source.lines() {
        if line.starts_with("function") {
            header = false;
        }
        let code = testfile::split_comment(line).0.trim();
        if !header || code.is_empty() {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// A backend for tests that never compile: every compile fails.
pub struct NoBackend;

impl Backend for NoBackend {
    fn compile(&self, _: &atomc_ir::Function, target: &str, emit: &str) -> Result<String, String> {
        Err(format!("no backend to compile for {target} --emit {emit}"))
    }
}

/// How to run.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Also list passing files, with their time.
    pub verbose: bool,
    /// Rewrite `precise-output` expectations instead of failing
    /// (`ATOMC_TEST_BLESS=1`).
    pub bless: bool,
    /// Check compile outputs against insta snapshots.
    pub snapshots: bool,
    /// Where the snapshots live.
    pub snapshot_dir: PathBuf,
    /// Worker threads (`None`: one per core; `ATOMC_FILETESTS_THREADS`).
    pub threads: Option<usize>,
    /// A file still running after this long is reported on stderr as
    /// `STALLED` (again every such period), so a hang names its file.
    pub stall_after: Duration,
}

impl Default for RunOptions {
    /// Not verbose; bless from `ATOMC_TEST_BLESS=1`; snapshots on, in this
    /// crate's `snapshots/` folder; threads from `ATOMC_FILETESTS_THREADS`;
    /// stalls reported after 10 s.
    fn default() -> RunOptions {
        RunOptions {
            verbose: false,
            bless: std::env::var("ATOMC_TEST_BLESS").is_ok_and(|v| v == "1"),
            snapshots: true,
            snapshot_dir: Path::new(env!("CARGO_MANIFEST_DIR")).join("snapshots"),
            threads: std::env::var("ATOMC_FILETESTS_THREADS")
                .ok()
                .and_then(|v| v.parse().ok())
                .filter(|&n| n > 0),
            stall_after: Duration::from_secs(10),
        }
    }
}

/// The result of one file.
#[derive(Clone, Debug)]
pub struct FileResult {
    /// The file.
    pub path: PathBuf,
    /// `None` when it passed; else what failed.
    pub failure: Option<String>,
    /// Wall time.
    pub time: Duration,
    /// Whether precise-output expectations were rewritten.
    pub blessed: bool,
    /// The insta snapshot names this file's compile tests use.
    pub snapshots: Vec<String>,
}

/// The results of a run, sorted by path.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// One per file.
    pub files: Vec<FileResult>,
}

impl Summary {
    /// Files that passed.
    pub fn passed(&self) -> usize {
        self.files.iter().filter(|f| f.failure.is_none()).count()
    }

    /// Files that failed.
    pub fn failed(&self) -> usize {
        self.files.len() - self.passed()
    }

    /// The `.snap` files in `dir` that no file of this run uses (stale
    /// after a rename; only meaningful for a run over every filetest).
    pub fn unreferenced_snapshots(&self, dir: &Path) -> Vec<PathBuf> {
        let used: std::collections::HashSet<&str> = self
            .files
            .iter()
            .flat_map(|f| f.snapshots.iter().map(String::as_str))
            .collect();
        let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "snap"))
            .filter(|p| p.file_stem().and_then(|s| s.to_str()).is_none_or(|s| !used.contains(s)))
            .collect();
        out.sort();
        out
    }

    /// The report: each failure (and, if `verbose`, each pass) in path
    /// order, then `N passed, N failed`.
    pub fn report(&self, verbose: bool) -> String {
        let mut out = String::new();
        for f in &self.files {
            match &f.failure {
                Some(msg) => {
                    out.push_str(&format!("FAIL {}\n", f.path.display()));
                    for line in msg.lines() {
                        out.push_str("    ");
                        out.push_str(line);
                        out.push('\n');
                    }
                }
                None if verbose => out.push_str(&format!(
                    "ok   {} ({} ms){}\n",
                    f.path.display(),
                    f.time.as_millis(),
                    if f.blessed { " blessed" } else { "" }
                )),
                None if f.blessed => out.push_str(&format!("blessed {}\n", f.path.display())),
                None => {}
            }
        }
        out.push_str(&format!("{} passed, {} failed\n", self.passed(), self.failed()));
        out
    }
}

/// Runs every filetest found under `paths` (files or directories).
pub fn run(paths: &[PathBuf], opts: &RunOptions, backend: &dyn Backend) -> Summary {
    let mut found = Vec::new();
    let mut missing = Vec::new();
    for p in paths {
        match discover(p) {
            Ok(files) => found.extend(files.into_iter().map(|f| (p.clone(), f))),
            Err(e) => missing.push(FileResult {
                path: p.clone(),
                failure: Some(e),
                time: Duration::ZERO,
                blessed: false,
                snapshots: Vec::new(),
            }),
        }
    }
    found.sort_by(|a, b| a.1.cmp(&b.1));
    found.dedup_by(|a, b| a.1 == b.1);
    panic_capture::install();
    let running = watchdog::Running::default();
    let work = || -> Vec<FileResult> {
        found
            .par_iter()
            .map(|(_, file)| {
                let _guard = running.enter(file);
                run_file(file, opts, backend)
            })
            .collect()
    };
    let mut files = watchdog::watch(&running, opts.stall_after, || match opts.threads {
        Some(n) => match rayon::ThreadPoolBuilder::new().num_threads(n).build() {
            Ok(pool) => pool.install(work),
            Err(_) => work(),
        },
        None => work(),
    });
    files.extend(missing);
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Summary { files }
}

/// Runs one file, catching panics.
pub fn run_file(path: &Path, opts: &RunOptions, backend: &dyn Backend) -> FileResult {
    let start = Instant::now();
    let outcome = panic_capture::catch(|| run_file_inner(path, opts, backend));
    let (failure, blessed, snapshots) = match outcome {
        Ok(r) => r,
        Err(msg) => (Some(format!("panicked: {msg}\n")), false, Vec::new()),
    };
    FileResult {
        path: path.to_path_buf(),
        failure,
        time: start.elapsed(),
        blessed,
        snapshots,
    }
}

/// What one file's run gives: the failure, whether it was blessed, the
/// snapshot names it uses.
type Outcome = (Option<String>, bool, Vec<String>);

fn run_file_inner(path: &Path, opts: &RunOptions, backend: &dyn Backend) -> Outcome {
    let source = match std::fs::read_to_string(path) {
        Ok(s) => s,
        Err(e) => return (Some(format!("cannot read: {e}\n")), false, Vec::new()),
    };
    let file = match testfile::TestFile::scan(&source) {
        Ok(f) => f,
        Err(e) => return (Some(format!("{e}\n")), false, Vec::new()),
    };
    let rel_path = stable_name(path);
    let is_clif = path.extension().is_some_and(|e| e == "clif");
    let parsed = if is_clif {
        backend.import_clif(&clif_body(&source))
    } else {
        frontend::parse(&source)
    };
    let mut ctx = subtest::Ctx {
        path: path.to_path_buf(),
        rel_path,
        file: &file,
        parsed,
        backend,
        opts,
        rewrites: Vec::new(),
        snapshots: Vec::new(),
        own_tree: in_snapshot_tree(path, &opts.snapshot_dir),
    };
    let failures = subtest::run_all(&mut ctx);
    let mut blessed = false;
    let mut failure: Option<String> = (!failures.is_empty()).then(|| failures.concat());
    if !ctx.rewrites.is_empty() {
        let new = bless::rewrite(&file, &ctx.rewrites);
        match std::fs::write(path, new) {
            Ok(()) => blessed = true,
            Err(e) => failure
                .get_or_insert_with(String::new)
                .push_str(&format!("cannot bless: {e}\n")),
        }
    }
    (failure, blessed, ctx.snapshots)
}

/// The name of a test file that does not depend on how the runner was
/// invoked (`atomc test filetests`, `atomc test filetests/filetests/x`,
/// `cargo test`): its path relative to this crate's folder
/// (`filetests/compile/sm90/x.atom`), else relative to the repository root
/// (`examples/histogram.atom`), else its file name. Snapshot names are
/// built from it, so they must not change with the working directory.
pub fn stable_name(path: &Path) -> String {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let canon = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let file = canon(path);
    let rel = [canon(crate_dir), canon(&crate_dir.join(".."))]
        .into_iter()
        .find_map(|base| file.strip_prefix(&base).ok().map(Path::to_path_buf));
    match rel {
        Some(r) if !r.as_os_str().is_empty() => r.to_string_lossy().replace('\\', "/"),
        _ => path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
    }
}

/// Whether `path` belongs to the tree whose snapshots live in `snapshot_dir` (the folder that
/// holds `snapshot_dir`: for atomc's own, `filetests/`).
pub fn in_snapshot_tree(path: &Path, snapshot_dir: &Path) -> bool {
    let canon = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    snapshot_dir.parent().is_some_and(|tree| canon(path).starts_with(canon(tree)))
}

/// The message of a caught panic payload.
pub fn panic_message(payload: &Box<dyn std::any::Any + Send>) -> String {
    panic_message_of(payload.as_ref())
}

fn panic_message_of(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(non-string panic payload)".to_string()
    }
}

mod bless;
pub mod panic_capture;
mod watchdog;

/// Binary output as text for comparison: offset and 16 bytes per line.
pub fn hex_dump(bytes: &[u8]) -> String {
    let mut out = String::new();
    for (i, chunk) in bytes.chunks(16).enumerate() {
        out.push_str(&format!("{:06x}:", i * 16));
        for b in chunk {
            out.push_str(&format!(" {b:02x}"));
        }
        out.push('\n');
    }
    out
}
