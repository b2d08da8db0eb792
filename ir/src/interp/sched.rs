//! The launch: thread and block state, and the deterministic scheduler.
//!
//! Interleaving rule: threads are numbered in *linear order* — blocks in
//! grid order (x fastest, then y, then z), and within a block threads in
//! block order (x fastest). The scheduler makes rounds over all threads in
//! that order; in each round every runnable thread executes exactly one
//! instruction. So every memory access of one thread is interleaved with
//! those of all others, and contended atomics and CAS retry loops really do
//! compete. The interleaving is sequentially consistent, which is why
//! fences (and the memory orders of atomics) have no further effect.
//!
//! A subgroup instruction parks a thread too, until every live thread of
//! its subgroup is parked; then `subgroup.rs` runs the instruction for the
//! lanes that reached it together (see [`InstData`](crate::InstData#subgroups)).
//!
//! `barrier` parks a thread. When every live (not yet returned) thread of
//! its block is parked at the *same* barrier instruction, all of them are
//! released and continue after it in the next round. If every live thread of
//! a block is parked but at different barrier instructions, the block can
//! never go on: that is reported as a deadlock. Every thread of a block must
//! reach each barrier its block waits at: a thread that returns while others
//! of its block wait at a barrier, or a thread that reaches a barrier after
//! another of its block returned, is undefined behaviour (the hardware hangs
//! or faults) and an error naming both places ([`InterpError::BarrierNotReached`]).

use super::decode::Program;
use super::error::InterpError;
use super::memory::Memory;
use super::value::DataValue;

/// The default for [`Launch::step_limit`]: ten million instructions.
pub const DEFAULT_STEP_LIMIT: u64 = 10_000_000;

/// The most threads (grid × block) one launch may have; every thread is
/// resident at once.
pub const MAX_THREADS: u64 = 1 << 20;

/// The subgroup size of a launch unless it says otherwise (an NVIDIA warp).
pub const DEFAULT_SUBGROUP_SIZE: u32 = 32;

/// The most shared memory per block, in bytes.
pub const MAX_SHARED_BYTES: u32 = 1 << 24;

/// The most shared memory of all blocks of a launch together, in bytes
/// (every block is resident at once).
const MAX_TOTAL_SHARED_BYTES: usize = 1 << 28;

/// The most registers (threads × values of the function) of a launch.
const MAX_REGISTERS: usize = 1 << 26;

/// A 3-D size or index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dim3 {
    pub x: u32,
    pub y: u32,
    pub z: u32,
}

impl Dim3 {
    /// `(x, y, z)`.
    pub fn new(x: u32, y: u32, z: u32) -> Dim3 {
        Dim3 { x, y, z }
    }

    /// `(x, 1, 1)`.
    pub fn x(x: u32) -> Dim3 {
        Dim3 { x, y: 1, z: 1 }
    }

    /// `x * y * z`.
    pub fn count(self) -> u64 {
        self.x as u64 * self.y as u64 * self.z as u64
    }

    /// The index of linear number `i` (x fastest).
    pub(crate) fn unlinear(self, i: usize) -> [u32; 3] {
        let (x, y) = (self.x as usize, self.y as usize);
        [(i % x) as u32, ((i / x) % y) as u32, (i / (x * y)) as u32]
    }
}

/// How to launch a kernel.
#[derive(Clone, Debug, PartialEq)]
pub struct Launch {
    /// Blocks per grid.
    pub grid: Dim3,
    /// Threads per block.
    pub block: Dim3,
    /// Bytes of dynamic shared memory per block, after the kernel's shared variables
    /// ([`Function::shared_layout`](crate::Function::shared_layout)); all of it fresh and
    /// zeroed for each block.
    pub shared_bytes: u32,
    /// The most instructions to execute, over all threads.
    pub step_limit: u64,
    /// One value per kernel parameter, of the parameter's type.
    pub args: Vec<DataValue>,
    /// Lanes per subgroup: a power of two from 1 to 32 (see
    /// [`InstData`](crate::InstData#subgroups)).
    pub subgroup_size: u32,
}

