//! The launch: blocks of warps, the scheduler that interleaves them, block barriers, and the
//! issue of one instruction (guard, timing check, semantics, SIMT update, counts).

use crate::exec::{self, lanes, Ctx};
use crate::kernel::{Kernel, Sm, SM90_SHARED_RESERVED};
use crate::memory::{Memory, GLOBAL_BASE};
use crate::order::{OrderInfo, Weak};
use crate::rng::Rng;
use crate::simt::{Flow, Simt};
use crate::timing::{SlotInfo, WarpTiming};
use crate::warp::{Cc, Warp};
use crate::{EmuError, Launch, Outcome, Param, Schedule, Stats};
use atomc_emit::sass::hazard::effective_stall;
use atomc_emit::sass::latency::Timing;
use atomc_emit::sass::roles::loc_name;
use smallvec::SmallVec;

/// Per-slot facts computed once per launch.
struct Pre {
    info: Vec<Option<SlotInfo>>,
    mods: Vec<SmallVec<[&'static str; 8]>>,
    order: Vec<OrderInfo>,
}

impl Kernel {
    /// The parameter block of a launch.
    fn param_bytes(&self, launch: &Launch) -> Result<Vec<u8>, EmuError> {
        if launch.params.len() != self.params.len() {
            return Err(EmuError::Launch(format!(
                "kernel {} has {} parameters, the launch gives {}",
                self.name,
                self.params.len(),
                launch.params.len()
            )));
        }
        let end = self.params.iter().map(|p| p.offset + p.size).max().unwrap_or(0);
        if end > 0x1000 {
            return Err(EmuError::Cubin(format!("parameter block of {end} bytes")));
        }
        let mut out = vec![0u8; end as usize];
        for (i, (p, slot)) in launch.params.iter().zip(&self.params).enumerate() {
            let bytes = match p {
                Param::Bytes(b) => b.clone(),
                Param::Buffer { index, offset } => ((*index as u64 + 1) * GLOBAL_BASE + offset).to_le_bytes().to_vec(),
            };
            // A value shorter than its slot (an 8- or 16-bit value in a 32-bit slot): the driver
            // copies the slot's size from the argument, so the bytes past the value are whatever
            // follows it; they are poisoned here, so code that reads them shows.
            let mut bytes = bytes;
            if bytes.len() < slot.size as usize && matches!(p, Param::Bytes(_)) {
                bytes.resize(slot.size as usize, 0xa5);
            }
            if bytes.len() != slot.size as usize {
                return Err(EmuError::Launch(format!(
                    "parameter {i} has {} bytes, the kernel expects {}",
                    bytes.len(),
                    slot.size
                )));
            }
            out[slot.offset as usize..(slot.offset + slot.size) as usize].copy_from_slice(&bytes);
        }
        Ok(out)
    }

