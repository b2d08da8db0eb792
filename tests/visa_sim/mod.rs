//! A small simulator of the vISA subset atomc emits, for differential
//! tests against the IR's reference interpreter (no Intel GPU is
//! available). It models one hardware thread: per-channel enables, SIMD
//! `goto` (a forward goto parks the jumping channels at the target; a
//! backward goto parks the staying channels after it; with no channel
//! active, execution resumes at the nearest parked point), scalar `jmp`,
//! regions, aliases, predicates and the `svm_*` messages on a flat memory,
//! `typed_atomic`/`resinfo` on bound and bindless surfaces ([`typed`]).
//!
//! Several hardware threads of one thread group are several `Sim`s stepped in turn
//! ([`Sim::step`]) over one memory, each stopping at a `barrier` until all have reached one.
//!
//! It encodes atomc's reading of the vISA spec (visa.md), so it checks the
//! lowering's logic — control flow, block arguments, 64-bit emulation —
//! not the hardware. Byte gathers fill the upper bytes of each dword with
//! garbage, so missing masks show up.

#![allow(dead_code)]

use atomc_emit::visa::*;
use std::collections::HashMap;

pub mod typed;

/// A scalar while computing: integers widened, floats as f64.
#[derive(Clone, Copy, Debug, PartialEq)]
enum V {
    I(i128),
    F(f64),
}

impl V {
    fn i(self) -> i128 {
        match self {
            V::I(x) => x,
            V::F(f) => f as i128,
        }
    }
    fn f(self) -> f64 {
        match self {
            V::I(x) => x as f64,
            V::F(f) => f,
        }
    }
}

fn read_bytes(b: &[u8], ty: Type) -> V {
    let mut w = [0u8; 8];
    let n = ty.size() as usize;
    w[..n].copy_from_slice(&b[..n]);
    let u = u64::from_le_bytes(w);
    match ty {
        Type::UD => V::I(u as u32 as i128),
        Type::D => V::I(u as u32 as i32 as i128),
        Type::UW => V::I(u as u16 as i128),
        Type::W => V::I(u as u16 as i16 as i128),
        Type::UB => V::I(u as u8 as i128),
        Type::B => V::I(u as u8 as i8 as i128),
        Type::UQ => V::I(u as i128),
        Type::Q => V::I(u as i64 as i128),
        Type::F => V::F(f32::from_bits(u as u32) as f64),
        Type::DF => V::F(f64::from_bits(u)),
        Type::HF => V::F(atomc::ir::interp::f16_bits_to_f32(u as u16) as f64),
    }
}

fn to_bits(v: V, ty: Type) -> u64 {
    match ty {
        // An integer rounds to f32 once (through f64 first, a 64-bit integer could round twice).
        Type::F => match v {
            V::I(x) => (x as f32).to_bits() as u64,
            V::F(f) => (f as f32).to_bits() as u64,
        },
        Type::DF => v.f().to_bits(),
        Type::HF => atomc::ir::interp::f32_to_f16_bits(v.f() as f32) as u64,
        _ => {
            let x = match v {
                V::I(x) => x,
                // float → integer: toward zero, saturating, NaN → 0.
                // (Rust's float-to-integer `as` is exactly that; a clamp to `i64::MAX as f64`,
                // which is 2^63, would wrap to i64::MIN.)
                V::F(f) => match ty {
                    Type::D => f as i32 as i128,
                    Type::UD => f as u32 as i128,
                    Type::Q => f as i64 as i128,
                    _ => f as u64 as i128,
                },
            };
            x as u64
        }
    }
}

/// Where the simulated shared local memory (`%slm`) lives in [`Mem`]: SLM
/// byte offset `o` is address `SLM_BASE + o` (a buffer the caller adds).
pub const SLM_BASE: u64 = 0x7f00_0000_0000;

/// Where the simulated launch puts the global dword of `SURFACE_LOCK` (a buffer the caller adds,
/// zeroed as the launch zeroes it).
pub const SURFACE_LOCK_ADDR: u64 = 0x7e00_0000_0000;

/// Flat memory: buffers at fixed addresses.
#[derive(Default, Clone)]
pub struct Mem {
    pub bufs: Vec<(u64, Vec<u8>)>,
}

