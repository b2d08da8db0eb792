//! `atomc compile FILE --target T --emit E[,E..] [-o OUT] [-v]`.
//!
//! A file of several functions is a module: PTX is one module with an entry per kernel, a
//! cubin holds every kernel, listings are headed by each function's `.text.NAME:` label (as
//! nvdisasm heads them), and outputs that hold one kernel each (raw words, vISA) go to one file
//! per kernel, named `OUT.NAME.EXT`. With several `--emit` kinds, `-o` names the stem of one file per kind,
//! `OUT.EXT`. A stem that already ends in the kind's `.EXT` loses it (`-o k.bin` gives `k.NAME.bin`).
//! Nothing is written unless every output was made: a module failing on its third kernel leaves
//! no file of the first two.

use super::{input, write_output, Failure, UserError};
use atomc::ir::Function;
use atomc::{CompileError, CompiledKernel, Emit, Output, Target};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Arguments of `atomc compile`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The .atom file (`-` for stdin).
    file: PathBuf,
    /// sm_50, sm_90 or visa.
    #[arg(long, value_parser = ["sm_50", "sm_90", "visa"])]
    target: String,
    /// The Intel platform for `--target visa` (TGLLP, DG2, PVC).
    #[arg(long)]
    platform: Option<String>,
    /// What to produce; several kinds (comma-separated or repeated) need `-o STEM`.
    #[arg(long, required = true, value_delimiter = ',', value_parser = Emit::ALL.map(|(_, n)| n))]
    emit: Vec<String>,
    /// Compile only this function (default: all).
    #[arg(long)]
    function: Option<String>,
    /// Output file (default: stdout); with several emit kinds or per-kernel files, the stem.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Print each SASS kernel's resource usage to stderr, as `ptxas -v` does.
    #[arg(short = 'v', long = "resource-usage")]
    resource_usage: bool,
    /// Use at most N general registers per thread (sm_50, sm_90; like ptxas --maxrregcount):
    /// the rest spill to local memory. At least 16.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(16..=255))]
    max_registers: Option<u32>,
    /// Optimisation level: 0 issues every atomic per lane as written (no warp aggregation),
    /// 1 aggregates atomics on warp-uniform addresses (the default).
    #[arg(short = 'O', long = "opt-level", value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u8).range(0..=1))]
    opt_level: u8,
    /// vISA: lanes per hardware thread (1, 2, 4, 8, 16 or 32).
    #[arg(long, value_name = "LANES", default_value_t = 8, value_parser = simd_lanes)]
    simd: u32,
}

fn simd_lanes(s: &str) -> Result<u32, String> {
    let n: u32 = s.parse().map_err(|_| format!("`{s}` is not a number of lanes"))?;
    atomc::SimdWidth::from_lanes(n).map(|_| n).ok_or_else(|| format!("{n} lanes: vISA kernels run 1, 2, 4, 8, 16 or 32"))
}

/// Parses `--target` and `--platform` into a [`Target`].
pub fn target(name: &str, platform: Option<&str>) -> Result<Target, Failure> {
    let full = match (name, platform) {
        ("visa", Some(p)) => format!("visa:{p}"),
        (_, Some(_)) => return Err(Failure::Usage("--platform applies to --target visa only".into())),
        (n, None) => n.to_string(),
    };
    Target::from_name(&full)
        .ok_or_else(|| Failure::Usage(format!("unknown target `{full}` (platforms: TGLLP, DG2, PVC)")))
}

/// The file extension of an emit kind's output.
fn extension(emit: Emit) -> &'static str {
    match emit {
        Emit::Ir => "atom",
        Emit::Legalized => "legalized.atom",
        Emit::Vcode => "vcode",
        Emit::Asm => "sass",
        Emit::Bin => "bin",
        Emit::Cubin => "cubin",
        Emit::Ptx => "ptx",
        Emit::Visaasm => "visaasm",
        Emit::Isa => "isa",
    }
}

/// Whether an output holds one kernel only, so a module gives one file per kernel.
fn per_kernel(emit: Emit) -> bool {
    matches!(emit, Emit::Bin | Emit::Visaasm | Emit::Isa)
}

