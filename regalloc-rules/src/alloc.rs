//! Running regalloc2 Ion on a VCode and mapping its result onto hardware registers.
//!
//! Each shape is its own regalloc2 class (Int = single, Float = pair, Vector = quad), sized from
//! the measured pressure. After allocation the used registers are coloured onto the hardware
//! file ([`HwMap::compact`]): registers (of any shapes) never live together share hardware
//! registers, every pair even and every quad 4-aligned, so the count is at most
//! `4*quads + 2*pairs + singles`. With a frame the simpler widest-first numbering
//! ([`HwMap::new`]) is used: quads from R4 in steps of 4, then pairs, then singles around R1.
//!
//! regalloc2 numbers at most 64 registers per class, fewer than the 253 (sm_90) or 255 (sm_50)
//! general registers a thread may name. The rest of the file holds regalloc2's spill slots:
//! after the mapping, spill slot `s` (in 4-byte units, aligned to its width by regalloc2)
//! becomes register `R(base + s)`, `base` the first register above those allocated (aligned to
//! the widest slot), so a spill or reload is a `MOV`. Only the slots that do not fit below the
//! register limit (the target's, or [`AllocOptions::max_registers`]) go to local memory
//! (`STL`/`LDL` at `[R1+offset]`); then `R1` is the frame register ([`FRAME_REG`]), reserved by
//! the mapping.

use crate::adapter::{shape_of, Ra2Func};
use crate::liveness::max_live;
use crate::rules::TargetRules;
use atomc_lower::vcode::{HwReg, MachInst, Reg, RegClass, SpillSlot, VCode, FRAME_REG};
use regalloc2 as ra2;

mod interference;
use interference::Interference;

/// Allocation knobs.
#[derive(Copy, Clone, Debug)]
pub struct AllocOptions {
    /// Validate the input first as regalloc2's SSA validator does (default: on; it costs little
    /// and turns a malformed VCode into an error instead of undefined allocator behaviour). The
    /// checks run in `ssa.rs`, in linear time, rather than in regalloc2.
    pub validate_ssa: bool,
    /// Run regalloc2's own checker on its output (default: debug builds).
    pub regalloc2_checker: bool,
    /// Preferred registers offered per class beyond the measured MaxLive.
    pub slack: u32,
    /// Cap on registers offered per class (regalloc2 allows at most 64); lower it to force
    /// spills in tests.
    pub max_per_class: u32,
    /// Cap on the hardware registers the function may use, `R0..R(max_registers-1)`, like
    /// ptxas's `--maxrregcount` (the target's own limit when larger; at least 16). Values that
    /// do not fit are spilled to local memory.
    pub max_registers: u32,
}

impl Default for AllocOptions {
    fn default() -> Self {
        AllocOptions {
            validate_ssa: true,
            regalloc2_checker: cfg!(debug_assertions),
            slack: 2,
            max_per_class: 64,
            max_registers: 255,
        }
    }
}

/// Why allocation failed.
#[derive(Debug, thiserror::Error)]
pub enum AllocError {
    #[error("register allocator rejected the function: {0}")]
    Regalloc(#[from] ra2::RegAllocError),
    #[error("regalloc2 checker found errors: {0}")]
    Checker(String),
    #[error("the function needs {needed} registers; the target allows {usable}")]
    TooManyRegisters { needed: u32, usable: u32 },
    #[error("instruction {inst}: operand allocated to a stack slot where a register is required")]
    StackOperand { inst: usize },
    #[error(transparent)]
    Rules(#[from] crate::check::RuleError),
}

/// One data movement the allocator asks for, in hardware terms.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Edit {
    /// Register to register copy of one value of `class`.
    Move {
        dst: HwReg,
        src: HwReg,
        class: RegClass,
    },
    /// Store to local memory at `[R1+slot]`.
    Spill {
        slot: SpillSlot,
        src: HwReg,
        class: RegClass,
    },
    /// Load from local memory at `[R1+slot]`.
    Reload {
        dst: HwReg,
        slot: SpillSlot,
        class: RegClass,
    },
}

/// Where an edit goes: before or after instruction `inst` (of the VCode).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct EditAt {
    pub inst: u32,
    pub after: bool,
    pub edit: Edit,
}

