//! The facts of every sm_90 mnemonic family ([`crate::facts::Facts`]): operand roles, register
//! widths, effects, and the timing classes ptxas 13.5's schedules obey (sass-timing facts: the
//! smallest producer→reader distance seen per class pair, which is also what NVIDIA's published
//! Ampere tables give). Every form of the table gets the facts of its mnemonic; a mnemonic
//! missing here stops the build.

use crate::builder::{BARRIER, COMPARE, ONE, PRED_THEN_REG, STORE};
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
/// A result after a variable delay: ptxas always sets a write scoreboard when it is used.
const VARIABLE: Facts = Facts { variable: true, ..P };
/// An atomic: a register result after a variable delay, and a side effect.
const ATOMIC: Facts = Facts { results: Results::PredThenReg { carries: 2 }, effects: Effects::Side, variable: true, ..P };

/// The facts of the sm_90 forms spelled `mnemonic`.
pub(super) fn of(mnemonic: &str) -> Facts {
    match mnemonic {
        // sm_90's generic `ATOM` says in its predicate whether the atomic unit took the address
        // (the local window falls back to a load and store), and ptxas 13.5 branches on it
        // without a wait: `ATOM.E.MAX.S64.STRONG.GPU P0, RZ, ..` (no scoreboard) and
        // `ATOM.E.EXCH.64.. P0, R4, ..` (SB5) each followed by `@P0 BRA` before any wait
        // (atomc's filetests `generic-window-sm50` and `compile/sm50/generic`).
        "ATOM" => Facts { predicate_at_issue: true, ..ATOMIC },
        "ATOMG" => ATOMIC,
        // Shared-memory atomics complete in order with shared loads (see `LDS`).
        "ATOMS" => Facts {
            results: Results::Lead { carries: 2 },
            memory_reader: MemoryReader::Shared,
            unit: Unit::Mio,
            ..ATOMIC
        },
        "SUATOM" => Facts {
            width: Width::SurfaceAtomic,
            surface: true,
            // ptxas 13.5 issues `SURED [R2]` 4 cycles after the `SHF` that wrote R2.
            memory_reader: MemoryReader::Surface,
            ..ATOMIC
        },
        "SURED" => Facts { surface: true, memory_reader: MemoryReader::Surface, ..STORE },
        "REDG" | "ST" | "STG" | "STL" | "NOP" | "YIELD" => STORE,
        "STS" => Facts { memory_reader: MemoryReader::Shared, ..STORE },
        "BAR" | "BSSY" | "BSYNC" | "CALL" | "CCTL" | "CGAERRBAR" | "ERRBAR" | "MEMBAR" | "WARPSYNC" => BARRIER,
        "BRA" => Facts { flow: Flow::Branch, ..BARRIER },
        "EXIT" | "RET" => Facts { flow: Flow::End, ..BARRIER },

        // Global and local loads complete in order (see the sm_50 table's `LDG`).
        "LD" | "LDG" => Facts { unit: Unit::Lsu, ..Facts { variable: true, ..PRED_THEN_REG } },
        "LDL" => Facts { unit: Unit::Lsu, ..VARIABLE },
        // Shared-memory loads and shuffles share the MIO pipe: ptxas 13.5 issues
        // `LDS R10, [UR6+0x8]` with no scoreboard, then `SHFL.IDX R12` setting SB1, and reads
        // R10 after its wait on SB1 (filetests/interpret/fuzz-sm90-scoreboard-wait-too-soon.atom).
        "LDS" => Facts { memory_reader: MemoryReader::Shared, unit: Unit::Mio, ..VARIABLE },
        "SHFL" => Facts { unit: Unit::Mio, ..Facts { variable: true, ..PRED_THEN_REG } },
        "LDC" => Facts { uniform_data: true, ..VARIABLE },
        "ULDC" => Facts { uniform_data: true, pipe: Pipe::UniformMove, ..P },
        "QSPC" => Facts { variable: true, ..PRED_THEN_REG },
        // A lane mask from a register (`.U64`: a pair) into a one-register result.
        "MATCH" => Facts { variable: true, width: Width::LaneMask, ..PRED_THEN_REG },
        "S2R" | "S2UR" | "REDUX" => VARIABLE,
        // ptxas 13.5 sets a scoreboard on `BREV R0, R0` and its IADD3 waits on it (brev.b32).
        "BREV" => VARIABLE,
        // ptxas 13.5 leaves an `FLO` without a scoreboard and reads its result after waiting on
        // the next `POPC`'s: one unit, completing in order.
        "FLO" | "POPC" => Facts { unit: Unit::FloPopc, ..VARIABLE },
        // An FP64 result is read 2 cycles late in `MUFU`: ptxas 13.5's div.rn.f64 slow path
        // reads `@!P0 DMUL R6, R2, 8.98e+307` in `MUFU.RCP64H R3, R7` 6 cycles later, no
        // scoreboard.
        "MUFU" => Facts { late_read: LateRead::Fp64Result, ..VARIABLE },

        // Conversions: the first type names the result, the last the source. sm_90's nvdisasm
        // leaves out the default type (f32 float, s32 integer) of I2F and F2I: `I2F.U64 R5, R4`
        // (f32 result of a pair), `F2I.S64.TRUNC R4, R4` (pair result of an f32), so there the
        // float type is I2F's result and F2I's source.
        //
        // Conversions from 8- and 16-bit integers are fixed latency on both targets: ptxas's
        // 16-bit division reads sm_90 `I2F.U16.RZ R4, R9` (stall 8) 5 instructions later, with
        // no scoreboard. Only to f32: ptxas 13.5 waits on the scoreboard of `I2F.F16.S16` and
        // `I2F.F64.S16` before its store, so those stay variable.
        "I2F" => Facts { width: Width::Convert(Conversion::IntToFloat), fixed_when: FixedWhen::SmallIntToF32, ..VARIABLE },
        "F2I" => Facts { width: Width::Convert(Conversion::FloatToInt), ..VARIABLE },
        // f64 to f32 is fixed: ptxas 13.5's cvt.rn.f32.f64 sets no scoreboard on `F2F.F32.F64
        // R14, R2` (stall 8) and reads R14 in `F2I.S64.TRUNC R10, R14` 24 cycles later (atomc's
        // `compile/visa/convert-i64-pvc.atom` `%conv_float_to_i64` through ptxas). atomc's own
        // emission still waits on a scoreboard for it (codegen: conversions go by their class),
        // which an H100 honoured in f32 division (docs/gpu-runs.md, runs 7 and 8).
        "F2F" => Facts {
            width: Width::Convert(Conversion::FirstLast),
            fixed_when: FixedWhen::Floats { to: 32, from: 64 },
            ..VARIABLE
        },
        // ptxas 13.5: `I2FP.F32.S32 R0` read by a LOP3 4 cycles later and by an FFMA or STG 5
        // later, and an FFMA result read by I2FP 5 later: ALU timing both ways.
        "I2FP" => Facts { width: Width::Convert(Conversion::FirstLast), ..ALU },
        // ptxas 13.5 stores `F2FP.F16.F32.PACK_AB R6, RZ, R6` with `STG` 5 cycles later and reads
        // `FMNMX R5` in `F2FP.F16.F32.PACK_AB R5, R5, R0` 4 later: ALU timing.
        "F2FP" => Facts { width: Width::Convert(Conversion::FirstLast), ..ALU },

        "IADD3" | "MOV" | "SEL" | "SHF" | "PRMT" => Facts { pipe: Pipe::Alu, ..ONE },
        "LEA" | "LOP3" => Facts { pipe: Pipe::Alu, width: Width::One, ..PRED_THEN_REG },
        "ISETP" => Facts { pipe: Pipe::Alu, width: Width::One, ..COMPARE },
        "PLOP3" | "FSETP" => Facts { pipe: Pipe::Alu, ..COMPARE },
        "FMNMX" | "FSEL" | "VIMNMX" => ALU,
        // ptxas 13.5's 16-bit division reads `IABS R7, R9` in `I2F.U16 R4, R7` 4 cycles later.
        "IABS" => ALU,
        // ptxas 13 reads `VOTE.ANY R9, PT, PT` (activemask) in `SHF.R.U32.HI R3, RZ, 0x3, R9`
        // 4 cycles later. One carry-out after the result.
        "VOTE" => Facts { results: Results::Lead { carries: 1 }, ..ALU },
        // ptxas 13 stores `SGXT.U32 R5, R5, R0`'s result with `STG.E` 5 cycles later (its
        // `bfe.u32`), as it stores an ALU result.
        "SGXT" => ALU,

        // `IMAD.WIDE`: result and addend are pairs, and the FMA pipe's pair result
        // (`Pipe::FmaWide`). The high word of its 64-bit addend is read 2 cycles late: ptxas
        // 13.5's div.u64 reads `IMAD.MOV.U32 R13, RZ, RZ, RZ` in `IMAD.WIDE.U32 R12, R17, R14,
        // R12` 2 cycles later.
        "IMAD" => Facts { width: Width::Multiply, late_read: LateRead::WideAddendHigh, ..FMA },
        "FADD" | "FMUL" | "FFMA" | "VIADD" => FMA,
        // ptxas 13.5 reads `HADD2.F32 R5, -RZ, R5.H0_H0` in `FADD`/`FSETP` and `STG` 5 cycles
        // later, and `HADD2 R6, R5, UR6.H0_H0` in `PRMT` 5 later: FMA timing.
        "HADD2" | "HMUL2" | "HFMA2" | "HMNMX2" => FMA,
        "DADD" | "DMUL" | "DFMA" => FP64,
        "DSETP" => Facts { results: Results::TwoPreds, unit: Unit::Fp64Compare, ..FP64 },

        "UMOV" => Facts { pipe: Pipe::UniformMove, ..P },
        "VOTEU" => Facts { pipe: Pipe::UniformMove, results: Results::Lead { carries: 1 }, ..P },
        "UBREV" | "UFLO" | "UIADD3" | "UIMAD" | "ULEA" | "ULOP3" | "UPOPC" | "UPRMT" | "USHF" => UNIFORM,

        // `CS2R`: a pair, one register with `.32`.
        "CS2R" => Facts { width: Width::SpecialPair, ..P },
        "BMSK" | "FCHK" | "R2UR" => P,
        m => panic!("sm_90 table: no facts for {m}"),
    }
}
