//! Shared by the CLIF tests (`clif_filetests`, `clif_peer_runtests`): Cranelift's run-line values
//! as atomc's interpreter values.

use atomc::ir::interp::DataValue;
use cranelift_codegen::data_value::DataValue as ClDataValue;

/// A `; run:` argument or expected value as the interpreter's value of the same type and bits;
/// `None` for a Cranelift type atomc has no counterpart of (vectors, i128, f128).
pub fn to_atomc(v: &ClDataValue) -> Option<DataValue> {
    Some(match *v {
        ClDataValue::I8(x) => DataValue::I8(x),
        ClDataValue::I16(x) => DataValue::I16(x),
        ClDataValue::I32(x) => DataValue::I32(x),
        ClDataValue::I64(x) => DataValue::I64(x),
        ClDataValue::F16(x) => DataValue::F16(x.bits()),
        ClDataValue::F32(x) => DataValue::F32(x.bits()),
        ClDataValue::F64(x) => DataValue::F64(x.bits()),
        _ => return None,
    })
}
