//! The facts of every sm_50 mnemonic family ([`crate::facts::Facts`]): operand roles, register
//! widths, effects, and the timing classes ptxas 11.8's schedules obey. Maxwell's fixed
//! latencies do not depend on the pipe (maxas: depth 6 everywhere), so every family is in
//! `Pipe::Other`; every form reads and writes the condition code by its `.CC` / `.X` modifiers.
//! Every form of the table gets the facts of its mnemonic; a mnemonic missing here stops the
//! build.

use crate::builder::{BARRIER, COMPARE, ONE, PRED_THEN_REG, STORE};
use crate::facts::*;

/// A result after a variable delay: ptxas always sets a write scoreboard when it is used.
const VARIABLE: Facts = Facts { variable: true, ..Facts::PLAIN };
/// FP64 data, whose results ptxas 11.8 waits for on a scoreboard.
const FP64: Facts = Facts { fp64: true, ..VARIABLE };
/// An atomic: a register result after a variable delay, and a side effect.
const ATOMIC: Facts =
    Facts { results: Results::PredThenReg { carries: 2 }, effects: Effects::Side, variable: true, ..Facts::PLAIN };

/// The facts of the sm_50 forms spelled `mnemonic`.
pub(super) fn of(mnemonic: &str) -> Facts {
    Facts { cond_code: CondCode::Modifiers, ..family(mnemonic) }
}

