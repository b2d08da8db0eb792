//! A static check of the schedule fields of finished machine code: does every instruction issue
//! late enough to see its inputs, as the hardware demands?
//!
//! It works on decoded instructions (any producer's: atomc's or ptxas's), derives reads and
//! writes from the form table ([`super::roles`]), and follows the control-flow graph with a
//! data-flow fixpoint, so hazards across branches and around loops are found. Rules:
//!
//! * a variable-latency result (one that sets a write scoreboard, or a memory/S2R-class result)
//!   is read or overwritten only after a wait on its scoreboard;
//! * a source of a late reader (read scoreboard) is overwritten only after a wait on it;
//! * a scoreboard is waited on no sooner than 2 cycles after it was set;
//! * a fixed-latency result is read no sooner than [`super::latency`] allows, counting the stall
//!   fields in between (on sm_50 a stall of 12–15 with the no-yield bit set counts as 6).
//!
//! Calibration (`tests/hazards.rs`): ptxas's own code for every filetest kernel passes, and
//! mutations that drop a needed wait or shorten a needed stall are caught.

use super::facts::{FixedWhen, Flow, LateRead, NumType};
use super::form::Form;
use super::instr::{Instr, Operand, Sched};
use super::latency::{Pipe, Reader, Timing};
use super::roles::{self, is_pred_loc, Loc, Roles};
use super::{form::SchedLayout, Arch};
use smallvec::SmallVec;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// One instruction slot of a code section. `instr` is `None` for a word the form table does not
/// know; its schedule fields are still honoured, its operands are not, and everything pending is
/// forgotten there (it may be a `DEPBAR`).
#[derive(Clone, Debug)]
pub struct Slot {
    pub addr: u64,
    pub instr: Option<Instr>,
    pub sched: Sched,
}

/// What went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum HazardKind {
    /// A scoreboard waited on `cycles` after its set (fewer than 2).
    WaitTooEarly { sb: u8, cycles: u32 },
    /// A variable-latency result read or overwritten without a wait on its scoreboard.
    MissingWait { sb: u8 },
    /// A late reader's source overwritten before the wait on its read scoreboard.
    SourceOverwritten { sb: u8 },
    /// A fixed-latency result read `got` cycles after issue; it needs `need`.
    StallTooShort { need: u8, got: u32 },
}

/// One hazard: the consumer and the producer (addresses), and the register involved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Hazard {
    pub consumer: u64,
    pub producer: u64,
    pub loc: Loc,
    pub kind: HazardKind,
}

impl fmt::Display for Hazard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let reg = roles::loc_name(self.loc);
        match self.kind {
            HazardKind::WaitTooEarly { sb, cycles } => write!(
                f,
                "/*{:04x}*/ waits on SB{sb} {cycles} cycle(s) after /*{:04x}*/ set it (needs 2)",
                self.consumer, self.producer
            ),
            HazardKind::MissingWait { sb } => write!(
                f,
                "/*{:04x}*/ uses {reg} before waiting on SB{} set by /*{:04x}*/",
                self.consumer,
                if sb == 7 { "-".to_string() } else { sb.to_string() },
                self.producer
            ),
            HazardKind::SourceOverwritten { sb } => write!(
                f,
                "/*{:04x}*/ overwrites {reg}, still to be read by /*{:04x}*/ (SB{sb})",
                self.consumer, self.producer
            ),
            HazardKind::StallTooShort { need, got } => write!(
                f,
                "/*{:04x}*/ reads {reg} {got} cycle(s) after /*{:04x}*/ wrote it (needs {need})",
                self.consumer, self.producer
            ),
        }
    }
}

