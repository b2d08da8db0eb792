//! One instruction of one thread.

use super::arith;
use super::bits;
use super::decode::{Addr, Op, Reg, Surf, Target};
use super::error::Fault;
use super::float::{self, FKind};
use super::memory::{self, read_le, write_le, SHARED_WINDOW_BASE};
use super::sched::{Event, Machine};
use crate::{AddrSpace, SpecialReg, SurfaceAddressing, SurfaceClamp, SurfaceRef, TernaryOp, Type, Value};
use cranelift_entity::EntityRef;

impl Machine<'_, '_> {
    #[inline]
    pub(crate) fn get(&self, base: usize, r: Reg) -> Result<u64, Fault> {
        let i = base + r as usize;
        if self.def[i] {
            Ok(self.regs[i])
        } else {
            Err(Fault::Undefined(Value::new(r as usize)))
        }
    }

    #[inline]
    pub(crate) fn set(&mut self, base: usize, r: Reg, v: u64) {
        let i = base + r as usize;
        self.regs[i] = v;
        self.def[i] = true;
    }

    /// The bytes a memory instruction of thread `t` addresses.
    fn at(&mut self, t: usize, base: usize, a: Addr, size: u32) -> Result<&mut [u8], Fault> {
        let ptr = self.get(base, a.ptr)?;
        let addr = memory::effective(a.space, ptr, a.offset);
        let b = t / self.tpb;
        let shared = &mut self.shared[b * self.shared_size..(b + 1) * self.shared_size];
        memory::locate(self.mem, shared, a.space, addr, size).map_err(|f| Fault::Mem(f, size))
    }

    /// The element a surface atomic addresses: `(surface, byte offset)`, or
    /// `None` when `clamp ign` drops the access.
    fn surface_elem(
        &mut self,
        base: usize,
        s: &Surf,
        ty: Type,
    ) -> Result<Option<(usize, usize)>, Fault> {
        let idx = match (s.access.surface, s.handle) {
            (SurfaceRef::Slot(n), _) => self
                .mem
                .slot(n)
                .ok_or_else(|| Fault::Surface(format!("no surface is bound at slot {n}")))?,
            (SurfaceRef::Handle(_), Some(h)) => {
                let bits = self.get(base, h)?;
                self.mem
                    .handle(bits)
                    .ok_or_else(|| Fault::Surface(format!("{bits:#x} is not a surface handle")))?
            }
            (SurfaceRef::Handle(v), None) => return Err(Fault::Undefined(v)),
        };
        let surf = self.mem.surface_mut(idx);
        let (extent, elem, data_len) = (surf.extent, surf.elem_bytes, surf.data.len());
        if elem != ty.bytes() {
            return Err(Fault::Surface(format!(
                "the surface holds {elem}-byte elements; the access is {ty} ({} bytes)",
                ty.bytes()
            )));
        }
        let mut c = [0i32; 3];
        for (i, r) in s.coords.range().enumerate() {
            c[i] = self.get(base, self.prog.pool[r])? as u32 as i32;
        }
        let n = s.coords.len as usize;
        let raw: Vec<i32> = c[..n].to_vec();
        if s.access.addressing == SurfaceAddressing::Bytes {
            if c[0].rem_euclid(elem as i32) != 0 {
                return Err(Fault::Surface(format!(
                    "byte coordinate {} is not a multiple of the element size {elem}",
                    c[0]
                )));
            }
            c[0] = c[0].div_euclid(elem as i32);
        }
        for i in 0..n {
            let e = extent[i].max(1) as i64;
            let v = c[i] as i64;
            if v < 0 || v >= e {
                match s.access.clamp {
                    SurfaceClamp::Ign => return Ok(None),
                    SurfaceClamp::Near => c[i] = v.clamp(0, e - 1) as i32,
                    SurfaceClamp::Trap => return Err(Fault::SurfaceRange(raw, extent)),
                }
            }
        }
        let (w, h) = (extent[0].max(1) as u128, extent[1].max(1) as u128);
        let linear = (c[2] as u128 * h + c[1] as u128) * w + c[0] as u128;
        let off = linear * elem as u128;
        if off + elem as u128 > data_len as u128 {
            return Err(Fault::Surface(format!(
                "the surface has {data_len} bytes of data, too few for its extent {extent:?}"
            )));
        }
        Ok(Some((idx, off as usize)))
    }

