//! vISA instructions and the one table that describes them.
//!
//! [`OpInfo`] lists, per opcode, the fields of the `.isa` record in binary
//! order and the order its operands take in the text. Both writers
//! ([`super::text`] and [`super::binary`]) walk this table; neither has a
//! per-opcode switch of its own, so they cannot drift apart.

use super::kernel::PredId;
use super::operand::Operand;
use super::types::{Exec, ExecSize, PredCtl};

/// The opcodes atomc emits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// `add`: dst = src0 + src1 (integer or float).
    Add,
    /// `mul`.
    Mul,
    /// `mad`: dst = src0 * src1 + src2.
    Mad,
    /// `inv`: dst = 1 / src0 (float).
    Inv,
    /// `addc`: dst = low 32 bits of src0 + src1, carry = the carry bit (ud).
    Addc,
    /// `subb`: dst = src0 - src1, borrow = the borrow bit (ud).
    Subb,
    /// `and` (general or predicate operands).
    And,
    /// `or`.
    Or,
    /// `xor`.
    Xor,
    /// `not`.
    Not,
    /// `shl`.
    Shl,
    /// `shr` (logical).
    Shr,
    /// `asr` (arithmetic).
    Asr,
    /// `mov`, also the type conversion.
    Mov,
    /// `sel`: predicated select (`(P) sel d a b` picks a where P).
    Sel,
    /// `min` (vISA `fminmax` with the min selector).
    Min,
    /// `max` (vISA `fminmax` with the max selector).
    Max,
    /// `setp`: predicate from a bit mask.
    Setp,
    /// `cmp.<relop>` into a predicate (or a general variable).
    Cmp,
    /// A label definition.
    Label,
    /// `jmp`: scalar branch.
    Jmp,
    /// `goto`: SIMD control flow (divergent branch).
    Goto,
    /// `ret`.
    Ret,
    /// `fence_global` / `fence_local` with options.
    Fence,
    /// `svm_atomic.<op>[.16|.64]`.
    SvmAtomic,
    /// `svm_gather.<block bytes>.<blocks>`: per-lane loads.
    SvmGather,
    /// `svm_scatter.<block bytes>.<blocks>`: per-lane stores.
    SvmScatter,
}

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
        let mut s = String::from(if self.local { "fence_local" } else { "fence_global" });
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
        let only_r = self.rw && !(self.commit || self.icache || self.sampler || self.constant || self.l1);
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
}

/// A predicate guard `(P1)`, `(!P1)`, `(P1.any)`, `(P1.all)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Predicate {
    /// The predicate variable.
    pub pred: PredId,
    /// `!`: act where the predicate is false.
    pub invert: bool,
    /// Lane combination.
    pub ctl: PredCtl,
}

impl Predicate {
    /// `(P)`.
    pub fn on(pred: PredId) -> Predicate {
        Predicate { pred, invert: false, ctl: PredCtl::Normal }
    }
    /// `(!P)`.
    pub fn not(pred: PredId) -> Predicate {
        Predicate { pred, invert: true, ctl: PredCtl::Normal }
    }
    /// `(P.any)`.
    pub fn any(pred: PredId) -> Predicate {
        Predicate { pred, invert: false, ctl: PredCtl::Any }
    }
    /// `(P.all)`.
    pub fn all(pred: PredId) -> Predicate {
        Predicate { pred, invert: false, ctl: PredCtl::All }
    }
    /// The `pred` UW of the binary (visa.md §1.3).
    pub fn word(self) -> u16 {
        let ctl = match self.ctl {
            PredCtl::Normal => 0,
            PredCtl::Any => 1,
            PredCtl::All => 2,
        };
        (self.pred.number() & 0x0fff) | (ctl << 13) | if self.invert { 0x8000 } else { 0 }
    }
}

/// One instruction.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Inst {
    /// Opcode.
    pub op: Op,
    /// Execution size and mask (ignored by opcodes without an exec field).
    pub exec: Exec,
    /// Guard (ignored by opcodes without a pred field).
    pub pred: Option<Predicate>,
    /// `.sat` on the destination.
    pub sat: bool,
    /// Opcode-specific extra.
    pub ext: Ext,
    /// Operands in binary order (see [`OpInfo::fields`]).
    pub operands: Vec<Operand>,
}

