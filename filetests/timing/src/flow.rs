//! The dependencies of a kernel's code: for every location an instruction reads (or a
//! variable-latency result it overwrites), each producer it may come from, found by a forward
//! data-flow over the control-flow graph.
//!
//! A producer that sets a write scoreboard is variable-latency: its readers must wait on that
//! scoreboard. Any other producer is fixed-latency: its readers are timed by the stall fields
//! issued in between, the fewest over every path.

use super::effects::{effects, Effects, Loc, Role};
use super::listing::{Family, Inst, Kernel};
use std::collections::BTreeMap;

/// Elapsed cycles stop counting here: no fixed latency comes near it.
const CAP: u32 = 40;

/// How stall fields are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counting {
    /// Every stall at its face value: what ptxas's code is credited with when calibrating (a
    /// longer count can only make the calibrated minimum larger, so stricter).
    Face,
    /// sm_50 stalls of 12..15 with bit 4 set count as 6, as maxas documents: what code under
    /// check is credited with (the fewer cycles, the stricter the check).
    Conservative,
}

/// A read of a fixed-latency result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FixedDep {
    pub producer: usize,
    pub reader: usize,
    pub loc: Loc,
    pub role: Role,
    /// The fewest cycles from the producer's issue to the reader's, over the paths.
    pub cycles: u32,
    /// The fewest over the paths on which no instruction from the producer to the reader
    /// (included) waits on a scoreboard, if any: only those cycles are sure to be all the time
    /// that passed, so only they calibrate.
    pub free_cycles: Option<u32>,
    /// The producer also set a write scoreboard.
    pub scoreboarded: bool,
}

/// A read (or overwrite) of a variable-latency result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VarDep {
    pub producer: usize,
    pub reader: usize,
    pub loc: Loc,
    pub sb: u8,
    /// Some path reaches the reader without a wait on `sb` after the producer.
    pub unwaited: bool,
    pub overwrite: bool,
}

/// The dependencies found in one kernel.
#[derive(Clone, Debug, Default)]
pub struct Deps {
    pub effects: Vec<Effects>,
    pub fixed: Vec<FixedDep>,
    pub var: Vec<VarDep>,
}

/// A result in flight: its producer, the fewest cycles since it issued, the fewest on paths
/// without a wait, and whether the producer set a scoreboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pending {
    producer: usize,
    cycles: u32,
    free: Option<u32>,
    sb: bool,
}

fn min_opt(a: Option<u32>, b: Option<u32>) -> Option<u32> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, None) | (None, x) => x,
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct State {
    /// Location → every producer it may hold the result of.
    fixed: BTreeMap<Loc, Vec<Pending>>,
    /// Location → (producer, scoreboard, not yet waited on some path).
    var: BTreeMap<Loc, Vec<(usize, u8, bool)>>,
}

impl State {
    /// Merges `o` in; true if anything changed.
    fn merge(&mut self, o: &State) -> bool {
        let mut changed = false;
        for (l, v) in &o.fixed {
            let mine = self.fixed.entry(*l).or_default();
            for p in v {
                match mine.iter_mut().find(|e| e.producer == p.producer) {
                    Some(e) => {
                        let merged = Pending { cycles: e.cycles.min(p.cycles), free: min_opt(e.free, p.free), ..*e };
                        if merged != *e {
                            *e = merged;
                            changed = true;
                        }
                    }
                    None => {
                        mine.push(*p);
                        changed = true;
                    }
                }
            }
        }
        for (l, v) in &o.var {
            let mine = self.var.entry(*l).or_default();
            for &(p, sb, open) in v {
                match mine.iter_mut().find(|e| e.0 == p && e.1 == sb) {
                    Some(e) if open && !e.2 => {
                        e.2 = true;
                        changed = true;
                    }
                    Some(_) => {}
                    None => {
                        mine.push((p, sb, open));
                        changed = true;
                    }
                }
            }
        }
        changed
    }
}

