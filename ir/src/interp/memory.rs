//! The memory a launch sees: global buffers, surfaces, per-block shared
//! memory, and the address map that ties pointers to them.
//!
//! Address map (all documented constants are part of the interpreter's
//! contract, so tests and front ends may rely on them):
//!
//! * Global buffer `i` (in the order added) lives at
//!   `GLOBAL_BASE * (i + 1)`, i.e. buffer 0 at `0x1_0000_0000`, buffer 1 at
//!   `0x2_0000_0000`; each buffer owns a 4 GiB window, so every base is
//!   aligned for every access size and buffers never overlap. An address
//!   whose window has no buffer (null, for one) is an *unknown buffer*.
//! * Shared pointers are 32-bit byte offsets into the current block's
//!   shared memory (fresh and zeroed per block, of the size the launch
//!   declares).
//! * Generic addresses: `[SHARED_WINDOW_BASE, SHARED_WINDOW_BASE + 2^32)`
//!   is the shared window (offset = address − base, in the accessing
//!   thread's block), like NVIDIA's; every other generic address is a
//!   global address. `ptr_to_generic` of a global pointer is the identity;
//!   of a shared pointer it is `SHARED_WINDOW_BASE + offset`.
//! * A bindless surface handle is `SURFACE_HANDLE_BASE + index` of the
//!   surface in the order added.

use crate::{AddrSpace, Type};

/// Global buffer `i` starts at `GLOBAL_BASE * (i + 1)`.
pub const GLOBAL_BASE: u64 = 0x1_0000_0000;
/// Start of the shared window in the generic address space.
pub const SHARED_WINDOW_BASE: u64 = 0xffff_0000_0000_0000;
/// Handle of surface 0; surface `i` has handle `SURFACE_HANDLE_BASE + i`.
pub const SURFACE_HANDLE_BASE: u64 = 0x5355_5246_0000_0000;
/// The largest global buffer (each has a 4 GiB window).
pub const MAX_BUFFER_BYTES: usize = 1 << 32;

/// Names a global buffer of a [`Memory`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BufferId(pub usize);

/// Names a surface of a [`Memory`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SurfaceId(pub usize);

/// A surface: a 1-, 2- or 3-D array of equal-sized elements.
///
/// The coordinates of a surface atomic map to `extent[0]`, `extent[1]`,
/// `extent[2]` in order (so for `1d_array` the layer is the second extent,
/// for `2d_array` the third); unused extents are 1. Element `(x, y, z)` is
/// at byte `((z * extent[1] + y) * extent[0] + x) * elem_bytes` of `data`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Surface {
    /// Width, height, depth (or layers), each at least 1.
    pub extent: [u32; 3],
    /// Size of one element in bytes (must equal the atomic's type size).
    pub elem_bytes: u32,
    /// The elements, little-endian, `extent` product × `elem_bytes` bytes.
    pub data: Vec<u8>,
}

impl Surface {
    /// A zeroed surface; `None` when it would not fit in memory.
    pub fn zeroed(extent: [u32; 3], elem_bytes: u32) -> Option<Surface> {
        let n = extent
            .iter()
            .try_fold(elem_bytes as usize, |acc, &e| acc.checked_mul(e as usize))
            .filter(|&n| n <= MAX_BUFFER_BYTES)?;
        Some(Surface {
            extent,
            elem_bytes,
            data: vec![0; n],
        })
    }
}

/// Global memory and surfaces, owned by the caller across launches.
#[derive(Clone, Debug, Default)]
pub struct Memory {
    buffers: Vec<Vec<u8>>,
    surfaces: Vec<Surface>,
    slots: Vec<Option<usize>>,
}

impl Memory {
    /// No buffers, no surfaces.
    pub fn new() -> Memory {
        Memory::default()
    }

    /// Adds a global buffer with the given contents; its address is
    /// [`Memory::buffer_addr`]. Contents past [`MAX_BUFFER_BYTES`] are cut off.
    pub fn add_buffer(&mut self, mut bytes: Vec<u8>) -> BufferId {
        bytes.truncate(MAX_BUFFER_BYTES);
        self.buffers.push(bytes);
        BufferId(self.buffers.len() - 1)
    }

    /// The global address of byte 0 of a buffer.
    pub fn buffer_addr(&self, id: BufferId) -> u64 {
        GLOBAL_BASE * (id.0 as u64 + 1)
    }

    /// The contents of a buffer (empty for an unknown id).
    pub fn buffer(&self, id: BufferId) -> &[u8] {
        self.buffers.get(id.0).map(|b| b.as_slice()).unwrap_or(&[])
    }

