//! The facts of every sm_90 mnemonic family ([`crate::facts::Facts`]), one constant per
//! family, named like its mnemonic: operand roles, register widths, effects, and the timing
//! classes ptxas 13.5's schedules obey (sass-timing facts: the smallest producer→reader
//! distance seen per class pair, which is also what NVIDIA's published Ampere tables give).
//! Each form declaration in this table names its family's constant (`.facts(facts::IMAD)`);
//! a form without facts stops the build.

use crate::builder::{
    ATOMIC, BARRIER, COMPARE, ONE, PRED_THEN_REG, SHARED_ATOMIC, SHARED_STORE, STORE, SURFACE_ATOMIC, SURFACE_STORE,
    VARIABLE,
};
use crate::facts::*;

const P: Facts = Facts::PLAIN;

/// Integer/logic ALU timing.
const ALU: Facts = Facts { pipe: Pipe::Alu, ..P };
/// FMA-pipe timing.
const FMA: Facts = Facts { pipe: Pipe::Fma, ..P };
/// FP64-pipe timing (`DADD`, `DMUL`, `DFMA`): pairs of data.
const FP64: Facts = Facts { pipe: Pipe::Fp64, fp64: true, ..P };
/// The uniform datapath.
const UNIFORM: Facts = Facts { pipe: Pipe::Uniform, ..P };

/// sm_90's generic `ATOM` says in its predicate whether the atomic unit took the address
/// (the local window falls back to a load and store), and ptxas 13.5 branches on it
/// without a wait: `ATOM.E.MAX.S64.STRONG.GPU P0, RZ, ..` (no scoreboard) and
/// `ATOM.E.EXCH.64.. P0, R4, ..` (SB5) each followed by `@P0 BRA` before any wait
/// (atomc's filetests `generic-window-sm50` and `compile/sm50/generic`).
pub(super) const ATOM: Facts = Facts { predicate_at_issue: true, reads_sources_first: true, ..ATOMIC };

pub(super) const ATOMG: Facts = ATOMIC;

/// Shared-memory atomics complete in order with shared loads (see `LDS`).
pub(super) const ATOMS: Facts = Facts { reads_sources_first: true, ..SHARED_ATOMIC };

/// ptxas 13.5 issues `SURED [R2]` 4 cycles after the `SHF` that wrote R2 (the surface reader).
pub(super) const SUATOM: Facts = SURFACE_ATOMIC;

pub(super) const SURED: Facts = SURFACE_STORE;

pub(super) const REDG: Facts = STORE;
pub(super) const ST: Facts = STORE;
pub(super) const STG: Facts = STORE;
pub(super) const STL: Facts = STORE;
pub(super) const NOP: Facts = STORE;
pub(super) const YIELD: Facts = STORE;

pub(super) const STS: Facts = SHARED_STORE;

pub(super) const BAR: Facts = Facts { listed: Listed::Barrier, ..BARRIER };
pub(super) const BSSY: Facts = BARRIER;
pub(super) const BSYNC: Facts = BARRIER;
pub(super) const CALL: Facts = BARRIER;
pub(super) const CCTL: Facts = BARRIER;
pub(super) const CGAERRBAR: Facts = BARRIER;
pub(super) const ERRBAR: Facts = BARRIER;
/// A fence: ptxas 13.5 writes `fence.acq_rel.gpu` as `MEMBAR.ALL.GPU; ERRBAR; CGAERRBAR;
/// CCTL.IVALL`, `membar.gl` as `MEMBAR.SC.GPU` and the same three, `st.release.gpu` as
/// `MEMBAR.ALL.GPU; ERRBAR; CGAERRBAR; STG.E.STRONG.GPU`, `fence.acq_rel.cta` as
/// `MEMBAR.ALL.CTA` alone.
pub(super) const MEMBAR: Facts = Facts { fence: true, ..BARRIER };
pub(super) const WARPSYNC: Facts = BARRIER;

pub(super) const BRA: Facts = Facts { flow: Flow::Branch, ..BARRIER };

const END: Facts = Facts { flow: Flow::End, ..BARRIER };
pub(super) const EXIT: Facts = END;
pub(super) const RET: Facts = END;

/// Global and local loads complete in order (see the sm_50 table's `LDG`).
const GLOBAL_LOAD: Facts = Facts { unit: Unit::Lsu, ..Facts { variable: true, ..PRED_THEN_REG } };
pub(super) const LD: Facts = GLOBAL_LOAD;
pub(super) const LDG: Facts = GLOBAL_LOAD;

pub(super) const LDL: Facts = Facts { unit: Unit::Lsu, ..VARIABLE };

/// Shared-memory loads and shuffles share the MIO pipe: ptxas 13.5 issues
/// `LDS R10, [UR6+0x8]` with no scoreboard, then `SHFL.IDX R12` setting SB1, and reads
/// R10 after its wait on SB1 (filetests/interpret/fuzz-sm90-scoreboard-wait-too-soon.atom).
pub(super) const LDS: Facts = Facts { memory_reader: MemoryReader::Shared, unit: Unit::Mio, ..VARIABLE };

