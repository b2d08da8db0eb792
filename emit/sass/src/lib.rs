//! SASS instruction forms: one table per architecture drives the encoder, decoder, printer
//! and assembler.
//!
//! * [`Arch`] bundles an architecture's form table with its word size, guard field, zero
//!   registers, special-register names and schedule layout. [`sm90()`] returns the Hopper table
//!   (and `sm50()` the Maxwell one).
//! * [`Instr`] is a decoded instruction: a form index, guard, one raw value per modifier group,
//!   one [`Operand`] per operand slot, and the [`Sched`] control fields (stall, yield, write and
//!   read scoreboards, wait mask, reuse flags), which round-trip through encode/decode.
//! * `arch.encode(&instr)` / `arch.decode(bytes)` convert to and from little-endian words;
//!   `arch.print(&instr)` / `print_at(&instr, addr)` give nvdisasm's text exactly (branch
//!   targets are absolute, so the address matters); `print_with_sched` appends the schedule as a
//!   `/* S01 - W- R- B------ U0 */` comment that the assembler reads back;
//!   `arch.assemble(text)` parses nvdisasm listings (address prefixes, hex comments and
//!   directives are skipped; errors carry line:column); `arch.disassemble(bytes, sched)` lists a
//!   code section.
//! * Instruction selection hands over a typed opcode ([`op::Opcode`], ids of the tables'
//!   mnemonic and modifier tokens: `op!(ATOMG.E.ADD.STRONG.GPU)`) and the operands as values
//!   ([`written::Written`]: `arch.assemble_op(None, op!(ATOMG.E.ADD.STRONG.GPU), &ops, 0)`):
//!   the form is chosen exactly as the assembler chooses it for the same text, with no text,
//!   and every field's range is checked (`Arch::place` applies a slot's operand rules to
//!   both). `arch.build(opcode, &[Operand])` takes operands already in a form's terms.
//!
//! Every bit position lives in the form table ([`form::Form`]): fixed identifying bits, modifier
//! groups (a field plus value -> spelling, the empty spelling being the unprinted default) and
//! operand slots (kind plus fields). The codec, printer and parser are generic interpreters of
//! it, so a fact is written exactly once. The decoder picks the most specific matching form and
//! refuses words with bits the form does not describe, so whatever decodes re-encodes to the same
//! word. Adding a form means one builder call in `tables/{sm90,sm50}/*.rs` (the build script
//! turns the tables into static data); the oracle tests (`tests/sass_sm90_*.rs`,
//! `tests/sass_sm50_lines.rs`) then compare it value by value with nvdisasm.
//!
//! What a form does beside its bits is its [`facts::Facts`], written once per mnemonic family
//! in `tables/{sm90,sm50}/facts.rs` with the evidence for it and named by each form
//! declaration (`.facts(facts::IMAD)`): which operands are results, how wide each register
//! operand is, what it orders, its timing classes. Each modifier value carries a
//! [`facts::Meaning`] (data width, types, `.WIDE`, `.CC`, ...). The operand roles ([`roles`]),
//! latencies ([`latency`]), hazard check ([`hazard`]) and codegen's scheduler read those, never
//! the mnemonic's or the modifiers' spelling.
//!
//! Known limits of the sm_90 table: the half-precision ALU forms (HADD2, HMUL2, HFMA2, HMNMX2)
//! with a uniform-register, immediate or constant second source (`UR6.H0_H0`), RET (its `R4 0x0` operand syntax), constant offsets with the sign
//! bit set, ATOM/ATOMS CAS with a uniform-register address, and the conversions (I2F/F2I/F2F)
//! beyond the variants ptxas was seen to use are not described yet. nvdisasm's text hides PT
//! carry-outs (`IADD3 R1, P1, ...`), so such text does not say which carry-out `P1` is; the
//! assembler takes the first.

mod alias;
pub mod asm;
pub mod bits;
pub mod bundle;
pub mod codec;
pub mod cubin;
pub mod facts;
pub mod form;
pub mod hazard;
pub mod instr;
pub mod latency;
pub mod op;
pub mod print;
pub mod roles;
mod sm;
pub mod sm50;
pub mod sm90;
pub mod surface;
pub mod written;

