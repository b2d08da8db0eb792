//! Scalar vocabulary of vISA: element types, alignments, execution sizes and
//! masks, predicate controls and the Gen platforms GenX_IR knows.
//!
//! Every numeric code here is the one the `.isa` 4.1 format stores
//! (reference: visa.md §1.2 and §1.3); every spelling is the one GenX_IR
//! 1.0.12504's text parser accepts (visa.md §2).

use std::fmt;

/// Element type of a general variable or an immediate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// Unsigned 32-bit.
    UD,
    /// Signed 32-bit.
    D,
    /// Unsigned 16-bit.
    UW,
    /// Signed 16-bit.
    W,
    /// Unsigned 8-bit.
    UB,
    /// Signed 8-bit.
    B,
    /// IEEE double.
    DF,
    /// IEEE single.
    F,
    /// Unsigned 64-bit.
    UQ,
    /// Signed 64-bit.
    Q,
    /// IEEE half.
    HF,
}

impl Type {
    /// All types, in `.isa` code order.
    pub const ALL: [Type; 11] = [
        Type::UD,
        Type::D,
        Type::UW,
        Type::W,
        Type::UB,
        Type::B,
        Type::DF,
        Type::F,
        Type::UQ,
        Type::Q,
        Type::HF,
    ];

    /// The 4-bit code of the `.isa` format (visa.md §1.2 "Codes").
    pub fn code(self) -> u8 {
        match self {
            Type::UD => 0,
            Type::D => 1,
            Type::UW => 2,
            Type::W => 3,
            Type::UB => 4,
            Type::B => 5,
            Type::DF => 6,
            Type::F => 7,
            Type::UQ => 11,
            Type::Q => 13,
            Type::HF => 14,
        }
    }

    /// The text spelling (`type=ud`, `0x1:ud`).
    pub fn name(self) -> &'static str {
        match self {
            Type::UD => "ud",
            Type::D => "d",
            Type::UW => "uw",
            Type::W => "w",
            Type::UB => "ub",
            Type::B => "b",
            Type::DF => "df",
            Type::F => "f",
            Type::UQ => "uq",
            Type::Q => "q",
            Type::HF => "hf",
        }
    }

    /// Size of one element in bytes.
    pub fn size(self) -> u32 {
        match self {
            Type::UB | Type::B => 1,
            Type::UW | Type::W | Type::HF => 2,
            Type::UD | Type::D | Type::F => 4,
            Type::UQ | Type::Q | Type::DF => 8,
        }
    }

    /// Whether the type is a floating-point type.
    pub fn is_float(self) -> bool {
        matches!(self, Type::F | Type::DF | Type::HF)
    }

    /// Whether the type is a signed integer type.
    pub fn is_signed_int(self) -> bool {
        matches!(self, Type::D | Type::W | Type::B | Type::Q)
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Alignment of a general variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Align {
    /// 1 byte (the default when `align=` is left out).
    Byte,
    /// 2 bytes.
    Word,
    /// 4 bytes.
    Dword,
    /// 8 bytes.
    Qword,
    /// 16 bytes.
    Oword,
    /// One GRF (32 bytes, 64 on PVC).
    Grf,
    /// Two GRFs.
    Grf2,
    /// 32 bytes.
    Hword,
    /// 64 bytes.
    Wordx32,
}

impl Align {
    /// The 4-bit code of the `.isa` format (visa.md §1.2).
    pub fn code(self) -> u8 {
        match self {
            Align::Byte => 0,
            Align::Word => 1,
            Align::Dword => 2,
            Align::Qword => 3,
            Align::Oword => 4,
            Align::Grf => 5,
            Align::Grf2 => 6,
            Align::Hword => 7,
            Align::Wordx32 => 8,
        }
    }

    /// The text spelling after `align=`.
    pub fn name(self) -> &'static str {
        match self {
            Align::Byte => "byte",
            Align::Word => "word",
            Align::Dword => "dword",
            Align::Qword => "qword",
            Align::Oword => "oword",
            Align::Grf => "GRF",
            Align::Grf2 => "2GRF",
            Align::Hword => "hword",
            Align::Wordx32 => "wordx32",
        }
    }
}

/// Number of SIMD lanes an instruction executes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ExecSize {
    /// 1 lane.
    S1,
    /// 2 lanes.
    S2,
    /// 4 lanes.
    S4,
    /// 8 lanes.
    S8,
    /// 16 lanes.
    S16,
    /// 32 lanes.
    S32,
}

impl ExecSize {
    /// All sizes, smallest first.
    pub const ALL: [ExecSize; 6] = [
        ExecSize::S1,
        ExecSize::S2,
        ExecSize::S4,
        ExecSize::S8,
        ExecSize::S16,
        ExecSize::S32,
    ];

    /// The lane count.
    pub fn lanes(self) -> u32 {
        1 << self.code()
    }

    /// The 3-bit size code (0:1 … 5:32).
    pub fn code(self) -> u8 {
        match self {
            ExecSize::S1 => 0,
            ExecSize::S2 => 1,
            ExecSize::S4 => 2,
            ExecSize::S8 => 3,
            ExecSize::S16 => 4,
            ExecSize::S32 => 5,
        }
    }

    /// The size with the given lane count, if it is one vISA has.
    pub fn from_lanes(n: u32) -> Option<ExecSize> {
        ExecSize::ALL.into_iter().find(|s| s.lanes() == n)
    }
}

