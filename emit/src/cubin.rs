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
//! | `.nv.shared.<k>` | NOBITS, only when the kernel uses shared memory |
//! | `.nv.constant0.<k>` | constant bank 0: driver area, then the parameters, zero-filled |
//!
//! Program headers follow the section headers at the end of the file: PHDR,
//! and LOAD segments for the header table, the code, the shared window and
//! the constant bank, as ptxas 11.8 arranges them per architecture.
//!
//! Deliberate differences from ptxas 11.8 (checked by `emit/tests/cubin_*.rs`
//! and `tests/cubin_*.rs`, which compare every attribute with ptxas's own
//! cubin):
//! * no `.debug_frame` / `.rela.debug_frame` (unwind data for debuggers;
//!   kernels atomc emits make no calls), no empty `.rela.text.<k>`, and no
//!   sm_50 `.nv.rel.action` (a table describing relocation kinds, needed
//!   only when relocations exist; atomc's code has none);
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
pub mod describe;
pub mod inspect;
pub mod nvinfo;

use nvinfo::{attr, Record};
use object::elf;
use object::write::elf::{FileHeader, ProgramHeader, SectionHeader, SectionIndex, Sym, Writer};
use object::Endianness;

/// The CUDA version atomc claims to be in `e_version` and
/// CUDA_API_VERSION: 11.8, the toolkit whose container layout it mirrors.
pub const CUDA_VERSION: u32 = 0x76;

/// Shared memory the sm_90 runtime reserves at the start of every block's
/// window: ptxas addresses user data from here and sizes `.nv.shared.<k>`
/// to include it (sass.md §3.5).
pub const SM90_SHARED_RESERVED: u32 = 0x400;

/// The largest parameter block the classic format describes (4 KiB).
pub const MAX_PARAM_BYTES: u32 = 4096;

/// The architectures a cubin can be written for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CubinArch {
    /// Maxwell: 64-bit instructions in 32-byte bundles.
    Sm50,
    /// Hopper: 128-bit instructions.
    Sm90,
}

impl CubinArch {
    /// The SM number (50, 90).
    pub fn number(self) -> u32 {
        match self {
            CubinArch::Sm50 => 50,
            CubinArch::Sm90 => 90,
        }
    }

    /// Where the parameters start in constant bank 0.
    pub fn param_base(self) -> u32 {
        match self {
            CubinArch::Sm50 => 0x140,
            CubinArch::Sm90 => 0x210,
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
            CubinArch::Sm50 => 32,
            CubinArch::Sm90 => 128,
        }
    }

    /// The code must be whole units of this many bytes (a bundle on sm_50,
    /// an instruction on sm_90).
    fn code_granule(self) -> usize {
        match self {
            CubinArch::Sm50 => 32,
            CubinArch::Sm90 => 16,
        }
    }

    /// Registers ptxas counts beyond the highest one the code names: sm_90
    /// reports two more than it uses (every ptxas 11.8 and 13 sm_90 cubin
    /// shows this); sm_50 none.
    pub fn reserved_regs(self) -> u32 {
        match self {
            CubinArch::Sm50 => 0,
            CubinArch::Sm90 => 2,
        }
    }

