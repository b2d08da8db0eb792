//! Fixed latencies per target: how many cycles after a fixed-latency producer issues a consumer
//! may read its result, by the producer's pipe and the way the consumer reads it.
//!
//! Figures are those ptxas's own schedules obey (measured on ptxas 13.5 sm_90 and ptxas 11.8
//! sm_50 output: the smallest producer→reader distance seen per class pair, which is also what
//! NVIDIA's published Ampere tables give). `tests/hazards.rs` checks the figures the other way
//! round: ptxas's code for every filetest kernel is clean under them (see [`super::hazard`]).
//!
//! Each form's classes (its pipe, how it reads memory operands) are in its
//! [`super::facts::Facts`], written with the evidence for them in the table source. Anything
//! not classified gets the conservative [`OTHER`] latency, which no measured class exceeds
//! except predicate → guard/branch.

use super::facts::{Conversion, Facts, MemoryReader, Unit, Width};
use super::instr::Instr;
use super::Arch;

pub use super::facts::Pipe;

/// How a consumer reads a register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reader {
    /// A source operand of an ALU-pipe instruction.
    Alu,
    /// A source operand of an FMA-pipe instruction.
    Fma,
    /// An address or data operand of a global/generic memory instruction (loads, stores,
    /// atomics).
    Memory,
    /// An address or data operand of a shared-memory instruction (`LDS`, `STS`, `ATOMS`).
    Shared,
    /// A guard predicate or a branch condition.
    Guard,
    /// A source operand of a uniform-datapath instruction.
    Uniform,
    /// A source operand of an FP64-pipe instruction (`DADD`, `DMUL`, `DFMA`, `DSETP`).
    Fp64,
    /// A source of a variable-latency float conversion (sm_90 `F2F`, `F2I`).
    Convert,
    /// A source of sm_90 `HMNMX2` ([`Pipe::HalfMinMax`]).
    HalfMinMax,
    /// Any other reader (POPC, FLO, SHFL, REDUX, MUFU, conversions, ...).
    Other,
}

/// The latency every unclassified fixed-latency producer is given: the pipeline depth of sm_50
/// (maxas) and an upper bound of every sm_90 ALU/FMA figure.
pub const OTHER: u8 = 6;

/// Predicate → guard or branch, both targets: ptxas never issues a guarded instruction or a
/// predicated branch sooner than 13 cycles after the compare (sm_90 and sm_50 alike).
pub const PRED_TO_GUARD: u8 = 13;

/// The yield hint of an sm_90 control word (bit 45). ptxas 13.5 sets it, over the 2,900
/// instructions of its code for atomc's interpret and bench kernels, on every variable-latency
/// and control instruction with a stall (LDC 292/292, EXIT 108/108, STG 77/77, ATOMG 63/63,
/// BSSY/BSYNC 19/19, BAR 6/6, a branch with stall 5: 36/36), on every fixed-latency instruction
/// that stalls 1 cycle (661/661) and most that stall 2 (231/247), and on none that stall 3 or
/// more (IMAD 0/61, ISETP 0/42 at 3..13) or 0 (the end-of-kernel self-branch, ERRBAR).
/// Mesa's NAK likewise sets it on barriers and `BSYNC`. sm_50 code keeps the bit clear.
///
/// A form may cap the stalls the hint is set with ([`Facts::max_yield_stall`]: sm_90 `LDC`).
pub fn sm90_yield_hint(facts: &Facts, fixed_latency: bool, stall: u8) -> bool {
    stall >= 1 && (!fixed_latency || stall <= 2) && stall <= facts.max_yield_stall
}

/// The timing facts of one target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timing {
    Sm90,
    Sm50,
}

impl Timing {
    /// The timing of `arch`.
    pub fn for_arch(arch: &Arch) -> Timing {
        match arch.sm {
            crate::Sm::Sm50 => Timing::Sm50,
            crate::Sm::Sm90 => Timing::Sm90,
        }
    }

    /// The pipe of a decoded instruction, from its form's facts: `IMAD` with `.WIDE` (an FMA
    /// form of [`Width::Multiply`] whose modifiers say `.WIDE`) issues to [`Pipe::FmaWide`].
    pub fn pipe_of(self, arch: &Arch, ins: &Instr) -> Pipe {
        if self == Timing::Sm50 {
            // Maxwell's figures do not depend on the pipe (maxas: depth 6 everywhere).
            return Pipe::Other;
        }
        let form = &arch.forms[ins.form as usize];
        let wide = form.facts.width == Width::Multiply && form.meanings(&ins.mods).any(|m| m.wide);
        match form.facts.pipe {
            Pipe::Fma if wide => Pipe::FmaWide,
            pipe => pipe,
        }
    }