/// Splits a code section into slots, decoding what the form table knows.
pub fn decode_lenient(arch: &Arch, bytes: &[u8]) -> Vec<Slot> {
    let wb = arch.word_bytes;
    let word = |b: &[u8]| {
        let mut x = [0u8; 16];
        x[..wb].copy_from_slice(&b[..wb]);
        u128::from_le_bytes(x)
    };
    let mut out = Vec::new();
    match arch.sched {
        SchedLayout::InWord { lo } => {
            for (i, chunk) in bytes.chunks_exact(wb).enumerate() {
                let w = word(chunk);
                let sched = Sched::from_bits(((w >> lo) & 0x1f_ffff) as u32);
                let instr = arch.decode_word(w).ok().map(|mut ins| {
                    ins.sched = sched;
                    ins
                });
                out.push(Slot { addr: (i * wb) as u64, instr, sched });
            }
        }
        SchedLayout::Bundle { per_bundle, slot_bits } => {
            let per = per_bundle as usize;
            let bundle = (per + 1) * wb;
            for (bi, chunk) in bytes.chunks_exact(bundle).enumerate() {
                let ctrl = word(chunk) as u64;
                for k in 0..per {
                    let at = (k + 1) * wb;
                    let bits = (ctrl >> (k as u32 * slot_bits as u32)) & ((1u64 << slot_bits) - 1);
                    let sched = Sched::from_bits(bits as u32);
                    let instr = arch.decode_word(word(&chunk[at..])).ok().map(|mut ins| {
                        ins.sched = sched;
                        ins
                    });
                    out.push(Slot { addr: (bi * bundle + at) as u64, instr, sched });
                }
            }
        }
    }
    out
}

/// Slots of instructions that are already decoded (atomc's own output), at their addresses.
pub fn slots_of(arch: &Arch, instrs: &[Instr]) -> Vec<Slot> {
    instrs
        .iter()
        .enumerate()
        .map(|(i, ins)| Slot { addr: arch.instr_addr(i), instr: Some(ins.clone()), sched: ins.sched })
        .collect()
}

/// The result of a check.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub hazards: Vec<Hazard>,
    /// Slots the form table could not decode (their operands were not checked).
    pub opaque: usize,
    /// Waits on a scoreboard fewer than 2 cycles after its set (also among `hazards`).
    pub early_waits: usize,
}

/// Whether `ins`'s result arrives after a variable delay: its form's variable-latency class
/// ([`super::facts::Facts::variable`]), unless the form's [`FixedWhen`] rule holds for its
/// modifiers (the conversions ptxas reads at a fixed distance; the evidence is in the tables'
/// facts).
pub fn variable_result_of(_timing: Timing, arch: &Arch, ins: &Instr) -> bool {
    let form = &arch.forms[ins.form as usize];
    form.facts.variable && !fixed_after_all(form, &ins.mods)
}

/// Whether `form`'s [`FixedWhen`] rule holds for the modifier values `mods`.
fn fixed_after_all(form: &Form, mods: &[u64]) -> bool {
    let types = || form.meanings(mods).flat_map(|m| m.types.iter().flatten());
    match form.facts.fixed_when {
        FixedWhen::Never => false,
        FixedWhen::SmallIntToF32 => {
            types().any(|t| !t.float && matches!(t.bits, 8 | 16)) && !types().any(|t| t.float && matches!(t.bits, 16 | 64))
        }
        FixedWhen::SixteenBitInt => types().any(|t| !t.float && t.bits == 16),
        FixedWhen::Floats { to, from } => {
            let named: SmallVec<[NumType; 4]> = types().copied().collect();
            named.windows(2).any(|w| w[0].float && w[0].bits == to && w[1].float && w[1].bits == from)
        }
        FixedWhen::Int32ToInt32 => {
            let mut ints = form.meanings(mods).flat_map(|m| m.wide_ints.iter().flatten());
            ints.next() == Some(&32) && ints.next() == Some(&32)
        }
    }
}

