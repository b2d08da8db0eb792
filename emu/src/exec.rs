//! Executing one instruction for one group of lanes: operand access shared by both targets,
//! and the dispatch to [`crate::sm90`], [`crate::sm50`] and the common memory and control
//! instructions.

use crate::kernel::{Kernel, Sm};
use crate::memory::{Bad, Memory, Place, Space};
use crate::simt::Flow;
use crate::warp::Warp;
use crate::{EmuError, Stats};
use atomc_emit::sass::form::{ExtSpec, OpSpec};
use atomc_emit::sass::{Form, Instr, Operand, Pred};
use smallvec::SmallVec;

/// Everything one instruction's semantics may touch.
pub struct Ctx<'a> {
    pub k: &'a Kernel,
    pub i: usize,
    pub ins: &'a Instr,
    pub form: &'a Form,
    /// Modifier spellings split at dots (`ATOMG.E.ADD.STRONG.GPU` → `E ADD STRONG GPU`).
    pub mods: SmallVec<[&'static str; 8]>,
    pub w: &'a mut Warp,
    pub mem: &'a mut Memory,
    pub bank0: &'a [u8],
    /// Lanes that issued the instruction.
    pub group: u32,
    /// Lanes of the group whose guard holds.
    pub exec: u32,
    /// What the instruction does to the ordering model.
    pub order: crate::order::OrderInfo,
    pub stats: &'a mut Stats,
}

/// Iterates the lanes of a mask.
pub fn lanes(mask: u32) -> impl Iterator<Item = usize> {
    (0..32).filter(move |l| mask >> l & 1 != 0)
}

impl<'a> Ctx<'a> {
    pub fn has(&self, m: &str) -> bool {
        self.mods.contains(&m)
    }

    pub fn sm(&self) -> Sm {
        self.k.sm
    }

    pub fn text(&self) -> String {
        self.k.text(self.i)
    }

    pub fn at(&self) -> u64 {
        self.k.addr(self.i)
    }

    pub fn unsupported(&self, why: impl Into<String>) -> EmuError {
        EmuError::Unsupported { at: self.at(), text: self.text(), why: why.into() }
    }

    pub fn op(&self, k: usize) -> Result<Operand, EmuError> {
        self.ins.ops.get(k).copied().ok_or_else(|| self.unsupported(format!("no operand {k}")))
    }

    /// Whether operand slot `k` is an sm_50 suffixed register whose suffix (`.CC`, `.H1`) is
    /// set, or a constant with `.H1`.
    pub fn suffix(&self, k: usize) -> bool {
        matches!(
            (self.form.ops.get(k), self.ins.ops.get(k)),
            (Some(OpSpec::Ext(ExtSpec::Suffixed { .. })), Some(Operand::Reg(r))) if r.not
        ) || matches!(self.ins.ops.get(k), Some(Operand::CBank { h1: true, .. }))
    }

    fn is_suffixed(&self, k: usize) -> bool {
        matches!(self.form.ops.get(k), Some(OpSpec::Ext(ExtSpec::Suffixed { .. })))
    }

    /// Raw 32 bits of a source operand for `lane` (register modifiers not applied).
    pub fn raw(&self, k: usize, lane: usize) -> Result<u32, EmuError> {
        Ok(match self.op(k)? {
            Operand::Reg(r) => self.w.reg(r.num, lane),
            Operand::UReg(r) => self.w.ureg(r.num),
            Operand::Imm(v) => v as u32,
            Operand::CBank { bank, base, offset, .. } => {
                let off = offset.wrapping_add(self.w.reg(base, lane));
                self.cload(bank, off, 4)? as u32
            }
            Operand::Pred(p) => self.pred_of(p, lane) as u32,
            Operand::UPred(p) => (self.w.upred(p.num) != p.not) as u32,
            Operand::SReg(_) | Operand::Mem(_) | Operand::Target(_) | Operand::BReg(_) => {
                return Err(self.unsupported(format!("operand {k} is not a value")))
            }
        })
    }

