//! What the shared selector asks a SASS target: [`Isa`], implemented by [`super::sm50::Sm50`]
//! (Maxwell, folder `sm50/`) and [`super::sm90::Sm90`] (Hopper, folder `sm90/`).
//!
//! The shared selector (`alu.rs`, `memory.rs`, `divide.rs`, `aggregate.rs`, ...) decides what to
//! compute and in which registers; wherever the two instruction sets spell an operation
//! differently or need a different sequence for it, it asks the target, which builds its own
//! instructions directly. Nothing is built in one target's spelling and rewritten into another's
//! afterwards, and no shared file calls into a target's folder but through this trait. The
//! questions come in three kinds:
//!
//! - **one instruction**: the builder returns it and the caller emits it (so the pair helpers,
//!   [`Isel::pair_op`], can make it write one half of a register pair);
//! - **a sequence**: the method emits through the selector, creating the registers it needs;
//! - **a room**: a whole IR instruction whose selection shares nothing between the targets,
//!   selected in the target's folder, where the two folders have the same rooms: `bits.rs`
//!   (sm_50's bit fields from `BFE`/`BFI`, sm_90's from `PRMT`, `SGXT`, `BMSK`), `subgroup.rs`
//!   (sm_50's from `VOTE` and `SHFL`, sm_90's from `VOTEU` and `REDUX`, with `shuffle.rs` and
//!   `reduce64.rs`), `convert.rs` (integer/float and f16) and `memory.rs` (sm_50's CAS with a
//!   packed compare/swap group, sm_90's with separate ones).
//!
//! A target that cannot select something says so at the call: a `Result` whose error names the
//! operation, which the selector reports as an [`IselError`] of the IR instruction. The
//! capability tables (`caps/`, `caps_ops/`) refuse most such inputs before selection.

use super::{Isel, IselError};
use crate::sass::inst::{MOp, SassInst};
use crate::vcode::{RegForm, VReg};
use atomc_ir::{AddrSpace, BinaryOp, ConvOp, InstData, ReduceOp, Type, Value};
use atomc_sass::op::{Opcode, Tok, Toks};

/// The integer/float conversions of the division sequences (`divide.rs`, `divide64.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DivCvt {
    /// An unsigned 32-bit value to f32, rounded up.
    U32ToF32Up,
    /// An unsigned 64-bit value to f32, rounded up.
    U64ToF32Up,
    /// An f32 to an unsigned 32-bit value, flushing denormals, truncated.
    F32ToU32Trunc,
    /// An f32 to an unsigned 64-bit value, truncated.
    F32ToU64Trunc,
}

/// A SASS target's answers to the shared selector. The operands follow the selector's
/// conventions: `d` is a result field ([`MOp::def`], or `RZ` where [`Isel::pair_op`] fills in a
/// half), sources are registers, `RZ`, immediates or constant-bank words.
pub(crate) trait Isa: Sync {
    // One instruction each.

    /// `dst = src` (`dst` a result field, or a tied tuple and the half written in place). sm_50's
    /// `MOV` takes registers and constants only: an immediate is `MOV32I` (ptxas 11.8:
    /// `MOV32I R3, 0x3f800000`); sm_70+'s `MOV` takes any source.
    fn mov(&self, dst: &[MOp], src: MOp) -> SassInst;

    /// `d = a + b` on 32 bits (at most one source negated). sm_70+ adds three operands
    /// (`IADD3 d, a, b, RZ`); sm_50 two, with a separate 32-bit immediate form
    /// (`IADD`, `IADD32I`: ptxas 11.8 `IADD32I R1, R1, -0x8`).
    fn add(&self, d: MOp, a: MOp, b: MOp) -> SassInst;

    /// The low half of a 64-bit add, `d = a + b` with the carry out. sm_70+ carries through a
    /// predicate (`IADD3 d, P1, a, b, RZ`), sm_50 through its condition-code register
    /// (`IADD.CC`, `IADD32I.CC`: ptxas 11.8 `IADD32I R6.CC, R6, 0x1`), which nothing between the
    /// two halves writes (register-allocator moves are `MOV`s).
    fn add_carry_out(&self, d: MOp, a: MOp, b: MOp) -> SassInst;

    /// The high half, `d = a + b + carry` (sm_70+ `IADD3.X d, a, b, RZ, P1, !PT`; sm_50
    /// `IADD.X`, `IADD32I.X`: ptxas 11.8 `IADD.X R7, RZ, R7`).
    fn add_carry_in(&self, d: MOp, a: MOp, b: MOp) -> SassInst;

