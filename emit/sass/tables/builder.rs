//! The small vocabulary every per-arch form table is written in: a form
//! builder and modifier-group constructors. Each arch adds its own operand
//! helpers (field positions differ); nothing here knows an arch's bits.
//!
//! The tables run once, in the build script, which prints the finished forms as static data;
//! a finished form's lists are leaked into `&'static` slices, which costs nothing there.

use crate::bits::Field;
use crate::facts::{meaning_of, Effects, Facts, MemoryReader, Results, Unit, Width};
use crate::form::{pattern_of, Alias, Form, ModGroup, OpSpec};

// ---- facts shared by both targets' mnemonic families -----------------------------------------

/// No register result, and something done besides (stores, reductions, `NOP`, `YIELD`): kept
/// by dead-code elimination whether or not anything reads it.
pub const STORE: Facts = Facts { results: Results::None, effects: Effects::Side, ..Facts::PLAIN };

/// Control transfers, convergence points and memory fences: no register result (the first
/// register slot is a source), and the dependency pass treats them as barriers. Every open
/// scoreboard is waited on before one issues and every fixed-latency result is ready, so nothing
/// in flight crosses a branch, a fence or a warp synchronisation.
pub const BARRIER: Facts = Facts { results: Results::None, effects: Effects::OrdersEverything, ..Facts::PLAIN };

/// The compare-and-combine forms: two leading predicate results.
pub const COMPARE: Facts = Facts { results: Results::TwoPreds, ..Facts::PLAIN };

/// A leading predicate result followed by a register result (`LDG P0, R2`, `LOP3.LUT P0, R3`,
/// sm_50 `LOP.AND.NZ P0, R3, ...` and `LEA P0, R4.CC, ...`).
pub const PRED_THEN_REG: Facts = Facts { results: Results::PredThenReg { carries: 2 }, ..Facts::PLAIN };

/// A fixed-width (one register per operand) integer or logic instruction.
pub const ONE: Facts = Facts { width: Width::One, ..Facts::PLAIN };

/// A result after a variable delay: ptxas always sets a write scoreboard when it is used.
pub const VARIABLE: Facts = Facts { variable: true, ..Facts::PLAIN };

/// An atomic: a register result after a variable delay, and a side effect.
pub const ATOMIC: Facts =
    Facts { results: Results::PredThenReg { carries: 2 }, effects: Effects::Side, variable: true, ..Facts::PLAIN };

/// A shared-memory atomic: it completes in order with shared loads (the targets' `ATOMS`).
pub const SHARED_ATOMIC: Facts = Facts {
    results: Results::Lead { carries: 2 },
    memory_reader: MemoryReader::Shared,
    unit: Unit::Mio,
    ..ATOMIC
};

/// A surface atomic (`SUATOM`): the address spans the coordinates, and a register after the
/// address and data is a 64-bit bindless handle.
pub const SURFACE_ATOMIC: Facts =
    Facts { width: Width::SurfaceAtomic, surface: true, memory_reader: MemoryReader::Surface, ..ATOMIC };

/// A surface reduction (`SURED`).
pub const SURFACE_STORE: Facts = Facts { surface: true, memory_reader: MemoryReader::Surface, ..STORE };

/// A shared-memory store (`STS`).
pub const SHARED_STORE: Facts = Facts { memory_reader: MemoryReader::Shared, ..STORE };

/// A form under construction.
pub struct FormBuilder {
    form: Form,
    fixed: Vec<(Field, u64)>,
    mods: Vec<ModGroup>,
    ops: Vec<OpSpec>,
    facts: Option<Facts>,
}

/// A list made static for a finished form.
pub fn leak<T>(v: Vec<T>) -> &'static [T] {
    Vec::leak(v)
}