/// Counters worth reporting.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct AllocStats {
    /// Register-to-register moves (each of one value; a pair move may become 2 MOVs).
    pub moves: u32,
    /// Stores to spill slots in local memory (`STL`).
    pub spills: u32,
    /// Loads from spill slots in local memory (`LDL`).
    pub reloads: u32,
    /// regalloc2 spills and reloads that became register moves because their slot is a
    /// register of the file above regalloc2's (counted apart from `moves`).
    pub slot_moves: u32,
    /// regalloc2's spill slots (4-byte units) held in registers.
    pub slot_regs: u32,
    /// Measured MaxLive per class (Single, Pair, Quad).
    pub max_live: [u32; 3],
    /// Registers offered per class (preferred + non-preferred) in the successful attempt.
    pub offered: [u32; 3],
    /// Registers of each class actually used.
    pub used: [u32; 3],
    /// Allocator runs (1, or 2 when the first result exceeded the budget).
    pub attempts: u32,
}

/// The allocator's answer, in hardware registers.
#[derive(Clone, Debug)]
pub struct Allocation {
    field_regs: Vec<Option<HwReg>>,
    field_offsets: Vec<u32>,
    /// Moves, spills and reloads, sorted by position.
    pub edits: Vec<EditAt>,
    /// GPRs used: R0..R(num_regs-1).
    pub num_regs: u32,
    /// `num_regs` rounded up to the hardware's allocation granule of 8 (informational: 254
    /// registers round to 256 although no kernel can name more than 255).
    pub num_regs_rounded: u32,
    /// 4-byte local-memory slots used by spills.
    pub spill_slots: u32,
    /// The frame register (`R1`, set up by the kernel's prologue) when `spill_slots > 0`.
    pub frame_reg: Option<HwReg>,
    /// The register limit allocation worked under (the target's, or the option's cap).
    pub limit: u32,
    pub stats: AllocStats,
}

impl Allocation {
    /// For each field of VCode instruction `inst` (in visit order): its hardware register
    /// (the tuple base plus the field's part), or `None` for RZ.
    pub fn inst_regs(&self, inst: usize) -> &[Option<HwReg>] {
        let (a, b) = (self.field_offsets[inst], self.field_offsets[inst + 1]);
        &self.field_regs[a as usize..b as usize]
    }

    /// Bytes of local memory the spill slots need: the frame size, a multiple of 8 (16 when a
    /// quad may live there), as ptxas sizes its frames.
    pub fn spill_bytes(&self) -> u32 {
        if self.spill_slots == 0 {
            0
        } else {
            (self.spill_slots * 4).div_ceil(16) * 16
        }
    }
}

impl std::fmt::Display for AllocStats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [s, p, q] = self.max_live;
        let [us, up, uq] = self.used;
        write!(
            f,
            "moves {}, spills {}, reloads {}, slot moves {} ({} slot registers); max live {s}/{p}/{q}, registers used {us}/{up}/{uq} \
             (single/pair/quad)",
            self.moves, self.spills, self.reloads, self.slot_moves, self.slot_regs
        )
    }
}

impl std::fmt::Display for Allocation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} GPRs ({} rounded to 8), {} spill bytes; {}",
            self.num_regs,
            self.num_regs_rounded,
            self.spill_bytes(),
            self.stats
        )
    }
}

