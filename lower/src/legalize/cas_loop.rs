//! Atomics the hardware lacks → compare-and-swap retry loops.
//!
//! A read-modify-write `v = atomic_rmw.T op o s p+k, x` in block `B`
//! becomes (with `I` the integer type of `T`'s width):
//!
//! ```text
//! B:     ...; w0 = atomic_load.I relaxed s p+k; jump loop(w0)
//! loop(cur: I):
//!        new = op(cur as T, x) as I
//!        got = atomic_cas.I o s p+k, cur, new
//!        ok  = icmp eq got, cur
//!        brif ok, done(cur), loop(got)
//! done(old: I):
//!        v = old as T; <rest of B>
//! ```
//!
//! 8- and 16-bit values (`SubwordCasLoop`) do the same on the aligned
//! 32-bit word that holds them, replacing only their bits; a sub-word
//! `atomic_cas` leaves the loop without storing when its field differs
//! from `expected`. The whole word is read and written, so it must be
//! addressable; allocations on every target are at least 4-byte granular.
//! Packed float types compute lane by lane in `f32`,
//! which rounds correctly for f16 and bf16 sums (f32 has ≥ 2p+2 bits).
//!
//! A surface atomic loops on `surface_cas.I` at the same coordinates. There is no atomic
//! surface load, so the loop starts from a guess of 0: a wrong guess only costs one failed
//! CAS, which returns the current element. An access the clamp mode ignores returns 0 and
//! stores nothing, so the first try "succeeds" and the result is 0, as the IR defines it.

use super::{atomic_key, edit, edit::Appender};
use crate::caps::{Lowering, TargetCaps};
use atomc_ir::{
    Address, BinaryOp, Block, BlockCall, ConvOp, Function, Inst, InstData, IntCC, MemOrder, RmwOp, Scope, SurfaceAccess,
    Type, Value,
};
use smallvec::SmallVec;
use cranelift_entity::SecondaryMap;

/// Rewrites every atomic whose lowering is a CAS loop; returns the count.
pub fn run(func: &mut Function, caps: &TargetCaps) -> usize {
    let mut count = 0;
    let mut chain = edit::Chain::new(func);
    let mut replaced: SecondaryMap<Value, Option<Value>> = SecondaryMap::new();
    // Last block first, and within a block in order: each expansion moves the rest of its
    // block to a new `done` block, where the next one continues.
    for &block in func.layout.clone().iter().rev() {
        let insts = std::mem::take(&mut func.blocks[block].insts);
        let mut current = block;
        let mut start = 0;
        for (at, &inst) in insts.iter().enumerate() {
            let Some((kind, ty, space)) = atomic_key(func, &func.insts[inst]) else { continue };
            let lowering = caps.lookup(kind, ty, space).lowering;
            if !matches!(lowering, Lowering::CasLoop | Lowering::SubwordCasLoop) {
                continue;
            }
            func.blocks[current].insts.extend_from_slice(&insts[start..at]);
            let (done, result, old) = expand(func, &mut chain, current, inst, lowering == Lowering::SubwordCasLoop);
            replaced[result] = Some(old);
            current = done;
            start = at + 1;
            count += 1;
        }
        func.blocks[current].insts.extend_from_slice(&insts[start..]);
    }
    chain.finish(func);
    if count > 0 {
        replace_uses(func, &replaced);
    }
    count
}

/// What the loop computes from the current value.
enum Update {
    Rmw(RmwOp, Value),
    /// Store `replacement` only if the current value equals `expected`.
    Cas {
        expected: Value,
        replacement: Value,
    },
}

/// Where the loop reads and swaps.
#[derive(Clone)]
enum Place {
    Mem(Address),
    Surface { access: SurfaceAccess, coords: SmallVec<[Value; 3]> },
}

struct Access {
    ty: Type,
    order: MemOrder,
    scope: Scope,
    place: Place,
    update: Update,
}