/// Whether `ins`'s result is signalled by a scoreboard: a variable-latency class
/// ([`variable_result_of`]), or an instruction outside the fixed-latency pipes that sets one.
/// A write scoreboard on an instruction of a fixed-latency pipe (ALU, FMA, FP64) signals
/// nothing: on an H100 (driver 580.159), atomc's `DSETP.MIN.AND P0, P1, R0, R2, PT` with SB4
/// set, read by `SEL R9, R3, R1, !P0` 2 cycles later after a wait on SB4, selected with a
/// stale P0 (`fminmax-f64.atom`: max(1.5, -2.0) gave -2.0); ptxas 13 never sets one there and
/// spaces the SEL 6 cycles after the DSETP instead.
pub fn signals_scoreboard(timing: Timing, arch: &Arch, ins: &Instr) -> bool {
    if variable_result_of(timing, arch, ins) {
        return true;
    }
    ins.sched.wr_sb != 7 && timing.pipe_of(arch, ins) == Pipe::Other
}

/// Whether the predicate `ins` writes is available early although its register result is not
/// ([`super::facts::Facts::predicate_at_issue`]; the timing checks track no latency for it).
pub fn predicate_at_issue(arch: &Arch, ins: &Instr) -> bool {
    arch.forms[ins.form as usize].facts.predicate_at_issue
}

/// Whether instructions spelled `mnemonic` are of a variable-latency class on `timing`'s target
/// ([`super::facts::Facts::variable`] of its forms; a mnemonic of no form is not).
pub fn variable_result(timing: Timing, mnemonic: &str) -> bool {
    let arch = match timing {
        Timing::Sm90 => super::sm90(),
        Timing::Sm50 => super::sm50(),
    };
    arch.forms_named(mnemonic).first().is_some_and(|&i| arch.forms[i as usize].facts.variable)
}

/// Ages saturate here: no latency is longer, and bounded ages make the fixpoint finite.
const AGE_CAP: u32 = 64;

/// Pending facts at one program point. Ages count cycles since the producer issued.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct State {
    /// Fixed-latency results in flight: age, pipe, producer slot.
    fixed: BTreeMap<Loc, (u32, PipeKey, usize)>,
    /// Variable-latency results not yet waited for: (scoreboard, producer slot).
    var_w: BTreeMap<Loc, BTreeSet<(u8, usize)>>,
    /// Sources of late readers not yet waited for.
    var_r: BTreeMap<Loc, BTreeSet<(u8, usize)>>,
    /// Cycles since each scoreboard was last set, and by whom.
    sb_age: [Option<(u32, usize)>; 6],
}

/// `Pipe` with an order, for the state's maps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct PipeKey(u8);

const PIPES: [Pipe; 8] =
    [Pipe::Alu, Pipe::Fma, Pipe::FmaWide, Pipe::Uniform, Pipe::UniformMove, Pipe::Other, Pipe::Fp64, Pipe::HalfMinMax];

impl PipeKey {
    fn of(p: Pipe) -> PipeKey {
        PipeKey(PIPES.iter().position(|&q| q == p).unwrap_or(5) as u8)
    }
    fn pipe(self) -> Pipe {
        PIPES[self.0 as usize]
    }
}

impl State {
    /// Worst case of two states: the youngest producer, every pending event.
    fn join(&mut self, other: &State) -> bool {
        let before = self.clone();
        for (l, v) in &other.fixed {
            match self.fixed.get_mut(l) {
                Some(mine) if mine.0 <= v.0 => {}
                Some(mine) => *mine = *v,
                None => {
                    self.fixed.insert(*l, *v);
                }
            }
        }
        for (l, s) in &other.var_w {
            self.var_w.entry(*l).or_default().extend(s.iter().copied());
        }
        for (l, s) in &other.var_r {
            self.var_r.entry(*l).or_default().extend(s.iter().copied());
        }
        for sb in 0..6 {
            self.sb_age[sb] = match (self.sb_age[sb], other.sb_age[sb]) {
                (Some(a), Some(b)) => Some(if a.0 <= b.0 { a } else { b }),
                (a, b) => a.or(b),
            };
        }
        *self != before
    }