    /// Runs the kernel.
    pub fn run(&self, launch: &Launch) -> Result<Outcome, EmuError> {
        let [bx, by, bz] = launch.block;
        let [gx, gy, gz] = launch.grid;
        let per_block = bx as u64 * by as u64 * bz as u64;
        let blocks = gx as u64 * gy as u64 * gz as u64;
        if per_block == 0 || per_block > 1024 || blocks == 0 || blocks * per_block > 1 << 20 {
            return Err(EmuError::Launch(format!(
                "grid {:?} × block {:?} is not a launch the emulator takes",
                launch.grid, launch.block
            )));
        }
        if launch.buffers.len() as u64 >= u32::MAX as u64 {
            return Err(EmuError::Launch("too many buffers".into()));
        }
        let params = self.param_bytes(launch)?;
        let mut bank0 = self.bank0(launch.grid, launch.block, &params);
        for (sym, off) in &self.surface_refs {
            let Some(&(_, v)) = launch.surface_refs.iter().find(|(s, _)| s == sym) else {
                return Err(EmuError::Launch(format!("no surface is bound to the kernel's reference {sym}")));
            };
            let off = *off as usize;
            if off % 4 != 0 || off >= 0x10000 {
                return Err(EmuError::Cubin(format!("{sym}'s header word at {off:#x} is not a constant-bank word")));
            }
            if bank0.len() < off + 4 {
                bank0.resize(off + 4, 0);
            }
            bank0[off..off + 4].copy_from_slice(&v.to_le_bytes());
        }
        let static_shared = match self.sm {
            Sm::Sm90 => self.static_shared.max(SM90_SHARED_RESERVED),
            Sm::Sm50 => self.static_shared,
        };
        let shared = static_shared as usize + launch.shared_bytes as usize;
        if shared > 228 * 1024 {
            return Err(EmuError::Launch(format!("{shared} bytes of shared memory per block")));
        }
        // Buffers are padded to whole 32-bit words: a device allocation has at least that
        // granularity, and ptxas emulates 8- and 16-bit atomics with a CAS loop on the word
        // that contains the datum (the padding is not returned).
        let mut mem = Memory {
            global: launch
                .buffers
                .iter()
                .map(|b| {
                    let mut b = b.clone();
                    b.resize(b.len().div_ceil(4) * 4, 0);
                    b
                })
                .collect(),
            shared: vec![vec![0u8; shared]; blocks as usize],
            local: Vec::new(),
            surfaces: launch.surfaces.clone(),
            weak: match launch.schedule {
                Schedule::Random(seed) => Some(Weak::new(blocks as usize, seed)),
                Schedule::RoundRobin => None,
            },
        };
        let pre = Pre {
            info: self
                .slots
                .iter()
                .map(|s| s.instr.as_ref().map(|i| SlotInfo::new(self.arch, i)))
                .collect(),
            mods: self
                .slots
                .iter()
                .map(|s| {
                    let Some(ins) = &s.instr else { return SmallVec::new() };
                    let form = &self.arch.forms[ins.form as usize];
                    form.mods
                        .iter()
                        .zip(ins.mods.iter())
                        .filter_map(|(g, v)| g.spelling(*v))
                        .flat_map(|s| s.split('.'))
                        .filter(|s| !s.is_empty())
                        .collect()
                })
                .collect(),
            order: self
                .slots
                .iter()
                .map(|s| s.instr.as_ref().map_or_else(OrderInfo::default, |i| OrderInfo::of(&self.arch.forms[i.form as usize], &i.mods)))
                .collect(),
        };
        let mut warps = Vec::new();
        let warps_per_block = per_block.div_ceil(32) as usize;
        for b in 0..blocks as usize {
            let ctaid = [(b as u32) % gx, (b as u32 / gx) % gy, b as u32 / (gx * gy)];
            for wi in 0..warps_per_block {
                let mut tid = [[0u32; 3]; 32];
                let mut present = 0u32;
                for (lane, t) in tid.iter_mut().enumerate() {
                    let lin = (wi * 32 + lane) as u32;
                    if (lin as u64) < per_block {
                        present |= 1 << lane;
                        *t = [lin % bx, (lin / bx) % by, lin / (bx * by)];
                    }
                }
                let simt = match self.sm {
                    Sm::Sm90 => Simt::per_lane(present),
                    Sm::Sm50 => Simt::stack(present),
                };
                warps.push(Warp {
                    block: b,
                    ctaid,
                    index: wi,
                    first_thread: b * per_block as usize + wi * 32,
                    tid,
                    regs: poison(255 * 32, b * 64 + wi),
                    preds: [0; 7],
                    uregs: poison(64, b * 64 + wi + 1).try_into().expect("64 words"),
                    upreds: 0,
                    cc: [Cc::default(); 32],
                    simt,
                    timing: WarpTiming::default(),
                    cycle: 0,
                });
            }
        }
        let mut run = Run {
            k: self,
            pre: &pre,
            bank0: &bank0,
            launch,
            timing: Timing::for_arch(self.arch),
            stats: Stats::default(),
            per_slot: vec![0; self.slots.len()],
        };
        run.go(&mut warps, &mut mem, warps_per_block)?;
        if let Some(mut w) = mem.weak.take() {
            w.finish(&mut mem.global);
        }
        let mut stats = run.stats;
        for (i, n) in run.per_slot.iter().enumerate() {
            if *n > 0 {
                if let Some(ins) = &self.slots[i].instr {
                    *stats.forms.entry(self.arch.opcode_text(ins)).or_default() += n;
                }
            }
        }
        stats.cycles = warps.iter().map(|w| w.cycle).max().unwrap_or(0);
        let buffers = mem.global.into_iter().zip(&launch.buffers).map(|(mut b, orig)| {
            b.truncate(orig.len());
            b
        });
        Ok(Outcome {
            buffers: buffers.collect(),
            surfaces: mem.surfaces,
            stats,
        })
    }
}

struct Run<'a> {
    k: &'a Kernel,
    pre: &'a Pre,
    bank0: &'a [u8],
    launch: &'a Launch,
    timing: Timing,
    stats: Stats,
    per_slot: Vec<u64>,
}

