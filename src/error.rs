//! The errors of a compile, typed to the crate boundary: what the input or target refuses
//! ([`CompileError`]) apart from atomc's own bugs ([`InternalError`]), which keep the error of
//! the pass that found them.

use crate::{ir, Target};

/// Why a compile failed.
///
/// ```
/// use atomc::{CompileError, Emit, Target};
/// let src = "function %k(ptr.global) {
/// block0(v0: ptr.global):
///     v1 = load.f64 v0
///     v2 = fma v1, v1, v1
///     store v2, v0
///     return
/// }
/// ";
/// let func = atomc::ir::parse::parse(src).unwrap().remove(0);
/// match atomc::compile(&func, "visa".parse().unwrap(), Emit::Visaasm) {
///     // Refused by the target, at the instruction's line and column: the input's problem.
///     Err(CompileError::Unsupported { target, op, reason, loc, inst, .. }) => {
///         assert_eq!((target.to_string().as_str(), loc.line, loc.col), ("visa:TGLLP", 4, 5));
///         assert_eq!(inst.map(|i| func.insts[i].opcode_name()), Some("fma"));
///         println!("{op}: {reason}");
///     }
///     // atomc's own bug: report it (the command line exits 3 for these).
///     Err(CompileError::Internal(e)) => panic!("internal compiler error: {e}"),
///     other => panic!("{other:?}"),
/// }
/// assert!(matches!(atomc::compile(&func, Target::Sm90, Emit::Visaasm), Err(CompileError::NoSuchOutput { .. })));
/// ```
#[derive(Debug, thiserror::Error)]
pub enum CompileError {
    /// The input IR is not valid.
    #[error("invalid IR: {}", messages(.0))]
    Verify(Vec<ir::diagnostic::Diagnostic>),
    /// The target cannot express an instruction (in every output, or in the one named).
    #[error("{target}{} cannot express `{op}`: {reason}", output.map(|o| format!(" {o}")).unwrap_or_default())]
    Unsupported {
        /// The target.
        target: Target,
        /// The output that refuses, when the others of the target take the instruction (`PTX`).
        output: Option<&'static str>,
        /// The instruction as the IR spells it (opcode, type and address space).
        op: String,
        /// Why.
        reason: String,
        /// Where the instruction is in the source (unknown for functions built in code that
        /// set no location, see [`ir::Function::inst_locs`] and [`ir::FunctionBuilder::set_loc`]).
        loc: ir::SrcLoc,
        /// The instruction of the input function (none for a refusal of the whole function,
        /// or of an instruction the legalizer made).
        inst: Option<ir::Inst>,
    },
    /// A bug in atomc: a pass produced something a later pass rejects.
    #[error("internal compiler error: {0}")]
    Internal(#[from] InternalError),
    /// This combination of target and emit kind is not available.
    #[error("--emit {emit} is not available for target {target}")]
    NoSuchOutput {
        /// The target.
        target: Target,
        /// The emit kind's spelling.
        emit: &'static str,
    },
}

impl CompileError {
    /// The errors about the input, as the verifier reports them: the verifier's own, or one
    /// `target-unsupported` diagnostic at the refused instruction (its location and its
    /// [`ir::Inst`]); empty for the other errors. Render them with
    /// [`ir::diagnostic::render`] against the source, or print a
    /// [`headline`](ir::diagnostic::Diagnostic::headline) each for a function built in code.
    ///
    /// ```
    /// use atomc::ir::{AddrSpace, FunctionBuilder, InstData, SrcLoc, TernaryOp, Type};
    ///
    /// // SASS selects fma of f32 and f64 only; the caller's position is kept.
    /// let mut b = FunctionBuilder::new("fma16", &[Type::Ptr(AddrSpace::Global), Type::F16]);
    /// b.set_loc(SrcLoc { line: 7, col: 13 });
    /// let x = b.param(1);
    /// let q = b.ins(InstData::Ternary { op: TernaryOp::Fma, args: [x, x, x] }).unwrap();
    /// let bump = b.last_inst().unwrap();
    /// b.set_loc(SrcLoc::default());
    /// b.store(q, b.param(0), 0);
    /// b.ret(&[]);
    /// let func = b.finish();
    /// let err = atomc::compile_kernel(&func, atomc::Target::Sm50, &Default::default()).err().expect("refused");
    /// let diags = err.diagnostics();
    /// assert_eq!(diags[0].inst, Some(bump));
    /// assert_eq!(diags[0].loc, SrcLoc { line: 7, col: 13 });
    /// let line = diags[0].headline("bump.rs");
    /// assert!(line.starts_with(&format!("bump.rs:7:13: {bump}: error[target-unsupported]: sm_50 cannot express")), "{line}");
    /// ```
    pub fn diagnostics(&self) -> Vec<ir::diagnostic::Diagnostic> {
        match self {
            CompileError::Verify(diags) => diags.clone(),
            CompileError::Unsupported { loc, inst, .. } => {
                let d = ir::diagnostic::Diagnostic::new(*loc, "target-unsupported", self.to_string());
                vec![match inst {
                    Some(i) => d.at_inst(*i),
                    None => d,
                }]
            }
            _ => Vec::new(),
        }
    }
}

/// For each instruction of a legalized function, the input instruction it comes from, so that a
/// refusal of an instruction the legalizer made (a CAS loop's compare-and-swap, say) names the
/// input's instruction even in a function built in code, where no location tells them apart.
///
/// The legalizer gives every instruction it makes its anchor's location; [`Origins::legalize`]
/// runs it on a copy whose every instruction has a location of its own (the instruction's
/// number, in a column no text has), reads each result instruction's origin back from its
/// location, and then gives the result the input's real locations.
/// Indexed by the legalized instruction's number.
pub(crate) struct Origins(Vec<Option<ir::Inst>>);

/// The column that marks a location as an instruction number (no source line is that long).
const TRACE_COL: u32 = u32::MAX;

impl Origins {
    /// Legalizes `func` for `caps` into a copy with the input's locations, and the origins of
    /// its instructions; a refusal names the input's instruction and location.
    pub(crate) fn legalize(
        func: &ir::Function,
        caps: &atomc_lower::caps::TargetCaps,
    ) -> Result<(ir::Function, Origins), atomc_lower::legalize::Unsupported> {
        let mut out = func.clone();
        for inst in func.insts.keys() {
            out.inst_locs[inst] = ir::SrcLoc { line: inst.as_u32() + 1, col: TRACE_COL };
        }
        let result = atomc_lower::legalize::legalize(&mut out, caps);
        let mut origins = Vec::with_capacity(out.insts.len());
        for inst in out.insts.keys() {
            let loc = out.inst_locs[inst];
            let from = (loc.col == TRACE_COL && loc.line > 0).then(|| ir::Inst::from_u32(loc.line - 1));
            origins.push(from);
            out.inst_locs[inst] = from.map(|i| func.inst_locs[i]).unwrap_or_default();
        }
        let origins = Origins(origins);
        match result {
            Ok(_) => Ok((out, origins)),
            Err(mut errs) => {
                for e in &mut errs {
                    let from = origins.input(Some(e.inst));
                    e.loc = from.map(|i| func.inst_locs[i]).unwrap_or_default();
                    e.inst = from.unwrap_or(e.inst);
                }
                // The first in the text, as the legalizer orders them by their (real) location.
                errs.sort_by_key(|e| (e.loc.line, e.loc.col));
                Err(errs.swap_remove(0))
            }
        }
    }

