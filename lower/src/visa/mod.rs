//! IR → vISA: SIMT→SIMD widening of a legalized atomc function into a
//! [`visa::Kernel`](atomc_visa::Kernel).
//!
//! The input is the output of `crate::legalize` for a vISA capability
//! table: every atomic left in it is one `svm_atomic` (global), `dword_atomic`
//! or `lsc_atomic_icas.slm` ([`slm`], [`slm64`]) or `typed_atomic` ([`surface`])
//! can do natively, or a 64-bit CAS under a spinlock ([`slm_lock`],
//! [`surface_lock`]) (the rest are CAS loops, fences and plain ALU code by then;
//! f16 arithmetic goes through f32, [`half`]).
//!
//! # Widening
//!
//! A kernel runs `simd` lanes per hardware thread: 8 by default; 1, 2 and 4
//! (the other exec sizes `svm_atomic` has); or 16 and 32, where every
//! message is issued as SIMD8 pieces `(M1, 8)`, `(M3, 8)`, `(M5, 8)`,
//! `(M7, 8)` with payload offsets advanced by 8 lanes, as IGC does. Every IR
//! value becomes one vISA variable:
//!
//! * a **varying** value (anything that depends on a per-lane id, memory or
//!   a block parameter) is a GRF-aligned variable of `max(simd, 8)` elements,
//!   computed with `(M1, simd)` so that lanes switched off by SIMD control
//!   flow keep their old contents. Eight elements at least, because every
//!   `svm_*` message moves a full SIMD8 payload (visa.md §3);
//! * a **uniform** value (kernel parameters, block ids and sizes, constants,
//!   and anything computed only from those) is a one-element variable
//!   computed once with `(M1_NM, 1)` and read through the `<0;1,0>` region;
//! * constants stay immediates until an instruction needs them in a
//!   register (raw operands of messages);
//! * `pred` values are predicate variables of `simd` lanes.
//!
//! Element types: `i8`/`i16`/`i32`, `f16x2`, `bf16x2` → `ud` (narrow integers
//! zero-extended: one dword per lane, the layout `.16` atomics want), `i64`
//! and 64-bit pointers → `uq`, `f32` → `f`, `f64` → `df`. Signed, float and
//! 32-bit views of a variable are `alias=` declarations (a `bitcast` costs
//! nothing). 64-bit integer arithmetic is done on the `ud` halves with
//! `addc`/`subb`, because GenX_IR does not emulate 64-bit ALU ops on TGLLP
//! and DG2 (visa.md §2).
//!
//! # Control flow
//!
//! Blocks are laid out in reverse post-order. A branch on a varying
//! condition is a SIMD `goto` (lanes whose guard is set jump; a backward
//! `goto` parks the other lanes after it — the CAS retry loop shape of
//! visa.md §5 and of IGC). When no branch of the function is divergent,
//! branches are scalar `jmp (M1, 1)`. Block arguments are copied into the
//! target's parameter variables before the branch, under the branch
//! predicate. `return` jumps to the single `ret (M1, 1)` at the end.
//!
//! # Subgroups and aggregation
//!
//! The IR's subgroup is the thread's `simd` lanes and its active lanes are the channels the
//! execution mask enables ([`subgroup`]): SIMD `goto` parks the lanes of the other path until
//! the paths meet, as the IR's rule has them wait. Blocks holding a subgroup instruction are
//! never if-converted (a predicate would leave the skipped lanes enabled). A 32-bit atomic on
//! a uniform global address is one `(M1_NM, 1)` message with the lanes' operands combined
//! ([`aggregate`]).
//!
//! # Kernel ABI
//!
//! See [`abi`]: the launch fills `.input`s in GRF order: r0 is the thread
//! payload, then the per-lane thread ids and lane numbers the kernel uses
//! (`TID_X`, `TID_Y`, `TID_Z`, `LANE_ID`: `simd` × `ud`, each GRF aligned), then
//! one GRF with the uniform ids (`BLOCK_ID`, `BLOCK_DIM`, `GRID_DIM`: 4 × `ud`
//! each, x y z and a pad), then the kernel parameters in order, each at its
//! natural alignment (`i8`/`i16` zero-extended to a dword), then one surface
//! argument per bound surface slot used.

