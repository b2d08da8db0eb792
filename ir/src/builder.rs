//! Building functions in code, for front ends that link atomc as a library.
//!
//! ```
//! use atomc_ir::{FunctionBuilder, Type, AddrSpace, RmwOp, MemOrder, Scope};
//!
//! // A kernel that adds 1 to `counter[thread_id.x]`.
//! let mut b = FunctionBuilder::new("count", &[Type::Ptr(AddrSpace::Global)]);
//! let counter = b.param(0);
//! let tid = b.special(atomc_ir::SpecialReg::ThreadIdX);
//! let tid64 = b.convert(atomc_ir::ConvOp::Uextend, Type::I64, tid);
//! let four = b.iconst(Type::I64, 4);
//! let off = b.binary(atomc_ir::BinaryOp::Imul, tid64, four);
//! let p = b.ptr_add(counter, off);
//! let one = b.iconst(Type::I32, 1);
//! b.atomic_rmw(RmwOp::Add, Type::I32, MemOrder::Relaxed, Scope::Gpu, p, 0, one);
//! b.ret(&[]);
//! let func = b.finish();
//! atomc_ir::verify::verify(&func).expect("a valid kernel");
//! assert!(func.to_string().contains("atomic_rmw.i32 add relaxed gpu"));
//! ```
//!
//! A front end can give the instructions it appends a location of its own
//! source ([`FunctionBuilder::set_loc`]), and keep the [`Inst`] handle of one
//! ([`FunctionBuilder::last_inst`]): diagnostics of the verifier and refusals
//! of a target name both.
//!
//! ```
//! use atomc_ir::{FunctionBuilder, SrcLoc, Type};
//!
//! let mut b = FunctionBuilder::with_returns("f", &[Type::I32], &[Type::I32]);
//! b.set_loc(SrcLoc { line: 12, col: 5 });
//! let x = b.iconst(Type::I64, 1);
//! let bad = b.binary(atomc_ir::BinaryOp::Iadd, b.param(0), x); // i32 + i64
//! let inst = b.last_inst().expect("an instruction");
//! b.ret(&[bad]);
//! let func = b.finish();
//! let diags = atomc_ir::verify::verify(&func).unwrap_err();
//! assert_eq!(diags[0].loc, SrcLoc { line: 12, col: 5 });
//! assert_eq!(diags[0].headline("lib.rs"), format!("lib.rs:12:5: error[{}]: {}", diags[0].rule, diags[0].message));
//! # let _ = inst;
//! ```

use crate::atomics::{MemOrder, RmwOp, Scope, SurfaceAccess};
use crate::instructions::{
    Address, BinaryOp, BlockCall, ConvOp, FloatCC, InstData, IntCC, SpecialReg, UnaryOp,
};
use crate::{Block, Function, Inst, SharedVar, SharedVarData, SrcLoc, Type, Value};

/// Appends instructions to a function, one block at a time.
///
/// The builder does not check operand types; run
/// [`crate::verify::verify`] on the result.
pub struct FunctionBuilder {
    func: Function,
    current: Block,
    /// The location given to appended instructions.
    loc: SrcLoc,
    /// The instruction appended last.
    last: Option<Inst>,
}

impl FunctionBuilder {
    /// Starts a kernel (no return values) with the given parameter types;
    /// the entry block is created and selected.
    pub fn new(name: &str, params: &[Type]) -> FunctionBuilder {
        FunctionBuilder::with_returns(name, params, &[])
    }

    /// Starts a function that returns values of the given types.
    pub fn with_returns(name: &str, params: &[Type], returns: &[Type]) -> FunctionBuilder {
        let mut func = Function::new(name, returns.to_vec());
        let entry = func.create_block();
        for &ty in params {
            func.append_block_param(entry, ty);
        }
        FunctionBuilder { func, current: entry, loc: SrcLoc::default(), last: None }
    }

    /// Parameter `n` of the function.
    pub fn param(&self, n: usize) -> Value {
        self.func.blocks[self.func.layout[0]].params[n]
    }

