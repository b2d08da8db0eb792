//! Stream-level encoding for architectures whose schedule fields live in a control word per
//! bundle ([`SchedLayout::Bundle`], sm_50).
//!
//! A Maxwell bundle is 32 bytes: one 64-bit control word, then three 64-bit instructions. The
//! control word holds the three instructions' 21-bit schedule groups at bits 0, 21 and 42
//! (bit 63 unused). Instructions therefore sit at byte offsets 0x08, 0x10, 0x18, 0x28, ...;
//! branch offsets and nvdisasm's addresses use those offsets, so every address in this module
//! goes through [`Arch::instr_addr`].

use super::form::SchedLayout;
use super::instr::{Instr, Pred, Sched};
use super::{Arch, DecodeError, EncodeError};
use smallvec::SmallVec;

impl Arch {
    /// Byte address of the `i`-th instruction of a code section (control words skipped).
    pub fn instr_addr(&self, i: usize) -> u64 {
        match self.sched {
            SchedLayout::InWord { .. } => (i * self.word_bytes) as u64,
            SchedLayout::Bundle { per_bundle, .. } => {
                let per = per_bundle as usize;
                ((i / per) * (per + 1) * self.word_bytes + (1 + i % per) * self.word_bytes) as u64
            }
        }
    }

    /// The address a branch to the `i`-th instruction names. ptxas 11.8 aims a branch at the
    /// first instruction of a bundle at the bundle itself (its control word, e.g. `BRA 0x320`
    /// for the instruction at 0x328) and any other instruction at its own address.
    pub fn branch_addr(&self, i: usize) -> u64 {
        match self.sched {
            SchedLayout::Bundle { per_bundle, .. } if i.is_multiple_of(per_bundle as usize) => {
                self.instr_addr(i) - self.word_bytes as u64
            }
            _ => self.instr_addr(i),
        }
    }

    /// Whether `n` instructions end the code on a boundary the architecture wants: 128 bytes
    /// for in-word schedules (as ptxas pads), a whole bundle for bundled ones.
    pub fn is_padded(&self, n: usize) -> bool {
        match self.sched {
            SchedLayout::InWord { .. } => (n * self.word_bytes).is_multiple_of(128),
            SchedLayout::Bundle { per_bundle, .. } => n.is_multiple_of(per_bundle as usize),
        }
    }

    /// The padding instruction of a bundled stream (`NOP`, schedule: stall 0, no scoreboards).
    fn bundle_nop(&self) -> Result<Instr, EncodeError> {
        let (form, _) =
            self.form_by_key("NOP").ok_or(EncodeError::Unsupported { form: "NOP", what: "padding NOP form" })?;
        let sched = Sched { stall: 0, ..Sched::default() };
        Ok(Instr { form, guard: Pred::PT, mods: SmallVec::new(), ops: SmallVec::new(), sched })
    }

    /// Encodes instructions into bundles; a last partial bundle is filled with `NOP`s.
    pub fn encode_bundles(&self, code: &[Instr]) -> Result<Vec<u8>, EncodeError> {
        let SchedLayout::Bundle { per_bundle, slot_bits } = self.sched else {
            return self.encode_all(code);
        };
        let per = per_bundle as usize;
        let nop = if !code.len().is_multiple_of(per) { Some(self.bundle_nop()?) } else { None };
        let mut out = Vec::with_capacity((code.len() / per + 1) * (per + 1) * self.word_bytes);
        for chunk in code.chunks(per) {
            let mut ctrl: u64 = 0;
            let mut words = Vec::with_capacity(per);
            for k in 0..per {
                let ins = chunk.get(k).or(nop.as_ref()).expect("padding exists for partial bundles");
                let s = &ins.sched;
                if s.stall > 15 || s.wr_sb > 7 || s.rd_sb > 7 || s.wait > 0x3f || s.reuse > 0xf {
                    let key = self.forms.get(ins.form as usize).map(|f| f.key).unwrap_or("?");
                    return Err(EncodeError::OutOfRange { form: key, what: "schedule", value: s.to_bits() as i64 });
                }
                ctrl |= (s.to_bits() as u64) << (k as u32 * slot_bits as u32);
                words.push(self.encode_word(ins)?);
            }
            out.extend_from_slice(&ctrl.to_le_bytes()[..self.word_bytes]);
            for w in words {
                out.extend_from_slice(&w.to_le_bytes()[..self.word_bytes]);
            }
        }
        Ok(out)
    }

    /// Decodes whole bundles; every instruction gets its schedule group from the control word.
    /// The error carries the byte offset of the failing word.
    pub fn decode_bundles(&self, bytes: &[u8]) -> Result<Vec<Instr>, (usize, DecodeError)> {
        let SchedLayout::Bundle { per_bundle, slot_bits } = self.sched else {
            return self.decode_all(bytes);
        };
        let per = per_bundle as usize;
        let wb = self.word_bytes;
        let bundle = (per + 1) * wb;
        if !bytes.len().is_multiple_of(bundle) {
            return Err((bytes.len() - bytes.len() % bundle, DecodeError::Truncated { len: bytes.len() % bundle }));
        }
        let word = |b: &[u8]| {
            let mut x = [0u8; 16];
            x[..wb].copy_from_slice(&b[..wb]);
            u128::from_le_bytes(x)
        };
        let mask = (1u64 << slot_bits) - 1;
        let mut out = Vec::with_capacity(bytes.len() / bundle * per);
        for (bi, chunk) in bytes.chunks(bundle).enumerate() {
            let ctrl = word(chunk) as u64;
            for k in 0..per {
                let at = (k + 1) * wb;
                let mut ins = self.decode_word(word(&chunk[at..])).map_err(|e| (bi * bundle + at, e))?;
                ins.sched = Sched::from_bits(((ctrl >> (k as u32 * slot_bits as u32)) & mask) as u32);
                out.push(ins);
            }
        }
        Ok(out)
    }
}
