//! What differs between the SASS targets, as data for the selector.

use crate::sass::inst::{MOp, SassInst};
use crate::vcode::{HwReg, Reg, FRAME_REG};
use atomc_ir::{MemOrder, Scope};
use atomc_sass::op::{Opcode, Tok};
use atomc_sass::{op, toks};

/// One SASS target.
#[derive(Debug)]
pub struct SassTarget {
    /// Command-line name.
    pub name: &'static str,
    /// The architecture, which picks the selector's per-target rules (`isel::Isa`).
    pub sm: atomc_sass::Sm,
    /// Constant-bank offset of the first kernel parameter (reference §3.5).
    pub param_base: u32,
    /// Constant-bank offsets of ntid.x/y/z and nctaid.x/y/z.
    pub ntid: [u32; 3],
    /// See `ntid`.
    pub nctaid: [u32; 3],
    /// Whether memory instructions take a `.STRONG.<scope>` qualifier
    /// (sm_70+); Maxwell has none and relies on MEMBAR alone.
    pub strong_qualifiers: bool,
    /// Where user shared memory starts in the block's shared window, if not at 0.
    pub shared_window: Option<SharedWindow>,
    /// The form table every selected instruction is resolved against.
    pub arch: fn() -> &'static atomc_sass::Arch,
    /// Warp aggregation of atomics with a uniform address and operand, where the target has the
    /// warp-wide vote it needs (`isel::aggregate`).
    pub warp_aggregation: Option<WarpAggregation>,
    /// Warp aggregation with the vote in a vector register (`VOTE.ANY R, PT, PT`), where the
    /// target has no uniform registers: sm_50, as ptxas 11.8 aggregates (`VOTE.ANY R0, PT, PT ;
    /// FLO.U32 ; POPC ; @P0 ATOM.E.ADD ; LOP.AND` of `SR_LTMASK` ; `POPC ; SHFL.IDX ; IADD`).
    /// No `REDUX` there: only adds, and idempotent ops of a uniform operand, are aggregated.
    pub vector_aggregation: bool,
    /// Lanes that left loops apart are brought together with `WARPSYNC mask` before a subgroup
    /// instruction ([`crate::subgroup_sync`]): Volta and later, whose convergence barriers give
    /// way to yielding paths. Maxwell's `SYNC` does not, so lanes meet at the loop's join.
    pub warpsync_subgroups: bool,
}

/// ptxas's aggregation of an atomic whose address and operand are the same in every active
/// lane (ptxas 13 for `counter_red`/`counter_slot`: `VOTEU.ANY UR4, UPT, PT`, `FLO.U32` /
/// `UFLO.U32` of it for a leader lane, `POPC` for the count, one `@P0 REDG`/`ATOMG` by the
/// leader, and `SHFL.IDX` of its result plus the lane's rank among the active lanes below it).
#[derive(Debug)]
pub struct WarpAggregation {
    /// The uniform register that receives the active mask; not used by anything else
    /// (the shared window keeps UR4 and UR5).
    pub mask_ureg: u8,
    /// The uniform register that receives a `REDUX` of the lanes' operands.
    pub sum_ureg: u8,
}

/// The sm_80+ shared window: the first bytes of a block's shared memory are reserved for the
/// runtime, and (sm_90) the window of a CTA within its cluster is selected by `SR_CgaCtaId` in
/// bits 24 and up. ptxas 13.5 computes the base once per kernel,
/// `S2UR UR5, SR_CgaCtaId ; UMOV UR4, 0x400 ; ULEA UR4, UR5, UR4, 0x18`, and addresses user
/// shared memory as `[Rx+UR4]` (ptxas 11.8: the same with `UPRMT UR4, UR5, 0x654, UR4`); its
/// cubins size `.nv.shared.<k>` 0x400 for a kernel with only dynamic shared memory.
#[derive(Debug)]
pub struct SharedWindow {
    /// Bytes reserved at the start of the window.
    pub reserved: u32,
    /// The uniform register holding the base for the whole kernel.
    pub base_ureg: u8,
    /// A uniform register the prologue may clobber.
    pub scratch_ureg: u8,
}

/// Hopper.
pub static SM90: SassTarget = SassTarget {
    name: "sm_90",
    sm: atomc_sass::Sm::Sm90,
    param_base: 0x210,
    ntid: [0x0, 0x4, 0x8],
    nctaid: [0xc, 0x10, 0x14],
    strong_qualifiers: true,
    shared_window: Some(SharedWindow { reserved: 0x400, base_ureg: 4, scratch_ureg: 5 }),
    arch: atomc_sass::sm90,
    warp_aggregation: Some(WarpAggregation { mask_ureg: 6, sum_ureg: 7 }),
    vector_aggregation: false,
    warpsync_subgroups: true,
};