pub use bits::Field;
pub use form::{Alias, BaseWidth, ExtSpec, Form, FormTable, ImmKind, ModGroup, OpSpec, SchedLayout};
pub use instr::{Instr, Mem, Operand, Pred, Reg, Sched, PT, RZ, URZ};
pub use sm::Sm;
pub use sm50::sm50;
pub use sm90::sm90;

use std::collections::HashMap;

/// One architecture: its form table and the layout facts shared by all forms.
#[derive(Debug)]
pub struct Arch {
    /// Which architecture this is.
    pub sm: Sm,
    /// Its name as the tools spell it (`sm_90`): [`Sm::name`].
    pub name: &'static str,
    /// Bytes per instruction word (16 on sm_90, 8 on sm_50).
    pub word_bytes: usize,
    /// Guard predicate number and its negation bit.
    pub guard: Field,
    pub guard_not: Field,
    pub sched: SchedLayout,
    /// Register number printed as `RZ` / `URZ`.
    pub rz: u8,
    pub urz: u8,
    /// Special registers: (number, name).
    pub sregs: &'static [(u16, &'static str)],
    /// The form table, static data made by the build script from `tables/`.
    pub forms: &'static [Form],
    /// Rewrites or refuses an assembler line before it is parsed (sm_50: input aliases, and
    /// forms nvdisasm has no bits for). `Ok(None)` keeps the line.
    pub asm_hook: Option<AsmHook>,
    /// The same for a typed opcode and operands handed over as values ([`Arch::assemble_op`]).
    pub written_hook: Option<WrittenHook>,
    /// The form table's lookup indices (mnemonics, decoding order), made with it.
    table: FormTable,
}

impl Arch {
    /// An architecture over a static form table (nothing is built at run time).
    #[allow(clippy::too_many_arguments)]
    pub const fn new(
        sm: Sm,
        word_bytes: usize,
        guard: Field,
        guard_not: Field,
        sched: SchedLayout,
        rz: u8,
        urz: u8,
        sregs: &'static [(u16, &'static str)],
        table: FormTable,
        asm_hook: Option<AsmHook>,
        written_hook: Option<WrittenHook>,
    ) -> Arch {
        let name = sm.name();
        Arch { sm, name, word_bytes, guard, guard_not, sched, rz, urz, sregs, forms: table.forms, asm_hook, written_hook, table }
    }

    /// The indices of the forms spelled `mnemonic`, in table order.
    pub fn forms_named(&self, mnemonic: &str) -> &'static [u16] {
        let by_mnemonic = self.table.by_mnemonic;
        match by_mnemonic.binary_search_by(|(m, _)| (*m).cmp(mnemonic)) {
            Ok(i) => by_mnemonic[i].1,
            Err(_) => &[],
        }
    }

    /// The indices of the forms of mnemonic `m`, in table order.
    pub fn forms_of(&self, m: op::Mnemonic) -> &'static [u16] {
        self.table.by_id[m.0 as usize]
    }

    /// The tokens of each modifier group's spellings of form `form` (see [`FormTable::mod_toks`]).
    pub fn mod_toks(&self, form: u16) -> &'static [&'static [&'static [form::Tok]]] {
        self.table.mod_toks[form as usize]
    }

    /// The decoding order: (mask, value, form) of identifying bits, most specific first.
    pub(crate) fn decode_order(&self) -> &'static [(u128, u128, u16)] {
        self.table.decode_order
    }

    /// Every bit form `idx` gives a meaning to.
    pub(crate) fn known_bits(&self, idx: u16) -> u128 {
        self.table.known[idx as usize]
    }

    /// Whether `form` has a guard: a form whose fixed bits cover the guard field has none
    /// (sm_50 `CAL`: ptxas 11.8 writes 0 there and nvdisasm prints no guard); it executes
    /// unconditionally, encodes as written and decodes with `PT`.
    pub fn has_guard(&self, form: &Form) -> bool {
        form.pattern().0 & self.guard.mask() == 0
    }

    /// Checks the table for self-consistency: unique keys, no two forms with the same
    /// identifying pattern, no field overlapping another within a form. Returns the problems.
    pub fn lint(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut keys = HashMap::new();
        let mut pats = HashMap::new();
        for (i, f) in self.forms.iter().enumerate() {
            if let Some(j) = keys.insert(f.key, i) {
                out.push(format!("duplicate key {} (forms {} and {})", f.key, j, i));
            }
            if let Some(k) = pats.insert(f.pattern(), f.key) {
                out.push(format!("forms {} and {} have the same pattern", k, f.key));
            }
            // A form fixing the guard field has no guard (see `Arch::has_guard`).
            let mut used = if self.has_guard(f) { self.guard.mask() | self.guard_not.mask() } else { 0 };
            if let SchedLayout::InWord { lo } = self.sched {
                used |= Field::new(lo, 21).mask();
            }
            let mut fields: Vec<(String, Field)> = f.fixed.iter().map(|(x, _)| ("fixed".to_string(), *x)).collect();
            for g in f.mods {
                if let Some(x) = g.field {
                    fields.push((g.name.to_string(), x));
                }
            }
            for (k, op) in f.ops.iter().enumerate() {
                for x in form::op_fields(op) {
                    fields.push((format!("operand {}", k), x));
                }
            }
            for (what, x) in fields {
                if used & x.mask() != 0 {
                    out.push(format!("{}: {} overlaps another field", f.key, what));
                }
                used |= x.mask();
            }
        }
        out
    }
}

