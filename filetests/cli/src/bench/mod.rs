//! `atomc bench`: atomc against ptxas on a corpus of atomic kernels.
//!
//! For every kernel of the corpus (`filetests/bench/*.atom`, one function per
//! file) and every SASS target, one run measures, alternately and `repeat`
//! times, three compiles of the same kernel:
//!
//! 1. atomc in process: parse the text, verify, and compile to a cubin;
//! 2. atomc as a whole process: the `atomc` binary spawned with
//!    `compile FILE --target T --emit cubin -o OUT` (start-up included);
//! 3. ptxas as a whole process on the PTX atomc emits for the same kernel
//!    (`--emit ptx`, produced once, outside the timing).
//!
//! Interleaving the three inside each repeat spreads machine noise (other
//! processes, frequency changes) evenly over them; the report uses medians.
//! Code quality is read once per kernel and target: registers (atomc's
//! allocation, ptxas's `REG:` from `cuobjdump -res-usage`) and SASS
//! instructions without the end-of-kernel padding (the `BRA` to itself and
//! the `NOP`s after it, which both compilers append).

mod generate;
mod measure;
mod report;
mod svg;

pub use generate::{corpus_files, large_kernel};
pub use measure::{count_ptxas_instrs, parse_reg_count, PtxasResult};
pub use report::{summarize, write_csv, write_markdown, Summary, CSV_COLUMNS};
pub use svg::write_svg;

use atomc::{ir, Target};
use std::path::{Path, PathBuf};

/// Why the benchmark could not run at all (a single kernel's failure is a
/// row with a status, not an error).
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// Reading the corpus or writing a report failed.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A corpus file does not parse or does not hold exactly one function.
    #[error("{path}: {message}")]
    Corpus {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The corpus directory holds no `.atom` file.
    #[error("no .atom files in {0}")]
    Empty(PathBuf),
    /// A target the benchmark cannot compare (only sm_50 and sm_90 have ptxas).
    #[error("target {0} has no ptxas counterpart; use sm_50 or sm_90")]
    Target(Target),
}

pub(crate) fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> BenchError + '_ {
    move |source| BenchError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// One kernel of the corpus.
#[derive(Clone, Debug)]
pub struct Kernel {
    /// The file stem (`hist_shared`).
    pub name: String,
    /// The file.
    pub path: PathBuf,
    /// The file's text (parsed again on every in-process repeat).
    pub source: String,
    /// The parsed function.
    pub func: ir::Function,
}

/// Reads every `.atom` file of `dir`, sorted by name.
pub fn load_corpus(dir: &Path) -> Result<Vec<Kernel>, BenchError> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(io_err(dir))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "atom"))
        .collect();
    paths.sort();
    if paths.is_empty() {
        return Err(BenchError::Empty(dir.to_path_buf()));
    }
    paths.iter().map(|p| load_kernel(p)).collect()
}

/// Reads one corpus file.
pub fn load_kernel(path: &Path) -> Result<Kernel, BenchError> {
    let source = std::fs::read_to_string(path).map_err(io_err(path))?;
    let corpus = |message: String| BenchError::Corpus {
        path: path.to_path_buf(),
        message,
    };
    let mut funcs = ir::parse::parse(&source)
        .map_err(|d| corpus(d.iter().map(|d| d.message.as_str()).collect::<Vec<_>>().join("; ")))?;
    if funcs.len() != 1 {
        return Err(corpus(format!("expected one function, found {}", funcs.len())));
    }
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    Ok(Kernel {
        name,
        path: path.to_path_buf(),
        source,
        func: funcs.remove(0),
    })
}

/// What to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// sm_50 and/or sm_90.
    pub targets: Vec<Target>,
    /// Repeats per measurement (the median is reported); at least 1.
    pub repeat: usize,
    /// The `atomc` binary for the whole-process measurement.
    pub atomc_exe: PathBuf,
    /// Print one progress line per kernel and target to stderr.
    pub progress: bool,
}

