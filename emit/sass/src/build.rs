//! The small vocabulary every per-arch form table is written in: a form
//! builder and modifier-group constructors. Each arch adds its own operand
//! helpers (field positions differ); nothing here knows an arch's bits.

use super::bits::Field;
use super::form::{AliasFn, Form, ModGroup, OpSpec};

/// A form under construction.
pub struct FormBuilder(Form);

impl FormBuilder {
    /// Starts a form identified by `opcode` in `field`.
    pub fn new(key: &'static str, mnemonic: &'static str, field: Field, opcode: u64) -> FormBuilder {
        FormBuilder(Form { mnemonic, key, fixed: vec![(field, opcode)], mods: vec![], ops: vec![], alias: None, uniform_guard: false, space_last: false })
    }
    /// Another identifying field value.
    pub fn fix(mut self, lo: u8, width: u8, v: u64) -> FormBuilder {
        self.0.fixed.push((Field::new(lo, width), v));
        self
    }
    /// A modifier group.
    pub fn m(mut self, g: ModGroup) -> FormBuilder {
        self.0.mods.push(g);
        self
    }
    /// A fixed modifier spelling without bits (`LUT`).
    pub fn lit(mut self, s: &'static str) -> FormBuilder {
        self.0.mods.push(ModGroup { name: s, field: None, values: vec![(0, s)] });
        self
    }
    /// An operand slot.
    pub fn op(mut self, o: OpSpec) -> FormBuilder {
        self.0.ops.push(o);
        self
    }
    /// Marks a uniform-datapath form (guard printed as `@UPn`).
    pub fn uniform(mut self) -> FormBuilder {
        self.0.uniform_guard = true;
        self
    }
    /// The last operand is written after a space, not a comma (`RET.REL.NODEC R4 0x0`).
    pub fn space_last(mut self) -> FormBuilder {
        self.0.space_last = true;
        self
    }
    /// The operand-dependent alias rule.
    pub fn alias(mut self, f: AliasFn) -> FormBuilder {
        self.0.alias = Some(f);
        self
    }
    /// Adds the finished form to a table.
    pub fn done(self, out: &mut Vec<Form>) {
        out.push(self.0);
    }
}

/// A modifier group over the field `lo..lo+width` with its spellings.
pub fn group(name: &'static str, lo: u8, width: u8, values: &[(u64, &'static str)]) -> ModGroup {
    ModGroup { name, field: Some(Field::new(lo, width)), values: values.to_vec() }
}

/// A one-bit flag group: 0 prints nothing, 1 prints `s`.
pub fn flag(lo: u8, s: &'static str) -> ModGroup {
    group(s, lo, 1, &[(0, ""), (1, s)])
}