impl Inst {
    /// A new instruction with no guard and no saturation.
    pub fn new(op: Op, exec: Exec, ext: Ext, operands: Vec<Operand>) -> Inst {
        Inst { op, exec, pred: None, sat: false, ext, operands }
    }
    /// Sets the guard.
    pub fn predicated(&mut self, p: Predicate) -> &mut Inst {
        self.pred = Some(p);
        self
    }
    /// Sets `.sat`.
    pub fn saturate(&mut self) -> &mut Inst {
        self.sat = true;
        self
    }
    /// The table entry for this instruction's opcode.
    pub fn info(&self) -> &'static OpInfo {
        info(self.op)
    }
}

/// What kind of operand a slot takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Slot {
    /// Vector destination: a general region, or a predicate for the logic
    /// ops, `cmp` and `setp`.
    Dst,
    /// Vector source: a general region, an immediate or a predicate.
    Src,
    /// Raw operand.
    Raw,
    /// Label.
    Label,
}

/// One field of a binary instruction record, after the opcode byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// A constant byte (sub-opcode, min/max selector).
    Byte(u8),
    /// The exec byte.
    Exec,
    /// The predicate UW.
    Pred,
    /// The extra of [`Ext`], encoded for its kind.
    Ext,
    /// The next operand, of the given slot kind.
    Operand(Slot),
}

/// How the text line is shaped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TextForm {
    /// `[(P)] mnemonic[.ext][.sat] (Mx, n) operands…`.
    Normal,
    /// `NAME:` at column 0.
    Label,
    /// `fence_global.E` etc.: the extra is the whole mnemonic, no exec.
    Fence,
}

/// The description of one opcode that drives both writers.
#[derive(Debug)]
pub struct OpInfo {
    /// The opcode.
    pub op: Op,
    /// Text mnemonic.
    pub mnemonic: &'static str,
    /// Opcode byte.
    pub code: u8,
    /// Fields after the opcode byte, in binary order.
    pub fields: &'static [Field],
    /// Operand indices (into the binary-ordered operand list) in text order.
    pub text_order: &'static [usize],
    /// Text shape.
    pub form: TextForm,
}

impl OpInfo {
    /// Whether the record has an exec field.
    pub fn has_exec(&self) -> bool {
        self.fields.contains(&Field::Exec)
    }
    /// Whether the record has a predicate field.
    pub fn has_pred(&self) -> bool {
        self.fields.contains(&Field::Pred)
    }
    /// The operand slots in binary order.
    pub fn slots(&self) -> impl Iterator<Item = Slot> + '_ {
        self.fields.iter().filter_map(|f| match f {
            Field::Operand(s) => Some(*s),
            _ => None,
        })
    }
    /// Number of operands.
    pub fn num_operands(&self) -> usize {
        self.slots().count()
    }
}

use Field::{Byte, Exec as FExec, Ext as FExt, Operand as O, Pred as FPred};
use Slot::{Dst, Label as L, Raw, Src};

const ALU1: &[Field] = &[FExec, FPred, O(Dst), O(Src)];
const ALU2: &[Field] = &[FExec, FPred, O(Dst), O(Src), O(Src)];
const ALU3: &[Field] = &[FExec, FPred, O(Dst), O(Src), O(Src), O(Src)];
const CARRY: &[Field] = &[FExec, FPred, O(Dst), O(Dst), O(Src), O(Src)];
const ID1: &[usize] = &[0];
const ID2: &[usize] = &[0, 1];
const ID3: &[usize] = &[0, 1, 2];
const ID4: &[usize] = &[0, 1, 2, 3];

macro_rules! op {
    ($op:ident, $m:expr, $code:expr, $fields:expr, $order:expr) => {
        op!($op, $m, $code, $fields, $order, TextForm::Normal)
    };
    ($op:ident, $m:expr, $code:expr, $fields:expr, $order:expr, $form:expr) => {
        OpInfo { op: Op::$op, mnemonic: $m, code: $code, fields: $fields, text_order: $order, form: $form }
    };
}

