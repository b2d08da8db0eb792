//! From allocated machine code to SASS: block layout (jump threading,
//! fall-through), the dependency pass ([`schedule`]), then each instruction
//! made encodable: a selected instruction from the form it resolved to at
//! selection plus its allocated registers; one made after selection (moves,
//! spills, reconvergence, layout branches) printed in nvdisasm syntax and
//! assembled. The architecture's form table is the only place that knows bits.

mod layout;
mod reconverge;
pub mod schedule;

use crate::sass::latency::{sm90_yield_hint, Pipe, Timing};
use crate::sass::{Arch, Instr, Sched};
use atomc_lower::sass::{Flow, Latency, MOp, SassInst};
use atomc_lower::vcode::BlockId;
use atomc_regalloc::FinalCode;
use schedule::DepInfo;

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
    reconverge::insert(&mut blocks, arch.name == "sm_90");
    let (placed, block_first) = layout::flatten(&blocks);
    let addr_of_block = |b: BlockId, placed_len: usize| -> u64 {
        let at = block_first.get(b.index()).copied().flatten().unwrap_or(placed_len);
        arch.branch_addr(at)
    };

    // End of kernel: a self-branch, then NOPs to a 128-byte boundary (as ptxas does).
    let body_len = placed.len();
    let timing = Timing::for_arch(arch.name);
    let deps: Vec<DepInfo> = placed.iter().map(|p| dep_info(&p.inst, p.block_start, timing)).collect();
    let sched = schedule::schedule(&deps, timing);

    let mut instrs = Vec::with_capacity(body_len + 8);
    let mut exit_offsets = Vec::new();
    for (i, p) in placed.iter().enumerate() {
        let addr = arch.instr_addr(i);
        // The form chosen at selection, with the allocated registers; instructions made after
        // selection (moves, spills, reconvergence, branches of the layout) are assembled.
        let mut ins = match p.inst.typed(arch, addr, &|b| addr_of_block(b, body_len)) {
            Some(ins) => {
                arch.encode_word(&ins).map_err(|e| EmitError { text: p.inst.to_string(), reason: e.to_string() })?;
                ins
            }
            None => assemble(arch, &p.inst.text(&|b| format!("0x{:x}", addr_of_block(b, body_len))), addr)?,
        };
        let s = sched[i];
        // Fixed latency as the scheduler saw it (a pipe, no scoreboard).
        let mnemonic = arch.forms[ins.form as usize].mnemonic;
        let yield_ = arch.name == "sm_90" && sm90_yield_hint(mnemonic, deps[i].pipe.is_some(), s.stall);
        ins.sched = Sched { stall: s.stall, yield_, wr_sb: s.wr_sb, rd_sb: s.rd_sb, wait: s.wait, reuse: 0 };
        if p.inst.flow == Flow::Exit {
            exit_offsets.push(addr as u32);
        }
        instrs.push(ins);
    }
    let self_addr = arch.instr_addr(instrs.len());
    let self_target = arch.branch_addr(instrs.len());
    let mut end = assemble(arch, &format!("BRA 0x{self_target:x} ;"), self_addr)?;
    // Never issued: ptxas 13.5 gives it stall 0 and no yield hint on sm_90 (nvdisasm then prints
    // `BRA 0xa0;`); ptxas 11.8's sm_50 code keeps the default.
    if arch.name == "sm_90" {
        end.sched = Sched { stall: 0, ..Sched::default() };
    }
    instrs.push(end);
    while !arch.is_padded(instrs.len()) {
        let addr = arch.instr_addr(instrs.len());
        instrs.push(assemble(arch, "NOP ;", addr)?);
    }
    Ok(SassKernel { instrs, body_len, exit_offsets })
}

fn assemble(arch: &Arch, text: &str, addr: u64) -> Result<Instr, EmitError> {
    match arch.assemble_line(text, addr) {
        Ok(Some(ins)) => Ok(ins),
        Ok(None) => Err(EmitError { text: text.into(), reason: "no instruction".into() }),
        Err(e) => Err(EmitError { text: text.into(), reason: e.msg }),
    }
}

