//! The vocabulary of a form table: what one instruction form looks like.
//!
//! A [`Form`] is the single description of one machine encoding: fixed bits that identify it,
//! modifier groups (each a field plus a value-to-spelling table), and operand slots (each an
//! operand kind plus the fields its parts live in). The encoder, decoder, printer and
//! assembler in this module all interpret the same `Form` values; nothing else knows bits.
//!
//! The tables themselves are written with a builder in `tables/` and turned into static data
//! by the build script (this file is compiled there too), so using a table costs no start-up
//! work: a whole-process compile of a small kernel used to spend a sixth of its time building
//! the sm_90 table on the heap (docs/bench.md, "Static form tables").

use super::bits::Field;
use super::facts::{Facts, Meaning};

/// A modifier group: a field and the spelling of each legal value, in printing order within
/// the form. The empty spelling marks a default that nvdisasm does not print. Values absent
/// from `values` are illegal (nvdisasm prints them as `INVALIDn` or refuses the word).
/// A group without a field is a fixed spelling (e.g. the `LUT` of `LOP3.LUT`).
#[derive(Clone, Copy, Debug)]
pub struct ModGroup {
    pub name: &'static str,
    pub field: Option<Field>,
    pub values: &'static [(u64, &'static str)],
    /// What each value means to the form's facts, parallel to `values` (filled in by the table
    /// builder when the form is finished).
    pub meanings: &'static [Meaning],
}

impl ModGroup {
    /// The value written when the text names no spelling of this group (the "" entry).
    pub fn default_value(&self) -> Option<u64> {
        self.values.iter().find(|(_, s)| s.is_empty()).map(|(v, _)| *v)
    }

    /// The spelling of `v`, if legal.
    pub fn spelling(&self, v: u64) -> Option<&'static str> {
        self.values.iter().find(|(x, _)| *x == v).map(|(_, s)| *s)
    }

    /// The meaning of `v`, if legal.
    pub fn meaning(&self, v: u64) -> Option<&'static Meaning> {
        self.values.iter().position(|(x, _)| *x == v).and_then(|i| self.meanings.get(i))
    }
}

/// How an immediate field is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImmKind {
    /// Unsigned, `0x..` (nvdisasm's default for logic masks, shift counts, etc.).
    Hex,
    /// Two's complement, `0x..` or `-0x..`.
    SignedHex,
    /// 32-bit IEEE float, shown like C's `%.20g` (`0.5`, `100`, `+INF`).
    F32,
    /// A 32-bit IEEE float whose field holds only the high 20 bits (sign, exponent, 11 mantissa
    /// bits; the low 12 must be zero): Maxwell's float-immediate ALU shape. The operand value
    /// is the whole float's bits, as for [`ImmKind::F32`]; only the encoding drops the low 12.
    /// ptxas 11.8: 0x3958003fc0070203 `FADD R3, R2, -1.5` (sign in bit 56).
    F32Hi20,
    /// The high 32 bits of an IEEE double (the low half is zero).
    F64Hi,
    /// [`ImmKind::F64Hi`] whose field holds only the high 20 bits of that word (sign, exponent,
    /// 8 mantissa bits; the low 12 must be zero), as [`ImmKind::F32Hi20`] holds an f32: sm_50's
    /// double-immediate shape. ptxas 11.8: 0x368d03fff0090687 `@!P1 DSETP.NEU.AND P0, PT,
    /// |R6|, +INF , PT` (div.rn.f64).
    F64Hi20,
    /// One IEEE half-precision value (packed f16x2 immediates are two such operands).
    F16,
}

/// A general register operand (`R5`, `RZ`, `-R5`, `|R5|`, `~R5`, `R5.reuse`).
#[derive(Clone, Copy, Debug)]
pub struct RegSpec {
    pub field: Field,
    /// Whether the zero register may appear here.
    pub rz_ok: bool,
    pub neg: Option<Field>,
    pub abs: Option<Field>,
    pub not: Option<Field>,
    /// Which schedule reuse flag prints `.reuse` on this operand.
    pub reuse: Option<u8>,
}

/// A predicate operand (`P0`, `!PT`); `not` is the field of its negation bit.
#[derive(Clone, Copy, Debug)]
pub struct PredSpec {
    pub field: Field,
    pub not: Option<Field>,
    /// nvdisasm leaves this operand out when it is `PT` (e.g. SUATOM's predicate result).
    pub hide_pt: bool,
}

