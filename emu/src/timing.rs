//! The timing model of the schedule fields, checked as the code runs.
//!
//! Per warp, the issue cycle advances by each instruction's stall (sm_50: a stall of 12..15
//! with the no-yield bit counts 6, as [`hazard::effective_stall`] says). The rules are those
//! ptxas's code is calibrated on (see `atomc_emit::sass::latency` and `hazard`), applied to the
//! path the warp actually takes:
//!
//! * a fixed-latency result is readable `latency(pipe, reader)` cycles after its producer
//!   issued;
//! * a variable-latency result (loads, atomics, `S2R`, `LDC`, ...: [`hazard::signals_scoreboard`],
//!   which a write scoreboard on a fixed-latency pipe's instruction does not make one) is
//!   readable, or overwritable, only after a wait on the scoreboard its producer set;
//! * a late reader's sources (read scoreboard) are overwritten only after a wait on it;
//! * a wait is effective only 2 or more cycles after the scoreboard was set.
//!
//! Pending facts carry the lanes of the producing group, so that the divergent paths of one
//! sm_90 warp do not see each other's registers (or scoreboard sets) as hazards; a wait clears
//! a scoreboard for the whole warp, as on the hardware.

use atomc_emit::sass::hazard;
use atomc_emit::sass::latency::{Pipe, Reader, Timing};
use atomc_emit::sass::roles::{self, is_pred_loc, Loc, Roles};
use atomc_emit::sass::{Arch, ExtSpec, Instr, OpSpec, Operand, Sched};
use smallvec::SmallVec;
use std::collections::{HashMap, HashSet};

/// What the model needs of one instruction, computed once per slot.
pub struct SlotInfo {
    pub roles: Roles,
    pub variable: bool,
    pub pipe: Pipe,
    pub reader: Reader,
    pub unit: &'static str,
    /// Scoreboards an sm_50 `DEPBAR` waits on: its set `{5,1}` and, for `.LE SBn, count`, SBn
    /// (taken as a full wait whatever the count: ptxas's code waits on what it reads next).
    pub depbar: u8,
    /// Its predicate result is not scoreboarded ([`hazard::predicate_at_issue`]).
    pub pred_at_issue: bool,
}

impl SlotInfo {
    pub fn new(arch: &Arch, ins: &Instr) -> SlotInfo {
        let t = Timing::for_arch(arch);
        let roles = roles::roles(arch, ins);
        let form = &arch.forms[ins.form as usize];
        let mut depbar = 0u8;
        if form.facts.partial_wait {
            for (spec, op) in form.ops.iter().zip(&ins.ops) {
                match (spec, op) {
                    (OpSpec::Ext(ExtSpec::SbSet { .. }), Operand::Imm(m)) => depbar |= *m as u8 & 0x3f,
                    (OpSpec::Ext(ExtSpec::SbReg { .. }), Operand::Imm(n)) if *n < 6 => depbar |= 1 << *n,
                    _ => {}
                }
            }
        }
        SlotInfo {
            depbar,
            pred_at_issue: hazard::predicate_at_issue(arch, ins),
            variable: hazard::signals_scoreboard(t, arch, ins),
            pipe: t.pipe_of(arch, ins),
            reader: t.reader_of(arch, ins, roles.memory),
            unit: hazard::unit(arch, ins),
            roles,
        }
    }
}

/// A rule broken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Broken {
    WaitTooEarly { sb: u8, cycles: u64 },
    MissingWait { sb: u8 },
    SourceOverwritten { sb: u8 },
    StallTooShort { need: u8, got: u64 },
}

/// A hazard: the register, the producer's slot and the rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    pub loc: Loc,
    pub producer: usize,
    pub broken: Broken,
}

impl Found {
    pub fn what(&self) -> String {
        match self.broken {
            Broken::WaitTooEarly { sb, cycles } => {
                format!("waits on SB{sb} {cycles} cycle(s) after it was set (needs 2) by")
            }
            Broken::MissingWait { sb } => format!(
                "uses it without waiting on SB{} set by",
                if sb == 7 { "-".to_string() } else { sb.to_string() }
            ),
            Broken::SourceOverwritten { sb } => format!("overwrites it before the wait on SB{sb} of its late reader"),
            Broken::StallTooShort { need, got } => format!("reads it {got} cycle(s) (needs {need}) after"),
        }
    }
}

type Pending = SmallVec<[(u8, usize, u32); 2]>;

/// One warp's pending facts.
#[derive(Default)]
pub struct WarpTiming {
    fixed: HashMap<Loc, (u64, Pipe, usize, u32)>,
    var_w: HashMap<Loc, Pending>,
    var_r: HashMap<Loc, Pending>,
    sb_set: [Option<(u64, usize, u32)>; 6],
    /// Slots that read their sources late and are memory instructions.
    memory_readers: HashSet<usize>,
}

