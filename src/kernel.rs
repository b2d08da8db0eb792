//! A SASS kernel compiled once, and everything a caller may want from that one compile: the
//! listing, the raw words, the cubin (alone or in a module) and the resource usage.

use crate::{ir, pipeline, CompileError, InternalError, Options, Target};
use atomc_emit::cubin::CubinKernel;

/// What a compiled SASS kernel needs from the hardware, as `ptxas -v` reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourceUsage {
    /// The REGCOUNT the cubin declares (general registers, the reserved ones included).
    pub registers: u32,
    /// Instructions of the kernel body, the end-of-kernel padding excluded.
    pub instructions: usize,
    /// Static shared memory bytes per block (sm_90: beyond the reserved 1 KiB window).
    pub shared_bytes: u32,
    /// Per-thread stack (local memory) bytes.
    pub stack_bytes: u32,
    /// Block barriers the code uses.
    pub barriers: u32,
    /// Bytes of the parameter block in constant bank 0.
    pub param_bytes: u32,
}

/// One kernel compiled for a SASS target ([`compile_kernel`]).
pub struct CompiledKernel {
    out: pipeline::SassOutput,
    /// What the cubin says of the kernel; an error here (a parameter block past the bank, say)
    /// concerns only the outputs that need it.
    desc: Result<CubinKernel, atomc_emit::cubin::CubinError>,
}

/// Compiles `func` for a SASS target once; every output of the kernel comes from the result.
///
/// ```
/// let src = "function %bump(ptr.global) {
/// block0(v0: ptr.global):
///     v1 = iconst.i32 1
///     v2 = atomic_rmw.i32 add relaxed gpu v0, v1
///     return
/// }
/// ";
/// let func = atomc::ir::parse::parse(src).expect("parses").remove(0);
/// let k = atomc::compile_kernel(&func, atomc::Target::Sm90, &Default::default()).expect("compiles");
/// assert!(k.listing().contains("REDG.E.ADD.STRONG.GPU"));
/// let usage = k.usage().expect("described");
/// assert_eq!(usage.param_bytes, 8);
/// assert_eq!(k.words().unwrap().len(), 16 * (usage.instructions + 1).next_multiple_of(8));
/// assert_eq!(&k.cubin().unwrap()[..4], b"\x7fELF");
/// ```
pub fn compile_kernel(func: &ir::Function, target: Target, opts: &Options) -> Result<CompiledKernel, CompileError> {
    ir::verify::verify(func).map_err(CompileError::Verify)?;
    let out = pipeline::compile_sass_with(func, target, opts)?;
    let alloc = &out.allocated.alloc;
    let desc = atomc_emit::describe::describe(
        func,
        &out.kernel,
        out.arch,
        alloc.num_regs,
        alloc.spill_bytes(),
        opts.max_registers,
    );
    Ok(CompiledKernel { out, desc })
}

impl CompiledKernel {
    /// The SASS listing as nvdisasm prints it (`/*0040*/  INSTR ;` per line).
    pub fn listing(&self) -> String {
        self.out.kernel.listing(self.out.arch, false)
    }

    /// The raw instruction words (sm_50 with its control words).
    pub fn words(&self) -> Result<Vec<u8>, CompileError> {
        Ok(self.out.kernel.bytes(self.out.arch).map_err(InternalError::Encoding)?)
    }

    /// A loadable cubin holding this kernel.
    pub fn cubin(&self) -> Result<Vec<u8>, CompileError> {
        Ok(atomc_emit::cubin::write_cubin(self.desc()?).map_err(InternalError::Cubin)?)
    }

    /// Registers, instructions, shared and stack bytes, barriers and parameter bytes.
    pub fn usage(&self) -> Result<ResourceUsage, CompileError> {
        let d = self.desc()?;
        Ok(ResourceUsage {
            registers: d.arch.regcount(d.regs_used),
            instructions: self.out.kernel.body_len,
            shared_bytes: d.shared_bytes,
            stack_bytes: d.local_frame_bytes,
            barriers: d.num_barriers,
            param_bytes: d.param_bytes(),
        })
    }

    fn desc(&self) -> Result<&CubinKernel, CompileError> {
        self.desc.as_ref().map_err(|e| InternalError::Cubin(e.clone()).into())
    }

    /// The pipeline's own output: allocation report, scheduled instructions, form table.
    pub fn sass(&self) -> &pipeline::SassOutput {
        &self.out
    }
}

/// Several compiled kernels as one cubin (a module), as ptxas writes a file of entries.
///
/// ```
/// let funcs = atomc::ir::parse::parse("function %a() {\nblock0:\n    return\n}\nfunction %b() {\nblock0:\n    return\n}\n").unwrap();
/// let kernels = funcs.iter().map(|f| atomc::compile_kernel(f, atomc::Target::Sm50, &Default::default())).collect::<Result<Vec<_>, _>>()?;
/// for k in &kernels {
///     println!("{:?}", k.usage()?); // registers, instructions, shared/stack bytes, ...
/// }
/// let cubin = atomc::cubin_module(&kernels.iter().collect::<Vec<_>>())?;
/// assert_eq!(&cubin[..4], b"\x7fELF");
/// # Ok::<(), atomc::CompileError>(())
/// ```
pub fn cubin_module(kernels: &[&CompiledKernel]) -> Result<Vec<u8>, CompileError> {
    let descs = kernels.iter().map(|k| k.desc().cloned()).collect::<Result<Vec<_>, _>>()?;
    Ok(atomc_emit::cubin::write_module(&descs).map_err(InternalError::Cubin)?)
}
