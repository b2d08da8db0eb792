//! The opcode-specific extras of instructions: `cmp` relations,
//! `svm_atomic` ops and widths, fence options, gather/scatter block shapes.

/// Comparison of `cmp` (visa.md §1.4 relop codes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relop {
    /// `==`.
    Eq,
    /// `!=`.
    Ne,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
}

impl Relop {
    /// Binary code.
    pub fn code(self) -> u8 {
        self as u8
    }
    /// Text suffix without the dot.
    pub fn name(self) -> &'static str {
        match self {
            Relop::Eq => "eq",
            Relop::Ne => "ne",
            Relop::Gt => "gt",
            Relop::Ge => "ge",
            Relop::Lt => "lt",
            Relop::Le => "le",
        }
    }
}

/// The `svm_atomic` operation (seed 002 op codes, visa.md §1.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicOp {
    /// Integer add.
    Add,
    /// Integer subtract.
    Sub,
    /// Increment (no src0).
    Inc,
    /// Decrement (no src0).
    Dec,
    /// Unsigned min.
    Min,
    /// Unsigned max.
    Max,
    /// Exchange.
    Xchg,
    /// Compare-exchange: src0 = new value, src1 = expected.
    CmpXchg,
    /// Bitwise and.
    And,
    /// Bitwise or.
    Or,
    /// Bitwise xor.
    Xor,
    /// Signed min (text `minsint`).
    IMin,
    /// Signed max (text `maxsint`).
    IMax,
    /// Pre-decrement (binary only: GenX_IR's text parser has no spelling).
    PreDec,
    /// Float max.
    FMax,
    /// Float min.
    FMin,
    /// Float compare-exchange: src0 = expected, src1 = new value.
    FCmpWr,
    /// Float add (XeHP+).
    FAdd,
    /// Float subtract (XeHP+).
    FSub,
}

impl AtomicOp {
    /// Every op.
    pub const ALL: [AtomicOp; 19] = [
        AtomicOp::Add,
        AtomicOp::Sub,
        AtomicOp::Inc,
        AtomicOp::Dec,
        AtomicOp::Min,
        AtomicOp::Max,
        AtomicOp::Xchg,
        AtomicOp::CmpXchg,
        AtomicOp::And,
        AtomicOp::Or,
        AtomicOp::Xor,
        AtomicOp::IMin,
        AtomicOp::IMax,
        AtomicOp::PreDec,
        AtomicOp::FMax,
        AtomicOp::FMin,
        AtomicOp::FCmpWr,
        AtomicOp::FAdd,
        AtomicOp::FSub,
    ];

    /// Bits 0-4 of the op byte.
    pub fn code(self) -> u8 {
        match self {
            AtomicOp::Add => 0,
            AtomicOp::Sub => 1,
            AtomicOp::Inc => 2,
            AtomicOp::Dec => 3,
            AtomicOp::Min => 4,
            AtomicOp::Max => 5,
            AtomicOp::Xchg => 6,
            AtomicOp::CmpXchg => 7,
            AtomicOp::And => 8,
            AtomicOp::Or => 9,
            AtomicOp::Xor => 10,
            AtomicOp::IMin => 11,
            AtomicOp::IMax => 12,
            AtomicOp::PreDec => 13,
            AtomicOp::FMax => 16,
            AtomicOp::FMin => 17,
            AtomicOp::FCmpWr => 18,
            AtomicOp::FAdd => 19,
            AtomicOp::FSub => 20,
        }
    }

    /// GenX_IR's text spelling; `None` for `predec`, which the parser
    /// rejects (visa.md §2, `neg/op_predec`).
    pub fn text(self) -> Option<&'static str> {
        Some(match self {
            AtomicOp::Add => "add",
            AtomicOp::Sub => "sub",
            AtomicOp::Inc => "inc",
            AtomicOp::Dec => "dec",
            AtomicOp::Min => "min",
            AtomicOp::Max => "max",
            AtomicOp::Xchg => "xchg",
            AtomicOp::CmpXchg => "cmpxchg",
            AtomicOp::And => "and",
            AtomicOp::Or => "or",
            AtomicOp::Xor => "xor",
            AtomicOp::IMin => "minsint",
            AtomicOp::IMax => "maxsint",
            AtomicOp::PreDec => return None,
            AtomicOp::FMax => "fmax",
            AtomicOp::FMin => "fmin",
            AtomicOp::FCmpWr => "fcmpwr",
            AtomicOp::FAdd => "fadd",
            AtomicOp::FSub => "fsub",
        })
    }

    /// How many of src0/src1 the op reads (seed 002: inc/dec have none,
    /// cmpxchg/fcmpwr two, the rest one; predec behaves like dec).
    pub fn num_sources(self) -> usize {
        match self {
            AtomicOp::Inc | AtomicOp::Dec | AtomicOp::PreDec => 0,
            AtomicOp::CmpXchg | AtomicOp::FCmpWr => 2,
            _ => 1,
        }
    }

    /// Whether the op is one of the float ops.
    pub fn is_float(self) -> bool {
        matches!(
            self,
            AtomicOp::FMax | AtomicOp::FMin | AtomicOp::FCmpWr | AtomicOp::FAdd | AtomicOp::FSub
        )
    }
}

