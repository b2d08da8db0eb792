//! Whole-function facts the translation needs before it starts: block
//! order, which parameters are pointers, where stack slots live.

use cranelift_codegen::ir::{self, InstructionData, Opcode, StackSlot, ValueDef};
use std::collections::{HashMap, HashSet};

/// The reachable blocks in reverse postorder (definitions before uses,
/// whatever the layout order).
pub fn reverse_postorder(func: &ir::Function) -> Vec<ir::Block> {
    let Some(entry) = func.layout.entry_block() else {
        return Vec::new();
    };
    let mut seen = HashSet::new();
    let mut post = Vec::new();
    // (block, successors already pushed)
    let mut stack = vec![(entry, false)];
    seen.insert(entry);
    while let Some((block, expanded)) = stack.pop() {
        if expanded {
            post.push(block);
            continue;
        }
        stack.push((block, true));
        for succ in successors(func, block).into_iter().rev() {
            if seen.insert(succ) {
                stack.push((succ, false));
            }
        }
    }
    post.reverse();
    post
}

/// The successors of `block`, in branch order.
pub fn successors(func: &ir::Function, block: ir::Block) -> Vec<ir::Block> {
    let Some(last) = func.layout.last_inst(block) else {
        return Vec::new();
    };
    let pool = &func.dfg.value_lists;
    func.dfg.insts[last]
        .branch_destination(&func.dfg.jump_tables, &func.dfg.exception_tables)
        .iter()
        .map(|call| call.block(pool))
        .collect()
}

/// What a value's address computation bottoms out in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Base {
    /// An entry-block parameter (index).
    Param(usize),
    /// Some other pointer source (a stack slot, a loaded pointer).
    Other,
    /// Nothing that looks like a base.
    Unknown,
}

/// The entry parameters that serve as the base of some memory address.
///
/// The base of an address is found by walking `iadd`/`isub` operands
/// (left first) back to a parameter, a `stack_addr` or a loaded value; a
/// parameter that is only ever an offset added to another base is not a
/// pointer.
pub fn pointer_params(func: &ir::Function) -> HashSet<usize> {
    let Some(entry) = func.layout.entry_block() else {
        return HashSet::new();
    };
    let params: HashMap<ir::Value, usize> = func
        .dfg
        .block_params(entry)
        .iter()
        .enumerate()
        .map(|(i, &v)| (v, i))
        .collect();
    let mut out = HashSet::new();
    for block in func.layout.blocks() {
        for inst in func.layout.block_insts(block) {
            let addr = address_operand(&func.dfg.insts[inst]).or_else(|| super::intrinsics::call_address(func, inst));
            if let Some(addr) = addr {
                if let Base::Param(i) = base_of(func, &params, addr, 0) {
                    if func.dfg.value_type(func.dfg.block_params(entry)[i]) == ir::types::I64 {
                        out.insert(i);
                    }
                }
            }
        }
    }
    out
}

/// The address operand of a memory instruction.
pub fn address_operand(data: &InstructionData) -> Option<ir::Value> {
    match *data {
        InstructionData::Load { arg, .. } => Some(arg),
        InstructionData::LoadNoOffset { opcode: Opcode::AtomicLoad, arg, .. } => Some(arg),
        InstructionData::Store { args, .. } => Some(args[1]),
        InstructionData::StoreNoOffset { args, .. } => Some(args[1]),
        InstructionData::AtomicRmw { args, .. } => Some(args[0]),
        InstructionData::AtomicCas { args, .. } => Some(args[0]),
        _ => None,
    }
}

fn base_of(func: &ir::Function, params: &HashMap<ir::Value, usize>, v: ir::Value, depth: u32) -> Base {
    let v = func.dfg.resolve_aliases(v);
    if let Some(&i) = params.get(&v) {
        return Base::Param(i);
    }
    if depth > 64 {
        return Base::Unknown;
    }
    let ValueDef::Result(inst, _) = func.dfg.value_def(v) else {
        return Base::Unknown;
    };
    match func.dfg.insts[inst] {
        InstructionData::Binary {
            opcode: Opcode::Iadd,
            args,
        } => match base_of(func, params, args[0], depth + 1) {
            Base::Unknown => base_of(func, params, args[1], depth + 1),
            found => found,
        },
        InstructionData::Binary {
            opcode: Opcode::Isub,
            args,
        } => base_of(func, params, args[0], depth + 1),
        // A call result (`atomc_shared`) is a base of its own.
        InstructionData::StackAddr { .. } | InstructionData::Load { .. } | InstructionData::Call { .. } => Base::Other,
        _ => Base::Unknown,
    }
}

/// Byte offset of each stack slot in the scratch buffer, and the total size.
/// Each slot starts 16-byte aligned (enough for every access atomc has).
pub fn slot_layout(func: &ir::Function) -> (HashMap<StackSlot, u64>, u64) {
    let mut offsets = HashMap::new();
    let mut next = 0u64;
    for (slot, data) in func.sized_stack_slots.iter() {
        let align = (1u64 << data.align_shift.min(12)).max(16);
        next = next.div_ceil(align) * align;
        offsets.insert(slot, next);
        next += u64::from(data.size);
    }
    (offsets, next)
}