/// Expands `inst`, the last instruction placed so far in `block` (the rest of the block is
/// the caller's to place): returns the block the rest goes to, the atomic's result, and the
/// value that replaces it.
fn expand(
    func: &mut Function,
    chain: &mut edit::Chain,
    block: Block,
    inst: Inst,
    subword: bool,
) -> (Block, Value, Value) {
    let access = match func.insts[inst].clone() {
        InstData::AtomicRmw { op, ty, order, scope, addr, arg } => {
            Access { ty, order, scope, place: Place::Mem(addr), update: Update::Rmw(op, arg) }
        }
        InstData::AtomicCas { ty, order, scope, addr, expected, replacement } => {
            Access { ty, order, scope, place: Place::Mem(addr), update: Update::Cas { expected, replacement } }
        }
        InstData::SurfaceRmw { op, ty, order, scope, access, coords, arg } => {
            Access { ty, order, scope, place: Place::Surface { access, coords }, update: Update::Rmw(op, arg) }
        }
        InstData::SurfaceCas { ty, order, scope, access, coords, expected, replacement } => Access {
            ty,
            order,
            scope,
            place: Place::Surface { access, coords },
            update: Update::Cas { expected, replacement },
        },
        other => unreachable!("the capability tables only loop rmw and cas, got {}", other.opcode_name()),
    };
    let result = func.inst_result(inst).expect("atomics have results");
    let loc = func.inst_locs[inst];

    // Split: everything after the atomic goes to `done`, after the instructions that rebuild
    // the old value; the atomic itself goes away.
    let loop_block = chain.block_after(func, block);
    let done = chain.block_after(func, loop_block);

    let word_ty = if subword { Type::I32 } else { access.ty.as_int().expect("atomic types have an int twin") };
    let cur = func.append_block_param(loop_block, word_ty);
    let old_word = func.append_block_param(done, word_ty);

    // B: address arithmetic (sub-word) and the first load.
    let mut b = Appender { func, block, loc };
    let field = match &access.place {
        Place::Mem(addr) if subword => Some(Field::compute(&mut b, *addr, access.ty)),
        _ => None,
    };
    let word_place = match (&field, &access.place) {
        (Some(f), _) => Place::Mem(Address { ptr: f.word_ptr, offset: 0 }),
        (None, place) => place.clone(),
    };
    let first = match &word_place {
        Place::Mem(addr) => {
            b.val(InstData::AtomicLoad { ty: word_ty, order: MemOrder::Relaxed, scope: access.scope, addr: *addr })
        }
        Place::Surface { .. } => iconst(&mut b, word_ty, 0),
    };
    b.ins(InstData::Jump { dest: call(loop_block, &[first]) });

    // loop: compute, try, retry.
    let mut l = Appender { func: b.func, block: loop_block, loc };
    let cur_t = match &field {
        Some(f) => f.extract(&mut l, cur),
        None => bitcast(&mut l, access.ty, cur),
    };
    let new_t = match access.update {
        Update::Rmw(op, x) => compute(&mut l, op, access.ty, cur_t, x),
        Update::Cas { expected, replacement } => {
            // Leave without storing when the field differs from `expected`.
            let int_ty = access.ty.as_int().expect("int twin");
            let cur_i = bitcast(&mut l, int_ty, cur_t);
            let exp_i = bitcast(&mut l, int_ty, expected);
            let same = l.val(InstData::Icmp { cond: IntCC::Eq, args: [cur_i, exp_i] });
            let try_block = chain.block_after(l.func, loop_block);
            l.ins(InstData::Brif { cond: same, then_dest: call(try_block, &[]), else_dest: call(done, &[cur]) });
            l.block = try_block;
            replacement
        }
    };
    let new_word = match &field {
        Some(f) => f.insert(&mut l, cur, new_t),
        None => bitcast(&mut l, word_ty, new_t),
    };
    let (ty, order, scope) = (word_ty, access.order, access.scope);
    let got = l.val(match word_place {
        Place::Mem(addr) => InstData::AtomicCas { ty, order, scope, addr, expected: cur, replacement: new_word },
        Place::Surface { access, coords } => {
            InstData::SurfaceCas { ty, order, scope, access, coords, expected: cur, replacement: new_word }
        }
    });
    let ok = l.val(InstData::Icmp { cond: IntCC::Eq, args: [got, cur] });
    l.ins(InstData::Brif { cond: ok, then_dest: call(done, &[cur]), else_dest: call(loop_block, &[got]) });

    // done: rebuild the old value; the moved instructions (like every later use) then read
    // the rebuilt value. The removed atomic and its result stay in the arenas, outside the
    // layout.
    let mut d = Appender { func: l.func, block: done, loc };
    let old_t = match &field {
        Some(f) => f.extract(&mut d, old_word),
        None => bitcast(&mut d, access.ty, old_word),
    };
    (done, result, old_t)
}

/// Replaces every use of a replaced result in the laid-out function, all in one walk. A
/// replacement is never itself replaced (it is a fresh value of a `done` block), and uses in
/// loops built after the result was replaced are covered too.
fn replace_uses(func: &mut Function, replaced: &SecondaryMap<Value, Option<Value>>) {
    for k in 0..func.layout.len() {
        let block = func.layout[k];
        for j in 0..func.blocks[block].insts.len() {
            let i = func.blocks[block].insts[j];
            func.insts[i].map_args(|v| replaced[v].unwrap_or(v));
        }
    }
}

fn call(block: Block, args: &[Value]) -> BlockCall {
    BlockCall { block, args: args.iter().copied().collect() }
}

