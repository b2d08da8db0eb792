//! Attribute-by-attribute comparison of two cubins of the same kernel
//! (atomc's and ptxas's), and the reverse of [`super::write_cubin`]:
//! reading a kernel description back out of any cubin.
//!
//! [`diff`] reports every difference except those atomc makes on purpose
//! (listed in [`PTXAS_ONLY_SECTIONS`], [`PTXAS_ONLY_ATTRS`] and the module
//! docs of [`super`]): what remains is a bug in the writer, or something the
//! caller must explain.

use super::inspect::{inspect, CubinSummary};
use super::nvinfo::attr;
use super::{Sm, CubinError, CubinKernel, KernelParam};

/// Sections ptxas writes that atomc leaves out on purpose (debug unwind
/// tables, empty relocation sections, the sm_50 relocation-kind table, and
/// the CUDA 13 notes, compatibility and call-graph sections of the newer
/// layout).
pub const PTXAS_ONLY_SECTIONS: [&str; 8] = [
    ".debug_frame",
    ".rela.debug_frame",
    ".nv.rel.action",
    ".note.nv.tkinfo",
    ".note.nv.cuinfo",
    ".nv.compat",
    ".nv.callgraph",
    ".nv.shared.reserved.0",
];

/// `.nv.info.<k>` attributes ptxas may write that atomc leaves out on
/// purpose: warp-wide and cooperative-group instruction offsets (they list
/// the VOTEU/SHFL/REDUX of ptxas's own atomic aggregation, which atomc does
/// not do), and the CUDA 13 additions (language, MMA mask, driver workarounds,
/// barrier count — 11.8 keeps the barrier count in the text flags only —,
/// PREEXIT, and the code 0x5F that cuobjdump 13 cannot name). Also
/// ATOM16_EMUL_INSTR_REG_MAP: ptxas marks the instructions of its own CAS
/// emulation of 16-bit atomics there; atomc's legalizer builds its own CAS
/// loops and does not claim them (whether the driver or only the debugger
/// reads this record is not verified).
pub const PTXAS_ONLY_ATTRS: [u8; 10] = [
    attr::INT_WARP_WIDE_INSTR_OFFSETS,
    0x2E,               // ATOM16_EMUL_INSTR_REG_MAP
    0x28,               // COOP_GROUP_INSTR_OFFSETS
    0x66,               // LANGUAGE
    0x50,               // SPARSE_MMA_MASK
    0x36,               // SW_WAR
    0x6B,               // NVSAL_SW_WAR
    0x6D,               // PREEXIT_USED
    attr::NUM_BARRIERS, // compared as the barrier count below, wherever each file keeps it
    0x5F,               // unnamed in cuobjdump 13 (HVAL 0x101)
];

fn is_ptxas_only_symbol(name: &str) -> bool {
    PTXAS_ONLY_SECTIONS.contains(&name) || name.starts_with(".nv.reservedSmem") || name.starts_with("__nv_reservedSMEM")
}

/// The kernel symbol of a one-kernel cubin: the GLOBAL FUNC with
/// `st_other` 0x10.
pub fn kernel_name(s: &CubinSummary) -> Option<&str> {
    s.symbols.iter().find(|y| y.kind == 2 && y.bind == 1 && y.other & 0x10 != 0).map(|y| y.name.as_str())
}

