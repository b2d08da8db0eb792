//! The operand rules atomc enforces on vISA before writing it.
//!
//! GenX_IR 1.0.12504 checks syntax and a few declarations, but compiles many
//! malformed kernels with exit status 0 into wrong Gen code (visa.md §4,
//! `reference/visa-samples/neg/results.md`). Every [`Rule`] below says what
//! it forbids and the evidence for it. Rules GenX_IR does enforce are
//! checked here too (marked "GenX_IR also rejects"), so a bad kernel fails
//! in atomc with a precise message rather than in the assembler.

use std::fmt;

use super::inst::{Ext, Inst, Op};
use super::kernel::{Kernel, VarId};
use super::types::{Align, Platform};

mod bindless;
mod insts;
mod message;
mod slm;
mod lsc;
mod typed;

pub use message::svm_data_type;
pub use slm::slm_data_type;

/// The rules. Evidence is in each variant's doc comment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Names are identifiers `[A-Za-z_][A-Za-z0-9_]*`, unique across
    /// variables, predicates and labels. GenX_IR also rejects redeclaration
    /// (`neg/decl_dup`); a label containing `$` can be declared but never
    /// referenced (visa.md §2).
    Name,
    /// A variable holds 1…4096 bytes. Larger ones compile silently with rc 0
    /// (visa.md §4 "variables larger than 4 KiB").
    VarSize,
    /// An alias lies inside its base variable, and its base is declared.
    /// `neg/decl_alias_oob` (16 × ud over 8 × ud) compiles silently.
    AliasBounds,
    /// Predicates have 1, 2, 4, 8, 16 or 32 lanes (GenX_IR's verifier also
    /// rejects others: `neg/decl_pred_3`, `neg/decl_pred_64`).
    PredSize,
    /// Inputs are aligned to their variable's alignment (GRF = the
    /// platform's GRF size) and type size: `neg/input_unaligned` (offset
    /// 300) compiles silently.
    InputAlign,
    /// Inputs start at or after the second GRF: r0 holds the thread's
    /// dispatch header. GenX_IR silently maps an input at offset 0 onto r0
    /// (measured on TGLLP: the atomic then reads its addresses from r0).
    InputR0,
    /// Inputs match their variable's size and do not overlap (GenX_IR's
    /// verifier also rejects both: `neg/input_size_mismatch`,
    /// `neg/input_overlap`).
    InputLayout,
    /// An instruction has exactly the operands its table entry lists, each
    /// of the slot's kind, and references declared variables, predicates and
    /// labels (GenX_IR rejects undefined names: `neg/undef_var`,
    /// `neg/pred_undeclared`; a wrong operand count or kind cannot even be
    /// written as text).
    OperandShape,
    /// Opcodes without a predicate field (`cmp`, `setp`, `min`, `max`,
    /// `label`, `fence`) carry no guard: the grammar has no place for it
    /// (visa.md §2) and the binary record no field, so it would be dropped.
    NoGuardField,
    /// `.sat` only on instructions with a general destination (it is
    /// encoded on the destination operand, visa.md §1.3).
    Saturation,
    /// The channel offset fits the exec size: `M`n starts at lane
    /// 4·(n-1), which must be a multiple of the exec size (SIMD8: M1/M3/M5/M7,
    /// SIMD16: M1/M5, SIMD32: M1) and stay below 32. `neg/emask_M2_simd8`
    /// prints an assert and silently compiles as M1.
    ExecMask,
    /// Region strides and widths are 0/1/2/4/8/16/32 (`.isa` region codes,
    /// visa.md §1.3); a destination stride is 1, 2 or 4 (GenX_IR rejects
    /// `<3>`: `neg/add_dst_region_bad`; `<0>` is meaningless for SIMD > 1);
    /// width ≥ 1.
    Region,
    /// A region stays inside its variable. `neg/add_row_oob` and
    /// `neg/add_src_crosses` only print a WARNING and compile.
    RegionBounds,
    /// A predicate used as a guard or written by `cmp`/`setp`/logic ops has
    /// at least as many lanes as the exec size (`neg/cmp_pred_size_mismatch`:
    /// SIMD16 `cmp` into an 8-lane predicate only warns).
    PredLanes,
    /// Operand types per opcode: logic ops and shifts take integers (or
    /// predicates for and/or/xor/not, all operands alike); `inv` takes
    /// floats; `addc`/`subb` take `ud`; `(~)` only on logic ops, `(-)`/
    /// `(abs)` never on them (IGC `IsaDescription.cpp` type masks).
    Types,
    /// No 64-bit ALU operand (`q`/`uq`/`df`) on ICLLP, TGLLP, DG2 or MTL,
    /// except a `mov` between 64-bit integer types (which GenX_IR splits
    /// into two dword moves): GenX_IR does not emulate them. `add` on `uq`
    /// compiles silently into a native `add (8|M0) …:uq` TGLLP does not
    /// have (measured); df conversions print `HWConformity.cpp:3131
    /// expecting int types`, MTL fails with "invalid encoding mode"
    /// (`visa-samples/q64`). Use `ud` aliases and `addc`.
    Alu64,
    /// Every label is placed exactly once and every jump target is placed
    /// (GenX_IR's verifier rejects undefined `goto` labels,
    /// `neg/goto_undefined_label`; with `-noverifyCISA` it segfaults).
    Labels,
    /// `jmp` is scalar: exec size 1 (every sample and IGC's output use
    /// `(M1, 1)`; divergent branches are `goto`).
    JmpScalar,
    /// The kernel ends with `ret`: `neg/no_ret` compiles with rc 0 into code
    /// that runs off the end.
    EndsWithRet,
    /// `svm_*` exec size: 1, 2, 4 or 8 for `svm_atomic` (seed 002 exec
    /// field; SIMD16/32 compile silently into a `send (16|M0)` with a 1-GRF
    /// return), 1…16 for `svm_gather`/`svm_scatter`.
    MsgExecSize,
    /// Addresses: a non-null `uq` variable, GRF aligned, holding a full
    /// SIMD8 payload of 8 × uq from the raw offset (seed 002 "Must have type
    /// UQ"; `neg/addr_ud_type` and `neg/addr_byte_aligned` compile silently;
    /// the message always reads 2 GRFs, visa.md §3).
    MsgAddress,
    /// Raw operands start on a GRF boundary of a GRF-aligned variable
    /// (GenX_IR's verifier rejects unaligned offsets,
    /// `neg/raw_offset_unaligned`; byte-aligned variables pass silently).
    RawAlign,
    /// Raw data operands hold a full SIMD8 payload from their offset (8
    /// dwords, or 8 qwords for `.64`): the message always moves that much
    /// (`neg/raw_offset_outofrange` only asserts; visa.md §3).
    RawBounds,
    /// `svm_atomic` src0 is `%null` exactly for inc/dec/predec (seed 002;
    /// `neg/inc_src0_nonnull` and `neg/add_src0_null` compile silently).
    AtomicSrc0,
    /// `svm_atomic` src1 is non-null exactly for cmpxchg/fcmpwr (seed 002;
    /// `neg/add_src1_nonnull`, `neg/cmpxchg_src1_null` compile silently).
    AtomicSrc1,
    /// `svm_atomic` data types: dst/src0/src1 share one type; imin/imax
    /// `d` (`q` for .64), float ops `f`, the others `ud` (`uq` for .64)
    /// (seed 002 notes; `neg/dst_f_for_add`, `neg/dst_uw_for_add`,
    /// `neg/add32_dst_uq`, `neg/add64_dst_ud` compile silently).
    AtomicTypes,
    /// `.16` only on TGLLP and newer (seed 002 `{TGLLP+}`; on BDW…ICLLP IGA
    /// decodes the message as `?`, visa.md §7).
    Atomic16Platform,
    /// No `.64` float atomics: fmin/fmax/fcmpwr/fadd/fsub `.64` produce a
    /// bogus "(32b)" float message with the 64-bit bit set on every
    /// platform (visa.md §4, §7).
    AtomicFloat64,
    /// fadd/fsub only on XeHP and newer, 32-bit only (IGC's
    /// `hasFP32GlobalAtomicAdd`; pre-XeHP they compile silently, visa.md §4,
    /// §6, §7).
    AtomicFaddPlatform,
    /// predec only before XeHP (IGC's `hasAtomicPreDec`, visa.md §6), and
    /// never in text: GenX_IR's parser has no spelling for it (`neg/op_predec`).
    AtomicPredec,
    /// `svm_gather`/`svm_scatter` blocks: 1, 4 or 8 bytes × 1, 2, 4 or 8
    /// blocks (the block-size and log2 block-count codes of the record),
    /// at most 512 data bytes per message: `svm_gather.8.8 (M1, 16)`
    /// (1 KiB) makes GenX_IR loop forever (measured on TGLLP and DG2).
    MsgBlocks,
    /// A fence whose only option is `.R` cannot be written as text: the
    /// lexer reads `.R` as a sampler channel (measured: "unexpected
    /// SAMPLER_CHANNEL"); add `.E` (commit) to it.
    FenceText,
    /// Format limits of the `.isa` record fields: at most 4095 predicates
    /// (12-bit id, visa.md §1.3), 65535 labels and 65535-byte names (UW
    /// counts/lengths). Row/column offsets (UB) and raw offsets (UW) are
    /// bounded by their Rust types.
    Limits,
    /// SLM messages (`dword_atomic`, `gather_scaled`, `scatter_scaled` on
    /// `%slm`): per-lane byte offsets in a GRF-aligned `ud` variable, exec size
    /// at most 16 (IGC DWORD_ATOMIC.md/GATHER_SCALED.md: offsets "Must have type
    /// UD"); `dword_atomic` has no `.64` (UQ is "SVM only") and no fadd/fsub;
    /// `cmpxchg.16` and `fcmpwr.16` are refused by GenX_IR 1.0.12504's verifier
    /// ("src1 in ISA_DWORD_ATOMIC inst must be V0 for non CMPXCHG operations",
    /// measured on TGLLP, DG2 and PVC); 1, 2 or 4 bytes per lane for the
    /// scaled gather/scatter.
    SlmMessage,
    /// `typed_atomic` (IGC TYPED_ATOMIC.md): exec size 8, `ud` coordinates
    /// (u never `%null`), 16- or 32-bit data (no `.64`), no fadd/fsub/predec;
    /// data types as `dword_atomic`'s. `gather4_typed`/`scatter4_typed`: exec size 8, `ud`
    /// coordinates, a channel mask, and `ud`/`d`/`f` data of one GRF per enabled channel.
    TypedMessage,
    /// `lsc_atomic_<op>.slm` (IGC LSC_UNTYPED.md): DG2 and PVC only; `icas`
    /// on `d64` (`uq`) data only (GenX_IR 1.0.12504: "LSC SLM D64 atomics only
    /// support icas"); `ud` addresses; exec size at most 16.
    LscMessage,
    /// `movs` writes `%bss(0)` from one scalar 32-bit integer (a `ud`/`d` variable read
    /// through `<0;1,0>`, or a `ud`/`d` immediate) at exec size 1, and a message on `%bss`
    /// comes after a `movs` to it. GenX_IR 1.0.12504 compiles every breach silently into wrong
    /// code (measured on TGLLP): `%bss(1)` and `movs` to `%slm` leave the message's descriptor
    /// (a0.0) uninitialised, as does a `%bss` message with no `movs` before it; a `uw` source
    /// is read as a `ud` (two elements); `movs (M1_NM, 8)` keeps lane 0 only.
    Bindless,
}