mod abi;
mod aggregate;
mod alu;
mod alu64;
mod bindless;
mod bits;
mod cfg;
mod fcmp64;
mod half;
mod mem;
mod numeric;
mod slm;
mod slm64;
mod slm_lock;
mod soft_arith;
mod soft_convert;
mod soft_divide;
mod soft_f64;
mod subgroup;
mod surface;
mod surface_lock;
mod surface_loop;
mod values;

use std::collections::HashMap;

use atomc_ir::{Block, Function, Value};

use atomc_visa::{validate, ExecSize, Kernel, LabelId, Platform, VarId, VisaRuleError};
use values::Loc;

/// Lowering options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Lanes per hardware thread: 1, 2, 4 or 8 (the `svm_atomic` exec
    /// sizes), or 16 or 32 (each message is then issued as SIMD8 pieces
    /// `(M1, 8)`, `(M3, 8)`, … like IGC's SIMD16/32 kernels).
    pub simd: ExecSize,
    /// Combine the lanes' atomics on a uniform address into one message ([`aggregate`]).
    pub aggregate: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options { simd: ExecSize::S8, aggregate: true }
    }
}

/// Why a function could not be lowered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LowerError {
    /// The IR uses something the vISA backend cannot express.
    #[error("visa:{platform} cannot express `{op}`: {reason}")]
    Unsupported {
        /// The platform.
        platform: Platform,
        /// The instruction, as the IR spells it.
        op: String,
        /// Why.
        reason: String,
        /// Where the instruction is (unknown for a construct of the whole function).
        loc: atomc_ir::SrcLoc,
        /// The instruction of the legalized function (none for the whole function).
        inst: Option<atomc_ir::Inst>,
    },
    /// A lowering bug: the kernel broke one of the emitter's operand rules.
    #[error("the lowered kernel breaks vISA operand rules: {}", .0.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; "))]
    Rules(Vec<VisaRuleError>),
}

/// Lowers a legalized kernel to vISA for `platform` and checks the result
/// against every operand rule of [`atomc_visa::validate`].
pub fn lower(func: &Function, platform: Platform, opts: &Options) -> Result<Kernel, LowerError> {
    let mut l = Lower::new(func, platform, *opts)?;
    l.run()?;
    let k = l.k;
    validate(&k, platform).map_err(|errs| {
        // A kernel too big for the `.isa` record fields (4095 predicates, 65535 labels) is a
        // limit of the format, not a lowering bug: refuse it like any other construct.
        match errs.iter().find(|e| e.rule == atomc_visa::Rule::Limits) {
            Some(e) if errs.iter().all(|e| e.rule == atomc_visa::Rule::Limits) => LowerError::Unsupported {
                platform,
                op: format!("function %{}", func.name),
                reason: format!("the kernel exceeds a vISA format limit: {}", e.message),
                loc: atomc_ir::SrcLoc::default(),
                inst: None,
            },
            _ => LowerError::Rules(errs),
        }
    })?;
    Ok(k)
}

