//! The facts of every sm_50 mnemonic family ([`crate::facts::Facts`]), one constant per
//! family, named like its mnemonic: operand roles, register widths, effects, and the timing
//! classes ptxas 11.8's schedules obey. Maxwell's fixed latencies do not depend on the pipe
//! (maxas: depth 6 everywhere), so every family is in `Pipe::Other`; the condition code is
//! set for the whole table in `mod.rs`. Each form declaration in this table names its family's
//! constant (`.facts(facts::IADD)`); a form without facts stops the build.

use crate::builder::{
    ATOMIC, BARRIER, COMPARE, ONE, PRED_THEN_REG, SHARED_ATOMIC, SHARED_STORE, STORE, SURFACE_ATOMIC, SURFACE_STORE,
    VARIABLE,
};
use crate::facts::*;

/// FP64 data, whose results ptxas 11.8 waits for on a scoreboard.
const FP64: Facts = Facts { fp64: true, ..VARIABLE };

/// The predicate result of a generic `ATOM` is available at issue (see the sm_90 table). The
/// global and shared atomics read their sources before writing: ptxas 11.8 writes the result
/// over a source it reads (`ATOM.E.CAS R5, [R2], R4, R5`).
pub(super) const ATOM: Facts = Facts { predicate_at_issue: true, reads_sources_first: true, ..ATOMIC };

/// Shared-memory atomics complete in order with shared loads: ptxas 11.8 issues
/// `ATOMS.CAS R11, [R0], R10, R11` with no scoreboard, then `LDS.U.32 R6, [R0]` setting
/// one, and reads R11 in the FADD after waiting on it
/// (filetests/compile/visa/slm-atomics.atom, %slm_f32).
pub(super) const ATOMS: Facts = Facts { reads_sources_first: true, ..SHARED_ATOMIC };

/// A bindless surface handle: sm_50's `MOV R5, c[0x0][0x144]` then
/// `SUATOM.D.1D.CAS.U64.IGN RZ, [R8], R0, R4` needs R5 ready too.
pub(super) const SUATOM: Facts = SURFACE_ATOMIC;

pub(super) const SURED: Facts = SURFACE_STORE;

pub(super) const RED: Facts = STORE;
pub(super) const STG: Facts = STORE;
pub(super) const STL: Facts = STORE;
pub(super) const NOP: Facts = STORE;

pub(super) const STS: Facts = SHARED_STORE;

/// A partial wait on scoreboards (`{1}`, `.LE SB0, 0x0`).
pub(super) const DEPBAR: Facts = Facts { partial_wait: true, ..STORE };

pub(super) const BAR: Facts = Facts { listed: Listed::Barrier, ..BARRIER };
/// A fence: ptxas 11.8 writes `membar.gl` as `MEMBAR.GL.IVALLD`, `membar.sys` as
/// `MEMBAR.SYS.IVALLD` (each also invalidating L1) and `membar.cta` as `MEMBAR.CTA`.
pub(super) const MEMBAR: Facts = Facts { fence: true, ..BARRIER };

pub(super) const BRA: Facts = Facts { flow: Flow::Branch, ..BARRIER };

const END: Facts = Facts { flow: Flow::End, ..BARRIER };
pub(super) const EXIT: Facts = END;
pub(super) const RET: Facts = END;

/// `SYNC` ends a divergent path and continues at the reconvergence point its `SSY` named;
/// `BRK` likewise for `PBK`.
pub(super) const SSY: Facts = Facts { flow: Flow::Opens(0), ..BARRIER };

pub(super) const SYNC: Facts = Facts { flow: Flow::Rejoins(0), ..BARRIER };

pub(super) const PBK: Facts = Facts { flow: Flow::Opens(1), ..BARRIER };

pub(super) const BRK: Facts = Facts { flow: Flow::Rejoins(1), ..BARRIER };

/// The call: described as a plain instruction (not among the barriers).
pub(super) const CAL: Facts = Facts::PLAIN;

/// Global and local loads complete in order: ptxas 11.8 loads `LDG.E R254` with no
/// scoreboard in a spilling kernel, then refills with `LDL.LU R4` setting SB5, and reads
/// R254 after waiting on SB5 (filetests/interpret/spill-live-values.atom, %live260).
pub(super) const LDG: Facts = Facts { unit: Unit::Lsu, ..Facts { variable: true, ..PRED_THEN_REG } };

/// A generic load, as LDG (ptxas 11.8 waits on its scoreboard).
pub(super) const LD: Facts = LDG;
pub(super) const ST: Facts = STORE;

pub(super) const LDL: Facts = Facts { unit: Unit::Lsu, ..VARIABLE };

pub(super) const LDS: Facts = Facts { memory_reader: MemoryReader::Shared, unit: Unit::Mio, ..VARIABLE };

pub(super) const SHFL: Facts = Facts { unit: Unit::Mio, listed: Listed::WarpWide, ..Facts { variable: true, ..PRED_THEN_REG } };

/// ptxas 11.8 sets a scoreboard on `LDC.U16 R0, c[0x3][R4]` (ld.const.u16) and its
/// readers wait on it.
pub(super) const LDC: Facts = Facts { uniform_data: true, ..VARIABLE };

pub(super) const S2R: Facts = VARIABLE;
pub(super) const MUFU: Facts = VARIABLE;

const FLO_POPC: Facts = Facts { unit: Unit::FloPopc, ..VARIABLE };
pub(super) const FLO: Facts = FLO_POPC;
pub(super) const POPC: Facts = FLO_POPC;

