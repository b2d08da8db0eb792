//! SIMT divergence and reconvergence, per target.
//!
//! * **sm_90 (Volta and later)**: every lane has its own PC. A warp issues for the group of
//!   ready lanes that share one PC; it keeps issuing for that PC's group until the group blocks
//!   (a `BSYNC` wait, a barrier, exit) or gives way: `YIELD` or a taken backward branch lets
//!   another divergent path of the same warp run next, so an intra-warp spin lock makes progress
//!   as on the hardware. `BSSY Bn` records the group in convergence barrier `Bn`; `BSYNC Bn`
//!   holds lanes until every non-exited lane of `Bn` has arrived. Lanes that reach one PC by
//!   different paths issue together again.
//! * **sm_50 (Maxwell)**: one PC and an active mask per warp, and a reconvergence stack.
//!   `SSY`/`PBK` push a reconvergence point with the active mask; a divergent `BRA` runs the
//!   fall-through lanes first and pushes the taken ones; `SYNC`/`BRK` park the executing lanes,
//!   and when none is left active the stack is popped. A spin on a lock held by a lane of the
//!   same warp therefore never ends (step limit), as on the hardware. `BAR` in divergent code is
//!   an error.

use crate::rng::Rng;

/// How one instruction moves the lanes that issued it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Every lane of the group goes on to the next instruction.
    Next,
    /// Lanes of `taken` (a subset of the group) jump to `target`; the rest go on.
    Branch { taken: u32, target: usize },
    /// Lanes of the mask exit; the rest go on.
    Exit(u32),
    /// sm_90 `BSSY Bn`: the group is recorded in `Bn`.
    Bssy(u8),
    /// sm_90 `BSYNC Bn`: lanes of the mask wait there.
    Bsync(u8, u32),
    /// `YIELD`: another divergent path may run.
    Yield,
    /// `BAR.SYNC`: lanes of the mask wait for the block.
    Bar(u32),
    /// sm_90 `WARPSYNC`: lanes of the first mask wait for the lanes of the second
    /// (`WARPSYNC.ALL`: every lane of the warp).
    WarpSync(u32, u32),
    /// sm_50 `SSY`/`PBK target`.
    Push { brk: bool, target: usize },
    /// sm_50 `SYNC`/`BRK`: lanes of the mask park.
    Park { brk: bool, mask: u32 },
    /// sm_50 `CAL target`: the active lanes call, the return address pushed.
    Call { target: usize },
    /// sm_50 `RET`: the active lanes return to the latest call's return address.
    Ret,
}

/// A lane's state under the per-lane model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    Ready(usize),
    Bsync(u8, usize),
    Bar(usize),
    /// At a `WARPSYNC` with this mask, until every lane of the mask not exited is at one.
    WarpSync(usize, u32),
    Exited,
}

/// An sm_50 stack entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub kind: Kind,
    pub mask: u32,
    pub pc: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A divergent branch's lanes still to run.
    Div,
    Ssy,
    Pbk,
    /// A `CAL`'s return address.
    Call,
}

#[allow(clippy::large_enum_variant)]
pub enum Simt {
    PerLane { lanes: [Lane; 32], bregs: Bregs, last: Option<usize>, give_way: bool, yielded: u32 },
    Stack { pc: usize, active: u32, exited: u32, at_bar: bool, stack: Vec<Entry> },
}

impl Simt {
    pub fn per_lane(present: u32) -> Simt {
        let mut lanes = [Lane::Exited; 32];
        for (l, s) in lanes.iter_mut().enumerate() {
            if present >> l & 1 != 0 {
                *s = Lane::Ready(0);
            }
        }
        Simt::PerLane { lanes, bregs: Bregs::default(), last: None, give_way: false, yielded: 0 }
    }

    pub fn stack(present: u32) -> Simt {
        Simt::Stack { pc: 0, active: present, exited: !present, at_bar: false, stack: Vec::new() }
    }

    /// Whether every lane has exited.
    pub fn done(&self) -> bool {
        match self {
            Simt::PerLane { lanes, .. } => lanes.iter().all(|l| *l == Lane::Exited),
            Simt::Stack { exited, .. } => *exited == u32::MAX,
        }
    }

    /// Lanes not exited.
    pub fn alive(&self) -> u32 {
        match self {
            Simt::PerLane { lanes, .. } => mask_of(lanes, |l| l != Lane::Exited),
            Simt::Stack { exited, .. } => !exited,
        }
    }

    /// Lanes waiting at a block barrier.
    pub fn at_bar(&self) -> u32 {
        match self {
            Simt::PerLane { lanes, .. } => mask_of(lanes, |l| matches!(l, Lane::Bar(_))),
            Simt::Stack { active, at_bar, .. } => {
                if *at_bar {
                    *active
                } else {
                    0
                }
            }
        }
    }