    /// Creates a block (placed after the existing ones).
    pub fn create_block(&mut self) -> Block {
        self.func.create_block()
    }

    /// Adds a parameter to `block`.
    pub fn block_param(&mut self, block: Block, ty: Type) -> Value {
        self.func.append_block_param(block, ty)
    }

    /// Makes `block` the one instructions are appended to.
    pub fn switch_to_block(&mut self, block: Block) {
        self.current = block;
    }

    /// The block instructions are appended to.
    pub fn current_block(&self) -> Block {
        self.current
    }

    /// Gives the instructions appended from now on the location `loc` (a position in the
    /// caller's own source; [`SrcLoc::default`] for none, the start). Diagnostics and target
    /// refusals report it.
    pub fn set_loc(&mut self, loc: SrcLoc) {
        self.loc = loc;
    }

    /// The location appended instructions get.
    pub fn loc(&self) -> SrcLoc {
        self.loc
    }

    /// The instruction appended last: the handle diagnostics of a built function name.
    pub fn last_inst(&self) -> Option<Inst> {
        self.last
    }

    /// Appends any instruction; returns its result, if it has one.
    pub fn ins(&mut self, data: InstData) -> Option<Value> {
        let inst = self.func.append_inst(self.current, data);
        self.func.inst_locs[inst] = self.loc;
        self.last = Some(inst);
        self.func.inst_result(inst)
    }

    fn value(&mut self, data: InstData) -> Value {
        let name = data.opcode_name();
        self.ins(data).unwrap_or_else(|| panic!("{name} has a result"))
    }

    /// `iconst.T imm`.
    pub fn iconst(&mut self, ty: Type, imm: i64) -> Value {
        self.value(InstData::Iconst { ty, imm })
    }

    /// `fconst.T` of a float given as `f64` (converted to `T`'s precision).
    pub fn fconst(&mut self, ty: Type, x: f64) -> Value {
        let bits = match ty {
            Type::F32 => (x as f32).to_bits() as u64,
            Type::F16 => crate::interp::f32_to_f16_bits(x as f32) as u64,
            _ => x.to_bits(),
        };
        self.value(InstData::Fconst { ty, bits })
    }

    /// A one-operand op.
    pub fn unary(&mut self, op: UnaryOp, arg: Value) -> Value {
        self.value(InstData::Unary { op, arg })
    }

    /// A two-operand op.
    pub fn binary(&mut self, op: BinaryOp, a: Value, b: Value) -> Value {
        self.value(InstData::Binary { op, args: [a, b] })
    }

    /// `icmp cc a, b`.
    pub fn icmp(&mut self, cond: IntCC, a: Value, b: Value) -> Value {
        self.value(InstData::Icmp { cond, args: [a, b] })
    }

    /// `fcmp cc a, b`.
    pub fn fcmp(&mut self, cond: FloatCC, a: Value, b: Value) -> Value {
        self.value(InstData::Fcmp { cond, args: [a, b] })
    }

    /// `select c, a, b`.
    pub fn select(&mut self, cond: Value, a: Value, b: Value) -> Value {
        self.value(InstData::Select { cond, args: [a, b] })
    }

    /// A conversion to `to`.
    pub fn convert(&mut self, op: ConvOp, to: Type, arg: Value) -> Value {
        self.value(InstData::Convert { op, to, arg })
    }

    /// `ptr_add p, off`.
    pub fn ptr_add(&mut self, ptr: Value, offset: Value) -> Value {
        self.value(InstData::PtrAdd { ptr, offset })
    }

    /// A thread/block id, dimension or lane id.
    pub fn special(&mut self, reg: SpecialReg) -> Value {
        self.value(InstData::Special { reg })
    }

    /// Declares a shared variable of `size` bytes aligned to `align` (`smN = shared SIZE,
    /// align A`); [`shared_addr`](Self::shared_addr) gives its address.
    pub fn declare_shared(&mut self, size: u32, align: u32) -> SharedVar {
        self.func.shared_vars.push(SharedVarData { size, align })
    }