/// Allocate registers for `vcode` within `rules`' budget.
pub fn allocate<I: MachInst>(
    vcode: &VCode<I>,
    rules: &TargetRules,
    opts: &AllocOptions,
) -> Result<Allocation, AllocError> {
    let func = Ra2Func::new(vcode);
    let max_live = max_live(vcode);
    let demand = operand_demand(&func);
    let limit = u32::from(rules.usable).min(opts.max_registers.max(16));
    let cap = opts.max_per_class.clamp(1, 64);
    // The same checks as regalloc2's own validator, which costs the dominator tree's depth per
    // use (quadratic in a long sequence of diamonds): run once here in linear time instead.
    if opts.validate_ssa {
        crate::ssa::validate(&func).map_err(|e| func.vcode_names(e))?;
    }
    let ra_opts = ra2::RegallocOptions {
        validate_ssa: false,
        ..Default::default()
    };
    let mut last_total = 0;
    let mut attempts = 0;
    // The budget regalloc2's own registers get: the limit, less what the frame register and
    // the alignment holes it leaves cost when a first try needs local memory.
    let mut budget = limit;
    while attempts < 8 {
        // A class nothing is ever live in gets no registers, so it costs no budget.
        let wanted: [u32; 3] = std::array::from_fn(|c| {
            let m = max_live[c];
            if m == 0 { 0 } else { (m + opts.slack).clamp(1, cap).max(demand[c]) }
        });
        let preferred = fit_budget(wanted, demand, budget);
        let used_by_pref: u32 = weighted(&preferred);
        let spare = budget.saturating_sub(used_by_pref);
        let generous: [u32; 3] = std::array::from_fn(|c| {
            let w = u32::from(RegClass::ALL[c].width());
            if max_live[c] == 0 {
                0
            } else {
                (cap - preferred[c]).min(spare / w)
            }
        });
        let mut shrink = None;
        for extra in [generous, [0; 3]] {
            attempts += 1;
            let env = machine_env(preferred, extra);
            let out = ra2::run(&func, &env, &ra_opts).map_err(|e| func.vcode_names(e))?;
            if opts.regalloc2_checker {
                let mut checker = ra2::checker::Checker::new(&func, &env);
                checker.prepare(&out);
                checker.run().map_err(|e| AllocError::Checker(format!("{e:?}")))?;
            }
            let mut map = HwMap::compact(vcode, &func, &out);
            if map.total > budget {
                // Retry without the non-preferred extras: the preferred sets alone fit the budget.
                last_total = map.total;
                continue;
            }
            let slots = out.num_spillslots as u32;
            let widest = widest_slot(&out);
            let mut plan = SlotPlan::new(map.total, slots, widest, limit, None);
            if plan.mem_units > 0 {
                // Local memory needs the frame register: map again around R1.
                map = HwMap::new(&out, true);
                if map.total > limit {
                    last_total = map.total;
                    shrink = Some(map.total - limit);
                    break;
                }
                plan = SlotPlan::new(map.total, slots, widest, limit, HwReg::new(FRAME_REG));
            }
            let mut stats = AllocStats {
                max_live,
                offered: std::array::from_fn(|c| preferred[c] + extra[c]),
                used: map.count,
                attempts,
                slot_regs: plan.in_regs,
                ..AllocStats::default()
            };
            let (field_regs, field_offsets) = field_regs(vcode, &out, &map)?;
            let edits = edits(&out, &map, &plan, &mut stats);
            let num_regs = plan.num_regs(map.total);
            return Ok(Allocation {
                field_regs,
                field_offsets,
                edits,
                num_regs,
                num_regs_rounded: num_regs.div_ceil(8) * 8,
                spill_slots: plan.mem_units,
                frame_reg: plan.frame,
                limit,
                stats,
            });
        }
        // Both tries overflowed the budget (or the frame register's holes did): shrink it.
        let by = shrink.unwrap_or(4).max(1);
        if budget <= by + 4 {
            break;
        }
        budget -= by;
    }
    Err(AllocError::TooManyRegisters { needed: last_total, usable: limit })
}

/// The widest spill slot regalloc2 used (1, 2 or 4 units; 1 when none).
fn widest_slot(out: &ra2::Output) -> u32 {
    out.edits
        .iter()
        .filter_map(|(_, ra2::Edit::Move { from, to })| {
            let (s, r) = if from.is_stack() { (from, to) } else { (to, from) };
            s.is_stack().then(|| r.as_reg().map(|p| u32::from(shape_of(p.class()).width()))).flatten()
        })
        .max()
        .unwrap_or(1)
}

/// Where regalloc2's spill slots live: the first `in_regs` units in registers from `base`
/// (4-aligned, so every slot keeps its width's alignment), the rest in local memory from
/// `[R1+0]`, offsets counted from the first unit past those in registers (a multiple of the
/// widest slot, so pairs stay 8- and quads 16-byte aligned).
#[derive(Copy, Clone, Debug)]
struct SlotPlan {
    base: u32,
    in_regs: u32,
    mem_units: u32,
    frame: Option<HwReg>,
}

impl SlotPlan {
    fn new(allocated: u32, slots: u32, widest: u32, limit: u32, frame: Option<HwReg>) -> SlotPlan {
        // Slot registers start 4-aligned only when a slot is wider than one register.
        let align = widest.max(1);
        let base = allocated.div_ceil(align) * align;
        let room = limit.saturating_sub(base);
        let in_regs = if slots <= room { slots } else { room & !(align - 1) };
        SlotPlan { base, in_regs, mem_units: slots - in_regs, frame: frame.filter(|_| slots > in_regs) }
    }

    /// Registers used: those allocated, and the slot registers above them.
    fn num_regs(&self, allocated: u32) -> u32 {
        if self.in_regs > 0 {
            self.base + self.in_regs
        } else {
            allocated
        }
    }