/// The state of one lowering.
pub(crate) struct Lower<'f> {
    pub(crate) f: &'f Function,
    /// The source location of the instruction being lowered, for refusals.
    pub(crate) cur_loc: atomc_ir::SrcLoc,
    /// The instruction being lowered.
    pub(crate) cur_inst: Option<atomc_ir::Inst>,
    pub(crate) k: Kernel,
    pub(crate) p: Platform,
    pub(crate) simd: ExecSize,
    /// Where each IR value lives.
    pub(crate) vals: HashMap<Value, Loc>,
    /// `(variable, type)` → the alias viewing it with that type.
    pub(crate) views: HashMap<(VarId, atomc_visa::Type), VarId>,
    /// Block labels, created on first use.
    pub(crate) labels: HashMap<Block, LabelId>,
    /// The blocks in emission order.
    pub(crate) order: Vec<Block>,
    /// Whether some branch has a varying condition (then every branch is a
    /// SIMD `goto`).
    pub(crate) divergent: bool,
    /// Counter for temporaries.
    pub(crate) ntmp: u32,
    /// Implicit inputs already declared.
    pub(crate) implicit: HashMap<abi::Implicit, VarId>,
    /// The label of the final `ret`, when some `return` jumps to it.
    pub(crate) exit: Option<LabelId>,
    /// Values found uniform by [`values::analyze`].
    pub(crate) uniform_set: Option<crate::uniform::Uniformity>,
    /// Values some instruction reads.
    pub(crate) used_set: std::collections::HashSet<Value>,
    /// The guard of the memory instructions being emitted (inside an
    /// if-converted block).
    pub(crate) guard: Option<atomc_visa::Predicate>,
    /// Blocks emitted inline as predicated code: block → (branching block,
    /// whether it runs where the condition is true).
    pub(crate) ifconv: HashMap<Block, (Block, bool)>,
    /// Where broadcasts of a uniform value go: right after its definition
    /// (kernel start for parameters and constants).
    pub(crate) def_pos: HashMap<Value, usize>,
    /// Broadcasts made so far: (value, address offset, type, lane 0 only).
    pub(crate) bcast: HashMap<(Value, i32, atomc_visa::Type, bool), VarId>,
    /// Blocks ending in a branch on a varying condition.
    pub(crate) varying_branches: Vec<Block>,
    /// [`Options::aggregate`].
    pub(crate) aggregate: bool,
    /// Bound surface slots → their surface arguments ([`abi`]).
    pub(crate) surfaces: HashMap<u16, atomc_visa::SurfId>,
    /// The `SLM_LOCK` input of a TGLLP kernel with 64-bit SLM atomics ([`slm_lock`]).
    pub(crate) slm_lock: Option<VarId>,
    /// The `SURFACE_LOCK` input of a kernel with 64-bit surface atomics ([`surface_lock`]).
    pub(crate) surface_lock: Option<VarId>,
}

