//! `shared_addr smN` → `bitcast.ptr.shared (iconst.i32 OFFSET)`: a shared variable is its
//! byte offset in the block's shared memory ([`Function::shared_layout`]), so the backends
//! need no instruction of their own for it. The declarations stay on the function: the
//! SASS cubin sizes `.nv.shared.<kernel>` from them.

use super::edit;
use atomc_ir::{ConvOp, Function, InstData, Type};

/// Rewrites in place; returns how many addresses were replaced.
pub fn run(func: &mut Function) -> usize {
    if func.shared_vars.is_empty() {
        return 0;
    }
    let layout = func.shared_layout();
    let mut count = 0;
    edit::rewrite(func, |func, inst, splice| {
        let InstData::SharedAddr { var } = func.insts[inst] else { return };
        let imm = i64::from(layout.offsets[var] as i32);
        let offset = splice.before(func, inst, InstData::Iconst { ty: Type::I32, imm }).expect("iconst has a result");
        func.insts[inst] =
            InstData::Convert { op: ConvOp::Bitcast, to: Type::Ptr(atomc_ir::AddrSpace::Shared), arg: offset };
        count += 1;
    });
    count
}
