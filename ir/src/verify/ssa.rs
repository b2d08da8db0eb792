//! SSA rules: every value has one consistent definition in the layout, the
//! result of each instruction has the right type, and every use is
//! dominated by its definition.

use super::dominators::DominatorTree;
use super::Ctx;
use crate::{Block, Inst, InstData, Type, Value, ValueDef};
use cranelift_entity::SecondaryMap;

/// Where a value is defined: a block, and the index of the defining
/// instruction (`None` for a block parameter, which precedes them all).
#[derive(Clone, Copy, Debug)]
struct DefPos {
    block: Block,
    index: Option<usize>,
}

pub(super) fn check(cx: &mut Ctx, domtree: &DominatorTree) {
    let defs = definitions(cx);
    // Each instruction's distinct arguments; one buffer for all of them.
    let mut seen: Vec<Value> = Vec::new();
    for &(block, inst) in cx.placed_insts().iter() {
        let index = cx.placement[inst].map(|p| p.index).unwrap_or(0);
        seen.clear();
        for v in cx.func.insts[inst].args() {
            if seen.contains(&v) {
                continue;
            }
            seen.push(v);
            check_use(cx, domtree, &defs, v, block, index, inst);
        }
    }
}

/// Checks the definitions (results and block parameters) and returns the
/// position of each value whose definition is consistent and placed.
fn definitions(cx: &mut Ctx) -> SecondaryMap<Value, Option<DefPos>> {
    let func = cx.func;
    let mut defs: SecondaryMap<Value, Option<DefPos>> = SecondaryMap::with_capacity(func.values.len());
    for b in cx.layout.clone() {
        for (n, &v) in func.blocks[b].params.iter().enumerate() {
            match func.values.get(v) {
                Some(d) if d.def == ValueDef::Param(b, n) => defs[v] = Some(DefPos { block: b, index: None }),
                found => {
                    let anchor = super::structure::first_inst(cx, b);
                    let msg = match found {
                        None => format!("parameter {n} of {b} is {v}, which does not exist"),
                        Some(d) => format!("parameter {n} of {b} is {v}, which is recorded as {}", def_text(d.def)),
                    };
                    cx.error_at(anchor, "value-def-mismatch", msg);
                }
            }
        }
    }
    for &(block, inst) in cx.placed_insts().iter() {
        let index = cx.placement[inst].map(|p| p.index);
        if check_result(cx, inst) {
            if let Some(v) = func.results[inst] {
                defs[v] = Some(DefPos { block, index });
            }
        }
    }
    defs
}

/// Checks the result of `inst`; returns whether its definition is
/// consistent (so that uses of it can be checked for dominance).
fn check_result(cx: &mut Ctx, inst: Inst) -> bool {
    let func = cx.func;
    let data = &func.insts[inst];
    let has_result = data.result_type(|_| Type::I32).is_some();
    let Some(v) = func.results[inst] else {
        if has_result {
            cx.error(inst, "inst-result", "the instruction produces a value but has no result");
        }
        return true;
    };
    if !has_result {
        cx.error(inst, "inst-result", format!("{} produces no value, but has result {v}", data.opcode_name()));
        return false;
    }
    let Some(vd) = func.values.get(v) else {
        cx.error(inst, "value-def-mismatch", format!("the result {v} does not exist"));
        return false;
    };
    if vd.def != ValueDef::Result(inst) {
        let msg = format!("the result {v} is recorded as {}", def_text(vd.def));
        cx.error(inst, "value-def-mismatch", msg);
        return false;
    }
    if let Some(want) = expected_result_type(cx, data) {
        if vd.ty != want {
            cx.error(inst, "result-type", format!("the result must be {want}, but {v} is {}", vd.ty));
        }
    }
    true
}

/// The type the result must have, if every operand it depends on exists.
fn expected_result_type(cx: &Ctx, data: &InstData) -> Option<Type> {
    if data.args().iter().any(|&v| cx.ty(v).is_none()) {
        return None;
    }
    data.result_type(|v| cx.ty(v).unwrap_or(Type::Pred))
}

fn check_use(
    cx: &mut Ctx,
    domtree: &DominatorTree,
    defs: &SecondaryMap<Value, Option<DefPos>>,
    v: Value,
    block: Block,
    index: usize,
    inst: Inst,
) {
    if cx.func.values.get(v).is_none() {
        cx.error(inst, "value-undefined", format!("{v} does not exist"));
        return;
    }
    let Some(def) = defs[v] else {
        let def = def_text(cx.func.values[v].def);
        let msg =
            format!("{v} is not defined: it is recorded as {def}, which is not in the layout or does not define it");
        cx.error(inst, "value-undefined", msg);
        return;
    };
    if def.block == block {
        if def.index.is_some_and(|di| di >= index) {
            cx.error(inst, "ssa-dominance", format!("{v} is used before its definition in {block}"));
        }
    } else if domtree.is_reachable(block) && !domtree.dominates(def.block, block) {
        let msg = format!("{v} is defined in {}, which does not dominate {block}", def.block);
        cx.error(inst, "ssa-dominance", msg);
    }
}

/// `the result of inst3` / `parameter 0 of block1`.
fn def_text(def: ValueDef) -> String {
    match def {
        ValueDef::Result(i) => format!("the result of {i}"),
        ValueDef::Param(b, n) => format!("parameter {n} of {b}"),
    }
}
