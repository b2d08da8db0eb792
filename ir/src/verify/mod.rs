//! The verifier: checks that a [`Function`] is well formed before anything
//! downstream (interpreter, legalizer, instruction selection) relies on it.
//!
//! [`verify`] reports every broken rule it finds, not only the first, as
//! [`Diagnostic`]s. Each diagnostic carries the location of the offending
//! instruction (`func.inst_locs[inst]`; unknown for functions built in code),
//! or of the offending operand where a rule is about one (`func.operand_locs`),
//! the rule's stable kebab-case name, and a message that quotes the
//! instruction. The verifier never panics, even on a malformed [`Function`]
//! built by hand with out-of-range entity references: those become
//! diagnostics too.
//!
//! ```
//! use atomc_ir::{AddrSpace, FunctionBuilder, MemOrder, RmwOp, Scope, Type};
//!
//! let mut b = FunctionBuilder::new("k", &[Type::Ptr(AddrSpace::Global), Type::I32]);
//! let (p, x) = (b.param(0), b.param(1));
//! b.atomic_rmw(RmwOp::Fadd, Type::I32, MemOrder::Relaxed, Scope::Gpu, p, 0, x);
//! b.ret(&[]);
//! let diags = atomc_ir::verify::verify(&b.finish()).unwrap_err();
//! assert_eq!(diags.len(), 1);
//! assert_eq!(diags[0].rule, "atomic-op-type");
//! assert_eq!(
//!     diags[0].message,
//!     "`v2 = atomic_rmw.i32 fadd relaxed gpu v0, v1`: fadd needs a float type, got i32"
//! );
//! ```
//!
//! # Rules
//!
//! This list is the specification; each rule name is stable (tests and
//! filetests match on it).
//!
//! ## Structure
//!
//! | rule | what it rejects |
//! | --- | --- |
//! | `function-name` | a function name that is empty or has a character other than ASCII letters, digits and `_ . $ -` (the characters `%name` may have in the text, so that a printed function parses again) |
//! | `no-blocks` | a function whose layout has no block (reported at an unknown location) |
//! | `block-unknown` | the layout names a block that does not exist |
//! | `block-layout-duplicate` | a block appears more than once in the layout |
//! | `block-empty` | a block without instructions (so without a terminator); reported at a branch that names it, if any |
//! | `block-missing-terminator` | a block whose last instruction is not `jump`, `brif` or `return`; reported at that last instruction |
//! | `terminator-not-last` | a terminator that is not the last instruction of its block |
//! | `inst-unknown` | a block lists an instruction that does not exist |
//! | `inst-multiple-placement` | an instruction listed more than once (in one block or in several) |
//! | `branch-target-unknown` | a branch to a block that does not exist |
//! | `branch-target-not-in-layout` | a branch to a block that exists but is not in the layout |
//! | `entry-block-branch-target` | a branch to the entry block (its parameters are the function's parameters) |
//! | `kernel-return-value` | a `return` with values in a kernel (a function without return types) |
//! | `return-arity` | a `return` whose value count differs from `func.returns` |
//! | `return-type` | a returned value whose type differs from the matching return type |
//!
//! ## SSA
//!
//! | rule | what it rejects |
//! | --- | --- |
//! | `value-undefined` | an operand that names no value, or a value whose definition is not in the layout (the result of an unplaced instruction, a parameter of a block outside the layout) or whose record disagrees with its definer |
//! | `value-def-mismatch` | an instruction result or block parameter whose value record names a different definition |
//! | `inst-result` | an instruction with a result value although its opcode produces none, or without one although it does |
//! | `result-type` | a result whose type is not the one the opcode and operands produce |
//! | `ssa-dominance` | a use not dominated by its definition: in the same block the definition must come first (block parameters come before every instruction of their block); in another block the defining block must dominate the using block. Uses in unreachable blocks are only checked within their own block (dominance is vacuous there), but unreachable blocks are type-checked like any other |
//!
//! ## Branches
//!
//! | rule | what it rejects |
//! | --- | --- |
//! | `branch-arg-count` | a branch passing a different number of values than the target has parameters |
//! | `branch-arg-type` | a branch argument whose type differs from the target parameter's |
//! | `brif-cond-type` | a `brif` condition that is not a `pred` |
//!
//! ## Operands
//!
//! | rule | what it rejects |
//! | --- | --- |
//! | `const-type` | `iconst` of a non-integer type, `fconst` of a non-scalar-float type |
//! | `const-range` | an `iconst` immediate not sign-extended from its type's width, an `fconst` bit pattern wider than its type |
//! | `int-op-type` | an integer unary/binary op (`ineg`, `iadd`, `ushr`, `smin`, ...) on a non-integer operand |
//! | `float-op-type` | a float unary/binary op (`fneg`, `fadd`, ...) on an operand that is not a scalar float (packed floats included) |
//! | `operand-type-mismatch` | the two operands of a binary op, `icmp` or `fcmp`, or the two arms of a `select`, of different types (one error per cause: when an operand is of the wrong kind, as `iadd` of an `f32`, that kind's rule is reported alone) |
//! | `icmp-type` | `icmp` on operands that are neither integers nor pointers |
//! | `fcmp-type` | `fcmp` on operands that are not scalar floats |
//! | `select-cond-type` | a `select` condition that is not a `pred` |
//! | `convert-type` | `uextend`/`sextend` not to a strictly wider integer, `ireduce` not to a strictly narrower integer, `fpromote`/`fdemote` not to a strictly wider/narrower scalar float, `fcvt_to_*` not float → integer, `fcvt_from_*` not integer → float, `bitcast` between different widths or from/to `pred` |
//! | `ptr-add-type` | `ptr_add` on a non-pointer, or with an offset that is not `i32`/`i64` |
//! | `ptr-to-generic-type` | `ptr_to_generic` of anything but a `ptr.global` or `ptr.shared` |
//! | `bitfield-operand-type` | a `ubfe`/`sbfe`/`bfi` position or length that is not an `i32` (the value operands follow `int-op-type` and, for `bfi`, `operand-type-mismatch`; `fma` follows `float-op-type` and `operand-type-mismatch` over its three operands) |
//! | `memory-type` | `load` of, or `store` of a value of, a type without a memory representation (`pred`) |
//!
//! ## Addresses (`load`, `store`, `atomic_*`)
//!
//! | rule | what it rejects |
//! | --- | --- |
//! | `address-type` | an address operand that is not a pointer |
//! | `address-alignment` | a constant offset that is not a multiple of the access size |
//! | `address-offset-range` | a constant offset with magnitude above [`MAX_ADDRESS_OFFSET`] |
//!
//! ## Atomics
//!
//! | rule | what it rejects |
//! | --- | --- |
//! | `atomic-type` | an `atomic_rmw`/`atomic_cas`/`atomic_load`/`atomic_store` type that is not an integer, scalar float or packed float (so `pred`, pointers and `surface` are out, and every atomic is at least 8 bits wide) |
//! | `atomic-op-type` | an op × type pair outside [`RmwOp::accepts_type`] (`fadd` on `i32`, `inc_wrap` on `i64`, ...), for `atomic_rmw` and `surface_rmw` |
//! | `atomic-operand-type` | an argument, expected, replacement or stored value whose type is not the atomic's type |
//! | `atomic-order` | a memory order the instruction does not take: `atomic_load` takes `relaxed`/`acquire`/`seq_cst`, `atomic_store` takes `relaxed`/`release`/`seq_cst`, `fence` takes all but `relaxed`; read-modify-writes and CAS (memory and surface) take all five |
//! | `atomic-scope` | scope `sys` on a `ptr.shared` address (shared memory is private to one block; `cta` and `gpu` are fine on every space, and `sys` on `generic` is left to run time) |
//!
//! ## Subgroups (`ballot`, `vote_*`, `shuffle`, `match_any`, `reduce`)
//!
//! | rule | what it rejects |
//! | --- | --- |
//! | `subgroup-pred-type` | a `ballot`, `vote_any` or `vote_all` operand that is not a `pred` |
//! | `subgroup-value-type` | a `shuffle` or `match_any` value that is not an integer, float, packed float or pointer; a `vote_eq` of a `surface` |
//! | `shuffle-lane-type` | a `shuffle` lane, delta or mask operand that is not an `i32` |
//! | `reduce-type` | a `reduce` of a non-integer |
//!
//! ## Shared variables (`smN = shared SIZE, align A`, `shared_addr`)
//!
//! | rule | what it rejects |
//! | --- | --- |
//! | `shared-size` | a variable of 0 bytes, or variables that take more than [`MAX_SHARED_VAR_BYTES`] together (laid out as [`Function::shared_layout`] does) |
//! | `shared-align` | an alignment other than 1, 2, 4, 8 or 16 |
//! | `shared-undeclared` | a `shared_addr` of a variable the function does not declare |
//!
//! ## Surfaces (`surface_rmw`, `surface_cas`)
//!
//! | rule | what it rejects |
//! | --- | --- |
//! | `surface-element-type` | an element type other than `i32`, `i64`, `f32`, `f16x2` |
//! | `surface-coord-count` | a coordinate count different from [`SurfaceDim::coord_count`] |
//! | `surface-coord-type` | a coordinate that is not an `i32` |
//! | `surface-handle-type` | a bindless handle whose type is not `surface` |
//! | `surface-slot-range` | a bound slot index of [`MAX_SURFACE_SLOTS`] or more |
//!
//! Operand-type rules report once per distinct offending type, so
//! `iadd v0, v0` on an `f32` gives one `int-op-type`; operands with distinct
//! roles (a CAS's expected and replacement values, each surface coordinate)
//! report separately.
//!
//! `bytes` addressing is accepted on every dimension: on each of them the x
//! coordinate is the one scaled by the element size, so it can always be
//! given in bytes instead. That x is a multiple of the element size is a run
//! time property, not checked here.
//!
//! Dominators are computed by [`dominators::DominatorTree`], which passes
//! may reuse.
//!
//! [`MAX_ADDRESS_OFFSET`]: crate::MAX_ADDRESS_OFFSET
//! [`RmwOp::accepts_type`]: crate::RmwOp::accepts_type
//! [`SurfaceDim::coord_count`]: crate::SurfaceDim::coord_count
//! [`MAX_SHARED_VAR_BYTES`]: crate::verify::MAX_SHARED_VAR_BYTES
//! [`Function::shared_layout`]: crate::Function::shared_layout