impl Mem {
    fn at(&mut self, addr: u64, n: usize) -> Result<&mut [u8], String> {
        for (base, b) in &mut self.bufs {
            if addr >= *base && addr + n as u64 <= *base + b.len() as u64 {
                let o = (addr - *base) as usize;
                return Ok(&mut b[o..o + n]);
            }
        }
        Err(format!("access of {n} bytes at {addr:#x} outside every buffer"))
    }
    fn load(&mut self, addr: u64, n: usize) -> Result<u64, String> {
        let s = self.at(addr, n)?;
        let mut w = [0u8; 8];
        w[..n].copy_from_slice(s);
        Ok(u64::from_le_bytes(w))
    }
    fn store(&mut self, addr: u64, n: usize, v: u64) -> Result<(), String> {
        let s = self.at(addr, n)?;
        s.copy_from_slice(&v.to_le_bytes()[..n]);
        Ok(())
    }
}

/// One simulated hardware thread of `simd` channels.
pub struct Sim<'k> {
    k: &'k Kernel,
    grf: u32,
    simd: u32,
    regs: HashMap<u32, Vec<u8>>,
    preds: Vec<[bool; 32]>,
    labels: HashMap<u16, usize>,
    pub mem: Mem,
    /// The kernel's surfaces (`Kernel::surfaces` order), for `typed_atomic`.
    pub surfaces: Vec<typed::SimSurface>,
    /// The bindless surfaces, each with its surface-state offset (the handle's low word).
    pub bindless: Vec<(u32, typed::SimSurface)>,
    /// What the last `movs` wrote to `%bss`.
    bss: Option<u32>,
    /// Where the thread is ([`Sim::step`]): the next instruction, the enabled channels, and
    /// where each parked channel waits.
    pc: usize,
    active: [bool; 32],
    wait: [Option<usize>; 32],
}

/// What one [`Sim::step`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Ran an instruction.
    Ran,
    /// Stopped at a `barrier` (not passed until [`Sim::pass_barrier`]).
    Barrier,
    /// Reached `ret` or ran out of enabled channels.
    Done,
}