/// `v` viewed as type `to` (same width); no instruction when equal.
fn bitcast(a: &mut Appender, to: Type, v: Value) -> Value {
    if a.func.value_type(v) == to {
        v
    } else {
        a.val(InstData::Convert { op: ConvOp::Bitcast, to, arg: v })
    }
}

fn iconst(a: &mut Appender, ty: Type, imm: i64) -> Value {
    a.val(InstData::Iconst { ty, imm })
}

fn bin(a: &mut Appender, op: BinaryOp, x: Value, y: Value) -> Value {
    a.val(InstData::Binary { op, args: [x, y] })
}

/// `op(cur, x)` in type `ty`, as the IR's atomic semantics define it.
fn compute(a: &mut Appender, op: RmwOp, ty: Type, cur: Value, x: Value) -> Value {
    if ty.is_packed_float() {
        return packed_lanes(a, op, ty, cur, x);
    }
    let simple = |op| Some(op);
    let binop = match op {
        RmwOp::Add => simple(BinaryOp::Iadd),
        RmwOp::Sub => simple(BinaryOp::Isub),
        RmwOp::And => simple(BinaryOp::Band),
        RmwOp::Or => simple(BinaryOp::Bor),
        RmwOp::Xor => simple(BinaryOp::Bxor),
        RmwOp::Smin => simple(BinaryOp::Smin),
        RmwOp::Smax => simple(BinaryOp::Smax),
        RmwOp::Umin => simple(BinaryOp::Umin),
        RmwOp::Umax => simple(BinaryOp::Umax),
        RmwOp::Fadd => simple(BinaryOp::Fadd),
        RmwOp::Fsub => simple(BinaryOp::Fsub),
        RmwOp::Fmin => simple(BinaryOp::Fmin),
        RmwOp::Fmax => simple(BinaryOp::Fmax),
        RmwOp::Xchg | RmwOp::Nand | RmwOp::IncWrap | RmwOp::DecWrap => None,
    };
    if let Some(binop) = binop {
        return bin(a, binop, cur, x);
    }
    match op {
        RmwOp::Xchg => x,
        RmwOp::Nand => {
            let both = bin(a, BinaryOp::Band, cur, x);
            a.val(InstData::Unary { op: atomc_ir::UnaryOp::Bnot, arg: both })
        }
        RmwOp::IncWrap => {
            // cur >= x ? 0 : cur + 1
            let zero = iconst(a, ty, 0);
            let one = iconst(a, ty, 1);
            let next = bin(a, BinaryOp::Iadd, cur, one);
            let wrap = a.val(InstData::Icmp { cond: IntCC::Uge, args: [cur, x] });
            a.val(InstData::Select { cond: wrap, args: [zero, next] })
        }
        _ => {
            // cur == 0 || cur > x ? x : cur - 1
            let zero = iconst(a, ty, 0);
            let one = iconst(a, ty, 1);
            let prev = bin(a, BinaryOp::Isub, cur, one);
            let above = a.val(InstData::Icmp { cond: IntCC::Ugt, args: [cur, x] });
            let t = a.val(InstData::Select { cond: above, args: [x, prev] });
            let is_zero = a.val(InstData::Icmp { cond: IntCC::Eq, args: [cur, zero] });
            a.val(InstData::Select { cond: is_zero, args: [x, t] })
        }
    }
}

/// Lane-wise `op` on `f16x2` / `bf16x2`, computed in `f32`.
fn packed_lanes(a: &mut Appender, op: RmwOp, ty: Type, cur: Value, x: Value) -> Value {
    if op == RmwOp::Xchg {
        return x;
    }
    let binop = match op {
        RmwOp::Fadd => BinaryOp::Fadd,
        RmwOp::Fsub => BinaryOp::Fsub,
        RmwOp::Fmin => BinaryOp::Fmin,
        _ => BinaryOp::Fmax,
    };
    let cur_w = bitcast(a, Type::I32, cur);
    let x_w = bitcast(a, Type::I32, x);
    let mut lanes = [cur_w; 2];
    for (lane, out) in lanes.iter_mut().enumerate() {
        let shift = iconst(a, Type::I32, 16 * lane as i64);
        let c = lane_to_f32(a, ty, cur_w, shift);
        let y = lane_to_f32(a, ty, x_w, shift);
        let r = bin(a, binop, c, y);
        let bits16 = f32_to_lane(a, ty, r);
        let wide = a.val(InstData::Convert { op: ConvOp::Uextend, to: Type::I32, arg: bits16 });
        *out = bin(a, BinaryOp::Ishl, wide, shift);
    }
    let word = bin(a, BinaryOp::Bor, lanes[0], lanes[1]);
    bitcast(a, ty, word)
}