pub(super) const SHFL: Facts = Facts { unit: Unit::Mio, listed: Listed::WarpWide, ..Facts { variable: true, ..PRED_THEN_REG } };

/// nvdisasm 13 rejects an `LDC` whose yield hint is set with a stall of 12-15 (`Opclass
/// 'ldc__RaRZ', undefined value 0x1c for table 'TABLES_opex_0'`; stalls 1-11 decode with it set,
/// every stall with it clear), so such an `LDC` (a parameter loaded right before a guarded
/// reader can carry that stall) has it clear.
pub(super) const LDC: Facts = Facts { uniform_data: true, max_yield_stall: 11, ..VARIABLE };

pub(super) const ULDC: Facts = Facts { uniform_data: true, pipe: Pipe::UniformMove, ..P };

pub(super) const QSPC: Facts = Facts { variable: true, ..PRED_THEN_REG };

/// A lane mask from a register (`.U64`: a pair) into a one-register result.
pub(super) const MATCH: Facts = Facts { variable: true, width: Width::LaneMask, listed: Listed::WarpWide, ..PRED_THEN_REG };

pub(super) const S2R: Facts = VARIABLE;
pub(super) const S2UR: Facts = VARIABLE;
pub(super) const REDUX: Facts = VARIABLE;

/// ptxas 13.5 sets a scoreboard on `BREV R0, R0` and its IADD3 waits on it (brev.b32).
pub(super) const BREV: Facts = VARIABLE;

/// ptxas 13.5 leaves an `FLO` without a scoreboard and reads its result after waiting on
/// the next `POPC`'s: one unit, completing in order.
const FLO_POPC: Facts = Facts { unit: Unit::FloPopc, ..VARIABLE };
pub(super) const FLO: Facts = FLO_POPC;
pub(super) const POPC: Facts = FLO_POPC;

/// An FP64 result is read 2 cycles late in `MUFU`: ptxas 13.5's div.rn.f64 slow path
/// reads `@!P0 DMUL R6, R2, 8.98e+307` in `MUFU.RCP64H R3, R7` 6 cycles later, no
/// scoreboard.
pub(super) const MUFU: Facts = Facts { late_read: LateRead::Fp64Result, ..VARIABLE };

/// Conversions: the first type names the result, the last the source. sm_90's nvdisasm
/// leaves out the default type (f32 float, s32 integer) of I2F and F2I: `I2F.U64 R5, R4`
/// (f32 result of a pair), `F2I.S64.TRUNC R4, R4` (pair result of an f32), so there the
/// float type is I2F's result and F2I's source.
///
/// Conversions from 8- and 16-bit integers are fixed latency on both targets: ptxas's
/// 16-bit division reads sm_90 `I2F.U16.RZ R4, R9` (stall 8) 5 instructions later, with
/// no scoreboard. Only to f32: ptxas 13.5 waits on the scoreboard of `I2F.F16.S16` and
/// `I2F.F64.S16` before its store, so those stay variable.
pub(super) const I2F: Facts =
    Facts { width: Width::Convert(Conversion::IntToFloat), fixed_when: FixedWhen::SmallIntToF32, ..VARIABLE };

pub(super) const F2I: Facts = Facts { width: Width::Convert(Conversion::FloatToInt), ..VARIABLE };

/// f64 to f32 is fixed: ptxas 13.5's cvt.rn.f32.f64 sets no scoreboard on `F2F.F32.F64
/// R14, R2` (stall 8) and reads R14 in `F2I.S64.TRUNC R10, R14` 24 cycles later (atomc's
/// `compile/visa/convert-i64-pvc.atom` `%conv_float_to_i64` through ptxas). atomc's own
/// emission still waits on a scoreboard for it (codegen: conversions go by their class),
/// which an H100 honoured in f32 division (docs/gpu-runs.md, runs 7 and 8).
pub(super) const F2F: Facts = Facts {
    width: Width::Convert(Conversion::FirstLast),
    fixed_when: FixedWhen::Floats { to: 32, from: 64 },
    ..VARIABLE
};

/// ptxas 13.5: `I2FP.F32.S32 R0` read by a LOP3 4 cycles later and by an FFMA or STG 5
/// later, and an FFMA result read by I2FP 5 later: ALU timing both ways.
pub(super) const I2FP: Facts = Facts { width: Width::Convert(Conversion::FirstLast), ..ALU };

/// ptxas 13.5 stores `F2FP.F16.F32.PACK_AB R6, RZ, R6` with `STG` 5 cycles later and reads
/// `FMNMX R5` in `F2FP.F16.F32.PACK_AB R5, R5, R0` 4 later: ALU timing.
pub(super) const F2FP: Facts = Facts { width: Width::Convert(Conversion::FirstLast), ..ALU };

const ALU_ONE: Facts = Facts { pipe: Pipe::Alu, ..ONE };
pub(super) const IADD3: Facts = ALU_ONE;
pub(super) const MOV: Facts = ALU_ONE;
pub(super) const SEL: Facts = ALU_ONE;
pub(super) const SHF: Facts = ALU_ONE;
pub(super) const PRMT: Facts = ALU_ONE;

