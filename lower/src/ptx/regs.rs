//! PTX virtual registers and the type spellings that go with them.

use atomc_ir::{AddrSpace, Type, Value};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// A PTX register class (one `.reg` declaration each).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Class {
    Pred,
    B16,
    B32,
    B64,
    F32,
    F64,
}

impl Class {
    fn prefix(self) -> &'static str {
        match self {
            Class::Pred => "%p",
            Class::B16 => "%h",
            Class::B32 => "%r",
            Class::B64 => "%rd",
            Class::F32 => "%f",
            Class::F64 => "%fd",
        }
    }

    fn decl_type(self) -> &'static str {
        match self {
            Class::Pred => ".pred",
            Class::B16 => ".b16",
            Class::B32 => ".b32",
            Class::B64 => ".b64",
            Class::F32 => ".f32",
            Class::F64 => ".f64",
        }
    }

    /// The class holding raw bits of the given width (16, 32, 64).
    pub(crate) fn bits(width: u32) -> Class {
        match width {
            16 => Class::B16,
            64 => Class::B64,
            _ => Class::B32,
        }
    }
}

/// The register class of an IR type.
pub(crate) fn class_of(ty: Type) -> Class {
    match ty {
        Type::Pred => Class::Pred,
        Type::I8 | Type::I16 | Type::F16 => Class::B16,
        Type::F32 => Class::F32,
        Type::F64 => Class::F64,
        Type::I64 | Type::Surface | Type::Ptr(AddrSpace::Global) | Type::Ptr(AddrSpace::Generic) => Class::B64,
        Type::I32 | Type::F16x2 | Type::BF16x2 | Type::Ptr(AddrSpace::Shared) => Class::B32,
    }
}

/// Register width in bits (pred: 1).
pub(crate) fn reg_bits(ty: Type) -> u32 {
    match class_of(ty) {
        Class::Pred => 1,
        Class::B16 => 16,
        Class::B32 | Class::F32 => 32,
        Class::B64 | Class::F64 => 64,
    }
}

/// The `mov` type suffix for a value of this type.
pub(crate) fn mov_type(ty: Type) -> &'static str {
    class_of(ty).decl_type()
}

/// The `.param` type and size of a kernel parameter of this type (a `pred` travels as a byte).
pub(crate) fn param_type(ty: Type) -> (&'static str, u32) {
    match ty {
        Type::Pred | Type::I8 => (".u8", 1),
        Type::I16 | Type::F16 => (".u16", 2),
        Type::I32 | Type::F16x2 | Type::BF16x2 | Type::Ptr(AddrSpace::Shared) => (".u32", 4),
        Type::F32 => (".f32", 4),
        Type::F64 => (".f64", 8),
        Type::I64 | Type::Surface | Type::Ptr(_) => (".u64", 8),
    }
}

/// The `ld`/`st` type suffix for a memory access of this type.
pub(crate) fn mem_type(ty: Type) -> Option<&'static str> {
    Some(match ty {
        Type::Pred => return None,
        Type::I8 => ".u8",
        Type::I16 => ".u16",
        Type::F16 => ".b16",
        Type::I32 | Type::F16x2 | Type::BF16x2 | Type::Ptr(AddrSpace::Shared) => ".u32",
        Type::F32 => ".f32",
        Type::F64 => ".f64",
        Type::I64 | Type::Surface | Type::Ptr(_) => ".u64",
    })
}

/// `s`/`u` integer type of a width: `int_type(32, true)` = `.s32`. 8-bit values use 16-bit
/// registers, so their arithmetic type is the 16-bit one.
pub(crate) fn int_type(bits: u32, signed: bool) -> String {
    let bits = bits.max(16);
    format!(".{}{bits}", if signed { 's' } else { 'u' })
}

/// `.bN` of a width (8-bit values use 16-bit registers).
pub(crate) fn bit_type(bits: u32) -> String {
    format!(".b{}", bits.max(16))
}

/// Register numbering: IR value `vN` gets register `N` of its class; temporaries are numbered
/// after the largest value number of each class, so the two never collide.
#[derive(Default)]
pub(crate) struct Regs {
    /// Per class: one past the largest value register number used.
    values: BTreeMap<Class, u32>,
    /// Per class: temporaries handed out.
    temps: BTreeMap<Class, u32>,
}

impl Regs {
    /// The register of value `v` of type `ty`.
    pub(crate) fn value(&mut self, v: Value, ty: Type) -> String {
        let class = class_of(ty);
        let n = v.as_u32();
        let top = self.values.entry(class).or_insert(0);
        *top = (*top).max(n + 1);
        format!("{}{n}", class.prefix())
    }

    /// A fresh temporary register of the class of `ty`.
    pub(crate) fn temp(&mut self, ty: Type) -> String {
        self.temp_class(class_of(ty))
    }

    /// A fresh temporary register of a class.
    pub(crate) fn temp_class(&mut self, class: Class) -> String {
        let n = self.temps.entry(class).or_insert(0);
        *n += 1;
        format!("{}_t{}", class.prefix(), *n - 1)
    }

    /// The `.reg` declarations for everything handed out.
    pub(crate) fn declarations(&self) -> String {
        let mut out = String::new();
        for (class, n) in &self.values {
            let _ = writeln!(out, "\t.reg {} {}<{n}>;", class.decl_type(), class.prefix());
        }
        for (class, n) in &self.temps {
            let _ = writeln!(out, "\t.reg {} {}_t<{n}>;", class.decl_type(), class.prefix());
        }
        out
    }
}

/// Hex spelling of an integer constant truncated to `bits` (at least 16).
pub(crate) fn hex_imm(value: i64, bits: u32) -> String {
    let bits = bits.max(16);
    let masked = if bits >= 64 {
        value as u64
    } else {
        (value as u64) & ((1u64 << bits) - 1)
    };
    format!("0x{masked:X}")
}
