//! Randomly generated toy kernels (a loop with a diamond inside) through allocation, rebuild,
//! regalloc2's checker and the rule checker, under varying register pressure.

mod common;

use atomc_lower::vcode::{BlockId, Reg, RegClass, VCode, VCodeBuilder, VReg};
use atomc_regalloc::{allocate_and_check, AllocOptions, rules, Sm};
use common::*;

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn class(&mut self) -> RegClass {
        [
            RegClass::Single,
            RegClass::Single,
            RegClass::Pair,
            RegClass::Pair,
            RegClass::Quad,
        ][self.below(5)]
    }
}

struct Gen<'a> {
    b: &'a mut VCodeBuilder<T>,
    rng: &'a mut Rng,
    addr: VReg,
}

impl Gen<'_> {
    fn pick(&mut self, pool: &[VReg], class: RegClass) -> Option<VReg> {
        let c: Vec<VReg> = pool
            .iter()
            .copied()
            .filter(|v| v.class() == class)
            .collect();
        (!c.is_empty()).then(|| c[self.rng.below(c.len())])
    }

    fn new_const(&mut self, blk: BlockId, class: RegClass) -> VReg {
        let v = self.b.new_vreg(class);
        self.b.push(
            blk,
            T::Const {
                dst: v.reg(),
                width: class.width(),
            },
        );
        v
    }

    /// Append `n` random instructions to `blk`, reading from and adding to `pool`.
    fn fill(&mut self, blk: BlockId, pool: &mut Vec<VReg>, n: usize) {
        for _ in 0..n {
            let class = self.rng.class();
            let w = class.width();
            let v = match self.rng.below(7) {
                0 => self.new_const(blk, class),
                1 | 2 => {
                    let (Some(a), Some(c)) = (self.pick(pool, class), self.pick(pool, class))
                    else {
                        pool.push(self.new_const(blk, class));
                        continue;
                    };
                    let d = self.b.new_vreg(class);
                    let (a, c) = (a.reg(), c.reg());
                    self.b.push(
                        blk,
                        T::Add {
                            dst: d.reg(),
                            a,
                            b: c,
                            width: w,
                        },
                    );
                    d
                }
                3 if class != RegClass::Single => {
                    // In-place update of one part of a tuple.
                    let Some(old) = self.pick(pool, class) else {
                        continue;
                    };
                    let pw = if class == RegClass::Quad && self.rng.below(2) == 0 {
                        2
                    } else {
                        1
                    };
                    let part = (self.rng.below(usize::from(w / pw)) as u8) * pw;
                    let val_class = if pw == 2 {
                        RegClass::Pair
                    } else {
                        RegClass::Single
                    };
                    let val = match self.pick(pool, val_class) {
                        Some(v) => v,
                        None => self.new_const(blk, val_class),
                    };
                    let d = self.b.new_vreg(class);
                    self.b.push(
                        blk,
                        T::AddInto {
                            old: old.reg(),
                            old_width: w,
                            val: val.reg(),
                            dst: d.part(part),
                            w: pw,
                        },
                    );
                    d
                }
                4 => {
                    let (Some(lo), Some(hi)) = (
                        self.pick(pool, RegClass::Single),
                        self.pick(pool, RegClass::Single),
                    ) else {
                        continue;
                    };
                    let d = self.b.new_vreg(RegClass::Pair);
                    self.b.push(
                        blk,
                        T::Pack2 {
                            dst: d.reg(),
                            lo: lo.reg(),
                            hi: hi.reg(),
                        },
                    );
                    d
                }
                5 => {
                    // SM50-style CAS on a packed group, result in place or fresh.
                    let wide = self.rng.below(2) == 0;
                    let gclass = if wide { RegClass::Quad } else { RegClass::Pair };
                    let Some(g) = self.pick(pool, gclass) else {
                        continue;
                    };
                    let half = if wide { 2 } else { 1 };
                    let reuse = self.rng.below(2) == 0;
                    let d = self.b.new_vreg(if reuse {
                        gclass
                    } else if wide {
                        RegClass::Pair
                    } else {
                        RegClass::Single
                    });
                    self.b.push(
                        blk,
                        T::Cas {
                            wide,
                            rd: d.part(0),
                            ra: self.addr.reg(),
                            rb: g.part(0),
                            rc: g.part(half),
                            reuse,
                        },
                    );
                    d
                }
                _ => {
                    let Some(s) = self.pick(pool, class) else {
                        continue;
                    };
                    self.b.push(
                        blk,
                        T::Store {
                            addr: self.addr.reg(),
                            val: s.reg(),
                            width: w,
                        },
                    );
                    continue;
                }
            };
            pool.push(v);
        }
    }

    fn cond(&mut self, blk: BlockId, pool: &[VReg]) -> Reg {
        match self.pick(pool, RegClass::Single) {
            Some(c) => c.reg(),
            None => self.new_const(blk, RegClass::Single).reg(),
        }
    }

    fn keep(&mut self, blk: BlockId, pool: &[VReg], n: usize) {
        for _ in 0..n.min(pool.len()) {
            let v = pool[self.rng.below(pool.len())];
            self.b.push(
                blk,
                T::Store {
                    addr: self.addr.reg(),
                    val: v.reg(),
                    width: v.class().width(),
                },
            );
        }
    }
}