    /// A slot's home: a register, or a byte offset in the frame.
    fn home(&self, slot: u32) -> Result<HwReg, SpillSlot> {
        if slot < self.in_regs {
            Ok(HwReg::new((self.base + slot) as u8).expect("slot registers lie below the limit"))
        } else {
            Err(SpillSlot((slot - self.in_regs) * 4))
        }
    }
}

/// `4*quads + 2*pairs + singles`.
fn weighted(n: &[u32; 3]) -> u32 {
    n.iter()
        .zip(RegClass::ALL)
        .map(|(n, c)| n * u32::from(c.width()))
        .sum()
}

/// Shrink the per-class counts until they fit `usable` registers, largest consumer first.
fn fit_budget(mut n: [u32; 3], floor: [u32; 3], usable: u32) -> [u32; 3] {
    while weighted(&n) > usable {
        let widest = (0..3)
            .filter(|&c| n[c] > floor[c].max(1))
            .max_by_key(|&c| n[c] * u32::from(RegClass::ALL[c].width()));
        match widest {
            Some(c) => n[c] -= 1,
            None => break,
        }
    }
    n
}

/// The registers of each class one instruction needs at once: its register operands of that
/// class, a def that reuses an input's register counted once. regalloc2 stops with
/// `TooManyLiveRegs` when a class offers fewer, however much it may spill, so a tight
/// register cap never shrinks a class below this. (An upper bound: a use that dies at the
/// instruction and a late def could share a register.)
fn operand_demand<F: ra2::Function>(func: &F) -> [u32; 3] {
    let mut demand = [0u32; 3];
    for i in 0..func.num_insts() {
        let mut here = [0u32; 3];
        for op in func.inst_operands(ra2::Inst::new(i)) {
            let in_register = match op.constraint() {
                ra2::OperandConstraint::Any | ra2::OperandConstraint::Stack => false,
                ra2::OperandConstraint::Reuse(_) => op.kind() == ra2::OperandKind::Use,
                _ => true,
            };
            if in_register {
                here[shape_of(op.class()).index()] += 1;
            }
        }
        for c in 0..3 {
            demand[c] = demand[c].max(here[c]);
        }
    }
    demand
}

fn machine_env(preferred: [u32; 3], extra: [u32; 3]) -> ra2::MachineEnv {
    let mut pref = [ra2::PRegSet::empty(); 3];
    let mut non_pref = [ra2::PRegSet::empty(); 3];
    for c in 0..3 {
        let class = crate::adapter::ra2_class(RegClass::ALL[c]);
        for e in 0..preferred[c] {
            pref[c].add(ra2::PReg::new(e as usize, class));
        }
        for e in preferred[c]..preferred[c] + extra[c] {
            non_pref[c].add(ra2::PReg::new(e as usize, class));
        }
    }
    ra2::MachineEnv {
        preferred_regs_by_class: pref,
        non_preferred_regs_by_class: non_pref,
        scratch_by_class: [None; 3],
        fixed_stack_slots: Vec::new(),
    }
}

/// regalloc2 PReg → hardware register, widest first.
struct HwMap {
    /// Per class, per hw_enc: the hardware base register.
    base: [[Option<u8>; 64]; 3],
    count: [u32; 3],
    total: u32,
}

impl HwMap {
    /// With `frame`, R1 is left out: quads from R4, the first pair in R2, singles in R0, R2, R3
    /// first (those the pairs left).
    fn new(out: &ra2::Output, frame: bool) -> HwMap {
        let mut used = [[false; 64]; 3];
        let mut mark = |a: ra2::Allocation| {
            if let Some(p) = a.as_reg() {
                used[shape_of(p.class()).index()][p.hw_enc()] = true;
            }
        };
        for a in &out.allocs {
            mark(*a);
        }
        for (_, ra2::Edit::Move { from, to }) in &out.edits {
            mark(*from);
            mark(*to);
        }
        let mut base = [[None; 64]; 3];
        let mut count = [0u32; 3];
        let mut next = if frame { 4u32 } else { 0 };
        let mut pair_holes: Vec<u32> = if frame { vec![2] } else { Vec::new() };
        let mut single_holes: Vec<u32> = if frame { vec![0] } else { Vec::new() };
        for class in [RegClass::Quad, RegClass::Pair, RegClass::Single] {
            let c = class.index();
            if class == RegClass::Single {
                // The R2..R3 hole goes to singles when no pair took it.
                single_holes.extend(pair_holes.drain(..).flat_map(|p| [p, p + 1]));
            }
            for e in 0..64 {
                if used[c][e] {
                    let holes = match class {
                        RegClass::Quad => None,
                        RegClass::Pair => Some(&mut pair_holes),
                        RegClass::Single => Some(&mut single_holes),
                    };
                    let at = match holes.filter(|h| !h.is_empty()) {
                        Some(h) => h.remove(0),
                        None => {
                            let at = next;
                            next += u32::from(class.width());
                            at
                        }
                    };
                    // Registers beyond R254 cannot exist; `total` reports the overflow.
                    base[c][e] = u8::try_from(at).ok().filter(|&n| n < 255);
                    count[c] += 1;
                }
            }
        }
        let next = if frame { next.max(u32::from(FRAME_REG) + 1) } else { next };
        HwMap {
            base,
            count,
            total: next,
        }
    }