const ALU_PRED_THEN_REG: Facts = Facts { pipe: Pipe::Alu, width: Width::One, ..PRED_THEN_REG };
pub(super) const LEA: Facts = ALU_PRED_THEN_REG;
pub(super) const LOP3: Facts = ALU_PRED_THEN_REG;

pub(super) const ISETP: Facts = Facts { pipe: Pipe::Alu, width: Width::One, ..COMPARE };

const ALU_COMPARE: Facts = Facts { pipe: Pipe::Alu, ..COMPARE };
pub(super) const PLOP3: Facts = ALU_COMPARE;
pub(super) const FSETP: Facts = ALU_COMPARE;

pub(super) const FMNMX: Facts = ALU;
pub(super) const FSEL: Facts = ALU;
pub(super) const VIMNMX: Facts = ALU;

/// ptxas 13.5's 16-bit division reads `IABS R7, R9` in `I2F.U16 R4, R7` 4 cycles later.
pub(super) const IABS: Facts = ALU;

/// ptxas 13 reads `VOTE.ANY R9, PT, PT` (activemask) in `SHF.R.U32.HI R3, RZ, 0x3, R9`
/// 4 cycles later. One carry-out after the result.
pub(super) const VOTE: Facts = Facts { results: Results::Lead { carries: 1 }, listed: Listed::WarpWide, ..ALU };

/// ptxas 13 stores `SGXT.U32 R5, R5, R0`'s result with `STG.E` 5 cycles later (its
/// `bfe.u32`), as it stores an ALU result.
pub(super) const SGXT: Facts = ALU;

/// `IMAD.WIDE`: result and addend are pairs, and the FMA pipe's pair result
/// (`Pipe::FmaWide`). The high word of its 64-bit addend is read 2 cycles late: ptxas
/// 13.5's div.u64 reads `IMAD.MOV.U32 R13, RZ, RZ, RZ` in `IMAD.WIDE.U32 R12, R17, R14,
/// R12` 2 cycles later.
pub(super) const IMAD: Facts = Facts { width: Width::Multiply, late_read: LateRead::WideAddendHigh, ..FMA };

pub(super) const FADD: Facts = FMA;
pub(super) const FMUL: Facts = FMA;
pub(super) const FFMA: Facts = FMA;
pub(super) const VIADD: Facts = FMA;

/// ptxas 13.5 reads `HADD2.F32 R5, -RZ, R5.H0_H0` in `FADD`/`FSETP` and `STG` 5 cycles
/// later, and `HADD2 R6, R5, UR6.H0_H0` in `PRMT` 5 later: FMA timing.
pub(super) const HADD2: Facts = FMA;
pub(super) const HMUL2: Facts = FMA;
pub(super) const HFMA2: Facts = FMA;
/// HMNMX2 is timed as a pipe of its own: ptxas 13.5 reads an `HADD2`, `HMUL2` or `HFMA2`
/// result (FMA pipe) and an `F2FP`, `LOP3` result (ALU) in `HMNMX2` 5 cycles later (42
/// reads of `F2FP.F16.F32.PACK_AB R0, R5, R0` → `HMNMX2 R0, R0.H0_H0, R0.H1_H1, !PT`), an
/// `HMNMX2` result in `HMNMX2` 4 later, and in `LOP3`, `HADD2.F32` and `STG` 5 later (the
/// timing oracle's generated pair kernels, filetests/timing/data/sm90.tsv).
pub(super) const HMNMX2: Facts = Facts { pipe: Pipe::HalfMinMax, ..P };

pub(super) const DADD: Facts = FP64;
pub(super) const DMUL: Facts = FP64;
pub(super) const DFMA: Facts = FP64;

pub(super) const DSETP: Facts = Facts { results: Results::TwoPreds, unit: Unit::Fp64Compare, ..FP64 };

pub(super) const UMOV: Facts = Facts { pipe: Pipe::UniformMove, ..P };

pub(super) const VOTEU: Facts = Facts { pipe: Pipe::UniformMove, results: Results::Lead { carries: 1 }, listed: Listed::WarpWide, ..P };

pub(super) const UBREV: Facts = UNIFORM;
pub(super) const UFLO: Facts = UNIFORM;
pub(super) const UIADD3: Facts = UNIFORM;
pub(super) const UIMAD: Facts = UNIFORM;
pub(super) const ULEA: Facts = UNIFORM;
pub(super) const ULOP3: Facts = UNIFORM;
pub(super) const UPOPC: Facts = UNIFORM;
pub(super) const UPRMT: Facts = UNIFORM;
pub(super) const USHF: Facts = UNIFORM;

/// `CS2R`: a pair, one register with `.32`.
pub(super) const CS2R: Facts = Facts { width: Width::SpecialPair, ..P };

pub(super) const BMSK: Facts = P;
pub(super) const FCHK: Facts = P;
pub(super) const R2UR: Facts = P;