impl WarpTiming {
    /// Checks the issue of slot `i` (`ins` of `arch`, `info`, `sched`) by lanes `group` at
    /// `cycle`.
    #[allow(clippy::too_many_arguments)]
    pub fn issue(
        &mut self,
        t: Timing,
        arch: &Arch,
        ins: &Instr,
        info: &SlotInfo,
        i: usize,
        sched: &Sched,
        group: u32,
        cycle: u64,
    ) -> Result<(), Found> {
        for sb in 0..6u8 {
            if (sched.wait | info.depbar) & (1 << sb) == 0 {
                continue;
            }
            // `DEPBAR` itself waits until the scoreboard is released: no 2-cycle rule.
            let early_ok = sched.wait & (1 << sb) == 0;
            if let (Some((set, p, m)), false) = (self.sb_set[sb as usize], early_ok) {
                // A set by another divergent path of the warp is not this path's producer (the
                // switch between paths takes longer than the scoreboard's update).
                if m & group != 0 && cycle < set + 2 {
                    return Err(Found {
                        loc: 0,
                        producer: p,
                        broken: Broken::WaitTooEarly { sb, cycles: cycle - set },
                    });
                }
            }
            // An instruction writes its result after reading its sources: a wait on its write
            // scoreboard covers its read scoreboard too.
            let writers = self.var_w.values().flatten().filter(|e| e.0 == sb).map(|e| e.1);
            let done: SmallVec<[usize; 4]> = writers.chain(self.sb_set[sb as usize].map(|s| s.1)).collect();
            self.sb_set[sb as usize] = None;
            for m in [&mut self.var_w, &mut self.var_r] {
                m.values_mut().for_each(|s| s.retain(|(b, _, _)| *b != sb));
                m.retain(|_, s| !s.is_empty());
            }
            self.var_r.values_mut().for_each(|s| s.retain(|e| !done.contains(&e.1)));
            self.var_r.retain(|_, s| !s.is_empty());
        }
        let r = &info.roles;
        let reads = r.reads.iter().map(|&l| (l, info.reader)).chain(r.guard.map(|g| (g, Reader::Guard)));
        for (l, how) in reads {
            if let Some(&(sb, p, _)) = self.var_w.get(&l).and_then(|s| s.iter().find(|e| e.2 & group != 0)) {
                return Err(Found { loc: l, producer: p, broken: Broken::MissingWait { sb } });
            }
            if let Some(&(c, pipe, p, m)) = self.fixed.get(&l) {
                // Operands read after issue (the `.WIDE` addend's high word, an FP64 result in
                // `MUFU`) are the static check's facts: one rule for both.
                let late = hazard::read_late(t, arch, ins, l, pipe);
                let need = t.latency(pipe, is_pred_loc(l), how).saturating_sub(late);
                if m & group != 0 && cycle < c + need as u64 {
                    return Err(Found { loc: l, producer: p, broken: Broken::StallTooShort { need, got: cycle - c } });
                }
            }
        }
        // A memory instruction writes its result after reading its own operands, and memory
        // instructions read theirs in issue order: ptxas 13.5 lets `LDS.64 R18` overwrite the R18
        // an earlier `STG.E.64 [R26], R18` has still to read, with no wait (the same rule as the
        // static check in `atomc_emit::sass::hazard`).
        let late_memory_write = r.memory && info.variable;
        for &l in &r.writes {
            if let Some(&(sb, p, _)) = self.var_r.get(&l).and_then(|s| {
                s.iter().find(|e| {
                    e.1 != i && e.2 & group != 0 && !(late_memory_write && self.memory_readers.contains(&e.1))
                })
            }) {
                return Err(Found { loc: l, producer: p, broken: Broken::SourceOverwritten { sb } });
            }
            if let Some(&(sb, p, _)) = self.var_w.get(&l).and_then(|s| s.iter().find(|e| e.2 & group != 0)) {
                return Err(Found { loc: l, producer: p, broken: Broken::MissingWait { sb } });
            }
        }
        Ok(())
    }

    /// Records the effects of slot `i` after a clean [`WarpTiming::issue`]. `unit_of` gives the
    /// completion unit of a slot (results of one unit complete in order, so a later
    /// scoreboard of the unit also covers its earlier unsignalled results).
    pub fn record(
        &mut self,
        info: &SlotInfo,
        i: usize,
        sched: &Sched,
        group: u32,
        cycle: u64,
        unit_of: &dyn Fn(usize) -> Option<&'static str>,
    ) {
        let r = &info.roles;
        if info.variable && sched.wr_sb < 6 {
            for set in self.var_w.values_mut() {
                for e in set.iter_mut() {
                    if e.0 == 7 && unit_of(e.1) == Some(info.unit) {
                        *e = (sched.wr_sb, i, e.2);
                    }
                }
            }
        }
        for &l in &r.writes {
            self.fixed.remove(&l);
            self.var_w.remove(&l);
            self.var_r.remove(&l);
            if is_pred_loc(l) && info.pred_at_issue {
                continue;
            }
            if info.variable {
                self.var_w.entry(l).or_default().push((sched.wr_sb, i, group));
            } else {
                self.fixed.insert(l, (cycle, info.pipe, i, group));
            }
        }
        if sched.rd_sb != 7 {
            if r.memory {
                self.memory_readers.insert(i);
            }
            for &l in r.reads.iter().filter(|&&l| l < roles::P_BASE) {
                self.var_r.entry(l).or_default().push((sched.rd_sb, i, group));
            }
        }
        for sb in [sched.wr_sb, sched.rd_sb] {
            if sb < 6 {
                self.sb_set[sb as usize] = Some((cycle, i, group));
            }
        }
    }
}