impl<'f> Lower<'f> {
    fn new(f: &'f Function, p: Platform, opts: Options) -> Result<Lower<'f>, LowerError> {
        let name = sanitize(&f.name);
        let l = Lower {
            f,
            cur_loc: Default::default(),
            cur_inst: None,
            k: Kernel::new(name),
            p,
            simd: opts.simd,
            vals: HashMap::new(),
            views: HashMap::new(),
            labels: HashMap::new(),
            order: Vec::new(),
            divergent: false,
            ntmp: 0,
            implicit: HashMap::new(),
            exit: None,
            uniform_set: None,
            used_set: Default::default(),
            guard: None,
            ifconv: HashMap::new(),
            varying_branches: Vec::new(),
            surfaces: HashMap::new(),
            def_pos: HashMap::new(),
            bcast: HashMap::new(),
            aggregate: opts.aggregate,
            slm_lock: None,
            surface_lock: None,
        };
        if opts.simd > ExecSize::S32 {
            return Err(l.unsupported("kernel", "SIMD width above 32"));
        }
        if !f.is_kernel() {
            return Err(l.unsupported(
                &format!("function %{}", f.name),
                "only kernels (functions without results) are lowered",
            ));
        }
        Ok(l)
    }

    /// An [`LowerError::Unsupported`] for `op`.
    pub(crate) fn unsupported(&self, op: &str, reason: &str) -> LowerError {
        LowerError::Unsupported {
            platform: self.p,
            op: op.to_string(),
            reason: reason.to_string(),
            loc: self.cur_loc,
            inst: self.cur_inst,
        }
    }

    fn run(&mut self) -> Result<(), LowerError> {
        self.order = cfg::reverse_post_order(self.f);
        values::analyze(self)?;
        cfg::find_if_conversions(self);
        abi::declare_params(self)?;
        cfg::declare_block_params(self)?;
        if let Some(lock) = self.slm_lock {
            slm_lock::prologue(self, lock);
        }
        let order = self.order.clone();
        let order: Vec<Block> = order.into_iter().filter(|b| !self.ifconv.contains_key(b)).collect();
        for (i, &b) in order.iter().enumerate() {
            let next = order.get(i + 1).copied();
            cfg::lower_block(self, b, next)?;
        }
        if let Some(exit) = self.exit {
            self.k.place(exit);
        }
        if self.k.insts.last().map(|i| i.op) != Some(atomc_visa::Op::Ret) || self.exit.is_some() {
            self.k.ret();
        }
        merge_fences(&mut self.k);
        Ok(())
    }
}

/// Lowers one non-terminator instruction.
pub(crate) fn lower_inst(l: &mut Lower<'_>, inst: atomc_ir::Inst) -> Result<(), LowerError> {
    use atomc_ir::InstData::*;
    l.cur_loc = l.f.inst_locs[inst];
    l.cur_inst = Some(inst);
    match l.f.insts[inst] {
        Load { .. }
        | Store { .. }
        | AtomicRmw { .. }
        | AtomicCas { .. }
        | AtomicLoad { .. }
        | AtomicStore { .. }
        | Fence { .. }
        | Barrier => mem::lower(l, inst)?,
        SurfaceRmw { .. } | SurfaceCas { .. } => surface::lower(l, inst)?,
        ref d if bits::handles(d) => bits::lower(l, inst)?,
        ref d if d.is_subgroup() => subgroup::lower(l, inst)?,
        _ => alu::lower(l, inst)?,
    }
    if let Some(r) = l.f.inst_result(inst) {
        if matches!(
            l.vals.get(&r),
            Some(values::Loc::Var { uniform: true, .. }) | Some(values::Loc::Zext { uniform: true, .. })
        ) {
            l.def_pos.insert(r, l.k.insts.len());
        }
    }
    Ok(())
}

impl Lower<'_> {
    /// Runs `emit` with its instructions going right after the definition
    /// of the uniform value `v` instead of here, so that one broadcast
    /// serves every later use (all of which the definition dominates).
    pub(crate) fn at_def<R>(&mut self, v: Value, emit: impl FnOnce(&mut Self) -> R) -> R {
        let pos = self.def_pos.get(&v).copied().unwrap_or(0).min(self.k.insts.len());
        let saved = std::mem::take(&mut self.k.insts);
        let r = emit(self);
        let new = std::mem::replace(&mut self.k.insts, saved);
        let n = new.len();
        self.k.insts.splice(pos..pos, new);
        for p in self.def_pos.values_mut() {
            if *p > pos {
                *p += n;
            }
        }
        r
    }
}

/// Merges back-to-back fences of one kind (global or local) into one
/// with the union of their options: the release fence of one atomic and
/// the acquire fence of the next, or an IR `fence` beside an ordered
/// atomic, need one wait, not two.
fn merge_fences(k: &mut Kernel) {
    use atomc_visa::{Ext, Op};
    let mut out: Vec<atomc_visa::Inst> = Vec::with_capacity(k.insts.len());
    for inst in k.insts.drain(..) {
        if let (Some(prev), Ext::Fence(f)) = (out.last_mut(), inst.ext) {
            if let (Op::Fence, Ext::Fence(p)) = (prev.op, prev.ext) {
                if p.local == f.local {
                    let mut m = p;
                    m.commit |= f.commit;
                    m.icache |= f.icache;
                    m.sampler |= f.sampler;
                    m.constant |= f.constant;
                    m.rw |= f.rw;
                    m.l1 |= f.l1;
                    prev.ext = Ext::Fence(m);
                    continue;
                }
            }
        }
        out.push(inst);
    }
    k.insts = out;
}

/// A vISA identifier from an IR name (`[A-Za-z0-9_.$-]+` → `[A-Za-z0-9_]`).
fn sanitize(name: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if !s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        s.insert(0, '_');
    }
    s
}