    /// Lets the lanes waiting at the block barrier go on.
    pub fn release_bar(&mut self) {
        match self {
            Simt::PerLane { lanes, .. } => {
                for l in lanes.iter_mut() {
                    if let Lane::Bar(pc) = *l {
                        *l = Lane::Ready(pc + 1);
                    }
                }
            }
            Simt::Stack { pc, at_bar, .. } => {
                if *at_bar {
                    *at_bar = false;
                    *pc += 1;
                }
            }
        }
    }

    /// The next group to issue: (slot, lanes). `None` when no lane can issue.
    pub fn next(&mut self, rng: Option<&mut Rng>) -> Option<(usize, u32)> {
        match self {
            Simt::PerLane { lanes, last, give_way, bregs, yielded } => {
                if *give_way {
                    soft_release(lanes, bregs, *yielded);
                }
                let mut pcs: Vec<usize> = lanes
                    .iter()
                    .filter_map(|l| match l {
                        Lane::Ready(pc) => Some(*pc),
                        _ => None,
                    })
                    .collect();
                if pcs.is_empty() {
                    return None;
                }
                pcs.sort_unstable();
                pcs.dedup();
                let pick = match (*last, *give_way) {
                    (Some(p), false) if pcs.contains(&p) => p,
                    (Some(p), true) if pcs.len() > 1 => match rng {
                        Some(r) => {
                            let others: Vec<usize> = pcs.iter().copied().filter(|&q| q != p).collect();
                            others[r.below(others.len())]
                        }
                        None => pcs.iter().copied().find(|&q| q > p).unwrap_or(pcs[0]),
                    },
                    _ => match rng {
                        Some(r) if pcs.len() > 1 => pcs[r.below(pcs.len())],
                        _ => pcs[0],
                    },
                };
                *last = Some(pick);
                *give_way = false;
                Some((pick, mask_of(lanes, |l| l == Lane::Ready(pick))))
            }
            Simt::Stack { pc, active, at_bar, .. } => {
                if *at_bar || *active == 0 {
                    None
                } else {
                    Some((*pc, *active))
                }
            }
        }
    }