/// One violation: the rule, the instruction index (if any) and a message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct VisaRuleError {
    /// The rule broken.
    pub rule: Rule,
    /// Index into [`Kernel::insts`], `None` for declaration rules.
    pub inst: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for VisaRuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.inst {
            Some(i) => write!(f, "instruction {i}: {:?}: {}", self.rule, self.message),
            None => write!(f, "{:?}: {}", self.rule, self.message),
        }
    }
}

/// Collects violations.
pub(crate) struct Checker<'k> {
    pub(crate) k: &'k Kernel,
    pub(crate) p: Platform,
    pub(crate) errs: Vec<VisaRuleError>,
    pub(crate) at: Option<usize>,
}

impl Checker<'_> {
    pub(crate) fn err(&mut self, rule: Rule, message: impl Into<String>) {
        self.errs.push(VisaRuleError {
            rule,
            inst: self.at,
            message: message.into(),
        });
    }

    /// Byte alignment a variable's declaration guarantees (aliases: that of
    /// their base at their offset).
    pub(crate) fn var_align(&self, v: VarId) -> u32 {
        let mut v = v;
        let mut off = 0u32;
        for _ in 0..=self.k.vars.len() {
            let Some(d) = self.k.var(v) else { return 1 };
            match d.alias {
                Some((base, o)) => {
                    off += o as u32;
                    v = base;
                }
                None => {
                    let a = self.align_bytes(d.align).max(1);
                    // The largest power of two dividing both.
                    let g = if off == 0 {
                        a
                    } else {
                        a.min(1 << off.trailing_zeros())
                    };
                    return g;
                }
            }
        }
        1
    }

    pub(crate) fn align_bytes(&self, a: Align) -> u32 {
        match a {
            Align::Byte => 1,
            Align::Word => 2,
            Align::Dword => 4,
            Align::Qword => 8,
            Align::Oword => 16,
            Align::Grf => self.p.grf_bytes(),
            Align::Grf2 => 2 * self.p.grf_bytes(),
            Align::Hword => 32,
            Align::Wordx32 => 64,
        }
    }
}