impl Launch {
    /// A launch with no shared memory and the default step limit.
    pub fn new(grid: Dim3, block: Dim3, args: Vec<DataValue>) -> Launch {
        Launch {
            grid,
            block,
            shared_bytes: 0,
            step_limit: DEFAULT_STEP_LIMIT,
            args,
            subgroup_size: DEFAULT_SUBGROUP_SIZE,
        }
    }
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunStats {
    /// Instructions executed, over all threads.
    pub steps: u64,
    /// Atomic read-modify-writes and compare-and-swaps executed, over all threads: the atomics
    /// a compiler that does not aggregate issues, one per lane.
    pub atomics: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Status {
    Run,
    /// Parked at the barrier at this pc.
    Wait(u32),
    /// Parked at the subgroup instruction at this pc.
    Sub(u32),
    Done,
}

#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct BlockState {
    pub live: u32,
    pub waiting: u32,
}

/// What one step did, for the scheduler.
pub(crate) enum Event {
    Next,
    Barrier(u32),
    Subgroup(u32),
    Exit,
}

/// Every thread of a launch, with its registers and memory.
pub(crate) struct Machine<'a, 'f> {
    pub prog: &'a Program<'f>,
    pub mem: &'a mut Memory,
    pub shared: Vec<u8>,
    pub shared_size: usize,
    pub nvals: usize,
    pub regs: Vec<u64>,
    pub def: Vec<bool>,
    pub pcs: Vec<u32>,
    pub status: Vec<Status>,
    pub grid: Dim3,
    pub block: Dim3,
    pub tpb: usize,
    /// Lanes per subgroup.
    pub sg_size: usize,
    pub blocks: Vec<BlockState>,
    pub tmp: Vec<u64>,
    /// The values of the first `return` (for single-thread calls).
    pub ret: Option<Vec<u64>>,
    /// Atomic read-modify-writes and compare-and-swaps executed so far.
    pub atomics: u64,
}

impl<'a, 'f> Machine<'a, 'f> {
    /// Sets up every thread of `launch` at the entry with its arguments.
    pub fn new(
        prog: &'a Program<'f>,
        mem: &'a mut Memory,
        launch: &Launch,
    ) -> Result<Self, InterpError> {
        let bad = |m: String| Err(InterpError::BadLaunch(m));
        let (g, b) = (launch.grid, launch.block);
        if g.count() == 0 || b.count() == 0 {
            return bad(format!("empty grid or block ({g:?}, {b:?})"));
        }
        let threads = g.count() * b.count();
        if threads > MAX_THREADS {
            return bad(format!(
                "{threads} threads; at most {MAX_THREADS} are supported"
            ));
        }
        let sg = launch.subgroup_size;
        if !(1..=32).contains(&sg) || !sg.is_power_of_two() {
            return bad(format!("subgroup size {sg}; it must be a power of two from 1 to 32"));
        }
        let static_bytes = prog.func.shared_layout().static_bytes;
        let shared_total = u64::from(static_bytes) + u64::from(launch.shared_bytes);
        if shared_total > u64::from(MAX_SHARED_BYTES) {
            return bad(format!(
                "{shared_total} bytes of shared memory ({static_bytes} declared, {} dynamic); at most {MAX_SHARED_BYTES}",
                launch.shared_bytes
            ));
        }
        let types = prog.func.params();
        if types.len() != launch.args.len() {
            return bad(format!(
                "%{} takes {} arguments, {} given",
                prog.func.name,
                types.len(),
                launch.args.len()
            ));
        }
        for (i, (t, a)) in types.iter().zip(&launch.args).enumerate() {
            if *t != a.ty() {
                return bad(format!(
                    "argument {i} is {} {a}, the parameter is {t}",
                    a.ty()
                ));
            }
        }
        let threads = threads as usize;
        let nvals = prog.num_values;
        let regs_len = threads.checked_mul(nvals).filter(|&n| n <= MAX_REGISTERS);
        let Some(regs_len) = regs_len else {
            return bad(format!(
                "{threads} threads × {nvals} values need too many registers"
            ));
        };
        let mut regs = vec![0u64; regs_len];
        let mut def = vec![false; regs_len];
        for t in 0..threads {
            for (&p, a) in prog.params.iter().zip(&launch.args) {
                regs[t * nvals + p as usize] = a.bits();
                def[t * nvals + p as usize] = true;
            }
        }
        let nblocks = g.count() as usize;
        let tpb = b.count() as usize;
        let shared_size = shared_total as usize;
        if shared_size.saturating_mul(nblocks) > MAX_TOTAL_SHARED_BYTES {
            return bad(format!(
                "{nblocks} blocks × {shared_size} bytes of shared memory exceed {MAX_TOTAL_SHARED_BYTES} bytes"
            ));
        }
        Ok(Machine {
            prog,
            mem,
            shared: vec![0; shared_size * nblocks],
            shared_size,
            nvals,
            regs,
            def,
            pcs: vec![0; threads],
            status: vec![Status::Run; threads],
            grid: g,
            block: b,
            tpb,
            sg_size: sg as usize,
            blocks: vec![
                BlockState {
                    live: tpb as u32,
                    waiting: 0
                };
                nblocks
            ],
            tmp: Vec::new(),
            ret: None,
            atomics: 0,
        })
    }

    /// `(block_id, thread_id)` of thread `t`.
    pub fn ids(&self, t: usize) -> ([u32; 3], [u32; 3]) {
        (
            self.grid.unlinear(t / self.tpb),
            self.block.unlinear(t % self.tpb),
        )
    }