fn family(mnemonic: &str) -> Facts {
    match mnemonic {
        // The predicate result of a generic `ATOM` is available at issue (see the sm_90 table).
        "ATOM" => Facts { predicate_at_issue: true, ..ATOMIC },
        // Shared-memory atomics complete in order with shared loads: ptxas 11.8 issues
        // `ATOMS.CAS R11, [R0], R10, R11` with no scoreboard, then `LDS.U.32 R6, [R0]` setting
        // one, and reads R11 in the FADD after waiting on it
        // (filetests/compile/visa/slm-atomics.atom, %slm_f32).
        "ATOMS" => Facts {
            results: Results::Lead { carries: 2 },
            memory_reader: MemoryReader::Shared,
            unit: Unit::Mio,
            ..ATOMIC
        },
        // A bindless surface handle: sm_50's `MOV R5, c[0x0][0x144]` then
        // `SUATOM.D.1D.CAS.U64.IGN RZ, [R8], R0, R4` needs R5 ready too.
        "SUATOM" => Facts {
            width: Width::SurfaceAtomic,
            surface: true,
            memory_reader: MemoryReader::Surface,
            ..ATOMIC
        },
        "SURED" => Facts { surface: true, memory_reader: MemoryReader::Surface, ..STORE },
        "RED" | "STG" | "STL" | "NOP" => STORE,
        "STS" => Facts { memory_reader: MemoryReader::Shared, ..STORE },
        // A partial wait on scoreboards (`{1}`, `.LE SB0, 0x0`).
        "DEPBAR" => Facts { partial_wait: true, ..STORE },
        "BAR" | "MEMBAR" => BARRIER,
        "BRA" => Facts { flow: Flow::Branch, ..BARRIER },
        "EXIT" | "RET" => Facts { flow: Flow::End, ..BARRIER },
        // `SYNC` ends a divergent path and continues at the reconvergence point its `SSY` named;
        // `BRK` likewise for `PBK`.
        "SSY" => Facts { flow: Flow::Opens(0), ..BARRIER },
        "SYNC" => Facts { flow: Flow::Rejoins(0), ..BARRIER },
        "PBK" => Facts { flow: Flow::Opens(1), ..BARRIER },
        "BRK" => Facts { flow: Flow::Rejoins(1), ..BARRIER },
        // The call: described as a plain instruction (not among the barriers).
        "CAL" => Facts::PLAIN,

        // Global and local loads complete in order: ptxas 11.8 loads `LDG.E R254` with no
        // scoreboard in a spilling kernel, then refills with `LDL.LU R4` setting SB5, and reads
        // R254 after waiting on SB5 (filetests/interpret/spill-live-values.atom, %live260).
        "LDG" => Facts { unit: Unit::Lsu, ..Facts { variable: true, ..PRED_THEN_REG } },
        "LDL" => Facts { unit: Unit::Lsu, ..VARIABLE },
        "LDS" => Facts { memory_reader: MemoryReader::Shared, unit: Unit::Mio, ..VARIABLE },
        "SHFL" => Facts { unit: Unit::Mio, ..Facts { variable: true, ..PRED_THEN_REG } },
        // ptxas 11.8 sets a scoreboard on `LDC.U16 R0, c[0x3][R4]` (ld.const.u16) and its
        // readers wait on it.
        "LDC" => Facts { uniform_data: true, ..VARIABLE },
        "S2R" | "MUFU" => VARIABLE,
        "FLO" | "POPC" => Facts { unit: Unit::FloPopc, ..VARIABLE },

        // Conversions (see the sm_90 table for the types). ptxas's 16-bit division reads
        // `I2F.F32.U16 R3, R9` 5 instructions later with no scoreboard: from 8- and 16-bit
        // integers to f32 is fixed.
        "I2F" => Facts { width: Width::Convert(Conversion::IntToFloat), fixed_when: FixedWhen::SmallIntToF32, ..VARIABLE },
        // To a 16-bit result likewise: ptxas 11.8 sets no scoreboard on
        // `F2I.S16.F32.TRUNC R17, R0` and stores R17 five instructions later (cvt.rzi.s16.f32).
        "F2I" => Facts { width: Width::Convert(Conversion::FloatToInt), fixed_when: FixedWhen::SixteenBitInt, ..VARIABLE },
        // And f16 to f32: ptxas 11.8's cvt.rzi.u64.f16 sets no scoreboard on
        // `F2F.F32.F16.RZ R8, R0` and reads R8 thirteen instructions later.
        "F2F" => Facts {
            width: Width::Convert(Conversion::FirstLast),
            fixed_when: FixedWhen::Floats { to: 32, from: 16 },
            ..VARIABLE
        },
        // 32-bit to 32-bit is fixed: the absolute value of ptxas 11.8's signed division,
        // `I2I.S32.S32 R4, |R0|`, is read 13 instructions later with no scoreboard set;
        // conversions between sizes are not.
        "I2I" => Facts { fixed_when: FixedWhen::Int32ToInt32, ..VARIABLE },

        "DADD" | "DMUL" | "DFMA" => FP64,
        // ptxas 11.8 sets a scoreboard on `DMNMX R2, R6, c[0x0][0x158], !PT` (max.f64), and its
        // readers wait on it.
        "DMNMX" => FP64,
        // The FP64 compares complete in order: ptxas 11.8 issues `DSETP.NAN.AND P0, PT, R14,
        // R14, PT` with no scoreboard, then `DSET.NUM.AND R23, R14, R14, PT` setting SB1, and
        // reads P0 after waiting on SB1 (filetests/interpret/conversions-all-sizes.atom,
        // %f64_to_ints).
        "DSETP" => Facts { results: Results::TwoPreds, unit: Unit::Fp64Compare, ..FP64 },
        // ptxas 11.8 sets a scoreboard on `DSET.NUM.AND R6, R2, R2, PT` (setp.nan.f64 + selp)
        // and its reader waits on it. A word (the test's mask) from two f64 pairs.
        "DSET" => Facts { width: Width::WordFromPairs, unit: Unit::Fp64Compare, ..FP64 },

        "IADD3" | "IMNMX" | "MOV" | "SEL" | "XMAD" => ONE,
        "LEA" | "LOP3" => Facts { width: Width::One, ..PRED_THEN_REG },
        "LOP" => PRED_THEN_REG,
        "ISETP" => Facts { width: Width::One, ..COMPARE },
        "FSETP" => COMPARE,
        "VOTE" => Facts { results: Results::Lead { carries: 1 }, ..Facts::PLAIN },
        "BFE" | "BFI" | "FADD" | "FFMA" | "FMNMX" | "FMUL" | "IADD" | "IADD32I" | "ICMP" | "ISCADD" | "ISET"
        | "LOP32I" | "MOV32I" | "SHL" | "SHR" => Facts::PLAIN,
        m => panic!("sm_50 table: no facts for {m}"),
    }
}