/// Runs `atomc compile`.
pub fn run(args: Args) -> Result<(), Failure> {
    let target = target(&args.target, args.platform.as_deref())?;
    let emits: Vec<Emit> = args
        .emit
        .iter()
        .map(|e| Emit::from_name(e).ok_or_else(|| Failure::Usage(format!("unknown emit kind `{e}`"))))
        .collect::<Result<_, _>>()?;
    let opts = atomc::Options {
        max_registers: args.max_registers,
        opt_level: if args.opt_level == 0 { atomc::OptLevel::None } else { atomc::OptLevel::Speed },
        simd: atomc::SimdWidth::from_lanes(args.simd).unwrap_or_default(),
    };
    let input = input::parse(&args.file)?;
    let funcs = input.select(args.function.as_deref())?;
    if funcs.is_empty() {
        return Err(UserError(format!("{}: no functions to compile", input.name)).into());
    }
    let stem = args.output.as_deref().filter(|p| p.as_os_str() != "-");
    // Each SASS kernel is compiled once for every output kind asked for and for `-v`.
    let mut kernels = Kernels::default();
    if emits.len() > 1 && stem.is_none() {
        return Err(Failure::Usage("several --emit kinds write one file each: name their stem with -o STEM".into()));
    }
    // Every output is made before any is written (all or nothing): (path, bytes, announce).
    let mut outputs: Vec<(Option<PathBuf>, Vec<u8>, bool)> = Vec::new();
    for &emit in &emits {
        let one_kind = emits.len() == 1;
        if per_kernel(emit) && funcs.len() > 1 {
            let Some(stem) = stem else {
                return Err(Failure::Usage(format!(
                    "--emit {} holds one kernel and {} has {}: name the files' stem with -o STEM (or pick one with --function)",
                    extension(emit),
                    input.name,
                    funcs.len()
                )));
            };
            for f in &funcs {
                let out = compile_one(&input, f, target, emit, &opts, &mut kernels)?;
                let path = PathBuf::from(format!("{}.{}.{}", stem_for(stem, emit).display(), f.name, extension(emit)));
                outputs.push((Some(path), bytes(out), true));
            }
            continue;
        }
        let out = compile_all(&input, &funcs, target, emit, &opts, &mut kernels)?;
        let path = if one_kind { args.output.clone() } else { stem.map(|s| with_extension(stem_for(s, emit), emit)) };
        if let Output::Binary(_) = out {
            use std::io::IsTerminal;
            if path.as_ref().is_none_or(|p| p.as_os_str() == "-") && std::io::stdout().is_terminal() {
                return Err(Failure::Usage(format!(
                    "--emit {} is binary; write it to a file with -o FILE",
                    extension(emit)
                )));
            }
        }
        outputs.push((path, bytes(out), false));
    }
    if args.resource_usage {
        report_usage(&input, &funcs, target, &opts, &mut kernels)?;
    }
    for (path, bytes, announce) in &outputs {
        write_output(path.as_ref(), bytes)?;
        if let (true, Some(p)) = (announce, path) {
            eprintln!("atomc: wrote {}", p.display());
        }
    }
    Ok(())
}

/// The stem `-o` gives, less the kind's own extension if it ends with it.
fn stem_for(stem: &Path, emit: Emit) -> &Path {
    let ext = format!(".{}", extension(emit));
    stem.to_str().and_then(|s| s.strip_suffix(&ext)).filter(|s| !s.is_empty()).map_or(stem, Path::new)
}

fn with_extension(stem: &Path, emit: Emit) -> PathBuf {
    PathBuf::from(format!("{}.{}", stem.display(), extension(emit)))
}

fn bytes(out: Output) -> Vec<u8> {
    match out {
        Output::Text(t) => t.into_bytes(),
        Output::Binary(b) => b,
    }
}