/// Data width of an atomic (op byte bits 5-6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicWidth {
    /// `.16`: 16-bit data, one dword per lane in the payload.
    W16,
    /// 32-bit (no suffix).
    W32,
    /// `.64`.
    W64,
}

impl AtomicWidth {
    /// Bits 5-6 of the op byte, shifted in place.
    pub fn bits(self) -> u8 {
        match self {
            AtomicWidth::W32 => 0x00,
            AtomicWidth::W16 => 0x20,
            AtomicWidth::W64 => 0x40,
        }
    }
    /// Text suffix.
    pub fn suffix(self) -> &'static str {
        match self {
            AtomicWidth::W32 => "",
            AtomicWidth::W16 => ".16",
            AtomicWidth::W64 => ".64",
        }
    }
}

/// Options of a `fence` (visa.md §1.4 fence mask).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Fence {
    /// `fence_local`: order SLM only (mask bit 5).
    pub local: bool,
    /// `.E`: wait for the commit (bit 0).
    pub commit: bool,
    /// `.I`: flush the instruction cache (bit 1).
    pub icache: bool,
    /// `.S`: flush the sampler cache (bit 2).
    pub sampler: bool,
    /// `.C`: flush the constant cache (bit 3).
    pub constant: bool,
    /// `.R`: flush the read-write cache (bit 4).
    pub rw: bool,
    /// `.L1`: flush L1 (bit 6).
    pub l1: bool,
}

impl Fence {
    /// The mask byte.
    pub fn mask(self) -> u8 {
        (self.commit as u8)
            | (self.icache as u8) << 1
            | (self.sampler as u8) << 2
            | (self.constant as u8) << 3
            | (self.rw as u8) << 4
            | (self.local as u8) << 5
            | (self.l1 as u8) << 6
    }
    /// The text mnemonic and options, e.g. `fence_global.ER`: GenX_IR's
    /// lexer takes the options as one token, letters in the order E I S C R
    /// L1 (`fence_global.E.R` and `.ESCRI` are syntax errors; measured).
    pub fn text(self) -> String {
        let mut s = String::from(if self.local {
            "fence_local"
        } else {
            "fence_global"
        });
        let opts: String = [
            (self.commit, "E"),
            (self.icache, "I"),
            (self.sampler, "S"),
            (self.constant, "C"),
            (self.rw, "R"),
            (self.l1, "L1"),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, o)| *o)
        .collect();
        if !opts.is_empty() {
            s.push('.');
            s.push_str(&opts);
        }
        s
    }

    /// Whether the options can be written as text: `.R` alone lexes as a
    /// sampler channel (measured: "unexpected SAMPLER_CHANNEL").
    pub fn has_text_form(self) -> bool {
        let only_r =
            self.rw && !(self.commit || self.icache || self.sampler || self.constant || self.l1);
        !only_r
    }
}

/// Block shape of `svm_gather`/`svm_scatter`: per lane, `num_blocks`
/// blocks of `block_bytes` bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Blocks {
    /// 1, 4 or 8 bytes per block.
    pub block_bytes: u8,
    /// 1, 2, 4 or 8 blocks per lane.
    pub num_blocks: u8,
}

impl Blocks {
    /// Block-size code (0: 1 byte, 1: 4 bytes, 2: 8 bytes).
    pub fn size_code(self) -> u8 {
        match self.block_bytes {
            1 => 0,
            4 => 1,
            _ => 2,
        }
    }
    /// log2 of the block count.
    pub fn num_code(self) -> u8 {
        match self.num_blocks {
            1 => 0,
            2 => 1,
            4 => 2,
            _ => 3,
        }
    }
}

/// The opcode-specific extra of an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ext {
    /// Nothing extra.
    None,
    /// `cmp` relation.
    Relop(Relop),
    /// `svm_atomic` op and width.
    Atomic(AtomicOp, AtomicWidth),
    /// `fence` options.
    Fence(Fence),
    /// `svm_gather`/`svm_scatter` block shape.
    Blocks(Blocks),
    /// `gather_scaled`/`scatter_scaled`: bytes per lane (1, 2 or 4).
    Scaled(u8),
    /// `resinfo`: the channels returned (bit 0 R, 1 G, 2 B, 3 A).
    Channels(Channels),
}

/// The channel mask of a sampler message such as `resinfo`. The `.isa` record
/// holds it as a byte of its own after the exec size (bit 0 R … bit 3 A), and
/// the text spells it `.R`, `.RG`, `.RGB` (GenX_IR 1.0.12504 writes the byte
/// `0x07` for `resinfo.RGB`, and refuses `resinfo` without a channel: "expecting
/// SAMPLER_CHANNEL"; measured).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Channels(pub u8);

impl Channels {
    /// The first `n` channels (1: R, 2: RG, 3: RGB, 4: RGBA).
    pub fn first(n: usize) -> Channels {
        Channels(((1u16 << n.min(4)) - 1) as u8)
    }
    /// The text suffix without the dot.
    pub fn text(self) -> String {
        "RGBA".chars().enumerate().filter(|(i, _)| self.0 & (1 << i) != 0).map(|(_, c)| c).collect()
    }
    /// The enabled channels, in order (0 R … 3 A).
    pub fn iter(self) -> impl Iterator<Item = usize> {
        (0..4).filter(move |i| self.0 & (1 << i) != 0)
    }
}