    /// How a decoded instruction reads its general-register sources: a memory instruction's by
    /// its form's [`MemoryReader`], any other's by its pipe (sm_50: the FP64 unit, a unit whose
    /// results come back on a scoreboard, or the ALU pipeline).
    pub fn reader_of(self, arch: &Arch, ins: &Instr, is_memory: bool) -> Reader {
        let facts = &arch.forms[ins.form as usize].facts;
        if is_memory {
            return match facts.memory_reader {
                MemoryReader::Shared => Reader::Shared,
                // A surface operand is read like a global one: ptxas 13 reads ALU results in
                // SURED's operands no sooner than global ones (5 cycles), ptxas 11.8 like
                // global ones too (`SHL R2, R2, 0x2` → `SURED.D.BA.2D ... [R2]` 2 later).
                MemoryReader::Surface => Reader::Memory,
                MemoryReader::Global => Reader::Memory,
            };
        }
        // A shuffle reads its sources like a shared-memory operand (the MIO pipe): ptxas 13 reads
        // IADD3, IMAD and MOV results in SHFL no sooner than 5 cycles later (82, 290 and 18
        // reads), where POPC and REDUX read them 4 later; ptxas 11.8 reads ALU results in SHFL 4
        // later, as in STS (filetests/timing/data).
        if facts.unit == Unit::Mio {
            return Reader::Shared;
        }
        if self == Timing::Sm50 {
            return if facts.fp64 {
                Reader::Fp64
            } else if facts.variable {
                Reader::Other
            } else {
                Reader::Alu
            };
        }
        if facts.variable && matches!(facts.width, Width::Convert(Conversion::FirstLast | Conversion::FloatToInt)) {
            return Reader::Convert;
        }
        match self.pipe_of(arch, ins) {
            Pipe::Alu => Reader::Alu,
            Pipe::Fma | Pipe::FmaWide => Reader::Fma,
            Pipe::Uniform | Pipe::UniformMove => Reader::Uniform,
            Pipe::Fp64 => Reader::Fp64,
            Pipe::HalfMinMax => Reader::HalfMinMax,
            Pipe::Other => Reader::Other,
        }
    }

    /// The longest any reader of a register result of `pipe` waits: what a block boundary,
    /// past which the readers are not known, must wait for.
    pub fn longest(self, pipe: Pipe) -> u8 {
        const READERS: [Reader; 9] = [
            Reader::Alu,
            Reader::Fma,
            Reader::Memory,
            Reader::Shared,
            Reader::Uniform,
            Reader::Fp64,
            Reader::Convert,
            Reader::HalfMinMax,
            Reader::Other,
        ];
        READERS.iter().map(|&r| self.latency(pipe, false, r)).max().unwrap_or(OTHER)
    }

