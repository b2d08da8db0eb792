//! `.nv.info` records: the attribute list the CUDA driver reads to set up a
//! launch (register count, parameter layout, EXIT offsets, ...).
//!
//! Each record is a small TLV, 4-byte aligned. Byte 0 is the format, byte 1
//! the attribute code. `NVAL` records carry nothing, `BVAL` one byte and
//! `HVAL` a u16 in bytes 2..4; `SVAL` records have a u16 payload size in
//! bytes 2..4 followed by the payload (reference notes, sass.md §5.3).

/// The record formats (byte 0 of a record).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Format {
    /// No value.
    Nval = 1,
    /// One byte in byte 2.
    Bval = 2,
    /// A u16 in bytes 2..4.
    Hval = 3,
    /// A u16 size, then that many payload bytes.
    Sval = 4,
}

impl Format {
    fn from_byte(b: u8) -> Option<Format> {
        match b {
            1 => Some(Format::Nval),
            2 => Some(Format::Bval),
            3 => Some(Format::Hval),
            4 => Some(Format::Sval),
            _ => None,
        }
    }
}

/// Attribute codes atomc writes or compares (names as cuobjdump prints them,
/// without the `EIATTR_` prefix).
pub mod attr {
    /// Three u32: the kernel's `.maxntid`.
    pub const MAX_THREADS: u8 = 0x05;
    /// Symbol of `.nv.constant0.<k>`, u16 parameter base, u16 parameter bytes.
    pub const PARAM_CBANK: u8 = 0x0A;
    /// (function symbol, bytes of per-thread local frame).
    pub const FRAME_SIZE: u8 = 0x11;
    /// (function symbol, minimum stack bytes).
    pub const MIN_STACK_SIZE: u8 = 0x12;
    /// One parameter's ordinal, offset, size and kind.
    pub const KPARAM_INFO: u8 = 0x17;
    /// u16 parameter bytes.
    pub const CBANK_PARAM_SIZE: u8 = 0x19;
    /// u16 `-maxrregcount` limit (0xFF when none).
    pub const MAXREG_COUNT: u8 = 0x1B;
    /// One byte: named barriers the kernel uses (ptxas 13 writes it for every kernel with a
    /// `BAR`, e.g. `02 4c 01 00` after MAXREG_COUNT for one `bar.sync 0`).
    pub const NUM_BARRIERS: u8 = 0x4C;
    /// u32 byte offsets of every `EXIT`.
    pub const EXIT_INSTR_OFFSETS: u8 = 0x1C;
    /// BVAL: the constant bank of bindless texture headers (ptxas 11.8 writes 0 on sm_90
    /// kernels that use a module `.surfref`).
    pub const BINDLESS_TEXTURE_BANK: u8 = 0x15;
    /// BVAL: the constant bank of surface header words (0 wherever a `.surfref` is used).
    pub const BINDLESS_SURFACE_BANK: u8 = 0x16;
    /// (function symbol, maximum stack bytes including callees).
    pub const MAX_STACK_SIZE: u8 = 0x23;
    /// A driver workaround flag ptxas 11.8 sets on every sm_50 kernel.
    pub const SW1850030_WAR: u8 = 0x2A;
    /// (function symbol, registers per thread).
    pub const REGCOUNT: u8 = 0x2F;
    /// A driver workaround flag ptxas 11.8 sets on every sm_50 kernel.
    pub const SW2393858_WAR: u8 = 0x30;
    /// u32 byte offsets of warp-wide instructions (VOTE, SHFL, ...).
    pub const INT_WARP_WIDE_INSTR_OFFSETS: u8 = 0x31;
    /// u32 CUDA version of the producer (0x76 = 11.8).
    pub const CUDA_API_VERSION: u8 = 0x37;
    /// ptxas 13's annotations of the code, e.g. `SpillRefill` (kind 1) at each `STL`/`LDL`
    /// offset of spill code: (kind, offset) word pairs. ptxas 11.8 writes none; the driver
    /// does not need them, and atomc writes none.
    pub const ANNOTATIONS: u8 = 0x55;