    /// `d = lut(a, b, c)`, the three-input logic op with truth table `lut`. sm_50's `LOP3.LUT`
    /// takes registers only: an and/or/xor with an immediate is `LOP32I.op`, and `~b` is
    /// `LOP32I.XOR b, 0xffffffff`, as ptxas 11.8 writes them; it refuses a constant-bank source.
    fn lop3(&self, d: MOp, a: MOp, b: MOp, c: MOp, lut: u8) -> Result<SassInst, String>;

    /// `d = x << k` on 32 bits, clamping the amount at 32 or (`wrap`) taking it modulo 32.
    /// sm_70+ funnel-shifts (`SHF.L.U32`, `SHF.L.W.U32`); sm_50 has `SHL` / `SHL.W`.
    fn shl(&self, d: MOp, x: MOp, k: MOp, wrap: bool) -> SassInst;

    /// `d = x >> k` on 32 bits, arithmetic where `signed` (sm_70+ `SHF.R.{S,U}32.HI`, sm_50
    /// `SHR`, `SHR.U32`; `wrap` as for [`Isa::shl`]).
    fn shr(&self, d: MOp, x: MOp, k: MOp, signed: bool, wrap: bool) -> SassInst;

    /// `d = a * b + c` on f64. sm_50's `DFMA` negates its second source only (ptxas 11.8:
    /// `DFMA R6, R10, -R8, c[0x2][0x0]`), so a negated first source is swapped there.
    fn dfma(&self, d: MOp, a: MOp, b: MOp, c: MOp) -> SassInst;

    /// `SHFL.UP p, d, x, delta` with the clamp of lane 0: sm_50 takes it in a register
    /// (ptxas 11.8 `SHFL.UP P0, R5, R0, 0x1, RZ`), sm_70+ as an immediate.
    fn shfl_up(&self, p: MOp, d: MOp, x: MOp, delta: MOp) -> SassInst;

    /// The opcode of a conversion of the division sequences: sm_50's `I2F`/`F2I` name both
    /// types (ptxas 11.8 `I2F.F32.U32.RP`, `F2I.FTZ.U32.F32.TRUNC`), sm_70+'s the integer one.
    fn division_cvt(&self, c: DivCvt) -> Opcode;

    /// An atomic read-modify-write at `space`: `spelled` is its op and size as
    /// `memory::atom_op` spells them (`ADD`, `MIN.S32`, `ADD.64`), `strong` its `.STRONG`
    /// qualifier, `d` the old value's field (`RZ` of its width when unread), or `None` for a
    /// global reduction (`RED`). sm_90 writes `ATOMG`/`REDG` with a predicate result; sm_50
    /// `ATOM`/`RED` without one and spells 64-bit sizes `U64`.
    #[allow(clippy::too_many_arguments)]
    fn rmw(
        &self,
        space: AddrSpace,
        spelled: Toks,
        strong: &[Tok],
        d: Option<MOp>,
        m: MOp,
        x: MOp,
        wide: bool,
    ) -> Result<SassInst, String>;

    /// A surface atomic with modifiers `mods` (`D.BA.2D.ADD.IGN`): `SUATOM` into `d`, or with
    /// `d` `None` a reduction. sm_50 spells 64-bit sizes `U64` and writes `SURED` only for the
    /// reductions ptxas 11.8 writes it for.
    fn surface_rmw(&self, mods: Toks, d: Option<MOp>, addr: MOp, data: MOp, handle: MOp, form: RegForm) -> SassInst;

    // Sequences, emitted through the selector.

