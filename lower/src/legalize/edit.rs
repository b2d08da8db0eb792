//! Small editing helpers over `Function` shared by the passes.

use atomc_ir::{Block, Function, Inst, InstData, Value};

fn position(func: &Function, block: Block, inst: Inst) -> usize {
    func.blocks[block].insts.iter().position(|&i| i == inst).expect("instruction is in its block")
}

/// Creates `data` and places it just before `inst`; returns its result.
pub fn insert_before(func: &mut Function, block: Block, inst: Inst, data: InstData) -> Option<Value> {
    let new = func.make_inst(data);
    func.inst_locs[new] = func.inst_locs[inst];
    let at = position(func, block, inst);
    func.blocks[block].insts.insert(at, new);
    func.inst_result(new)
}

/// Creates `data` and places it just after `inst`; returns its result.
pub fn insert_after(func: &mut Function, block: Block, inst: Inst, data: InstData) -> Option<Value> {
    let new = func.make_inst(data);
    func.inst_locs[new] = func.inst_locs[inst];
    let at = position(func, block, inst) + 1;
    func.blocks[block].insts.insert(at, new);
    func.inst_result(new)
}

/// Creates a new block placed right after `after` in the layout.
pub fn block_after(func: &mut Function, after: Block) -> Block {
    let new = func.create_block();
    func.layout.pop();
    let at = func.layout.iter().position(|&b| b == after).expect("block in layout") + 1;
    func.layout.insert(at, new);
    new
}

/// Appends instructions to one block, carrying a source location.
pub struct Appender<'f> {
    /// The function being edited.
    pub func: &'f mut Function,
    /// Where instructions go.
    pub block: Block,
    /// The location given to every new instruction.
    pub loc: atomc_ir::SrcLoc,
}

impl Appender<'_> {
    /// Appends `data`; returns its result, if any.
    pub fn ins(&mut self, data: InstData) -> Option<Value> {
        let inst = self.func.append_inst(self.block, data);
        self.func.inst_locs[inst] = self.loc;
        self.func.inst_result(inst)
    }

    /// Appends an instruction that has a result and returns it.
    pub fn val(&mut self, data: InstData) -> Value {
        self.ins(data).expect("instruction has a result")
    }
}
