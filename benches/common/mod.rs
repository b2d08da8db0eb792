//! Shared by the benchmarks: a building block of their generated kernels.

use atomc::ir::{BinaryOp, ConvOp, FunctionBuilder, Type, Value};

/// The address of 32-bit word `i & mask` of `table` (`four`: the i64 constant 4), in 4 IR
/// instructions.
pub fn table_word(b: &mut FunctionBuilder, table: Value, i: Value, mask: Value, four: Value) -> Value {
    let z = b.binary(BinaryOp::Band, i, mask);
    let z64 = b.convert(ConvOp::Uextend, Type::I64, z);
    let off = b.binary(BinaryOp::Imul, z64, four);
    b.ptr_add(table, off)
}
