//! From a compiled kernel to the container's description of it: the
//! parameter layout the instruction selector assumed, the EXIT offsets the
//! emitter recorded, the barrier and warp-wide instructions in the code.

use crate::cubin::{CubinError, CubinKernel, KernelParam};
use crate::sass::Sm;
use crate::codegen::SassKernel;
use crate::sass::Arch;
use crate::sass::facts::{Listed, MemoryReader};
use atomc_ir::Function;

/// The parameter layout of `func` in constant bank 0, relative to the
/// parameter base: each entry-block parameter in order, in a slot of at least
/// 4 bytes aligned to its size. This is the rule the SASS instruction selector
/// uses when it loads the parameters (`LDC` / `LDC.64` / `LDC.U16` from
/// `c[0x0][base+off]`). The declared size is the parameter's own (2 for an
/// `i16`, as ptxas declares a `.u16`), so a launch writes only those bytes.
pub fn param_layout(func: &Function) -> Vec<KernelParam> {
    let mut offset = 0;
    func.params()
        .into_iter()
        .map(|ty| {
            let slot = ty.bytes().max(4);
            offset = u32::next_multiple_of(offset, slot);
            let p = KernelParam { offset, size: ty.bytes() };
            offset += slot;
            p
        })
        .collect()
}

/// The byte offset of instruction `i`: sm_50 packs three instructions
/// after each 8-byte control word in a 32-byte bundle.
pub fn instr_offset(arch: Sm, i: usize) -> u32 {
    match arch {
        Sm::Sm50 => ((i / 3) * 32 + 8 + (i % 3) * 8) as u32,
        Sm::Sm90 => (i * 16) as u32,
    }
}

/// Describes a compiled kernel for [`super::write_cubin`].
///
/// `regs_used` is the allocator's register count (R0..R(n-1)),
/// `local_frame_bytes` the bytes of its spill slots, `max_registers` the cap it was compiled
/// under.
pub fn describe(
    func: &Function,
    kernel: &SassKernel,
    arch: &Arch,
    regs_used: u32,
    local_frame_bytes: u32,
    max_registers: Option<u32>,
) -> Result<CubinKernel, CubinError> {
    let carch = arch.sm;
    let code = kernel
        .bytes(arch)
        .map_err(|e| CubinError::Elf(format!("encoding the code: {e}")))?;
    let mut num_barriers = 0;
    let mut uses_shared = false;
    let mut warp_wide_offsets = Vec::new();
    for (i, ins) in kernel.instrs.iter().enumerate() {
        let facts = arch.forms[ins.form as usize].facts;
        if facts.listed == Listed::Barrier {
            // atomc only synchronizes on barrier 0.
            num_barriers = 1;
        }
        // sm_90: ptxas sizes `.nv.shared.<k>` 0x400 (the reserved window) for every kernel that
        // touches shared memory, even with dynamic shared memory only; atomc's code addresses
        // user shared memory past that window. sm_50 has no window, and ptxas 11.8 writes the
        // section only for declared shared variables.
        uses_shared |= carch == Sm::Sm90 && facts.memory_reader == MemoryReader::Shared;
        // ptxas 11.8 lists REDUX under COOP_GROUP_INSTR_OFFSETS instead; atomc emits none.
        if facts.listed == Listed::WarpWide {
            warp_wide_offsets.push(instr_offset(carch, i));
        }
    }
    Ok(CubinKernel {
        arch: carch,
        name: func.name.clone(),
        code,
        regs_used,
        params: param_layout(func),
        exit_offsets: kernel.exit_offsets.clone(),
        warp_wide_offsets,
        // The declared shared variables (the launch adds its dynamic bytes after them).
        shared_bytes: func.shared_layout().static_bytes,
        uses_shared,
        local_frame_bytes,
        max_threads: None,
        max_registers,
        num_barriers,
        extra_records: Vec::new(),
        // The selector reads bound slot N's header word here (`surface_slot_words`); the PTX
        // backend names the same surface reference `atomc_surface_N`.
        surface_refs: atomc_lower::sass::isel::surface_slot_words(func, carch.param_base())
            .into_iter()
            .map(|(n, off)| (format!("atomc_surface_{n}"), off))
            .collect(),
    })
}
