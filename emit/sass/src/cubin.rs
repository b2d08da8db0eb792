//! The cubin container: a CUDA ELF the driver loads with `cuModuleLoadData`.
//!
//! [`write_cubin`] lays out one kernel in the *classic* format that ptxas
//! 11.8 writes for both sm_50 and sm_90 (OSABI 0x33 "CUDA", ABI version 7),
//! which the CUDA 11.8 and 13.x tools and drivers read; ptxas 13 switched to
//! a newer layout (OSABI 0x41, ABI 8) whose OSABI value public parsers
//! disagree on, so atomc stays with the older one (reference notes, sass.md
//! §5.1).
//!
//! What the file holds, section by section (sm_90 order; sm_50 puts
//! `.nv.constant0.<k>` before `.text.<k>` and the shared section last, as
//! ptxas 11.8 does):
//!
//! | section | content |
//! | --- | --- |
//! | `.shstrtab`, `.strtab`, `.symtab` | names; section symbols, then the kernel (GLOBAL FUNC, `STO_CUDA_ENTRY`) |
//! | `.nv.info` | REGCOUNT, MAX_STACK_SIZE, MIN_STACK_SIZE, FRAME_SIZE for the kernel symbol |
//! | `.nv.info.<k>` | CUDA_API_VERSION, KPARAM_INFO per parameter, MAXREG_COUNT, EXIT_INSTR_OFFSETS, CBANK_PARAM_SIZE, PARAM_CBANK, ... |
//! | `.text.<k>` | the code; barrier count in the flags, the kernel symbol (and on sm_50 the register count) in `sh_info` |
//! | `.nv.shared.<k>` | NOBITS, only when the kernel uses shared memory (sm_90: at least the reserved 1 KiB) |
//! | `.nv.constant0.<k>` | constant bank 0: driver area, then the parameters, zero-filled |
//!
//! Program headers follow the section headers at the end of the file: PHDR,
//! and LOAD segments for the header table, the code, the shared window and
//! the constant bank, as ptxas 11.8 arranges them per architecture.
//!
//! Deliberate differences from ptxas 11.8 (checked by `tests/cubin_*.rs`
//! and `tests/cubin_*.rs`, which compare every attribute with ptxas's own
//! cubin):
//! * no `.debug_frame` / `.rela.debug_frame` (unwind data for debuggers;
//!   kernels atomc emits make no calls), no empty `.rela.text.<k>`, and
//!   sm_50's `.nv.rel.action` (a table describing relocation kinds) only
//!   with the relocations of bound surfaces (`surfref.rs`), which have no
//!   section symbol;
//! * symbols: every LOCAL symbol comes before the GLOBAL kernel symbol, as
//!   the ELF standard requires, and `.symtab`'s `sh_info` is the index of
//!   the first non-local symbol (the kernel). ptxas 11.8 for sm_90 places
//!   the `.nv.constant0` section symbol after the kernel (readelf warns);
//!   the indices differ but every reference (`sh_info`, REGCOUNT's and
//!   PARAM_CBANK's symbol fields) uses atomc's own indices consistently;
//! * no INT_WARP_WIDE_INSTR_OFFSETS unless the caller lists warp-wide
//!   instructions (ptxas writes it for the VOTE/SHFL of its own atomic
//!   aggregation, which atomc does not do);
//! * no COOP_GROUP_INSTR_OFFSETS or ATOM16_EMUL_INSTR_REG_MAP (ptxas marks
//!   the REDUX of its warp aggregation and its own 16-bit atomic emulation
//!   there), and no CRS_STACK_SIZE of 0 (ptxas writes that for sm_90
//!   kernels with loops; a zero stack is what an absent record means);
//! * `.nv.shared.<k>` is aligned to 16 (ptxas: its most-aligned variable,
//!   which atomc does not know);
//! * parameters narrower than 4 bytes occupy 4-byte slots, because that is
//!   how atomc's instruction selector loads them; PTX (and so ptxas) keeps
//!   `.u8`/`.u16` parameters 1 and 2 bytes wide. Each file is consistent
//!   with its own code, but a launcher must lay out such arguments per the
//!   file's KPARAM_INFO records;
//! * against ptxas 13 (newer layout, compared attribute by attribute only):
//!   the barrier count stays in the text flags instead of a NUM_BARRIERS
//!   record, and the 13.x-only records (LANGUAGE, SW_WAR, ...) are absent;
//! * the string tables share suffixes and are ordered as the `object`
//!   crate writes them, not ptxas's list of every possible section name.

pub mod compare;
pub mod inspect;
pub mod nvinfo;
mod records;
mod surfref;
mod write;