/// The scoreboards an instruction waits on: its wait mask, and an sm_50 `DEPBAR`'s named
/// scoreboard (`DEPBAR.LE SB0, 0x0`: taken as a full wait).
fn waits(ins: &Inst) -> u8 {
    let mut w = ins.ctrl.wait;
    if ins.mnemonic == "DEPBAR" {
        for o in &ins.operands {
            if let Some(n) = o.strip_prefix("SB").and_then(|d| d.parse::<u8>().ok()) {
                w |= 1 << n;
            }
            if o.starts_with('{') {
                for n in o.trim_matches(['{', '}']).split(',').filter_map(|d| d.trim().parse::<u8>().ok()) {
                    w |= 1 << n;
                }
            }
        }
    }
    w
}

fn stall(ins: &Inst, family: Family, counting: Counting) -> u32 {
    let s = ins.ctrl.stall as u32;
    if family == Family::Sm50 && counting == Counting::Conservative && s >= 12 && ins.ctrl.yield_ {
        6
    } else {
        s
    }
}

fn always(ins: &Inst) -> bool {
    ins.guard.as_ref().is_none_or(|(neg, p)| !neg && p == "PT")
}

/// Successors of instruction `i`: `(index, state passes through)`. Past a `CALL` the state is
/// dropped: the callee ran in between, its cycles unknown here.
fn successors(k: &Kernel, i: usize) -> Vec<(usize, bool)> {
    let ins = &k.insts[i];
    let m = ins.mnemonic.as_str();
    let target = ins.target.as_deref().and_then(|t| k.label_index(t));
    let next = (i + 1 < k.insts.len()).then_some(i + 1);
    let mut out = Vec::new();
    match m {
        "BRA" | "JMP" | "SYNC" | "BRK" | "CONT" => {
            out.extend(target.map(|t| (t, true)));
            if !always(ins) || (m == "BRA" && ins.has_mod("DIV")) {
                out.extend(next.map(|n| (n, true)));
            }
        }
        "EXIT" | "RET" | "KILL" | "BRX" | "JMX" => {
            if !always(ins) {
                out.extend(next.map(|n| (n, true)));
            }
        }
        "CALL" => {
            out.extend(target.map(|t| (t, true)));
            out.extend(next.map(|n| (n, false)));
        }
        _ => out.extend(next.map(|n| (n, true))),
    }
    out
}

/// Applies instruction `i` to the state reaching it, recording what it reads into `deps` when
/// given.
fn step(k: &Kernel, i: usize, eff: &Effects, family: Family, counting: Counting, s: &mut State, mut deps: Option<&mut Deps>) {
    let ins = &k.insts[i];
    let w = waits(ins);
    for v in s.var.values_mut() {
        for e in v.iter_mut() {
            if w & (1 << e.1) != 0 {
                e.2 = false;
            }
        }
    }
    if w != 0 {
        for e in s.fixed.values_mut().flatten() {
            e.free = None;
        }
    }
    if let Some(d) = deps.as_deref_mut() {
        for &(loc, role) in &eff.reads {
            for p in s.fixed.get(&loc).into_iter().flatten() {
                d.fixed.push(FixedDep {
                    producer: p.producer,
                    reader: i,
                    loc,
                    role,
                    cycles: p.cycles,
                    free_cycles: p.free,
                    scoreboarded: p.sb,
                });
            }
            for &(p, sb, open) in s.var.get(&loc).into_iter().flatten() {
                d.var.push(VarDep { producer: p, reader: i, loc, sb, unwaited: open, overwrite: false });
            }
        }
        for &loc in &eff.writes {
            for &(p, sb, open) in s.var.get(&loc).into_iter().flatten() {
                if p != i {
                    d.var.push(VarDep { producer: p, reader: i, loc, sb, unwaited: open, overwrite: true });
                }
            }
        }
    }
    let guarded = !always(ins);
    for &loc in &eff.writes {
        if !guarded {
            s.fixed.remove(&loc);
            s.var.remove(&loc);
        }
        // A scoreboarded result is tracked both ways: whether its class is fixed-latency is
        // the table's to say, not this pass's.
        if let Some(sb) = ins.ctrl.wr_sb {
            s.var.entry(loc).or_default().push((i, sb, true));
        }
        s.fixed.entry(loc).or_default().push(Pending { producer: i, cycles: 0, free: Some(0), sb: ins.ctrl.wr_sb.is_some() });
    }
    let st = stall(ins, family, counting);
    for v in s.fixed.values_mut() {
        for e in v.iter_mut() {
            e.cycles = (e.cycles + st).min(CAP);
            e.free = e.free.map(|f| (f + st).min(CAP));
        }
        v.retain(|e| e.cycles < CAP);
    }
    s.fixed.retain(|_, v| !v.is_empty());
    // A result waited on everywhere is no longer a hazard; keep it only while it is open.
    for v in s.var.values_mut() {
        v.retain(|e| e.2);
    }
    s.var.retain(|_, v| !v.is_empty());
}