/// Every selected function into one output: a PTX module, or texts one after the other (a
/// listing headed by each kernel's `.text.NAME:` label).
fn compile_all(
    input: &input::Input,
    funcs: &[&Function],
    target: Target,
    emit: Emit,
    opts: &atomc::Options,
    kernels: &mut Kernels,
) -> Result<Output, Failure> {
    if emit == Emit::Ptx || (emit == Emit::Cubin && funcs.len() > 1 && matches!(target, Target::Sm50 | Target::Sm90)) {
        if emit == Emit::Ptx {
            let owned: Vec<Function> = funcs.iter().map(|f| (*f).clone()).collect();
            return atomc::compile_ptx_module(&owned, target).map(Output::Text).map_err(|e| failure(input, None, e));
        }
        for f in funcs {
            kernels.get(input, f, target, opts)?;
        }
        let compiled: Vec<&CompiledKernel> = funcs.iter().map(|f| &kernels.0[&(*f as *const Function)]).collect();
        return atomc::cubin_module(&compiled).map(Output::Binary).map_err(|e| failure(input, None, e));
    }
    if funcs.len() == 1 && emit != Emit::Asm {
        return compile_one(input, funcs[0], target, emit, opts, kernels);
    }
    let mut text = String::new();
    for f in funcs {
        if emit == Emit::Asm {
            text.push_str(&format!(".text.{}:\n", f.name));
        }
        match compile_one(input, f, target, emit, opts, kernels)? {
            Output::Text(t) => text.push_str(&t),
            Output::Binary(_) => {
                return Err(Failure::Internal(format!("--emit {} gave binary output", extension(emit))))
            }
        }
    }
    Ok(Output::Text(text))
}

fn compile_one(
    input: &input::Input,
    f: &Function,
    target: Target,
    emit: Emit,
    opts: &atomc::Options,
    kernels: &mut Kernels,
) -> Result<Output, Failure> {
    let sass = matches!(target, Target::Sm50 | Target::Sm90);
    let out = match emit {
        Emit::Asm if sass => Ok(Output::Text(kernels.get(input, f, target, opts)?.listing())),
        Emit::Bin if sass => kernels.get(input, f, target, opts)?.words().map(Output::Binary),
        Emit::Cubin if sass => kernels.get(input, f, target, opts)?.cubin().map(Output::Binary),
        _ => atomc::compile_with(f, target, emit, opts),
    };
    out.map_err(|e| failure(input, Some(f), e))
}

/// The kernels compiled so far, by the address of their function in the input (names need
/// not be unique across a file).
#[derive(Default)]
struct Kernels(HashMap<*const Function, CompiledKernel>);

impl Kernels {
    fn get(
        &mut self,
        input: &input::Input,
        f: &Function,
        target: Target,
        opts: &atomc::Options,
    ) -> Result<&CompiledKernel, Failure> {
        let key = f as *const Function;
        if !self.0.contains_key(&key) {
            let k = atomc::compile_kernel(f, target, opts).map_err(|e| failure(input, Some(f), e))?;
            self.0.insert(key, k);
        }
        Ok(&self.0[&key])
    }
}

/// A compile error as a failure of its kind: the IR (1), the command line (2) or atomc (3).
fn failure(input: &input::Input, f: Option<&Function>, e: CompileError) -> Failure {
    let name = f.map(|f| format!("%{}: ", f.name)).unwrap_or_default();
    match e {
        CompileError::Verify(diags) => Failure::Input(input.render(&diags)),
        e @ CompileError::NoSuchOutput { .. } => Failure::Usage(e.to_string()),
        CompileError::Internal(msg) => Failure::Internal(format!("{}: {name}{msg}", input.name)),
        // A refusal points at the instruction, rendered as the verifier renders its errors.
        e @ CompileError::Unsupported { loc, .. } if loc.is_known() => {
            Failure::Input(input.render(&[atomc::ir::diagnostic::Diagnostic {
                inst: None,
                loc,
                rule: "target-unsupported",
                message: format!("{name}{e}"),
            }]))
        }
        e => Failure::Input(format!("{}: {name}{e}", input.name)),
    }
}

/// `-v`: one line per SASS kernel on stderr, in the spirit of `ptxas -v`.
fn report_usage(
    input: &input::Input,
    funcs: &[&Function],
    target: Target,
    opts: &atomc::Options,
    kernels: &mut Kernels,
) -> Result<(), Failure> {
    if !matches!(target, Target::Sm50 | Target::Sm90) {
        return Err(Failure::Usage("--resource-usage reports SASS kernels (--target sm_50 or sm_90)".into()));
    }
    for f in funcs {
        let u = kernels.get(input, f, target, opts)?.usage().map_err(|e| failure(input, Some(f), e))?;
        eprintln!(
            "atomc info: %{} for {target}: {} registers, {} instructions, {} bytes shared, {} bytes stack, {} bytes spill stores, {} bytes spill loads, {} barriers, {} bytes cmem[0] parameters",
            f.name, u.registers, u.instructions, u.shared_bytes, u.stack_bytes, u.spill_store_bytes, u.spill_load_bytes, u.barriers, u.param_bytes
        );
    }
    Ok(())
}
