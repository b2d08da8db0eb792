//! From allocated machine code to SASS: block layout (jump threading,
//! fall-through), the dependency pass ([`schedule`]), then each instruction
//! printed in nvdisasm syntax and assembled by the architecture's form
//! table — the only place that knows bits — and encoded.

pub mod schedule;

use crate::sass::{Arch, Instr, Sched};
use atomc_lower::sass::{Flow, Latency, MOp, SassInst};
use atomc_lower::vcode::BlockId;
use atomc_regalloc::FinalCode;
use crate::sass::latency::Timing;
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

/// One instruction after layout: the machine instruction, its guard and
/// its branch target (block), if any.
struct Placed {
    inst: SassInst,
    target: Option<BlockId>,
    block_start: bool,
}

/// Lays out, schedules and assembles allocated code.
pub fn emit(code: &FinalCode<SassInst>, arch: &Arch) -> Result<SassKernel, EmitError> {
    let nblocks = code.blocks.len();
    // Jump threading: a block that is only `BRA X` forwards to X.
    let only_jump = |b: usize| -> Option<BlockId> {
        let r = &code.blocks[b];
        if r.end - r.start != 1 {
            return None;
        }
        let inst = &code.insts[r.start as usize];
        match (inst.flow, inst.ops.first()) {
            (Flow::Jump, Some(MOp::Label(t))) => Some(*t),
            _ => None,
        }
    };
    let resolve = |mut b: BlockId| {
        for _ in 0..nblocks {
            match only_jump(b.index()) {
                Some(t) if t != b => b = t,
                _ => break,
            }
        }
        b
    };
    let kept: Vec<usize> = (0..nblocks).filter(|&b| b == 0 || only_jump(b).is_none()).collect();

    // Loop headers: blocks some later (or the same) block branches back to. On sm_90 each gets
    // a `YIELD` so that threads of one warp spinning on each other (a lock, a look-back flag)
    // let the other path run; ptxas 13.5 puts one in every loop (`YIELD` before the
    // `ATOMG.E.CAS` of its CAS loops).
    let position: Vec<Option<usize>> = {
        let mut p = vec![None; nblocks];
        for (k, &b) in kept.iter().enumerate() {
            p[b] = Some(k);
        }
        p
    };
    let mut loop_header = vec![false; nblocks];
    if arch.name == "sm_90" {
        for (k, &b) in kept.iter().enumerate() {
            for idx in code.blocks[b].clone() {
                let targets: Vec<BlockId> = match code.insts[idx as usize].flow {
                    Flow::Jump => match code.insts[idx as usize].ops.first() {
                        Some(MOp::Label(t)) => vec![*t],
                        _ => vec![],
                    },
                    Flow::CondJump { then_block, else_block, .. } => vec![then_block, else_block],
                    _ => vec![],
                };
                for t in targets {
                    let t = resolve(t);
                    if position[t.index()].is_some_and(|pt| pt <= k) {
                        loop_header[t.index()] = true;
                    }
                }
            }
        }
    }

    // Flatten, expanding conditional branches and dropping jumps to the next block.
    let mut placed: Vec<Placed> = Vec::new();
    let mut block_first: Vec<Option<usize>> = vec![None; nblocks];
    for (k, &b) in kept.iter().enumerate() {
        let next = kept.get(k + 1).map(|&n| BlockId(n as u32));
        let range = code.blocks[b].clone();
        let start_len = placed.len();
        block_first[b] = Some(start_len);
        if loop_header[b] {
            placed.push(Placed { inst: SassInst::new("YIELD", [], Latency::Fixed(1)), target: None, block_start: false });
        }
        for idx in range {
            let inst = &code.insts[idx as usize];
            match inst.flow {
                Flow::Jump => {
                    let Some(MOp::Label(t)) = inst.ops.first() else { continue };
                    let t = resolve(*t);
                    if Some(t) != next {
                        placed.push(Placed { inst: SassInst::jump(t), target: Some(t), block_start: false });
                    }
                }
                Flow::CondJump { then_block, else_block, negate } => {
                    let (t, e) = (resolve(then_block), resolve(else_block));
                    // Branch on the inverted condition when the taken side is next.
                    let (t, e, negate) = if Some(t) == next { (e, t, !negate) } else { (t, e, negate) };
                    let mut br = SassInst::jump(t);
                    br.guard = Some((0, negate));
                    placed.push(Placed { inst: br, target: Some(t), block_start: false });
                    if Some(e) != next {
                        placed.push(Placed { inst: SassInst::jump(e), target: Some(e), block_start: false });
                    }
                }
                _ => placed.push(Placed { inst: inst.clone(), target: None, block_start: false }),
            }
        }
        if let Some(first) = placed.get_mut(start_len) {
            first.block_start = b != 0;
        }
    }
    // Blocks that were threaded away resolve to their final target's address.
    let addr_of_block = |b: BlockId, placed_len: usize| -> u64 {
        let b = resolve(b);
        let at = block_first[b.index()].unwrap_or(placed_len);
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
        let text = p.inst.text(&|b| format!("0x{:x}", addr_of_block(b, body_len)));
        let mut ins = assemble(arch, &text, addr)?;
        let s = sched[i];
        ins.sched = Sched { stall: s.stall, yield_: false, wr_sb: s.wr_sb, rd_sb: s.rd_sb, wait: s.wait, reuse: 0 };
        if p.inst.flow == Flow::Exit {
            exit_offsets.push(addr as u32);
        }
        let _ = p.target;
        instrs.push(ins);
    }
    let self_addr = arch.instr_addr(instrs.len());
    let self_target = arch.branch_addr(instrs.len());
    instrs.push(assemble(arch, &format!("BRA 0x{self_target:x} ;"), self_addr)?);
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
    // Predicates: the first operand of a SETP (or the carry of IADD3) is
    // written; a predicate operand anywhere else is read.
    for (k, op) in inst.ops.iter().enumerate() {
        if let MOp::Pred { num, .. } = op {
            if *num == 7 {
                continue;
            }
            let written = (inst.opcode.contains("SETP") && k == 0)
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
    let uniform_def = inst.opcode.starts_with('U') || inst.opcode.starts_with("S2UR");
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
        Latency::Variable => (None, false),
        Latency::Control => (None, true),
    };
    DepInfo { reads, guard, writes, pipe, reader: timing.reader(&inst.opcode, is_memory), barrier, block_start }
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