/// [`validate`] plus the rules that only matter when the kernel is written
/// as `.visaasm`: `predec` has no text spelling (`neg/op_predec`), so
/// only the `.isa` output can carry it.
pub fn validate_for_text(k: &Kernel, platform: Platform) -> Result<(), Vec<VisaRuleError>> {
    let mut errs = validate(k, platform).err().unwrap_or_default();
    for (i, inst) in k.insts.iter().enumerate() {
        if let Ext::Atomic(super::inst::AtomicOp::PreDec, _) = inst.ext {
            errs.push(VisaRuleError {
                rule: Rule::AtomicPredec,
                inst: Some(i),
                message: "predec has no .visaasm spelling; emit .isa".into(),
            });
        }
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(errs)
    }
}

/// Checks every rule; returns all violations.
pub fn validate(k: &Kernel, platform: Platform) -> Result<(), Vec<VisaRuleError>> {
    let mut c = Checker {
        k,
        p: platform,
        errs: Vec::new(),
        at: None,
    };
    decls(&mut c);
    labels(&mut c);
    for (i, inst) in k.insts.iter().enumerate() {
        c.at = Some(i);
        if !insts::shape(&mut c, inst) {
            continue;
        }
        insts::common(&mut c, inst);
        match inst.op {
            Op::SvmAtomic | Op::SvmGather | Op::SvmScatter => message::check(&mut c, inst),
            Op::DwordAtomic | Op::GatherScaled | Op::ScatterScaled => slm::check(&mut c, inst),
            Op::TypedAtomic => typed::check(&mut c, inst),
            Op::ResInfo => typed::resinfo(&mut c, inst),
            Op::Movs => bindless::movs(&mut c, inst),
            Op::Gather4Typed | Op::Scatter4Typed => typed::read_write(&mut c, inst),
            Op::LscSlmAtomic => lsc::check(&mut c, inst),
            Op::Barrier => {}
            Op::Fence => {
                if let Ext::Fence(f) = inst.ext {
                    if !f.has_text_form() {
                        c.err(
                            Rule::FenceText,
                            "`fence_global.R` has no text spelling; add .E",
                        );
                    }
                }
            }
            _ => insts::alu(&mut c, inst),
        }
    }
    bindless::set_before_use(&mut c);
    c.at = None;
    if k.insts.last().map(|i| i.op) != Some(Op::Ret) {
        c.err(Rule::EndsWithRet, "the last instruction must be `ret`");
    }
    if c.errs.is_empty() {
        Ok(())
    } else {
        Err(c.errs)
    }
}