/// Lane `shift/16` of the packed word as an `f32` (exact).
fn lane_to_f32(a: &mut Appender, ty: Type, word: Value, shift: Value) -> Value {
    let moved = bin(a, BinaryOp::Ushr, word, shift);
    if ty == Type::F16x2 {
        let h = a.val(InstData::Convert { op: ConvOp::Ireduce, to: Type::I16, arg: moved });
        let f = bitcast(a, Type::F16, h);
        a.val(InstData::Convert { op: ConvOp::Fpromote, to: Type::F32, arg: f })
    } else {
        // bf16 is the top half of an f32.
        let sixteen = iconst(a, Type::I32, 16);
        let up = bin(a, BinaryOp::Ishl, moved, sixteen);
        bitcast(a, Type::F32, up)
    }
}

/// An `f32` rounded to the lane type, as `i16` bits.
fn f32_to_lane(a: &mut Appender, ty: Type, f: Value) -> Value {
    if ty == Type::F16x2 {
        let h = a.val(InstData::Convert { op: ConvOp::Fdemote, to: Type::F16, arg: f });
        return bitcast(a, Type::I16, h);
    }
    // Round to nearest even into the top 16 bits; NaN stays a quiet NaN.
    let bits = bitcast(a, Type::I32, f);
    let sixteen = iconst(a, Type::I32, 16);
    let one = iconst(a, Type::I32, 1);
    let half = iconst(a, Type::I32, 0x7fff);
    let hi = bin(a, BinaryOp::Ushr, bits, sixteen);
    let lsb = bin(a, BinaryOp::Band, hi, one);
    let bias = bin(a, BinaryOp::Iadd, half, lsb);
    let rounded = bin(a, BinaryOp::Iadd, bits, bias);
    let top = bin(a, BinaryOp::Ushr, rounded, sixteen);
    let is_nan = a.val(InstData::Fcmp { cond: atomc_ir::FloatCC::Uno, args: [f, f] });
    let qnan = iconst(a, Type::I32, 0x7fc0);
    let chosen = a.val(InstData::Select { cond: is_nan, args: [qnan, top] });
    a.val(InstData::Convert { op: ConvOp::Ireduce, to: Type::I16, arg: chosen })
}

/// Where an 8/16-bit value sits inside its aligned 32-bit word.
struct Field {
    ty: Type,
    word_ptr: Value,
    /// Bit position of the field in the word (`i32`).
    shift: Value,
    /// `!(lane mask << shift)` (`i32`).
    keep: Value,
}

impl Field {
    fn compute(a: &mut Appender, addr: Address, ty: Type) -> Field {
        let ptr_ty = a.func.value_type(addr.ptr);
        let int_ptr = ptr_ty.as_int().expect("pointers are 32 or 64 bits");
        let raw = bitcast(a, int_ptr, addr.ptr);
        let off = iconst(a, int_ptr, addr.offset as i64);
        let byte = bin(a, BinaryOp::Iadd, raw, off);
        let low_mask = iconst(a, int_ptr, !3);
        let word = bin(a, BinaryOp::Band, byte, low_mask);
        let word_ptr = bitcast(a, ptr_ty, word);
        let byte32 = if int_ptr == Type::I32 {
            byte
        } else {
            a.val(InstData::Convert { op: ConvOp::Ireduce, to: Type::I32, arg: byte })
        };
        let three = iconst(a, Type::I32, 3);
        let in_word = bin(a, BinaryOp::Band, byte32, three);
        let shift = bin(a, BinaryOp::Ishl, in_word, three);
        let lane_mask = iconst(a, Type::I32, if ty.bits() == 8 { 0xff } else { 0xffff });
        let placed = bin(a, BinaryOp::Ishl, lane_mask, shift);
        let keep = a.val(InstData::Unary { op: atomc_ir::UnaryOp::Bnot, arg: placed });
        Field { ty, word_ptr, shift, keep }
    }

    /// The field of `word` as a value of the access type.
    fn extract(&self, a: &mut Appender, word: Value) -> Value {
        let moved = bin(a, BinaryOp::Ushr, word, self.shift);
        let int_ty = self.ty.as_int().expect("8 or 16 bits");
        let narrow = a.val(InstData::Convert { op: ConvOp::Ireduce, to: int_ty, arg: moved });
        bitcast(a, self.ty, narrow)
    }

    /// `word` with the field replaced by `value`.
    fn insert(&self, a: &mut Appender, word: Value, value: Value) -> Value {
        let int_ty = self.ty.as_int().expect("8 or 16 bits");
        let bits = bitcast(a, int_ty, value);
        let wide = a.val(InstData::Convert { op: ConvOp::Uextend, to: Type::I32, arg: bits });
        let placed = bin(a, BinaryOp::Ishl, wide, self.shift);
        let kept = bin(a, BinaryOp::Band, word, self.keep);
        bin(a, BinaryOp::Bor, kept, placed)
    }
}
