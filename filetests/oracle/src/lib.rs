//! Access to the external reference tools ("oracles") that atomc's tests compare against:
//! NVIDIA `nvdisasm` / `ptxas` / `cuobjdump` from CUDA 13.x (sm_90) and CUDA 11.8 (sm_50), and
//! Intel's vISA assembler `GenX_IR`.
//!
//! The tools are not part of the build. `scripts/install-tools.sh` puts them into the git-ignored
//! `.cache/tools/` of the workspace root; this module only finds and runs them (with
//! `std::process`, through unique temporary files under [`std::env::temp_dir`]).
//!
//! Tests that need a tool start with [`require`]: when the tool is missing it prints a loud
//! `SKIPPED (tool missing): ...` line and returns `None` (the test then returns early), unless the
//! environment variable `CI` is set, in which case it panics, so a CI run can never pass by
//! silently skipping its oracle checks.
//!
//! The directory can be overridden with `ATOMC_TOOLS_DIR` (the directory that holds `cuda13/`,
//! `cuda118/` and `igc/`).

use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// One external tool, at the version the project pins for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tool {
    /// `nvdisasm` from CUDA 13.x: disassembles sm_75 and newer (used for sm_90).
    Nvdisasm13,
    /// `ptxas` from CUDA 13.x.
    Ptxas13,
    /// `cuobjdump` from CUDA 13.x.
    Cuobjdump13,
    /// `nvdisasm` from CUDA 11.8: the last release that still disassembles sm_50.
    Nvdisasm118,
    /// `ptxas` from CUDA 11.8 (compiles for sm_50 and sm_90).
    Ptxas118,
    /// `cuobjdump` from CUDA 11.8.
    Cuobjdump118,
    /// Intel's `GenX_IR` (vISA text/binary to Gen assembly), IGC 1.0.12504.
    GenXIR,
}

impl Tool {
    /// Every tool, in a fixed order.
    pub const ALL: [Tool; 7] = [
        Tool::Nvdisasm13,
        Tool::Ptxas13,
        Tool::Cuobjdump13,
        Tool::Nvdisasm118,
        Tool::Ptxas118,
        Tool::Cuobjdump118,
        Tool::GenXIR,
    ];

    /// The tool's path relative to the tools directory (`.cache/tools`).
    pub fn relative_path(self) -> &'static str {
        match self {
            Tool::Nvdisasm13 => "cuda13/bin/nvdisasm",
            Tool::Ptxas13 => "cuda13/bin/ptxas",
            Tool::Cuobjdump13 => "cuda13/bin/cuobjdump",
            Tool::Nvdisasm118 => "cuda118/bin/nvdisasm",
            Tool::Ptxas118 => "cuda118/bin/ptxas",
            Tool::Cuobjdump118 => "cuda118/bin/cuobjdump",
            Tool::GenXIR => "igc/bin/GenX_IR",
        }
    }

    /// The short name used in messages (`nvdisasm13`, `ptxas118`, ...), matching the reference
    /// notes' spelling.
    pub fn name(self) -> &'static str {
        match self {
            Tool::Nvdisasm13 => "nvdisasm13",
            Tool::Ptxas13 => "ptxas13",
            Tool::Cuobjdump13 => "cuobjdump13",
            Tool::Nvdisasm118 => "nvdisasm118",
            Tool::Ptxas118 => "ptxas118",
            Tool::Cuobjdump118 => "cuobjdump118",
            Tool::GenXIR => "GenX_IR",
        }
    }
}

impl fmt::Display for Tool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The NVIDIA architectures atomc targets (the workspace's one SM type).
pub use atomc_sass::Sm;

/// The spellings and toolkits the NVIDIA tools want for an architecture: sm_50 is handled by
/// the CUDA 11.8 tools (CUDA 13 dropped it), sm_90 by the CUDA 13.x tools.
pub trait SmTools {
    /// The spelling `nvdisasm -b` wants for raw input (`SM50`, `SM90`).
    fn nvdisasm_arch(self) -> &'static str;
    /// The spelling `ptxas -arch=` and PTX `.target` use (`sm_50`, `sm_90`).
    fn ptx_arch(self) -> &'static str;
    /// The `nvdisasm` that reads this architecture.
    fn nvdisasm_tool(self) -> Tool;
    /// The `ptxas` used by default for this architecture.
    fn ptxas_tool(self) -> Tool;
    /// The `cuobjdump` that reads this architecture's cubins.
    fn cuobjdump_tool(self) -> Tool;
}

impl SmTools for Sm {
    fn nvdisasm_arch(self) -> &'static str {
        match self {
            Sm::Sm50 => "SM50",
            Sm::Sm90 => "SM90",
        }
    }

    fn ptx_arch(self) -> &'static str {
        self.name()
    }

    fn nvdisasm_tool(self) -> Tool {
        match self {
            Sm::Sm50 => Tool::Nvdisasm118,
            Sm::Sm90 => Tool::Nvdisasm13,
        }
    }

    fn ptxas_tool(self) -> Tool {
        match self {
            Sm::Sm50 => Tool::Ptxas118,
            Sm::Sm90 => Tool::Ptxas13,
        }
    }

    fn cuobjdump_tool(self) -> Tool {
        match self {
            Sm::Sm50 => Tool::Cuobjdump118,
            Sm::Sm90 => Tool::Cuobjdump13,
        }
    }
}