/// Reads back what [`super::write_cubin`] needs from any one-kernel cubin:
/// the code, the register count (as `regs_used`, i.e. REGCOUNT less the
/// architecture's reserve), parameters, EXIT and warp-wide offsets, frame,
/// shared size, `.maxntid` and the barrier count.
pub fn kernel_from_cubin(data: &[u8]) -> Result<CubinKernel, CubinError> {
    let s = inspect(data)?;
    let missing = |what: &str| CubinError::Parse(format!("no {what}"));
    let arch = match s.header.e_flags & 0xff {
        50 => Sm::Sm50,
        90 => Sm::Sm90,
        // The CUDA 13 layout keeps the SM in bits 8..15.
        _ => match (s.header.e_flags >> 8) & 0xff {
            50 => Sm::Sm50,
            90 => Sm::Sm90,
            _ => return Err(CubinError::Parse(format!("e_flags {:#x}", s.header.e_flags))),
        },
    };
    let name = kernel_name(&s).ok_or_else(|| missing("kernel symbol"))?.to_string();
    let text = s.section(&format!(".text.{name}")).ok_or_else(|| missing("text section"))?;
    let code = data
        .get(text.offset as usize..(text.offset + text.size) as usize)
        .ok_or_else(|| missing("text bytes"))?
        .to_vec();
    let kinfo = format!(".nv.info.{name}");
    let regcount = s.record(".nv.info", attr::REGCOUNT).map(|r| r.as_words()).and_then(|w| w.get(1).copied());
    let regcount = regcount.ok_or_else(|| missing("REGCOUNT"))?;
    let frame = s.record(".nv.info", attr::FRAME_SIZE).and_then(|r| r.as_words().get(1).copied()).unwrap_or(0);
    let mut params: Vec<(u32, KernelParam)> = s
        .records(&kinfo)
        .iter()
        .filter(|r| r.attr == attr::KPARAM_INFO)
        .map(|r| {
            let w = r.as_words();
            let (ordinal, offset, size) = (w[1] & 0xffff, w[1] >> 16, w[2] >> 18);
            (ordinal, KernelParam { offset, size })
        })
        .collect();
    params.sort_by_key(|(o, _)| *o);
    let words = |code| s.record(&kinfo, code).map(|r| r.as_words()).unwrap_or_default();
    let shared_section = s.section(&format!(".nv.shared.{name}"));
    let shared = shared_section.map_or(0, |sh| sh.size as u32);
    let shared_bytes = match arch {
        Sm::Sm90 => shared.saturating_sub(super::SM90_SHARED_RESERVED),
        Sm::Sm50 => shared,
    };
    let mt = words(attr::MAX_THREADS);
    // Records write_cubin does not derive itself travel as they are.
    let modelled = [
        attr::CUDA_API_VERSION,
        attr::SW2393858_WAR,
        attr::SW1850030_WAR,
        attr::PARAM_CBANK,
        attr::CBANK_PARAM_SIZE,
        attr::KPARAM_INFO,
        attr::MAXREG_COUNT,
        attr::INT_WARP_WIDE_INSTR_OFFSETS,
        attr::EXIT_INSTR_OFFSETS,
        attr::MAX_THREADS,
        attr::BINDLESS_TEXTURE_BANK,
        attr::BINDLESS_SURFACE_BANK,
    ];
    let extra_records = s
        .records(&kinfo)
        .iter()
        .filter(|r| !modelled.contains(&r.attr) && !PTXAS_ONLY_ATTRS.contains(&r.attr))
        .cloned()
        .collect();
    let surface_refs = super::read_surface_refs(data, &s, &name);
    Ok(CubinKernel {
        surface_refs,
        arch,
        name,
        code,
        regs_used: regcount.saturating_sub(arch.reserved_regs()),
        params: params.into_iter().map(|(_, p)| p).collect(),
        exit_offsets: words(attr::EXIT_INSTR_OFFSETS),
        warp_wide_offsets: words(attr::INT_WARP_WIDE_INSTR_OFFSETS),
        shared_bytes,
        uses_shared: shared_section.is_some(),
        local_frame_bytes: frame,
        max_threads: (mt.len() == 3).then(|| [mt[0], mt[1], mt[2]]),
        max_registers: s
            .record(&kinfo, attr::MAXREG_COUNT)
            .and_then(|r| Some(u16::from_le_bytes(r.value.get(..2)?.try_into().ok()?)))
            .filter(|&n| n != 0xff)
            .map(u32::from),
        // Classic cubins keep the count in the text flags, ptxas 13 in NUM_BARRIERS (one byte).
        num_barriers: s
            .record(&kinfo, attr::NUM_BARRIERS)
            .and_then(|r| r.value.first().copied())
            .map_or(((text.flags >> 20) & 0x1f) as u32, u32::from),
        extra_records,
    })
}

/// What to compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depth {
    /// Everything: header, sections, symbols, segments, records. For
    /// ptxas 11.8 cubins, whose classic layout atomc mirrors.
    Full,
    /// The `.nv.info*` records, the text section's flags and the kernel
    /// symbol only: for ptxas 13 cubins, whose container layout differs.
    Attributes,
}

/// Attributes whose values follow from the code (its registers, EXITs,
/// stack, branches), which differ whenever the two producers compiled the
/// kernel differently.
pub const CODE_DEPENDENT_ATTRS: [u8; 7] = [
    attr::REGCOUNT,
    attr::MIN_STACK_SIZE,
    attr::FRAME_SIZE,
    attr::MAX_STACK_SIZE,
    attr::EXIT_INSTR_OFFSETS,
    0x1E, // CRS_STACK_SIZE
    0x34, // INDIRECT_BRANCH_TARGETS
];