    /// Without a frame: regalloc2's registers of different shapes (and registers of one shape
    /// whose values are never live together) share hardware registers. regalloc2 never lets a
    /// single share a register with a pair, because they are different classes, and it spreads
    /// values over its registers; both leave registers of the file unused that ptxas fills
    /// (a single in the half of a pair that is dead by then). So after allocation the registers
    /// regalloc2 used are coloured again on the hardware file: a backward liveness over the
    /// allocated code (operands and regalloc2's moves) gives which of them are ever live at
    /// once, and each takes the lowest aligned hardware register its interfering ones left
    /// free, quads first, then pairs, then singles. That order can only lower the count
    /// against the widest-first numbering of [`HwMap::new`] (each register finds its old place
    /// or a lower one free). Conservatively, an instruction's defs interfere with all its
    /// operands, so a tuple written half by half (sm_50 expansions) never overlaps a source.
    ///
    /// A selected one-register copy (`MOV`) whose source and destination clash only because
    /// both stay live afterwards, holding the same bits, joins them: the source is placed on
    /// the destination's register and the copy disappears. That is how a value computed or
    /// kept elsewhere lands in the half of sm_50's CAS group without a `MOV`, as ptxas does.
    fn compact<I: MachInst, F: ra2::Function>(vcode: &VCode<I>, func: &F, out: &ra2::Output) -> HwMap {
        let live = Interference::build(vcode, func, out);
        // Two greedy orders; the one with fewer registers wins, then the one that keeps more
        // joined copies on one register (they are dropped).
        let (a, ja) = HwMap::colour(&live, false);
        if live.joins.iter().all(|j| j.broken) {
            // Nothing to put first: the second order would be the first.
            return a;
        }
        let (b, jb) = HwMap::colour(&live, true);
        if (b.total, std::cmp::Reverse(jb)) < (a.total, std::cmp::Reverse(ja)) {
            b
        } else {
            a
        }
    }

    /// Greedy colouring in shape order (quads, pairs, singles); within a shape, by regalloc2's
    /// numbering, or with `joined_first` the registers with a join first, so no other register
    /// of their shape takes the place the join gives them. Returns the map and how many joins
    /// it kept on one register.
    fn colour(live: &Interference, joined_first: bool) -> (HwMap, usize) {
        let mut base = [[None; 64]; 3];
        let mut count = [0u32; 3];
        // Hardware registers each regalloc2 register occupies once placed.
        let mut placed: Vec<(usize, u32, u32)> = Vec::new();
        let mut total = 0u32;
        for class in [RegClass::Quad, RegClass::Pair, RegClass::Single] {
            let c = class.index();
            let w = u32::from(class.width());
            let mut order: Vec<usize> = (0..64).map(|e| c * 64 + e).filter(|&id| live.used(id)).collect();
            if joined_first {
                order.sort_by_key(|&id| !live.joins.iter().any(|j| !j.broken && (j.d == id || j.s == id)));
            }
            for id in order {
                let e = id % 64;
                let clashes = |at: u32| {
                    placed.iter().any(|&(other, ob, ow)| {
                        live.interferes(id, other)
                            && (at.max(ob)..(at + w).min(ob + ow))
                                .any(|r| !live.joined(id, (r - at) as u8, other, (r - ob) as u8))
                    })
                };
                // A joined copy's register first, then a move partner's: the copy or move
                // then disappears.
                let joined = live.joins.iter().filter(|j| !j.broken).filter_map(|j| {
                    let (o, ok, mk) = if j.d == id {
                        (j.s, j.sk, j.dk)
                    } else if j.s == id {
                        (j.d, j.dk, j.sk)
                    } else {
                        return None;
                    };
                    let p = placed.iter().find(|p| p.0 == o)?;
                    (p.1 + u32::from(ok)).checked_sub(u32::from(mk))
                });
                let partner = live.partners(id).filter_map(|o| placed.iter().find(|p| p.0 == o)).map(|p| p.1);
                let at = joined
                    .chain(partner)
                    .filter(|&b| b % w == 0)
                    .find(|&b| !clashes(b))
                    .unwrap_or_else(|| (0..).map(|k| k * w).find(|&b| !clashes(b)).expect("some register is free"));
                placed.push((id, at, w));
                base[c][e] = u8::try_from(at).ok().filter(|&n| n < 255);
                count[c] += 1;
                total = total.max(at + w);
            }
        }
        let at = |id: usize| placed.iter().find(|p| p.0 == id).map(|p| p.1);
        let kept = live
            .joins
            .iter()
            .filter(|j| matches!((at(j.d), at(j.s)), (Some(d), Some(s)) if d + u32::from(j.dk) == s + u32::from(j.sk)))
            .count();
        (HwMap { base, count, total }, kept)
    }