/// An immediate operand.
#[derive(Clone, Copy, Debug)]
pub struct ImmSpec {
    pub field: Field,
    pub kind: ImmKind,
}

/// A constant-bank operand `c[bank][offset]`, or `c[bank][Ra+offset]` when `base` is set.
#[derive(Clone, Copy, Debug)]
pub struct CBankSpec {
    pub bank: Field,
    /// Byte offset.
    pub offset: Field,
    pub base: Option<Field>,
}

/// How the base register of a memory operand is spelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BaseWidth {
    /// `[R2]`
    Plain,
    /// `[R2.64]`: a 64-bit address in an aligned register pair.
    Wide,
    /// `[R2.U32+UR4]`
    U32,
}

/// A memory operand: `[Ra]`, `[Ra+imm]`, `[Ra.64+URb+imm]`, `desc[URd][Ra.64+imm]`.
#[derive(Clone, Copy, Debug)]
pub struct MemSpec {
    pub base: Field,
    pub width: BaseWidth,
    pub ureg: Option<Field>,
    pub desc: Option<Field>,
    /// Signed byte offset.
    pub offset: Option<Field>,
    /// Index scaling of the base register (`R2.X4`; 0 none, 1 X4, 2 X8, 3 X16), shared memory.
    pub scale: Option<Field>,
    pub reuse: Option<u8>,
}

/// One operand slot of a form.
#[derive(Clone, Copy, Debug)]
pub enum OpSpec {
    Reg(RegSpec),
    /// Uniform register (`UR4`, `URZ`); `not` prints `~UR4`, `neg` prints `-UR4`.
    UReg(RegSpec),
    Pred(PredSpec),
    /// Uniform predicate (`UP0`, `UPT`).
    UPred(PredSpec),
    Imm(ImmSpec),
    CBank(CBankSpec),
    Mem(MemSpec),
    /// Special register for S2R / S2UR / CS2R (`SR_TID.X`).
    SReg(Field),
    /// Relative branch target: signed count of 4-byte units from the next instruction,
    /// printed as an absolute address.
    Target(Field),
    /// Convergence barrier register (`B0`).
    BReg(Field),
    /// Register operands with an unusual shape (sm_50): see [`ExtSpec`].
    Ext(ExtSpec),
}

/// The spellings of [`ExtSpec::Swizzled`] values.
pub const SWIZZLES: &[(u8, &str)] = &[(0, ""), (2, ".H0_H0"), (3, ".H1_H1")];

/// Register operands that the plain [`RegSpec`] cannot describe.
#[derive(Clone, Copy, Debug)]
pub enum ExtSpec {
    /// A register with no bits of its own: the register of operand slot `from` plus `delta`
    /// (sm_50 `ATOM.CAS` prints `Rb, Rb+1`), or `RZ` when `from` is `None`. The encoder
    /// refuses any other register here, so the text names exactly what the hardware uses.
    Implied { from: Option<u8>, delta: u8 },
    /// A general register followed by a one-bit suffix flag (sm_50 `IADD R2.CC, ...`). The
    /// flag travels in the operand's `Reg::not` (this slot has no bitwise-not bit). `sets_cc`:
    /// the flag makes the instruction write the sm_50 condition code (`.CC`).
    Suffixed { field: Field, flag: Field, suffix: &'static str, reuse: Option<u8>, sets_cc: bool },
    /// A memory operand whose offset field counts units of `1 << shift` bytes (sm_50 `ATOMS`
    /// stores `imm / 4`). The operand value and the text carry the byte offset.
    MemScaled { spec: MemSpec, shift: u8 },
    /// A constant operand whose offset field counts units of `1 << shift` bytes (sm_50
    /// `c[0x0][0x140]` stores word 0x50).
    CBankScaled { spec: CBankSpec, shift: u8 },
    /// An absolute address `[0x80000]` (`[RZ]` when zero): the base register field is fixed to
    /// `RZ` by the form and the offset field, in units of `1 << shift` bytes, is unsigned.
    Abs { field: Field, shift: u8 },
    /// A scaled constant (as [`ExtSpec::CBankScaled`]) with source modifiers: `-c[..][..]`
    /// (`neg`), `|c[..][..]|` (`abs`) and a `.H1` half selector (`h1`), carried in the operand's
    /// `neg` / `abs` / `h1` flags. `spaced` prints nvdisasm's `c[0x0] [0x150]` (sm_50 XMAD and
    /// F2F from F16 put a space between bank and offset).
    CBankMod { spec: CBankSpec, shift: u8, neg: Option<Field>, abs: Option<Field>, h1: Option<Field>, spaced: bool },
    /// A general register with a half-precision swizzle after it (sm_90 `HADD2 R8, -R0.H0_H0,
    /// |R2|.reuse.H1_H1`): `reg`'s register, negate/absolute and reuse bits, and the swizzle
    /// value in `swz` (0 unprinted, 2 `.H0_H0`, 3 `.H1_H1`; nvdisasm prints 1 as `INVALID1`),
    /// carried in the operand's `Reg::swz`. `uniform`: a uniform register, whose absolute-value
    /// bars enclose the swizzle (`-|UR4.H0_H0|`).
    Swizzled { reg: RegSpec, swz: Field, uniform: bool },
    /// A set of scoreboards `{5,1}` (sm_50 `DEPBAR`): one bit per scoreboard in `field`, printed
    /// highest first; the operand is an immediate holding the mask, never zero.
    SbSet { field: Field },
    /// A scoreboard `SB0`..`SB{max}` (sm_50 `DEPBAR.LE`); the operand is an immediate.
    SbReg { field: Field, max: u8 },
}

impl ExtSpec {
    /// The plain operand kind this one is printed and parsed as (byte offsets unscaled).
    pub fn plain(&self) -> Option<OpSpec> {
        match *self {
            ExtSpec::MemScaled { spec, .. } => Some(OpSpec::Mem(spec)),
            ExtSpec::CBankScaled { spec, .. } | ExtSpec::CBankMod { spec, .. } => Some(OpSpec::CBank(spec)),
            _ => None,
        }
    }

