//! Statements with control flow: `if`s on a thread-dependent (divergent) or block-uniform
//! condition, counted loops with a constant, block-uniform or per-thread trip count, barriers in
//! block-uniform code only; plus the kernel's fixed prologue and epilogue.

use super::slots::Space;
use super::{literal, Ctx, Gen, Ty, Val, PRIVATE_SLOTS};

/// How deep `if`s and loops nest.
const MAX_DEPTH: u32 = 2;

impl Gen<'_> {
    /// Up to `n` statements (fewer when the kernel's budget runs out).
    pub(super) fn stmts(&mut self, ctx: Ctx, n: u32) {
        for _ in 0..n {
            if self.budget == 0 {
                return;
            }
            self.budget -= 1;
            self.stmt(ctx);
        }
    }

    fn stmt(&mut self, ctx: Ctx) {
        let nest = if ctx.depth < MAX_DEPTH { 8 } else { 0 };
        let barrier = if ctx.uniform && ctx.depth > 0 { 3 } else { 0 };
        match self
            .rng
            .weighted(&[18, 14, 8, 26, 8, 3, nest, nest, barrier])
        {
            0 => self.arith(),
            1 => self.private_atomic(),
            2 => self.plain_private(),
            3 => self.contended(ctx),
            4 => self.settled_read(),
            5 => self.fence(),
            6 => self.if_stmt(ctx),
            7 => self.loop_stmt(ctx),
            // An extra barrier in block-uniform code: it orders more, so the phase rule holds.
            _ => self.t.stmt("barrier"),
        }
    }

    /// A condition: divergent (on thread-dependent values) or, when `uniform` is asked for and
    /// the pool has one, the same for the whole block.
    fn condition(&mut self, uniform: bool) -> Val {
        let cands: Vec<Val> = self
            .pool
            .iter()
            .filter(|v| v.uniform == uniform && v.ty != Ty::F32)
            .copied()
            .collect();
        let v = if cands.is_empty() {
            self.tid
        } else {
            *self.rng.pick(&cands)
        };
        let ty = v.ty;
        if self.rng.chance(60) {
            let mask = self.rng.range(1, 7);
            let m = self.t.iconst(ty, mask);
            let a = self.t.def(ty, v.uniform, format_args!("band {v}, {m}"));
            let c = self.t.iconst(ty, self.rng.range(0, mask));
            let cc = *self.rng.pick(&["eq", "ne", "ult", "ugt"]);
            self.t
                .def(Ty::Pred, v.uniform, format_args!("icmp {cc} {a}, {c}"))
        } else {
            let c = self.t.iconst(ty, self.rng.range(-2, 40));
            let cc = *self.rng.pick(&["slt", "sge", "ult", "uge", "eq", "ne"]);
            self.t
                .def(Ty::Pred, v.uniform, format_args!("icmp {cc} {v}, {c}"))
        }
    }

    fn if_stmt(&mut self, ctx: Ctx) {
        let want_uniform = ctx.uniform && self.rng.chance(35);
        let c = self.condition(want_uniform);
        let child = Ctx {
            uniform: ctx.uniform && c.uniform,
            depth: ctx.depth + 1,
            ..ctx
        };
        let (then, els, merge) = (self.t.new_block(), self.t.new_block(), self.t.new_block());
        self.t.brif(c, (then, &[]), (els, &[]));
        let mark = self.pool.len();
        let mut outs = Vec::new();
        for (block, n) in [(then, self.rng.range(1, 4)), (els, self.rng.range(0, 3))] {
            self.t.start_block(block, &[], child.uniform);
            self.stmts(child, n as u32);
            let v = self.any_val(Ty::I32);
            self.t.jump(merge, &[v]);
            outs.push(v);
            self.pool.truncate(mark);
        }
        let uniform = c.uniform && outs.iter().all(|v| v.uniform);
        let phi = self.t.start_block(merge, &[Ty::I32], uniform)[0];
        self.pool.push(phi);
    }

    fn loop_stmt(&mut self, ctx: Ctx) {
        let trip = match self.rng.below(3) {
            0 => self.t.iconst(Ty::I32, self.rng.range(0, 3)),
            1 => {
                // Per thread: 0..=3 iterations.
                let v = self.condition_source(false);
                let m = self.t.iconst(Ty::I32, 3);
                self.t
                    .def(Ty::I32, v.uniform, format_args!("band {v}, {m}"))
            }
            _ => {
                let v = self.condition_source(true);
                let m = self.t.iconst(Ty::I32, 3);
                self.t
                    .def(Ty::I32, v.uniform, format_args!("band {v}, {m}"))
            }
        };
        let body_uniform = ctx.uniform && trip.uniform;
        let child = Ctx {
            uniform: body_uniform,
            in_loop: true,
            depth: ctx.depth + 1,
        };
        let acc0 = self.any_val(Ty::I32);
        let zero = self.t.iconst(Ty::I32, 0);
        let (head, body, exit) = (self.t.new_block(), self.t.new_block(), self.t.new_block());
        self.t.jump(head, &[zero, acc0]);
        let hp = self.t.start_block(head, &[Ty::I32, Ty::I32], false);
        let (mut i, acc) = (hp[0], hp[1]);
        i.uniform = body_uniform;
        let c = self
            .t
            .def(Ty::Pred, body_uniform, format_args!("icmp slt {i}, {trip}"));
        self.t.brif(c, (body, &[]), (exit, &[acc]));
        let mark = self.pool.len();
        self.t.start_block(body, &[], body_uniform);
        self.pool.push(i);
        let n = self.rng.range(1, 4) as u32;
        self.stmts(child, n);
        let x = self.any_val(Ty::I32);
        let op = *self.rng.pick(&["iadd", "bxor", "imul", "umax"]);
        let acc1 = self.t.def(Ty::I32, false, format_args!("{op} {acc}, {x}"));
        let one = self.t.iconst(Ty::I32, 1);
        let i1 = self.t.def(Ty::I32, false, format_args!("iadd {i}, {one}"));
        self.t.jump(head, &[i1, acc1]);
        self.pool.truncate(mark);
        let out = self.t.start_block(exit, &[Ty::I32], false)[0];
        self.pool.push(out);
    }

    /// An integer pool value, uniform or thread-dependent as asked (the thread id when none).
    fn condition_source(&mut self, uniform: bool) -> Val {
        let cands: Vec<Val> = self
            .pool
            .iter()
            .filter(|v| v.uniform == uniform && v.ty == Ty::I32)
            .copied()
            .collect();
        if cands.is_empty() {
            self.tid
        } else {
            *self.rng.pick(&cands)
        }
    }

    /// Phase 0: thread 0 writes every shared slot's initial value, each thread its own elements
    /// of the shared arrays; then a barrier.
    pub(super) fn init_shared(&mut self) {
        let zero = self.t.iconst(Ty::I32, 0);
        let tid = self.tid;
        let c = self
            .t
            .def(Ty::Pred, false, format_args!("icmp eq {tid}, {zero}"));
        let (first, rest) = (self.t.new_block(), self.t.new_block());
        self.t.brif(c, (first, &[]), (rest, &[]));
        self.t.start_block(first, &[], false);
        let sbase = self.sbase;
        for i in 0..self.slots.len() {
            let s = &self.slots[i];
            if s.space != Space::Shared {
                continue;
            }
            let (ty, off, init) = (s.ty, s.offset, s.init);
            let v = match ty {
                Ty::F32 => self
                    .t
                    .def(ty, true, format_args!("fconst.f32 {}", literal(ty, init))),
                _ => self.t.iconst(ty, init),
            };
            self.t.stmt(format_args!("store {v}, {sbase}+{off}"));
        }
        self.t.jump(rest, &[]);
        self.t.start_block(rest, &[], true);
        let gtid = self.gtid;
        for i in 0..2 {
            let (ty, off) = (self.arrays[i].ty, self.arrays[i].offset);
            let v = self.conv(gtid, ty);
            let k = self.t.iconst(ty, self.rng.range(1, 9));
            let x = self.t.def(ty, false, format_args!("imul {v}, {k}"));
            let own = self.own[i];
            self.t.stmt(format_args!("store {x}, {own}+{off}"));
        }
        self.t.stmt("barrier");
    }

    /// Last: each thread stores some of its values into its private slots.
    pub(super) fn epilogue(&mut self) {
        for (i, ty) in [Ty::I32, Ty::I64].into_iter().enumerate() {
            for j in 0..PRIVATE_SLOTS {
                if self.rng.chance(70) {
                    let v = self.any_val(ty);
                    let base = self.pbase[i];
                    let off = j * ty.bytes();
                    self.t.stmt(format_args!("store {v}, {base}+{off}"));
                }
            }
        }
    }
}
