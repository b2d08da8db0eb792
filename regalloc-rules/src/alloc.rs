//! Running regalloc2 Ion on a VCode and mapping its result onto hardware registers.
//!
//! Each shape is its own regalloc2 class (Int = single, Float = pair, Vector = quad), sized from
//! the measured pressure. After allocation the used registers are numbered widest first: quads
//! from R0 in steps of 4, then pairs in steps of 2, then singles, so every pair is even and every
//! quad 4-aligned with no padding, and the register count is `4*quads + 2*pairs + singles`.

use crate::adapter::{shape_of, Ra2Func};
use crate::liveness::max_live;
use crate::rules::TargetRules;
use atomc_lower::vcode::{HwReg, MachInst, Reg, RegClass, SpillSlot, VCode};
use regalloc2 as ra2;

/// Allocation knobs.
#[derive(Copy, Clone, Debug)]
pub struct AllocOptions {
    /// Run regalloc2's SSA validator first (default: on; it costs little and turns a malformed
    /// VCode into an error instead of undefined allocator behaviour).
    pub validate_ssa: bool,
    /// Run regalloc2's own checker on its output (default: debug builds).
    pub regalloc2_checker: bool,
    /// Preferred registers offered per class beyond the measured MaxLive.
    pub slack: u32,
    /// Cap on registers offered per class (regalloc2 allows at most 64); lower it to force
    /// spills in tests.
    pub max_per_class: u32,
}

impl Default for AllocOptions {
    fn default() -> Self {
        AllocOptions {
            validate_ssa: true,
            regalloc2_checker: cfg!(debug_assertions),
            slack: 2,
            max_per_class: 64,
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
    /// Store to local memory.
    Spill {
        slot: SpillSlot,
        src: HwReg,
        class: RegClass,
    },
    /// Load from local memory.
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
    /// Stores to spill slots.
    pub spills: u32,
    /// Loads from spill slots.
    pub reloads: u32,
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
    pub stats: AllocStats,
}

impl Allocation {
    /// For each field of VCode instruction `inst` (in visit order): its hardware register
    /// (the tuple base plus the field's part), or `None` for RZ.
    pub fn inst_regs(&self, inst: usize) -> &[Option<HwReg>] {
        let (a, b) = (self.field_offsets[inst], self.field_offsets[inst + 1]);
        &self.field_regs[a as usize..b as usize]
    }

    /// Bytes of local memory the spill slots need.
    pub fn spill_bytes(&self) -> u32 {
        self.spill_slots * 4
    }
}

impl std::fmt::Display for AllocStats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [s, p, q] = self.max_live;
        let [us, up, uq] = self.used;
        write!(
            f,
            "moves {}, spills {}, reloads {}; max live {s}/{p}/{q}, registers used {us}/{up}/{uq} \
             (single/pair/quad)",
            self.moves, self.spills, self.reloads
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
    let usable = u32::from(rules.usable);
    let cap = opts.max_per_class.clamp(1, 64);
    // A class nothing is ever live in gets no registers, so it costs no budget.
    let preferred = fit_budget(
        max_live.map(|m| {
            if m == 0 {
                0
            } else {
                (m + opts.slack).clamp(1, cap)
            }
        }),
        usable,
    );
    let used_by_pref: u32 = weighted(&preferred);
    let spare = usable.saturating_sub(used_by_pref);
    let generous: [u32; 3] = std::array::from_fn(|c| {
        let w = u32::from(RegClass::ALL[c].width());
        if max_live[c] == 0 {
            0
        } else {
            (cap - preferred[c]).min(spare / w)
        }
    });
    let ra_opts = ra2::RegallocOptions {
        validate_ssa: opts.validate_ssa,
        ..Default::default()
    };
    let mut last_total = 0;
    for (attempt, extra) in [generous, [0; 3]].into_iter().enumerate() {
        let attempts = attempt as u32 + 1;
        let env = machine_env(preferred, extra);
        let out = ra2::run(&func, &env, &ra_opts)?;
        if opts.regalloc2_checker {
            let mut checker = ra2::checker::Checker::new(&func, &env);
            checker.prepare(&out);
            checker
                .run()
                .map_err(|e| AllocError::Checker(format!("{e:?}")))?;
        }
        let map = HwMap::new(&out);
        if map.total > usable {
            // Retry without the non-preferred extras: the preferred sets alone fit the budget.
            last_total = map.total;
            continue;
        }
        let mut stats = AllocStats {
            max_live,
            offered: std::array::from_fn(|c| preferred[c] + extra[c]),
            used: map.count,
            attempts,
            ..AllocStats::default()
        };
        let (field_regs, field_offsets) = field_regs(vcode, &out, &map)?;
        let edits = edits(&out, &map, &mut stats);
        return Ok(Allocation {
            field_regs,
            field_offsets,
            edits,
            num_regs: map.total,
            num_regs_rounded: map.total.div_ceil(8) * 8,
            spill_slots: out.num_spillslots as u32,
            stats,
        });
    }
    Err(AllocError::TooManyRegisters {
        needed: last_total,
        usable,
    })
}

/// `4*quads + 2*pairs + singles`.
fn weighted(n: &[u32; 3]) -> u32 {
    n.iter()
        .zip(RegClass::ALL)
        .map(|(n, c)| n * u32::from(c.width()))
        .sum()
}

/// Shrink the per-class counts until they fit `usable` registers, largest consumer first.
fn fit_budget(mut n: [u32; 3], usable: u32) -> [u32; 3] {
    while weighted(&n) > usable {
        let widest = (0..3)
            .filter(|&c| n[c] > 1)
            .max_by_key(|&c| n[c] * u32::from(RegClass::ALL[c].width()));
        match widest {
            Some(c) => n[c] -= 1,
            None => break,
        }
    }
    n
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
    fn new(out: &ra2::Output) -> HwMap {
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
        let mut next = 0u32;
        for class in [RegClass::Quad, RegClass::Pair, RegClass::Single] {
            let c = class.index();
            for e in 0..64 {
                if used[c][e] {
                    // Registers beyond R254 cannot exist; `total` reports the overflow.
                    base[c][e] = u8::try_from(next).ok().filter(|&n| n < 255);
                    next += u32::from(class.width());
                    count[c] += 1;
                }
            }
        }
        HwMap {
            base,
            count,
            total: next,
        }
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
    let mut regs = Vec::new();
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

fn edits(out: &ra2::Output, map: &HwMap, stats: &mut AllocStats) -> Vec<EditAt> {
    let mut edits = Vec::new();
    for (point, ra2::Edit::Move { from, to }) in &out.edits {
        if from == to {
            continue;
        }
        let slot = |a: ra2::Allocation| a.as_stack().map(|s| SpillSlot(s.index() as u32 * 4));
        let reg = |a: ra2::Allocation| a.as_reg().and_then(|p| map.reg(p).map(|r| (r, p)));
        let edit = match (reg(*from), reg(*to), slot(*from), slot(*to)) {
            (Some((src, p)), Some((dst, _)), _, _) => {
                stats.moves += 1;
                Edit::Move {
                    dst,
                    src,
                    class: shape_of(p.class()),
                }
            }
            (Some((src, p)), None, _, Some(slot)) => {
                stats.spills += 1;
                Edit::Spill {
                    slot,
                    src,
                    class: shape_of(p.class()),
                }
            }
            (None, Some((dst, p)), Some(slot), _) => {
                stats.reloads += 1;
                Edit::Reload {
                    dst,
                    slot,
                    class: shape_of(p.class()),
                }
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
