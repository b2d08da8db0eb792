//! [`DataValue`]: a typed value crossing the interpreter's boundary
//! (arguments and results of calls, kernel parameters).

use super::float::FKind;
use crate::{AddrSpace, Type};
use std::fmt;

/// A value of one IR type. Floats are kept as bit patterns so that NaN
/// payloads and signed zeros survive, and equality is bitwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DataValue {
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    /// binary16 bits.
    F16(u16),
    /// binary32 bits.
    F32(u32),
    /// binary64 bits.
    F64(u64),
    /// Two binary16 lanes, lane 0 in bits 0..16.
    F16x2(u32),
    /// Two bfloat16 lanes, lane 0 in bits 0..16.
    BF16x2(u32),
    Pred(bool),
    /// A pointer: its space and its address bits (32 significant for shared).
    Ptr(AddrSpace, u64),
    /// A bindless surface handle.
    Surface(u64),
}

impl DataValue {
    /// An `f32` value.
    pub fn f32(x: f32) -> DataValue {
        DataValue::F32(x.to_bits())
    }

    /// An `f64` value.
    pub fn f64(x: f64) -> DataValue {
        DataValue::F64(x.to_bits())
    }

    /// The value's type.
    pub fn ty(&self) -> Type {
        match self {
            DataValue::I8(_) => Type::I8,
            DataValue::I16(_) => Type::I16,
            DataValue::I32(_) => Type::I32,
            DataValue::I64(_) => Type::I64,
            DataValue::F16(_) => Type::F16,
            DataValue::F32(_) => Type::F32,
            DataValue::F64(_) => Type::F64,
            DataValue::F16x2(_) => Type::F16x2,
            DataValue::BF16x2(_) => Type::BF16x2,
            DataValue::Pred(_) => Type::Pred,
            DataValue::Ptr(s, _) => Type::Ptr(*s),
            DataValue::Surface(_) => Type::Surface,
        }
    }

    /// The bit pattern, zero-extended to 64 bits (`pred`: 0 or 1).
    pub fn bits(&self) -> u64 {
        match *self {
            DataValue::I8(x) => x as u8 as u64,
            DataValue::I16(x) => x as u16 as u64,
            DataValue::I32(x) => x as u32 as u64,
            DataValue::I64(x) => x as u64,
            DataValue::F16(x) => x as u64,
            DataValue::F32(x) | DataValue::F16x2(x) | DataValue::BF16x2(x) => x as u64,
            DataValue::F64(x) => x,
            DataValue::Pred(p) => p as u64,
            DataValue::Ptr(AddrSpace::Shared, x) => x & 0xffff_ffff,
            DataValue::Ptr(_, x) | DataValue::Surface(x) => x,
        }
    }

    /// The value of type `ty` with the given bits (extra high bits ignored).
    pub fn from_bits(ty: Type, bits: u64) -> DataValue {
        match ty {
            Type::I8 => DataValue::I8(bits as i8),
            Type::I16 => DataValue::I16(bits as i16),
            Type::I32 => DataValue::I32(bits as i32),
            Type::I64 => DataValue::I64(bits as i64),
            Type::F16 => DataValue::F16(bits as u16),
            Type::F32 => DataValue::F32(bits as u32),
            Type::F64 => DataValue::F64(bits),
            Type::F16x2 => DataValue::F16x2(bits as u32),
            Type::BF16x2 => DataValue::BF16x2(bits as u32),
            Type::Pred => DataValue::Pred(bits & 1 != 0),
            Type::Ptr(AddrSpace::Shared) => DataValue::Ptr(AddrSpace::Shared, bits & 0xffff_ffff),
            Type::Ptr(s) => DataValue::Ptr(s, bits),
            Type::Surface => DataValue::Surface(bits),
        }
    }
}

/// Writes a float pattern of format `k` readably: a decimal that reads back
/// exactly, `inf`/`-inf`, or the bits for NaNs.
pub(crate) fn fmt_float(f: &mut fmt::Formatter<'_>, k: FKind, bits: u64) -> fmt::Result {
    let x = k.to_f64(bits);
    if x.is_nan() {
        return write!(f, "{bits:#x}");
    }
    if x.is_infinite() {
        return f.write_str(if x < 0.0 { "-inf" } else { "inf" });
    }
    match k {
        FKind::F64 => write!(f, "{x:?}"),
        // Every f16/bf16/f32 value prints exactly through f32's shortest form.
        _ => write!(f, "{:?}", x as f32),
    }
}

impl fmt::Display for DataValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            DataValue::I8(x) => write!(f, "{x}"),
            DataValue::I16(x) => write!(f, "{x}"),
            DataValue::I32(x) => write!(f, "{x}"),
            DataValue::I64(x) => write!(f, "{x}"),
            DataValue::F16(x) => fmt_float(f, FKind::F16, x as u64),
            DataValue::F32(x) => fmt_float(f, FKind::F32, x as u64),
            DataValue::F64(x) => fmt_float(f, FKind::F64, x),
            DataValue::F16x2(x) | DataValue::BF16x2(x) => {
                let k = if matches!(self, DataValue::F16x2(_)) {
                    FKind::F16
                } else {
                    FKind::BF16
                };
                f.write_str("[")?;
                fmt_float(f, k, (x & 0xffff) as u64)?;
                f.write_str(" ")?;
                fmt_float(f, k, (x >> 16) as u64)?;
                f.write_str("]")
            }
            DataValue::Pred(p) => write!(f, "{p}"),
            DataValue::Ptr(_, x) | DataValue::Surface(x) => write!(f, "{x:#x}"),
        }
    }
}