    fn advance(&mut self, cycles: u32) {
        for v in self.fixed.values_mut() {
            v.0 = (v.0 + cycles).min(AGE_CAP);
        }
        for (a, _) in self.sb_age.iter_mut().flatten() {
            *a = (*a + cycles).min(AGE_CAP);
        }
    }
}

/// Cycles a stall field delays the next issue by.
pub fn effective_stall(timing: Timing, s: &Sched) -> u32 {
    // sm_50: a stall of 12..15 with the no-yield bit set (maxas prints it without `Y`) counts as
    // 6 (maxas; ptxas 11.8 pads with NOPs rather than rely on it).
    if timing == Timing::Sm50 && s.stall >= 12 && s.yield_ {
        6
    } else {
        s.stall as u32
    }
}

/// Checks a code section.
pub fn check(arch: &Arch, slots: &[Slot]) -> Report {
    let timing = Timing::for_arch(arch);
    let roles: Vec<Option<Roles>> = slots.iter().map(|s| s.instr.as_ref().map(|i| roles::roles(arch, i))).collect();
    let succ = successors(arch, slots);
    let n = slots.len();
    let mut input: Vec<Option<State>> = vec![None; n];
    let mut sink = Vec::new();
    // Code no decoded edge reaches (a subroutine entered through an undecodable call, say)
    // starts from an empty state, so it is still checked.
    while let Some(entry) = input.iter().position(|s| s.is_none()) {
        input[entry] = Some(State::default());
        let mut work = vec![entry];
        while let Some(i) = work.pop() {
            let Some(state) = input[i].clone() else {
                continue;
            };
            let out = step(arch, timing, slots, &roles, i, state, &mut sink);
            sink.clear();
            for &s in &succ[i] {
                let changed = match &mut input[s] {
                    Some(st) => st.join(&out),
                    slot @ None => {
                        *slot = Some(out.clone());
                        true
                    }
                };
                if changed {
                    work.push(s);
                }
            }
        }
    }
    let mut hazards = BTreeSet::new();
    for i in 0..n {
        if let Some(state) = input[i].clone() {
            let mut found = Vec::new();
            step(arch, timing, slots, &roles, i, state, &mut found);
            hazards.extend(found);
        }
    }
    let hazards: Vec<Hazard> = hazards.into_iter().collect();
    let early_waits = hazards.iter().filter(|h| matches!(h.kind, HazardKind::WaitTooEarly { .. })).count();
    Report { hazards, opaque: slots.iter().filter(|s| s.instr.is_none()).count(), early_waits }
}

