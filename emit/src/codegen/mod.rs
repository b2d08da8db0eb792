//! From allocated machine code to SASS: block layout (jump threading,
//! fall-through), the dependency pass ([`schedule`]), then each instruction
//! made encodable: a selected instruction from the form it resolved to at
//! selection plus its allocated registers; one made after selection (moves,
//! spills, reconvergence, layout branches) resolved the same way here. The
//! architecture's form table is the only place that knows bits.

mod layout;
mod reconverge;
pub mod schedule;

use crate::sass::latency::{sm90_yield_hint, Timing};
use crate::sass::op::Opcode;
use crate::sass::written::Written;
use atomc_sass::op;
use crate::sass::{roles, Arch, Instr, Sched, Sm};
use atomc_lower::sass::{Flow, SassInst, SharedForms};
use atomc_lower::vcode::BlockId;
use atomc_regalloc::FinalCode;
use schedule::{DepInfo, SchedBits};

/// A finished kernel: its instructions with schedule fields, and their words.
#[derive(Clone, Debug)]
pub struct SassKernel {
    /// Instructions in address order (padding included).
    pub instrs: Vec<Instr>,
    /// Number of instructions before the end-of-kernel padding.
    pub body_len: usize,
    /// Byte offsets of every `EXIT`.
    pub exit_offsets: Vec<u32>,
}

/// Emission failed: an instruction the form table does not accept (a
/// selector bug, reported with the text it produced).
#[derive(Debug, thiserror::Error)]
#[error("cannot encode `{text}`: {reason}")]
pub struct EmitError {
    /// The nvdisasm-syntax text of the instruction.
    pub text: String,
    /// The assembler's complaint.
    pub reason: String,
}

/// Lays out, schedules and assembles allocated code: the pipeline of this module's passes.
pub fn emit(code: &FinalCode<SassInst>, arch: &Arch) -> Result<SassKernel, EmitError> {
    let mut blocks = layout::blocks(code);
    reconverge::insert(&mut blocks, arch.sm == Sm::Sm90);
    let (placed, block_first) = layout::flatten(blocks);
    let addr_of_block = |b: BlockId, placed_len: usize| -> u64 {
        let at = block_first.get(b.index()).copied().flatten().unwrap_or(placed_len);
        arch.branch_addr(at)
    };

    // End of kernel: a self-branch, then NOPs to a 128-byte boundary (as ptxas does).
    let body_len = placed.len();
    let timing = Timing::for_arch(arch);
    let mut instrs: Vec<Instr> = Vec::with_capacity(body_len + 8);
    // The dependency pass runs along: no list of every instruction's registers is kept, and
    // each instruction gets its fields while it is at hand.
    let mut scheduler = schedule::Scheduler::new(timing);
    // Whether the previous instruction has a fixed latency (its yield hint depends on it).
    let mut prev_fixed = false;
    let mut exit_offsets = Vec::new();
    // Instructions made or edited after selection (moves, spills, reconvergence, branches of
    // the layout) resolve here, through the thread's cache of shapes as at selection. Nothing
    // is printed and parsed: every instruction is encoded from its form and operand values.
    let mut forms = SharedForms::lend(arch);
    for (i, p) in placed.iter().enumerate() {
        let addr = arch.instr_addr(i);
        let label = |b: BlockId| addr_of_block(b, body_len);
        let mut typed = p.inst.typed(arch, addr, &label).ok_or_else(|| "a virtual register survived allocation".to_string());
        if typed.is_err() {
            let mut inst = SassInst::clone(&p.inst);
            typed = inst.resolve_cached(arch, &mut forms).and_then(|()| {
                inst.typed(arch, addr, &label).ok_or_else(|| "a virtual register survived allocation".to_string())
            });
        }
        let mut ins = typed.map_err(|reason| EmitError { text: p.inst.to_string(), reason })?;
        arch.encode_word(&ins).map_err(|e| EmitError { text: p.inst.to_string(), reason: e.to_string() })?;
        if p.inst.flow == Flow::Exit {
            exit_offsets.push(addr as u32);
        }
        // The dependency pass reads each instruction's registers and timing class off its form
        // (taken here, while the instruction is at hand).
        let dep = dep_info(arch, &ins, p.block_start, timing);
        let (bits, prev_stall) = scheduler.next(&dep);
        if let (Some(stall), Some(prev)) = (prev_stall, instrs.last_mut()) {
            // This instruction waits on the one before: that one stalls longer.
            prev.sched = sched_fields(arch, prev, SchedBits { stall, ..bits_of(prev.sched) }, prev_fixed);
        }
        prev_fixed = dep.pipe.is_some();
        ins.sched = sched_fields(arch, &ins, bits, prev_fixed);
        instrs.push(ins);
    }
    let self_addr = arch.instr_addr(instrs.len());
    let self_target = arch.branch_addr(instrs.len());
    let mut end = assemble(arch, op!(BRA), &[Written::Target(self_target as i64)], self_addr)?;
    // Never issued: ptxas 13.5 gives it stall 0 and no yield hint on sm_90 (nvdisasm then prints
    // `BRA 0xa0;`); ptxas 11.8's sm_50 code keeps the default.
    if arch.sm == Sm::Sm90 {
        end.sched = Sched { stall: 0, ..Sched::default() };
    }
    instrs.push(end);
    while !arch.is_padded(instrs.len()) {
        let addr = arch.instr_addr(instrs.len());
        instrs.push(assemble(arch, op!(NOP), &[], addr)?);
    }
    Ok(SassKernel { instrs, body_len, exit_offsets })
}