    /// A 64-bit source: a register pair, a uniform pair, a 64-bit constant, or an immediate
    /// (sign-extended).
    pub fn raw64(&self, k: usize, lane: usize) -> Result<u64, EmuError> {
        Ok(match self.op(k)? {
            Operand::Reg(r) if r.num == 255 => 0,
            Operand::Reg(r) => self.w.reg(r.num, lane) as u64 | (self.w.reg(r.num.wrapping_add(1), lane) as u64) << 32,
            Operand::UReg(r) if r.num >= 63 => 0,
            Operand::UReg(r) => self.w.ureg(r.num) as u64 | (self.w.ureg(r.num + 1) as u64) << 32,
            Operand::Imm(v) => v as u64,
            Operand::CBank { bank, base, offset, .. } => {
                let off = offset.wrapping_add(self.w.reg(base, lane));
                self.cload(bank, off, 8)?
            }
            _ => return Err(self.unsupported(format!("operand {k} is not a 64-bit value"))),
        })
    }

    /// The register modifiers of operand `k`: (neg, abs, not). An sm_50 suffix flag is not a
    /// modifier.
    pub fn rmods(&self, k: usize) -> (bool, bool, bool) {
        match self.ins.ops.get(k) {
            Some(Operand::Reg(r) | Operand::UReg(r)) => (r.neg, r.abs, r.not && !self.is_suffixed(k)),
            Some(Operand::CBank { neg, abs, .. }) => (*neg, *abs, false),
            _ => (false, false, false),
        }
    }

    /// An integer source with `-` (two's complement) and `~` applied.
    pub fn int(&self, k: usize, lane: usize) -> Result<u32, EmuError> {
        let v = self.raw(k, lane)?;
        let (neg, _, not) = self.rmods(k);
        Ok(if not {
            !v
        } else if neg {
            v.wrapping_neg()
        } else {
            v
        })
    }

    /// An f32 source with `|x|` and `-` applied.
    pub fn f32(&self, k: usize, lane: usize) -> Result<f32, EmuError> {
        let mut v = self.raw(k, lane)?;
        let (neg, abs, _) = self.rmods(k);
        if abs {
            v &= 0x7fff_ffff;
        }
        if neg {
            v ^= 0x8000_0000;
        }
        Ok(f32::from_bits(v))
    }

    /// An f64 source (an immediate holds the high word) with `|x|` and `-` applied.
    pub fn f64(&self, k: usize, lane: usize) -> Result<f64, EmuError> {
        let mut v = match self.op(k)? {
            Operand::Imm(x) => (x as u64) << 32,
            _ => self.raw64(k, lane)?,
        };
        let (neg, abs, _) = self.rmods(k);
        if abs {
            v &= !(1 << 63);
        }
        if neg {
            v ^= 1 << 63;
        }
        Ok(f64::from_bits(v))
    }

    pub fn pred_of(&self, p: Pred, lane: usize) -> bool {
        self.w.pred(p.num, lane) != p.not
    }

    /// A predicate source (general or uniform), negation applied.
    pub fn pred(&self, k: usize, lane: usize) -> Result<bool, EmuError> {
        match self.op(k)? {
            Operand::Pred(p) => Ok(self.pred_of(p, lane)),
            Operand::UPred(p) => Ok(self.w.upred(p.num) != p.not),
            _ => Err(self.unsupported(format!("operand {k} is not a predicate"))),
        }
    }

    /// Writes a predicate result (PT discards).
    pub fn set_pred(&mut self, k: usize, lane: usize, v: bool) -> Result<(), EmuError> {
        match self.op(k)? {
            Operand::Pred(p) => self.w.set_pred(p.num, lane, v),
            Operand::UPred(p) => self.w.set_upred(p.num, v),
            _ => return Err(self.unsupported(format!("operand {k} is not a predicate result"))),
        }
        Ok(())
    }

    /// Writes a 32-bit result to register operand `k` (general or uniform).
    pub fn set(&mut self, k: usize, lane: usize, v: u32) -> Result<(), EmuError> {
        match self.op(k)? {
            Operand::Reg(r) => self.w.set_reg(r.num, lane, v),
            Operand::UReg(r) => self.w.set_ureg(r.num, v),
            _ => return Err(self.unsupported(format!("operand {k} is not a register result"))),
        }
        Ok(())
    }

    /// Writes `n` consecutive 32-bit words starting at register operand `k`.
    pub fn set_wide(&mut self, k: usize, lane: usize, v: u128, n: u8) -> Result<(), EmuError> {
        match self.op(k)? {
            Operand::Reg(r) if r.num == 255 => {}
            Operand::Reg(r) => {
                for j in 0..n {
                    self.w.set_reg(r.num.saturating_add(j).min(254), lane, (v >> (32 * j)) as u32);
                }
            }
            Operand::UReg(r) if r.num >= 63 => {}
            Operand::UReg(r) => {
                for j in 0..n {
                    self.w.set_ureg((r.num + j).min(62), (v >> (32 * j)) as u32);
                }
            }
            _ => return Err(self.unsupported(format!("operand {k} is not a register result"))),
        }
        Ok(())
    }

