//! Structural rules: blocks, terminators, placement of instructions, branch
//! targets and their arguments, `return`.

use super::Ctx;
use crate::{Block, BlockCall, Inst, InstData};
use cranelift_entity::SecondaryMap;

pub(super) fn check(cx: &mut Ctx) {
    let func = cx.func;
    if func.name.is_empty() {
        cx.error_at(None, "function-name", "the function has an empty name".to_string());
    } else if let Some(c) = func.name.chars().find(|&c| !crate::parse::is_name_char(c)) {
        let msg = format!("function name {:?} has the character {c:?}: names are ASCII letters, digits and `_ . $ -`", func.name);
        cx.error_at(None, "function-name", msg);
    }
    if func.layout.is_empty() {
        cx.error_at(None, "no-blocks", format!("function %{} has no blocks", func.name));
    }
    check_layout(cx);
    let first_branch_to = first_branches(cx);
    for b in cx.layout.clone() {
        check_block(cx, b, &first_branch_to);
    }
    // Instructions in no block are dead arena entries (passes remove
    // instructions by unlinking them, as Cranelift does); a use of their
    // results is caught as `value-undefined`.
    for &(_, inst) in cx.placed_insts().iter() {
        match &func.insts[inst] {
            InstData::Jump { .. } | InstData::Brif { .. } => check_branch(cx, inst),
            InstData::Return { args } => check_return(cx, inst, args),
            _ => {}
        }
    }
}

/// Unknown and repeated blocks in the layout.
fn check_layout(cx: &mut Ctx) {
    let func = cx.func;
    let mut seen: SecondaryMap<Block, bool> = SecondaryMap::new();
    for &b in &func.layout {
        if func.blocks.get(b).is_none() {
            let msg = format!("the layout names {b}, which does not exist");
            cx.error_at(None, "block-unknown", msg);
        } else if seen[b] {
            let anchor = first_inst(cx, b);
            cx.error_at(anchor, "block-layout-duplicate", format!("{b} appears more than once in the layout"));
        }
        seen[b] = true;
    }
    if !func.layout.is_empty() && cx.layout.is_empty() {
        let msg = format!("function %{} has no block that exists", func.name);
        cx.error_at(None, "no-blocks", msg);
    }
}

/// The first existing instruction of `b`.
pub(super) fn first_inst(cx: &Ctx, b: Block) -> Option<Inst> {
    let insts = cx.func.blocks.get(b).map(|d| d.insts.as_slice()).unwrap_or(&[]);
    insts.iter().copied().find(|&i| cx.func.insts.get(i).is_some())
}

/// For each block, the first placed branch that names it.
fn first_branches(cx: &Ctx) -> SecondaryMap<Block, Option<Inst>> {
    let mut first: SecondaryMap<Block, Option<Inst>> = SecondaryMap::new();
    for &(_, inst) in cx.placed_insts().iter() {
        for call in cx.func.insts[inst].branch_targets() {
            if first[call.block].is_none() {
                first[call.block] = Some(inst);
            }
        }
    }
    first
}

/// Terminators, unknown and repeated instructions of one layout block.
fn check_block(cx: &mut Ctx, b: Block, first_branch_to: &SecondaryMap<Block, Option<Inst>>) {
    let func = cx.func;
    let insts = &func.blocks[b].insts;
    let Some(&last) = insts.last() else {
        cx.error_at(first_branch_to[b], "block-empty", format!("{b} has no instructions, so no terminator"));
        return;
    };
    for (index, &inst) in insts.iter().enumerate() {
        let Some(data) = func.insts.get(inst) else {
            let msg = format!("{b} lists {inst}, which does not exist");
            cx.error_at(None, "inst-unknown", msg);
            continue;
        };
        if cx.placement[inst] != Some(super::Pos { block: b, index }) {
            let msg = "the instruction is listed more than once in the layout";
            cx.error(inst, "inst-multiple-placement", format!("{msg} (again at {b}, position {index})"));
        }
        if data.is_terminator() && index + 1 != insts.len() {
            cx.error(inst, "terminator-not-last", format!("a terminator before the end of {b}"));
        }
    }
    if let Some(data) = func.insts.get(last) {
        if !data.is_terminator() {
            let msg = format!("{b} does not end with a terminator (jump, brif or return)");
            cx.error(last, "block-missing-terminator", msg);
        }
    }
}

fn check_branch(cx: &mut Ctx, inst: Inst) {
    let func = cx.func;
    let targets: Vec<BlockCall> = func.insts[inst].branch_targets().into_iter().cloned().collect();
    for call in &targets {
        let target = call.block;
        let Some(data) = func.blocks.get(target) else {
            cx.error(inst, "branch-target-unknown", format!("{target} does not exist"));
            continue;
        };
        if !cx.in_layout[target] {
            cx.error(inst, "branch-target-not-in-layout", format!("{target} is not in the layout"));
        } else if func.entry_block() == Some(target) {
            let msg = format!("{target} is the entry block, which cannot be a branch target");
            cx.error(inst, "entry-block-branch-target", msg);
        }
        if call.args.len() != data.params.len() {
            let msg =
                format!("{target} takes {} argument(s), the branch passes {}", data.params.len(), call.args.len());
            cx.error(inst, "branch-arg-count", msg);
            continue;
        }
        for (n, (&arg, &param)) in call.args.iter().zip(&data.params).enumerate() {
            if let (Some(at), Some(pt)) = (cx.ty(arg), cx.ty(param)) {
                if at != pt {
                    let msg = format!("argument {n} to {target} is {arg}: {at}, but {param} is {pt}");
                    cx.error_on(inst, arg, "branch-arg-type", msg);
                }
            }
        }
    }
}

fn check_return(cx: &mut Ctx, inst: Inst, args: &[crate::Value]) {
    let returns = &cx.func.returns;
    if returns.is_empty() && !args.is_empty() {
        let msg = "a kernel (a function without return types) returns nothing";
        cx.error(inst, "kernel-return-value", msg);
        return;
    }
    if args.len() != returns.len() {
        let msg = format!("the function returns {} value(s), got {}", returns.len(), args.len());
        cx.error(inst, "return-arity", msg);
        return;
    }
    for (n, (&arg, &want)) in args.iter().zip(returns).enumerate() {
        if let Some(got) = cx.ty(arg) {
            if got != want {
                let msg = format!("return value {n} must be {want}, got {arg}: {got}");
                cx.error_on(inst, arg, "return-type", msg);
            }
        }
    }
}