    fn surface_bytes(&mut self, idx: usize, off: usize, ty: Type) -> &mut [u8] {
        &mut self.mem.surface_mut(idx).data[off..off + ty.bytes() as usize]
    }

    fn branch(&mut self, t: usize, base: usize, tg: Target) -> Result<(), Fault> {
        self.tmp.clear();
        for i in tg.args.range() {
            let v = self.get(base, self.prog.pool[i])?;
            self.tmp.push(v);
        }
        for (k, i) in tg.params.range().enumerate() {
            let (r, v) = (self.prog.pool[i], self.tmp[k]);
            self.set(base, r, v);
        }
        self.pcs[t] = tg.pc;
        Ok(())
    }

    fn special(&self, t: usize, reg: SpecialReg) -> u64 {
        let (bid, tid) = self.ids(t);
        (match reg {
            SpecialReg::ThreadIdX => tid[0],
            SpecialReg::ThreadIdY => tid[1],
            SpecialReg::ThreadIdZ => tid[2],
            SpecialReg::BlockIdX => bid[0],
            SpecialReg::BlockIdY => bid[1],
            SpecialReg::BlockIdZ => bid[2],
            SpecialReg::BlockDimX => self.block.x,
            SpecialReg::BlockDimY => self.block.y,
            SpecialReg::BlockDimZ => self.block.z,
            SpecialReg::GridDimX => self.grid.x,
            SpecialReg::GridDimY => self.grid.y,
            SpecialReg::GridDimZ => self.grid.z,
            SpecialReg::LaneId => ((t % self.tpb) % self.sg_size) as u32,
        }) as u64
    }