impl<'k> Sim<'k> {
    pub fn new(k: &'k Kernel, p: Platform, simd: u32, mem: Mem) -> Sim<'k> {
        let mut regs = HashMap::new();
        for (i, v) in k.vars.iter().enumerate() {
            if v.alias.is_none() {
                // Fresh registers hold garbage, not zeros.
                regs.insert(i as u32, vec![0x5a; v.bytes() as usize]);
            }
        }
        let mut labels = HashMap::new();
        for (i, inst) in k.insts.iter().enumerate() {
            if let (Op::Label, Some(Operand::Label(l))) = (inst.op, inst.operands.first()) {
                labels.insert(l.0, i);
            }
        }
        Sim {
            k,
            grf: p.grf_bytes(),
            simd,
            regs,
            preds: vec![[false; 32]; k.preds.len()],
            labels,
            surfaces: Vec::new(),
            bindless: Vec::new(),
            bss: None,
            mem,
            pc: 0,
            active: std::array::from_fn(|c| c < simd as usize),
            wait: [None; 32],
        }
    }

    /// The base variable and byte offset of a (possibly alias) variable.
    fn base(&self, v: VarId) -> (u32, usize) {
        let (mut v, mut off) = (v, 0usize);
        while let Some((b, o)) = self.k.var(v).and_then(|d| d.alias) {
            off += o as usize;
            v = b;
        }
        (v.0, off)
    }

    /// Sets an input by variable name.
    pub fn set(&mut self, name: &str, bytes: &[u8]) {
        let i = self.k.vars.iter().position(|v| v.name == name).unwrap_or_else(|| panic!("no var {name}"));
        let (b, off) = self.base(VarId(i as u32));
        self.regs.get_mut(&b).unwrap()[off..off + bytes.len()].copy_from_slice(bytes);
    }

    fn ty(&self, v: VarId) -> Type {
        self.k.var(v).unwrap().ty
    }

    fn src(&self, o: &Operand, lane: u32, ch: usize) -> V {
        match *o {
            Operand::Src { var, row, col, region, modifier } => {
                let ty = self.ty(var);
                let w = region.width.max(1) as u32;
                let e = col as u32 + (lane / w) * region.vstride as u32 + (lane % w) * region.hstride as u32;
                let (b, off) = self.base(var);
                let at = off + (row as u32 * self.grf + e * ty.size()) as usize;
                let v = read_bytes(&self.regs[&b][at..], ty);
                match (modifier, v) {
                    (SrcMod::None, v) => v,
                    (SrcMod::Neg, V::I(x)) => V::I(-x),
                    (SrcMod::Neg, V::F(x)) => V::F(-x),
                    (SrcMod::Abs, V::I(x)) => V::I(x.abs()),
                    (SrcMod::Abs, V::F(x)) => V::F(x.abs()),
                    (SrcMod::NegAbs, V::I(x)) => V::I(-x.abs()),
                    (SrcMod::NegAbs, V::F(x)) => V::F(-x.abs()),
                    (SrcMod::Not, v) => V::I(!v.i()),
                }
            }
            Operand::Imm(i) => read_bytes(&i.masked_bits().to_le_bytes(), i.ty),
            Operand::Pred(p) => V::I(self.preds[p.0 as usize][ch] as i128),
            _ => V::I(0),
        }
    }

    fn src_ty(&self, o: &Operand) -> Option<Type> {
        match *o {
            Operand::Src { var, .. } => Some(self.ty(var)),
            Operand::Imm(i) => Some(i.ty),
            _ => None,
        }
    }

    fn write(&mut self, o: &Operand, lane: u32, ch: usize, v: V) {
        match *o {
            Operand::Dst { var, row, col, hstride } => {
                let ty = self.ty(var);
                let e = col as u32 + lane * hstride as u32;
                let (b, off) = self.base(var);
                let at = off + (row as u32 * self.grf + e * ty.size()) as usize;
                let bits = to_bits(v, ty);
                let n = ty.size() as usize;
                self.regs.get_mut(&b).unwrap()[at..at + n].copy_from_slice(&bits.to_le_bytes()[..n]);
            }
            Operand::Pred(p) => self.preds[p.0 as usize][ch] = v.i() != 0,
            _ => {}
        }
    }

    fn raw_elem(&self, o: &Operand, i: u32, size: u32) -> Option<(u32, usize)> {
        match *o {
            Operand::Raw { var: Some(v), offset } => {
                let (b, off) = self.base(v);
                Some((b, off + offset as usize + (i * size) as usize))
            }
            _ => None,
        }
    }

    pub(crate) fn raw_read(&self, o: &Operand, i: u32, size: u32) -> u64 {
        match self.raw_elem(o, i, size) {
            Some((b, at)) => {
                let mut w = [0u8; 8];
                w[..size as usize].copy_from_slice(&self.regs[&b][at..at + size as usize]);
                u64::from_le_bytes(w)
            }
            None => 0,
        }
    }

    pub(crate) fn raw_write(&mut self, o: &Operand, i: u32, size: u32, v: u64) {
        if let Some((b, at)) = self.raw_elem(o, i, size) {
            self.regs.get_mut(&b).unwrap()[at..at + size as usize].copy_from_slice(&v.to_le_bytes()[..size as usize]);
        }
    }

    fn guard(&self, inst: &Inst, ch: usize) -> bool {
        match inst.pred {
            None => true,
            Some(p) => {
                let bits = &self.preds[p.pred.0 as usize];
                let n = self.k.pred(p.pred).map(|d| d.num_elts as usize).unwrap_or(32);
                let b = match p.ctl {
                    PredCtl::Normal => bits[ch],
                    PredCtl::Any => bits[..n].iter().any(|&x| x),
                    PredCtl::All => bits[..n].iter().all(|&x| x),
                };
                b != p.invert
            }
        }
    }

    /// Runs to `ret`. One simulated hardware thread is the whole thread group: a barrier has
    /// nobody to wait for.
    pub fn run(&mut self, max_steps: usize) -> Result<(), String> {
        for _ in 0..max_steps {
            match self.step()? {
                Step::Done => return Ok(()),
                Step::Barrier => self.pass_barrier(),
                Step::Ran => {}
            }
        }
        Err("step limit".into())
    }

    /// Lets a thread stopped at a barrier go on (every thread of the group has reached one).
    pub fn pass_barrier(&mut self) {
        self.pc += 1;
    }

    /// Runs one instruction.
    pub fn step(&mut self) -> Result<Step, String> {
        let (active, wait) = (&mut self.active, &mut self.wait);
        let pc = self.pc;
        for c in 0..32 {
            if wait[c] == Some(pc) {
                wait[c] = None;
                active[c] = true;
            }
        }
        if !active.iter().any(|&a| a) {
            return match wait.iter().flatten().min() {
                Some(&t) => {
                    self.pc = t;
                    Ok(Step::Ran)
                }
                None => Ok(Step::Done),
            };
        }
        let inst = self.k.insts.get(pc).ok_or("ran off the end")?.clone();
        let lanes = inst.exec.size.lanes();
        let first = 4 * inst.exec.offset as usize;
        // (lane, channel) pairs that execute.
        let on: Vec<(u32, usize)> = (0..lanes)
            .map(|l| (l, first + l as usize))
            .filter(|&(_, c)| {
                (inst.exec.nomask || self.active[c]) && (matches!(inst.op, Op::Cmp | Op::Sel) || self.guard(&inst, c))
            })
            .collect();
        match inst.op {
            Op::Label | Op::Fence => {}
            Op::Movs => self.movs(&inst)?,
            Op::Barrier => return Ok(Step::Barrier),
            Op::Ret => return Ok(Step::Done),
            Op::Jmp => {
                let Some(Operand::Label(l)) = inst.operands.first() else { unreachable!() };
                if self.guard(&inst, 0) {
                    self.pc = self.labels[&l.0];
                    return Ok(Step::Ran);
                }
            }
            Op::Goto => {
                let Some(Operand::Label(l)) = inst.operands.first() else { unreachable!() };
                let t = self.labels[&l.0];
                let taken: Vec<usize> = on.iter().map(|&(_, c)| c).collect();
                if t > pc {
                    for &c in &taken {
                        self.active[c] = false;
                        self.wait[c] = Some(t);
                    }
                } else if !taken.is_empty() {
                    for c in 0..32 {
                        if self.active[c] && !taken.contains(&c) {
                            self.active[c] = false;
                            self.wait[c] = Some(pc + 1);
                        }
                    }
                    self.pc = t;
                    return Ok(Step::Ran);
                }
            }
            Op::SvmAtomic
            | Op::SvmGather
            | Op::SvmScatter
            | Op::DwordAtomic
            | Op::LscSlmAtomic
            | Op::TypedAtomic
            | Op::Gather4Typed
            | Op::Scatter4Typed
            | Op::ResInfo
            | Op::GatherScaled
            | Op::ScatterScaled => {
                for &(l, _) in &on {
                    self.message(&inst, l)?;
                }
            }
            _ => {
                for &(l, c) in &on {
                    self.alu(&inst, l, c);
                }
            }
        }
        self.pc += 1;
        Ok(Step::Ran)
    }

    fn alu(&mut self, inst: &Inst, l: u32, c: usize) {
        let o = &inst.operands;
        let dty = match o[0] {
            Operand::Dst { var, .. } => Some(self.ty(var)),
            _ => None,
        };
        let float =
            dty.is_some_and(|t| t.is_float()) || o[1..].iter().any(|s| self.src_ty(s).is_some_and(|t| t.is_float()));
        let s = |i: usize| self.src(&o[i], l, c);
        let u32_of = |v: V| v.i() as u32;
        let v = match inst.op {
            // A predicate copied into a scalar: its lane bits.
            Op::Mov if matches!(o[1], Operand::Pred(_)) => {
                let Operand::Pred(p) = o[1] else { unreachable!() };
                let n = self.k.pred(p).map_or(32, |d| d.num_elts as usize);
                V::I((0..n).filter(|&i| self.preds[p.0 as usize][i]).fold(0i128, |m, i| m | 1 << i))
            }
            Op::Setp => V::I((s(1).i() >> l) & 1),
            Op::Mov => s(1),
            Op::Lzd => V::I(u32_of(s(1)).leading_zeros() as i128),
            Op::Cbit => V::I(u32_of(s(1)).count_ones() as i128),
            Op::Fbl => V::I(match u32_of(s(1)) {
                0 => 0xffff_ffff,
                x => x.trailing_zeros() as i128,
            }),
            Op::Bfrev => V::I(u32_of(s(1)).reverse_bits() as i128),
            // The field src0 bits wide at bit src1 of src2 (both modulo 32, as the hardware
            // fields), sign-extended for a signed type.
            Op::Bfe => {
                let (w, off, x) = (u32_of(s(1)) & 31, u32_of(s(2)) & 31, u32_of(s(3)));
                let signed = self.src_ty(&o[3]).is_some_and(|t| t.is_signed_int());
                let v = if w == 0 {
                    0
                } else if w + off < 32 {
                    let t = x << (32 - w - off);
                    if signed {
                        ((t as i32) >> (32 - w)) as u32
                    } else {
                        t >> (32 - w)
                    }
                } else if signed {
                    ((x as i32) >> off) as u32
                } else {
                    x >> off
                };
                V::I(if signed { v as i32 as i128 } else { v as i128 })
            }
            Op::Bfi => {
                let (w, off) = (u32_of(s(1)) & 31, u32_of(s(2)) & 31);
                let mask = (((1u64 << w) - 1) << off) as u32;
                V::I((((u32_of(s(3)) << off) & mask) | (u32_of(s(4)) & !mask)) as i128)
            }
            Op::Mulh => V::I((s(1).i() * s(2).i()) >> 32),
            Op::Mad if float => V::F(s(1).f().mul_add(s(2).f(), s(3).f())),
            Op::Mad => V::I(s(1).i().wrapping_mul(s(2).i()) + s(3).i()),
            Op::Add if float => V::F(s(1).f() + s(2).f()),
            Op::Add => V::I(s(1).i() + s(2).i()),
            Op::Mul if float => V::F(s(1).f() * s(2).f()),
            Op::Mul => V::I(s(1).i().wrapping_mul(s(2).i())),
            // Integer `div`/`mod` on Gen12LP's math unit: the quotient rounds toward zero, the
            // remainder takes the dividend's sign (the sources read by their types' signedness).
            Op::Div => V::I(s(1).i().checked_div(s(2).i()).unwrap_or(-1)),
            // IEEE division, rounded once: an f32 quotient through f64 rounds twice harmlessly
            // (53 bits > 2 × 24 + 2). A NaN result is the positive quiet NaN (modelled).
            Op::Divm => {
                let q = s(1).f() / s(2).f();
                V::F(if q.is_nan() { f64::NAN.copysign(1.0) } else { q })
            }
            Op::Mod => V::I(s(1).i().checked_rem(s(2).i()).unwrap_or(-1)),
            Op::And => V::I(s(1).i() & s(2).i()),
            Op::Or => V::I(s(1).i() | s(2).i()),
            Op::Xor => V::I(s(1).i() ^ s(2).i()),
            // On a predicate, `not` flips each channel's one bit.
            Op::Not if matches!(o[1], Operand::Pred(_)) => V::I((s(1).i() == 0) as i128),
            Op::Not => V::I(!s(1).i()),
            Op::Shl | Op::Shr | Op::Asr => {
                let ty = self.src_ty(&o[1]).unwrap();
                let bits = 8 * ty.size();
                let amt = s(2).i() as u32 & (bits - 1);
                let x = s(1).i();
                let mask = if bits == 64 { u64::MAX as i128 } else { (1i128 << bits) - 1 };
                match inst.op {
                    Op::Shl => V::I(x << amt),
                    Op::Shr => V::I((x & mask) >> amt),
                    _ => {
                        let sx = if (x >> (bits - 1)) & 1 == 1 { (x & mask) - (1i128 << bits) } else { x & mask };
                        V::I(sx >> amt)
                    }
                }
            }
            Op::Sel => {
                if self.guard(inst, c) {
                    s(1)
                } else {
                    s(2)
                }
            }
            Op::Min | Op::Max => {
                let (a, b) = (s(1), s(2));
                let a_lt = if float { a.f() < b.f() || b.f().is_nan() } else { a.i() < b.i() };
                if (inst.op == Op::Min) == a_lt {
                    a
                } else {
                    b
                }
            }
            Op::Cmp => {
                let Ext::Relop(r) = inst.ext else { unreachable!() };
                let (a, b) = (s(1), s(2));
                let res = if float { compare(r, a.f(), b.f()) } else { compare(r, a.i(), b.i()) };
                V::I(res as i128)
            }
            Op::Addc | Op::Subb => {
                let (a, b) = (self.src(&o[2], l, c).i() as u32 as u64, self.src(&o[3], l, c).i() as u32 as u64);
                let (r, carry) =
                    if inst.op == Op::Addc { (a + b, (a + b) >> 32) } else { (a.wrapping_sub(b), (a < b) as u64) };
                self.write(&o[1], l, c, V::I(carry as i128));
                V::I(r as u32 as i128)
            }
            _ => V::I(0),
        };
        self.write(&o[0], l, c, v);
    }

    fn message(&mut self, inst: &Inst, l: u32) -> Result<(), String> {
        let o = &inst.operands;
        if inst.op == Op::TypedAtomic {
            return self.typed_atomic(inst, l);
        }
        if inst.op == Op::ResInfo {
            return self.resinfo(inst, l);
        }
        if matches!(inst.op, Op::Gather4Typed | Op::Scatter4Typed) {
            return self.typed_read_write(inst, l, inst.op == Op::Scatter4Typed);
        }
        if inst.op == Op::LscSlmAtomic {
            // lsc_atomic_icas.slm d64: dst, addresses, src1 (compared), src2 (new).
            if inst.ext != Ext::Atomic(AtomicOp::CmpXchg, AtomicWidth::W64) {
                return Err(format!("{:?} not simulated", inst.ext));
            }
            let addr = SLM_BASE + self.raw_read(&o[1], l, 4);
            let (cmp, new) = (self.raw_read(&o[2], l, 8), self.raw_read(&o[3], l, 8));
            let old = self.mem.load(addr, 8)?;
            if old == cmp {
                self.mem.store(addr, 8, new)?;
            }
            self.raw_write(&o[0], l, 8, old);
            return Ok(());
        }
        let addr = match inst.op {
            Op::DwordAtomic => SLM_BASE + self.raw_read(&o[0], l, 4),
            Op::GatherScaled | Op::ScatterScaled => {
                SLM_BASE + (self.src(&o[0], 0, 0).i() as u64 & 0xffff_ffff) + self.raw_read(&o[1], l, 4)
            }
            _ => self.raw_read(&o[0], l, 8),
        };
        match inst.ext {
            Ext::Scaled(n) => {
                let n = n as usize;
                if inst.op == Op::GatherScaled {
                    // The bytes above a 1- or 2-byte read are undefined.
                    let junk = 0xabab_abab_u64 & !((1u64 << (8 * n)) - 1);
                    let v = self.mem.load(addr, n)? | junk;
                    self.raw_write(&o[2], l, 4, v & 0xffff_ffff);
                } else {
                    let v = self.raw_read(&o[2], l, 4);
                    self.mem.store(addr, n, v)?;
                }
            }
            Ext::Atomic(op, w) => {
                let n = match w {
                    AtomicWidth::W16 => 2,
                    AtomicWidth::W32 => 4,
                    AtomicWidth::W64 => 8,
                };
                let esz = if n == 8 { 8 } else { 4 };
                let mask = if n == 8 { u64::MAX } else { (1u64 << (8 * n)) - 1 };
                let s0 = self.raw_read(&o[1], l, esz) & mask;
                let s1 = self.raw_read(&o[2], l, esz) & mask;
                let old = self.mem.load(addr, n)?;
                let sx = |x: u64| -> i64 { ((x << (64 - 8 * n)) as i64) >> (64 - 8 * n) };
                let fl = |x: u64| f32::from_bits(x as u32);
                let new = match op {
                    AtomicOp::Add => old.wrapping_add(s0),
                    AtomicOp::Sub => old.wrapping_sub(s0),
                    AtomicOp::Inc => old.wrapping_add(1),
                    AtomicOp::Dec => old.wrapping_sub(1),
                    AtomicOp::Min => old.min(s0),
                    AtomicOp::Max => old.max(s0),
                    AtomicOp::IMin => sx(old).min(sx(s0)) as u64,
                    AtomicOp::IMax => sx(old).max(sx(s0)) as u64,
                    AtomicOp::Xchg => s0,
                    AtomicOp::CmpXchg => {
                        if old == s1 {
                            s0
                        } else {
                            old
                        }
                    }
                    AtomicOp::And => old & s0,
                    AtomicOp::Or => old | s0,
                    AtomicOp::Xor => old ^ s0,
                    AtomicOp::FMin => fl(old).min(fl(s0)).to_bits() as u64,
                    AtomicOp::FMax => fl(old).max(fl(s0)).to_bits() as u64,
                    AtomicOp::FAdd => (fl(old) + fl(s0)).to_bits() as u64,
                    other => return Err(format!("{other:?} not simulated")),
                } & mask;
                self.mem.store(addr, n, new)?;
                // .16 returns a dword whose upper half is not defined.
                let ret = if n == 2 { old | 0xdead_0000 } else { old };
                self.raw_write(&o[3], l, esz, ret);
            }
            Ext::Blocks(b) => {
                let per_lane = (b.block_bytes.max(4) as u32) * b.num_blocks as u32;
                let n = b.block_bytes as usize;
                if inst.op == Op::SvmGather {
                    let v = self.mem.load(addr, n)?;
                    let v = if n == 1 { v | 0xabab_ab00 } else { v };
                    self.raw_write(&o[1], l, per_lane, v);
                } else {
                    let v = self.raw_read(&o[1], l, per_lane);
                    self.mem.store(addr, n, v)?;
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// `a r b`, with IEEE comparisons on floats (false when either is NaN, but for `ne`).
fn compare<T: PartialOrd>(r: Relop, a: T, b: T) -> bool {
    match r {
        Relop::Eq => a == b,
        Relop::Ne => a != b,
        Relop::Lt => a < b,
        Relop::Le => a <= b,
        Relop::Gt => a > b,
        Relop::Ge => a >= b,
    }
}

/// Runs the hardware threads `sims` of one thread group to the end over one memory: `mem` and
/// `surfaces` are swapped into the thread that runs, which switches after a random 1 to 16
/// instructions (a xorshift sequence from `seed`). With `barriers`, when every thread still
/// running waits at a barrier, all pass it; without, a thread stopping at one is an error. At
/// most 5,000,000 instructions in all.
pub fn run_group(
    sims: &mut [Sim],
    mem: &mut Mem,
    surfaces: &mut Vec<typed::SimSurface>,
    seed: u64,
    barriers: bool,
) -> Result<(), String> {
    let mut next = {
        let mut x = seed.wrapping_mul(0x2545_F491_4F6C_DD1D) | 1;
        move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        }
    };
    let mut state = vec![Step::Ran; sims.len()];
    let mut budget = 5_000_000usize;
    loop {
        let running: Vec<usize> = (0..sims.len()).filter(|&t| state[t] == Step::Ran).collect();
        if running.is_empty() {
            if state.iter().all(|&s| s == Step::Done) {
                return Ok(());
            }
            // Every thread still running waits at a barrier: all pass it.
            for (t, s) in state.iter_mut().enumerate() {
                if *s == Step::Barrier {
                    sims[t].pass_barrier();
                    *s = Step::Ran;
                }
            }
            continue;
        }
        let t = running[(next() % running.len() as u64) as usize];
        let slice = 1 + next() % 16;
        std::mem::swap(&mut sims[t].mem, mem);
        std::mem::swap(&mut sims[t].surfaces, surfaces);
        let mut r = Ok(Step::Ran);
        for _ in 0..slice {
            r = sims[t].step();
            budget = budget.saturating_sub(1);
            if !matches!(r, Ok(Step::Ran)) {
                break;
            }
        }
        std::mem::swap(&mut sims[t].mem, mem);
        std::mem::swap(&mut sims[t].surfaces, surfaces);
        state[t] = r.map_err(|e| format!("thread {t}: {e}"))?;
        if !barriers && state[t] == Step::Barrier {
            return Err(format!("thread {t} stopped at a barrier (these kernels have none)"));
        }
        if budget == 0 {
            return Err("step limit (a thread never gets the lock?)".into());
        }
    }
}