fn dep_info(inst: &SassInst, block_start: bool, timing: Timing) -> DepInfo {
    let (reads, writes) = inst.hw_regs();
    let mut reads: Vec<u16> = reads.iter().map(|&r| r as u16).collect();
    let mut writes: Vec<u16> = writes.iter().map(|&r| r as u16).collect();
    // A bindless surface handle is a 64-bit pair though the field names its first register
    // (the rule checker's width 1): the instruction reads both halves, so a write of the high
    // half right before it must be waited for (sm_50's hazard check: `MOV R5, c[0x0][0x144]`
    // then `SUATOM.D.1D.CAS.U64.IGN RZ, [R8], R0, R4` needs 2 cycles).
    if let atomc_lower::vcode::RegForm::SurfaceAtom { bindless: true, .. } = inst.form {
        if let Some(MOp::Reg { reg: atomc_lower::vcode::Reg::Hw(r), width: 1, .. }) = inst.ops.last() {
            reads.push(r.number() as u16 + 1);
        }
    }
    // Predicates: the first operand of a SETP or LOP3 (or the carry of IADD3) is
    // written; a predicate operand anywhere else is read.
    for (k, op) in inst.ops.iter().enumerate() {
        if let MOp::Pred { num, .. } = op {
            if *num == 7 {
                continue;
            }
            let written = ((inst.opcode.contains("SETP") || inst.opcode.starts_with("LOP3")) && k == 0)
                || (inst.opcode == "IADD3" && k == 1 && matches!(inst.ops[0], MOp::Reg { .. }));
            if written {
                writes.push(256 + *num as u16);
            } else {
                reads.push(256 + *num as u16);
            }
        }
    }
    // Uniform registers (numbered after the predicates and carry, as in `sass::roles`): the
    // first operand of a uniform-datapath instruction or S2UR is written, any other is read.
    let uniform_def = inst.opcode.starts_with('U') || inst.opcode.starts_with("S2UR") || inst.opcode.starts_with("VOTEU") || inst.opcode.starts_with("REDUX");
    for (k, op) in inst.ops.iter().enumerate() {
        match op {
            MOp::UReg(n) if *n != 63 => {
                let loc = crate::sass::roles::UR_BASE + *n as u16;
                if k == 0 && uniform_def {
                    writes.push(loc);
                } else {
                    reads.push(loc);
                }
            }
            MOp::Mem { ubase: Some(n), .. } => reads.push(crate::sass::roles::UR_BASE + *n as u16),
            _ => {}
        }
    }
    let guard = inst.guard.map(|(p, _)| 256 + p as u16);
    // sm_50 carry chains: `IADD.CC` writes the condition-code register, `.X` forms read it.
    if inst.opcode.ends_with(".CC") {
        writes.push(schedule::CARRY);
    }
    if inst.opcode.split('.').any(|t| t == "X") {
        reads.push(schedule::CARRY);
    }
    let is_memory = inst.ops.iter().any(|op| matches!(op, MOp::Mem { .. }));
    let (pipe, barrier) = match inst.latency {
        Latency::Fixed(_) => (Some(timing.pipe(&inst.opcode)), false),
        // The selector marks the FP64 instructions variable-latency, as they are on sm_50; on
        // sm_90 they are on a fixed-latency pipe, where a scoreboard signals nothing
        // (`hazard::signals_scoreboard`, seen on an H100), so they are spaced by the pipe's latency.
        Latency::Variable if !fixed_pipe_has_scoreboard(timing, &inst.opcode) => (Some(timing.pipe(&inst.opcode)), false),
        Latency::Variable => (None, false),
        Latency::Control => (None, true),
    };
    DepInfo { reads, guard, writes, pipe, reader: timing.reader(&inst.opcode, is_memory), barrier, block_start }
}

/// Whether a variable-latency selection of `opcode` keeps its scoreboard on this target: every
/// instruction outside the fixed-latency pipes does, and those in them only when the timing
/// table says their results are variable.
fn fixed_pipe_has_scoreboard(timing: Timing, opcode: &str) -> bool {
    let mnemonic = opcode.split('.').next().unwrap_or("");
    timing.pipe(opcode) == Pipe::Other || crate::sass::hazard::variable_result(timing, mnemonic)
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
