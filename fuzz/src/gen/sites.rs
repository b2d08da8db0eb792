//! The straight-line statements: arithmetic, private atomics and plain accesses, contended
//! updates (plain atomics and CAS loops), reads of settled shared data, fences.

use super::slots::{binop_of, Class, Olds, Space, Uni};
use super::{literal, Ctx, Gen, Ty, Val, MAX_TICKETS, PRIVATE_SLOTS};

const INT_BINOPS: &[&str] = &[
    "iadd", "iadd", "isub", "imul", "band", "bor", "bxor", "ishl", "ushr", "sshr", "umin", "umax",
    "smin", "smax", "udiv", "sdiv", "urem", "srem",
];
const FLOAT_BINOPS: &[&str] = &["fadd", "fsub", "fmul", "fmin", "fmax", "fdiv"];
const ICC: &[&str] = &[
    "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge",
];

impl Gen<'_> {
    /// A pool value of type `ty`, converting one when the pool has none (or sometimes anyway).
    pub(super) fn any_val(&mut self, ty: Ty) -> Val {
        let cands: Vec<Val> = self.pool.iter().filter(|v| v.ty == ty).copied().collect();
        if !cands.is_empty() && (ty != Ty::F32 || self.rng.chance(50)) {
            return *self.rng.pick(&cands);
        }
        let ints: Vec<Val> = self
            .pool
            .iter()
            .filter(|v| v.ty != Ty::F32)
            .copied()
            .collect();
        let src = if ints.is_empty() {
            self.tid
        } else {
            *self.rng.pick(&ints)
        };
        self.conv(src, ty)
    }

    /// `v` converted to `ty`. Floats come from 16-bit integers, so one float operation of two
    /// of them stays finite and never makes a NaN.
    pub(super) fn conv(&mut self, v: Val, ty: Ty) -> Val {
        let u = v.uniform;
        match (v.ty, ty) {
            (a, b) if a == b => v,
            (Ty::I32, Ty::I64) => {
                let op = if self.rng.chance(50) {
                    "uextend"
                } else {
                    "sextend"
                };
                self.t.def(ty, u, format_args!("{op}.i64 {v}"))
            }
            (Ty::I64, Ty::I32) => self.t.def(ty, u, format_args!("ireduce.i32 {v}")),
            (Ty::I64, Ty::F32) => {
                let w = self.conv(v, Ty::I32);
                self.conv(w, Ty::F32)
            }
            (Ty::I32, Ty::F32) if !self.features.fcvt => {
                // Without conversions: one of two small float constants, chosen by the value.
                let one = self.t.iconst(Ty::I32, 1);
                let bit = self.t.def(Ty::I32, u, format_args!("band {v}, {one}"));
                let c = self
                    .t
                    .def(Ty::Pred, u, format_args!("icmp eq {bit}, {one}"));
                let (a, b) = (self.rng.range(-20, 20), self.rng.range(0, 20));
                let (a, b) = (self.constant(Ty::F32, a), self.constant(Ty::F32, b));
                self.t.def(ty, u, format_args!("select {c}, {a}, {b}"))
            }
            (Ty::F32, _) if !self.features.fcvt => {
                let bits = self.t.def(Ty::I32, u, format_args!("bitcast.i32 {v}"));
                self.conv(bits, ty)
            }
            (Ty::I32, Ty::F32) => {
                let m = self.t.iconst(Ty::I32, 0xffff);
                let s = self.t.def(Ty::I32, u, format_args!("band {v}, {m}"));
                let op = if self.rng.chance(50) {
                    "fcvt_from_sint"
                } else {
                    "fcvt_from_uint"
                };
                self.t.def(ty, u, format_args!("{op}.f32 {s}"))
            }
            (Ty::F32, _) => {
                let op = if self.rng.chance(50) {
                    "fcvt_to_sint"
                } else {
                    "fcvt_to_uint"
                };
                self.t.def(ty, u, format_args!("{op}.{} {v}", ty.name()))
            }
            _ => self.t.iconst(ty, 0),
        }
    }

    /// A float holding a small integer (0..=15), so sums of them are exact.
    fn small_float(&mut self) -> Val {
        let v = self.any_val(Ty::I32);
        if !self.features.fcvt {
            let one = self.t.iconst(Ty::I32, 1);
            let bit = self
                .t
                .def(Ty::I32, v.uniform, format_args!("band {v}, {one}"));
            let c = self
                .t
                .def(Ty::Pred, v.uniform, format_args!("icmp eq {bit}, {one}"));
            let (a, b) = (self.rng.range(0, 15), self.rng.range(0, 15));
            let (a, b) = (self.constant(Ty::F32, a), self.constant(Ty::F32, b));
            return self
                .t
                .def(Ty::F32, v.uniform, format_args!("select {c}, {a}, {b}"));
        }
        let m = self.t.iconst(Ty::I32, 15);
        let s = self
            .t
            .def(Ty::I32, v.uniform, format_args!("band {v}, {m}"));
        self.t
            .def(Ty::F32, v.uniform, format_args!("fcvt_from_sint.f32 {s}"))
    }

    /// A constant of `ty` (`f32`: the integer's float value).
    fn constant(&mut self, ty: Ty, n: i64) -> Val {
        match ty {
            Ty::F32 => self
                .t
                .def(ty, true, format_args!("fconst.f32 {}", literal(ty, n))),
            _ => self.t.iconst(ty, n),
        }
    }

    fn order_rmw(&mut self) -> &'static str {
        *self.rng.pick(&[
            "relaxed", "relaxed", "acquire", "release", "acq_rel", "seq_cst",
        ])
    }

    /// A scope that makes an access atomic for every thread that can reach the address.
    fn scope(&mut self, space: Space, contended: bool) -> &'static str {
        let sys = self.features.sys_scope;
        match space {
            Space::Shared => *self.rng.pick(&["cta", "gpu"]),
            Space::Global if contended && self.grid > 1 && sys => *self.rng.pick(&["gpu", "sys"]),
            Space::Global if contended && self.grid > 1 => "gpu",
            Space::Global if sys => *self.rng.pick(&["cta", "gpu", "gpu", "sys"]),
            Space::Global => *self.rng.pick(&["cta", "gpu"]),
        }
    }

    /// `base+offset` as an address, sometimes through a generic pointer.
    fn address(&mut self, base: Val, offset: u32) -> String {
        let p = if self.features.generic && self.rng.chance(30) {
            self.t.def(
                Ty::PtrGeneric,
                base.uniform,
                format_args!("ptr_to_generic {base}"),
            )
        } else {
            base
        };
        if offset == 0 {
            p.to_string()
        } else {
            format!("{p}+{offset}")
        }
    }

    pub(super) fn arith(&mut self) {
        let r = match self.rng.below(8) {
            0..=3 => {
                let ty = if self.rng.chance(70) {
                    Ty::I32
                } else {
                    Ty::I64
                };
                let mut op = *self.rng.pick(INT_BINOPS);
                let div = matches!(op, "udiv" | "sdiv" | "urem" | "srem");
                let wide = ty == Ty::I64
                    && matches!(
                        op,
                        "umin" | "umax" | "smin" | "smax" | "ishl" | "ushr" | "sshr"
                    );
                if (div && !self.features.division) || (wide && !self.features.wide_alu) {
                    op = "iadd";
                }
                let a = self.any_val(ty);
                let mut b = if self.rng.chance(30) {
                    let n = super::slots::small_const(self.rng);
                    self.t.iconst(ty, n)
                } else {
                    self.any_val(ty)
                };
                if matches!(op, "udiv" | "sdiv" | "urem" | "srem") {
                    // A divisor in 1..=255: no division by zero, no MIN / -1.
                    let m = self.t.iconst(ty, 0xff);
                    let one = self.t.iconst(ty, 1);
                    let masked = self.t.def(ty, b.uniform, format_args!("band {b}, {m}"));
                    b = self
                        .t
                        .def(ty, b.uniform, format_args!("bor {masked}, {one}"));
                }
                self.t
                    .def(ty, a.uniform && b.uniform, format_args!("{op} {a}, {b}"))
            }
            4 => {
                let ty = if self.rng.chance(70) {
                    Ty::I32
                } else {
                    Ty::I64
                };
                let (a, b) = (self.any_val(ty), self.any_val(ty));
                let cc = *self.rng.pick(ICC);
                let c = self.t.def(
                    Ty::Pred,
                    a.uniform && b.uniform,
                    format_args!("icmp {cc} {a}, {b}"),
                );
                let (x, y) = (self.any_val(ty), self.any_val(ty));
                let u = c.uniform && x.uniform && y.uniform;
                self.t.def(ty, u, format_args!("select {c}, {x}, {y}"))
            }
            5 => {
                let ty = if self.rng.chance(70) {
                    Ty::I32
                } else {
                    Ty::I64
                };
                let a = self.any_val(ty);
                let op = if self.rng.chance(50) { "ineg" } else { "bnot" };
                self.t.def(ty, a.uniform, format_args!("{op} {a}"))
            }
            _ => {
                // Operands fresh from integers: one operation cannot overflow or make a NaN.
                let mut ints: Vec<Val> = self
                    .pool
                    .iter()
                    .filter(|v| v.ty == Ty::I32)
                    .copied()
                    .collect();
                ints.push(self.tid);
                let (x, y) = (*self.rng.pick(&ints), *self.rng.pick(&ints));
                let a = self.conv(x, Ty::F32);
                let mut b = self.conv(y, Ty::F32);
                let mut op = *self.rng.pick(FLOAT_BINOPS);
                if op == "fdiv" && !self.features.fdiv {
                    op = "fsub";
                }
                if op == "fdiv" {
                    let one = self.constant(Ty::F32, 1);
                    b = self
                        .t
                        .def(Ty::F32, b.uniform, format_args!("fadd {b}, {one}"));
                }
                self.t.def(
                    Ty::F32,
                    a.uniform && b.uniform,
                    format_args!("{op} {a}, {b}"),
                )
            }
        };
        self.pool.push(r);
    }

    /// A thread's own memory: a private global slot, or its element of a shared array when the
    /// array may be written in this phase (`write`). Returns the address and the type.
    fn own_place(&mut self, write: bool) -> (String, Ty, Space) {
        let which = if self.features.shared {
            self.rng.below(4)
        } else {
            self.rng.below(2)
        };
        if which >= 2 {
            let i = (which - 2) as usize;
            let phase = self.phase;
            if !write || self.arrays[i].phases.can_write(phase) {
                if write {
                    self.arrays[i].phases.note_write(phase);
                }
                let (own, off, ty) = (self.own[i], self.arrays[i].offset, self.arrays[i].ty);
                return (self.address(own, off), ty, Space::Shared);
            }
        }
        let i = (which % 2) as usize;
        let ty = [Ty::I32, Ty::I64][i];
        let slot = self.rng.below(PRIVATE_SLOTS as u64) as u32;
        let base = self.pbase[i];
        (self.address(base, slot * ty.bytes()), ty, Space::Global)
    }

    /// An atomic on the thread's own memory: any op, any operands, the old value used freely.
    pub(super) fn private_atomic(&mut self) {
        let write = !self.rng.chance(15);
        let (addr, ty, space) = self.own_place(write);
        let scope = self.scope(space, false);
        let tn = ty.name();
        let r = if !write {
            let order = *self.rng.pick(&["relaxed", "acquire", "seq_cst"]);
            Some(self.t.def(
                ty,
                false,
                format_args!("atomic_load.{tn} {order} {scope} {addr}"),
            ))
        } else {
            match self.rng.below(6) {
                0 => {
                    let v = self.any_val(ty);
                    let order = *self.rng.pick(&["relaxed", "release", "seq_cst"]);
                    self.t.stmt(format_args!(
                        "atomic_store.{tn} {order} {scope} {addr}, {v}"
                    ));
                    None
                }
                1 => {
                    let e = if self.rng.chance(60) {
                        self.t.def(ty, false, format_args!("load.{tn} {addr}"))
                    } else {
                        self.any_val(ty)
                    };
                    let n = self.any_val(ty);
                    let order = self.order_rmw();
                    Some(self.t.def(
                        ty,
                        false,
                        format_args!("atomic_cas.{tn} {order} {scope} {addr}, {e}, {n}"),
                    ))
                }
                _ => {
                    let mut ops = vec![
                        "add", "sub", "and", "or", "xor", "xchg", "smin", "smax", "umin", "umax",
                    ];
                    if ty == Ty::I32 {
                        ops.extend(["inc_wrap", "dec_wrap"]);
                    }
                    let mut op = *self.rng.pick(&ops);
                    if space == Space::Shared
                        && ty == Ty::I64
                        && !self.features.wide_alu
                        && op.len() == 4
                    {
                        // 64-bit shared min/max: see `slots::random_class`.
                        op = "add";
                    }
                    let x = self.any_val(ty);
                    let order = self.order_rmw();
                    Some(self.t.def(
                        ty,
                        false,
                        format_args!("atomic_rmw.{tn} {op} {order} {scope} {addr}, {x}"),
                    ))
                }
            }
        };
        if let Some(r) = r {
            self.pool.push(r);
        }
    }

    /// A plain load or store of the thread's own memory.
    pub(super) fn plain_private(&mut self) {
        let store = self.rng.chance(50);
        let (addr, ty, _) = self.own_place(store);
        if store {
            let v = self.any_val(ty);
            self.t.stmt(format_args!("store {v}, {addr}"));
        } else {
            let v = self
                .t
                .def(ty, false, format_args!("load.{} {addr}", ty.name()));
            self.pool.push(v);
        }
    }

    /// An update of a contended slot by its class's operation.
    pub(super) fn contended(&mut self, ctx: Ctx) {
        let phase = self.phase;
        let cands: Vec<usize> = (0..self.slots.len())
            .filter(|&i| {
                self.slots[i].space == Space::Global || self.slots[i].phases.can_write(phase)
            })
            // A ticket slot's one update has been written.
            .filter(|&i| self.slots[i].olds != Olds::Ticket)
            .collect();
        if cands.is_empty() {
            return self.arith();
        }
        let i = *self.rng.pick(&cands);
        if self.slots[i].space == Space::Shared {
            self.slots[i].phases.note_write(phase);
        }
        let s = self.slots[i].clone();
        let base = match s.space {
            Space::Shared => self.sbase,
            Space::Global => {
                self.params[[Ty::I32, Ty::I64, Ty::F32]
                    .iter()
                    .position(|&t| t == s.ty)
                    .unwrap_or(0)]
            }
        };
        let addr = self.address(base, s.offset);
        let scope = self.scope(s.space, true);
        let tn = s.ty.name();
        let order = self.order_rmw();
        match s.class {
            Class::Uniform(u) => {
                let r = match u {
                    Uni::Rmw(op, c) => {
                        let x = self.constant(s.ty, c);
                        match self.cas_binop(op, s.ty) {
                            Some(b) => Some(self.cas_loop(&addr, s.ty, scope, b, x)),
                            _ => Some(self.t.def(
                                s.ty,
                                false,
                                format_args!("atomic_rmw.{tn} {op} {order} {scope} {addr}, {x}"),
                            )),
                        }
                    }
                    Uni::Cas(e, c) => {
                        let (e, c) = (self.constant(s.ty, e), self.constant(s.ty, c));
                        Some(self.t.def(
                            s.ty,
                            false,
                            format_args!("atomic_cas.{tn} {order} {scope} {addr}, {e}, {c}"),
                        ))
                    }
                    Uni::Store(c) => {
                        let c = self.constant(s.ty, c);
                        let order = *self.rng.pick(&["relaxed", "release", "seq_cst"]);
                        self.t.stmt(format_args!(
                            "atomic_store.{tn} {order} {scope} {addr}, {c}"
                        ));
                        None
                    }
                };
                if let Some(r) = r {
                    self.use_ticket(r, ctx, i);
                }
            }
            class => {
                let x = match class {
                    Class::Fadd => self.small_float(),
                    _ => self.any_val(s.ty),
                };
                let op = *self.rng.pick(class.rmw_ops());
                match self.cas_binop(op, s.ty) {
                    Some(b) => {
                        self.cas_loop(&addr, s.ty, scope, b, x);
                    }
                    _ => {
                        self.t.def(
                            s.ty,
                            false,
                            format_args!("atomic_rmw.{tn} {op} {order} {scope} {addr}, {x}"),
                        );
                    }
                }
            }
        }
    }

    /// An old value of uniform slot `from`: stored to a ticket range (when this is the slot's
    /// only update), fed to a global slot whose class commutes (the same target and op for every
    /// update of the slot), or dropped, as the slot's [`Olds`] decides at its first update.
    fn use_ticket(&mut self, r: Val, ctx: Ctx, from: usize) {
        if self.slots[from].olds == Olds::Undecided {
            let targets: Vec<usize> = (0..self.slots.len())
                .filter(|&i| {
                    i != from
                        && self.slots[i].class.reduces_tickets()
                        && self.slots[i].space == Space::Global
                })
                .collect();
            self.slots[from].olds =
                if !ctx.in_loop && self.tickets < MAX_TICKETS && self.rng.chance(50) {
                    Olds::Ticket
                } else if !targets.is_empty() && self.rng.chance(60) {
                    let target = *self.rng.pick(&targets);
                    let op = *self.rng.pick(self.slots[target].class.rmw_ops());
                    Olds::Reduce { target, op }
                } else {
                    Olds::Unused
                };
        }
        match self.slots[from].olds {
            Olds::Ticket => {
                let bits = match r.ty {
                    Ty::F32 => self.t.def(Ty::I32, false, format_args!("bitcast.i32 {r}")),
                    _ => r,
                };
                let wide = match bits.ty {
                    Ty::I32 => self
                        .t
                        .def(Ty::I64, false, format_args!("uextend.i64 {bits}")),
                    _ => bits,
                };
                let offset = self.tickets * self.total_threads * 8;
                self.tickets += 1;
                let addr = self.address(self.tkbase, offset);
                self.t.stmt(format_args!("store {wide}, {addr}"));
            }
            Olds::Reduce { target, op } => {
                let s = self.slots[target].clone();
                // One fixed conversion, so every update feeds the same function of its old value.
                let bits = match r.ty {
                    Ty::F32 => self.t.def(Ty::I32, false, format_args!("bitcast.i32 {r}")),
                    _ => r,
                };
                let x = match (bits.ty, s.ty) {
                    (Ty::I32, Ty::I64) => {
                        self.t
                            .def(Ty::I64, false, format_args!("uextend.i64 {bits}"))
                    }
                    (Ty::I64, Ty::I32) => {
                        self.t
                            .def(Ty::I32, false, format_args!("ireduce.i32 {bits}"))
                    }
                    _ => bits,
                };
                let base = self.params[if s.ty == Ty::I32 { 0 } else { 1 }];
                let addr = self.address(base, s.offset);
                let scope = self.scope(s.space, true);
                let order = self.order_rmw();
                let tn = s.ty.name();
                self.t.def(
                    s.ty,
                    false,
                    format_args!("atomic_rmw.{tn} {op} {order} {scope} {addr}, {x}"),
                );
            }
            Olds::Unused | Olds::Undecided => {}
        }
    }

    /// Sometimes (a quarter of the time) the arithmetic for doing `op` as a CAS loop, when the
    /// program's features allow that instruction on `ty`.
    fn cas_binop(&mut self, op: &str, ty: Ty) -> Option<&'static str> {
        let b = binop_of(op)?;
        let wide = ty == Ty::I64 && matches!(b, "smin" | "smax" | "umin" | "umax");
        (self.rng.chance(25) && (!wide || self.features.wide_alu)).then_some(b)
    }

    /// `load; loop { new = binop(old, x); cas }` until the CAS sees the old value it expected.
    /// Returns that old value (the CAS loop's equivalent of an `atomic_rmw` result).
    fn cas_loop(&mut self, addr: &str, ty: Ty, scope: &str, binop: &str, x: Val) -> Val {
        let tn = ty.name();
        let lo = *self.rng.pick(&["relaxed", "acquire", "seq_cst"]);
        let o0 = self.t.def(
            ty,
            false,
            format_args!("atomic_load.{tn} {lo} {scope} {addr}"),
        );
        let (head, done) = (self.t.new_block(), self.t.new_block());
        self.t.jump(head, &[o0]);
        let o = self.t.start_block(head, &[ty], false)[0];
        let n = self.t.def(ty, false, format_args!("{binop} {o}, {x}"));
        let order = self.order_rmw();
        let r = self.t.def(
            ty,
            false,
            format_args!("atomic_cas.{tn} {order} {scope} {addr}, {o}, {n}"),
        );
        let eq = if ty == Ty::F32 {
            let a = self.t.def(Ty::I32, false, format_args!("bitcast.i32 {r}"));
            let b = self.t.def(Ty::I32, false, format_args!("bitcast.i32 {o}"));
            self.t
                .def(Ty::Pred, false, format_args!("icmp eq {a}, {b}"))
        } else {
            self.t
                .def(Ty::Pred, false, format_args!("icmp eq {r}, {o}"))
        };
        self.t.brif(eq, (done, &[r]), (head, &[r]));
        self.t.start_block(done, &[ty], false)[0]
    }

    /// A read of shared data written in another phase: a slot (the same for the whole block) or
    /// a neighbour's element of a per-thread array.
    pub(super) fn settled_read(&mut self) {
        if !self.features.shared {
            return self.arith();
        }
        let phase = self.phase;
        let slots: Vec<usize> = (0..self.slots.len())
            .filter(|&i| {
                self.slots[i].space == Space::Shared && self.slots[i].phases.can_read(phase)
            })
            .collect();
        let arrays: Vec<usize> = (0..2)
            .filter(|&i| self.arrays[i].phases.can_read(phase))
            .collect();
        if !slots.is_empty() && (arrays.is_empty() || self.rng.chance(50)) {
            let i = *self.rng.pick(&slots);
            self.slots[i].phases.note_read(phase);
            let s = self.slots[i].clone();
            let addr = self.address(self.sbase, s.offset);
            let tn = s.ty.name();
            let v = if self.rng.chance(50) {
                self.t.def(s.ty, true, format_args!("load.{tn} {addr}"))
            } else {
                let order = *self.rng.pick(&["relaxed", "acquire", "seq_cst"]);
                let scope = self.scope(Space::Shared, false);
                self.t.def(
                    s.ty,
                    true,
                    format_args!("atomic_load.{tn} {order} {scope} {addr}"),
                )
            };
            self.pool.push(v);
        } else if !arrays.is_empty() {
            let i = *self.rng.pick(&arrays);
            self.arrays[i].phases.note_read(phase);
            let (ty, offset) = (self.arrays[i].ty, self.arrays[i].offset);
            let d = self.rng.range(1, self.block_threads.max(2) as i64 - 1);
            let dv = self.t.iconst(Ty::I32, d);
            let b = self.t.iconst(Ty::I32, self.block_threads as i64);
            let size = self.t.iconst(Ty::I32, ty.bytes() as i64);
            let tid = self.tid;
            // (tid + d) mod B without a division (which some targets refuse): tid + d < 2B.
            let s = self.t.def(Ty::I32, false, format_args!("iadd {tid}, {dv}"));
            let wrap = self
                .t
                .def(Ty::Pred, false, format_args!("icmp uge {s}, {b}"));
            let less = self.t.def(Ty::I32, false, format_args!("isub {s}, {b}"));
            let m = self
                .t
                .def(Ty::I32, false, format_args!("select {wrap}, {less}, {s}"));
            let off = self.t.def(Ty::I32, false, format_args!("imul {m}, {size}"));
            let sbase = self.sbase;
            let p = self
                .t
                .def(Ty::PtrShared, false, format_args!("ptr_add {sbase}, {off}"));
            let addr = self.address(p, offset);
            let v = self
                .t
                .def(ty, false, format_args!("load.{} {addr}", ty.name()));
            self.pool.push(v);
        }
    }

    pub(super) fn fence(&mut self) {
        let order = *self.rng.pick(&["acquire", "release", "acq_rel", "seq_cst"]);
        let scope = if self.features.sys_scope {
            *self.rng.pick(&["cta", "gpu", "sys"])
        } else {
            *self.rng.pick(&["cta", "gpu"])
        };
        self.t.stmt(format_args!("fence {order} {scope}"));
    }
}
