//! vISA instructions and the one table that describes them.
//!
//! [`OpInfo`] lists, per opcode, the fields of the `.isa` record in binary
//! order and the order its operands take in the text. Both writers
//! ([`super::text`] and [`super::binary`]) walk this table; neither has a
//! per-opcode switch of its own, so they cannot drift apart.

pub use super::ext::{AtomicOp, AtomicWidth, Blocks, Channels, Ext, Fence, Relop};
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
    /// `div`: integer quotient rounded toward zero (or float quotient). GenX_IR 1.0.12504
    /// lowers the integer form to `math.iqot` on TGLLP and refuses it on DG2 and PVC ("int
    /// divide/remainder is not supported for this platform").
    Div,
    /// `mod`: integer remainder, the sign of the dividend (`math.irem` on TGLLP).
    Mod,
    /// `divm`: IEEE-754 float division, correctly rounded to nearest even (`f`, `df`); GenX_IR
    /// expands it into the platform's exact divide sequence (IGC's `IEEEDivide`).
    Divm,
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
    /// `dword_atomic.<op>[.16]` on `%slm`: an atomic on shared local memory
    /// at per-lane byte offsets (`ud`).
    DwordAtomic,
    /// `gather_scaled.<bytes>` from `%slm`: per-lane loads of 1, 2 or 4 bytes.
    GatherScaled,
    /// `scatter_scaled.<bytes>` to `%slm`: per-lane stores of 1, 2 or 4 bytes.
    ScatterScaled,
    /// `barrier`: waits for every thread of the thread group.
    Barrier,
    /// `lzd`: leading zero count of a `ud` (32 for 0).
    Lzd,
    /// `cbit`: population count.
    Cbit,
    /// `fbl`: the index of the lowest set bit (0xffffffff for 0).
    Fbl,
    /// `bfrev`: bit reversal.
    Bfrev,
    /// `bfe`: dst = the field of src2 at bit src1 (low 5 bits), src0 (low 5 bits) wide;
    /// sign-extended when the types are signed.
    Bfe,
    /// `bfi`: dst = src3 with the field at bit src1, src0 wide, replaced by the low bits of src2.
    Bfi,
    /// `mulh`: the high 32 bits of the 64-bit product (signed when the sources are `d`).
    Mulh,
    /// `typed_atomic.<op>[.16]`: an atomic on a typed surface at per-lane
    /// texel coordinates u, v, r and lod (`ud`); SIMD8 only.
    TypedAtomic,
    /// `lsc_atomic_<op>.slm`: an LSC atomic on SLM at per-lane `a32` byte
    /// addresses (DG2, PVC; [`super::lsc`]).
    LscSlmAtomic,
    /// `resinfo.<channels>`: the surface's size per channel (R width, G height or
    /// layers, B depth or layers) at a lod, `exec size` lanes of each enabled
    /// channel one after the other in the destination.
    ResInfo,
    /// `movs`: writes a scalar into a surface's state; `movs (M1_NM, 1) %bss(0) H` makes the
    /// next messages on `%bss` use the surface whose surface-state offset is `H` (bindless).
    Movs,
    /// `gather4_typed.<channels>`: reads the enabled channels of the texels at per-lane
    /// coordinates u, v, r and lod (`ud`) of a typed surface, one GRF per channel; SIMD8.
    Gather4Typed,
    /// `scatter4_typed.<channels>`: writes the enabled channels of those texels, one GRF per
    /// channel of data; SIMD8.
    Scatter4Typed,
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
        Predicate {
            pred,
            invert: false,
            ctl: PredCtl::Normal,
        }
    }
    /// `(!P)`.
    pub fn not(pred: PredId) -> Predicate {
        Predicate {
            pred,
            invert: true,
            ctl: PredCtl::Normal,
        }
    }
    /// `(P.any)`.
    pub fn any(pred: PredId) -> Predicate {
        Predicate {
            pred,
            invert: false,
            ctl: PredCtl::Any,
        }
    }
    /// `(P.all)`.
    pub fn all(pred: PredId) -> Predicate {
        Predicate {
            pred,
            invert: false,
            ctl: PredCtl::All,
        }
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
        Inst {
            op,
            exec,
            pred: None,
            sat: false,
            ext,
            operands,
        }
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
    /// A surface (one byte, its number).
    Surface,
    /// A state operand ([`Operand::State`]): tag 6, class, UW surface
    /// number, UB offset.
    State,
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
    /// The surface byte, always T0 (`%slm` in the text, written right
    /// after the exec size).
    Slm,
    /// The LSC sub-op, from the [`Ext::Atomic`] op.
    LscOp,
    /// The LSC flat-SLM message shape for the [`Ext::Atomic`] width and the
    /// flat surface operand ([`super::lsc::slm_shape`]).
    LscSlm,
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
    /// `[(P)] lsc_atomic_<op>.slm (Mx, n) dst:dNN flat[addrs]:a32 src1 src2`.
    LscSlm,
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
        OpInfo {
            op: Op::$op,
            mnemonic: $m,
            code: $code,
            fields: $fields,
            text_order: $order,
            form: $form,
        }
    };
}