impl Run<'_> {
    fn go(&mut self, warps: &mut [Warp], mem: &mut Memory, per_block: usize) -> Result<(), EmuError> {
        let mut rng = match self.launch.schedule {
            Schedule::Random(seed) => Some(Rng::new(seed)),
            Schedule::RoundRobin => None,
        };
        let n = warps.len();
        let mut cursor = 0usize;
        let mut steps = 0u64;
        let mut ready: Vec<usize> = Vec::with_capacity(n);
        loop {
            ready.clear();
            ready.extend((0..n).filter(|&w| has_ready(&warps[w].simt)));
            if ready.is_empty() {
                if warps.iter().all(|w| w.simt.done()) {
                    return Ok(());
                }
                if !self.release_barriers(warps, per_block) {
                    return Err(EmuError::Deadlock(self.describe(warps)));
                }
                continue;
            }
            let wi = match rng.as_mut() {
                Some(r) => ready[r.below(ready.len())],
                None => {
                    let w = ready.iter().copied().find(|&w| w >= cursor).unwrap_or(ready[0]);
                    cursor = w + 1;
                    w
                }
            };
            steps += 1;
            if steps > self.launch.step_limit {
                return Err(EmuError::StepLimit {
                    limit: self.launch.step_limit,
                    state: self.describe(warps),
                });
            }
            let w = &mut warps[wi];
            let Some((pc, group)) = w.simt.next(rng.as_mut()) else {
                continue;
            };
            let flow = self.issue(w, mem, pc, group)?;
            if let Some(weak) = mem.weak.as_mut() {
                weak.tick(&mut mem.global, w.block);
            }
            w.simt.apply(pc, group, flow).map_err(|why| EmuError::Control {
                at: self.k.addr(pc),
                text: self.k.text(pc),
                why,
            })?;
            if matches!(flow, Flow::Bar(_)) {
                self.release_barriers(warps, per_block);
            }
        }
    }

    /// Releases every block whose live lanes all wait at the barrier; whether any was.
    fn release_barriers(&self, warps: &mut [Warp], per_block: usize) -> bool {
        let mut any = false;
        for block in warps.chunks_mut(per_block.max(1)) {
            let waiting = block.iter().any(|w| w.simt.at_bar() != 0);
            if waiting && block.iter().all(|w| w.simt.at_bar() == w.simt.alive()) {
                block.iter_mut().for_each(|w| w.simt.release_bar());
                any = true;
            }
        }
        any
    }

    fn describe(&self, warps: &[Warp]) -> String {
        let addr = |i: usize| self.k.addr(i);
        let mut parts = Vec::new();
        for w in warps.iter().filter(|w| !w.simt.done()) {
            parts.push(format!(
                "block {} warp {}: {}",
                w.block,
                w.index,
                w.simt.describe(&addr)
            ));
            if parts.len() >= 4 {
                parts.push("...".into());
                break;
            }
        }
        parts.join("; ")
    }

    /// Issues slot `pc` for `group` of warp `w`.
    fn issue(&mut self, w: &mut Warp, mem: &mut Memory, pc: usize, group: u32) -> Result<Flow, EmuError> {
        let k = self.k;
        let slot = &k.slots[pc];
        let Some(ins) = &slot.instr else {
            return Err(EmuError::Decode {
                at: slot.addr,
                reason: format!("the form table does not know the word {:#x}", k.word_at(slot.addr)),
            });
        };
        let form = &k.arch.forms[ins.form as usize];
        let exec = if form.uniform_guard {
            if w.upred(ins.guard.num) != ins.guard.not {
                group
            } else {
                0
            }
        } else {
            lanes(group)
                .filter(|&l| w.pred(ins.guard.num, l) != ins.guard.not)
                .fold(0, |m, l| m | 1 << l)
        };
        let sched = slot.sched;
        if self.launch.check_timing {
            if let Some(info) = &self.pre.info[pc] {
                w.timing
                    .issue(self.timing, k.arch, ins, info, pc, &sched, group, w.cycle)
                    .map_err(|f| EmuError::Hazard {
                        reg: loc_name(f.loc),
                        what: f.what(),
                        consumer_at: slot.addr,
                        consumer: k.text(pc),
                        producer_at: k.addr(f.producer),
                        producer: k.text(f.producer),
                    })?;
            }
        }
        let mut c = Ctx {
            k,
            i: pc,
            ins,
            form,
            mods: self.pre.mods[pc].clone(),
            order: self.pre.order[pc],
            w,
            mem,
            bank0: self.bank0,
            group,
            exec,
            stats: &mut self.stats,
        };
        let flow = exec::execute(&mut c)?;
        if self.launch.check_timing {
            if let Some(info) = &self.pre.info[pc] {
                let infos = &self.pre.info;
                let unit_of = |p: usize| infos.get(p).and_then(|i| i.as_ref()).map(|i| i.unit);
                w.timing.record(info, pc, &sched, group, w.cycle, &unit_of);
            }
        }
        w.cycle += effective_stall(self.timing, &sched) as u64;
        self.stats.instructions += 1;
        self.per_slot[pc] += 1;
        Ok(flow)
    }
}

/// Whether some lane of the warp can issue (without choosing a group).
fn has_ready(s: &Simt) -> bool {
    match s {
        Simt::PerLane { lanes, .. } => lanes.iter().any(|l| matches!(l, crate::simt::Lane::Ready(_))),
        Simt::Stack { active, at_bar, .. } => *active != 0 && !at_bar,
    }
}

/// Registers hold no defined value at launch: each word starts as a distinct, nonzero pattern
/// (never a buffer address, never 0 or 1), so code that reads a register before writing it
/// computes garbage here as it would on a GPU, instead of finding the zero that an all-clear
/// register file would give it for free.
fn poison(words: usize, seed: usize) -> Vec<u32> {
    (0..words)
        .map(|i| {
            let x = ((seed * 0x1_0000 + i) as u32).wrapping_mul(0x9e37_79b1);
            (x ^ (x >> 15)) | 0x8000_0010
        })
        .collect()
}
