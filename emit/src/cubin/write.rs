//! The ELF layout of [`super::write_cubin`], written with the `object`
//! crate's two-phase ELF writer: every range is reserved first, then
//! written in the same order.

use super::nvinfo::{self, attr, Record};
use super::{validate, CubinArch, CubinError, CubinKernel, CUDA_VERSION, SM90_SHARED_RESERVED};
use object::elf;
use object::write::elf::{FileHeader, ProgramHeader, SectionHeader, SectionIndex, Sym, Writer};
use object::Endianness;

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
    let kparams =
        k.params.iter().enumerate().rev().map(|(i, p)| nvinfo::kparam_info(i as u16, p.offset as u16, p.size));
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
    // sm_90: ptxas 13.5 declares the barrier count in NUM_BARRIERS (its text flags no longer
    // carry it); the flags keep it too, as ptxas 11.8 wrote them, so either reader finds it.
    if k.arch == CubinArch::Sm90 && k.num_barriers > 0 {
        out.push(Record::bval(attr::NUM_BARRIERS, k.num_barriers as u8));
    }
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
    let has_shared = k.uses_shared || k.shared_bytes > 0;
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
    // ptxas 11.8 gives `.nv.shared.<k>` a section symbol only when it holds static data; a
    // section holding only sm_90's reserved window (dynamic shared memory alone) has none.
    let shared_sym_idx = shared_idx.filter(|_| k.shared_bytes > 0);
    let sym_shared = shared_sym_idx.map(|s| w.reserve_symbol_index(Some(s)));
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
    if let Some(s) = shared_sym_idx {
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
            segs.push(seg(elf::PT_LOAD, rx, text_off, k.code.len() as u64, k.code.len() as u64));
            if has_shared {
                segs.push(shared_seg);
            }
            segs.push(seg(elf::PT_LOAD, r, const0_off, const0.len() as u64, const0.len() as u64));
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