/// The opcode table. Codes and layouts: visa.md §1.4 (add, and, or, xor,
/// sel, mov, not, setp, cmp, label, jmp, goto, ret, fence, svm) and IGC's
/// `visa/IsaDescription.cpp` for the rest; every entry is checked through
/// GenX_IR's reader by `emit/tests/visa_oracle.rs`.
static TABLE: [OpInfo; 27] = [
    op!(Add, "add", 0x01, ALU2, ID3),
    op!(Mul, "mul", 0x10, ALU2, ID3),
    op!(Mad, "mad", 0x0C, ALU3, ID4),
    op!(Inv, "inv", 0x1B, ALU1, ID2),
    op!(Addc, "addc", 0x49, CARRY, ID4),
    op!(Subb, "subb", 0x4A, CARRY, ID4),
    op!(And, "and", 0x20, ALU2, ID3),
    op!(Or, "or", 0x21, ALU2, ID3),
    op!(Xor, "xor", 0x22, ALU2, ID3),
    op!(Not, "not", 0x23, ALU1, ID2),
    op!(Shl, "shl", 0x24, ALU2, ID3),
    op!(Shr, "shr", 0x25, ALU2, ID3),
    op!(Asr, "asr", 0x26, ALU2, ID3),
    op!(Mov, "mov", 0x29, ALU1, ID2),
    op!(Sel, "sel", 0x2A, ALU2, ID3),
    // fminmax: exec, selector byte (0 min, 1 max: checked through GenX_IR's
    // reader), dst, src0, src1; no pred.
    op!(Min, "min", 0x45, &[FExec, Byte(0), O(Dst), O(Src), O(Src)], ID3),
    op!(Max, "max", 0x45, &[FExec, Byte(1), O(Dst), O(Src), O(Src)], ID3),
    op!(Setp, "setp", 0x2B, &[FExec, O(Dst), O(Src)], ID2),
    op!(Cmp, "cmp", 0x2C, &[FExec, FExt, O(Dst), O(Src), O(Src)], ID3),
    op!(Label, "label", 0x31, &[O(L)], ID1, TextForm::Label),
    op!(Jmp, "jmp", 0x32, &[FExec, FPred, O(L)], ID1),
    op!(Goto, "goto", 0x6C, &[FExec, FPred, O(L)], ID1),
    op!(Ret, "ret", 0x34, &[FExec, FPred], &[]),
    op!(Fence, "fence", 0x5C, &[FExt], &[], TextForm::Fence),
    // svm_atomic: binary addr, src0, src1, dst; text addr, dst, src0, src1.
    op!(
        SvmAtomic,
        "svm_atomic",
        0x4E,
        &[Byte(5), FExec, FPred, FExt, O(Raw), O(Raw), O(Raw), O(Raw)],
        &[0, 3, 1, 2]
    ),
    op!(SvmGather, "svm_gather", 0x4E, &[Byte(3), FExec, FPred, FExt, O(Raw), O(Raw)], ID2),
    op!(SvmScatter, "svm_scatter", 0x4E, &[Byte(4), FExec, FPred, FExt, O(Raw), O(Raw)], ID2),
];

/// The table entry of an opcode.
pub fn info(op: Op) -> &'static OpInfo {
    // The table is in `Op` declaration order; a unit test checks it.
    &TABLE[op as usize]
}

/// The whole table (for tests and documentation).
pub fn table() -> &'static [OpInfo] {
    &TABLE
}

/// `(M1, 1)`, the exec of `ret`, `jmp` and scalar code.
pub const EXEC1: Exec = Exec { size: ExecSize::S1, offset: 0, nomask: false };

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_in_op_order() {
        for (i, e) in TABLE.iter().enumerate() {
            assert_eq!(e.op as usize, i, "{:?}", e.op);
            assert_eq!(e.text_order.len(), e.num_operands(), "{:?}", e.op);
        }
    }
}