/// Why an oracle could not be used, or what it rejected.
#[derive(Debug, thiserror::Error)]
pub enum OracleError {
    /// No directory above the start points holds `.cache/tools` or `Cargo.lock`.
    #[error("workspace root not found (searched upwards from {searched:?} for .cache/tools or Cargo.lock); set ATOMC_TOOLS_DIR")]
    NoWorkspace {
        /// Where the search started.
        searched: Vec<PathBuf>,
    },
    /// The tool is not installed where it should be.
    #[error("{tool} not found at {}; run scripts/install-tools.sh", path.display())]
    Missing {
        /// The missing tool.
        tool: Tool,
        /// Where it was expected.
        path: PathBuf,
    },
    /// A temporary file or directory could not be written or read.
    #[error("{context}: {source}")]
    Io {
        /// What was being done.
        context: String,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// The tool ran but exited unsuccessfully (for `ptxas`: the PTX was rejected).
    #[error("{tool} {args} failed ({status}):\n{stderr}{stdout}")]
    Failed {
        /// The tool that failed.
        tool: Tool,
        /// Its arguments, space-separated (temporary file names included).
        args: String,
        /// The exit status, as text.
        status: String,
        /// Its standard output.
        stdout: String,
        /// Its standard error.
        stderr: String,
    },
    /// `GenX_IR` exited 0 but reported a problem (an `.errors.txt`, an assertion line, or a
    /// WARNING/ERROR message); it accepts many malformed inputs otherwise (reference/visa.md §4).
    #[error("GenX_IR reported problems:\n{detail}")]
    GenxDiagnostics {
        /// The offending messages.
        detail: String,
    },
    /// The tool succeeded but did not write the file it should have.
    #[error("{tool} wrote no {what}")]
    NoOutput {
        /// The tool.
        tool: Tool,
        /// The expected output.
        what: &'static str,
    },
}

fn io_err(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> OracleError {
    let context = context.into();
    move |source| OracleError::Io { context, source }
}

// ---------------------------------------------------------------------------------------------
// Locating the tools
// ---------------------------------------------------------------------------------------------

/// The workspace root: the nearest directory holding `.cache/tools` or `Cargo.lock`, searched
/// upwards from the running test's `CARGO_MANIFEST_DIR` (set by cargo at run time), then from
/// this crate's own manifest directory (fixed at build time), then from the current directory.
pub fn workspace_root() -> Result<PathBuf, OracleError> {
    let mut starts = Vec::new();
    if let Some(dir) = std::env::var_os("CARGO_MANIFEST_DIR") {
        starts.push(PathBuf::from(dir));
    }
    starts.push(PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    if let Ok(dir) = std::env::current_dir() {
        starts.push(dir);
    }
    // A directory with the tools wins over a mere Cargo.lock, so a crate with its own lock file
    // (a member built alone) still finds the workspace's tools.
    for marker_is_tools in [true, false] {
        for start in &starts {
            for dir in start.ancestors() {
                let hit = if marker_is_tools {
                    dir.join(".cache").join("tools").is_dir()
                } else {
                    dir.join("Cargo.lock").is_file()
                };
                if hit {
                    return Ok(dir.to_path_buf());
                }
            }
        }
    }
    Err(OracleError::NoWorkspace { searched: starts })
}

/// The tools directory: `$ATOMC_TOOLS_DIR` if set, else `<workspace root>/.cache/tools`.
pub fn tools_dir() -> Result<PathBuf, OracleError> {
    if let Some(dir) = std::env::var_os("ATOMC_TOOLS_DIR") {
        return Ok(PathBuf::from(dir));
    }
    Ok(workspace_root()?.join(".cache").join("tools"))
}

/// The path of an installed tool, or [`OracleError::Missing`].
pub fn tool(t: Tool) -> Result<PathBuf, OracleError> {
    let path = tools_dir()?.join(t.relative_path());
    if path.is_file() {
        Ok(path)
    } else {
        Err(OracleError::Missing { tool: t, path })
    }
}

/// Whether the environment marks this as a CI run (`CI` set to anything but empty, `0` or
/// `false`).
fn in_ci() -> bool {
    match std::env::var("CI") {
        Ok(v) => !(v.is_empty() || v == "0" || v.eq_ignore_ascii_case("false")),
        Err(_) => false,
    }
}

/// For tests: the tool's path, or `None` after a loud `SKIPPED (tool missing): ...` line.
///
/// The line is written straight to the process's standard error, not through `eprintln!`, so the
/// test harness's output capture does not hide it. With `CI` set, a missing tool panics instead.
/// Use as `let Some(ptxas) = oracle::require(Tool::Ptxas13) else { return };`.
pub fn require(t: Tool) -> Option<PathBuf> {
    match tool(t) {
        Ok(path) => Some(path),
        Err(err) => {
            if in_ci() {
                panic!("oracle {t} is required when CI is set: {err}");
            }
            let mut stderr = std::io::stderr().lock();
            let _ = writeln!(stderr, "SKIPPED (tool missing): {err}");
            None
        }
    }
}

/// [`require`] for several tools at once: `true` only if all are present (each missing one gets
/// its own SKIPPED line).
pub fn require_all(tools: &[Tool]) -> bool {
    let mut all = true;
    for &t in tools {
        all &= require(t).is_some();
    }
    all
}

// ---------------------------------------------------------------------------------------------
// Temporary files and running
// ---------------------------------------------------------------------------------------------

/// A fresh directory under the system temp dir, deleted (with its contents) on drop.
pub struct ScratchDir {
    path: PathBuf,
}

impl ScratchDir {
    /// Creates a uniquely named directory (`atomc-oracle-<pid>-<n>-<nanos>`).
    pub fn new() -> Result<ScratchDir, OracleError> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let base = std::env::temp_dir();
        loop {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let nanos = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map(|d| d.subsec_nanos())
                .unwrap_or(0);
            let path = base.join(format!("atomc-oracle-{}-{n}-{nanos}", std::process::id()));
            match std::fs::create_dir(&path) {
                Ok(()) => return Ok(ScratchDir { path }),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(io_err(format!("creating {}", path.display()))(e)),
            }
        }
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes `bytes` to `name` inside the directory and returns the file's path.
    pub fn write(&self, name: &str, bytes: &[u8]) -> Result<PathBuf, OracleError> {
        let path = self.path.join(name);
        std::fs::write(&path, bytes).map_err(io_err(format!("writing {}", path.display())))?;
        Ok(path)
    }

    /// Reads `name` inside the directory, `None` if it does not exist.
    pub fn read(&self, name: &str) -> Result<Option<Vec<u8>>, OracleError> {
        let path = self.path.join(name);
        match std::fs::read(&path) {
            Ok(b) => Ok(Some(b)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(io_err(format!("reading {}", path.display()))(e)),
        }
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// Runs `t` with `args` in `cwd`; returns its output when it exits 0, else
/// [`OracleError::Failed`].
pub fn run_tool(t: Tool, args: &[&std::ffi::OsStr], cwd: Option<&Path>) -> Result<Output, OracleError> {
    let exe = tool(t)?;
    let mut cmd = Command::new(&exe);
    cmd.args(args);
    if let Some(dir) = cwd {
        cmd.current_dir(dir);
    }
    let out = cmd.output().map_err(io_err(format!("running {}", exe.display())))?;
    if out.status.success() {
        Ok(out)
    } else {
        Err(OracleError::Failed {
            tool: t,
            args: args.iter().map(|a| a.to_string_lossy()).collect::<Vec<_>>().join(" "),
            status: out.status.to_string(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        })
    }
}

fn os(s: &str) -> &std::ffi::OsStr {
    std::ffi::OsStr::new(s)
}

fn stdout_string(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

mod genx;
mod nvidia;
pub mod slice;

pub use genx::{genx_ir, GenxInput, GenxOutput};
pub use nvidia::{
    listing_lines,
    cuobjdump, cuobjdump_sass, cuobjdump_with, disasm_instructions, nvdisasm, nvdisasm_cubin, nvdisasm_plain, ptxas, ptxas_sass,
    ptxas_with, DisasmLine,
};
