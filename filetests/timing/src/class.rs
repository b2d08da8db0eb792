//! Producer and reader classes: how samples are grouped.
//!
//! A producer's class is its mnemonic (with `.WIDE` apart: IMAD.WIDE writes its high half
//! later). A reader's class is the unit that reads the operand, by this crate's own grouping of
//! mnemonics after NVIDIA's published pipe split (the Ampere latency tables, maxas for Maxwell):
//! integer/logic ALU, FMA pipe, FP64, global memory, shared memory, uniform datapath, a guard.
//! A mnemonic this table does not place is a class of its own, so an unplaced reader never
//! borrows another unit's figure.

use super::effects::Role;
use super::listing::{Family, Inst};

/// Integer and logic ALU readers, sm_90 (NVIDIA's "ALU" pipe).
const SM90_ALU: &[&str] = &[
    "IADD3", "LOP3", "LEA", "PRMT", "MOV", "SEL", "SHF", "ISETP", "IMNMX", "VIMNMX", "FSEL", "FMNMX", "FSETP", "PLOP3",
    "P2R", "R2P", "SGXT", "BMSK", "IABS", "CS2R", "FSET", "ISET", "LOP", "IADD", "SHL", "SHR",
];

/// FMA-pipe readers, sm_90.
const SM90_FMA: &[&str] = &["IMAD", "FADD", "FMUL", "FFMA", "IMUL", "HFMA2", "HADD2", "HMUL2", "VIADD", "IDP", "FCHK"];

/// FP64 readers, both families.
const FP64: &[&str] = &["DADD", "DMUL", "DFMA", "DSETP", "DMNMX"];

/// Uniform-datapath readers, sm_90.
const SM90_UNIFORM: &[&str] = &[
    "UIADD3", "ULEA", "ULOP3", "USHF", "UISETP", "UPRMT", "USEL", "UMOV", "UIMAD", "UPLOP3", "USGXT", "ULOP", "UBMSK",
    "UFLO", "UPOPC", "UBREV", "R2UR", "VOTEU", "ULDC",
];

/// sm_50's fixed-latency integer and single-precision readers (maxas: one 6-deep pipeline).
const SM50_ALU: &[&str] = &[
    "IADD", "IADD3", "IADD32I", "ISCADD", "ISCADD32I", "LOP", "LOP3", "LOP32I", "MOV", "MOV32I", "SHL", "SHR", "SHF",
    "BFE", "BFI", "SEL", "ISETP", "ICMP", "IMNMX", "LEA", "PRMT", "XMAD", "FADD", "FADD32I", "FMUL", "FMUL32I", "FFMA",
    "FFMA32I", "FSETP", "FSET", "FMNMX", "FCMP", "PSETP", "PSET", "P2R", "R2P", "ISET", "IMAD", "IMUL", "FCHK", "LEA",
    "HADD2", "HMUL2", "HFMA2", "CSET", "CSETP",
];

/// Global, local and generic memory instructions (a register operand is an address or data).
const MEMORY: &[&str] = &[
    "LDG", "STG", "LD", "ST", "LDL", "STL", "ATOM", "ATOMG", "RED", "REDG", "SUATOM", "SURED", "SULD", "SUST", "CCTL",
    "ATOMC",
];

/// Shared-memory instructions.
const SHARED: &[&str] = &["LDS", "STS", "ATOMS", "LDSM"];

/// sm_90's ALU pipe as NVIDIA's published latency tables name it (the producers ptxas's code
/// shows with one figure: 4 cycles to an ALU reader).
const SM90_ALU_PRODUCERS: &[&str] = &["IADD3", "LOP3", "LEA", "PRMT", "MOV", "SEL", "SHF"];

/// sm_90's FMA pipe, likewise.
const SM90_FMA_PRODUCERS: &[&str] = &["IMAD", "FADD", "FMUL", "FFMA", "VIADD"];

/// The class of a producer: its pipe where NVIDIA documents one figure for the whole pipe
/// (sm_50: maxas's single 6-deep pipeline; sm_90: the ALU and FMA pipes of the Ampere tables),
/// otherwise its mnemonic (with `.WIDE` apart: IMAD.WIDE writes its high half later).
pub fn producer(ins: &Inst, family: Family) -> String {
    let m = ins.mnemonic.as_str();
    if ins.has_mod("WIDE") {
        return format!("{m}.WIDE");
    }
    let pipe = match family {
        // VOTE's result is timed like the ALU's in ptxas 11.8's code (→ ALU 6, → POPC 2).
        Family::Sm50 if SM50_ALU.contains(&m) || matches!(m, "BFE" | "BFI" | "VOTE") => "alu",
        Family::Sm90 if SM90_ALU_PRODUCERS.contains(&m) => "alu",
        Family::Sm90 if SM90_FMA_PRODUCERS.contains(&m) => "fma",
        _ => return m.to_string(),
    };
    pipe.to_string()
}

/// The class of a reader: the unit reading `role` of `ins`.
pub fn reader(ins: &Inst, role: Role, family: Family) -> String {
    let m = ins.mnemonic.as_str();
    let name = if role == Role::Guard {
        "guard"
    } else if MEMORY.contains(&m) {
        "memory"
    } else if SHARED.contains(&m) {
        "shared"
    } else if FP64.contains(&m) {
        "fp64"
    } else {
        match family {
            Family::Sm90 if SM90_ALU.contains(&m) => "alu",
            Family::Sm90 if SM90_FMA.contains(&m) => "fma",
            Family::Sm90 if SM90_UNIFORM.contains(&m) => "uniform",
            Family::Sm50 if SM50_ALU.contains(&m) => "alu",
            // POPC, FLO and REDUX read their source like one another (sass-timing facts: 4 cycles
            // after an ALU or FMA result on sm_90).
            _ if matches!(m, "POPC" | "FLO" | "REDUX") => "popc",
            _ => return m.to_string(),
        }
    };
    name.to_string()
}