/// The opcode table. Codes and layouts: visa.md §1.4 (add, and, or, xor,
/// sel, mov, not, setp, cmp, label, jmp, goto, ret, fence, svm) and IGC's
/// `visa/IsaDescription.cpp` for the rest; every entry is checked through
/// GenX_IR's reader by `emit/visa/tests/visa_oracle.rs`.
static TABLE: [OpInfo; 47] = [
    op!(Add, "add", 0x01, ALU2, ID3),
    op!(Mul, "mul", 0x10, ALU2, ID3),
    op!(Div, "div", 0x03, ALU2, ID3),
    op!(Mod, "mod", 0x0F, ALU2, ID3),
    op!(Divm, "divm", 0x7F, ALU2, ID3),
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
    op!(
        Min,
        "min",
        0x45,
        &[FExec, Byte(0), O(Dst), O(Src), O(Src)],
        ID3
    ),
    op!(
        Max,
        "max",
        0x45,
        &[FExec, Byte(1), O(Dst), O(Src), O(Src)],
        ID3
    ),
    op!(Setp, "setp", 0x2B, &[FExec, O(Dst), O(Src)], ID2),
    op!(
        Cmp,
        "cmp",
        0x2C,
        &[FExec, FExt, O(Dst), O(Src), O(Src)],
        ID3
    ),
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
    op!(
        SvmGather,
        "svm_gather",
        0x4E,
        &[Byte(3), FExec, FPred, FExt, O(Raw), O(Raw)],
        ID2
    ),
    op!(
        SvmScatter,
        "svm_scatter",
        0x4E,
        &[Byte(4), FExec, FPred, FExt, O(Raw), O(Raw)],
        ID2
    ),
    // The SLM messages (IGC documentation/visa/instructions: DWORD_ATOMIC 0x7d,
    // GATHER_SCALED 0x78, SCATTER_SCALED 0x79, BARRIER 0x59), each checked through
    // GenX_IR's reader by tests/visa_oracle.rs (text and .isa give the same Gen code).
    // dword_atomic: op byte, exec, pred, surface, offsets, src0, src1, dst (text in
    // the same order).
    op!(
        DwordAtomic,
        "dword_atomic",
        0x7D,
        &[FExt, FExec, FPred, Field::Slm, O(Raw), O(Raw), O(Raw), O(Raw)],
        ID4
    ),
    // gather/scatter_scaled: exec, pred, block size and block count (the extra),
    // scale (UW, always 0), surface, global offset (a scalar `ud` source), per-lane
    // offsets, data.
    op!(
        GatherScaled,
        "gather_scaled",
        0x78,
        &[FExec, FPred, FExt, Byte(0), Byte(0), Field::Slm, O(Src), O(Raw), O(Raw)],
        ID3
    ),
    op!(
        ScatterScaled,
        "scatter_scaled",
        0x79,
        &[FExec, FPred, FExt, Byte(0), Byte(0), Field::Slm, O(Src), O(Raw), O(Raw)],
        ID3
    ),
    op!(Barrier, "barrier", 0x59, &[], &[]),
    // Bit and multiply-high ops (IGC's `visa_igc_common_header.h` ISA_LZD 0x1F, ISA_CBIT 0x27,
    // ISA_FBL 0x2E, ISA_BFE 0x46, ISA_BFI 0x47, ISA_BFREV 0x48, ISA_MULH 0x0D), each checked
    // through GenX_IR's reader by tests/visa_oracle.rs (text and .isa give the same Gen code).
    op!(Lzd, "lzd", 0x1F, ALU1, ID2),
    op!(Cbit, "cbit", 0x27, ALU1, ID2),
    op!(Fbl, "fbl", 0x2E, ALU1, ID2),
    op!(Bfrev, "bfrev", 0x48, ALU1, ID2),
    op!(Bfe, "bfe", 0x46, ALU3, ID4),
    op!(Bfi, "bfi", 0x47, &[FExec, FPred, O(Dst), O(Src), O(Src), O(Src), O(Src)], &[0, 1, 2, 3, 4]),
    op!(Mulh, "mulh", 0x0D, ALU2, ID3),
    // typed_atomic (IGC documentation/visa/instructions/TYPED_ATOMIC.md, opcode 0x73; field order of
    // GenX_IR's `.isa` reader): op byte, exec, pred, surface, u, v, r, lod, src0, src1, dst; the text
    // has the operands in the same order. Checked through GenX_IR's reader by tests/visa_oracle.rs.
    op!(
        TypedAtomic,
        "typed_atomic",
        0x73,
        &[FExt, FExec, FPred, O(Slot::Surface), O(Raw), O(Raw), O(Raw), O(Raw), O(Raw), O(Raw), O(Raw)],
        &[0, 1, 2, 3, 4, 5, 6, 7]
    ),
    // lsc_atomic_<op>.slm (LSC_UNTYPED 0x89; layout in super::lsc): dst, addresses, src1, src2.
    op!(
        LscSlmAtomic,
        "lsc_atomic",
        0x89,
        &[Field::LscOp, FExec, FPred, Field::LscSlm, O(Raw), O(Raw), O(Raw), O(Raw)],
        ID4,
        TextForm::LscSlm
    ),
    // resinfo (IGC documentation/visa/instructions/INFO.md, opcode 0x70, sub-op 0x0A): sub-op,
    // exec, channel mask (the extra), surface, lod, dst; no predicate; the text has surface, lod,
    // dst. GenX_IR 1.0.12504 writes `70 0a 84 07 06 ...` for `resinfo.RGB (M1_NM, 16) T6 lod.0
    // dst.0` (measured) and compiles it to a `send.smpl` on TGLLP, DG2 and PVC; checked through
    // GenX_IR's reader by tests/visa_oracle.rs.
    op!(ResInfo, "resinfo", 0x70, &[Byte(0x0A), FExec, FExt, O(Slot::Surface), O(Raw), O(Raw)], ID3),
    // movs (IGC `visa_igc_common_header.h` ISA_MOVS 0x2D; IsaDescription.cpp: exec, then two
    // "special" vector operands, no predicate): exec, dst (a state operand here), src; the text
    // `movs (M1_NM, 1) %bss(0) H(0,0)<0;1,0>` (CISA.y's MovsInstruction, DstStateOperand
    // VecSrcOperand). Checked through GenX_IR's reader by tests/visa_oracle.rs.
    op!(Movs, "movs", 0x2D, &[FExec, O(Slot::State), O(Src)], ID2),
    // gather4_typed / scatter4_typed (IGC documentation/visa/instructions/GATHER4_TYPED.md 0x4b,
    // SCATTER4_TYPED.md 0x4c): exec, pred, channel mask (the extra), surface, u, v, r, lod, then
    // the data (dst of the read, src of the write); the text has the operands in the same order.
    // GenX_IR 1.0.12504 writes `4b 03 01 00 03 06` for `(P1) gather4_typed.RG (M1, 8) SLOT0 ...`
    // (measured: exec, pred word, channel mask RG, surface T6) and compiles both to `send.dc1` on
    // TGLLP, DG2 and PVC; checked through GenX_IR's reader by tests/visa_oracle.rs.
    op!(
        Gather4Typed,
        "gather4_typed",
        0x4B,
        &[FExec, FPred, FExt, O(Slot::Surface), O(Raw), O(Raw), O(Raw), O(Raw), O(Raw)],
        &[0, 1, 2, 3, 4, 5]
    ),
    op!(
        Scatter4Typed,
        "scatter4_typed",
        0x4C,
        &[FExec, FPred, FExt, O(Slot::Surface), O(Raw), O(Raw), O(Raw), O(Raw), O(Raw)],
        &[0, 1, 2, 3, 4, 5]
    ),
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
pub const EXEC1: Exec = Exec {
    size: ExecSize::S1,
    offset: 0,
    nomask: false,
};

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
