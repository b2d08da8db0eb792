//! Typed surfaces in the simulator, laid out as the IR interpreter's
//! (`((r * h + v) * w + u) * texel bytes`): 4-byte texels (R32) for
//! `typed_atomic`, whose access outside the extent is dropped and returns 0
//! (TYPED_ATOMIC.md "Out-of-bound Access"); 4- or 8-byte texels (R32, R32G32:
//! R the low dword) for `gather4_typed`/`scatter4_typed`, one GRF of the data
//! per enabled channel, a read outside the extent returning 0 (R, G, B) and a
//! write there dropped (GATHER4_TYPED.md, SCATTER4_TYPED.md);
//! `resinfo` returns the extent, channel c being extent[c] (INFO.md: R width,
//! G height or 1D-array layers, B depth or 2D-array layers; the IR's extents
//! follow its coordinate order, which is the same).
//!
//! A message on `%bss` reaches the bindless surface whose surface-state offset the last
//! `movs (M1_NM, 1) %bss(0) H` wrote ([`Sim::bindless`]); one on a user surface, the kernel's
//! surface argument of that index ([`Sim::surfaces`]).

use super::*;

/// A surface as the simulator sees it.
pub struct SimSurface {
    /// Width, height, depth (or layers).
    pub extent: [u32; 3],
    /// Bytes per texel: 4 (one 32-bit channel) or 8 (two).
    pub texel_bytes: u32,
    /// The texels, little-endian.
    pub data: Vec<u8>,
}

impl SimSurface {
    /// The byte offset of the texel at `c`, or `None` outside the extent.
    fn texel(&self, c: [u32; 3]) -> Option<usize> {
        let e = self.extent;
        if c.iter().zip(e).any(|(&x, n)| x >= n) {
            return None;
        }
        Some((((c[2] * e[1] + c[1]) * e[0] + c[0]) * self.texel_bytes) as usize)
    }
}

