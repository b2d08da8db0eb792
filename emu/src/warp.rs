//! One warp's architectural state: per-lane general registers and predicates, the sm_90
//! uniform registers and predicates, the sm_50 condition code, and the SIMT and timing state.

use crate::simt::Simt;
use crate::timing::WarpTiming;

/// The sm_50 condition code of one lane (`.CC` writes it, `.X` reads the carry).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cc {
    /// The carry out of the low word: 0..=2, since `IADD3 R4.CC, R4, 0xd, R4` can carry 2
    /// and ptxas 11.8 adds it into the high word with one `IADD3.X` (`x + x + 13` in i64).
    pub carry: u8,
    pub zero: bool,
    pub sign: bool,
    pub overflow: bool,
}

pub struct Warp {
    /// Block index (linear) and the block's coordinates.
    pub block: usize,
    pub ctaid: [u32; 3],
    /// Warp number within its block.
    pub index: usize,
    /// Global thread index of lane 0 (for local memory and messages).
    pub first_thread: usize,
    /// Thread coordinates of each lane.
    pub tid: [[u32; 3]; 32],
    /// R0..R254 per lane: `regs[r * 32 + lane]`.
    pub regs: Vec<u32>,
    /// P0..P6, one bit per lane.
    pub preds: [u32; 7],
    pub uregs: [u32; 64],
    /// UP0..UP6, one bit each.
    pub upreds: u8,
    pub cc: [Cc; 32],
    pub simt: Simt,
    pub timing: WarpTiming,
    /// Issue cycle of the next instruction.
    pub cycle: u64,
}

impl Warp {
    pub fn reg(&self, r: u8, lane: usize) -> u32 {
        if r == 255 {
            0
        } else {
            self.regs[r as usize * 32 + lane]
        }
    }

    pub fn set_reg(&mut self, r: u8, lane: usize, v: u32) {
        if r != 255 {
            self.regs[r as usize * 32 + lane] = v;
        }
    }

    pub fn ureg(&self, r: u8) -> u32 {
        if r >= 63 {
            0
        } else {
            self.uregs[r as usize]
        }
    }

    pub fn set_ureg(&mut self, r: u8, v: u32) {
        if r < 63 {
            self.uregs[r as usize] = v;
        }
    }

    pub fn pred(&self, p: u8, lane: usize) -> bool {
        p >= 7 || self.preds[p as usize] >> lane & 1 != 0
    }

    pub fn set_pred(&mut self, p: u8, lane: usize, v: bool) {
        if p < 7 {
            let m = 1u32 << lane;
            if v {
                self.preds[p as usize] |= m;
            } else {
                self.preds[p as usize] &= !m;
            }
        }
    }

    pub fn upred(&self, p: u8) -> bool {
        p >= 7 || self.upreds >> p & 1 != 0
    }

    pub fn set_upred(&mut self, p: u8, v: bool) {
        if p < 7 {
            if v {
                self.upreds |= 1 << p;
            } else {
                self.upreds &= !(1 << p);
            }
        }
    }

    /// `block.thread` of a lane, for messages.
    pub fn thread_name(&self, lane: usize) -> String {
        let t = self.tid[lane];
        let c = self.ctaid;
        format!("block ({},{},{}) thread ({},{},{})", c[0], c[1], c[2], t[0], t[1], t[2])
    }
}