use crate::Sm;
use nvinfo::Record;

pub use surfref::read_surface_refs;
pub use write::{write_cubin, write_module};

/// The CUDA version atomc claims to be in `e_version` and
/// CUDA_API_VERSION: 11.8, the toolkit whose container layout it mirrors.
pub const CUDA_VERSION: u32 = 0x76;

/// Shared memory the sm_90 runtime reserves at the start of every block's
/// window: ptxas addresses user data from here and sizes `.nv.shared.<k>`
/// to include it (sass.md §3.5).
pub const SM90_SHARED_RESERVED: u32 = 0x400;

/// The largest parameter block the classic format describes (4 KiB).
pub const MAX_PARAM_BYTES: u32 = 4096;

/// What a cubin needs of its architecture (Maxwell: 64-bit instructions in 32-byte bundles;
/// Hopper: 128-bit instructions).
impl Sm {
    /// Where the parameters start in constant bank 0.
    pub fn param_base(self) -> u32 {
        match self {
            Sm::Sm50 => 0x140,
            Sm::Sm90 => 0x210,
        }
    }

    /// `e_flags`: the SM in bits 0..7 and 16..23 (real and virtual
    /// architecture), 0x100 (unified texture mode) and 0x400 (64-bit
    /// addresses): 0x320532 for sm_50, 0x5A055A for sm_90.
    pub fn e_flags(self) -> u32 {
        let sm = self.number();
        sm | 0x500 | (sm << 16)
    }

    /// `.text.<k>` alignment as ptxas writes it.
    fn text_align(self) -> u64 {
        match self {
            Sm::Sm50 => 32,
            Sm::Sm90 => 128,
        }
    }

    /// The code must be whole units of this many bytes (a bundle on sm_50,
    /// an instruction on sm_90).
    fn code_granule(self) -> usize {
        match self {
            Sm::Sm50 => 32,
            Sm::Sm90 => 16,
        }
    }

    /// Registers ptxas counts beyond the highest one the code names: sm_90
    /// reports two more than it uses (every ptxas 11.8 and 13 sm_90 cubin
    /// shows this); sm_50 none.
    pub fn reserved_regs(self) -> u32 {
        match self {
            Sm::Sm50 => 0,
            Sm::Sm90 => 2,
        }
    }

    /// The smallest REGCOUNT ptxas writes (an empty kernel): 2 on sm_50, 4 on
    /// sm_90.
    pub fn min_regcount(self) -> u32 {
        match self {
            Sm::Sm50 => 2,
            Sm::Sm90 => 4,
        }
    }

    /// The REGCOUNT attribute for code whose registers are R0..R(used-1).
    pub fn regcount(self, used: u32) -> u32 {
        (used + self.reserved_regs()).max(self.min_regcount())
    }
}

/// One kernel parameter in constant bank 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KernelParam {
    /// Byte offset from the start of the parameter block (not from the bank).
    pub offset: u32,
    /// Size in bytes (4 or 8 for atomc's types).
    pub size: u32,
}

/// Everything the container says about one kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CubinKernel {
    /// The architecture.
    pub arch: Sm,
    /// The kernel's name (its ELF symbol; `cuModuleGetFunction` looks it up).
    pub name: String,
    /// The instruction bytes, padding included.
    pub code: Vec<u8>,
    /// GPRs the code uses: R0..R(regs_used-1). REGCOUNT is derived from it
    /// with [`Sm::regcount`].
    pub regs_used: u32,
    /// The parameters in order.
    pub params: Vec<KernelParam>,
    /// Byte offsets of every `EXIT` in `code`.
    pub exit_offsets: Vec<u32>,
    /// Byte offsets of warp-wide instructions (VOTE, SHFL, ...), if any.
    pub warp_wide_offsets: Vec<u32>,
    /// Bytes of shared memory per block the code addresses (on sm_90 beyond
    /// the reserved first [`SM90_SHARED_RESERVED`] bytes); 0 for none.
    pub shared_bytes: u32,
    /// The code addresses shared memory: `.nv.shared.<k>` is written even when `shared_bytes`
    /// is 0 (the launch's dynamic shared memory only). On sm_90 it then holds the reserved
    /// window, so the driver places dynamic shared memory after it, where the code looks for it.
    pub uses_shared: bool,
    /// Bytes of per-thread local memory (spill slots).
    pub local_frame_bytes: u32,
    /// `.maxntid`, when the kernel declares one.
    pub max_threads: Option<[u32; 3]>,
    /// The register cap the kernel was compiled under (ptxas's `--maxrregcount`), written as
    /// MAXREG_COUNT: ptxas 13.5 writes 0xff without a cap and 0x20 under `--maxrregcount 32`.
    pub max_registers: Option<u32>,
    /// Named barriers the code uses (`BAR.SYNC 0` alone counts 1).
    pub num_barriers: u32,
    /// Further `.nv.info.<k>` records, written as given right after
    /// EXIT_INSTR_OFFSETS: attributes of code atomc did not produce (e.g.
    /// ptxas's CRS_STACK_SIZE for sm_50 `SSY`, or INDIRECT_BRANCH_TARGETS)
    /// that must travel with that code.
    pub extra_records: Vec<Record>,
    /// Bound surfaces the code reads a header word of: (`CUDA_SURFACE` symbol, byte offset of
    /// the word in constant bank 0, after the parameters). The file asks the driver to fill
    /// each word (`R_CUDA_SURF_HEADER_INDEX`), as ptxas does for a module `.surfref`.
    pub surface_refs: Vec<(String, u32)>,
}