/// The dependencies of a kernel's code.
pub fn deps(k: &Kernel, family: Family, counting: Counting) -> Deps {
    let n = k.insts.len();
    let effects: Vec<Effects> = k.insts.iter().map(|i| effects(i, family)).collect();
    let mut input: Vec<Option<State>> = vec![None; n];
    let mut reached = vec![false; n];
    let mut work: Vec<usize> = Vec::new();
    // Every instruction no edge reaches (a subroutine, code after an EXIT) starts empty.
    let seed = |i: usize, input: &mut Vec<Option<State>>, work: &mut Vec<usize>| {
        if input[i].is_none() {
            input[i] = Some(State::default());
            work.push(i);
        }
    };
    if n > 0 {
        seed(0, &mut input, &mut work);
    }
    loop {
        while let Some(i) = work.pop() {
            reached[i] = true;
            let mut s = input[i].clone().unwrap_or_default();
            step(k, i, &effects[i], family, counting, &mut s, None);
            for (j, keep) in successors(k, i) {
                let incoming = if keep { s.clone() } else { State::default() };
                let changed = match &mut input[j] {
                    Some(cur) => cur.merge(&incoming),
                    slot @ None => {
                        *slot = Some(incoming);
                        true
                    }
                };
                if changed {
                    work.push(j);
                }
            }
        }
        match (0..n).find(|&i| !reached[i]) {
            Some(i) => seed(i, &mut input, &mut work),
            None => break,
        }
    }
    let mut d = Deps::default();
    for i in 0..n {
        let mut s = input[i].clone().unwrap_or_default();
        step(k, i, &effects[i], family, counting, &mut s, Some(&mut d));
    }
    d.effects = effects;
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::listing::parse;

    /// Three sm_50 instructions under one control word.
    fn bundle(ctrl: u64, a: &str, b: &str, c: &str) -> Kernel {
        let l = format!(
            ".section .text.k,\"ax\"\n /* 0x{ctrl:016x} */\n /*0008*/ {a} ; /* 0x1 */\n /*0010*/ {b} ; /* 0x2 */\n /*0018*/ {c} ; /* 0x3 */\n"
        );
        parse(&l, Family::Sm50).unwrap().remove(0)
    }

    fn slot(stall: u64, wr: u64, wait: u64) -> u64 {
        stall | (wr << 5) | (7 << 8) | (wait << 11)
    }

    #[test]
    fn fixed_cycles_sum_stalls() {
        let c = slot(1, 7, 0) | slot(2, 7, 0) << 21 | slot(1, 7, 0) << 42;
        let k = bundle(c, "MOV R9, RZ", "SHL R2, R4, 0x2", "IADD R3, R9, R2");
        let d = deps(&k, Family::Sm50, Counting::Face);
        let got: Vec<(usize, u32, Option<u32>)> = d.fixed.iter().map(|f| (f.producer, f.cycles, f.free_cycles)).collect();
        assert_eq!(got, [(0, 3, Some(3)), (1, 2, Some(2))]);
    }

    #[test]
    fn scoreboard_waits() {
        // LDG sets SB2; the first reader does not wait, the second does.
        let c = slot(1, 2, 0) | slot(1, 7, 0) << 21 | slot(1, 7, 1 << 2) << 42;
        let k = bundle(c, "LDG.E R2, [R4]", "IADD R3, R2, R2", "IADD R5, R2, RZ");
        let d = deps(&k, Family::Sm50, Counting::Face);
        let open: Vec<(usize, bool)> = d.var.iter().map(|v| (v.reader, v.unwaited)).collect();
        assert_eq!(open, [(1, true), (1, true), (2, false)]);
        assert!(d.fixed.iter().filter(|f| f.producer == 0).all(|f| f.scoreboarded));
        // The wait makes the last read's cycles no measure of the producer's latency.
        assert_eq!(d.fixed.iter().find(|f| f.reader == 2).unwrap().free_cycles, None);
    }
}