/// The transfer function of one slot; hazards found on the way go to `found`.
fn step(
    arch: &Arch,
    timing: Timing,
    slots: &[Slot],
    roles: &[Option<Roles>],
    i: usize,
    mut st: State,
    found: &mut Vec<Hazard>,
) -> State {
    let slot = &slots[i];
    let sched = slot.sched;
    let at = slot.addr;
    let addr = |p: usize| slots[p].addr;
    // Waits.
    for sb in 0..6u8 {
        if sched.wait & (1 << sb) == 0 {
            continue;
        }
        if let Some((age, p)) = st.sb_age[sb as usize] {
            if age < 2 {
                found.push(Hazard {
                    consumer: at,
                    producer: addr(p),
                    loc: 0,
                    kind: HazardKind::WaitTooEarly { sb, cycles: age },
                });
            }
        }
        // An instruction writes its result after reading its sources, so a wait on its write
        // scoreboard covers its read scoreboard too: ptxas 11.8's div.rn.f64 issues `DFMA R6,
        // R2, R6, R4` (write SB1, read SB0) and then `FFMA R6, RZ, c[0x0][0x14c], R7` waiting
        // on SB1 only (print/binary-f64.atom, %b). The emulator's timing model does the same.
        let writers = st.var_w.values().flatten().filter(|e| e.0 == sb).map(|e| e.1);
        let done: Vec<usize> = writers.chain(st.sb_age[sb as usize].map(|s| s.1)).collect();
        st.sb_age[sb as usize] = None;
        for m in [&mut st.var_w, &mut st.var_r] {
            m.values_mut().for_each(|s| s.retain(|(b, _)| *b != sb));
            m.retain(|_, s| !s.is_empty());
        }
        st.var_r.values_mut().for_each(|s| s.retain(|e| !done.contains(&e.1)));
        st.var_r.retain(|_, s| !s.is_empty());
    }
    let depbar = slot.instr.as_ref().is_some_and(|ins| arch.forms[ins.form as usize].facts.partial_wait);
    let (Some(r), false) = (&roles[i], depbar) else {
        // A word the table cannot decode may be a `DEPBAR` (a partial wait) or write any
        // register: forget what is pending rather than report what cannot be known. atomc's
        // own code never has such words (the tests assert it). A decoded sm_50 `DEPBAR`
        // (`{1}`, `.LE SB0, 0x0`) is such a partial wait too, and is treated the same way.
        st = State { sb_age: st.sb_age, ..State::default() };
        st.advance(effective_stall(timing, &sched));
        return st;
    };
    let ins = slot.instr.as_ref().expect("roles imply an instruction");
    let reader = timing.reader_of(arch, ins, r.memory);
    // Reads.
    let reads = r.reads.iter().map(|&l| (l, reader)).chain(r.guard.map(|g| (g, Reader::Guard)));
    for (l, how) in reads {
        if let Some(set) = st.var_w.get(&l) {
            if let Some(&(sb, p)) = set.iter().next() {
                found.push(Hazard { consumer: at, producer: addr(p), loc: l, kind: HazardKind::MissingWait { sb } });
            }
        }
        if let Some(&(age, pipe, p)) = st.fixed.get(&l) {
            let need = timing.latency(pipe.pipe(), is_pred_loc(l), how).saturating_sub(read_late(timing, arch, ins, l, pipe.pipe()));
            if age < need as u32 {
                found.push(Hazard {
                    consumer: at,
                    producer: addr(p),
                    loc: l,
                    kind: HazardKind::StallTooShort { need, got: age },
                });
            }
        }
    }
    // Writes. A memory instruction's own result is written after it has read its operands, and
    // memory instructions read theirs in issue order: ptxas 13.5 lets `LDS.64 R18` overwrite the
    // R18 that an earlier `STG.E.64 [R26], R18` (SB1 pending) is still to read, without a wait
    // (same file as above). Only a fixed-latency or non-memory write must wait.
    let late_memory_write = r.memory && signals_scoreboard(timing, arch, ins);
    for &l in &r.writes {
        if let Some(set) = st.var_r.get(&l) {
            let reader_is_memory = |p: usize| roles[p].as_ref().is_some_and(|q| q.memory);
            if let Some(&(sb, p)) = set.iter().find(|(_, p)| *p != i && !(late_memory_write && reader_is_memory(*p))) {
                found.push(Hazard {
                    consumer: at,
                    producer: addr(p),
                    loc: l,
                    kind: HazardKind::SourceOverwritten { sb },
                });
            }
        }
        if let Some(set) = st.var_w.get(&l) {
            if let Some(&(sb, p)) = set.iter().next() {
                found.push(Hazard { consumer: at, producer: addr(p), loc: l, kind: HazardKind::MissingWait { sb } });
            }
        }
    }
    // Effects.
    let variable = signals_scoreboard(timing, arch, ins);
    if variable && sched.wr_sb < 6 {
        // Results of one unit complete in order: a later scoreboard of the same unit also
        // covers its earlier unsignalled results (ptxas 13.5 issues `SHFL R2` without a
        // scoreboard, then `SHFL R3` setting SB1, and reads R2 after waiting on SB1).
        for set in st.var_w.values_mut() {
            let same_unit: Vec<(u8, usize)> = set
                .iter()
                .copied()
                .filter(|&(sb, p)| {
                    sb == 7
                        && slots[p]
                            .instr
                            .as_ref()
                            .is_some_and(|q| unit(arch, q) == unit(arch, ins))
                })
                .collect();
            for e in same_unit {
                set.remove(&e);
                set.insert((sched.wr_sb, i));
            }
        }
    }
    for &l in &r.writes {
        st.fixed.remove(&l);
        st.var_w.remove(&l);
        st.var_r.remove(&l);
        if is_pred_loc(l) && predicate_at_issue(arch, ins) {
            // No figure for its latency here: ptxas reads it 5 cycles after the ATOM issued.
            continue;
        }
        if variable {
            st.var_w.entry(l).or_default().insert((sched.wr_sb, i));
        } else {
            st.fixed.insert(l, (0, PipeKey::of(timing.pipe_of(arch, ins)), i));
        }
    }
    if sched.rd_sb != 7 {
        // Only vector registers are read late; uniform ones are read at issue (ptxas 13.5
        // rewrites the descriptor's UR4 right after an `LDG ... desc[UR4]` that set a read
        // scoreboard, without waiting on it).
        for &l in r.reads.iter().filter(|&&l| l < roles::P_BASE) {
            st.var_r.entry(l).or_default().insert((sched.rd_sb, i));
        }
    }
    for sb in [sched.wr_sb, sched.rd_sb] {
        if sb < 6 {
            st.sb_age[sb as usize] = Some((0, i));
        }
    }
    st.advance(effective_stall(timing, &sched));
    st
}