    /// `r = c[0x0][offset]` for a value of type `ty` (kernel parameters, launch dimensions).
    /// sm_70+ loads with `LDC` (`LDC.64`, `LDC.U16`); sm_50 moves (`MOV R2, c[0x0][0x140]`, two
    /// for 64 bits), as ptxas 11.8 does.
    fn load_cbank(&self, s: &mut Isel<'_>, r: VReg, ty: Type, offset: u32);

    /// `dst = a * b + c` on 32 bits (`dst` one result field, or a tied pair and its half).
    /// sm_50 has no 32-bit multiplier: three `XMAD`s of 16-bit halves, as ptxas 11.8 multiplies
    /// (a power-of-two factor is a shift).
    fn imad(&self, s: &mut Isel<'_>, dst: &[MOp], a: MOp, b: MOp, c: MOp);

    /// Pair `d = a * b`, the 64-bit product of two 32-bit registers (sm_70+ `IMAD.WIDE.U32`;
    /// sm_50 ptxas 11.8's four `XMAD` partial products and `IADD3.RS`).
    fn mul_wide_u32(&self, s: &mut Isel<'_>, d: VReg, a: MOp, b: MOp);

    /// `d` = the high word of the unsigned product `a * b` (sm_70+ `IMAD.HI.U32`; sm_50 from
    /// `XMAD` partial products).
    fn mul_hi_u32(&self, s: &mut Isel<'_>, d: MOp, a: MOp, b: MOp);

    /// `d = |x|` (sm_70+ `IABS`; sm_50 `(x ^ s) - s` with `s = x >> 31`).
    fn iabs(&self, s: &mut Isel<'_>, d: MOp, x: MOp);

    /// `d = min(a, b)`, or the maximum where `max`. sm_90 spells it `VIMNMX`; sm_50's `IMNMX`
    /// immediate holds 20 bits, a wider one goes through a register.
    fn minmax(&self, s: &mut Isel<'_>, d: MOp, a: MOp, b: MOp, unsigned: bool, max: bool);

    /// `P0 = a cc b` of two 64-bit values given as halves `[lo, hi]` (`cc` `EQ`, `NE`, `LT`,
    /// `LE`, `GT` or `GE`; the low halves compare unsigned). sm_70+ chains two `ISETP`s through
    /// `.EX`; sm_50 subtracts the low halves for the carry (`IADD RZ.CC, a.lo, -b.lo`) and
    /// compares the high ones with it (`ISETP.LT.X.AND`), as ptxas 11.8 does, or for equality
    /// folds the low halves' predicate into the high halves' compare.
    fn compare64(&self, s: &mut Isel<'_>, cc: Tok, unsigned: bool, a: [MOp; 2], b: [MOp; 2]);

    /// Pair `d = p + ext(x) * scale` (`scale` the immediate as sm_70+'s `IMAD.WIDE` takes it).
    /// sm_50 has no `IMAD.WIDE`: a power of two is a shift into a pair and a 64-bit add, any
    /// other scale an `XMAD` product and the add, as ptxas 11.8 does.
    fn index_scaled(&self, s: &mut Isel<'_>, d: VReg, x: VReg, scale: i64, signed: bool, p: VReg)
        -> Result<(), String>;

    /// Pair `d` = the 64-bit parameter at `c[0x0][offset]` plus zero-extended `x << k` (`k >
    /// 0`): ptxas 13.5 `LEA R6, P0, R0, UR6, 0x3` + `LEA.HI.X ... P0`, ptxas 11.8 `LEA R8.CC,
    /// R0, c[0x0][0x148], 0x3` + `LEA.HI.X`.
    fn index_cbank(&self, s: &mut Isel<'_>, d: VReg, x: VReg, offset: u32, k: i64);

    /// Pair `d = p + sext(o)` (sm_70+ `LEA.HI.X.SX32` adds the sign word with the carry; sm_50
    /// shifts it out first).
    fn add_sext(&self, s: &mut Isel<'_>, d: VReg, p: VReg, o: VReg);

    /// Pair `d = a op amount` for a 64-bit shift (`ishl`, `ushr`, `sshr`) by a constant in
    /// 0..64: within the word a funnel shift (sm_70+ `SHF.L.U64.HI`, `SHF.R.U64`; sm_50
    /// `SHF.L.U64`, `SHF.R.U64`) and a 32-bit shift, from a word on one 32-bit shift.
    fn shift64(&self, s: &mut Isel<'_>, d: VReg, op: BinaryOp, a: VReg, amount: i64) -> Result<(), String>;

    /// Pair `d = a op k` for a 64-bit shift by a register `k` holding an amount in 0..64: a
    /// funnel shift gives the half the bits cross into, a 32-bit shift (clamping at 32) the
    /// other, as ptxas compiles `shl.b64`/`shr.u64`/`shr.s64` by a register.
    fn shift64_by(&self, s: &mut Isel<'_>, d: VReg, op: BinaryOp, a: VReg, k: VReg);

    /// Pair `d = minNum(a, b)` (`maxNum` where `max`) of two f64s. ptxas 13.5: `DSETP.MIN.AND`
    /// and `SEL`s with a quietened NaN; ptxas 11.8: `DMNMX`.
    fn fminmax64(&self, s: &mut Isel<'_>, d: VReg, a: VReg, b: VReg, max: bool);

    /// 1.0 as the addend of a `DFMA`: sm_70+ takes an immediate, sm_50 a register pair (ptxas
    /// 11.8 reads it from `c[0x2][0x0]`).
    fn f64_one(&self, s: &mut Isel<'_>) -> MOp;

    /// `v` as the second source of an `ISETP`: sm_50's immediate holds 20 bits, sign-extended;
    /// a wider value goes through a register.
    fn compare_imm(&self, s: &mut Isel<'_>, v: i64) -> MOp;

    /// `d = base + sum - x`: a lane's exclusive prefix from the inclusive `sum` of its operand
    /// `x` (warp aggregation's scan). sm_70+ adds three operands; sm_50 shuffles the inclusive
    /// sums up by one lane, as ptxas 11.8 does.
    fn scan_exclusive(&self, s: &mut Isel<'_>, d: VReg, base: VReg, sum: VReg, x: VReg);

    /// The mask of the lanes active here (warp aggregation's leader and count, the masks of the
    /// `WARPSYNC`s of `subgroup_sync`), as a 32-bit source; in a register where `in_register`.
    /// sm_90 votes into the uniform register of [`crate::sass::target::WarpAggregation`]
    /// (`VOTEU.ANY UR6, UPT, PT`, as ptxas 13 writes `activemask`) and moves it out of there
    /// (`MOV R, UR6`) for a register; sm_50 votes into a register (ptxas 11.8 `VOTE.ANY R4, PT,
    /// PT`).
    fn active_lanes(&self, s: &mut Isel<'_>, in_register: bool) -> Result<MOp, IselError>;

    /// `op` of `x` over the active lanes in one instruction, into a fresh register (the operand
    /// of an aggregated atomic whose result is unused): sm_90 reduces into the uniform register
    /// of [`crate::sass::target::WarpAggregation`] and moves it out (ptxas 13 `REDUX.MIN.S32
    /// UR10, R0` + `IMAD.U32 R7, RZ, RZ, UR10`). Asked only of a target with `WarpAggregation`:
    /// sm_50 has no such instruction and refuses.
    fn reduce_lanes(&self, s: &mut Isel<'_>, op: ReduceOp, x: VReg) -> Result<VReg, String>;

    /// The IR's `barrier`: `BAR.SYNC.DEFER_BLOCKING 0x0` on sm_90; on sm_50 `BAR.SYNC 0x0` and
    /// `MEMBAR.CTA`, as ptxas 11.8 writes `bar.sync`, so shared-memory writes before the
    /// barrier are visible to loads after it.
    fn barrier(&self, s: &mut Isel<'_>);

    /// The handle operand of a bound surface slot whose header word is at `c[0x0][word]`: sm_50
    /// names the word by index in the instruction (ptxas 11.8 `SURED.D.BA.2D.ADD.TRAP [R2], R0,
    /// 0x53`); sm_90 loads it and uses it as a bindless handle.
    fn surface_slot(&self, s: &mut Isel<'_>, word: u32) -> MOp;

    // Rooms: whole IR instructions.

    /// Bit counts (`popcnt`, `clz`, `ctz`, `bitrev`), bit fields (`ubfe`, `sbfe`, `bfi`),
    /// multiply-high and `fma`.
    fn bits(&self, s: &mut Isel<'_>, d: VReg, data: &InstData) -> Result<(), IselError>;

    /// Subgroup instructions (`active_mask`, `ballot`, `vote`, `shuffle`, `match_any`,
    /// `reduce`).
    fn subgroup(&self, s: &mut Isel<'_>, d: VReg, data: &InstData) -> Result<(), IselError>;

    /// An integer/float conversion (`fcvt_*`) of `r`, a `from`, to `to`.
    #[allow(clippy::too_many_arguments)]
    fn int_float(&self, s: &mut Isel<'_>, d: VReg, op: ConvOp, from: Type, to: Type, r: VReg) -> Result<(), IselError>;

    /// `d = a op b` on f16 (`fadd`, `fsub`, `fmul`, `fmin`, `fmax`).
    fn f16_arith(&self, s: &mut Isel<'_>, d: VReg, op: BinaryOp, a: VReg, b: VReg) -> Result<(), IselError>;

    /// `d` = the f16 `r` widened to f32 or f64, or the f32 or f64 `r` rounded to f16.
    fn f16_convert(&self, s: &mut Isel<'_>, d: VReg, from: Type, to: Type, r: VReg) -> Result<(), IselError>;

    /// `ptr_to_generic` of a shared pointer.
    fn shared_to_generic(&self, s: &mut Isel<'_>, d: VReg, ptr: Value) -> Result<(), IselError>;

    /// `atomic_cas`.
    fn atomic_cas(&self, s: &mut Isel<'_>, data: &InstData) -> Result<(), IselError>;

    /// A load, store or atomic through a generic pointer, where the target has no generic
    /// addressing for it; `false` leaves it to the shared selection (`LD.E`, `ATOM.E`).
    fn generic_access(&self, s: &mut Isel<'_>, data: &InstData) -> Result<bool, IselError>;
}