    /// The name cuobjdump prints for a code atomc knows, for reports.
    pub fn name(code: u8) -> Option<&'static str> {
        Some(match code {
            0x04 => "CTAIDZ_USED",
            MAX_THREADS => "MAX_THREADS",
            PARAM_CBANK => "PARAM_CBANK",
            0x10 => "REQNTID",
            FRAME_SIZE => "FRAME_SIZE",
            BINDLESS_TEXTURE_BANK => "BINDLESS_TEXTURE_BANK",
            BINDLESS_SURFACE_BANK => "BINDLESS_SURFACE_BANK",
            MIN_STACK_SIZE => "MIN_STACK_SIZE",
            KPARAM_INFO => "KPARAM_INFO",
            CBANK_PARAM_SIZE => "CBANK_PARAM_SIZE",
            MAXREG_COUNT => "MAXREG_COUNT",
            EXIT_INSTR_OFFSETS => "EXIT_INSTR_OFFSETS",
            0x1D => "S2RCTAID_INSTR_OFFSETS",
            0x1E => "CRS_STACK_SIZE",
            MAX_STACK_SIZE => "MAX_STACK_SIZE",
            0x27 => "ATOM_SYS_INSTR_OFFSETS",
            0x28 => "COOP_GROUP_INSTR_OFFSETS",
            SW1850030_WAR => "SW1850030_WAR",
            0x2E => "ATOM16_EMUL_INSTR_REG_MAP",
            REGCOUNT => "REGCOUNT",
            SW2393858_WAR => "SW2393858_WAR",
            INT_WARP_WIDE_INSTR_OFFSETS => "INT_WARP_WIDE_INSTR_OFFSETS",
            ANNOTATIONS => "ANNOTATIONS",
            0x34 => "INDIRECT_BRANCH_TARGETS",
            0x36 => "SW_WAR",
            CUDA_API_VERSION => "CUDA_API_VERSION",
            0x4C => "NUM_BARRIERS",
            0x50 => "SPARSE_MMA_MASK",
            0x66 => "LANGUAGE",
            0x6B => "NVSAL_SW_WAR",
            0x6D => "PREEXIT_USED",
            _ => return None,
        })
    }
}

/// One decoded record.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Record {
    /// The format byte.
    pub format: Format,
    /// The attribute code.
    pub attr: u8,
    /// The value: the byte (BVAL), the u16 (HVAL, little endian) or the
    /// SVAL payload; empty for NVAL.
    pub value: Vec<u8>,
}

impl Record {
    /// A record without value.
    pub fn nval(attr: u8) -> Record {
        Record { format: Format::Nval, attr, value: Vec::new() }
    }

    /// A record with a one-byte value.
    pub fn bval(attr: u8, v: u8) -> Record {
        Record { format: Format::Bval, attr, value: vec![v] }
    }

    /// A record with a u16 value.
    pub fn hval(attr: u8, v: u16) -> Record {
        Record { format: Format::Hval, attr, value: v.to_le_bytes().to_vec() }
    }

    /// A record whose payload is a list of u32.
    pub fn words(attr: u8, words: &[u32]) -> Record {
        Record { format: Format::Sval, attr, value: words.iter().flat_map(|w| w.to_le_bytes()).collect() }
    }

    /// The payload read as little-endian u32 words (a trailing partial word is dropped).
    pub fn as_words(&self) -> Vec<u32> {
        self.value.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
    }

    /// The attribute's name (`REGCOUNT`), or its code in hex.
    pub fn name(&self) -> String {
        attr::name(self.attr).map(str::to_string).unwrap_or_else(|| format!("0x{:02x}", self.attr))
    }

