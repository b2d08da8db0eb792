//! The compile pipeline for the SASS targets, as a flat list of passes:
//!
//! 1. verify the IR;
//! 2. legalize it against the target's capability table;
//! 3. verify again (a legalizer bug must not reach the backend);
//! 4. select machine instructions;
//! 5. allocate registers with regalloc2 and re-check every register rule;
//! 6. lay out, schedule and encode.
//!
//! Each stage is callable on its own, to look at what it made:
//!
//! ```
//! let func = atomc::ir::parse::parse("function %k(ptr.global) {
//! block0(v0: ptr.global):
//!     v1 = iconst.i32 1
//!     v2 = atomic_rmw.i32 sub relaxed gpu v0, v1
//!     return
//! }
//! ").unwrap().remove(0);
//! let legal = atomc::pipeline::legalize(&func, atomc::Target::Sm50)?;
//! assert!(legal.to_string().contains("atomic_rmw.i32 add")); // sub of x is add of -x
//! let out = atomc::pipeline::compile_sass(&func, atomc::Target::Sm50)?;
//! assert!(out.allocated.alloc.num_regs >= 2);
//! # Ok::<(), atomc::CompileError>(())
//! ```

use crate::error::Origins;
use crate::{CompileError, InternalError, Target};
use atomc_ir::{verify, Function};
use atomc_lower::caps::{self, TargetCaps};
use atomc_lower::sass::{isel, SassInst, SassTarget};
use atomc_lower::vcode::VCode;
use atomc_regalloc::{AllocOptions, Allocated};

/// The per-target data every pass reads.
pub(crate) struct SassPlan {
    pub isel: &'static SassTarget,
    pub rules: crate::Sm,
}

pub(crate) fn sass_plan(target: Target) -> Option<SassPlan> {
    let sm = target.sass()?;
    let isel = match sm {
        crate::Sm::Sm90 => &atomc_lower::sass::SM90,
        crate::Sm::Sm50 => &atomc_lower::sass::SM50,
    };
    Some(SassPlan { isel, rules: sm })
}

/// The capability table of any target.
pub(crate) fn caps_of(target: Target) -> &'static TargetCaps {
    match target {
        Target::Sm50 => &caps::SM50,
        Target::Sm90 => &caps::SM90,
        Target::Visa(crate::VisaPlatform::Tgllp) => &caps::VISA_TGLLP,
        Target::Visa(crate::VisaPlatform::Dg2) => &caps::VISA_DG2,
        Target::Visa(crate::VisaPlatform::Pvc) => &caps::VISA_PVC,
    }
}

/// Passes 1–3: a verified, legalized copy of `func`.
pub fn legalize(func: &Function, target: Target) -> Result<Function, CompileError> {
    Ok(legalize_traced(func, target)?.0)
}

/// [`legalize`], and the input instruction each instruction of the copy comes from (for the
/// refusals of later passes).
pub(crate) fn legalize_traced(func: &Function, target: Target) -> Result<(Function, Origins), CompileError> {
    verify::verify(func).map_err(CompileError::Verify)?;
    let (out, origins) = Origins::legalize(func, caps_of(target)).map_err(|e| CompileError::Unsupported {
        target,
        output: None,
        op: format!("{} on {}{}", e.op, e.ty, e.space),
        reason: e.reason.to_string(),
        loc: e.loc,
        inst: Some(e.inst),
    })?;
    verify::verify(&out).map_err(|d| CompileError::Internal(InternalError::LegalizedIr(d)))?;
    Ok((out, origins))
}

/// Passes 1–4.
pub fn select(func: &Function, target: Target) -> Result<VCode<SassInst>, CompileError> {
    select_with(func, target, &crate::Options::default())
}

/// [`select`] with compile options (the optimisation level).
pub fn select_with(func: &Function, target: Target, opts: &crate::Options) -> Result<VCode<SassInst>, CompileError> {
    let plan = sass_plan(target).ok_or(CompileError::NoSuchOutput { target, emit: "vcode" })?;
    let (legal, origins) = legalize_traced(func, target)?;
    isel::select_with(&legal, plan.isel, opts.opt_level.aggregates()).map_err(|e| {
        if e.unencodable {
            CompileError::Internal(InternalError::Unencodable { target, op: e.op, reason: e.reason, loc: e.loc })
        } else {
            let inst = origins.input(e.inst);
            CompileError::Unsupported { target, output: None, op: e.op, reason: e.reason, loc: e.loc, inst }
        }
    })
}

/// Passes 1–5, then the frame set-up of a kernel that spills to local memory (after the
/// checker, which proves nothing else writes the frame register).
pub fn allocate(func: &Function, target: Target) -> Result<Allocated<SassInst>, CompileError> {
    allocate_with(func, target, &crate::Options::default())
}

/// [`allocate`] with compile options (the register cap, the optimisation level).
pub fn allocate_with(
    func: &Function,
    target: Target,
    opts: &crate::Options,
) -> Result<Allocated<SassInst>, CompileError> {
    let plan = sass_plan(target).ok_or(CompileError::NoSuchOutput { target, emit: "asm" })?;
    let vcode = select_with(func, target, opts)?;
    let mut ra = AllocOptions::default();
    if let Some(n) = opts.max_registers {
        // The cap counts as ptxas's `--maxrregcount` does, i.e. as the cubin's REGCOUNT: on
        // sm_90 that includes the two registers the hardware reserves.
        let reserved = if target == Target::Sm90 { 2 } else { 0 };
        ra.max_registers = n.saturating_sub(reserved);
    }
    let mut allocated = atomc_regalloc::allocate_and_check_owned(vcode, plan.rules, &ra)
        .map_err(InternalError::Allocation)?;
    if allocated.alloc.frame_reg.is_some() {
        let prologue = plan.isel.frame_prologue(allocated.alloc.spill_bytes());
        allocated.code.prepend(prologue);
    }
    Ok(allocated)
}

/// Everything a SASS compile produced, for reports and the command line.
pub struct SassOutput {
    /// The allocated code and the allocator's report.
    pub allocated: Allocated<SassInst>,
    /// The laid-out, scheduled, encoded kernel.
    pub kernel: atomc_emit::codegen::SassKernel,
    /// The architecture's form table.
    pub arch: &'static atomc_emit::sass::Arch,
}

/// Passes 1–6.
pub fn compile_sass(func: &Function, target: Target) -> Result<SassOutput, CompileError> {
    compile_sass_with(func, target, &crate::Options::default())
}

/// [`compile_sass`] with compile options (the register cap).
pub fn compile_sass_with(func: &Function, target: Target, opts: &crate::Options) -> Result<SassOutput, CompileError> {
    let allocated = allocate_with(func, target, opts)?;
    let arch = match target {
        Target::Sm90 => atomc_emit::sass::sm90(),
        Target::Sm50 => atomc_emit::sass::sm50(),
        _ => return Err(CompileError::NoSuchOutput { target, emit: "asm" }),
    };
    let kernel = atomc_emit::codegen::emit(&allocated.code, arch).map_err(InternalError::Emission)?;
    Ok(SassOutput { allocated, kernel, arch })
}