/// A generated key or spelling made static.
pub fn leak_str(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

impl FormBuilder {
    /// Starts a form identified by `opcode` in `field`.
    pub fn new(key: &'static str, mnemonic: &'static str, field: Field, opcode: u64) -> FormBuilder {
        let form = Form {
            mnemonic,
            key,
            fixed: &[],
            mods: &[],
            ops: &[],
            alias: None,
            uniform_guard: false,
            space_last: false,
            identity: (0, 0),
            facts: Facts::PLAIN,
        };
        FormBuilder { form, fixed: vec![(field, opcode)], mods: vec![], ops: vec![], facts: None }
    }
    /// Another identifying field value.
    pub fn fix(mut self, lo: u8, width: u8, v: u64) -> FormBuilder {
        self.fixed.push((Field::new(lo, width), v));
        self
    }
    /// Bit ranges `(lo, width)` written zero: fields the disassembler ignores or that this form
    /// leaves unused, kept clear as ptxas writes them.
    pub fn zeros(mut self, ranges: &[(u8, u8)]) -> FormBuilder {
        self.fixed.extend(ranges.iter().map(|&(lo, width)| (Field::new(lo, width), 0)));
        self
    }
    /// A modifier group.
    pub fn m(mut self, g: ModGroup) -> FormBuilder {
        self.mods.push(g);
        self
    }
    /// A fixed modifier spelling without bits (`LUT`).
    pub fn lit(self, s: &'static str) -> FormBuilder {
        self.m(literal(s))
    }
    /// What the form does besides its bits: its mnemonic family's description (every form has
    /// one; [`FormBuilder::done`] refuses a form without).
    pub fn facts(mut self, f: Facts) -> FormBuilder {
        self.facts = Some(f);
        self
    }
    /// An operand slot.
    pub fn op(mut self, o: OpSpec) -> FormBuilder {
        self.ops.push(o);
        self
    }
    /// Marks a uniform-datapath form (guard printed as `@UPn`).
    pub fn uniform(mut self) -> FormBuilder {
        self.form.uniform_guard = true;
        self
    }
    /// The last operand is written after a space, not a comma (`RET.REL.NODEC R4 0x0`).
    pub fn space_last(mut self) -> FormBuilder {
        self.form.space_last = true;
        self
    }
    /// The operand-dependent alias rule.
    pub fn alias(mut self, a: Alias) -> FormBuilder {
        self.form.alias = Some(a);
        self
    }
    /// Adds the finished form to a table, with the meaning of every modifier value recorded.
    pub fn done(self, out: &mut Vec<Form>) {
        let identity = pattern_of(&self.fixed);
        let facts = self.facts.unwrap_or_else(|| panic!("{}: no facts", self.form.key));
        let mods = self.mods.into_iter().map(with_meanings).collect();
        let (fixed, ops) = (leak(self.fixed), leak(self.ops));
        out.push(Form { fixed, mods: leak(mods), ops, identity, facts, ..self.form });
    }
}

/// `g` with the meaning of each of its spellings ([`meaning_of`]), whatever it held before.
fn with_meanings(g: ModGroup) -> ModGroup {
    ModGroup { meanings: leak(g.values.iter().map(|(_, s)| meaning_of(s)).collect()), ..g }
}

/// A table made of its parts, run in order (the order is the table's: the decoder breaks ties
/// between equally specific patterns by it).
pub fn table(parts: &[fn(&mut Vec<Form>)]) -> Vec<Form> {
    let mut forms = Vec::new();
    for part in parts {
        part(&mut forms);
    }
    forms
}

/// The integer atomic operations, numbered alike by every arch's ATOM, RED and SUATOM forms:
/// reductions take the first eight (no EXCH), atomics all nine.
pub const ATOMIC_INT_OPS: [(u64, &str); 9] =
    [(0, "ADD"), (1, "MIN"), (2, "MAX"), (3, "INC"), (4, "DEC"), (5, "AND"), (6, "OR"), (7, "XOR"), (8, "EXCH")];

/// The float comparisons, numbered alike by every arch's FSETP (4 bits): ordered, then the
/// unordered `..U` forms that also hold when either side is NaN.
pub const FLOAT_COMPARES: [(u64, &str); 16] = [
    (0, "F"),
    (1, "LT"),
    (2, "EQ"),
    (3, "LE"),
    (4, "GT"),
    (5, "NE"),
    (6, "GE"),
    (7, "NUM"),
    (8, "NAN"),
    (9, "LTU"),
    (10, "EQU"),
    (11, "LEU"),
    (12, "GTU"),
    (13, "NEU"),
    (14, "GEU"),
    (15, "T"),
];

/// A modifier group over the field `lo..lo+width` with its spellings.
pub fn group(name: &'static str, lo: u8, width: u8, values: &[(u64, &'static str)]) -> ModGroup {
    ModGroup { name, field: Some(Field::new(lo, width)), values: leak(values.to_vec()), meanings: &[] }
}

/// A one-bit flag group: 0 prints nothing, 1 prints `s`.
pub fn flag(lo: u8, s: &'static str) -> ModGroup {
    group(s, lo, 1, &[(0, ""), (1, s)])
}

/// A fixed modifier spelling without bits, as a group: for helpers that take the group of an
/// instruction's operation, where one instruction has a choice of spellings and another just one.
pub fn literal(s: &'static str) -> ModGroup {
    ModGroup { name: s, field: None, values: leak(vec![(0, s)]), meanings: &[] }
}