/// The schedule fields of `ins` from the dependency pass's `bits`; `fixed` says whether it is a
/// fixed-latency producer.
fn sched_fields(arch: &Arch, ins: &Instr, bits: SchedBits, fixed: bool) -> Sched {
    let facts = &arch.forms[ins.form as usize].facts;
    let yield_ = arch.sm == Sm::Sm90 && sm90_yield_hint(facts, fixed, bits.stall);
    Sched { stall: bits.stall, yield_, wr_sb: bits.wr_sb, rd_sb: bits.rd_sb, wait: bits.wait, reuse: 0 }
}

/// The dependency pass's part of `s`.
fn bits_of(s: Sched) -> SchedBits {
    SchedBits { stall: s.stall, wr_sb: s.wr_sb, rd_sb: s.rd_sb, wait: s.wait }
}

/// The instruction `opcode` with operands `ops` at byte address `addr`, for the code emission
/// adds after the kernel's own (the closing self-branch, padding).
fn assemble(arch: &Arch, opcode: Opcode, ops: &[Written], addr: u64) -> Result<Instr, EmitError> {
    arch.assemble_op(None, opcode, ops, addr).map_err(|e| EmitError { text: opcode.to_string(), reason: e.msg })
}

/// What the dependency pass needs of one instruction, from its form: the registers it reads and
/// writes ([`roles`]), its pipe and whether its result arrives after a variable delay (the
/// form's facts' variable-latency class, which the hazard check and the emulator apply too) or
/// it reads its operands late (memory instructions), and whether it orders everything before it
/// (`Facts::orders_everything`).
fn dep_info(arch: &Arch, ins: &Instr, block_start: bool, timing: Timing) -> DepInfo {
    let r = roles::roles(arch, ins);
    let facts = &arch.forms[ins.form as usize].facts;
    let barrier = facts.orders_everything();
    let pipe = timing.pipe_of(arch, ins);
    // A memory instruction reads its registers after it issues, so it is tracked by scoreboards
    // whether or not it has a result: later writes of its sources wait on its read scoreboard.
    // Conversions go by their class: the hazard check accepts ptxas reading an 8- or 16-bit one
    // at a fixed distance (`hazard::variable_result_of`), but no ptxas code shows that
    // distance to be at most the default latency, and the conversion unit signals a scoreboard.
    let variable = r.memory || facts.variable;
    DepInfo {
        reads: r.reads,
        guard: r.guard,
        writes: r.writes,
        pipe: (!barrier && !variable).then_some(pipe),
        reader: timing.reader_of(arch, ins, r.memory),
        barrier,
        block_start,
    }
}

impl SassKernel {
    /// The raw instruction words.
    pub fn bytes(&self, arch: &Arch) -> Result<Vec<u8>, crate::sass::EncodeError> {
        arch.encode_all(&self.instrs)
    }

    /// nvdisasm-style listing: `/*0040*/  INSTR ;` per line; with `sched`,
    /// each line ends with the schedule fields as a comment.
    pub fn listing(&self, arch: &Arch, sched: bool) -> String {
        let mut s = String::new();
        for (i, ins) in self.instrs.iter().enumerate() {
            let addr = arch.instr_addr(i);
            let text = if sched { arch.print_with_sched(ins, addr) } else { arch.print_at(ins, addr) };
            s.push_str(&format!("/*{addr:04x}*/  {text}\n"));
        }
        s
    }
}