    /// Reads `n` consecutive words starting at register operand `k` (RZ reads zeros).
    pub fn wide(&self, k: usize, lane: usize, n: u8) -> Result<u128, EmuError> {
        let mut v = 0u128;
        match self.op(k)? {
            Operand::Reg(r) if r.num == 255 => {}
            Operand::Reg(r) => {
                for j in 0..n {
                    v |= (self.w.reg(r.num.saturating_add(j).min(254), lane) as u128) << (32 * j);
                }
            }
            Operand::UReg(r) if r.num >= 63 => {}
            Operand::UReg(r) => {
                for j in 0..n {
                    v |= (self.w.ureg((r.num + j).min(62)) as u128) << (32 * j);
                }
            }
            Operand::Imm(x) => v = x as u32 as u128,
            _ => return Err(self.unsupported(format!("operand {k} is not a register"))),
        }
        Ok(v)
    }

    /// Loads `size` bytes from constant bank `bank` at `off` (zeros past the bank's end).
    pub fn cload(&self, bank: u8, off: u32, size: u32) -> Result<u64, EmuError> {
        let b: &[u8] = if bank == 0 { self.bank0 } else { self.k.banks.get(&bank).map_or(&[], |v| v.as_slice()) };
        if off >= 0x10000 {
            return Err(EmuError::Fault {
                at: self.at(),
                text: self.text(),
                space: "constant",
                addr: off as u64,
                size,
                thread: String::new(),
            });
        }
        let mut v = [0u8; 8];
        for (j, x) in v.iter_mut().enumerate().take(size as usize) {
            *x = b.get(off as usize + j).copied().unwrap_or(0);
        }
        Ok(u64::from_le_bytes(v))
    }

    /// Global thread index of a lane (local memory owner).
    pub fn thread(&self, lane: usize) -> usize {
        self.w.first_thread + lane
    }

    /// Checks an access and says where it lands, or the fault naming this instruction.
    pub fn place(&self, space: Space, addr: u64, size: u32, lane: usize) -> Result<Place, EmuError> {
        let (space, addr) = match space {
            Space::Global => {
                let s = self.mem.generic(self.k.sm, addr, self.w.block);
                if s == Space::Shared {
                    (s, Memory::shared_offset(self.k.sm, addr))
                } else {
                    (s, addr)
                }
            }
            s => (s, addr),
        };
        self.mem.place(space, addr, size, self.w.block, self.thread(lane)).map_err(|bad| {
            let thread = self.w.thread_name(lane);
            match bad {
                Bad::OutOfBounds => {
                    EmuError::Fault { at: self.at(), text: self.text(), space: space.name(), addr, size, thread }
                }
                Bad::Misaligned => {
                    EmuError::Misaligned { at: self.at(), text: self.text(), space: space.name(), addr, size, thread }
                }
            }
        })
    }
}

/// Runs one instruction; returns how the group's lanes move on.
pub fn execute(c: &mut Ctx) -> Result<Flow, EmuError> {
    let m = c.form.mnemonic;
    if c.exec != 0 {
        if let Some(w) = c.mem.weak.as_mut() {
            if c.order.drains {
                w.drain(&mut c.mem.global, c.w.block);
            }
            if c.order.invalidates {
                w.invalidate(c.w.block);
            }
        }
    }
    if let Some(flow) = crate::control::control(c, m)? {
        return Ok(flow);
    }
    if c.exec == 0 {
        return Ok(Flow::Next);
    }
    if let Some(()) = crate::surface::surface(c, m)? {
        return Ok(Flow::Next);
    }
    if let Some(()) = crate::atomic::memory(c, m)? {
        return Ok(Flow::Next);
    }
    let done = match c.k.sm {
        Sm::Sm90 => crate::sm90::alu(c, m)?,
        Sm::Sm50 => crate::sm50::alu(c, m)?,
    };
    match done {
        Some(()) => Ok(Flow::Next),
        None => Err(c.unsupported("no semantics for this mnemonic")),
    }
}
