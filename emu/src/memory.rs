//! The memory a launch sees.
//!
//! * Global buffer `i` at `0x1_0000_0000 * (i + 1)` (the reference interpreter's map, so a
//!   pointer stored to memory has the interpreter's value); any other global address faults.
//! * Shared memory per block: `[0, size)`. On sm_90 the first 0x400 bytes are reserved, static
//!   shared data follows, then the launch's dynamic shared memory; the code forms addresses from
//!   `SR_CgaCtaId << 24` (0 here) plus 0x400. On sm_50 static shared data starts at 0.
//! * Generic addresses: the shared window (sm_90: high word [`SM90_SWINHI`], sm_50: the 16 MiB
//!   at [`SM50_SHARED_WINDOW`]) maps to the accessing thread's block's shared memory; every other
//!   generic address is global.
//! * Local memory per thread: `[0, LOCAL_BYTES)`, the stack pointer starting at the top.

use crate::kernel::{Sm, LOCAL_BYTES, SM50_SHARED_WINDOW, SM90_SWINHI};

/// Global buffer `i` starts at `GLOBAL_BASE * (i + 1)`.
pub const GLOBAL_BASE: u64 = 0x1_0000_0000;

/// An address space an access resolved to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    Global,
    Shared,
    Local,
}

impl Space {
    pub fn name(self) -> &'static str {
        match self {
            Space::Global => "global",
            Space::Shared => "shared",
            Space::Local => "local",
        }
    }
}

/// Why an access failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bad {
    OutOfBounds,
    Misaligned,
}

/// All memory of a launch.
pub struct Memory {
    pub global: Vec<Vec<u8>>,
    /// One per block.
    pub shared: Vec<Vec<u8>>,
    /// One per thread (global thread index), allocated on first use.
    pub local: Vec<Option<Box<[u8]>>>,
    /// The launch's surfaces.
    pub surfaces: Vec<atomc_ir::interp::Surface>,
    /// Store buffers and L1s per SM under the random schedule ([`crate::order`]); `None`:
    /// sequentially consistent.
    pub weak: Option<crate::order::Weak>,
}

/// Where an access lands: the space and the byte offset within the backing store.
#[derive(Clone, Copy, Debug)]
pub struct Place {
    pub space: Space,
    /// Global: buffer index; shared: block; local: thread.
    pub owner: usize,
    pub offset: usize,
}

impl Memory {
    /// Resolves a generic (or global) address for thread `thread` of block `block`.
    pub fn generic(&self, sm: Sm, addr: u64, block: usize) -> Space {
        let _ = block;
        match sm {
            Sm::Sm90 if (addr >> 32) as u32 == SM90_SWINHI => Space::Shared,
            Sm::Sm50 if addr >> 24 == (SM50_SHARED_WINDOW >> 24) as u64 => Space::Shared,
            _ => Space::Global,
        }
    }

    /// The shared offset of a generic address in the shared window.
    pub fn shared_offset(sm: Sm, addr: u64) -> u64 {
        match sm {
            Sm::Sm90 => addr & 0xffff_ffff,
            Sm::Sm50 => addr & 0xff_ffff,
        }
    }

    /// Checks an access of `size` bytes and says where it lands.
    pub fn place(&self, space: Space, addr: u64, size: u32, block: usize, thread: usize) -> Result<Place, Bad> {
        if size > 1 && !addr.is_multiple_of(size.min(16) as u64) {
            return Err(Bad::Misaligned);
        }
        let fits = |len: usize, off: u64| off.checked_add(size as u64).is_some_and(|end| end <= len as u64);
        match space {
            Space::Global => {
                let idx = (addr / GLOBAL_BASE).checked_sub(1).ok_or(Bad::OutOfBounds)? as usize;
                let off = addr % GLOBAL_BASE;
                let buf = self.global.get(idx).ok_or(Bad::OutOfBounds)?;
                if !fits(buf.len(), off) {
                    return Err(Bad::OutOfBounds);
                }
                Ok(Place {
                    space,
                    owner: idx,
                    offset: off as usize,
                })
            }
            Space::Shared => {
                let len = self.shared.get(block).map_or(0, |s| s.len());
                if !fits(len, addr) {
                    return Err(Bad::OutOfBounds);
                }
                Ok(Place {
                    space,
                    owner: block,
                    offset: addr as usize,
                })
            }
            Space::Local => {
                if !fits(LOCAL_BYTES as usize, addr) {
                    return Err(Bad::OutOfBounds);
                }
                Ok(Place {
                    space,
                    owner: thread,
                    offset: addr as usize,
                })
            }
        }
    }

    fn bytes_mut(&mut self, p: Place) -> &mut [u8] {
        match p.space {
            Space::Global => &mut self.global[p.owner],
            Space::Shared => &mut self.shared[p.owner],
            Space::Local => {
                if p.owner >= self.local.len() {
                    self.local.resize(p.owner + 1, None);
                }
                self.local[p.owner].get_or_insert_with(|| vec![0u8; LOCAL_BYTES as usize].into_boxed_slice())
            }
        }
    }

    /// A load's read: through the SM's buffer and (unless `bypass`) its L1 for global places.
    pub fn load(&mut self, p: Place, size: u32, block: usize, bypass: bool) -> u128 {
        match self.weak.as_mut() {
            Some(w) if p.space == Space::Global => w.load(&self.global, block, p.owner, p.offset, size, !bypass),
            _ => self.read(p, size),
        }
    }

    /// One store instruction's writes: global ones into the SM's buffer, the rest at once.
    pub fn store(&mut self, block: usize, writes: &[(Place, u32, u128)]) {
        let mut buffered = Vec::new();
        for &(p, size, v) in writes {
            if self.weak.is_some() && p.space == Space::Global {
                buffered.push(crate::order::Write { owner: p.owner, offset: p.offset, size, v });
            } else {
                self.write(p, size, v);
            }
        }
        if let Some(w) = self.weak.as_mut() {
            w.store(&mut self.global, block, buffered);
        }
    }

    /// Before an atomic's read-modify-write at L2 ([`crate::order::Weak::atomic`]).
    pub fn at_l2(&mut self, p: Place, size: u32, block: usize) {
        if let Some(w) = self.weak.as_mut().filter(|_| p.space == Space::Global) {
            w.atomic(&mut self.global, block, p.owner, p.offset, size);
        }
    }

    /// Reads `size` (≤ 16) bytes at a checked place, little-endian.
    pub fn read(&mut self, p: Place, size: u32) -> u128 {
        let b = self.bytes_mut(p);
        let mut v = [0u8; 16];
        v[..size as usize].copy_from_slice(&b[p.offset..p.offset + size as usize]);
        u128::from_le_bytes(v)
    }

    /// Writes the low `size` (≤ 16) bytes of `v` at a checked place.
    pub fn write(&mut self, p: Place, size: u32, v: u128) {
        let b = self.bytes_mut(p);
        b[p.offset..p.offset + size as usize].copy_from_slice(&v.to_le_bytes()[..size as usize]);
    }
}
