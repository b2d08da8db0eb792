//! atomc: a compiler backend for GPU atomics.
//!
//! Parse or build an [`ir::Function`], pick a [`Target`], and [`compile`]
//! it to the [`Emit`] form you want:
//!
//! ```
//! let src = "function %k(ptr.global) {\nblock0(v0: ptr.global):\n    return\n}\n";
//! let funcs = atomc::ir::parse::parse(src).expect("parses");
//! assert_eq!(funcs.len(), 1);
//! ```

pub use atomc_ir as ir;

pub mod pipeline;

mod error;
pub use error::{CompileError, InternalError};

mod kernel;
pub use kernel::{compile_kernel, cubin_module, CompiledKernel, ResourceUsage};

pub mod emulate;

#[cfg(feature = "gpu")]
pub mod gpu;

#[cfg(feature = "clif")]
pub mod clif;

use std::fmt;

/// What a compile produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Emit {
    /// The input IR, verified and printed.
    Ir,
    /// The IR after target legalization.
    Legalized,
    /// Machine instructions with virtual registers, before allocation.
    Vcode,
    /// SASS text in nvdisasm's spelling.
    Asm,
    /// Raw instruction words (SM50 with control words).
    Bin,
    /// A loadable CUDA ELF.
    Cubin,
    /// PTX text that ptxas accepts.
    Ptx,
    /// vISA assembly text.
    Visaasm,
    /// vISA binary (`.isa`, format 4.1).
    Isa,
}

impl Emit {
    /// Every emit kind with its command-line spelling.
    pub const ALL: [(Emit, &'static str); 9] = [
        (Emit::Ir, "ir"),
        (Emit::Legalized, "legalized"),
        (Emit::Vcode, "vcode"),
        (Emit::Asm, "asm"),
        (Emit::Bin, "bin"),
        (Emit::Cubin, "cubin"),
        (Emit::Ptx, "ptx"),
        (Emit::Visaasm, "visaasm"),
        (Emit::Isa, "isa"),
    ];

    /// Parses the command-line spelling.
    pub fn from_name(s: &str) -> Option<Emit> {
        Emit::ALL.iter().find(|(_, n)| *n == s).map(|(e, _)| *e)
    }

    /// Whether the output is binary (write it to a file, not a terminal).
    pub fn is_binary(self) -> bool {
        matches!(self, Emit::Bin | Emit::Cubin | Emit::Isa)
    }
}

/// A compilation target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// NVIDIA Maxwell.
    Sm50,
    /// NVIDIA Hopper.
    Sm90,
    /// Intel vISA for the given Gen platform.
    Visa(VisaPlatform),
}

/// An Intel platform as GenX_IR's `-platform` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VisaPlatform {
    /// Tiger Lake (Gen12LP).
    Tgllp,
    /// DG2 (Xe-HPG).
    Dg2,
    /// Ponte Vecchio (Xe-HPC).
    Pvc,
}

impl VisaPlatform {
    /// GenX_IR's spelling.
    pub fn name(self) -> &'static str {
        match self {
            VisaPlatform::Tgllp => "TGLLP",
            VisaPlatform::Dg2 => "DG2",
            VisaPlatform::Pvc => "PVC",
        }
    }

    /// Parses GenX_IR's spelling (case-insensitive).
    pub fn from_name(s: &str) -> Option<VisaPlatform> {
        [VisaPlatform::Tgllp, VisaPlatform::Dg2, VisaPlatform::Pvc]
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s))
    }
}

impl Target {
    /// Parses `sm_50`, `sm_90`, `visa` (TGLLP) or `visa:DG2`-style names.
    pub fn from_name(s: &str) -> Option<Target> {
        match s {
            "sm_50" => Some(Target::Sm50),
            "sm_90" => Some(Target::Sm90),
            "visa" => Some(Target::Visa(VisaPlatform::Tgllp)),
            _ => s.strip_prefix("visa:").and_then(VisaPlatform::from_name).map(Target::Visa),
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Sm50 => f.write_str("sm_50"),
            Target::Sm90 => f.write_str("sm_90"),
            Target::Visa(p) => write!(f, "visa:{}", p.name()),
        }
    }
}

/// The result of a compile: text or bytes, as the emit kind dictates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// Human-readable output.
    Text(String),
    /// Binary output.
    Binary(Vec<u8>),
}

/// Compile options beyond the target and the output kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Use at most this many general registers per thread (SASS targets), like ptxas's
    /// `--maxrregcount`: values beyond them are spilled to local memory. `None`: the whole
    /// register file (R0..R252 on sm_90, R0..R254 on sm_50). Values below 16 count as 16.
    pub max_registers: Option<u32>,
}

/// Compiles one function for `target`, producing `emit`.
pub fn compile(func: &ir::Function, target: Target, emit: Emit) -> Result<Output, CompileError> {
    compile_with(func, target, emit, &Options::default())
}