fn kernel(seed: u64, size: usize) -> VCode<T> {
    let mut b = VCodeBuilder::<T>::new();
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let [entry, head, body, then, other, join, exit] = [(); 7].map(|_| b.new_block());
    let addr = b.new_vreg(RegClass::Pair);
    b.push(
        entry,
        T::Args {
            dsts: vec![(addr.reg(), 2)],
        },
    );
    let mut g = Gen {
        b: &mut b,
        rng: &mut rng,
        addr,
    };
    let mut top = vec![addr];
    g.fill(entry, &mut top, size);
    // Loop-carried values: one of each class.
    let classes = [RegClass::Single, RegClass::Pair, RegClass::Quad];
    let init: Vec<VReg> = classes
        .iter()
        .map(|&c| g.pick(&top, c).unwrap_or_else(|| g.new_const(entry, c)))
        .collect();
    g.b.push_branch(entry, T::Jump, &[(head, &init)]);
    let params: Vec<VReg> = classes
        .iter()
        .map(|&c| g.b.append_block_param(head, c))
        .collect();
    let mut h = top.clone();
    h.extend(&params);
    g.fill(head, &mut h, size / 2);
    let c = g.cond(head, &h);
    g.b.push_branch(head, T::BranchIf { cond: c }, &[(exit, &[]), (body, &[])]);
    let mut bd = h.clone();
    g.fill(body, &mut bd, size / 2);
    let c = g.cond(body, &bd);
    g.b.push_branch(body, T::BranchIf { cond: c }, &[(then, &[]), (other, &[])]);
    for arm in [then, other] {
        let mut p = bd.clone();
        g.fill(arm, &mut p, size / 2);
        g.keep(arm, &p, 3);
        g.b.push_branch(arm, T::Jump, &[(join, &[])]);
    }
    let mut j = bd.clone();
    g.fill(join, &mut j, size / 2);
    let next: Vec<VReg> = classes
        .iter()
        .map(|&c| g.pick(&j, c).expect("params in pool"))
        .collect();
    g.b.push_branch(join, T::Jump, &[(head, &next)]);
    g.keep(exit, &h, 6);
    g.b.push(exit, T::Exit);
    b.finish().expect("generated vcode is well formed")
}

#[test]
fn random_kernels_allocate_and_check() {
    let mut totals = [0u32; 5];
    for seed in 0..60u64 {
        let vc = kernel(seed, 12 + (seed as usize % 5) * 8);
        // Small classes spill into the register file's slot registers; a register cap as well
        // sends spills to local memory.
        for (t, cap, regs) in [
            (Sm::Sm50, 64, 255),
            (Sm::Sm90, 6, 255),
            (Sm::Sm50, 3, 255),
            (Sm::Sm90, 6, 32),
            (Sm::Sm50, 3, 24),
        ] {
            let o = AllocOptions {
                validate_ssa: true,
                regalloc2_checker: true,
                max_per_class: cap,
                max_registers: regs,
                ..AllocOptions::default()
            };
            let a = allocate_and_check(&vc, t, &o)
                .unwrap_or_else(|e| panic!("seed {seed} {t} cap {cap} regs {regs}: {e}\n{vc}"));
            let s = a.alloc.stats;
            totals[0] += s.moves;
            totals[1] += s.spills;
            totals[2] += s.reloads;
            totals[3] += 1;
            totals[4] += s.slot_moves;
        }
    }
    eprintln!(
        "random kernels: {} allocations, {} moves, {} spills, {} reloads, {} slot moves",
        totals[3], totals[0], totals[1], totals[2], totals[4]
    );
    assert!(totals[4] > 0, "small classes must spill into slot registers");
    assert!(totals[1] > 0, "the tight configurations must spill");
}

/// Move one source field of an allocated kernel to another (aligned) register: the checker must
/// notice nearly always (it may legitimately hold a copy of the same value).
#[test]
fn corrupted_sources_are_caught() {
    use atomc_lower::vcode::fields_of;
    use atomc_regalloc::{check_allocation, Origin};
    let (mut tried, mut caught) = (0, 0);
    for seed in 0..60u64 {
        let vc = kernel(seed, 20);
        let t = Sm::Sm50;
        let a = allocate_and_check(&vc, t, &AllocOptions::default()).expect("allocates");
        let mut rng = Rng(seed + 7);
        for _ in 0..10 {
            let i = rng.below(a.code.insts.len());
            if !matches!(a.code.origins[i], Origin::Inst(_)) {
                continue;
            }
            let fields = fields_of(&a.code.insts[i]);
            let uses: Vec<usize> = (0..fields.len())
                .filter(|&k| !fields[k].2.is_def() && matches!(fields[k].0, Reg::Hw(_)))
                .collect();
            if uses.is_empty() {
                continue;
            }
            let k = uses[rng.below(uses.len())];
            let Reg::Hw(r) = fields[k].0 else { continue };
            let moved =
                (u32::from(r.number()) + 4 * (1 + rng.below(3) as u32)) % a.alloc.num_regs.max(4);
            let moved = moved - moved % 4 + u32::from(r.number()) % 4;
            if moved == u32::from(r.number()) || moved + u32::from(fields[k].1) > a.alloc.num_regs {
                continue;
            }
            let mut bad = a.code.clone();
            set_field(&mut bad.insts[i], k, hw(moved as u8));
            tried += 1;
            if check_allocation(rules(t), &vc, &bad).is_err() {
                caught += 1;
            }
        }
    }
    eprintln!("corrupted sources: {caught} of {tried} caught");
    assert!(tried > 100);
    assert!(caught * 100 >= tried * 95, "{caught} of {tried}");
}