    /// The contents of a buffer, writable (`None` for an unknown id).
    pub fn buffer_mut(&mut self, id: BufferId) -> Option<&mut Vec<u8>> {
        self.buffers.get_mut(id.0)
    }

    /// Adds a surface; returns its id (its handle is [`Memory::surface_handle`]).
    pub fn add_surface(&mut self, surface: Surface) -> SurfaceId {
        self.surfaces.push(surface);
        SurfaceId(self.surfaces.len() - 1)
    }

    /// Binds a surface at a slot of the binding table (`slot N` in the IR).
    pub fn bind_slot(&mut self, slot: u16, id: SurfaceId) {
        let slot = slot as usize;
        if self.slots.len() <= slot {
            self.slots.resize(slot + 1, None);
        }
        self.slots[slot] = Some(id.0);
    }

    /// The bindless handle of a surface.
    pub fn surface_handle(&self, id: SurfaceId) -> u64 {
        SURFACE_HANDLE_BASE + id.0 as u64
    }

    /// A surface (`None` for an unknown id).
    pub fn surface(&self, id: SurfaceId) -> Option<&Surface> {
        self.surfaces.get(id.0)
    }

    pub(crate) fn slot(&self, slot: u16) -> Option<usize> {
        self.slots.get(slot as usize).copied().flatten()
    }

    pub(crate) fn handle(&self, handle: u64) -> Option<usize> {
        let i = handle.checked_sub(SURFACE_HANDLE_BASE)?;
        (i < self.surfaces.len() as u64).then_some(i as usize)
    }

    pub(crate) fn surface_mut(&mut self, i: usize) -> &mut Surface {
        &mut self.surfaces[i]
    }
}

/// Why an access failed (the caller adds the instruction and thread).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum MemFault {
    Misaligned {
        space: AddrSpace,
        addr: u64,
    },
    OutOfBounds {
        space: AddrSpace,
        addr: u64,
        detail: String,
    },
    Unknown {
        space: AddrSpace,
        addr: u64,
    },
}

/// The effective address of `ptr + offset` in a space: 32-bit wrapping for
/// shared pointers, 64-bit for the others.
pub(crate) fn effective(space: AddrSpace, ptr: u64, offset: i32) -> u64 {
    match space {
        AddrSpace::Shared => (ptr as u32).wrapping_add(offset as u32) as u64,
        _ => ptr.wrapping_add(offset as i64 as u64),
    }
}

/// The bytes of a `size`-byte access at `addr` of `space`, in `mem` or in the
/// given block's `shared` memory.
pub(crate) fn locate<'a>(
    mem: &'a mut Memory,
    shared: &'a mut [u8],
    space: AddrSpace,
    addr: u64,
    size: u32,
) -> Result<&'a mut [u8], MemFault> {
    if !addr.is_multiple_of(size as u64) {
        return Err(MemFault::Misaligned { space, addr });
    }
    let size = size as usize;
    let (in_shared, off) = match space {
        AddrSpace::Shared => (true, addr),
        AddrSpace::Generic if addr.wrapping_sub(SHARED_WINDOW_BASE) < (1 << 32) => {
            (true, addr - SHARED_WINDOW_BASE)
        }
        _ => (false, addr),
    };
    if in_shared {
        let off = off as usize;
        let len = shared.len();
        return shared
            .get_mut(off..off + size)
            .ok_or_else(|| MemFault::OutOfBounds {
                space,
                addr,
                detail: format!(
                    "shared offset {off:#x}, the block has {len} bytes of shared memory"
                ),
            });
    }
    let window = addr >> 32;
    let buf = window
        .checked_sub(1)
        .and_then(|i| mem.buffers.get_mut(i as usize))
        .ok_or(MemFault::Unknown { space, addr })?;
    let off = (addr & 0xffff_ffff) as usize;
    let len = buf.len();
    buf.get_mut(off..off + size)
        .ok_or_else(|| MemFault::OutOfBounds {
            space,
            addr,
            detail: format!("byte {off} of buffer {} ({len} bytes)", window - 1),
        })
}

/// Reads a little-endian value of up to 8 bytes.
pub(crate) fn read_le(bytes: &[u8]) -> u64 {
    bytes.iter().rev().fold(0, |acc, &b| (acc << 8) | b as u64)
}

/// Writes the low `bytes.len()` bytes of `v`, little-endian.
pub(crate) fn write_le(bytes: &mut [u8], v: u64) {
    for (i, b) in bytes.iter_mut().enumerate() {
        *b = (v >> (8 * i)) as u8;
    }
}

/// The memory size of a value type (`pred` has none).
pub(crate) fn mem_size(ty: Type) -> Option<u32> {
    ty.is_memory_type().then(|| ty.bytes())
}