impl CubinKernel {
    /// Bytes of the parameter block (what CBANK_PARAM_SIZE says).
    pub fn param_bytes(&self) -> u32 {
        self.params.iter().map(|p| p.offset + p.size).max().unwrap_or(0)
    }

    /// Bytes of `.nv.constant0.<k>`: the driver area, the parameters and the surface words.
    pub fn const0_bytes(&self) -> u32 {
        let words = self.surface_refs.iter().map(|r| r.1 + 4);
        words.fold(self.arch.param_base() + self.param_bytes(), u32::max)
    }
}

/// Why a cubin cannot be written.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
pub enum CubinError {
    /// The kernel name is empty or contains a NUL byte.
    #[error("kernel name {0:?} cannot be an ELF symbol")]
    BadName(String),
    /// The code is empty or not whole instructions/bundles.
    #[error("code of {len} bytes is not a non-empty multiple of {granule}")]
    BadCodeLength {
        /// Its length.
        len: usize,
        /// The granule it must be a multiple of.
        granule: usize,
    },
    /// An EXIT offset outside the code or not on an instruction.
    #[error("EXIT offset {offset:#x} is not an instruction of the {len:#x}-byte code")]
    BadExitOffset {
        /// The offset.
        offset: u32,
        /// The code length.
        len: usize,
    },
    /// A parameter with size 0, a misaligned offset, or past the block limit.
    #[error("parameter {index} (offset {offset:#x}, size {size}) is invalid: {reason}")]
    BadParam {
        /// Its ordinal.
        index: usize,
        /// Its offset.
        offset: u32,
        /// Its size.
        size: u32,
        /// What is wrong.
        reason: &'static str,
    },
    /// More than 16 barriers.
    #[error("{0} barriers requested; the hardware has 16")]
    TooManyBarriers(u32),
    /// The ELF writer failed.
    #[error("ELF writer: {0}")]
    Elf(String),
    /// A cubin could not be parsed.
    #[error("cannot read cubin: {0}")]
    Parse(String),
}

pub(crate) fn validate(k: &CubinKernel) -> Result<(), CubinError> {
    if k.name.is_empty() || k.name.contains('\0') {
        return Err(CubinError::BadName(k.name.clone()));
    }
    let granule = k.arch.code_granule();
    if k.code.is_empty() || !k.code.len().is_multiple_of(granule) {
        return Err(CubinError::BadCodeLength {
            len: k.code.len(),
            granule,
        });
    }
    for &offset in k.exit_offsets.iter().chain(&k.warp_wide_offsets) {
        let on_instr = match k.arch {
            // Slot 0 of each bundle is the control word.
            Sm::Sm50 => offset % 8 == 0 && offset % 32 != 0,
            Sm::Sm90 => offset % 16 == 0,
        };
        if offset as usize >= k.code.len() || !on_instr {
            return Err(CubinError::BadExitOffset {
                offset,
                len: k.code.len(),
            });
        }
    }
    for (index, p) in k.params.iter().enumerate() {
        let bad = |reason| CubinError::BadParam {
            index,
            offset: p.offset,
            size: p.size,
            reason,
        };
        if p.size == 0 {
            return Err(bad("zero size"));
        }
        let align = p.size.min(8).next_power_of_two();
        if p.offset % align != 0 {
            return Err(bad("offset not aligned to the size"));
        }
        if p.offset.checked_add(p.size).is_none_or(|end| end > MAX_PARAM_BYTES) {
            return Err(bad("past the 4 KiB parameter block"));
        }
    }
    if k.num_barriers > 16 {
        return Err(CubinError::TooManyBarriers(k.num_barriers));
    }
    Ok(())
}
