//! The ELF layout of [`super::write_cubin`], written with the `object`
//! crate's two-phase ELF writer: every range is reserved first, then
//! written in the same order.

use super::nvinfo::{self, Record};
use super::records::{global_info, kernel_info};
use super::surfref;
use super::{validate, Sm, CubinError, CubinKernel, SM90_SHARED_RESERVED};
use object::elf;
use object::write::elf::{FileHeader, ProgramHeader, SectionHeader, SectionIndex, Sym, Writer};
use object::Endianness;

/// Writes `k` as a loadable cubin.
pub fn write_cubin(k: &CubinKernel) -> Result<Vec<u8>, CubinError> {
    write_module(std::slice::from_ref(k))
}

/// The file layout of one kernel: its section and symbol indices, data offsets and sizes.
struct Placed {
    kinfo_idx: SectionIndex,
    text_idx: SectionIndex,
    shared_idx: Option<SectionIndex>,
    const0_idx: SectionIndex,
    const0: Vec<u8>,
    shared_size: u32,
    has_shared: bool,
    kinfo: Vec<u8>,
    kinfo_off: u64,
    text_off: u64,
    const0_off: u64,
}

/// Writes several kernels of one architecture as one loadable cubin (a module), laid out as
/// ptxas lays out a module: each kind of section grouped (`.nv.info.<k>` of every kernel, then
/// their code, shared windows and constant banks), one code segment spanning every kernel's
/// `.text`, one spanning the constant banks. One kernel gives exactly [`write_cubin`]'s file.
pub fn write_module(ks: &[CubinKernel]) -> Result<Vec<u8>, CubinError> {
    let Some(first) = ks.first() else {
        return Err(CubinError::Elf("a module needs at least one kernel".into()));
    };
    let arch = first.arch;
    for (i, k) in ks.iter().enumerate() {
        validate(k)?;
        if k.arch != arch {
            return Err(CubinError::Elf(format!("kernel {} is for {:?}, the module for {arch:?}", k.name, k.arch)));
        }
        if ks[..i].iter().any(|o| o.name == k.name) {
            return Err(CubinError::Elf(format!("two kernels are called {}", k.name)));
        }
    }
    // The writer borrows every name until the end.
    let names: Vec<SectionNames> = ks.iter().map(|k| SectionNames::new(&k.name)).collect();
    let surf_syms = surfref::symbols(ks);
    let rel_names: Vec<String> = ks.iter().map(|k| surfref::section_name(arch, &k.name)).collect();
    let rel_action = surfref::rel_action();
    let mut buf = Vec::new();
    let mut w = Writer::new(Endianness::Little, true, &mut buf);

    // --- reserve: header, section indices, names, symbols, data, tables ---
    w.reserve_file_header();
    w.reserve_null_section_index();
    w.reserve_shstrtab_section_index();
    w.reserve_strtab_section_index();
    let symtab_idx = w.reserve_symtab_section_index();
    let info_idx = w.reserve_section_index();
    let kinfo_idx: Vec<SectionIndex> = ks.iter().map(|_| w.reserve_section_index()).collect();
    // Bound surfaces: sm_50's relocation-kind table, then each kernel's relocations.
    let rel_action_idx = (arch == Sm::Sm50 && !surf_syms.is_empty()).then(|| w.reserve_section_index());
    let rel_idx: Vec<Option<SectionIndex>> =
        ks.iter().map(|k| (!k.surface_refs.is_empty()).then(|| w.reserve_section_index())).collect();
    let has_shared: Vec<bool> = ks.iter().map(|k| k.uses_shared || k.shared_bytes > 0).collect();
    let reserve_shared = |w: &mut Writer<'_>| -> Vec<Option<SectionIndex>> {
        has_shared.iter().map(|&h| h.then(|| w.reserve_section_index())).collect()
    };
    // Where the constant banks go: ptxas 11.8 writes sm_50's banks before the code, and sm_90's
    // too once `.nv.constant0.<k>` has relocations (bound surfaces): banks, code, shared, with
    // a segment each in that order.
    let layout = match arch {
        Sm::Sm90 if ks.iter().all(|k| k.surface_refs.is_empty()) => Sm::Sm90,
        _ => Sm::Sm50,
    };
    let (text_idx, shared_idx, const0_idx): (Vec<_>, Vec<_>, Vec<_>) = match layout {
        Sm::Sm90 => {
            let t = ks.iter().map(|_| w.reserve_section_index()).collect();
            let s = reserve_shared(&mut w);
            (t, s, ks.iter().map(|_| w.reserve_section_index()).collect())
        }
        Sm::Sm50 => {
            let c = ks.iter().map(|_| w.reserve_section_index()).collect();
            let t = ks.iter().map(|_| w.reserve_section_index()).collect();
            (t, reserve_shared(&mut w), c)
        }
    };
    let mut placed: Vec<Placed> = ks
        .iter()
        .enumerate()
        .map(|(i, k)| Placed {
            kinfo_idx: kinfo_idx[i],
            text_idx: text_idx[i],
            shared_idx: shared_idx[i],
            const0_idx: const0_idx[i],
            const0: vec![0u8; k.const0_bytes() as usize],
            shared_size: match arch {
                Sm::Sm90 if has_shared[i] => SM90_SHARED_RESERVED + k.shared_bytes,
                _ => k.shared_bytes,
            },
            has_shared: has_shared[i],
            kinfo: Vec::new(),
            kinfo_off: 0,
            text_off: 0,
            const0_off: 0,
        })
        .collect();
    let sh_info_name = w.add_section_name(b".nv.info");
    let sh_rel_action = rel_action_idx.map(|_| w.add_section_name(b".nv.rel.action"));
    let sh_rel: Vec<_> = rel_names.iter().map(|n| w.add_section_name(n.as_bytes())).collect();
    let surf_strs: Vec<_> = surf_syms.iter().map(|n| w.add_string(n.as_bytes())).collect();
    let sh_names: Vec<_> = names
        .iter()
        .map(|n| {
            (
                w.add_section_name(n.info.as_bytes()),
                w.add_section_name(n.text.as_bytes()),
                w.add_section_name(n.shared.as_bytes()),
                w.add_section_name(n.const0.as_bytes()),
            )
        })
        .collect();
    let strs: Vec<_> = names
        .iter()
        .zip(ks)
        .map(|(n, k)| {
            (
                w.add_string(n.text.as_bytes()),
                w.add_string(n.shared.as_bytes()),
                w.add_string(n.const0.as_bytes()),
                w.add_string(k.name.as_bytes()),
            )
        })
        .collect();
    w.reserve_null_symbol_index();
    let sym_text: Vec<_> = placed.iter().map(|p| w.reserve_symbol_index(Some(p.text_idx))).collect();
    // ptxas 11.8 gives `.nv.shared.<k>` a section symbol only when it holds static data; a
    // section holding only sm_90's reserved window (dynamic shared memory alone) has none.
    let shared_sym_idx: Vec<_> =
        placed.iter().zip(ks).map(|(p, k)| p.shared_idx.filter(|_| k.shared_bytes > 0)).collect();
    let sym_shared: Vec<_> = shared_sym_idx.iter().map(|s| s.map(|s| w.reserve_symbol_index(Some(s)))).collect();
    let sym_const0: Vec<_> = placed.iter().map(|p| w.reserve_symbol_index(Some(p.const0_idx))).collect();
    let sym_kernel: Vec<_> = placed.iter().map(|p| w.reserve_symbol_index(Some(p.text_idx))).collect();
    let sym_surf: Vec<_> = surf_syms.iter().map(|_| w.reserve_symbol_index(None)).collect();
    let surf_index = |name: &str| surf_syms.iter().position(|n| n == name).map_or(0, |i| sym_surf[i].0);
    let rels: Vec<Vec<u8>> = ks.iter().map(|k| surfref::entries(k, surf_index)).collect();

    let info: Vec<Record> = ks.iter().zip(&sym_kernel).flat_map(|(k, s)| global_info(k, s.0)).collect();
    let info = nvinfo::encode_all(&info);
    for (i, p) in placed.iter_mut().enumerate() {
        p.kinfo = nvinfo::encode_all(&kernel_info(&ks[i], sym_const0[i].0));
    }

    w.reserve_shstrtab().map_err(elf_err)?;
    w.reserve_strtab().map_err(elf_err)?;
    w.reserve_symtab();
    let info_off = w.reserve(info.len() as u64, 4);
    for p in placed.iter_mut() {
        p.kinfo_off = w.reserve(p.kinfo.len() as u64, 4);
    }
    let rel_action_off = rel_action_idx.map(|_| w.reserve(rel_action.len() as u64, 8));
    let rel_off: Vec<Option<u64>> =
        rel_idx.iter().zip(&rels).map(|(i, r)| i.map(|_| w.reserve(r.len() as u64, 8))).collect();
    match layout {
        Sm::Sm90 => {
            for (p, k) in placed.iter_mut().zip(ks) {
                p.text_off = w.reserve(k.code.len() as u64, arch.text_align());
            }
            for p in placed.iter_mut() {
                p.const0_off = w.reserve(p.const0.len() as u64, 4);
            }
        }
        Sm::Sm50 => {
            for p in placed.iter_mut() {
                p.const0_off = w.reserve(p.const0.len() as u64, 4);
            }
            for (p, k) in placed.iter_mut().zip(ks) {
                p.text_off = w.reserve(k.code.len() as u64, arch.text_align());
            }
        }
    }
    // NOBITS: it occupies no bytes; ptxas gives it the offset where it would start.
    let shared_off = w.reserve(0, 4);
    w.reserve_section_headers();
    // sm_90: PHDR, LOAD (headers), LOAD (code), [LOAD (shared)], LOAD (banks);
    // sm_50: PHDR, LOAD (banks + code), [LOAD (shared)], LOAD (headers).
    let any_shared = has_shared.iter().any(|&h| h);
    let num_segments = match arch {
        Sm::Sm90 => 4,
        Sm::Sm50 => 3,
    } + any_shared as u32;
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
    for (i, p) in placed.iter().enumerate() {
        let got = w.write_symbol(&section_sym(name_of(&w, strs[i].0), p.text_idx));
        debug_assert_eq!(got, sym_text[i]);
    }
    for i in 0..placed.len() {
        if let Some(s) = shared_sym_idx[i] {
            let got = w.write_symbol(&section_sym(name_of(&w, strs[i].1), s));
            debug_assert_eq!(Some(got), sym_shared[i]);
        }
    }
    for (i, p) in placed.iter().enumerate() {
        w.write_symbol(&section_sym(name_of(&w, strs[i].2), p.const0_idx));
    }
    for (i, p) in placed.iter().enumerate() {
        w.write_symbol(&Sym {
            st_name: name_of(&w, strs[i].3),
            section: Some(p.text_idx.0),
            st_info: elf::SymbolInfo::new(elf::STB_GLOBAL, elf::STT_FUNC),
            // STO_CUDA_ENTRY: the symbol is a kernel entry point.
            st_other: elf::SymbolOther(0x10),
            st_shndx: elf::SymbolSection(0),
            st_value: 0,
            st_size: ks[i].code.len() as u64,
        });
    }
    for (i, &s) in surf_strs.iter().enumerate() {
        let got = w.write_symbol(&Sym {
            st_name: name_of(&w, s),
            section: None,
            st_info: elf::SymbolInfo::new(elf::STB_GLOBAL, surfref::STT_CUDA_SURFACE),
            st_other: elf::SymbolOther(0),
            st_shndx: elf::SymbolSection(0),
            st_value: 0,
            st_size: 0,
        });
        debug_assert_eq!(got, sym_surf[i]);
    }
    w.write_align(4);
    w.write(&info);
    for p in &placed {
        w.write_align(4);
        w.write(&p.kinfo);
    }
    if rel_action_off.is_some() {
        w.write_align(8);
        w.write(&rel_action);
    }
    for (r, off) in rels.iter().zip(&rel_off) {
        if off.is_some() {
            w.write_align(8);
            w.write(r);
        }
    }
    let write_code = |w: &mut Writer<'_>| {
        for k in ks {
            w.write_align(arch.text_align());
            w.write(&k.code);
        }
    };
    let write_banks = |w: &mut Writer<'_>| {
        for p in &placed {
            w.write_align(4);
            w.write(&p.const0);
        }
    };
    match layout {
        Sm::Sm90 => {
            write_code(&mut w);
            write_banks(&mut w);
        }
        Sm::Sm50 => {
            write_banks(&mut w);
            write_code(&mut w);
        }
    }
    w.write_align(4);

    // Section headers.
    w.write_null_section_header();
    w.write_shstrtab_section_header();
    w.write_strtab_section_header();
    w.write_symtab_section_header(sym_kernel[0].0);
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
    for (i, p) in placed.iter().enumerate() {
        let got = w.write_section_header(&SectionHeader {
            sh_name: w.section_name_offset(Some(sh_names[i].0)),
            sh_type: nv_info_type,
            sh_flags: elf::SectionFlags(0),
            sh_addr: 0,
            sh_offset: p.kinfo_off,
            sh_size: p.kinfo.len() as u64,
            sh_link: symtab_idx.0,
            sh_info: p.text_idx.0,
            sh_addralign: 4,
            sh_entsize: 0,
        });
        debug_assert_eq!(got, p.kinfo_idx);
    }
    if let (Some(name), Some(off), Some(idx)) = (sh_rel_action, rel_action_off, rel_action_idx) {
        let got = w.write_section_header(&surfref::rel_action_header(w.section_name_offset(Some(name)), off));
        debug_assert_eq!(got, idx);
    }
    for (i, p) in placed.iter().enumerate() {
        let (Some(idx), Some(off)) = (rel_idx[i], rel_off[i]) else { continue };
        let (name, size) = (w.section_name_offset(Some(sh_rel[i])), rels[i].len() as u64);
        let got = w.write_section_header(&surfref::rel_header(arch, name, off, size, symtab_idx.0, p.const0_idx.0));
        debug_assert_eq!(got, idx);
    }
    let headers: Vec<(SectionHeader, SectionHeader, SectionHeader)> = placed
        .iter()
        .zip(ks)
        .enumerate()
        .map(|(i, (p, k))| {
            let text_flags = (elf::SHF_ALLOC.0 | elf::SHF_EXECINSTR.0) | (u64::from(k.num_barriers) << 20);
            let text_info = match arch {
                Sm::Sm50 => sym_kernel[i].0 | (arch.regcount(k.regs_used) << 24),
                Sm::Sm90 => sym_kernel[i].0,
            };
            let text = SectionHeader {
                sh_name: w.section_name_offset(Some(sh_names[i].1)),
                sh_type: elf::SHT_PROGBITS,
                sh_flags: elf::SectionFlags(text_flags),
                sh_addr: 0,
                sh_offset: p.text_off,
                sh_size: k.code.len() as u64,
                sh_link: symtab_idx.0,
                sh_info: text_info,
                sh_addralign: arch.text_align(),
                sh_entsize: 0,
            };
            let shared = SectionHeader {
                sh_name: w.section_name_offset(Some(sh_names[i].2)),
                sh_type: elf::SHT_NOBITS,
                sh_flags: elf::SectionFlags(elf::SHF_ALLOC.0 | elf::SHF_WRITE.0),
                sh_addr: 0,
                sh_offset: shared_off,
                sh_size: u64::from(p.shared_size),
                sh_link: 0,
                sh_info: p.text_idx.0,
                // atomc does not know its shared data's alignment; 16 covers every access width.
                sh_addralign: 16,
                sh_entsize: 0,
            };
            let const0 = SectionHeader {
                sh_name: w.section_name_offset(Some(sh_names[i].3)),
                sh_type: elf::SHT_PROGBITS,
                sh_flags: elf::SectionFlags(elf::SHF_ALLOC.0),
                sh_addr: 0,
                sh_offset: p.const0_off,
                sh_size: p.const0.len() as u64,
                sh_link: 0,
                sh_info: p.text_idx.0,
                sh_addralign: 4,
                sh_entsize: 0,
            };
            (text, shared, const0)
        })
        .collect();
    let write_shared = |w: &mut Writer<'_>| {
        for (p, h) in placed.iter().zip(&headers) {
            if p.has_shared {
                w.write_section_header(&h.1);
            }
        }
    };
    match layout {
        Sm::Sm90 => {
            headers.iter().for_each(|h| {
                w.write_section_header(&h.0);
            });
            write_shared(&mut w);
            headers.iter().for_each(|h| {
                w.write_section_header(&h.2);
            });
        }
        Sm::Sm50 => {
            headers.iter().for_each(|h| {
                w.write_section_header(&h.2);
            });
            headers.iter().for_each(|h| {
                w.write_section_header(&h.0);
            });
            write_shared(&mut w);
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
    // Every kernel's window starts at the same place; the segment covers the largest.
    let shared_size = placed.iter().map(|p| p.shared_size).max().unwrap_or(0);
    let shared_seg = seg(elf::PT_LOAD, rw, shared_off, 0, u64::from(shared_size));
    let last = placed.len() - 1;
    let code_start = placed[0].text_off;
    let code_len = placed[last].text_off + ks[last].code.len() as u64 - code_start;
    let banks_start = placed[0].const0_off;
    let banks_len = placed[last].const0_off + placed[last].const0.len() as u64 - banks_start;
    let mut segs = Vec::new();
    match arch {
        Sm::Sm90 if layout == Sm::Sm50 => {
            segs.push(seg(elf::PT_PHDR, r, phdr_off, phdr_size, phdr_size));
            segs.push(seg(elf::PT_LOAD, r, phdr_off, phdr_size, phdr_size));
            segs.push(seg(elf::PT_LOAD, r, banks_start, banks_len, banks_len));
            segs.push(seg(elf::PT_LOAD, rx, code_start, code_len, code_len));
            if any_shared {
                segs.push(shared_seg);
            }
        }
        Sm::Sm90 => {
            segs.push(seg(elf::PT_PHDR, r, phdr_off, phdr_size, phdr_size));
            segs.push(seg(elf::PT_LOAD, r, phdr_off, phdr_size, phdr_size));
            segs.push(seg(elf::PT_LOAD, rx, code_start, code_len, code_len));
            if any_shared {
                segs.push(shared_seg);
            }
            segs.push(seg(elf::PT_LOAD, r, banks_start, banks_len, banks_len));
        }
        Sm::Sm50 => {
            // One segment spans the constant banks and the code that follows them.
            let span = code_start + code_len - banks_start;
            segs.push(seg(elf::PT_PHDR, rx, phdr_off, phdr_size, phdr_size));
            segs.push(seg(elf::PT_LOAD, rx, banks_start, span, span));
            if any_shared {
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
    buf[20..24].copy_from_slice(&super::CUDA_VERSION.to_le_bytes());
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
