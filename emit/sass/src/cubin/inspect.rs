//! Reading a cubin back into a plain summary (header, sections, symbols,
//! segments, decoded `.nv.info` records), so tests can compare atomc's
//! containers with ptxas's attribute by attribute. Symbol and section
//! indices are resolved to names, since the two producers number them
//! differently.

use super::nvinfo::{self, attr, Record};
use super::CubinError;
use object::elf;
use object::read::elf::{FileHeader, ProgramHeader, SectionHeader, Sym};
use object::Endianness;

/// The ELF header fields that matter to the driver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderSummary {
    /// `EI_OSABI`.
    pub os_abi: u8,
    /// `EI_ABIVERSION`.
    pub abi_version: u8,
    /// `e_type`.
    pub e_type: u16,
    /// `e_machine`.
    pub e_machine: u16,
    /// `e_version`.
    pub e_version: u32,
    /// `e_flags`.
    pub e_flags: u32,
}

/// One section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SectionSummary {
    /// Its name.
    pub name: String,
    /// `sh_type`.
    pub sh_type: u32,
    /// `sh_flags`.
    pub flags: u64,
    /// `sh_addralign`.
    pub align: u64,
    /// `sh_entsize`.
    pub entsize: u64,
    /// `sh_size`.
    pub size: u64,
    /// `sh_offset`.
    pub offset: u64,
    /// The section `sh_link` names, if any.
    pub link: Option<String>,
    /// `sh_info` as stored.
    pub info: u32,
    /// The decoded records of an `.nv.info*` section.
    pub records: Option<Vec<Record>>,
}

/// One symbol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymbolSummary {
    /// Its name.
    pub name: String,
    /// `STB_*`.
    pub bind: u8,
    /// `STT_*`.
    pub kind: u8,
    /// `st_other` (0x10: CUDA entry).
    pub other: u8,
    /// The section it is defined in.
    pub section: Option<String>,
    /// `st_value`.
    pub value: u64,
    /// `st_size`.
    pub size: u64,
}

/// One program header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SegmentSummary {
    /// `p_type`.
    pub p_type: u32,
    /// `p_flags`.
    pub flags: u32,
    /// `p_offset`.
    pub offset: u64,
    /// `p_filesz`.
    pub filesz: u64,
    /// `p_memsz`.
    pub memsz: u64,
    /// `p_align`.
    pub align: u64,
    /// The allocated sections inside it (by file range; NOBITS by offset).
    pub sections: Vec<String>,
}

/// A whole cubin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CubinSummary {
    /// The header.
    pub header: HeaderSummary,
    /// Sections in index order (the null section left out).
    pub sections: Vec<SectionSummary>,
    /// Symbols in index order (the null symbol included, index 0).
    pub symbols: Vec<SymbolSummary>,
    /// Program headers in order.
    pub segments: Vec<SegmentSummary>,
}

impl CubinSummary {
    /// The section called `name`.
    pub fn section(&self, name: &str) -> Option<&SectionSummary> {
        self.sections.iter().find(|s| s.name == name)
    }

    /// The symbol called `name`.
    pub fn symbol(&self, name: &str) -> Option<&SymbolSummary> {
        self.symbols.iter().find(|s| s.name == name)
    }

    /// The records of the `.nv.info*` section `name` (empty if absent).
    pub fn records(&self, name: &str) -> &[Record] {
        self.section(name).and_then(|s| s.records.as_deref()).unwrap_or(&[])
    }

    /// The first record with `code` in section `name`.
    pub fn record(&self, name: &str, code: u8) -> Option<&Record> {
        self.records(name).iter().find(|r| r.attr == code)
    }

    fn symbol_name(&self, index: u32) -> String {
        self.symbols
            .get(index as usize)
            .map(|s| s.name.clone())
            .unwrap_or_else(|| format!("sym#{index}"))
    }

