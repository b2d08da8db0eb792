//! A kernel read out of a cubin: its architecture, decoded code, parameter layout, static
//! shared size and constant banks.
//!
//! Facts of the launch contract (constant bank 0), from the code ptxas writes:
//! * sm_90 (ptxas 13.5): `LDC R1, c[0x0][0x28]` loads the stack pointer first thing,
//!   `ULDC UR5, c[0x0][0x0]` / `LDC R7, c[0x0][0x4]` read ntid.x / ntid.y, `c[0x0][0xc]`
//!   nctaid.x, `ULDC.64 UR4, c[0x0][0x208]` the global memory descriptor, parameters from
//!   `c[0x0][0x210]`.
//! * sm_50 (ptxas 11.8): `MOV R1, c[0x0][0x20]` the stack pointer, ntid.x/y/z at 0x8/0xc/0x10,
//!   nctaid at 0x14.., parameters from `c[0x0][0x140]`; `MOV R2, c[0x0][0x0]` then
//!   `LOP32I.OR R2, R2, 0x8` forms the generic address of shared byte 8 (the shared window's
//!   generic base is the word at 0x0, and `LOP32I.AND R2, R2, 0xffffff` turns a generic shared
//!   address back into a shared one: a 16 MiB window).

use crate::EmuError;
use atomc_emit::cubin::inspect::{inspect, CubinSummary};
use atomc_emit::cubin::nvinfo::attr;
use atomc_emit::sass::hazard::{self, Slot};
use atomc_emit::sass::{self, Arch};
use std::collections::HashMap;

/// The two targets (the workspace's one SM type; `param_base` is the cubin's).
pub use atomc_emit::sass::Sm;

/// Bytes sm_90 reserves at the start of a block's shared memory (ptxas addresses user shared
/// data from 0x400 and sizes `.nv.shared.<k>` as 0x400 + user bytes).
pub const SM90_SHARED_RESERVED: u32 = 0x400;
/// The generic address of the shared window on sm_50 (the word at c[0x0][0x0]); 16 MiB
/// aligned, far from every global buffer.
pub const SM50_SHARED_WINDOW: u32 = 0x0100_0000;
/// `SR_SWINHI` on sm_90: the high word of the shared window's generic addresses (the reference
/// interpreter's `SHARED_WINDOW_BASE`).
pub const SM90_SWINHI: u32 = 0xffff_0000;
/// Per-thread local memory, and the stack pointer's initial value (the stack grows down).
pub const LOCAL_BYTES: u32 = 0x4000;

/// One parameter: byte offset within the parameter block and size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamSlot {
    pub offset: u32,
    pub size: u32,
}

/// A loaded kernel.
pub struct Kernel {
    pub(crate) sm: Sm,
    pub(crate) arch: &'static Arch,
    pub(crate) name: String,
    pub(crate) slots: Vec<Slot>,
    /// The code, for naming a word that does not decode.
    pub(crate) text: Vec<u8>,
    /// Instruction address → slot index.
    pub(crate) index: HashMap<u64, usize>,
    pub(crate) params: Vec<ParamSlot>,
    /// `.nv.shared.<k>`'s size (on sm_90 the reserved 0x400 bytes included).
    pub(crate) static_shared: u32,
    /// Constant banks from the cubin (`.nv.constant<N>.<k>`), bank 0 without the launch's
    /// values yet.
    pub(crate) banks: HashMap<u8, Vec<u8>>,
    /// Bound surface references: (symbol, constant-bank-0 byte offset of the header word the
    /// driver fills), from the `R_CUDA_SURF_HEADER_INDEX` relocations of `.nv.constant0.<k>`.
    pub(crate) surface_refs: Vec<(String, u32)>,
}

impl Kernel {
    /// The instruction word at `addr` (sm_50: the 64-bit word, without its bundle's control).
    pub(crate) fn word_at(&self, addr: u64) -> u128 {
        let wb = self.arch.word_bytes;
        let mut x = [0u8; 16];
        if let Some(b) = self.text.get(addr as usize..addr as usize + wb) {
            x[..wb].copy_from_slice(b);
        }
        u128::from_le_bytes(x)
    }
}