/// Maxwell.
pub static SM50: SassTarget = SassTarget {
    name: "sm_50",
    sm: atomc_sass::Sm::Sm50,
    param_base: 0x140,
    ntid: [0x8, 0xc, 0x10],
    nctaid: [0x14, 0x18, 0x1c],
    strong_qualifiers: false,
    // ptxas 11.8 addresses sm_50 shared memory from 0 (`ATOMS.ADD RZ, [R0], R5` with R0 the
    // thread's byte offset) and sizes `.nv.shared.<k>` 0 for dynamic shared memory only.
    shared_window: None,
    arch: atomc_sass::sm50,
    warp_aggregation: None,
    vector_aggregation: true,
    warpsync_subgroups: false,
};

impl SassTarget {
    /// The frame set-up of a kernel that spills to local memory, as ptxas writes it: the
    /// driver's stack pointer into the frame register `R1`, less the frame's `bytes`
    /// (sm_90: `LDC R1, c[0x0][0x28]` + `IADD3 R1, R1, -frame, RZ`; sm_50:
    /// `MOV R1, c[0x0][0x20]` + `IADD32I R1, R1, -frame`). Spill slots are then `[R1+offset]`.
    pub fn frame_prologue(&self, bytes: u32) -> Vec<SassInst> {
        let r1 = || Reg::Hw(HwReg::new(FRAME_REG).expect("R1"));
        let neg = -i64::from(bytes);
        if self.strong_qualifiers {
            vec![
                SassInst::new(op!(LDC), [MOp::def(r1(), 1), MOp::CBank(0x28)]),
                SassInst::new(op!(IADD3), [MOp::def(r1(), 1), MOp::use_(r1()), MOp::Imm(neg), MOp::rz()]),
            ]
        } else {
            vec![
                SassInst::new(op!(MOV), [MOp::def(r1(), 1), MOp::CBank(0x20)]),
                SassInst::new(op!(IADD32I), [MOp::def(r1(), 1), MOp::use_(r1()), MOp::Imm(neg)]),
            ]
        }
    }

    /// The `.STRONG.<scope>` suffix of a relaxed atomic at `scope` (ptxas 13:
    /// relaxed.cta → STRONG.SM, .gpu → STRONG.GPU, .sys → STRONG.SYS;
    /// reference §3.3). Empty on Maxwell.
    pub fn strong(&self, scope: Scope) -> &'static [Tok] {
        if !self.strong_qualifiers {
            return &[];
        }
        match scope {
            Scope::Cta => &toks!(STRONG.SM),
            Scope::Gpu => &toks!(STRONG.GPU),
            Scope::Sys => &toks!(STRONG.SYS),
        }
    }

    /// The instructions that realise an IR `fence order scope`.
    pub fn fence(&self, order: MemOrder, scope: Scope) -> Vec<Opcode> {
        let membar_all = match (self.strong_qualifiers, scope) {
            (true, Scope::Cta) => op!(MEMBAR.ALL.CTA),
            (true, Scope::Gpu) => op!(MEMBAR.ALL.GPU),
            (true, Scope::Sys) => op!(MEMBAR.ALL.SYS),
            (false, Scope::Cta) => op!(MEMBAR.CTA),
            // As ptxas 11.8 writes `membar.gl` / `membar.sys` for sm_50: with an L1
            // invalidation, so later plain loads do not see stale lines.
            (false, Scope::Gpu) => op!(MEMBAR.GL.IVALLD),
            (false, Scope::Sys) => op!(MEMBAR.SYS.IVALLD),
        };
        let membar_sc = match (self.strong_qualifiers, scope) {
            (true, Scope::Cta) => op!(MEMBAR.SC.CTA),
            (true, Scope::Gpu) => op!(MEMBAR.SC.GPU),
            (true, Scope::Sys) => op!(MEMBAR.SC.SYS),
            _ => membar_all,
        };
        if !self.strong_qualifiers {
            // Maxwell's caches are coherent for atomics; MEMBAR orders everything.
            return vec![membar_all];
        }
        // Hopper, as ptxas 13 does it (reference §3.3): a release is
        // MEMBAR.ALL + ERRBAR; an acquire invalidates L1 after the access.
        match order {
            MemOrder::Relaxed => vec![],
            MemOrder::Acquire => vec![op!(CCTL.IVALL)],
            MemOrder::Release => vec![membar_all, op!(ERRBAR)],
            MemOrder::AcqRel => vec![membar_all, op!(ERRBAR), op!(CCTL.IVALL)],
            MemOrder::SeqCst => vec![membar_sc, op!(ERRBAR), op!(CCTL.IVALL)],
        }
    }
}