fn is_ident(s: &str) -> bool {
    let mut ch = s.chars();
    matches!(ch.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && ch.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn decls(c: &mut Checker<'_>) {
    let k = c.k;
    let mut seen = std::collections::HashSet::new();
    let names = k
        .vars
        .iter()
        .map(|v| v.name.as_str())
        .chain(k.preds.iter().map(|p| p.name.as_str()))
        .chain(k.labels.iter().map(|l| l.as_str()))
        .chain(k.surfaces.iter().map(|t| t.name.as_str()));
    for n in names {
        if !is_ident(n) {
            c.err(Rule::Name, format!("`{n}` is not an identifier"));
        } else if !seen.insert(n) {
            c.err(Rule::Name, format!("`{n}` is declared twice"));
        }
    }
    if let Some(n) = k.simd_size {
        if !matches!(n, 8 | 16 | 32) {
            c.err(Rule::Limits, format!("SimdSize={n} (8, 16 or 32)"));
        }
    }
    if k.preds.len() > 4095 {
        c.err(
            Rule::Limits,
            format!("{} predicates (at most 4095)", k.preds.len()),
        );
    }
    if k.labels.len() > 65535 || k.vars.len() > u32::MAX as usize - 32 || k.surfaces.len() > 249 {
        c.err(Rule::Limits, "too many labels or variables");
    }
    if let Some(n) = std::iter::once(&k.name)
        .chain(k.vars.iter().map(|v| &v.name))
        .chain(k.preds.iter().map(|p| &p.name))
        .chain(k.labels.iter())
        .find(|n| n.len() > 65535)
    {
        c.err(Rule::Limits, format!("a name of {} bytes", n.len()));
    }
    if !is_ident(&k.name) {
        c.err(
            Rule::Name,
            format!("kernel name `{}` is not an identifier", k.name),
        );
    }
    for (i, v) in k.vars.iter().enumerate() {
        let bytes = v.bytes();
        if v.num_elts == 0 || bytes > 4096 {
            c.err(
                Rule::VarSize,
                format!("`{}` has {bytes} bytes (1..=4096 allowed)", v.name),
            );
        }
        if let Some((base, off)) = v.alias {
            match k.var(base) {
                Some(b) if base.0 as usize != i => {
                    if off as u32 + bytes > b.bytes() {
                        c.err(
                            Rule::AliasBounds,
                            format!(
                                "alias `{}` (+{off}, {bytes} B) overruns `{}` ({} B)",
                                v.name,
                                b.name,
                                b.bytes()
                            ),
                        );
                    }
                }
                _ => c.err(
                    Rule::AliasBounds,
                    format!("alias `{}` has no valid base", v.name),
                ),
            }
        }
    }
    for p in &k.preds {
        if !matches!(p.num_elts, 1 | 2 | 4 | 8 | 16 | 32) {
            c.err(
                Rule::PredSize,
                format!("predicate `{}` has {} lanes", p.name, p.num_elts),
            );
        }
    }
    let mut ranges: Vec<(u32, u32, &str)> = Vec::new();
    for inp in &k.inputs {
        let Some(v) = k.var(inp.var) else {
            c.err(Rule::InputLayout, "input of an undeclared variable");
            continue;
        };
        if inp.size as u32 != v.bytes() {
            c.err(
                Rule::InputLayout,
                format!(
                    "input `{}` size {} != variable size {}",
                    v.name,
                    inp.size,
                    v.bytes()
                ),
            );
        }
        let need = c.var_align(inp.var).max(v.ty.size());
        if !(inp.offset as u32).is_multiple_of(need) {
            c.err(
                Rule::InputAlign,
                format!(
                    "input `{}` at {} is not {need}-byte aligned",
                    v.name, inp.offset
                ),
            );
        }
        if (inp.offset as u32) < c.p.grf_bytes() {
            c.err(
                Rule::InputR0,
                format!("input `{}` at {} overlaps r0", v.name, inp.offset),
            );
        }
        let (lo, hi) = (inp.offset as u32, inp.offset as u32 + inp.size as u32);
        for &(l, h, other) in &ranges {
            if lo < h && l < hi {
                c.err(
                    Rule::InputLayout,
                    format!("input `{}` overlaps `{other}`", v.name),
                );
            }
        }
        ranges.push((lo, hi, v.name.as_str()));
    }
}

fn labels(c: &mut Checker<'_>) {
    let k = c.k;
    let mut placed = vec![0u32; k.labels.len()];
    for inst in &k.insts {
        if inst.op == Op::Label {
            if let Some(super::operand::Operand::Label(l)) = inst.operands.first() {
                if let Some(n) = placed.get_mut(l.0 as usize) {
                    *n += 1;
                }
            }
        }
    }
    for (i, n) in placed.iter().enumerate() {
        if *n > 1 {
            c.err(
                Rule::Labels,
                format!("label `{}` is placed {n} times", k.labels[i]),
            );
        }
    }
    for (idx, inst) in k.insts.iter().enumerate() {
        if matches!(inst.op, Op::Jmp | Op::Goto) {
            if let Some(super::operand::Operand::Label(l)) = inst.operands.first() {
                if placed.get(l.0 as usize).copied().unwrap_or(0) == 0 {
                    c.at = Some(idx);
                    c.err(Rule::Labels, "jump to a label that is never placed");
                    c.at = None;
                }
            }
        }
    }
}

/// Whether an instruction's extra matches its opcode.
pub(crate) fn ext_matches(inst: &Inst) -> bool {
    matches!(
        (inst.op, inst.ext),
        (Op::Cmp, Ext::Relop(_))
            | (Op::SvmAtomic, Ext::Atomic(..))
            | (Op::Fence, Ext::Fence(_))
            | (Op::SvmGather | Op::SvmScatter, Ext::Blocks(_))
            | (Op::DwordAtomic | Op::TypedAtomic | Op::LscSlmAtomic, Ext::Atomic(..))
            | (Op::GatherScaled | Op::ScatterScaled, Ext::Scaled(_))
            | (Op::ResInfo | Op::Gather4Typed | Op::Scatter4Typed, Ext::Channels(_))
    ) || (!matches!(
        inst.op,
        Op::Cmp
            | Op::SvmAtomic
            | Op::Fence
            | Op::SvmGather
            | Op::SvmScatter
            | Op::DwordAtomic
            | Op::TypedAtomic
            | Op::LscSlmAtomic
            | Op::GatherScaled
            | Op::ScatterScaled
            | Op::ResInfo
            | Op::Gather4Typed
            | Op::Scatter4Typed
    ) && inst.ext == Ext::None)
}