fn err(s: impl Into<String>) -> EmuError {
    EmuError::Cubin(s.into())
}

fn arch_of(s: &CubinSummary) -> Result<Sm, EmuError> {
    let f = s.header.e_flags;
    // The classic layout keeps the SM number in bits 0..7, the CUDA 13 one in bits 8..15.
    for v in [f & 0xff, (f >> 8) & 0xff] {
        match v {
            50 => return Ok(Sm::Sm50),
            90 => return Ok(Sm::Sm90),
            _ => {}
        }
    }
    Err(err(format!("e_flags {f:#x}: neither sm_50 nor sm_90")))
}

fn section_bytes<'a>(data: &'a [u8], s: &CubinSummary, name: &str) -> Option<&'a [u8]> {
    let sec = s.section(name)?;
    if sec.sh_type == 8 {
        // NOBITS: zeros.
        return Some(&[]);
    }
    data.get(sec.offset as usize..(sec.offset.checked_add(sec.size)?) as usize)
}

impl Kernel {
    /// Reads kernel `name` out of `cubin`.
    pub fn load(cubin: &[u8], name: &str) -> Result<Kernel, EmuError> {
        let s = inspect(cubin).map_err(|e| err(e.to_string()))?;
        let sm = arch_of(&s)?;
        let arch = match sm {
            Sm::Sm90 => sass::sm90(),
            Sm::Sm50 => sass::sm50(),
        };
        let text = section_bytes(cubin, &s, &format!(".text.{name}"))
            .ok_or_else(|| err(format!("no code section .text.{name}")))?;
        let mut slots = hazard::decode_lenient(arch, text);
        if sm == Sm::Sm50 {
            normalize_ssy(arch, text, &mut slots);
        }
        let index = slots.iter().enumerate().map(|(i, s)| (s.addr, i)).collect();
        let mut params: Vec<(u32, ParamSlot)> = s
            .records(&format!(".nv.info.{name}"))
            .iter()
            .filter(|r| r.attr == attr::KPARAM_INFO)
            .filter_map(|r| {
                let w = r.as_words();
                (w.len() >= 3).then(|| {
                    (
                        w[1] & 0xffff,
                        ParamSlot {
                            offset: w[1] >> 16,
                            size: w[2] >> 18,
                        },
                    )
                })
            })
            .collect();
        params.sort_by_key(|(o, _)| *o);
        let static_shared = s
            .section(&format!(".nv.shared.{name}"))
            .map_or(0, |sec| sec.size.min(u32::MAX as u64) as u32);
        let mut banks = HashMap::new();
        let suffix = format!(".{name}");
        for sec in &s.sections {
            let Some(rest) = sec.name.strip_prefix(".nv.constant") else {
                continue;
            };
            let Some(num) = rest.strip_suffix(suffix.as_str()) else {
                continue;
            };
            let Ok(bank) = num.parse::<u8>() else { continue };
            let mut bytes = section_bytes(cubin, &s, &sec.name).unwrap_or(&[]).to_vec();
            bytes.resize((sec.size as usize).min(0x10000), 0);
            banks.insert(bank, bytes);
        }
        let surface_refs = atomc_emit::cubin::read_surface_refs(cubin, &s, name);
        Ok(Kernel {
            sm,
            arch,
            surface_refs,
            name: name.to_string(),
            slots,
            text: text.to_vec(),
            index,
            params: params.into_iter().map(|(_, p)| p).collect(),
            static_shared,
            banks,
        })
    }

    /// The bound surface references: (symbol, constant-bank-0 byte offset of its header word).
    pub fn surface_refs(&self) -> &[(String, u32)] {
        &self.surface_refs
    }

    /// The parameters' offsets and sizes, in order.
    pub fn params(&self) -> &[ParamSlot] {
        &self.params
    }