    /// Executes the instruction at thread `t`'s pc.
    pub(crate) fn step(&mut self, t: usize) -> Result<Event, Fault> {
        let base = t * self.nvals;
        let pc = self.pcs[t] as usize;
        let op = self.prog.code[pc];
        self.pcs[t] = pc as u32 + 1;
        match op {
            Op::Const { dst, bits } => self.set(base, dst, bits),
            Op::Unary { op, ty, dst, a } => {
                let v = arith::unop(op, ty, self.get(base, a)?);
                self.set(base, dst, v);
            }
            Op::Binary { op, ty, dst, a, b } => {
                let (x, y) = (self.get(base, a)?, self.get(base, b)?);
                let v = arith::binop(op, ty, x, y).ok_or(Fault::DivByZero)?;
                self.set(base, dst, v);
            }
            Op::Ternary { op, ty, dst, a, b, c } => {
                let (x, y, z) = (self.get(base, a)?, self.get(base, b)?, self.get(base, c)?);
                let w = ty.bits();
                let v = match op {
                    TernaryOp::Fma => float::fma(FKind::of(ty).unwrap_or(FKind::F64), x, y, z),
                    TernaryOp::Ubfe => bits::extract(false, w, x, y, z),
                    TernaryOp::Sbfe => bits::extract(true, w, x, y, z),
                };
                self.set(base, dst, v);
            }
            Op::Bfi { ty, dst, x, base: b, pos, len } => {
                let (x, b, p, l) = (self.get(base, x)?, self.get(base, b)?, self.get(base, pos)?, self.get(base, len)?);
                self.set(base, dst, bits::insert(ty.bits(), x, b, p, l));
            }
            Op::Subgroup { .. } => return Ok(Event::Subgroup(pc as u32)),
            Op::Icmp {
                cond,
                ty,
                dst,
                a,
                b,
            } => {
                let v = arith::icmp(cond, ty, self.get(base, a)?, self.get(base, b)?);
                self.set(base, dst, v as u64);
            }
            Op::Fcmp {
                cond,
                ty,
                dst,
                a,
                b,
            } => {
                let k = FKind::of(ty).unwrap_or(FKind::F64);
                let v = float::compare(k, cond, self.get(base, a)?, self.get(base, b)?);
                self.set(base, dst, v as u64);
            }
            Op::Select { dst, c, a, b } => {
                let v = if self.get(base, c)? & 1 != 0 {
                    self.get(base, a)?
                } else {
                    self.get(base, b)?
                };
                self.set(base, dst, v);
            }
            Op::Convert {
                op,
                from,
                to,
                dst,
                a,
            } => {
                let v = arith::convert(op, from, to, self.get(base, a)?);
                self.set(base, dst, v);
            }
            Op::PtrAdd {
                space,
                off_ty,
                dst,
                p,
                off,
            } => {
                let o = arith::sext(self.get(base, off)?, off_ty.bits());
                let p = self.get(base, p)?;
                let v = match space {
                    AddrSpace::Shared => (p as u32).wrapping_add(o as u32) as u64,
                    _ => p.wrapping_add(o as u64),
                };
                self.set(base, dst, v);
            }
            Op::PtrToGeneric { from, dst, p } => {
                let p = self.get(base, p)?;
                let v = match from {
                    AddrSpace::Shared => SHARED_WINDOW_BASE + (p & 0xffff_ffff),
                    _ => p,
                };
                self.set(base, dst, v);
            }
            Op::Special { reg, dst } => {
                let v = self.special(t, reg);
                self.set(base, dst, v);
            }
            Op::Load { ty, dst, addr } => {
                let v = read_le(self.at(t, base, addr, ty.bytes())?);
                self.set(base, dst, v);
            }
            Op::Store { ty, val, addr } => {
                let v = self.get(base, val)?;
                write_le(self.at(t, base, addr, ty.bytes())?, v);
            }
            Op::Rmw {
                op,
                ty,
                dst,
                addr,
                x,
            } => {
                let x = self.get(base, x)?;
                let bytes = self.at(t, base, addr, ty.bytes())?;
                let old = read_le(bytes);
                write_le(bytes, arith::rmw(op, ty, old, x));
                self.set(base, dst, old);
                self.atomics += 1;
            }
            Op::Cas {
                ty,
                dst,
                addr,
                exp,
                rep,
            } => {
                let (e, r) = (self.get(base, exp)?, self.get(base, rep)?);
                let bytes = self.at(t, base, addr, ty.bytes())?;
                let old = read_le(bytes);
                if old == e {
                    write_le(bytes, r);
                }
                self.set(base, dst, old);
                self.atomics += 1;
            }
            Op::SurfRmw {
                op,
                ty,
                dst,
                surf,
                x,
            } => {
                let x = self.get(base, x)?;
                let old = match self.surface_elem(base, &surf, ty)? {
                    Some((i, off)) => {
                        let bytes = self.surface_bytes(i, off, ty);
                        let old = read_le(bytes);
                        write_le(bytes, arith::rmw(op, ty, old, x));
                        old
                    }
                    None => 0,
                };
                self.set(base, dst, old);
            }
            Op::SurfCas {
                ty,
                dst,
                surf,
                exp,
                rep,
            } => {
                let (e, r) = (self.get(base, exp)?, self.get(base, rep)?);
                let old = match self.surface_elem(base, &surf, ty)? {
                    Some((i, off)) => {
                        let bytes = self.surface_bytes(i, off, ty);
                        let old = read_le(bytes);
                        if old == e {
                            write_le(bytes, r);
                        }
                        old
                    }
                    None => 0,
                };
                self.set(base, dst, old);
            }
            Op::Nop => {}
            Op::Barrier => return Ok(Event::Barrier(pc as u32)),
            Op::Jump(tg) => self.branch(t, base, tg)?,
            Op::Brif { c, t: then_t, e } => {
                let tg = if self.get(base, c)? & 1 != 0 {
                    then_t
                } else {
                    e
                };
                self.branch(t, base, tg)?;
            }
            Op::Return { args } => {
                if self.ret.is_none() {
                    let mut vals = Vec::with_capacity(args.len as usize);
                    for i in args.range() {
                        vals.push(self.get(base, self.prog.pool[i])?);
                    }
                    self.ret = Some(vals);
                }
                return Ok(Event::Exit);
            }
            Op::FallOff => {
                return Err(Fault::Malformed(
                    "the block ends here without a terminator".to_string(),
                ));
            }
        }
        Ok(Event::Next)
    }
}