/// The unit a variable-latency instruction completes in, in issue order
/// ([`super::facts::Facts::unit`]; a unit of its own is named by its mnemonic).
pub fn unit(arch: &Arch, ins: &Instr) -> &'static str {
    let form = &arch.forms[ins.form as usize];
    form.facts.unit.name(form.mnemonic)
}

/// Cycles after issue that `ins` reads `l`, where ptxas's code shows it reads late
/// ([`super::facts::Facts::late_read`]; the scheduler keeps the plain latencies; this only
/// keeps the check from rejecting ptxas). The emulator's timing model asks the same.
pub fn read_late(timing: Timing, arch: &Arch, ins: &Instr, l: Loc, producer: Pipe) -> u8 {
    let form = &arch.forms[ins.form as usize];
    if timing == Timing::Sm50 {
        return sm50_read_late(arch, ins, l);
    }
    match form.facts.late_read {
        LateRead::WideAddendHigh if form.meanings(&ins.mods).any(|m| m.wide) => match ins.ops.get(3) {
            Some(Operand::Reg(c)) if c.num != 255 && l == c.num as Loc + 1 => 2,
            _ => 0,
        },
        LateRead::Fp64Result if producer == Pipe::Fp64 => 2,
        // A surface operand is read a cycle after a global one: ptxas 13 reads
        // `IMAD.SHL.U32 R4, R5, 0x4, RZ` in `SURED.D.BA.3D ... [R4]` 4 cycles later (140 reads,
        // filetests/timing/data/sm90.tsv: `fma → memory addr 4`), where global operands wait 5.
        _ if form.facts.memory_reader == super::facts::MemoryReader::Surface && !is_pred_loc(l) => 1,
        _ => 0,
    }
}

