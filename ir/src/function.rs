//! Functions: the data-flow graph (instructions, values, blocks) and the
//! block layout.
//!
//! A function is a kernel when it returns nothing. Its parameters are the
//! parameters of its first block (the entry block); for a kernel they are
//! the kernel parameters the launch passes in.

use crate::instructions::InstData;
use crate::types::Type;
use cranelift_entity::{entity_impl, PrimaryMap, SecondaryMap};
use std::fmt;

/// An SSA value: a block parameter or an instruction's result. Text `vN`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Value(u32);
entity_impl!(Value, "v");

/// A basic block. Text `blockN`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Block(u32);
entity_impl!(Block, "block");

/// An instruction.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Inst(u32);
entity_impl!(Inst, "inst");

/// A shared-memory variable of a kernel. Text `smN`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SharedVar(u32);
entity_impl!(SharedVar, "sm");

/// A shared-memory variable, declared before a function's first block as
/// `smN = shared SIZE, align A`: `SIZE` bytes per block, at an address that is a
/// multiple of `A` (1, 2, 4, 8 or 16). A block's shared memory holds the declared
/// variables, in declaration order, then the launch's dynamic shared memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SharedVarData {
    /// Bytes per block; at least 1.
    pub size: u32,
    /// Alignment of its first byte.
    pub align: u32,
}

/// Where a function's shared variables lie in a block's shared memory
/// ([`Function::shared_layout`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SharedLayout {
    /// Each variable's byte offset: a shared pointer with this value points at it.
    pub offsets: SecondaryMap<SharedVar, u32>,
    /// Bytes the variables take, rounded up to 16: the offset at which the launch's dynamic
    /// shared memory begins (0 without variables, so that shared offsets then address the
    /// dynamic memory alone). ptxas lays a kernel out the same way: its static `.shared`
    /// variables first, the `extern .shared` array after them (a 0x50-byte static array puts
    /// the dynamic array at window + 0x50 on sm_50 and sm_90).
    pub static_bytes: u32,
}

/// A position in the source text: 1-based line and column (0 = unknown).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SrcLoc {
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub col: u32,
}

impl SrcLoc {
    /// Whether the location is known.
    pub fn is_known(self) -> bool {
        self.line != 0
    }
}

/// Where a value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueDef {
    /// The result of an instruction.
    Result(Inst),
    /// Parameter number `n` of a block.
    Param(Block, usize),
}

/// A value's type and definition.
#[derive(Clone, Copy, Debug)]
pub struct ValueData {
    /// The value's type.
    pub ty: Type,
    /// Where it is defined.
    pub def: ValueDef,
}

/// A block's parameters and instructions, in order.
#[derive(Clone, Debug, Default)]
pub struct BlockData {
    /// The block parameters, which receive the branch arguments.
    pub params: Vec<Value>,
    /// The instructions; the last one is the terminator.
    pub insts: Vec<Inst>,
}

/// A function: signature, data-flow graph and block order.
#[derive(Clone, Debug)]
pub struct Function {
    /// The name, written `%name` in the text.
    pub name: String,
    /// Return types; empty for a kernel.
    pub returns: Vec<Type>,
    /// The instructions.
    pub insts: PrimaryMap<Inst, InstData>,
    /// Each instruction's result, if it has one.
    pub results: SecondaryMap<Inst, Option<Value>>,
    /// The values.
    pub values: PrimaryMap<Value, ValueData>,
    /// The blocks (in creation order; see `layout` for program order).
    pub blocks: PrimaryMap<Block, BlockData>,
    /// Program order of the blocks; the first is the entry block.
    pub layout: Vec<Block>,
    /// Source positions of instructions, when parsed from text.
    pub inst_locs: SecondaryMap<Inst, SrcLoc>,
    /// Source positions of each instruction's value operands in text order (the order of
    /// [`InstData::args`](crate::InstData::args)), when parsed from text; the verifier points
    /// at the operand at fault. Up to four inline, so parsing allocates no more for most.
    pub operand_locs: SecondaryMap<Inst, smallvec::SmallVec<[SrcLoc; 4]>>,
    /// The shared-memory variables a kernel declares (`smN = shared SIZE, align A`).
    pub shared_vars: PrimaryMap<SharedVar, SharedVarData>,
    /// Source positions of the shared-variable declarations, when parsed from text.
    pub shared_locs: SecondaryMap<SharedVar, SrcLoc>,
}