    /// Moves the group `(pc, group)` on after an instruction. `Err` names a broken rule.
    pub fn apply(&mut self, pc: usize, group: u32, flow: Flow) -> Result<(), String> {
        match self {
            Simt::PerLane { lanes, bregs, give_way, yielded, last } => {
                let each = |lanes: &mut [Lane; 32], f: &mut dyn FnMut(usize) -> Lane| {
                    for (l, s) in lanes.iter_mut().enumerate() {
                        if group >> l & 1 != 0 {
                            *s = f(l);
                        }
                    }
                };
                match flow {
                    Flow::Next => each(lanes, &mut |_| Lane::Ready(pc + 1)),
                    Flow::Yield => {
                        each(lanes, &mut |_| Lane::Ready(pc + 1));
                        *give_way = true;
                        *yielded = group;
                    }
                    Flow::Branch { taken, target } => {
                        each(lanes, &mut |l| Lane::Ready(if taken >> l & 1 != 0 { target } else { pc + 1 }));
                        if taken != 0 && target <= pc {
                            *give_way = true;
                            *yielded = group;
                        }
                    }
                    Flow::Exit(m) => {
                        each(lanes, &mut |l| {
                            if m >> l & 1 != 0 {
                                Lane::Exited
                            } else {
                                Lane::Ready(pc + 1)
                            }
                        });
                        release_bsync(lanes, bregs);
                    }
                    Flow::Bssy(b) => {
                        bregs.arm(b, group);
                        each(lanes, &mut |_| Lane::Ready(pc + 1));
                    }
                    Flow::Bsync(b, m) => {
                        each(lanes, &mut |l| {
                            if m >> l & 1 != 0 {
                                Lane::Bsync(b, pc)
                            } else {
                                Lane::Ready(pc + 1)
                            }
                        });
                        release_bsync(lanes, bregs);
                    }
                    Flow::Bar(m) => each(lanes, &mut |l| {
                        if m >> l & 1 != 0 {
                            Lane::Bar(pc)
                        } else {
                            Lane::Ready(pc + 1)
                        }
                    }),
                    Flow::WarpSync(m, sync) => each(lanes, &mut |l| {
                        if m >> l & 1 != 0 {
                            Lane::WarpSync(pc, sync)
                        } else {
                            Lane::Ready(pc + 1)
                        }
                    }),
                    Flow::Push { .. } | Flow::Park { .. } | Flow::Call { .. } | Flow::Ret => {
                        return Err("an sm_50 reconvergence or call instruction".into())
                    }
                }
                release_warpsync(lanes);
                // The scheduler stays with the group it issued (at its new pc) until it gives
                // way; keeping the issued pc here would switch groups after every instruction.
                *last = (0..32).find_map(|l| match lanes[l] {
                    Lane::Ready(p) if group >> l & 1 != 0 => Some(p),
                    _ => None,
                });
                // Lanes that branch back give way: the others run next.
                if let Flow::Branch { taken, target } = flow {
                    if taken != 0 && target <= pc {
                        *last = Some(target);
                    }
                }
                Ok(())
            }
            Simt::Stack { pc: wpc, active, exited, at_bar, stack } => {
                match flow {
                    Flow::Next | Flow::Yield | Flow::WarpSync(..) => *wpc = pc + 1,
                    Flow::Branch { taken, target } => {
                        if taken == *active {
                            *wpc = target;
                        } else if taken == 0 {
                            *wpc = pc + 1;
                        } else {
                            stack.push(Entry { kind: Kind::Div, mask: taken, pc: target });
                            *active &= !taken;
                            *wpc = pc + 1;
                        }
                    }
                    Flow::Exit(m) => {
                        *exited |= m;
                        *active &= !m;
                        *wpc = pc + 1;
                    }
                    Flow::Push { brk, target } => {
                        let kind = if brk { Kind::Pbk } else { Kind::Ssy };
                        stack.push(Entry { kind, mask: *active, pc: target });
                        *wpc = pc + 1;
                    }
                    Flow::Park { brk, mask } => {
                        if brk {
                            // Broken lanes leave every entry above the loop's PBK.
                            let Some(top) = stack.iter().rposition(|e| e.kind == Kind::Pbk) else {
                                return Err("BRK without a PBK on the reconvergence stack".into());
                            };
                            for e in &mut stack[top + 1..] {
                                e.mask &= !mask;
                            }
                        }
                        *active &= !mask;
                        *wpc = pc + 1;
                    }
                    // A guard false in every lane (`@P0 BAR.SYNC`, ptxas 11.8's if-conversion
                    // of a block-uniform `if`) makes the barrier a no-op.
                    Flow::Bar(0) => *wpc = pc + 1,
                    Flow::Bar(m) => {
                        if m != *active {
                            return Err("BAR in divergent code (some active lanes do not take it)".into());
                        }
                        let alive = !*exited;
                        if m != alive {
                            return Err(format!(
                                "BAR in divergent code: lanes {m:#010x} take it, lanes {alive:#010x} are alive"
                            ));
                        }
                        *at_bar = true;
                        *wpc = pc;
                    }
                    Flow::Call { target } => {
                        stack.push(Entry { kind: Kind::Call, mask: *active, pc: pc + 1 });
                        *wpc = target;
                    }
                    Flow::Ret => {
                        // ptxas's subroutines return with every lane that called (straight-line
                        // division helpers); a return from divergent code is not modelled.
                        match stack.pop() {
                            Some(e) if e.kind == Kind::Call && e.mask & !*exited == *active => {
                                *wpc = e.pc;
                            }
                            _ => return Err("RET without its CAL's lanes on top of the stack".into()),
                        }
                    }
                    Flow::Bssy(_) | Flow::Bsync(..) => return Err("an sm_90 convergence instruction".into()),
                }
                while *active == 0 {
                    let Some(e) = stack.pop() else {
                        if *exited != u32::MAX {
                            return Err(format!("lanes {:#010x} parked with an empty reconvergence stack", !*exited));
                        }
                        break;
                    };
                    *active = e.mask & !*exited;
                    *wpc = e.pc;
                }
                Ok(())
            }
        }
    }

    /// A line on where the lanes are, for deadlock and step-limit messages.
    pub fn describe(&self, addr: &dyn Fn(usize) -> u64) -> String {
        match self {
            Simt::PerLane { lanes, .. } => {
                let mut parts: Vec<String> = Vec::new();
                for (l, s) in lanes.iter().enumerate() {
                    let d = match s {
                        Lane::Ready(pc) => format!("ready at {:04x}", addr(*pc)),
                        Lane::Bsync(b, pc) => format!("in BSYNC B{b} at {:04x}", addr(*pc)),
                        Lane::Bar(pc) => format!("at BAR {:04x}", addr(*pc)),
                        Lane::WarpSync(pc, m) => format!("at WARPSYNC {m:#x} {:04x}", addr(*pc)),
                        Lane::Exited => continue,
                    };
                    match parts.last_mut() {
                        Some(p) if p.ends_with(&format!(": {d}")) => {
                            let _ = l;
                        }
                        _ => parts.push(format!("lane {l}: {d}")),
                    }
                }
                parts.join(", ")
            }
            Simt::Stack { pc, active, exited, stack, at_bar } => format!(
                "pc {:04x}, active {active:#010x}, exited {exited:#010x}{}, stack depth {}",
                addr(*pc),
                if *at_bar { ", at BAR" } else { "" },
                stack.len()
            ),
        }
    }
}

