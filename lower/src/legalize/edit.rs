//! Small editing helpers over `Function` shared by the passes.
//!
//! Passes that insert instructions next to existing ones rebuild each block's list in one
//! pass ([`rewrite`]) rather than inserting into the middle of it, and passes that add blocks
//! keep the new order in a [`Chain`] until they finish: either edit in place costs a search
//! and a shift of everything after it, which over a long block or layout makes the pass
//! quadratic.

use atomc_ir::{Block, Function, Inst, InstData, Value};
use cranelift_entity::SecondaryMap;

/// New instructions around the one being visited by [`rewrite`].
#[derive(Default)]
pub struct Splice {
    before: Vec<Inst>,
    after: Vec<Inst>,
}

impl Splice {
    /// Creates `data` just before `anchor` (after any placed before it earlier), with its
    /// source location; returns its result.
    pub fn before(&mut self, func: &mut Function, anchor: Inst, data: InstData) -> Option<Value> {
        let new = make_at(func, anchor, data);
        self.before.push(new);
        func.inst_result(new)
    }

    /// Creates `data` just after `anchor` (before any placed after it earlier, as repeated
    /// insertion right after an instruction would), with its source location.
    pub fn after(&mut self, func: &mut Function, anchor: Inst, data: InstData) -> Option<Value> {
        let new = make_at(func, anchor, data);
        self.after.push(new);
        func.inst_result(new)
    }
}

fn make_at(func: &mut Function, anchor: Inst, data: InstData) -> Inst {
    let new = func.make_inst(data);
    func.inst_locs[new] = func.inst_locs[anchor];
    new
}

/// Visits every laid-out instruction in layout order, letting `visit` place new instructions
/// around it; each block's list is rebuilt once. Instructions `visit` creates are not visited.
pub fn rewrite(func: &mut Function, mut visit: impl FnMut(&mut Function, Inst, &mut Splice)) {
    let mut splice = Splice::default();
    for k in 0..func.layout.len() {
        let block = func.layout[k];
        let old = std::mem::take(&mut func.blocks[block].insts);
        let mut new = Vec::with_capacity(old.len());
        for &inst in &old {
            visit(func, inst, &mut splice);
            new.append(&mut splice.before);
            new.push(inst);
            new.extend(splice.after.drain(..).rev());
        }
        func.blocks[block].insts = new;
    }
}

/// The block order of a function under edit, as a linked list: placing a block after another
/// is constant time. [`Chain::finish`] writes it back to the layout.
pub struct Chain {
    next: SecondaryMap<Block, Option<Block>>,
    first: Option<Block>,
}

impl Chain {
    /// The function's current layout.
    pub fn new(func: &Function) -> Chain {
        let mut next = SecondaryMap::with_capacity(func.blocks.len());
        for pair in func.layout.windows(2) {
            next[pair[0]] = Some(pair[1]);
        }
        Chain { next, first: func.layout.first().copied() }
    }

    /// Creates a new block placed right after `after`.
    pub fn block_after(&mut self, func: &mut Function, after: Block) -> Block {
        let new = func.create_block();
        // `create_block` appends to the layout, which is rebuilt from the chain at the end.
        func.layout.pop();
        self.next[new] = self.next[after];
        self.next[after] = Some(new);
        new
    }

    /// Writes the order back to `func.layout`.
    pub fn finish(self, func: &mut Function) {
        let mut layout = Vec::with_capacity(func.layout.len());
        let mut at = self.first;
        while let Some(b) = at {
            layout.push(b);
            at = self.next[b];
        }
        func.layout = layout;
    }
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