/// Execution size plus execution mask: the `(M1, 8)` of the text and the
/// `exec` byte of the binary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Exec {
    /// Lane count.
    pub size: ExecSize,
    /// Channel group `M1`…`M8` as 0…7: lanes start at `4 * offset`.
    pub offset: u8,
    /// `_NM`: ignore the channel-enable mask (Gen `(W)`).
    pub nomask: bool,
}

impl Exec {
    /// `(M1, n)`.
    pub fn new(size: ExecSize) -> Exec {
        Exec {
            size,
            offset: 0,
            nomask: false,
        }
    }

    /// `(M1_NM, n)`.
    pub fn nomask(size: ExecSize) -> Exec {
        Exec {
            size,
            offset: 0,
            nomask: true,
        }
    }

    /// `(M<offset+1>, n)`.
    pub fn at(size: ExecSize, offset: u8) -> Exec {
        Exec {
            size,
            offset,
            nomask: false,
        }
    }

    /// The `exec` byte: size code in bits 0-2, mask in bits 4-7 (visa.md §1.3).
    pub fn byte(self) -> u8 {
        let mask = (self.offset & 7) | if self.nomask { 8 } else { 0 };
        self.size.code() | (mask << 4)
    }
}

impl fmt::Display for Exec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let nm = if self.nomask { "_NM" } else { "" };
        write!(f, "(M{}{}, {})", self.offset + 1, nm, self.size.lanes())
    }
}

/// How a predicate's lanes are combined (visa.md §1.3 `pred` bits 13-14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PredCtl {
    /// Per lane.
    Normal,
    /// `.any`: true for all lanes if any lane is.
    Any,
    /// `.all`: true for all lanes if every lane is.
    All,
}

/// Gen platforms as GenX_IR's `-platform` spells them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Platform {
    /// Broadwell (Gen8).
    Bdw,
    /// Cherryview.
    Chv,
    /// Skylake (Gen9).
    Skl,
    /// Broxton.
    Bxt,
    /// Ice Lake (Gen11).
    Icllp,
    /// Tiger Lake (Gen12LP).
    Tgllp,
    /// XeHP SDV.
    XeHpSdv,
    /// DG2 (Xe-HPG).
    Dg2,
    /// Meteor Lake.
    Mtl,
    /// Ponte Vecchio (Xe-HPC).
    Pvc,
    /// Ponte Vecchio XT.
    PvcXt,
}

impl Platform {
    /// All platforms, oldest first.
    pub const ALL: [Platform; 11] = [
        Platform::Bdw,
        Platform::Chv,
        Platform::Skl,
        Platform::Bxt,
        Platform::Icllp,
        Platform::Tgllp,
        Platform::XeHpSdv,
        Platform::Dg2,
        Platform::Mtl,
        Platform::Pvc,
        Platform::PvcXt,
    ];

    /// GenX_IR's `-platform` value.
    pub fn genx_name(self) -> &'static str {
        match self {
            Platform::Bdw => "BDW",
            Platform::Chv => "CHV",
            Platform::Skl => "SKL",
            Platform::Bxt => "BXT",
            Platform::Icllp => "ICLLP",
            Platform::Tgllp => "TGLLP",
            Platform::XeHpSdv => "XeHP_SDV",
            Platform::Dg2 => "DG2",
            Platform::Mtl => "MTL",
            Platform::Pvc => "PVC",
            Platform::PvcXt => "PVCXT",
        }
    }

    /// Parses GenX_IR's spelling (case-insensitive).
    pub fn from_name(s: &str) -> Option<Platform> {
        Platform::ALL
            .into_iter()
            .find(|p| p.genx_name().eq_ignore_ascii_case(s))
    }

    /// Size of one GRF in bytes (64 on PVC, 32 elsewhere).
    pub fn grf_bytes(self) -> u32 {
        if matches!(self, Platform::Pvc | Platform::PvcXt) {
            64
        } else {
            32
        }
    }

    /// Gen12LP (TGLLP) or newer: the parts with 16-bit atomics.
    pub fn is_tgllp_plus(self) -> bool {
        self >= Platform::Tgllp
    }

    /// XeHP or newer: the parts with 32-bit float atomic add/sub.
    pub fn is_xehp_plus(self) -> bool {
        self >= Platform::XeHpSdv
    }

    /// Whether the part divides integers in its math unit (`math.iqot`/`math.irem`): Gen12LP
    /// and older. GenX_IR 1.0.12504 refuses vISA `div`/`mod` on integers for DG2 and PVC ("int
    /// divide/remainder is not supported for this platform"); IGC divides in software there.
    pub fn has_int_divide(self) -> bool {
        self <= Platform::Tgllp
    }

    /// Whether GenX_IR accepts the IEEE divide macro `divm` (expanded to `math.invm` and a
    /// `madm` chain): PVC. On TGLLP and DG2, GenX_IR 1.0.12504 refuses it ("IEEE instruction
    /// divm is not supported on TGLLP platform", the same for DG2).
    pub fn has_ieee_divide(self) -> bool {
        self == Platform::Pvc
    }

    /// Whether GenX_IR would emit native Q/DF Gen instructions this part
    /// lacks for a 64-bit ALU op (visa.md §2 "64-bit ALU ops": ICLLP, TGLLP,
    /// DG2 and MTL; `reference/visa-samples/q64/*.log`).
    pub fn lacks_int64_alu(self) -> bool {
        matches!(
            self,
            Platform::Icllp | Platform::Tgllp | Platform::Dg2 | Platform::Mtl
        )
    }
}

impl fmt::Display for Platform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.genx_name())
    }
}