/// See [`Arch::asm_hook`]: the statement text (without address prefix or guard) in, a
/// replacement statement or an error message out.
pub type AsmHook = fn(&str) -> Result<Option<String>, String>;

/// See [`Arch::written_hook`]: the opcode and operands, edited in place, or an error message.
pub type WrittenHook = fn(&mut op::Opcode, &mut [written::Written<'_>]) -> Result<(), String>;

/// Why an instruction could not be encoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    #[error("no form with index {0}")]
    NoSuchForm(u16),
    #[error("{form}: expected {want} modifier values, got {got}")]
    ModifierCount { form: &'static str, want: usize, got: usize },
    #[error("{form}: value {value} is not a legal {group} modifier")]
    BadModifier { form: &'static str, group: &'static str, value: u64 },
    #[error("{form}: expected {want} operands, got {got}")]
    OperandCount { form: &'static str, want: usize, got: usize },
    #[error("{form}: operand {slot} has the wrong kind for this form")]
    OperandKind { form: &'static str, slot: usize },
    #[error("{form}: {what} {value} out of range")]
    OutOfRange { form: &'static str, what: &'static str, value: i64 },
    #[error("{form}: operand {slot} may not be the zero register")]
    ZeroNotAllowed { form: &'static str, slot: usize },
    #[error("{form}: operand {slot} needs an even (64-bit aligned) register")]
    Misaligned { form: &'static str, slot: usize },
    #[error("{form}: this form has no {what}")]
    Unsupported { form: &'static str, what: &'static str },
    #[error("this architecture packs schedule bits per bundle; encode a whole stream")]
    NeedsStream,
    #[error("{form}: operand {slot} has no bits of its own and must be R{want} (RZ is 255)")]
    Implied { form: &'static str, slot: usize, want: u8 },
}

/// Why a word could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("truncated instruction ({len} bytes)")]
    Truncated { len: usize },
    #[error("no form matches word {word:#034x}")]
    UnknownOpcode { word: u128 },
    #[error("{form}: bits {bits:#x} have no meaning in this form (word {word:#034x})")]
    UnknownBits { form: &'static str, bits: u128, word: u128 },
    #[error("{form}: value {value} of {group} is not legal (word {word:#034x})")]
    InvalidModifier { form: &'static str, group: &'static str, value: u64, word: u128 },
    #[error("this architecture packs schedule bits per bundle; decode a whole stream")]
    NeedsStream,
}

/// An assembler error with 1-based line and column.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{col}: {msg}")]
pub struct AsmError {
    pub line: usize,
    pub col: usize,
    pub msg: String,
}
