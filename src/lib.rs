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
pub use kernel::{compile_kernel, cubin_module, CompiledKernel, ParamSlot, ResourceUsage};

pub mod emulate;

#[cfg(feature = "gpu")]
pub mod gpu;

#[cfg(feature = "clif")]
pub mod clif;

mod target;
pub use atomc_emit::sass::Sm;
pub use target::{Target, UnknownTarget, VisaPlatform};

mod options;
pub use options::{OptLevel, Options, SimdWidth};

/// What a compile produces.
///
/// ```
/// use atomc::Emit;
/// assert_eq!(Emit::from_name("cubin"), Some(Emit::Cubin));
/// assert!(Emit::Cubin.is_binary() && !Emit::Asm.is_binary());
/// ```
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

/// The result of a compile: text or bytes, as the emit kind dictates.
///
/// ```
/// # let func = atomc::ir::parse::parse("function %k() {\nblock0:\n    return\n}\n").unwrap().remove(0);
/// match atomc::compile(&func, atomc::Target::Sm50, atomc::Emit::Bin)? {
///     atomc::Output::Binary(words) => assert_eq!(words.len() % 32, 0), // SM50: control word + 3 instructions
///     atomc::Output::Text(_) => unreachable!("--emit bin is bytes"),
/// }
/// # Ok::<(), atomc::CompileError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// Human-readable output.
    Text(String),
    /// Binary output.
    Binary(Vec<u8>),
}

/// Compiles one function for `target`, producing `emit`.
///
/// ```
/// let src = "function %count(ptr.global) {
/// block0(v0: ptr.global):
///     v1 = iconst.i32 1
///     v2 = atomic_rmw.i32 add relaxed gpu v0, v1
///     return
/// }
/// ";
/// let func = atomc::ir::parse::parse(src).expect("parses").remove(0);
/// let atomc::Output::Text(ptx) = atomc::compile(&func, atomc::Target::Sm90, atomc::Emit::Ptx)? else { unreachable!() };
/// assert!(ptx.contains(".entry count"));
/// let atomc::Output::Text(visa) = atomc::compile(&func, "visa:DG2".parse().unwrap(), atomc::Emit::Visaasm)? else { unreachable!() };
/// assert!(visa.contains("svm_atomic"));
/// // A target that cannot express an instruction says which, and why.
/// let fma = atomc::ir::parse::parse("function %h(ptr.global) {
/// block0(v0: ptr.global):
///     v1 = load.f64 v0
///     v2 = fma v1, v1, v1
///     store v2, v0
///     return
/// }
/// ").unwrap().remove(0);
/// let err = atomc::compile(&fma, "visa".parse().unwrap(), atomc::Emit::Visaasm).unwrap_err();
/// assert!(matches!(err, atomc::CompileError::Unsupported { .. }), "{err}");
/// # Ok::<(), atomc::CompileError>(())
/// ```
pub fn compile(func: &ir::Function, target: Target, emit: Emit) -> Result<Output, CompileError> {
    compile_with(func, target, emit, &Options::default())
}