    /// The input instruction `inst` (of the legalized function) comes from.
    pub(crate) fn input(&self, inst: Option<ir::Inst>) -> Option<ir::Inst> {
        self.0.get(inst?.as_u32() as usize).copied().flatten()
    }
}

/// A bug in atomc: one pass produced what a later one rejects. Each variant keeps the error
/// of the pass that found it, so a caller can tell which stage failed.
#[derive(Debug, thiserror::Error)]
pub enum InternalError {
    /// The legalizer produced IR the verifier rejects.
    #[error("legalized IR does not verify: {}", messages(.0))]
    LegalizedIr(Vec<ir::diagnostic::Diagnostic>),
    /// The selector produced an instruction no form of the target's table encodes.
    #[error("{}:{}: `{op}` on {target}: {reason}", .loc.line, .loc.col)]
    Unencodable {
        /// The target.
        target: Target,
        /// The IR instruction it was selecting.
        op: String,
        /// The instruction as selected, and why no form takes it.
        reason: String,
        /// Where the IR instruction is.
        loc: ir::SrcLoc,
    },
    /// Register allocation or its checkers failed.
    #[error("register allocation: {0}")]
    Allocation(#[from] atomc_regalloc::AllocError),
    /// An instruction made after selection has no form.
    #[error("instruction selection produced an unencodable instruction: {0}")]
    Emission(#[from] atomc_emit::codegen::EmitError),
    /// A finished instruction did not encode.
    #[error("encoding: {0}")]
    Encoding(#[from] atomc_emit::sass::EncodeError),
    /// The cubin writer refused the kernel's description.
    #[error("cubin: {0}")]
    Cubin(#[from] atomc_emit::cubin::CubinError),
    /// The PTX emitter failed on IR it should accept.
    #[error("PTX: {0}")]
    Ptx(atomc_lower::ptx::PtxError),
    /// The vISA lowering broke one of vISA's operand rules.
    #[error("vISA: {0}")]
    Visa(atomc_lower::visa::LowerError),
}

/// The messages of a verifier's diagnostics, on one line.
fn messages(diags: &[ir::diagnostic::Diagnostic]) -> String {
    diags.iter().map(|d| d.message.as_str()).collect::<Vec<_>>().join("; ")
}