/// One kernel on one target.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Row {
    /// Kernel name.
    pub kernel: String,
    /// `sm_50` or `sm_90`.
    pub target: String,
    /// Median atomc in-process compile time (parse to cubin), microseconds.
    pub atomc_inproc_us: Option<f64>,
    /// Median atomc whole-process time, microseconds.
    pub atomc_process_us: Option<f64>,
    /// Median ptxas whole-process time, microseconds.
    pub ptxas_process_us: Option<f64>,
    /// Median CPU time (user + system) of the atomc process, microseconds.
    pub atomc_process_cpu_us: Option<f64>,
    /// Median CPU time (user + system) of the ptxas process, microseconds.
    pub ptxas_process_cpu_us: Option<f64>,
    /// Median time to spawn `atomc --version` (the process start-up floor of
    /// this machine at this moment), microseconds.
    pub spawn_floor_us: Option<f64>,
    /// General registers atomc's code names (R0..R(n-1); `alloc.num_regs`).
    pub atomc_regs: Option<u32>,
    /// General registers ptxas's code names: its REGCOUNT less the registers
    /// the architecture reserves (2 on sm_90, 0 on sm_50), the same measure
    /// as `atomc_regs`.
    pub ptxas_regs: Option<u32>,
    /// REGCOUNT in atomc's cubin, as `cuobjdump -res-usage` reads it.
    pub atomc_regcount: Option<u32>,
    /// REGCOUNT in ptxas's cubin (`REG:` of `cuobjdump -res-usage`).
    pub ptxas_regcount: Option<u32>,
    /// atomc's SASS instructions without padding.
    pub atomc_instrs: Option<u32>,
    /// ptxas's SASS instructions without padding.
    pub ptxas_instrs: Option<u32>,
    /// Opcodes that differ most between the two listings (`+2 SHF -1 LEA`).
    pub opcode_diff: String,
    /// `ok`, or what failed.
    pub status: String,
}

impl Row {
    /// ptxas whole-process time over atomc whole-process time.
    pub fn time_ratio_process(&self) -> Option<f64> {
        Some(self.ptxas_process_us? / self.atomc_process_us?)
    }
    /// ptxas's CPU time over atomc's, both whole processes.
    pub fn time_ratio_cpu(&self) -> Option<f64> {
        Some(self.ptxas_process_cpu_us? / self.atomc_process_cpu_us?)
    }
    /// ptxas whole-process time over atomc in-process time.
    pub fn time_ratio_inproc(&self) -> Option<f64> {
        Some(self.ptxas_process_us? / self.atomc_inproc_us?)
    }
    /// atomc instructions over ptxas instructions.
    pub fn instr_ratio(&self) -> Option<f64> {
        Some(self.atomc_instrs? as f64 / self.ptxas_instrs? as f64)
    }
}

/// Measures every kernel on every target of `config`.
pub fn run(kernels: &[Kernel], config: &Config) -> Result<Vec<Row>, BenchError> {
    let mut rows = Vec::new();
    for &target in &config.targets {
        if !matches!(target, Target::Sm50 | Target::Sm90) {
            return Err(BenchError::Target(target));
        }
        let scratch = measure::Scratch::new()?;
        for k in kernels {
            let row = measure::measure(k, target, config, &scratch);
            if config.progress {
                eprintln!("bench: {:<28} {:<6} {}", k.name, target, row.status);
            }
            rows.push(row);
        }
    }
    Ok(rows)
}

/// Writes `bench.csv`, `bench.md` and `bench.svg` into `dir` (created if
/// needed); returns the markdown text.
pub fn write_reports(rows: &[Row], dir: &Path, header: &str) -> Result<String, BenchError> {
    std::fs::create_dir_all(dir).map_err(io_err(dir))?;
    let csv = dir.join("bench.csv");
    std::fs::write(&csv, write_csv(rows)).map_err(io_err(&csv))?;
    let md_text = write_markdown(rows, header);
    let md = dir.join("bench.md");
    std::fs::write(&md, &md_text).map_err(io_err(&md))?;
    let svg = dir.join("bench.svg");
    std::fs::write(&svg, write_svg(rows)).map_err(io_err(&svg))?;
    Ok(md_text)
}

/// Today's date in UTC as `YYYY-MM-DD` (for report headers; no date crate
/// needed for this one line).
pub fn utc_date() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Proleptic Gregorian date of a day count since 1970-01-01 (the
/// era-based conversion: 400-year eras of 146097 days).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// The version line of the ptxas that handles `target` (`Cuda compilation
/// tools, release 13.0, V13.0.88`), if it is installed.
pub fn ptxas_version(target: Target) -> Option<String> {
    use atomc_oracle::{self as oracle, Tool};
    let tool = if target == Target::Sm50 {
        Tool::Ptxas118
    } else {
        Tool::Ptxas13
    };
    let out = std::process::Command::new(oracle::tool(tool).ok()?)
        .arg("--version")
        .output()
        .ok()?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find(|l| l.contains("release"))
        .map(str::to_string)
}

#[cfg(test)]
mod date_tests {
    #[test]
    fn civil_dates() {
        assert_eq!(super::civil_from_days(0), (1970, 1, 1));
        assert_eq!(super::civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(super::civil_from_days(11_016), (2000, 2, 29));
    }
}