    /// Runs every thread to completion (or to the first error).
    pub fn run(&mut self, step_limit: u64) -> Result<RunStats, InterpError> {
        let total = self.pcs.len();
        let mut steps = 0u64;
        // Threads that have not returned, in linear order; compacted after
        // each round so a long tail of one spinning thread stays cheap.
        let mut alive: Vec<u32> = (0..total as u32).collect();
        while !alive.is_empty() {
            let mut progressed = false;
            let mut exited = false;
            for &t in &alive {
                let t = t as usize;
                if self.status[t] != Status::Run {
                    continue;
                }
                progressed = true;
                if steps == step_limit {
                    let next = Box::new(self.prog.site(self.pcs[t] as usize, Some(self.ids(t))));
                    return Err(InterpError::StepLimit { limit: step_limit, next });
                }
                steps += 1;
                let pc = self.pcs[t] as usize;
                match self.step(t) {
                    Ok(Event::Next) => {}
                    Ok(Event::Barrier(at)) => {
                        self.status[t] = Status::Wait(at);
                        let b = t / self.tpb;
                        self.blocks[b].waiting += 1;
                        self.check_all_reach_barrier(b)?;
                        self.check_barrier(b)?;
                        self.check_subgroup(t)?;
                    }
                    Ok(Event::Subgroup(at)) => {
                        self.status[t] = Status::Sub(at);
                        self.check_subgroup(t)?;
                    }
                    Ok(Event::Exit) => {
                        self.status[t] = Status::Done;
                        // A returned thread keeps the `return` it ran as its place.
                        self.pcs[t] = pc as u32;
                        exited = true;
                        let b = t / self.tpb;
                        self.blocks[b].live -= 1;
                        self.check_all_reach_barrier(b)?;
                        self.check_barrier(b)?;
                        self.check_subgroup(t)?;
                    }
                    Err(f) => return Err(f.at(self.prog.site(pc, Some(self.ids(t))))),
                }
            }
            if exited {
                alive.retain(|&t| self.status[t as usize] != Status::Done);
            }
            if !progressed && !alive.is_empty() {
                return Err(InterpError::Deadlock {
                    detail: "no thread can run".to_string(),
                });
            }
        }
        Ok(RunStats { steps, atomics: self.atomics })
    }

    /// Fails when threads of block `b` wait at a barrier that others of the block,
    /// having returned, will never reach.
    fn check_all_reach_barrier(&self, b: usize) -> Result<(), InterpError> {
        let st = self.blocks[b];
        if st.waiting == 0 || st.live as usize == self.tpb {
            return Ok(());
        }
        let range = b * self.tpb..(b + 1) * self.tpb;
        // A waiting thread's place is its barrier; a returned one's, its `return`.
        let first = |want: fn(Status) -> bool| {
            let ts: Vec<usize> = range.clone().filter(|&t| want(self.status[t])).collect();
            let &t = ts.first()?;
            let pc = match self.status[t] {
                Status::Wait(pc) => pc,
                _ => self.pcs[t],
            };
            Some((ts.len(), Box::new(self.prog.site(pc as usize, Some(self.ids(t))))))
        };
        // The counts say both kinds exist; the `Option`s only keep this panic-free.
        let (Some((waiting, barrier)), Some((returned, exit))) =
            (first(|s| matches!(s, Status::Wait(_))), first(|s| s == Status::Done))
        else {
            return Ok(());
        };
        Err(InterpError::BarrierNotReached {
            waiting,
            barrier,
            returned,
            exit,
        })
    }

    /// Releases block `b`'s barrier when every live thread waits at it.
    fn check_barrier(&mut self, b: usize) -> Result<(), InterpError> {
        let st = self.blocks[b];
        if st.waiting == 0 || st.waiting < st.live {
            return Ok(());
        }
        let range = b * self.tpb..(b + 1) * self.tpb;
        let mut at: Vec<(u32, usize)> = Vec::new();
        for t in range.clone() {
            if let Status::Wait(pc) = self.status[t] {
                match at.iter_mut().find(|(p, _)| *p == pc) {
                    Some(e) => e.1 += 1,
                    None => at.push((pc, 1)),
                }
            }
        }
        if at.len() > 1 {
            let (bid, _) = self.ids(range.start);
            let places: Vec<String> = at
                .iter()
                .map(|&(pc, n)| format!("{} thread(s) at {}", n, self.prog.site(pc as usize, None)))
                .collect();
            return Err(InterpError::Deadlock {
                detail: format!(
                    "every live thread of block ({},{},{}) waits at a barrier, but not at the same one: {}",
                    bid[0],
                    bid[1],
                    bid[2],
                    places.join("; ")
                ),
            });
        }
        for t in range {
            if matches!(self.status[t], Status::Wait(_)) {
                self.status[t] = Status::Run;
            }
        }
        self.blocks[b].waiting = 0;
        Ok(())
    }
}