impl Function {
    /// An empty function with the given name and return types.
    pub fn new(name: impl Into<String>, returns: Vec<Type>) -> Function {
        Function {
            name: name.into(),
            returns,
            insts: PrimaryMap::new(),
            results: SecondaryMap::new(),
            values: PrimaryMap::new(),
            blocks: PrimaryMap::new(),
            layout: Vec::new(),
            inst_locs: SecondaryMap::new(),
            operand_locs: SecondaryMap::new(),
            shared_vars: PrimaryMap::new(),
            shared_locs: SecondaryMap::new(),
        }
    }

    /// Lays the shared variables out in declaration order, each at the next multiple of its
    /// alignment, from offset 0.
    pub fn shared_layout(&self) -> SharedLayout {
        let mut layout = SharedLayout::default();
        let mut end: u64 = 0;
        for (var, data) in self.shared_vars.iter() {
            let align = u64::from(data.align.max(1));
            let at = end.div_ceil(align) * align;
            layout.offsets[var] = u32::try_from(at).unwrap_or(u32::MAX);
            end = at + u64::from(data.size);
        }
        layout.static_bytes = u32::try_from(end.div_ceil(16) * 16).unwrap_or(u32::MAX);
        layout
    }

    /// The entry block, if there is one.
    pub fn entry_block(&self) -> Option<Block> {
        self.layout.first().copied()
    }

    /// The parameter types (the entry block's parameter types).
    pub fn params(&self) -> Vec<Type> {
        self.entry_block()
            .map(|b| self.blocks[b].params.iter().map(|&v| self.values[v].ty).collect())
            .unwrap_or_default()
    }

    /// Whether this function is a kernel (returns nothing).
    pub fn is_kernel(&self) -> bool {
        self.returns.is_empty()
    }

    /// The type of a value.
    pub fn value_type(&self, v: Value) -> Type {
        self.values[v].ty
    }

    /// Creates a new block and appends it to the layout.
    pub fn create_block(&mut self) -> Block {
        let b = self.blocks.push(BlockData::default());
        self.layout.push(b);
        b
    }

    /// Appends a parameter of type `ty` to `block`.
    pub fn append_block_param(&mut self, block: Block, ty: Type) -> Value {
        let n = self.blocks[block].params.len();
        let v = self.values.push(ValueData { ty, def: ValueDef::Param(block, n) });
        self.blocks[block].params.push(v);
        v
    }

    /// Creates an instruction (not yet placed in a block) and its result value.
    /// The result type is computed from the operands, which must exist.
    pub fn make_inst(&mut self, data: InstData) -> Inst {
        let ty = data.result_type(|v| self.values[v].ty);
        let inst = self.insts.push(data);
        if let Some(ty) = ty {
            let v = self.values.push(ValueData { ty, def: ValueDef::Result(inst) });
            self.results[inst] = Some(v);
        }
        inst
    }

    /// Creates an instruction and appends it to `block`.
    pub fn append_inst(&mut self, block: Block, data: InstData) -> Inst {
        let inst = self.make_inst(data);
        self.blocks[block].insts.push(inst);
        inst
    }

    /// The result of `inst`, if it has one.
    pub fn inst_result(&self, inst: Inst) -> Option<Value> {
        self.results[inst]
    }

    /// Instructions in program order, each with its block.
    pub fn inst_order(&self) -> impl Iterator<Item = (Block, Inst)> + '_ {
        self.layout.iter().flat_map(move |&b| self.blocks[b].insts.iter().map(move |&i| (b, i)))
    }

    /// The terminator of `block`, if its last instruction is one.
    pub fn terminator(&self, block: Block) -> Option<Inst> {
        let last = *self.blocks[block].insts.last()?;
        self.insts[last].is_terminator().then_some(last)
    }

    /// The successors of `block`, in branch order (may repeat).
    pub fn successors(&self, block: Block) -> Vec<Block> {
        match self.terminator(block) {
            Some(t) => self.insts[t].branch_targets().iter().map(|c| c.block).collect(),
            None => Vec::new(),
        }
    }
}

impl fmt::Display for Function {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::print::print_function(self))
    }
}
