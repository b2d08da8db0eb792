//! `shuffle` and `match_any` on sm_90.
//!
//! SHFL reads the source lane's register whether or not that lane is active (the value of an
//! inactive lane is undefined) and gives the reader its own value only when the source is out
//! of range; the IR gives the reader its own value in both cases. So the source lane `j` is
//! computed as well, and the result is the shuffled value only where bit `j` of the active
//! mask is set (a clamped shift leaves no bit for `j >= 32`):
//!
//! ```text
//! idx  y     VOTEU.ANY UR6, UPT, PT ; SHFL.IDX PT, s, x, y, 0x1f ; SHF.R.W.U32.HI t, RZ, y, UR6
//! xor  y     S2R l, SR_LANEID ; LOP3 j = l ^ y ; VOTEU ; SHFL.BFLY PT, s, x, y, 0x1f ; SHF.R.W.U32.HI t, RZ, j, UR6
//! up   y     S2R l ; IMNMX.U32 m = min(y, 32) ; IADD3 j = l - m ; VOTEU ; SHFL.UP PT, s, x, m, 0x0 ; SHF.R.U32.HI t, RZ, j, UR6
//! down y     S2R l ; IMNMX.U32 m = min(y, 32) ; IADD3 j = l + m ; VOTEU ; SHFL.DOWN PT, s, x, m, 0x1f ; SHF.R.U32.HI ...
//!            then LOP3.LUT P0, RZ, t, 0x1, RZ, 0xc0, !PT ; SEL d, s, x, P0
//! ```
//!
//! The lane operand and clamp are ptxas 13's for `shfl.sync.{idx,up,down,bfly}.b32 d|p, a, b, c`
//! with c = 0x1f (0 for up): `SHFL.IDX P0, R8, R20, R21, 0x1f`, `SHFL.UP P1, R9, R20, R21, RZ`,
//! `SHFL.DOWN P2, R10, R20, R21, 0x1f`, `SHFL.BFLY P2, R11, R20, R21, 0x1f`. SHFL reads only
//! the low 5 bits of the lane operand (PTX: `bval = b[4:0]`), so `up`/`down` amounts past the
//! warp are clamped to 32 first, which SHFL reads as 0 (the reader's own value). A 64-bit value
//! is two SHFLs of its halves with one mask test.
//!
//! `match_any x` is `MATCH.ANY d, x` (`MATCH.ANY.U64` for a pair): the hardware compares among
//! the lanes executing it, the IR's active lanes (ptxas 13: `MATCH.ANY R12, R20`).

use crate::sass::inst::{MOp, SassInst};
use crate::sass::isel::{Isel, IselError};
use crate::vcode::{RegClass, VReg};
use atomc_ir::{ShuffleMode, Value};
use atomc_sass::op;

impl Isel<'_> {
    pub(super) fn shuffle(
        &mut self,
        d: VReg,
        mode: ShuffleMode,
        x: Value,
        y: Value,
        mask: MOp,
    ) -> Result<(), IselError> {
        let (xr, yr) = (self.reg(x), self.reg(y));
        let lane = |s: &mut Self| {
            let l = s.single();
            s.emit(SassInst::new(op!(S2R), [MOp::def(l.reg(), 1), MOp::SReg(&"SR_LANEID")]));
            l
        };
        // (SHFL's lane operand, the source lane, whether the source may be out of range)
        let (b, j, clamped) = match mode {
            ShuffleMode::Idx => (yr, yr, false),
            ShuffleMode::Xor => {
                let l = lane(self);
                let j = self.single();
                self.emit(self.lop(MOp::def(j.reg(), 1), MOp::use_(l), MOp::use_(yr), MOp::rz(), 0x3c)?);
                (yr, j, false)
            }
            ShuffleMode::Up | ShuffleMode::Down => {
                let l = lane(self);
                let m = self.single();
                self.isa.minmax(self, MOp::def(m.reg(), 1), MOp::use_(yr), MOp::Imm(32), true, false);
                let j = self.single();
                let step = if mode == ShuffleMode::Up { MOp::neg(m) } else { MOp::use_(m) };
                self.emit(self.isa.add(MOp::def(j.reg(), 1), MOp::use_(l), step));
                (m, j, true)
            }
        };
        self.vote_any_into(mask, None)?;
        let (name, clamp) = match mode {
            ShuffleMode::Idx => (op!(SHFL.IDX), 0x1f),
            ShuffleMode::Up => (op!(SHFL.UP), 0),
            ShuffleMode::Down => (op!(SHFL.DOWN), 0x1f),
            ShuffleMode::Xor => (op!(SHFL.BFLY), 0x1f),
        };
        let halves: Vec<_> = if d.class() == RegClass::Pair { vec![xr.lo(), xr.hi()] } else { vec![xr.reg()] };
        let mut shuffled = Vec::new();
        for &h in &halves {
            let s = self.single();
            let ops = [MOp::pt(), MOp::def(s.reg(), 1), MOp::use_(h), MOp::use_(b), MOp::Imm(clamp)];
            self.emit(SassInst::new(name, ops));
            shuffled.push(s);
        }
        // P0: bit j of the active mask (a clamped shift: none for j >= 32; a wrapped one where
        // j is already a lane, so that only its low 5 bits count).
        let t = self.single();
        self.emit(self.isa.shr(MOp::def(t.reg(), 1), mask, MOp::use_(j), false, !clamped));
        // A predicate result: sm_70+ LOP3 only.
        let not_pt = MOp::Pred { num: 7, not: true };
        let ops = [MOp::p0(), MOp::rz(), MOp::use_(t), MOp::Imm(1), MOp::rz(), MOp::Imm(0xc0), not_pt];
        self.emit(SassInst::new(op!(LOP3.LUT), ops));
        let sel = |s: VReg, h| SassInst::new(op!(SEL), [MOp::rz(), MOp::use_(s), MOp::use_(h), MOp::p0()]);
        if let [lo, hi] = shuffled[..] {
            let (l, h) = (sel(lo, halves[0]), sel(hi, halves[1]));
            self.pair_op(d, l, h);
        } else {
            let mut s = sel(shuffled[0], halves[0]);
            s.ops[0] = MOp::def(d.reg(), 1);
            self.emit(s);
        }
        Ok(())
    }

    pub(super) fn match_any(&mut self, d: VReg, x: Value) {
        let xr = self.reg(x);
        let (name, src) =
            if self.is_pair(x) { (op!(MATCH.ANY.U64), MOp::use_pair(xr)) } else { (op!(MATCH.ANY), MOp::use_(xr)) };
        self.emit(SassInst::new(name, [MOp::def(d.reg(), 1), src]));
    }
}
