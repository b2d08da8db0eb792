//! Warp-uniform values: values that every lane of a warp executing an instruction together holds
//! alike, whichever lanes those are. The warp-aggregation lowering of atomics relies on it: an
//! atomic whose address and operand are uniform can be carried out by one lane for all.
//!
//! A value is uniform when it is a constant, a kernel parameter, a per-block special register
//! (`block_id`, `block_dim`, `grid_dim`: a warp never spans two blocks), or the result of a pure
//! instruction (arithmetic, compares, conversions, `select`, `ptr_add`) whose operands are all
//! uniform. Memory reads, atomics, `thread_id` and the parameters of blocks other than the entry
//! (merges of values from paths the lanes may have taken differently) are not.

use atomc_ir::{Function, InstData, SpecialReg, Value};
use cranelift_entity::SecondaryMap;

/// Which values of a function are warp-uniform.
pub struct Uniformity {
    uniform: SecondaryMap<Value, bool>,
}

impl Uniformity {
    /// Computes the uniform values of `func`.
    pub fn of(func: &Function) -> Uniformity {
        let mut uniform: SecondaryMap<Value, bool> = SecondaryMap::new();
        if let Some(&entry) = func.layout.first() {
            for &p in &func.blocks[entry].params {
                uniform[p] = true;
            }
        }
        // Definitions need not come before their uses in layout order; repeat until nothing
        // changes (the facts only grow, and without block parameters the dependences are acyclic).
        loop {
            let mut changed = false;
            for (_, inst) in func.inst_order() {
                let data = &func.insts[inst];
                let Some(result) = func.inst_result(inst) else { continue };
                if uniform[result] || !pure_uniform_source(data) {
                    continue;
                }
                if data.args().iter().all(|&a| uniform[a]) {
                    uniform[result] = true;
                    changed = true;
                }
            }
            if !changed {
                return Uniformity { uniform };
            }
        }
    }

    /// Whether `v` is the same in every lane of a warp that computes it together.
    pub fn is_uniform(&self, v: Value) -> bool {
        self.uniform[v]
    }
}

/// Whether `data` gives the same result in every lane when its operands are the same: no memory
/// access, no per-thread special register.
fn pure_uniform_source(data: &InstData) -> bool {
    match data {
        InstData::Iconst { .. }
        | InstData::Fconst { .. }
        | InstData::Unary { .. }
        | InstData::Binary { .. }
        | InstData::Icmp { .. }
        | InstData::Fcmp { .. }
        | InstData::Select { .. }
        | InstData::Convert { .. }
        | InstData::PtrAdd { .. }
        | InstData::PtrToGeneric { .. } => true,
        InstData::Special { reg } => matches!(
            reg,
            SpecialReg::BlockIdX
                | SpecialReg::BlockIdY
                | SpecialReg::BlockIdZ
                | SpecialReg::BlockDimX
                | SpecialReg::BlockDimY
                | SpecialReg::BlockDimZ
                | SpecialReg::GridDimX
                | SpecialReg::GridDimY
                | SpecialReg::GridDimZ
        ),
        _ => false,
    }
}