    /// Appends the record's bytes.
    pub fn encode(&self, out: &mut Vec<u8>) {
        out.push(self.format as u8);
        out.push(self.attr);
        match self.format {
            Format::Nval => out.extend([0, 0]),
            Format::Bval => out.extend([self.value.first().copied().unwrap_or(0), 0]),
            Format::Hval => {
                out.extend([self.value.first().copied().unwrap_or(0), self.value.get(1).copied().unwrap_or(0)])
            }
            Format::Sval => {
                // Callers build payloads of a few dozen bytes; a u16 size always fits.
                out.extend((self.value.len() as u16).to_le_bytes());
                out.extend(&self.value);
                while !out.len().is_multiple_of(4) {
                    out.push(0);
                }
            }
        }
    }
}

/// Encodes a list of records into section bytes.
pub fn encode_all(records: &[Record]) -> Vec<u8> {
    let mut out = Vec::new();
    for r in records {
        r.encode(&mut out);
    }
    out
}

/// Decodes section bytes; `None` on a truncated record or an unknown format.
pub fn decode_all(bytes: &[u8]) -> Option<Vec<Record>> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let head = bytes.get(at..at + 4)?;
        let format = Format::from_byte(head[0])?;
        let attr = head[1];
        let (value, next) = match format {
            Format::Nval => (Vec::new(), at + 4),
            Format::Bval => (vec![head[2]], at + 4),
            Format::Hval => (vec![head[2], head[3]], at + 4),
            Format::Sval => {
                let len = u16::from_le_bytes([head[2], head[3]]) as usize;
                let payload = bytes.get(at + 4..at + 4 + len)?;
                (payload.to_vec(), (at + 4 + len).next_multiple_of(4))
            }
        };
        out.push(Record { format, attr, value });
        at = next;
    }
    Some(out)
}

/// The packed KPARAM_INFO word: bits 0..7 log2 of the pointee alignment
/// (0: unknown), 8..11 the pointee space (0), 12..16 the constant bank
/// (0x1F: "the parameter bank"), bit 17 clear for a parameter in the
/// constant bank, bits 18.. the size in bytes.
pub fn kparam_word(size: u32) -> u32 {
    (size << 18) | (0x1F << 12)
}

/// A KPARAM_INFO record: index 0, then u16 ordinal, u16 offset within the
/// parameter block, then the packed word.
pub fn kparam_info(ordinal: u16, offset: u16, size: u32) -> Record {
    let mut value = Vec::with_capacity(12);
    value.extend(0u32.to_le_bytes());
    value.extend(ordinal.to_le_bytes());
    value.extend(offset.to_le_bytes());
    value.extend(kparam_word(size).to_le_bytes());
    Record { format: Format::Sval, attr: attr::KPARAM_INFO, value }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_padding() {
        let recs = vec![
            Record::words(attr::REGCOUNT, &[3, 10]),
            Record::nval(attr::SW1850030_WAR),
            Record::hval(attr::MAXREG_COUNT, 0xff),
            kparam_info(1, 8, 4),
            Record { format: Format::Sval, attr: 0x66, value: vec![1, 2, 3] },
            Record { format: Format::Bval, attr: 0x6D, value: vec![0] },
        ];
        let bytes = encode_all(&recs);
        assert_eq!(bytes.len() % 4, 0);
        assert_eq!(&bytes[..12], &[4, 0x2f, 8, 0, 3, 0, 0, 0, 10, 0, 0, 0]);
        assert_eq!(
            decode_all(&bytes).unwrap(),
            recs.iter()
                .map(|r| {
                    let mut r = r.clone();
                    if r.format == Format::Sval {
                        return r;
                    }
                    r.value.resize(
                        match r.format {
                            Format::Nval => 0,
                            Format::Bval => 1,
                            _ => 2,
                        },
                        0,
                    );
                    r
                })
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn kparam_words_match_ptxas() {
        // Values read from ptxas 11.8 cubins (sass.md §5.3).
        assert_eq!(kparam_word(4), 0x0011_F000);
        assert_eq!(kparam_word(8), 0x0021_F000);
    }

    #[test]
    fn truncated_input_is_rejected() {
        assert!(decode_all(&[4, 0x2f, 8, 0, 1, 0]).is_none());
        assert!(decode_all(&[9, 0, 0, 0]).is_none());
    }
}