fn mask_of(lanes: &[Lane; 32], f: impl Fn(Lane) -> bool) -> u32 {
    lanes.iter().enumerate().fold(0, |m, (l, s)| if f(*s) { m | 1 << l } else { m })
}

/// The sm_90 convergence barriers as each lane joined them: `BSSY Bn` by a group makes its
/// lanes members of a new instance of `Bn`, and a `BSYNC Bn` waits only for the other members
/// of the instance the lane joined. A group that re-arms `Bn` (a later region of lanes that went
/// on early, see [`soft_release`]) starts a new instance and leaves the lanes still in the old
/// one waiting for no one of the new one, as ptxas 13.5's code needs (atomc-fuzz seed 6: lanes
/// released from a spin loop's `BSYNC B0` arm `B0` again for the next region while the loop's
/// last winners have still to reach the old `BSYNC B0`).
#[derive(Clone, Copy, Default)]
pub struct Bregs {
    /// The instance of each barrier each lane belongs to (0: none).
    joined: [[u32; 16]; 32],
    next: u32,
}

impl Bregs {
    fn arm(&mut self, b: u8, group: u32) {
        self.next += 1;
        for l in 0..32 {
            if group >> l & 1 != 0 {
                self.joined[l][b as usize & 15] = self.next;
            }
        }
    }
}

fn release_lane(lanes: &mut [Lane; 32], bregs: &mut Bregs, l: usize) {
    if let Lane::Bsync(b, pc) = lanes[l] {
        bregs.joined[l][b as usize & 15] = 0;
        lanes[l] = Lane::Ready(pc + 1);
    }
}

/// A path that gives way (`YIELD`, a backward branch) while it is the only ready one lets
/// the lanes waiting for it in a `BSYNC` go on without it: the convergence barrier is soft, as
/// the spin locks ptxas compiles for Volta and later rely on (the lock's winner waits in the
/// `BSYNC` after the acquire loop while the losers spin with a `YIELD` in the loop). The
/// lanes that go on leave the barrier, so the others later pass it alone.
fn soft_release(lanes: &mut [Lane; 32], bregs: &mut Bregs, yielded: u32) {
    let others_ready = (0..32).any(|l| yielded >> l & 1 == 0 && matches!(lanes[l], Lane::Ready(_)));
    if others_ready {
        return;
    }
    for l in 0..32 {
        release_lane(lanes, bregs, l);
    }
}

/// Lets the lanes waiting in a `BSYNC` go on once every other member of the barrier instance
/// they joined waits there too or has exited (a lane that joined none passes at once).
fn release_bsync(lanes: &mut [Lane; 32], bregs: &mut Bregs) {
    for l in 0..32 {
        let Lane::Bsync(b, _) = lanes[l] else { continue };
        let inst = bregs.joined[l][b as usize & 15];
        let pending = (0..32).any(|o| {
            inst != 0
                && bregs.joined[o][b as usize & 15] == inst
                && !matches!(lanes[o], Lane::Exited)
                && !matches!(lanes[o], Lane::Bsync(x, _) if x == b)
        });
        if !pending {
            // Every waiting member of the instance goes on together.
            for o in 0..32 {
                if matches!(lanes[o], Lane::Bsync(x, _) if x == b) && bregs.joined[o][b as usize & 15] == inst {
                    release_lane(lanes, bregs, o);
                }
            }
        }
    }
}

/// Lets lanes at a `WARPSYNC` go on once every lane of their mask that has not exited is at one
/// (at any `WARPSYNC`: since Volta the lanes of a `__syncwarp` mask may meet at different ones).
/// ptxas 13.5 puts `WARPSYNC.ALL` before a `BAR.SYNC` that follows a spin loop, and `WARPSYNC
/// R0` before a `vote.sync` with a mask after one, and `WARPSYNC.ALL` after lanes exited (a
/// kernel whose lanes 8..31 `EXIT` first): a loop's lanes may leave its `BSYNC` apart (the
/// convergence barrier gives way to a yielding path, see [`soft_release`]), and exited lanes
/// count as arrived.
fn release_warpsync(lanes: &mut [Lane; 32]) {
    let waiting = mask_of(lanes, |l| matches!(l, Lane::WarpSync(..)));
    let exited = mask_of(lanes, |l| l == Lane::Exited);
    for l in lanes.iter_mut() {
        if let Lane::WarpSync(pc, m) = *l {
            if m & !exited & !waiting == 0 {
                *l = Lane::Ready(pc + 1);
            }
        }
    }
}