    /// The smallest REGCOUNT ptxas writes (an empty kernel): 2 on sm_50, 4 on
    /// sm_90.
    pub fn min_regcount(self) -> u32 {
        match self {
            CubinArch::Sm50 => 2,
            CubinArch::Sm90 => 4,
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
    pub arch: CubinArch,
    /// The kernel's name (its ELF symbol; `cuModuleGetFunction` looks it up).
    pub name: String,
    /// The instruction bytes, padding included.
    pub code: Vec<u8>,
    /// GPRs the code uses: R0..R(regs_used-1). REGCOUNT is derived from it
    /// with [`CubinArch::regcount`].
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
    /// Bytes of per-thread local memory (spill slots).
    pub local_frame_bytes: u32,
    /// `.maxntid`, when the kernel declares one.
    pub max_threads: Option<[u32; 3]>,
    /// Named barriers the code uses (`BAR.SYNC 0` alone counts 1).
    pub num_barriers: u32,
    /// Further `.nv.info.<k>` records, written as given right after
    /// EXIT_INSTR_OFFSETS: attributes of code atomc did not produce (e.g.
    /// ptxas's CRS_STACK_SIZE for sm_50 `SSY`, or INDIRECT_BRANCH_TARGETS)
    /// that must travel with that code.
    pub extra_records: Vec<Record>,
}

impl CubinKernel {
    /// Bytes of the parameter block (what CBANK_PARAM_SIZE says).
    pub fn param_bytes(&self) -> u32 {
        self.params.iter().map(|p| p.offset + p.size).max().unwrap_or(0)
    }
}

/// Why a cubin cannot be written.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
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

fn validate(k: &CubinKernel) -> Result<(), CubinError> {
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
            CubinArch::Sm50 => offset % 8 == 0 && offset % 32 != 0,
            CubinArch::Sm90 => offset % 16 == 0,
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

/// The `.nv.info` records (per-function attributes keyed by symbol index),
/// in ptxas 11.8's order.
fn global_info(k: &CubinKernel, func_sym: u32) -> Vec<Record> {
    let frame = k.local_frame_bytes;
    vec![
        Record::words(attr::REGCOUNT, &[func_sym, k.arch.regcount(k.regs_used)]),
        Record::words(attr::MAX_STACK_SIZE, &[func_sym, 0]),
        Record::words(attr::MIN_STACK_SIZE, &[func_sym, frame]),
        Record::words(attr::FRAME_SIZE, &[func_sym, frame]),
    ]
}

/// The `.nv.info.<k>` records in ptxas 11.8's per-architecture order.
fn kernel_info(k: &CubinKernel, const0_sym: u32) -> Vec<Record> {
    let base = k.arch.param_base();
    let pbytes = k.param_bytes();
    let cbank = || Record::words(attr::PARAM_CBANK, &[const0_sym, base | (pbytes << 16)]);
    let cbank_size = || Record::hval(attr::CBANK_PARAM_SIZE, pbytes as u16);
    // ptxas lists the parameters last to first.
    let kparams = k
        .params
        .iter()
        .enumerate()
        .rev()
        .map(|(i, p)| nvinfo::kparam_info(i as u16, p.offset as u16, p.size));
    let has_params = !k.params.is_empty();

    let mut out = vec![Record::words(attr::CUDA_API_VERSION, &[CUDA_VERSION])];
    if k.arch == CubinArch::Sm50 {
        out.push(Record::nval(attr::SW2393858_WAR));
        out.push(Record::nval(attr::SW1850030_WAR));
        if has_params {
            out.push(cbank());
            out.push(cbank_size());
        }
    }
    out.extend(kparams);
    out.push(Record::hval(attr::MAXREG_COUNT, 0xff));
    if !k.warp_wide_offsets.is_empty() {
        out.push(Record::words(attr::INT_WARP_WIDE_INSTR_OFFSETS, &k.warp_wide_offsets));
    }
    out.push(Record::words(attr::EXIT_INSTR_OFFSETS, &k.exit_offsets));
    out.extend(k.extra_records.iter().cloned());
    if let Some(t) = k.max_threads {
        out.push(Record::words(attr::MAX_THREADS, &t));
    }
    if k.arch == CubinArch::Sm90 && has_params {
        out.push(cbank_size());
        out.push(cbank());
    }
    out
}

/// Writes `k` as a loadable cubin.
pub fn write_cubin(k: &CubinKernel) -> Result<Vec<u8>, CubinError> {
    validate(k)?;
    let arch = k.arch;
    let has_shared = k.shared_bytes > 0;
    let shared_size = match arch {
        CubinArch::Sm90 if has_shared => SM90_SHARED_RESERVED + k.shared_bytes,
        _ => k.shared_bytes,
    };
    let const0 = vec![0u8; (arch.param_base() + k.param_bytes()) as usize];

    let names = SectionNames::new(&k.name);
    let mut buf = Vec::new();
    let mut w = Writer::new(Endianness::Little, true, &mut buf);

    // --- reserve: header, section indices, names, symbols, data, tables ---
    w.reserve_file_header();
    w.reserve_null_section_index();
    w.reserve_shstrtab_section_index();
    w.reserve_strtab_section_index();
    let symtab_idx = w.reserve_symtab_section_index();
    let info_idx = w.reserve_section_index();
    let kinfo_idx = w.reserve_section_index();
    let (text_idx, shared_idx, const0_idx) = match arch {
        CubinArch::Sm90 => {
            let t = w.reserve_section_index();
            let s = has_shared.then(|| w.reserve_section_index());
            (t, s, w.reserve_section_index())
        }
        CubinArch::Sm50 => {
            let c = w.reserve_section_index();
            let t = w.reserve_section_index();
            (t, has_shared.then(|| w.reserve_section_index()), c)
        }
    };
    let sh_info_name = w.add_section_name(b".nv.info");
    let sh_kinfo_name = w.add_section_name(names.info.as_bytes());
    let sh_text_name = w.add_section_name(names.text.as_bytes());
    let sh_shared_name = w.add_section_name(names.shared.as_bytes());
    let sh_const0_name = w.add_section_name(names.const0.as_bytes());

    let str_text = w.add_string(names.text.as_bytes());
    let str_shared = w.add_string(names.shared.as_bytes());
    let str_const0 = w.add_string(names.const0.as_bytes());
    let str_kernel = w.add_string(k.name.as_bytes());
    w.reserve_null_symbol_index();
    let sym_text = w.reserve_symbol_index(Some(text_idx));
    let sym_shared = shared_idx.map(|s| w.reserve_symbol_index(Some(s)));
    let sym_const0 = w.reserve_symbol_index(Some(const0_idx));
    let sym_kernel = w.reserve_symbol_index(Some(text_idx));

    let info = nvinfo::encode_all(&global_info(k, sym_kernel.0));
    let kinfo = nvinfo::encode_all(&kernel_info(k, sym_const0.0));

    w.reserve_shstrtab().map_err(elf_err)?;
    w.reserve_strtab().map_err(elf_err)?;
    w.reserve_symtab();
    let info_off = w.reserve(info.len() as u64, 4);
    let kinfo_off = w.reserve(kinfo.len() as u64, 4);
    let (text_off, const0_off) = match arch {
        CubinArch::Sm90 => {
            let t = w.reserve(k.code.len() as u64, arch.text_align());
            (t, w.reserve(const0.len() as u64, 4))
        }
        CubinArch::Sm50 => {
            let c = w.reserve(const0.len() as u64, 4);
            (w.reserve(k.code.len() as u64, arch.text_align()), c)
        }
    };
    // NOBITS: it occupies no bytes; ptxas gives it the offset where it would start.
    let shared_off = w.reserve(0, 4);
    w.reserve_section_headers();
    // sm_90: PHDR, LOAD (headers), LOAD (code), [LOAD (shared)], LOAD (bank);
    // sm_50: PHDR, LOAD (bank + code), [LOAD (shared)], LOAD (headers).
    let num_segments = match arch {
        CubinArch::Sm90 => 4,
        CubinArch::Sm50 => 3,
    } + has_shared as u32;
    w.reserve_program_headers(num_segments);
    let phdr_off = w.reserved_len() - u64::from(num_segments) * 56;

    // --- write, in the same order ---
    w.write_file_header(&FileHeader {
        os_abi: elf::OsAbi(0x33),
        abi_version: 7,
        e_type: elf::ET_EXEC,
        e_machine: elf::EM_CUDA,
        e_entry: 0,
        e_flags: elf::FileFlags(arch.e_flags()),
    })
    .map_err(elf_err)?;
    w.write_shstrtab();
    w.write_strtab();
    w.write_null_symbol();
    let section_sym = |name: u32, section: SectionIndex| Sym {
        st_name: name,
        section: Some(section.0),
        st_info: elf::SymbolInfo::new(elf::STB_LOCAL, elf::STT_SECTION),
        st_other: elf::SymbolOther(0),
        st_shndx: elf::SymbolSection(0),
        st_value: 0,
        st_size: 0,
    };
    let name_of = |w: &Writer<'_>, id| w.string_offset(Some(id));
    let got = w.write_symbol(&section_sym(name_of(&w, str_text), text_idx));
    debug_assert_eq!(got, sym_text);
    if let Some(s) = shared_idx {
        let got = w.write_symbol(&section_sym(name_of(&w, str_shared), s));
        debug_assert_eq!(Some(got), sym_shared);
    }
    w.write_symbol(&section_sym(name_of(&w, str_const0), const0_idx));
    w.write_symbol(&Sym {
        st_name: name_of(&w, str_kernel),
        section: Some(text_idx.0),
        st_info: elf::SymbolInfo::new(elf::STB_GLOBAL, elf::STT_FUNC),
        // STO_CUDA_ENTRY: the symbol is a kernel entry point.
        st_other: elf::SymbolOther(0x10),
        st_shndx: elf::SymbolSection(0),
        st_value: 0,
        st_size: k.code.len() as u64,
    });
    w.write_align(4);
    w.write(&info);
    w.write_align(4);
    w.write(&kinfo);
    match arch {
        CubinArch::Sm90 => {
            w.write_align(arch.text_align());
            w.write(&k.code);
            w.write_align(4);
            w.write(&const0);
        }
        CubinArch::Sm50 => {
            w.write_align(4);
            w.write(&const0);
            w.write_align(arch.text_align());
            w.write(&k.code);
        }
    }
    w.write_align(4);

    // Section headers.
    w.write_null_section_header();
    w.write_shstrtab_section_header();
    w.write_strtab_section_header();
    w.write_symtab_section_header(sym_kernel.0);
    let nv_info_type = elf::SectionType(0x7000_0000);
    let got = w.write_section_header(&SectionHeader {
        sh_name: w.section_name_offset(Some(sh_info_name)),
        sh_type: nv_info_type,
        sh_flags: elf::SectionFlags(0),
        sh_addr: 0,
        sh_offset: info_off,
        sh_size: info.len() as u64,
        sh_link: symtab_idx.0,
        sh_info: 0,
        sh_addralign: 4,
        sh_entsize: 0,
    });
    debug_assert_eq!(got, info_idx);
    let got = w.write_section_header(&SectionHeader {
        sh_name: w.section_name_offset(Some(sh_kinfo_name)),
        sh_type: nv_info_type,
        sh_flags: elf::SectionFlags(0),
        sh_addr: 0,
        sh_offset: kinfo_off,
        sh_size: kinfo.len() as u64,
        sh_link: symtab_idx.0,
        sh_info: text_idx.0,
        sh_addralign: 4,
        sh_entsize: 0,
    });
    debug_assert_eq!(got, kinfo_idx);
    let text_flags = (elf::SHF_ALLOC.0 | elf::SHF_EXECINSTR.0) | (u64::from(k.num_barriers) << 20);
    let text_info = match arch {
        CubinArch::Sm50 => sym_kernel.0 | (arch.regcount(k.regs_used) << 24),
        CubinArch::Sm90 => sym_kernel.0,
    };
    let text_header = SectionHeader {
        sh_name: w.section_name_offset(Some(sh_text_name)),
        sh_type: elf::SHT_PROGBITS,
        sh_flags: elf::SectionFlags(text_flags),
        sh_addr: 0,
        sh_offset: text_off,
        sh_size: k.code.len() as u64,
        sh_link: symtab_idx.0,
        sh_info: text_info,
        sh_addralign: arch.text_align(),
        sh_entsize: 0,
    };
    let shared_header = SectionHeader {
        sh_name: w.section_name_offset(Some(sh_shared_name)),
        sh_type: elf::SHT_NOBITS,
        sh_flags: elf::SectionFlags(elf::SHF_ALLOC.0 | elf::SHF_WRITE.0),
        sh_addr: 0,
        sh_offset: shared_off,
        sh_size: u64::from(shared_size),
        sh_link: 0,
        sh_info: text_idx.0,
        // atomc does not know its shared data's alignment; 16 covers every access width.
        sh_addralign: 16,
        sh_entsize: 0,
    };
    let const0_header = SectionHeader {
        sh_name: w.section_name_offset(Some(sh_const0_name)),
        sh_type: elf::SHT_PROGBITS,
        sh_flags: elf::SectionFlags(elf::SHF_ALLOC.0),
        sh_addr: 0,
        sh_offset: const0_off,
        sh_size: const0.len() as u64,
        sh_link: 0,
        sh_info: text_idx.0,
        sh_addralign: 4,
        sh_entsize: 0,
    };
    match arch {
        CubinArch::Sm90 => {
            w.write_section_header(&text_header);
            if has_shared {
                w.write_section_header(&shared_header);
            }
            w.write_section_header(&const0_header);
        }
        CubinArch::Sm50 => {
            w.write_section_header(&const0_header);
            w.write_section_header(&text_header);
            if has_shared {
                w.write_section_header(&shared_header);
            }
        }
    }

    // Program headers, at the end of the file as ptxas places them.
    let seg = |p_type, p_flags: u32, off: u64, filesz: u64, memsz: u64| ProgramHeader {
        p_type,
        p_flags: elf::ProgramFlags(p_flags),
        p_offset: off,
        p_vaddr: 0,
        p_paddr: 0,
        p_filesz: filesz,
        p_memsz: memsz,
        p_align: 8,
    };
    let (r, rx, rw) = (elf::PF_R.0, elf::PF_R.0 | elf::PF_X.0, elf::PF_R.0 | elf::PF_W.0);
    let phdr_size = u64::from(num_segments) * 56;
    let shared_seg = seg(elf::PT_LOAD, rw, shared_off, 0, u64::from(shared_size));
    let mut segs = Vec::new();
    match arch {
        CubinArch::Sm90 => {
            segs.push(seg(elf::PT_PHDR, r, phdr_off, phdr_size, phdr_size));
            segs.push(seg(elf::PT_LOAD, r, phdr_off, phdr_size, phdr_size));
            segs.push(seg(
                elf::PT_LOAD,
                rx,
                text_off,
                k.code.len() as u64,
                k.code.len() as u64,
            ));
            if has_shared {
                segs.push(shared_seg);
            }
            segs.push(seg(
                elf::PT_LOAD,
                r,
                const0_off,
                const0.len() as u64,
                const0.len() as u64,
            ));
        }
        CubinArch::Sm50 => {
            // One segment spans the constant bank and the code that follows it.
            let span = text_off + k.code.len() as u64 - const0_off;
            segs.push(seg(elf::PT_PHDR, rx, phdr_off, phdr_size, phdr_size));
            segs.push(seg(elf::PT_LOAD, rx, const0_off, span, span));
            if has_shared {
                segs.push(shared_seg);
            }
            segs.push(seg(elf::PT_LOAD, rx, phdr_off, phdr_size, phdr_size));
        }
    }
    w.write_align_program_headers();
    for s in &segs {
        w.write_program_header(s);
    }
    debug_assert_eq!(w.reserved_len(), w.len());
    drop(w);
    // The writer always stores EV_CURRENT (1) in e_version; the classic
    // format keeps the toolkit version there (cuobjdump prints it as
    // "toolkit=118").
    buf[20..24].copy_from_slice(&CUDA_VERSION.to_le_bytes());
    Ok(buf)
}

fn elf_err(e: object::write::Error) -> CubinError {
    CubinError::Elf(e.to_string())
}

/// The per-kernel section names.
struct SectionNames {
    info: String,
    text: String,
    shared: String,
    const0: String,
}

impl SectionNames {
    fn new(kernel: &str) -> SectionNames {
        SectionNames {
            info: format!(".nv.info.{kernel}"),
            text: format!(".text.{kernel}"),
            shared: format!(".nv.shared.{kernel}"),
            const0: format!(".nv.constant0.{kernel}"),
        }
    }
}