    /// `shared_addr smN`: the `ptr.shared` address of a declared shared variable.
    pub fn shared_addr(&mut self, var: SharedVar) -> Value {
        self.value(InstData::SharedAddr { var })
    }

    /// `load.T p+off`.
    pub fn load(&mut self, ty: Type, ptr: Value, offset: i32) -> Value {
        self.value(InstData::Load { ty, addr: Address { ptr, offset } })
    }

    /// `store v, p+off`.
    pub fn store(&mut self, value: Value, ptr: Value, offset: i32) {
        self.ins(InstData::Store { value, addr: Address { ptr, offset } });
    }

    /// `atomic_rmw.T op order scope p+off, x`; returns the old value.
    #[allow(clippy::too_many_arguments)]
    pub fn atomic_rmw(
        &mut self,
        op: RmwOp,
        ty: Type,
        order: MemOrder,
        scope: Scope,
        ptr: Value,
        offset: i32,
        arg: Value,
    ) -> Value {
        let addr = Address { ptr, offset };
        self.value(InstData::AtomicRmw { op, ty, order, scope, addr, arg })
    }

    /// `atomic_cas.T order scope p+off, expected, replacement`; returns the old value.
    #[allow(clippy::too_many_arguments)]
    pub fn atomic_cas(
        &mut self,
        ty: Type,
        order: MemOrder,
        scope: Scope,
        ptr: Value,
        offset: i32,
        expected: Value,
        replacement: Value,
    ) -> Value {
        let addr = Address { ptr, offset };
        self.value(InstData::AtomicCas { ty, order, scope, addr, expected, replacement })
    }

    /// `atomic_load.T order scope p+off`.
    pub fn atomic_load(&mut self, ty: Type, order: MemOrder, scope: Scope, ptr: Value, offset: i32) -> Value {
        self.value(InstData::AtomicLoad { ty, order, scope, addr: Address { ptr, offset } })
    }

    /// `atomic_store.T order scope p+off, v`.
    pub fn atomic_store(&mut self, ty: Type, order: MemOrder, scope: Scope, ptr: Value, offset: i32, value: Value) {
        let addr = Address { ptr, offset };
        self.ins(InstData::AtomicStore { ty, order, scope, addr, value });
    }

    /// `fence order scope`.
    pub fn fence(&mut self, order: MemOrder, scope: Scope) {
        self.ins(InstData::Fence { order, scope });
    }

    /// `surface_rmw.T ...`; returns the old element.
    #[allow(clippy::too_many_arguments)]
    pub fn surface_rmw(
        &mut self,
        op: RmwOp,
        ty: Type,
        order: MemOrder,
        scope: Scope,
        access: SurfaceAccess,
        coords: &[Value],
        arg: Value,
    ) -> Value {
        let coords = coords.iter().copied().collect();
        self.value(InstData::SurfaceRmw { op, ty, order, scope, access, coords, arg })
    }

    /// `barrier`.
    pub fn barrier(&mut self) {
        self.ins(InstData::Barrier);
    }

    /// `jump block(args)`.
    pub fn jump(&mut self, block: Block, args: &[Value]) {
        self.ins(InstData::Jump { dest: call(block, args) });
    }

    /// `brif c, then(args), else(args)`.
    pub fn brif(&mut self, cond: Value, then_block: Block, then_args: &[Value], else_block: Block, else_args: &[Value]) {
        let (then_dest, else_dest) = (call(then_block, then_args), call(else_block, else_args));
        self.ins(InstData::Brif { cond, then_dest, else_dest });
    }

    /// `return args`.
    pub fn ret(&mut self, args: &[Value]) {
        self.ins(InstData::Return { args: args.iter().copied().collect() });
    }

    /// The function built so far.
    pub fn func(&self) -> &Function {
        &self.func
    }

    /// Ends building and returns the function.
    pub fn finish(self) -> Function {
        self.func
    }
}

fn call(block: Block, args: &[Value]) -> BlockCall {
    BlockCall { block, args: args.iter().copied().collect() }
}