/// Lists every difference between `ours` and `theirs` (both one-kernel
/// cubins of the same kernel) that atomc does not make on purpose. Each
/// entry reads `what: atomc X, ptxas Y`.
///
/// With `same_code` false (each producer compiled the kernel itself) the
/// values of [`CODE_DEPENDENT_ATTRS`] and the code size are not compared,
/// only the presence of those records.
pub fn diff(ours: &[u8], theirs: &[u8], depth: Depth, same_code: bool) -> Result<Vec<String>, CubinError> {
    let (a, b) = (inspect(ours)?, inspect(theirs)?);
    let mut out = Vec::new();
    let mut check = |what: String, x: String, y: String| {
        if x != y {
            out.push(format!("{what}: atomc {x}, ptxas {y}"));
        }
    };
    let name = kernel_name(&b).unwrap_or("?").to_string();
    if depth == Depth::Full {
        let (ha, hb) = (&a.header, &b.header);
        check("header".into(), format!("{ha:x?}"), format!("{hb:x?}"));
        let keep = |s: &&super::inspect::SectionSummary| !PTXAS_ONLY_SECTIONS.contains(&s.name.as_str());
        let names = |s: &CubinSummary| -> Vec<String> {
            s.sections
                .iter()
                .filter(keep)
                .filter(|x| !x.name.starts_with(".rela.text") || x.size > 0)
                .map(|x| x.name.clone())
                .collect()
        };
        check("sections".into(), names(&a).join(" "), names(&b).join(" "));
        for sb in b.sections.iter().filter(keep) {
            let Some(sa) = a.section(&sb.name) else {
                continue;
            };
            let info = |s: &CubinSummary, x: &super::inspect::SectionSummary| -> String {
                // sh_info holds a symbol index (text: plus the sm_50 register count in bits 24..),
                // a section index (per-kernel info, constant bank, shared) or a count (symtab).
                if x.name.starts_with(".text.") {
                    let sym = s.symbols.get((x.info & 0xff_ffff) as usize).map_or("?", |y| y.name.as_str());
                    if same_code {
                        format!("sym {sym} regs {}", x.info >> 24)
                    } else {
                        format!("sym {sym}")
                    }
                } else if x.name == ".symtab" {
                    let first = s.symbols.get(x.info as usize).map_or("?", |y| y.name.as_str());
                    format!("first global {first}")
                } else if x.info != 0 {
                    s.sections.get(x.info as usize - 1).map_or("?".into(), |y| y.name.clone())
                } else {
                    "0".into()
                }
            };
            let fields = |s: &CubinSummary, x: &super::inspect::SectionSummary| {
                // ptxas aligns the shared window to its most-aligned variable; atomc
                // does not know that and uses 16, enough for any access.
                let align = if x.name.starts_with(".nv.shared.") { 0 } else { x.align };
                format!(
                    "type {:#x} flags {:#x} align {} entsize {} link {:?} info {}",
                    x.sh_type,
                    x.flags,
                    align,
                    x.entsize,
                    x.link,
                    info(s, x)
                )
            };
            check(format!("section {}", sb.name), fields(&a, sa), fields(&b, sb));
            let code_sized = sb.name.starts_with(".text.");
            if !sb.name.ends_with("strtab")
                && !sb.name.starts_with(".symtab")
                && !sb.name.starts_with(".nv.info")
                && (same_code || !code_sized)
            {
                check(format!("section {} size", sb.name), format!("{:#x}", sa.size), format!("{:#x}", sb.size));
            }
        }
        let syms = |s: &CubinSummary| -> Vec<String> {
            s.symbols
                .iter()
                .filter(|y| !(is_ptxas_only_symbol(&y.name) || y.name.is_empty() && y.section.is_none()))
                .map(|y| {
                    let size = if same_code { y.size } else { 0 };
                    format!("{}:{}/{}/{:#x}/{:?}/{size:#x}", y.name, y.bind, y.kind, y.other, y.section)
                })
                .collect()
        };
        let (mut sa, mut sb) = (syms(&a), syms(&b));
        sa.sort();
        sb.sort();
        check("symbols".into(), sa.join(" "), sb.join(" "));
        let segs = |s: &CubinSummary| -> Vec<String> {
            s.segments
                .iter()
                .map(|p| {
                    let secs: Vec<&String> =
                        p.sections.iter().filter(|n| !PTXAS_ONLY_SECTIONS.contains(&n.as_str())).collect();
                    format!("{}:{:#x}:{:?}:align{}", p.p_type, p.flags, secs, p.align)
                })
                .collect()
        };
        check("segments".into(), segs(&a).join(" "), segs(&b).join(" "));
    } else {
        let text = format!(".text.{name}");
        // ptxas 13 moved the barrier count from the text flags (bits 20..24)
        // to a NUM_BARRIERS record; compare the flags without it, and the
        // count wherever each file keeps it.
        let flags =
            |s: &CubinSummary| s.section(&text).map(|t| format!("{:#x}", t.flags & !(0x1f << 20))).unwrap_or_default();
        check(format!("{text} flags"), flags(&a), flags(&b));
        let barriers = |s: &CubinSummary| {
            let from_flags = s.section(&text).map_or(0, |t| (t.flags >> 20) & 0x1f);
            // NUM_BARRIERS is a one-byte (BVAL) record.
            let record =
                s.record(&format!(".nv.info.{name}"), attr::NUM_BARRIERS).and_then(|r| r.value.first().copied());
            record.map_or(from_flags, u64::from).to_string()
        };
        check(format!("{text} barriers"), barriers(&a), barriers(&b));
        let ksym = |s: &CubinSummary| {
            s.symbol(&name)
                .map(|y| format!("{}/{}/{:#x}/{:#x}", y.bind, y.kind, y.other, if same_code { y.size } else { 0 }))
                .unwrap_or_default()
        };
        check(format!("symbol {name}"), ksym(&a), ksym(&b));
    }
    for sec in [".nv.info".to_string(), format!(".nv.info.{name}")] {
        let recs = |s: &CubinSummary, full: bool| -> Vec<String> {
            s.records(&sec)
                .iter()
                .filter(|r| !PTXAS_ONLY_ATTRS.contains(&r.attr))
                // A zero-sized CRS stack (ptxas writes one for sm_90 kernels with
                // loops) is what having no CRS_STACK_SIZE record means.
                .filter(|r| !(r.attr == 0x1E && r.as_words() == [0]))
                // CUDA 13 drops MAX_STACK_SIZE, writes its own API version, and annotates its
                // spill code (ANNOTATIONS, which ptxas 11.8 and atomc do not write).
                .filter(|r| {
                    full || ![attr::MAX_STACK_SIZE, attr::CUDA_API_VERSION, attr::ANNOTATIONS].contains(&r.attr)
                })
                .map(|r| if same_code || !CODE_DEPENDENT_ATTRS.contains(&r.attr) { s.record_text(r) } else { r.name() })
                .collect()
        };
        let full = depth == Depth::Full;
        let (mut ra, mut rb) = (recs(&a, full), recs(&b, full));
        if !full {
            // ptxas 13 orders the records differently; compare them as sets.
            ra.sort();
            rb.sort();
        }
        check(format!("{sec} records"), ra.join("; "), rb.join("; "));
    }
    Ok(out)
}