/// sm_50: the latencies ([`Timing::latency`]) are those of the strictest half of a register
/// pair; ptxas 11.8 reads the other half sooner (filetests/timing/data/sm50.tsv): the FP64 unit
/// reads a pair's high half 4 cycles after an ALU result (68 reads) and the low half 5 after
/// where no wait lies between (69), 4 behind a wait (div.rn.f64), the units whose results come back on a scoreboard (conversions, MUFU, POPC, FLO)
/// read a single register or a low half 2 after and a high half 4 after (`MOV R5,
/// c[0x0][0x14c]` → `F2F.F32.F64.RP R0, R4`).
fn sm50_read_late(arch: &Arch, ins: &Instr, l: Loc) -> u8 {
    if is_pred_loc(l) {
        return 0;
    }
    let form = &arch.forms[ins.form as usize];
    let high = ins.ops.iter().skip(1).any(|o| matches!(o, Operand::Reg(c) if c.num != 255 && l == c.num as Loc + 1));
    if form.facts.fp64 {
        // ptxas 11.8's div.rn.f64: `MOV R2, RZ` then `DSETP.GT.AND P1, PT, |R2|, RZ, PT` 4 cycles
        // later reads the low half too.
        1
    } else if form.facts.variable && form.facts.unit != super::facts::Unit::Mio && !high {
        2
    } else {
        0
    }
}

/// Control-flow successors of every slot.
fn successors(arch: &Arch, slots: &[Slot]) -> Vec<Vec<usize>> {
    let index_of = |a: u64| -> Option<usize> {
        slots
            .binary_search_by_key(&a, |s| s.addr)
            .ok()
            .or_else(|| slots.binary_search_by_key(&(a + arch.word_bytes as u64), |s| s.addr).ok())
    };
    // sm_50 `SYNC` ends a divergent path and continues at the reconvergence point its `SSY`
    // named; `BRK` likewise for `PBK` ([`Flow::Rejoins`], [`Flow::Opens`]). Every such point is
    // a possible successor.
    let targets_of = |opener: u8| -> Vec<usize> {
        slots
            .iter()
            .filter_map(|s| {
                let ins = s.instr.as_ref()?;
                if arch.forms[ins.form as usize].facts.flow != Flow::Opens(opener) {
                    return None;
                }
                ins.ops.iter().find_map(|o| match o {
                    Operand::Target(off) => index_of((s.addr as i64 + arch.word_bytes as i64 + off) as u64),
                    _ => None,
                })
            })
            .collect()
    };
    let opened = [targets_of(0), targets_of(1)];
    let mut out = Vec::with_capacity(slots.len());
    for (i, s) in slots.iter().enumerate() {
        let next = (i + 1 < slots.len()).then_some(i + 1);
        let Some(ins) = &s.instr else {
            out.push(next.into_iter().collect());
            continue;
        };
        let guarded = ins.guard.num != super::PT || ins.guard.not;
        let mut v = Vec::new();
        match arch.forms[ins.form as usize].facts.flow {
            Flow::Branch => {
                if let Some(Operand::Target(off)) = ins.ops.iter().find(|o| matches!(o, Operand::Target(_))) {
                    let target = (s.addr as i64 + arch.word_bytes as i64 + off) as u64;
                    if let Some(t) = index_of(target) {
                        v.push(t);
                    }
                }
                if guarded {
                    v.extend(next);
                }
            }
            Flow::End => {
                if guarded {
                    v.extend(next);
                }
            }
            Flow::Rejoins(opener) => {
                v.extend(&opened[opener as usize]);
                if guarded {
                    v.extend(next);
                }
            }
            Flow::Next | Flow::Opens(_) => v.extend(next),
        }
        out.push(v);
    }
    out
}

/// Code sections (`.text.NAME`) of a cubin: (kernel name, bytes).
pub fn code_sections(cubin: &[u8]) -> Result<Vec<(String, Vec<u8>)>, String> {
    use object::{Object, ObjectSection};
    let file = object::File::parse(cubin).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for sec in file.sections() {
        let name = sec.name().map_err(|e| e.to_string())?;
        if let Some(k) = name.strip_prefix(".text.") {
            out.push((k.to_string(), sec.data().map_err(|e| e.to_string())?.to_vec()));
        }
    }
    Ok(out)
}