mod describe;
pub mod dominators;
mod lanes;
mod memory;
mod operands;
mod shared;
mod ssa;
mod structure;

use crate::diagnostic::Diagnostic;
use crate::{Block, Function, Inst, SrcLoc, Type, Value};
use cranelift_entity::SecondaryMap;
use std::fmt::Display;
use std::rc::Rc;

/// Bound slots of the surface binding table a kernel may name: slots
/// `0..MAX_SURFACE_SLOTS`. CUDA limits a kernel to far fewer bound
/// surfaces; 128 leaves room for every target while catching garbage
/// indices (the SASS header index field itself would allow 8192 words).
pub const MAX_SURFACE_SLOTS: u16 = 128;

/// Bytes a kernel's shared variables may take together: CUDA's limit on static shared
/// memory per block (48 KiB; more needs dynamic shared memory and an opt-in at launch).
pub const MAX_SHARED_VAR_BYTES: u32 = 48 * 1024;

/// Checks every rule listed in the module documentation; returns all errors
/// found, in program order within each group of rules.
pub fn verify(func: &Function) -> Result<(), Vec<Diagnostic>> {
    let mut cx = Ctx::new(func);
    structure::check(&mut cx);
    shared::check_declarations(&mut cx);
    let domtree = dominators::DominatorTree::compute(func);
    ssa::check(&mut cx, &domtree);
    for &(_, inst) in cx.placed_insts().iter() {
        let Some(data) = func.insts.get(inst) else { continue };
        operands::check(&mut cx, inst, data);
        lanes::check(&mut cx, inst, data);
        memory::check(&mut cx, inst, data);
        shared::check(&mut cx, inst, data);
    }
    if cx.diags.is_empty() {
        return Ok(());
    }
    cx.diags.sort_by_key(|(key, _)| *key);
    Err(cx.diags.into_iter().map(|(_, d)| d).collect())
}