    /// The scale shift of a scaled operand.
    pub fn shift(&self) -> u8 {
        match *self {
            ExtSpec::MemScaled { shift, .. }
            | ExtSpec::CBankScaled { shift, .. }
            | ExtSpec::CBankMod { shift, .. }
            | ExtSpec::Abs { shift, .. } => shift,
            _ => 0,
        }
    }
}

/// One instruction form.
#[derive(Clone, Copy, Debug)]
pub struct Form {
    /// The mnemonic without modifiers (`ATOMG`).
    pub mnemonic: &'static str,
    /// Short name unique within the arch (`ATOMG.desc`), used in reports and by builders.
    pub key: &'static str,
    /// Bits that identify this form, and their values.
    pub fixed: &'static [(Field, u64)],
    pub mods: &'static [ModGroup],
    pub ops: &'static [OpSpec],
    /// Operand-dependent alias nvdisasm prints right after the mnemonic (IMAD's `MOV`, `SHL`,
    /// `IADD`): a function of the modifier values and operands, not of any extra bit.
    pub alias: Option<Alias>,
    /// The guard is a uniform predicate (`@UP0`), as on sm_90's uniform-datapath forms.
    pub uniform_guard: bool,
    /// The last operand follows the one before it after a space, not a comma (sm_90
    /// `RET.REL.NODEC R4 0x0`).
    pub space_last: bool,
    /// (mask, value) of the identifying bits: `fixed` folded, once (encoding starts from it).
    pub identity: (u128, u128),
    /// What the form does besides its bits: operand roles, register widths, timing class.
    pub facts: Facts,
}

/// See [`Form::alias`]: which rule picks the alias (the rules are code, in `alias.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Alias {
    /// sm_90 `IMAD` printed as `MOV`, `IADD` or `SHL` when its operands make it one.
    Imad,
}

/// A whole form table with its lookup indices, all computed by the build script.
#[derive(Clone, Copy, Debug)]
pub struct FormTable {
    pub forms: &'static [Form],
    /// For each mnemonic the indices of its forms, sorted by mnemonic (assembler, selector).
    pub by_mnemonic: &'static [(&'static str, &'static [u16])],
    /// The decoder's order: each form's (mask, value) of identifying bits, most fixed bits
    /// first (ties in table order).
    pub decode_order: &'static [(u128, u128, u16)],
    /// Every bit each form gives a meaning to ([`Form::known_bits`]), by form index.
    pub known: &'static [u128],
    /// For each [`Mnemonic`] id (both tables' vocabulary) the indices of its forms here.
    pub by_id: &'static [&'static [u16]],
    /// For each form, group and value (as in [`ModGroup::values`]) the tokens of its spelling.
    pub mod_toks: &'static [&'static [&'static [&'static [Tok]]]],
}