/// The instructions of an nvdisasm or cuobjdump listing of a cubin, as
/// `(offset, text)`: data lines of other sections (`.byte`, `.word`) are
/// dropped, and the branch labels nvdisasm prints in ELF mode
/// (`` BRA `(.L_x_0) ``) are replaced by their addresses (`BRA 0x120`), as
/// atomc's own listing and raw-mode nvdisasm print them.
pub fn listing_instructions(listing: &str) -> Vec<(u32, String)> {
    let mut labels: Vec<(String, u32)> = Vec::new();
    let mut pending: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for line in listing.lines() {
        let t = line.trim();
        if let Some(label) = t.strip_suffix(':').filter(|l| l.starts_with(".L_x_")) {
            pending.push(label.to_string());
            continue;
        }
        let Some(rest) = t.strip_prefix("/*") else {
            continue;
        };
        let Some(end) = rest.find("*/") else { continue };
        let Ok(offset) = u32::from_str_radix(rest[..end].trim(), 16) else {
            continue;
        };
        let mut text = &rest[end + 2..];
        if let Some(c) = text.find("/*") {
            text = &text[..c];
        }
        let text = text.trim().trim_end_matches(';').trim_end();
        if text.is_empty() || text.starts_with('.') {
            continue;
        }
        for l in pending.drain(..) {
            labels.push((l, offset));
        }
        out.push((offset, text.to_string()));
    }
    for (_, text) in &mut out {
        for (label, addr) in &labels {
            let quoted = format!("`({label})");
            if text.contains(&quoted) {
                *text = text.replace(&quoted, &format!("0x{addr:x}"));
            }
        }
    }
    out
}