/// Where an instruction sits: its block and index within the block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pos {
    block: Block,
    index: usize,
}

/// Shared state of one verification: the function, the placement of its
/// instructions, and the diagnostics found so far.
pub(crate) struct Ctx<'a> {
    func: &'a Function,
    diags: Vec<(u32, Diagnostic)>,
    /// Program-order number (from 1) of each placed instruction.
    order: SecondaryMap<Inst, Option<u32>>,
    /// First position of each instruction in a layout block.
    placement: SecondaryMap<Inst, Option<Pos>>,
    /// Whether a block exists and is in the layout.
    in_layout: SecondaryMap<Block, bool>,
    /// The layout with unknown and repeated blocks dropped.
    layout: Vec<Block>,
    /// [`Ctx::placed_insts`], listed once: several checks walk it.
    placed: Rc<[(Block, Inst)]>,
}

impl<'a> Ctx<'a> {
    fn new(func: &'a Function) -> Ctx<'a> {
        let mut in_layout: SecondaryMap<Block, bool> = SecondaryMap::new();
        let mut layout = Vec::new();
        for &b in &func.layout {
            if func.blocks.get(b).is_some() && !in_layout[b] {
                in_layout[b] = true;
                layout.push(b);
            }
        }
        let mut placement: SecondaryMap<Inst, Option<Pos>> = SecondaryMap::new();
        for &b in &layout {
            for (index, &inst) in func.blocks[b].insts.iter().enumerate() {
                if func.insts.get(inst).is_some() && placement[inst].is_none() {
                    placement[inst] = Some(Pos { block: b, index });
                }
            }
        }
        let mut placed = Vec::with_capacity(func.insts.len());
        for &b in &layout {
            for (index, &inst) in func.blocks[b].insts.iter().enumerate() {
                if placement[inst] == Some(Pos { block: b, index }) {
                    placed.push((b, inst));
                }
            }
        }
        let mut order: SecondaryMap<Inst, Option<u32>> = SecondaryMap::with_capacity(func.insts.len());
        for (n, &(_, inst)) in placed.iter().enumerate() {
            order[inst] = Some(n as u32 + 1);
        }
        Ctx { func, diags: Vec::new(), order, placement, in_layout, layout, placed: placed.into() }
    }

    /// Instructions at their first placement, in program order.
    fn placed_insts(&self) -> Rc<[(Block, Inst)]> {
        self.placed.clone()
    }

    /// The type of `v`, if `v` exists.
    fn ty(&self, v: Value) -> Option<Type> {
        self.func.values.get(v).map(|d| d.ty)
    }

    /// The location of `inst` (unknown if it has none).
    fn loc(&self, inst: Inst) -> SrcLoc {
        self.func.inst_locs[inst]
    }

    /// Records an error whose message is already complete, at the location
    /// of `anchor` (unknown without one). Diagnostics are sorted by the
    /// anchor's program position; those without one come first.
    fn error_at(&mut self, anchor: Option<Inst>, rule: &'static str, message: String) {
        let key = match anchor {
            None => 0,
            Some(inst) => self.order[inst].unwrap_or(u32::MAX),
        };
        let loc = anchor.map(|i| self.loc(i)).unwrap_or_default();
        // Without a position (a function built in code), the instruction is what finds it.
        let inst = anchor.filter(|_| !loc.is_known());
        self.diags.push((key, Diagnostic { loc, rule, message, inst }));
    }

    /// Records an error about `inst`: the message quotes the instruction.
    fn error(&mut self, inst: Inst, rule: &'static str, what: impl Display) {
        let message = format!("{}: {}", describe::inst(self.func, inst), what);
        self.error_at(Some(inst), rule, message);
    }

    /// The number of errors found so far (a check that found one skips the checks it implies).
    fn errors(&self) -> usize {
        self.diags.len()
    }

    /// Records an error about `operand` of `inst`, positioned at the operand where the text
    /// gives its place (else at the instruction).
    fn error_on(&mut self, inst: Inst, operand: Value, rule: &'static str, what: impl Display) {
        self.error(inst, rule, what);
        let at = self.func.insts.get(inst).and_then(|d| d.args().iter().position(|&v| v == operand));
        let loc = at.and_then(|i| self.func.operand_locs.get(inst)?.get(i).copied());
        if let (Some(loc), Some((_, d))) = (loc.filter(|l| l.is_known()), self.diags.last_mut()) {
            d.loc = loc;
        }
    }
}