    /// The words of the code the form table cannot decode, `(address, word)` (sm_50: without
    /// the bundle's control); running one is an [`EmuError::Decode`].
    pub fn undecodable(&self) -> Vec<(u64, u128)> {
        self.slots.iter().filter(|s| s.instr.is_none()).map(|s| (s.addr, self.word_at(s.addr))).collect()
    }

    /// The nvdisasm text of the instruction in slot `i` (or a note for an undecodable word).
    pub(crate) fn text(&self, i: usize) -> String {
        match self
            .slots
            .get(i)
            .and_then(|s| s.instr.as_ref().map(|ins| (s.addr, ins)))
        {
            Some((addr, ins)) => self.arch.print_at(ins, addr),
            None => "<undecodable word>".to_string(),
        }
    }

    /// The address of slot `i`.
    pub(crate) fn addr(&self, i: usize) -> u64 {
        self.slots.get(i).map_or(0, |s| s.addr)
    }

    /// The slot a branch from slot `i` with relative offset `off` lands on. ptxas 11.8 aims a
    /// branch at the first instruction of a bundle at the bundle's control word, so the
    /// address one word on is tried too.
    /// The slot at byte address `a` (for sm_50, also the instruction one word on).
    pub(crate) fn slot_at(&self, a: u64) -> Option<usize> {
        let wb = self.arch.word_bytes as u64;
        self.index.get(&a).or_else(|| self.index.get(&(a + wb))).copied()
    }

    pub(crate) fn branch_target(&self, i: usize, off: i64) -> Option<usize> {
        let wb = self.arch.word_bytes as i64;
        let t = self.addr(i) as i64 + wb + off;
        if t < 0 {
            return None;
        }
        let t = t as u64;
        self.index.get(&t).or_else(|| self.index.get(&(t + wb as u64))).copied()
    }

    /// Constant bank 0 for a launch: the cubin's bank with the driver area and the parameters
    /// filled in.
    pub(crate) fn bank0(&self, grid: [u32; 3], block: [u32; 3], params: &[u8]) -> Vec<u8> {
        let mut b = self.banks.get(&0).cloned().unwrap_or_default();
        let base = self.sm.param_base() as usize;
        let need = (base + params.len()).max(base + 0x100);
        if b.len() < need {
            b.resize(need, 0);
        }
        let put = |b: &mut Vec<u8>, off: usize, v: u32| b[off..off + 4].copy_from_slice(&v.to_le_bytes());
        let (ntid, nctaid, sp) = match self.sm {
            Sm::Sm90 => (0x0, 0xc, 0x28),
            Sm::Sm50 => (0x8, 0x14, 0x20),
        };
        for d in 0..3 {
            put(&mut b, ntid + 4 * d, block[d]);
            put(&mut b, nctaid + 4 * d, grid[d]);
        }
        put(&mut b, sp, LOCAL_BYTES);
        if self.sm == Sm::Sm50 {
            put(&mut b, 0, SM50_SHARED_WINDOW);
        }
        b[base..base + params.len()].copy_from_slice(params);
        b
    }
}

/// ptxas 11.8 writes `SSY`/`PBK` with bits 0..19 (the condition-code test and the guard) clear,
/// which nvdisasm prints as a plain `SSY target` (the hardware ignores both there); the form
/// table knows these instructions with the test `T` and guard `PT`, as atomc writes them. Such
/// words are decoded with those 20 bits set to the table's values.
fn normalize_ssy(arch: &Arch, text: &[u8], slots: &mut [Slot]) {
    for s in slots.iter_mut().filter(|s| s.instr.is_none()) {
        let at = s.addr as usize;
        let Some(w) = text
            .get(at..at + 8)
            .and_then(|b| <[u8; 8]>::try_from(b).ok())
            .map(u64::from_le_bytes)
        else {
            continue;
        };
        if matches!(w >> 44, 0xe2900 | 0xe2a00) && w & 0xf_ffff == 0 {
            if let Ok(mut ins) = arch.decode_word((w | 0x7_000f) as u128) {
                ins.sched = s.sched;
                s.instr = Some(ins);
            }
        }
    }
}
