//! `fcvt_to_sint` / `fcvt_to_uint` of a NaN is 0 in the IR. Where the target's conversion gives
//! something else ([`crate::caps::NanToInt`]), the conversion becomes
//! `t = fcvt x; n = fcmp uno x, x; v = select n, 0, t`. The original instruction turns into the
//! `select` and keeps its result, so no use needs renaming. Conversions of one value in one
//! block share its NaN test.

use super::edit;
use crate::caps::TargetCaps;
use atomc_ir::{Block, ConvOp, FloatCC, Function, InstData, Value};
use std::collections::HashMap;

/// Rewrites in place; returns how many conversions were given a NaN select.
pub fn run(func: &mut Function, caps: &TargetCaps) -> usize {
    let mut count = 0;
    let mut block_of = cranelift_entity::SecondaryMap::<atomc_ir::Inst, Option<Block>>::new();
    for (block, inst) in func.inst_order() {
        block_of[inst] = Some(block);
    }
    let mut tests: HashMap<(Block, Value), Value> = HashMap::new();
    edit::rewrite(func, |func, inst, splice| {
        let InstData::Convert { op: op @ (ConvOp::FcvtToSint | ConvOp::FcvtToUint), to, arg } = func.insts[inst] else {
            return;
        };
        if caps.nan_to_int.gives_zero(func.value_type(arg), to) {
            return;
        }
        let mut ins = |func: &mut Function, data| splice.before(func, inst, data).expect("has a result");
        let converted = ins(func, InstData::Convert { op, to, arg });
        let block = block_of[inst].expect("a laid-out instruction");
        let nan = *tests
            .entry((block, arg))
            .or_insert_with(|| ins(func, InstData::Fcmp { cond: FloatCC::Uno, args: [arg, arg] }));
        let zero = ins(func, InstData::Iconst { ty: to, imm: 0 });
        func.insts[inst] = InstData::Select { cond: nan, args: [zero, converted] };
        count += 1;
    });
    count
}