/// Conversions (see the sm_90 table for the types). ptxas's 16-bit division reads
/// `I2F.F32.U16 R3, R9` 5 instructions later with no scoreboard: from 8- and 16-bit
/// integers to f32 is fixed.
pub(super) const I2F: Facts =
    Facts { width: Width::Convert(Conversion::IntToFloat), fixed_when: FixedWhen::SmallIntToF32, ..VARIABLE };

/// To a 16-bit result likewise: ptxas 11.8 sets no scoreboard on
/// `F2I.S16.F32.TRUNC R17, R0` and stores R17 five instructions later (cvt.rzi.s16.f32).
pub(super) const F2I: Facts =
    Facts { width: Width::Convert(Conversion::FloatToInt), fixed_when: FixedWhen::SixteenBitInt, ..VARIABLE };

/// And f16 to f32: ptxas 11.8's cvt.rzi.u64.f16 sets no scoreboard on
/// `F2F.F32.F16.RZ R8, R0` and reads R8 thirteen instructions later.
pub(super) const F2F: Facts = Facts {
    width: Width::Convert(Conversion::FirstLast),
    fixed_when: FixedWhen::Floats { to: 32, from: 16 },
    ..VARIABLE
};

/// 32-bit to 32-bit is fixed: the absolute value of ptxas 11.8's signed division,
/// `I2I.S32.S32 R4, |R0|`, is read 13 instructions later with no scoreboard set;
/// conversions between sizes are not.
pub(super) const I2I: Facts = Facts { fixed_when: FixedWhen::Int32ToInt32, ..VARIABLE };

pub(super) const DADD: Facts = FP64;
pub(super) const DMUL: Facts = FP64;
pub(super) const DFMA: Facts = FP64;

/// ptxas 11.8 sets a scoreboard on `DMNMX R2, R6, c[0x0][0x158], !PT` (max.f64), and its
/// readers wait on it.
pub(super) const DMNMX: Facts = FP64;

/// The FP64 compares complete in order: ptxas 11.8 issues `DSETP.NAN.AND P0, PT, R14,
/// R14, PT` with no scoreboard, then `DSET.NUM.AND R23, R14, R14, PT` setting SB1, and
/// reads P0 after waiting on SB1 (filetests/interpret/conversions-all-sizes.atom,
/// %f64_to_ints).
pub(super) const DSETP: Facts = Facts { results: Results::TwoPreds, unit: Unit::Fp64Compare, ..FP64 };

/// ptxas 11.8 sets a scoreboard on `DSET.NUM.AND R6, R2, R2, PT` (setp.nan.f64 + selp)
/// and its reader waits on it. A word (the test's mask) from two f64 pairs.
pub(super) const DSET: Facts = Facts { width: Width::WordFromPairs, unit: Unit::Fp64Compare, ..FP64 };

pub(super) const IADD3: Facts = ONE;
pub(super) const IMNMX: Facts = ONE;
pub(super) const MOV: Facts = ONE;
pub(super) const SEL: Facts = ONE;
pub(super) const SHF: Facts = ONE;
pub(super) const XMAD: Facts = ONE;

const ONE_PRED_THEN_REG: Facts = Facts { width: Width::One, ..PRED_THEN_REG };
pub(super) const LEA: Facts = ONE_PRED_THEN_REG;
pub(super) const LOP3: Facts = ONE_PRED_THEN_REG;

pub(super) const LOP: Facts = PRED_THEN_REG;

pub(super) const ISETP: Facts = Facts { width: Width::One, ..COMPARE };

pub(super) const FSETP: Facts = COMPARE;

/// Fixed latency, like the other compares (ptxas 11.8 sets no scoreboard on `PSETP.OR.AND P0,
/// PT, !P0, !P1, PT`, interpret/fdiv-edges.atom).
pub(super) const PSETP: Facts = COMPARE;

/// One predicate result at a fixed latency: ptxas 11.8 sets no scoreboard on `FCHK.DIVIDE P0,
/// R4, R6` and reads P0 in a later `@!P0 SYNC` (interpret/fdiv-edges.atom, control stall 1).
pub(super) const FCHK: Facts = Facts::PLAIN;

/// A fixed-latency result: ptxas 11.8 sets no scoreboard on `FSET.LT.AND R7, R0, R6, PT`
/// (interpret/half-arith.atom) and the hazard check finds its code clean under this.
pub(super) const FSET: Facts = Facts::PLAIN;

pub(super) const VOTE: Facts = Facts { results: Results::Lead { carries: 1 }, listed: Listed::WarpWide, ..Facts::PLAIN };

pub(super) const BFE: Facts = Facts::PLAIN;
pub(super) const BFI: Facts = Facts::PLAIN;
pub(super) const FADD: Facts = Facts::PLAIN;
pub(super) const FFMA: Facts = Facts::PLAIN;
pub(super) const FMNMX: Facts = Facts::PLAIN;
pub(super) const FMUL: Facts = Facts::PLAIN;
pub(super) const IADD: Facts = Facts::PLAIN;
pub(super) const IADD32I: Facts = Facts::PLAIN;
pub(super) const ICMP: Facts = Facts::PLAIN;
pub(super) const ISCADD: Facts = Facts::PLAIN;
pub(super) const ISCADD32I: Facts = Facts::PLAIN;
pub(super) const ISET: Facts = Facts::PLAIN;
pub(super) const LOP32I: Facts = Facts::PLAIN;
pub(super) const MOV32I: Facts = Facts::PLAIN;
pub(super) const SHL: Facts = Facts::PLAIN;
pub(super) const SHR: Facts = Facts::PLAIN;