impl Sim<'_> {
    /// `movs`: remembers the surface-state offset for `%bss` (lane 0 of the source).
    pub(super) fn movs(&mut self, inst: &Inst) -> Result<(), String> {
        let [Operand::State { surface: Surf::Bss, offset: 0 }, src] = inst.operands[..] else {
            return Err(format!("movs {:?} not simulated", inst.operands));
        };
        self.bss = Some(self.src(&src, 0, 0).i() as u32);
        Ok(())
    }

    /// The surface a message names.
    fn surface(&mut self, t: Surf) -> Result<&mut SimSurface, String> {
        match t {
            Surf::User(t) => self.surfaces.get_mut(t.0 as usize).ok_or_else(|| "unbound surface".into()),
            Surf::Bss => {
                let h = self.bss.ok_or("a message on %bss before any movs")?;
                let s = self.bindless.iter_mut().find(|(k, _)| *k == h);
                s.map(|(_, s)| s).ok_or_else(|| format!("no bindless surface at offset {h:#x}"))
            }
        }
    }

    pub(super) fn typed_atomic(&mut self, inst: &Inst, l: u32) -> Result<(), String> {
        let o = &inst.operands;
        let Some(&Operand::Surface(t)) = o.first() else { return Err("no surface".into()) };
        let Ext::Atomic(op, AtomicWidth::W32) = inst.ext else { return Err(format!("{:?} not simulated", inst.ext)) };
        let c = [1, 2, 3].map(|i| self.raw_read(&o[i], l, 4) as u32);
        let (s0, s1) = (self.raw_read(&o[5], l, 4), self.raw_read(&o[6], l, 4));
        let surf = self.surface(t)?;
        if surf.texel_bytes != 4 {
            return Err(format!("typed_atomic on {}-byte texels", surf.texel_bytes));
        }
        let Some(at) = surf.texel(c) else {
            self.raw_write(&o[7], l, 4, 0);
            return Ok(());
        };
        let old = u32::from_le_bytes(surf.data[at..at + 4].try_into().unwrap());
        let fl = f32::from_bits;
        let new = match op {
            AtomicOp::Add => old.wrapping_add(s0 as u32),
            AtomicOp::Sub => old.wrapping_sub(s0 as u32),
            AtomicOp::Inc => old.wrapping_add(1),
            AtomicOp::Dec => old.wrapping_sub(1),
            AtomicOp::Min => old.min(s0 as u32),
            AtomicOp::Max => old.max(s0 as u32),
            AtomicOp::IMin => (old as i32).min(s0 as i32) as u32,
            AtomicOp::IMax => (old as i32).max(s0 as i32) as u32,
            AtomicOp::Xchg => s0 as u32,
            AtomicOp::CmpXchg if old == s1 as u32 => s0 as u32,
            AtomicOp::CmpXchg => old,
            AtomicOp::And => old & s0 as u32,
            AtomicOp::Or => old | s0 as u32,
            AtomicOp::Xor => old ^ s0 as u32,
            AtomicOp::FMin => fl(old).min(fl(s0 as u32)).to_bits(),
            AtomicOp::FMax => fl(old).max(fl(s0 as u32)).to_bits(),
            other => return Err(format!("typed {other:?} not simulated")),
        };
        surf.data[at..at + 4].copy_from_slice(&new.to_le_bytes());
        self.raw_write(&o[7], l, 4, old as u64);
        Ok(())
    }

    /// `resinfo` at lod 0 for lane `l`: each enabled channel's `exec size` lanes one after
    /// the other in the destination (GenX_IR's response length: one SIMD8 GRF per channel).
    pub(super) fn resinfo(&mut self, inst: &Inst, l: u32) -> Result<(), String> {
        let o = &inst.operands;
        let Some(&Operand::Surface(t)) = o.first() else { return Err("no surface".into()) };
        let Ext::Channels(ch) = inst.ext else { return Err(format!("{:?} not simulated", inst.ext)) };
        if self.raw_read(&o[1], l, 4) != 0 {
            return Err("resinfo at a lod other than 0 not simulated".into());
        }
        let e = self.surface(t)?.extent;
        let lanes = inst.exec.size.lanes();
        for (k, c) in ch.iter().enumerate() {
            let v = if c < 3 { e[c] } else { 1 };
            self.raw_write(&o[2], l + k as u32 * lanes, 4, v as u64);
        }
        Ok(())
    }

    /// `gather4_typed` (`write` false) or `scatter4_typed` for lane `l`: channel c of the texel
    /// is its dword c; the k-th enabled channel's lanes are the k-th GRF of the data.
    pub(super) fn typed_read_write(&mut self, inst: &Inst, l: u32, write: bool) -> Result<(), String> {
        let o = &inst.operands;
        let Some(&Operand::Surface(t)) = o.first() else { return Err("no surface".into()) };
        let Ext::Channels(ch) = inst.ext else { return Err(format!("{:?} not simulated", inst.ext)) };
        let c = [1, 2, 3].map(|i| self.raw_read(&o[i], l, 4) as u32);
        let grf = self.grf;
        let surf = self.surface(t)?;
        let (at, channels) = (surf.texel(c), surf.texel_bytes / 4);
        for (k, c) in ch.iter().enumerate() {
            if c as u32 >= channels {
                return Err(format!("channel {c} of a {}-byte texel", 4 * channels));
            }
            // Lane l of the k-th GRF of the data, as a 4-byte element index.
            let elem = k as u32 * grf / 4 + l;
            let byte = at.map(|a| a + 4 * c);
            if write {
                let v = self.raw_read(&o[5], elem, 4) as u32;
                if let Some(b) = byte {
                    let surf = self.surface(t)?;
                    surf.data[b..b + 4].copy_from_slice(&v.to_le_bytes());
                }
            } else {
                let surf = self.surface(t)?;
                let v = byte.map_or(0, |b| u32::from_le_bytes(surf.data[b..b + 4].try_into().unwrap()));
                self.raw_write(&o[5], elem, 4, v as u64);
            }
        }
        Ok(())
    }
}