/// [`compile`] with [`Options`].
///
/// ```
/// use atomc::{Emit, Options, Output, Target};
/// let src = "function %count(ptr.global) {
/// block0(v0: ptr.global):
///     v1 = iconst.i32 1
///     v2 = atomic_rmw.i32 add relaxed gpu v0, v1
///     return
/// }
/// ";
/// let func = atomc::ir::parse::parse(src).expect("parses").remove(0);
/// let asm = |opts: &Options| match atomc::compile_with(&func, Target::Sm90, Emit::Asm, opts) {
///     Ok(Output::Text(t)) => t,
///     other => panic!("{other:?}"),
/// };
/// // By default the warp's lanes add once (a VOTEU of the active lanes, one REDG by a leader).
/// assert!(asm(&Options::default()).contains("VOTEU.ANY"));
/// // At OptLevel::None every lane issues its own REDG.
/// assert!(!asm(&Options { opt_level: atomc::OptLevel::None, ..Default::default() }).contains("VOTEU"));
/// ```
pub fn compile_with(func: &ir::Function, target: Target, emit: Emit, opts: &Options) -> Result<Output, CompileError> {
    ir::verify::verify(func).map_err(CompileError::Verify)?;
    match emit {
        Emit::Ir => Ok(Output::Text(ir::print::print_function(func))),
        Emit::Legalized => Ok(Output::Text(ir::print::print_function(&pipeline::legalize(func, target)?))),
        Emit::Asm if pipeline::sass_plan(target).is_some() => Ok(Output::Text(compile_kernel(func, target, opts)?.listing())),
        Emit::Bin if pipeline::sass_plan(target).is_some() => Ok(Output::Binary(compile_kernel(func, target, opts)?.words()?)),
        Emit::Visaasm if matches!(target, Target::Visa(_)) => Ok(Output::Text(visa_kernel(func, target, &opts.visa())?.to_text())),
        Emit::Isa if matches!(target, Target::Visa(_)) => Ok(Output::Binary(visa_kernel(func, target, &opts.visa())?.to_isa())),
        Emit::Cubin if pipeline::sass_plan(target).is_some() => Ok(Output::Binary(compile_kernel(func, target, opts)?.cubin()?)),
        Emit::Ptx if matches!(target, Target::Sm50 | Target::Sm90) => {
            let sm = if target == Target::Sm50 { 50 } else { 90 };
            atomc_lower::ptx::emit_ptx(func, sm).map(Output::Text).map_err(|e| ptx_error(e, target))
        }
        Emit::Vcode if pipeline::sass_plan(target).is_some() => {
            let vcode = pipeline::select_with(func, target, opts)?;
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
///
/// ```
/// let func = atomc::ir::parse::parse("function %k(ptr.global) {
/// block0(v0: ptr.global):
///     v1 = thread_id.x
///     v2 = atomic_rmw.i32 umax relaxed gpu v0, v1
///     return
/// }
/// ").unwrap().remove(0);
/// let opts = atomc::Options { simd: atomc::SimdWidth::Simd16, ..Default::default() }.visa();
/// let kernel = atomc::visa_kernel(&func, atomc::Target::Visa(atomc::VisaPlatform::Tgllp), &opts)?;
/// assert!(kernel.to_text().contains("svm_atomic.max")); // unsigned: the operand type is :ud
/// assert_eq!(&kernel.to_isa()[..4], b"CISA");
/// # Ok::<(), atomc::CompileError>(())
/// ```
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
    let (legal, origins) = pipeline::legalize_traced(func, target)?;
    lower(&legal, platform, opts).map_err(|e| match e {
        LowerError::Unsupported { op, reason, loc, inst, .. } => {
            CompileError::Unsupported { target, output: None, op, reason, loc, inst: origins.input(inst) }
        }
        e @ LowerError::Rules(_) => InternalError::Visa(e).into(),
    })
}

/// Translates several kernels into one PTX module (one `.entry` each), as a file of kernels
/// is one module for ptxas.
///
/// ```
/// let funcs = atomc::ir::parse::parse("function %a() {\nblock0:\n    return\n}\nfunction %b() {\nblock0:\n    return\n}\n").unwrap();
/// let ptx = atomc::compile_ptx_module(&funcs, atomc::Target::Sm50)?;
/// assert_eq!(ptx.matches(".version").count(), 1);
/// assert!(ptx.contains(".entry a") && ptx.contains(".entry b"));
/// # Ok::<(), atomc::CompileError>(())
/// ```
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
            // Only the PTX path refuses these: the message says so (SASS may compile them).
            CompileError::Unsupported { target, output: Some("PTX"), op: what, reason: why, loc, inst }
        }
        PtxError::BadName(name) => refused_function(
            target,
            &name,
            "its name is not a PTX identifier (a letter or `_`, then letters, digits, `_` or `$`)",
        ),
        PtxError::NotAKernel(name) => {
            refused_function(target, &name, "it returns values; only kernels (no return values) become PTX entries")
        }
        e => InternalError::Ptx(e).into(),
    }
}

/// Function `%name` as a whole cannot become PTX, for `reason`.
fn refused_function(target: Target, name: &str, reason: &str) -> CompileError {
    CompileError::Unsupported {
        target,
        output: Some("PTX"),
        op: format!("function %{name}"),
        reason: reason.into(),
        loc: ir::SrcLoc::default(),
        inst: None,
    }
}

/// Compiles `func` for a SASS target and reports its resource usage.
///
/// ```
/// let func = atomc::ir::parse::parse("function %k(ptr.global) {
/// block0(v0: ptr.global):
///     v1 = thread_id.x
///     store v1, v0
///     return
/// }
/// ").unwrap().remove(0);
/// let usage = atomc::resource_usage(&func, atomc::Target::Sm90, &Default::default())?;
/// assert_eq!((usage.param_bytes, usage.stack_bytes, usage.barriers), (8, 0, 0));
/// assert!(usage.registers >= 2 && usage.instructions >= 3);
/// # Ok::<(), atomc::CompileError>(())
/// ```
pub fn resource_usage(func: &ir::Function, target: Target, opts: &Options) -> Result<ResourceUsage, CompileError> {
    compile_kernel(func, target, opts)?.usage()
}

/// Compiles several kernels for a SASS target into one cubin (a module): each kernel with its
/// own code, constant bank and attributes, as ptxas writes a module of several entries.
///
/// ```
/// let funcs = atomc::ir::parse::parse("function %a() {\nblock0:\n    return\n}\nfunction %b() {\nblock0:\n    return\n}\n").unwrap();
/// let cubin = atomc::compile_cubin_module(&funcs, atomc::Target::Sm90, &Default::default())?;
/// assert_eq!(&cubin[..4], b"\x7fELF");
/// let text = String::from_utf8_lossy(&cubin);
/// assert!(text.contains(".text.a") && text.contains(".text.b"));
/// # Ok::<(), atomc::CompileError>(())
/// ```
pub fn compile_cubin_module(funcs: &[ir::Function], target: Target, opts: &Options) -> Result<Vec<u8>, CompileError> {
    let kernels = funcs.iter().map(|f| compile_kernel(f, target, opts)).collect::<Result<Vec<_>, _>>()?;
    cubin_module(&kernels.iter().collect::<Vec<_>>())
}
