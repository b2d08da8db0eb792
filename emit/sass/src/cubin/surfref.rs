//! Bound surfaces in the container, as ptxas writes a module `.surfref` (ptxas 11.8 for
//! `sured.b.add.2d.u32.trap [s0, ..]` with 12 bytes of parameters, read with readelf and
//! cuobjdump): a GLOBAL undefined symbol of type `CUDA_SURFACE` (12) per surface, and per
//! kernel a relocation section for `.nv.constant0.<k>` whose `R_CUDA_SURF_HEADER_INDEX` (0x34)
//! entries ask the driver to write the surface's header index into a word after the parameters
//! (0x14c and 0x150 on sm_50, 0x21c and 0x220 on sm_90). sm_50 uses REL
//! (`.rel.nv.constant0.<k>`, and the file carries `.nv.rel.action`), sm_90 RELA
//! (`.rela.nv.constant0.<k>`, addend 0). The kernel's `.nv.info.<k>` says the header words
//! are in bank 0 (BINDLESS_SURFACE_BANK; on sm_90 also BINDLESS_TEXTURE_BANK).

use super::{Sm, CubinKernel};
use object::elf;
use object::write::elf::SectionHeader;

/// The relocation type.
pub(super) const R_CUDA_SURF_HEADER_INDEX: u64 = 0x34;

/// The symbol type of a surface reference (`STT_LOOS + 2`; cuobjdump: `CUDA_SURFACE`).
pub(super) const STT_CUDA_SURFACE: object::elf::SymbolType = object::elf::SymbolType(12);

/// `.nv.rel.action`'s type (`SHT_LOPROC + 0xb`, cuobjdump: `CUDA_RELOCINFO`).
pub(super) const SHT_CUDA_RELOCINFO: u32 = 0x7000_000b;

/// ptxas 11.8's sm_50 `.nv.rel.action`, byte for byte (the same table in every sm_50 cubin with
/// relocations: it describes relocation kinds, not this file's relocations).
const REL_ACTION: &str = "4b0000000000000000020208100a2f22000000080000000000000808000000000000100800000000000018080000000000002008000000000000280800000000000030080000000000003808000000000100000800000000010008080000000001001008000000000100180800000000010020080000000001002808000000000100300800000000010038080000000002000008000000000200080800000000020010080000000002001808000000000200200800000000020028080000000002003008000000000200380800000000000000142c0000000300000c00000000";

/// The bytes of `.nv.rel.action`.
pub(super) fn rel_action() -> Vec<u8> {
    (0..REL_ACTION.len()).step_by(2).map(|i| u8::from_str_radix(&REL_ACTION[i..i + 2], 16).unwrap_or(0)).collect()
}

/// Whether the architecture's relocations carry an addend (RELA).
pub(super) fn rela(arch: Sm) -> bool {
    arch == Sm::Sm90
}

/// The name of kernel `kernel`'s relocation section.
pub(super) fn section_name(arch: Sm, kernel: &str) -> String {
    if rela(arch) {
        format!(".rela.nv.constant0.{kernel}")
    } else {
        format!(".rel.nv.constant0.{kernel}")
    }
}

/// The surface symbols of a module, each once, in first-use order.
pub(super) fn symbols(ks: &[CubinKernel]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (name, _) in ks.iter().flat_map(|k| &k.surface_refs) {
        if !out.contains(name) {
            out.push(name.clone());
        }
    }
    out
}

/// The relocation entries of `k`, given each surface symbol's index.
pub(super) fn entries(k: &CubinKernel, sym_index: impl Fn(&str) -> u32) -> Vec<u8> {
    let mut out = Vec::new();
    for (name, offset) in &k.surface_refs {
        out.extend_from_slice(&u64::from(*offset).to_le_bytes());
        out.extend_from_slice(&((u64::from(sym_index(name)) << 32) | R_CUDA_SURF_HEADER_INDEX).to_le_bytes());
        if rela(k.arch) {
            out.extend_from_slice(&0i64.to_le_bytes());
        }
    }
    out
}

/// `.nv.rel.action`'s header, as ptxas 11.8 writes it (8-byte entries, no link).
pub(super) fn rel_action_header(name: u32, offset: u64) -> SectionHeader {
    SectionHeader {
        sh_name: name,
        sh_type: elf::SectionType(SHT_CUDA_RELOCINFO),
        sh_flags: elf::SectionFlags(0),
        sh_addr: 0,
        sh_offset: offset,
        sh_size: (REL_ACTION.len() / 2) as u64,
        sh_link: 0,
        sh_info: 0,
        sh_addralign: 8,
        sh_entsize: 8,
    }
}

/// A kernel's relocation section header: linked to the symbol table, applying to its
/// `.nv.constant0.<k>` (no flags, as ptxas 11.8 writes it).
pub(super) fn rel_header(
    arch: Sm,
    name: u32,
    offset: u64,
    size: u64,
    symtab: u32,
    const0: u32,
) -> SectionHeader {
    SectionHeader {
        sh_name: name,
        sh_type: if rela(arch) { elf::SHT_RELA } else { elf::SHT_REL },
        sh_flags: elf::SectionFlags(0),
        sh_addr: 0,
        sh_offset: offset,
        sh_size: size,
        sh_link: symtab,
        sh_info: const0,
        sh_addralign: 8,
        sh_entsize: entry_size(arch),
    }
}

/// Bytes of one entry.
pub(super) fn entry_size(arch: Sm) -> u64 {
    if rela(arch) {
        24
    } else {
        16
    }
}

/// Kernel `kernel`'s bound surface references in a cubin of either layout: (symbol, byte
/// offset of the header word in constant bank 0), from its `R_CUDA_SURF_HEADER_INDEX`
/// relocations, in file order.
pub fn read_surface_refs(data: &[u8], s: &super::inspect::CubinSummary, kernel: &str) -> Vec<(String, u32)> {
    let mut out = Vec::new();
    for (name, entry) in [(format!(".rel.nv.constant0.{kernel}"), 16), (format!(".rela.nv.constant0.{kernel}"), 24)] {
        let Some(sec) = s.section(&name) else { continue };
        let bytes = data.get(sec.offset as usize..sec.offset.saturating_add(sec.size) as usize).unwrap_or(&[]);
        for e in bytes.chunks_exact(entry) {
            let word = |i: usize| e[i..i + 8].iter().rev().fold(0u64, |a, &b| a << 8 | u64::from(b));
            let (offset, info) = (word(0), word(8));
            if info & 0xffff_ffff == R_CUDA_SURF_HEADER_INDEX {
                if let Some(sym) = s.symbols.get((info >> 32) as usize) {
                    out.push((sym.name.clone(), offset as u32));
                }
            }
        }
    }
    out
}