    /// A record as text with symbol indices replaced by names, so records of
    /// two producers compare equal when they mean the same thing
    /// (`REGCOUNT k 10`, `PARAM_CBANK .nv.constant0.k 0x210 12`).
    pub fn record_text(&self, r: &Record) -> String {
        let words = r.as_words();
        match r.attr {
            attr::REGCOUNT | attr::MAX_STACK_SIZE | attr::MIN_STACK_SIZE | attr::FRAME_SIZE if words.len() == 2 => {
                format!("{} {} {:#x}", r.name(), self.symbol_name(words[0]), words[1])
            }
            attr::PARAM_CBANK if words.len() == 2 => format!(
                "{} {} {:#x} {:#x}",
                r.name(),
                self.symbol_name(words[0]),
                words[1] & 0xffff,
                words[1] >> 16
            ),
            attr::KPARAM_INFO if words.len() == 3 => format!(
                "{} index {} ordinal {} offset {:#x} word {:#x}",
                r.name(),
                words[0],
                words[1] & 0xffff,
                words[1] >> 16,
                words[2]
            ),
            _ => {
                let v = match r.format {
                    nvinfo::Format::Nval => String::new(),
                    nvinfo::Format::Sval if r.value.len().is_multiple_of(4) => {
                        words.iter().map(|w| format!(" {w:#x}")).collect()
                    }
                    _ => r.value.iter().map(|b| format!(" {b:02x}")).collect(),
                };
                format!("{}{v}", r.name())
            }
        }
    }
}

/// Parses a 64-bit little-endian ELF (a cubin).
pub fn inspect(data: &[u8]) -> Result<CubinSummary, CubinError> {
    let perr = |e: object::read::Error| CubinError::Parse(e.to_string());
    let h = elf::FileHeader64::<Endianness>::parse(data).map_err(perr)?;
    let endian = h.endian().map_err(perr)?;
    let ident = h.e_ident();
    let header = HeaderSummary {
        os_abi: ident.os_abi.0,
        abi_version: ident.abi_version,
        e_type: h.e_type(endian).0,
        e_machine: h.e_machine(endian).0,
        e_version: h.e_version(endian),
        e_flags: h.e_flags(endian).0,
    };
    let table = h.sections(endian, data).map_err(perr)?;
    let name_of = |i: usize| -> Option<String> {
        let s = table.section(object::SectionIndex(i)).ok()?;
        table
            .section_name(endian, s)
            .ok()
            .map(|n| String::from_utf8_lossy(n).into_owned())
    };
    let mut sections = Vec::new();
    for (i, s) in table.iter().enumerate().skip(1) {
        let name = name_of(i).unwrap_or_default();
        let sh_type = s.sh_type(endian).0;
        let link = s.sh_link(endian);
        let records = if sh_type == 0x7000_0000 {
            let bytes = s.data(endian, data).map_err(perr)?;
            Some(nvinfo::decode_all(bytes).ok_or_else(|| CubinError::Parse(format!("{name}: malformed records")))?)
        } else {
            None
        };
        sections.push(SectionSummary {
            name,
            sh_type,
            flags: s.sh_flags(endian).0,
            align: s.sh_addralign(endian),
            entsize: s.sh_entsize(endian),
            size: s.sh_size(endian),
            offset: s.sh_offset(endian),
            link: if link == 0 { None } else { name_of(link as usize) },
            info: s.sh_info(endian),
            records,
        });
    }
    let mut symbols = Vec::new();
    let syms = table.symbols(endian, data, elf::SHT_SYMTAB).map_err(perr)?;
    for sym in syms.iter() {
        let name = syms
            .symbol_name(endian, sym)
            .map(|n| String::from_utf8_lossy(n).into_owned())
            .unwrap_or_default();
        let shndx = sym.st_shndx(endian).0;
        symbols.push(SymbolSummary {
            name,
            bind: sym.st_bind().0,
            kind: sym.st_type().0,
            other: sym.st_other().0,
            section: if shndx == 0 { None } else { name_of(shndx as usize) },
            value: sym.st_value(endian),
            size: sym.st_size(endian),
        });
    }
    let mut segments = Vec::new();
    for p in h.program_headers(endian, data).map_err(perr)? {
        let (off, filesz, memsz) = (p.p_offset(endian), p.p_filesz(endian), p.p_memsz(endian));
        let inside = sections
            .iter()
            .filter(|s| s.flags & elf::SHF_ALLOC.0 != 0)
            .filter(|s| {
                if s.sh_type == elf::SHT_NOBITS.0 {
                    filesz == 0 && s.offset == off && memsz > 0
                } else {
                    s.size > 0 && s.offset >= off && s.offset + s.size <= off + filesz
                }
            })
            .map(|s| s.name.clone())
            .collect();
        segments.push(SegmentSummary {
            p_type: p.p_type(endian).0,
            flags: p.p_flags(endian).0,
            offset: off,
            filesz,
            memsz,
            align: p.p_align(endian),
            sections: inside,
        });
    }
    Ok(CubinSummary {
        header,
        sections,
        symbols,
        segments,
    })
}