    /// Cycles from the issue of a producer in `pipe` to the first issue that may read its
    /// result through `reader`. `pred` says the value read is a predicate.
    pub fn latency(self, pipe: Pipe, pred: bool, reader: Reader) -> u8 {
        if reader == Reader::Guard {
            return PRED_TO_GUARD;
        }
        if self == Timing::Sm50 {
            // ptxas 11.8's schedules (filetests/timing/data/sm50.tsv, calibrated from its code
            // of every filetest, bench and example kernel): an ALU result is read by the ALU
            // pipeline no sooner than 6 cycles later (IADD 1,647 reads, XMAD 2,009, MOV 358, SEL
            // 1,343 ...), the carry flag likewise (IADD32I.CC → IADD.X 6), by a global memory
            // operand 2 later (`MOV R3, c[0x0][0x144]` → `LDG.E.CV.64 R4, [R2]`, 869 reads), a
            // shared one 4 later (`MOV R5, R13` → `ATOMS.CAS.64`, 144), by SHFL 4 later and by the
            // units whose results come back on a scoreboard (POPC, FLO, MUFU, conversions) 2 later,
            // 4 for a pair's high half (`MOV R5` → `F2F.F32.F64.RP R0, R4`); the FP64 unit 4 for a
            // high half, 5 otherwise. The figures are the strictest half's: the static check
            // credits the other half's earlier read (`hazard::read_late`). A predicate is read 13
            // later, in a guard or an operand.
            return match reader {
                _ if pred => PRED_TO_GUARD,
                Reader::Memory => 2,
                Reader::Shared | Reader::Other => 4,
                Reader::Fp64 => 5,
                _ => OTHER,
            };
        }
        // sm_90 (sass-timing facts; NVIDIA's Ampere tables agree).
        match (pipe, reader) {
            // A vector predicate read by the vote unit, like a guard: ptxas 13 reads
            // `LOP3.LUT P0, RZ, R5, 0x2, RZ, 0xc0, !PT` in `VOTE.ANY R5, PT, P0` 13 cycles later,
            // and on an H100 atomc's `VOTEU.ANY UR6, UPT, P0` 6 cycles after the `ISETP` that
            // wrote P0 read the old P0 (`subgroup-votes.atom`, 2026-11-26).
            (Pipe::Alu | Pipe::Fma | Pipe::FmaWide | Pipe::Fp64 | Pipe::Other, Reader::Uniform) if pred => PRED_TO_GUARD,
            (Pipe::HalfMinMax, Reader::HalfMinMax) => 4,
            (Pipe::Alu | Pipe::Fma | Pipe::FmaWide, Reader::HalfMinMax) => 5,
            (Pipe::HalfMinMax, Reader::Alu | Reader::Fma | Reader::Memory | Reader::Shared) => 5,
            (Pipe::HalfMinMax, Reader::Other | Reader::Convert) => 4,
            (Pipe::HalfMinMax, Reader::Fp64) => 6,
            (Pipe::Alu, Reader::Alu) => 4,
            (Pipe::Alu, Reader::Fma) | (Pipe::Fma, Reader::Alu) => 5,
            (Pipe::Fma, Reader::Fma) => 4,
            // ptxas 13 reads an IMAD.WIDE result in the FMA pipe 4 cycles later (194 reads) but
            // in the ALU never sooner than 5 (`IMAD.WIDE.U32 R2, R7, 0x4, R4` → `IADD3 R3, R3,
            // UR4, RZ`, 111 reads), and in a global memory operand never sooner than 9
            // (`IMAD.WIDE.U32 R16, R0, 0x8, R16` → `STG.E.64 desc[UR6][R16.64], R4`, 63 reads;
            // filetests/timing/data/sm90.tsv).
            (Pipe::FmaWide, Reader::Fma) => 4,
            (Pipe::FmaWide, Reader::Alu) => 5,
            (Pipe::FmaWide, Reader::Memory) => 9,
            (Pipe::Alu | Pipe::Fma | Pipe::FmaWide, Reader::Memory | Reader::Shared) => 5,
            // ptxas reads an ALU or FMA result in POPC, FLO, SHFL and REDUX 4 cycles later.
            (Pipe::Alu | Pipe::Fma | Pipe::FmaWide, Reader::Other) => 4,
            // F2F and F2I read an FMA-pipe result no sooner than 6 cycles later in ptxas 13's
            // code (`VIADD R4, R8, 0x1ffffffe` → `F2I.U64.TRUNC R4, R4`, 30 reads in udiv64;
            // `IMAD R3, R0, R3, R0` → `F2F.F64.F32 R2, R3`), an ALU result 4 later (`LOP3.LUT
            // R0` → `F2F.F64.F32 R2, R0`; filetests/timing/data/sm90.tsv).
            (Pipe::Alu, Reader::Convert) => 4,
            (Pipe::Fma | Pipe::FmaWide, Reader::Convert) => 6,
            // An ALU or FMA result in the FP64 pipe: 6. On an H100 (run 6) `DFMA R6, -R2, R4, 1`
            // 4 cycles after `MOV R5, R11` read the old R5; ptxas 13.5 reads `VIADD R5, R14,
            // 0x7fe00000` in `DMUL R10, R12, R4` 6 cycles later (div.rn.f64's slow path) and
            // `MOV R5, R7` in `DSETP.MAX.AND P0, P1, R8, R4` 7 later (fmax.f64's CAS loop), and
            // `LOP3.LUT R3` in `DFMA R4, R2, R4, R4` 6 later.
            (Pipe::Alu | Pipe::Fma | Pipe::FmaWide, Reader::Fp64) => 6,
            // ptxas 13.5 reads DSETP's predicates in FSEL/SEL 6 cycles later (the CAS loops of
            // fmax.f64), and in a guard 13 later like every other predicate.
            (Pipe::Fp64, _) if pred => OTHER,
            // A store reads an FP64 result 7 cycles later in ptxas 13.5's code: `DMUL R2, R2, R2`
            // (stall 7) then `STG.E.64 desc[UR4][R4.64], R2` (ptxas of atomc's PTX for
            // an f64 `fmul` stored to global memory, as in compile/visa/fmul64-soft.atom).
            (Pipe::Fp64, Reader::Memory) => 7,
            // ptxas 13 reads an FP64 result in the ALU, the FMA pipe and shared-memory operands no
            // sooner than 10 cycles later (`DFMA` → `LOP3.LUT` 24 reads, `DMUL` → `LOP3.LUT` 22,
            // `DADD` → `ATOMS.CAST.SPIN.64` 7; filetests/timing/data/sm90.tsv).
            (Pipe::Fp64, Reader::Alu | Reader::Fma | Reader::Shared) => 10,
            // ptxas 13.5 spaces dependent DFMAs 8 cycles apart and sets no scoreboard.
            (Pipe::Fp64, _) => 8,
            (Pipe::UniformMove, _) => 2,
            // Uniform → uniform 4 (`UIADD3 UP0` → `UIADD3.X ... UP0` in ptxas 13.5's code);
            // uniform → vector datapath 6.
            (Pipe::Uniform, Reader::Uniform) => 4,
            // A uniform result in a memory operand: ptxas 13 reads `ULEA UR5, UR5, UR4, 0x18`
            // (the shared window) in `STS [R0+UR5]` no sooner than 9 cycles later (13 reads;
            // filetests/timing/data/sm90.tsv), and never reads one there sooner.
            (Pipe::Uniform, Reader::Memory | Reader::Shared) => 9,
            (Pipe::Uniform, _) => 6,
            // A predicate from an unclassified compare (FSETP, DSETP) as an operand.
            (Pipe::Other, _) if pred => PRED_TO_GUARD,
            _ => OTHER,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pipe of the first form spelled `text` (mnemonic and modifiers) on sm_90.
    fn pipe(t: Timing, arch: &Arch, text: &str) -> Pipe {
        let ins = arch.assemble_line(&format!("{text} ;"), 0).expect("assembles").expect("an instruction");
        t.pipe_of(arch, &ins)
    }

    #[test]
    fn sm90_classes() {
        let t = Timing::Sm90;
        let a = super::super::sm90();
        assert_eq!(pipe(t, a, "IMAD.WIDE.U32 R2, R3, R4, R6"), Pipe::FmaWide);
        assert_eq!(pipe(t, a, "IMAD R2, R3, R4, R5"), Pipe::Fma);
        assert_eq!(pipe(t, a, "LOP3.LUT R2, R3, R4, R5, 0x96, !PT"), Pipe::Alu);
        assert_eq!(pipe(t, a, "DADD R2, R4, R6"), Pipe::Fp64);
        assert_eq!(pipe(t, a, "F2F.F64.F32 R2, R3"), Pipe::Other);
        assert_eq!(t.latency(Pipe::Fp64, false, Reader::Fma), 10);
        assert_eq!(t.latency(Pipe::Fp64, false, Reader::Memory), 7);
        assert_eq!(t.latency(Pipe::Alu, false, Reader::Alu), 4);
        assert_eq!(t.latency(Pipe::Alu, true, Reader::Guard), 13);
        assert_eq!(t.latency(Pipe::Fma, false, Reader::Memory), 5);
    }

    /// What the scheduler asks on sm_50: the reader class of real instructions, then the
    /// latency of that class (an ALU result read by the ALU 2 cycles later passed this test
    /// when it asked only `latency(Other, false, Alu)`, a reader nothing produced).
    #[test]
    fn sm50_readers_of_real_instructions() {
        let t = Timing::Sm50;
        let a = super::super::sm50();
        let reader = |text: &str| {
            let ins = a.assemble_line(&format!("{text} ;"), 0).expect("assembles").expect("an instruction");
            let memory = super::super::roles::roles(a, &ins).memory;
            t.reader_of(a, &ins, memory)
        };
        let lat = |text: &str| t.latency(Pipe::Other, false, reader(text));
        for alu in ["IADD R3, R9, R2", "XMAD R5, R6, R7, R4", "MOV R8, R0", "SHL R2, R4, 0x2", "IADD3 R2, R3, R4, R5"] {
            assert_eq!((alu, lat(alu)), (alu, 6));
        }
        assert_eq!(lat("STG.E [R2], R4"), 2);
        assert_eq!(lat("STS [R3], R4"), 4);
        assert_eq!(lat("SHFL.BFLY PT, R4, R5, 0x2, 0x1f"), 4);
        assert_eq!(lat("DADD R2, R4, R6"), 5);
        assert_eq!(t.latency(Pipe::Other, true, reader("SEL R2, R3, R4, P0")), 13);
    }
}