/// A mnemonic of the form tables (`ATOMG`), by its index in the sorted vocabulary of both
/// tables (`op::MNEMONIC_NAMES`); `op::m` names each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Mnemonic(pub u8);

/// One dot-separated token of a modifier spelling (`STRONG` of `STRONG.GPU`), by its index in
/// the sorted vocabulary of both tables (`op::TOKEN_NAMES`); `op::t` names each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tok(pub u8);

impl Form {
    /// The meanings of the modifier values `mods` (one per group, as an instruction holds them).
    pub fn meanings<'a>(&'a self, mods: &'a [u64]) -> impl Iterator<Item = &'static Meaning> + 'a {
        self.mods.iter().zip(mods).filter_map(|(g, v)| g.meaning(*v))
    }

    /// (mask, value) of the identifying bits.
    pub fn pattern(&self) -> (u128, u128) {
        self.identity
    }

    /// Every bit this form gives a meaning to (fixed bits, modifiers, operands).
    pub fn known_bits(&self) -> u128 {
        let mut m = self.pattern().0;
        for g in self.mods {
            if let Some(f) = g.field {
                m |= f.mask();
            }
        }
        for op in self.ops {
            m |= op_fields(op).iter().fold(0, |a, f| a | f.mask());
        }
        m
    }
}

/// (mask, value) of identifying bits `fixed` (what [`Form::identity`] holds).
pub fn pattern_of(fixed: &[(Field, u64)]) -> (u128, u128) {
    let mut mask = 0u128;
    let mut value = 0u128;
    for (f, v) in fixed {
        mask |= f.mask();
        f.set(&mut value, *v);
    }
    (mask, value)
}

/// The fields an operand slot occupies.
pub fn op_fields(op: &OpSpec) -> Vec<Field> {
    let mut v = Vec::new();
    match op {
        OpSpec::Reg(r) | OpSpec::UReg(r) => {
            v.push(r.field);
            v.extend(r.neg);
            v.extend(r.abs);
            v.extend(r.not);
        }
        OpSpec::Pred(p) | OpSpec::UPred(p) => {
            v.push(p.field);
            v.extend(p.not);
        }
        OpSpec::Imm(i) => v.push(i.field),
        OpSpec::CBank(c) => {
            v.push(c.bank);
            v.push(c.offset);
            v.extend(c.base);
        }
        OpSpec::Mem(m) => {
            v.push(m.base);
            v.extend(m.ureg);
            v.extend(m.desc);
            v.extend(m.offset);
            v.extend(m.scale);
        }
        OpSpec::SReg(f) | OpSpec::Target(f) | OpSpec::BReg(f) => v.push(*f),
        OpSpec::Ext(ExtSpec::Implied { .. }) => {}
        OpSpec::Ext(ExtSpec::Swizzled { reg, swz, .. }) => {
            v.extend(op_fields(&OpSpec::Reg(*reg)));
            v.push(*swz);
        }
        OpSpec::Ext(ExtSpec::Suffixed { field, flag, .. }) => {
            v.push(*field);
            v.push(*flag);
        }
        OpSpec::Ext(e @ (ExtSpec::MemScaled { .. } | ExtSpec::CBankScaled { .. })) => {
            if let Some(p) = e.plain() {
                v.extend(op_fields(&p));
            }
        }
        OpSpec::Ext(ExtSpec::CBankMod { spec, neg, abs, h1, .. }) => {
            v.extend(op_fields(&OpSpec::CBank(*spec)));
            v.extend(*neg);
            v.extend(*abs);
            v.extend(*h1);
        }
        OpSpec::Ext(ExtSpec::Abs { field, .. } | ExtSpec::SbSet { field } | ExtSpec::SbReg { field, .. }) => {
            v.push(*field)
        }
    }
    v
}

/// Where the schedule (control) fields live.
#[derive(Clone, Copy, Debug)]
pub enum SchedLayout {
    /// Inside each instruction word, 21 bits starting at `lo` (sm_70 and later: bit 105).
    InWord { lo: u8 },
    /// In a separate control word per bundle of instructions (sm_50: 3 instructions and one
    /// control word per 32 bytes, 21 bits per slot). Not implemented by the codec yet.
    Bundle { per_bundle: u8, slot_bits: u8 },
}