    fn reg(&self, p: ra2::PReg) -> Option<HwReg> {
        self.base[shape_of(p.class()).index()][p.hw_enc()].and_then(HwReg::new)
    }
}

fn field_regs<I: MachInst>(
    vcode: &VCode<I>,
    out: &ra2::Output,
    map: &HwMap,
) -> Result<(Vec<Option<HwReg>>, Vec<u32>), AllocError> {
    let mut regs = Vec::with_capacity(vcode.num_fields());
    let mut offsets = Vec::with_capacity(vcode.num_insts() + 1);
    offsets.push(0);
    for i in 0..vcode.num_insts() {
        let allocs = out.inst_allocs(ra2::Inst::new(i));
        for f in vcode.inst_fields(i) {
            let r = match (f.reg, f.operand) {
                (Reg::Virt { sub, .. }, Some(op)) => {
                    let base = allocs[op as usize]
                        .as_reg()
                        .and_then(|p| map.reg(p))
                        .ok_or(AllocError::StackOperand { inst: i })?;
                    Some(
                        base.offset(sub)
                            .ok_or(AllocError::StackOperand { inst: i })?,
                    )
                }
                (Reg::Hw(r), _) => Some(r),
                _ => None,
            };
            regs.push(r);
        }
        offsets.push(regs.len() as u32);
    }
    Ok((regs, offsets))
}

fn edits(out: &ra2::Output, map: &HwMap, plan: &SlotPlan, stats: &mut AllocStats) -> Vec<EditAt> {
    let mut edits = Vec::new();
    for (point, ra2::Edit::Move { from, to }) in &out.edits {
        if from == to {
            continue;
        }
        let slot = |a: ra2::Allocation| a.as_stack().map(|s| plan.home(s.index() as u32));
        let reg = |a: ra2::Allocation| a.as_reg().and_then(|p| map.reg(p).map(|r| (r, p)));
        let edit = match (reg(*from), reg(*to), slot(*from), slot(*to)) {
            // Coloured onto one hardware register (`HwMap::compact`): nothing to move.
            (Some((src, _)), Some((dst, _)), _, _) if src == dst => continue,
            (Some((src, p)), Some((dst, _)), _, _) => {
                stats.moves += 1;
                Edit::Move { dst, src, class: shape_of(p.class()) }
            }
            (Some((src, p)), None, _, Some(Ok(dst))) => {
                stats.slot_moves += 1;
                Edit::Move { dst, src, class: shape_of(p.class()) }
            }
            (Some((src, p)), None, _, Some(Err(slot))) => {
                stats.spills += 1;
                Edit::Spill { slot, src, class: shape_of(p.class()) }
            }
            (None, Some((dst, p)), Some(Ok(src)), _) => {
                stats.slot_moves += 1;
                Edit::Move { dst, src, class: shape_of(p.class()) }
            }
            (None, Some((dst, p)), Some(Err(slot)), _) => {
                stats.reloads += 1;
                Edit::Reload { dst, slot, class: shape_of(p.class()) }
            }
            // regalloc2 never emits stack-to-stack moves; nothing else can occur.
            _ => continue,
        };
        edits.push(EditAt {
            inst: point.inst().index() as u32,
            after: point.pos() == ra2::InstPosition::After,
            edit,
        });
    }
    edits
}