/// [`compile`] with [`Options`].
pub fn compile_with(func: &ir::Function, target: Target, emit: Emit, opts: &Options) -> Result<Output, CompileError> {
    ir::verify::verify(func).map_err(CompileError::Verify)?;
    match emit {
        Emit::Ir => Ok(Output::Text(ir::print::print_function(func))),
        Emit::Legalized => Ok(Output::Text(ir::print::print_function(&pipeline::legalize(func, target)?))),
        Emit::Asm if pipeline::sass_plan(target).is_some() => Ok(Output::Text(compile_kernel(func, target, opts)?.listing())),
        Emit::Bin if pipeline::sass_plan(target).is_some() => Ok(Output::Binary(compile_kernel(func, target, opts)?.words()?)),
        Emit::Visaasm if matches!(target, Target::Visa(_)) => Ok(Output::Text(visa_kernel(func, target, &Default::default())?.to_text())),
        Emit::Isa if matches!(target, Target::Visa(_)) => Ok(Output::Binary(visa_kernel(func, target, &Default::default())?.to_isa())),
        Emit::Cubin if pipeline::sass_plan(target).is_some() => Ok(Output::Binary(compile_kernel(func, target, opts)?.cubin()?)),
        Emit::Ptx if matches!(target, Target::Sm50 | Target::Sm90) => {
            let sm = if target == Target::Sm50 { 50 } else { 90 };
            atomc_lower::ptx::emit_ptx(func, sm).map(Output::Text).map_err(|e| ptx_error(e, target))
        }
        Emit::Vcode if pipeline::sass_plan(target).is_some() => {
            let vcode = pipeline::select(func, target)?;
            Ok(Output::Text(vcode.to_string()))
        }
        _ => {
            let name = Emit::ALL.iter().find(|(e, _)| *e == emit).map(|(_, n)| *n).unwrap_or("?");
            Err(CompileError::NoSuchOutput { target, emit: name })
        }
    }
}

/// Legalizes `func` for a vISA target and widens it into a checked vISA
/// kernel (`atomc_lower::visa`); `opts` picks the SIMD width.
pub fn visa_kernel(
    func: &ir::Function,
    target: Target,
    opts: &atomc_lower::visa::Options,
) -> Result<atomc_emit::visa::Kernel, CompileError> {
    use atomc_emit::visa::Platform;
    use atomc_lower::visa::{lower, LowerError};
    let platform = match target {
        Target::Visa(VisaPlatform::Tgllp) => Platform::Tgllp,
        Target::Visa(VisaPlatform::Dg2) => Platform::Dg2,
        Target::Visa(VisaPlatform::Pvc) => Platform::Pvc,
        _ => return Err(CompileError::NoSuchOutput { target, emit: "visaasm" }),
    };
    let legal = pipeline::legalize(func, target)?;
    lower(&legal, platform, opts).map_err(|e| match e {
        LowerError::Unsupported { op, reason, loc, inst, .. } => {
            CompileError::Unsupported { target, op, reason, loc, inst: error::input_inst(func, inst) }
        }
        e @ LowerError::Rules(_) => InternalError::Visa(e).into(),
    })
}

/// Translates several kernels into one PTX module (one `.entry` each), as a file of kernels
/// is one module for ptxas.
pub fn compile_ptx_module(funcs: &[ir::Function], target: Target) -> Result<String, CompileError> {
    for f in funcs {
        ir::verify::verify(f).map_err(CompileError::Verify)?;
    }
    let sm = match target {
        Target::Sm50 => 50,
        Target::Sm90 => 90,
        _ => return Err(CompileError::NoSuchOutput { target, emit: "ptx" }),
    };
    atomc_lower::ptx::emit_ptx_module(funcs, sm).map_err(|e| ptx_error(e, target))
}

/// What PTX cannot express, and kernel names that are no PTX identifier, are the input's; the
/// rest is atomc's.
fn ptx_error(e: atomc_lower::ptx::PtxError, target: Target) -> CompileError {
    use atomc_lower::ptx::PtxError;
    match e {
        PtxError::Unsupported { what, why, loc, inst, .. } => {
            CompileError::Unsupported { target, op: what, reason: why, loc, inst }
        }
        PtxError::BadName(name) => CompileError::Unsupported {
            target,
            op: format!("function %{name}"),
            reason: "its name is not a PTX identifier (a letter or `_`, then letters, digits, `_` or `$`)".into(),
            loc: ir::SrcLoc::default(),
            inst: None,
        },
        PtxError::NotAKernel(name) => CompileError::Unsupported {
            target,
            op: format!("function %{name}"),
            reason: "it returns values; only kernels (no return values) become PTX entries".into(),
            loc: ir::SrcLoc::default(),
            inst: None,
        },
        e => InternalError::Ptx(e).into(),
    }
}

/// Compiles `func` for a SASS target and reports its resource usage.
pub fn resource_usage(func: &ir::Function, target: Target, opts: &Options) -> Result<ResourceUsage, CompileError> {
    compile_kernel(func, target, opts)?.usage()
}

/// Compiles several kernels for a SASS target into one cubin (a module): each kernel with its
/// own code, constant bank and attributes, as ptxas writes a module of several entries.
pub fn compile_cubin_module(funcs: &[ir::Function], target: Target, opts: &Options) -> Result<Vec<u8>, CompileError> {
    let kernels = funcs.iter().map(|f| compile_kernel(f, target, opts)).collect::<Result<Vec<_>, _>>()?;
    cubin_module(&kernels.iter().collect::<Vec<_>>())
}
