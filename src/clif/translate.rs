//! The translator: CLIF values and blocks to atomc values and blocks.
//!
//! Every CLIF value maps to a [`Repr`]: a plain atomc value of the same
//! type, a typed pointer standing for an `i64` address, or a `pred`
//! standing for an `i8` comparison result. The other forms are made on
//! demand, once per atomc block (a conversion made in one block does not
//! dominate the others).

use super::analysis;
use super::error::ImportError;
use super::ImportOptions;
use atomc_ir::{AddrSpace, Block, ConvOp, Function, InstData, IntCC, Type, Value};
use cranelift_codegen::ir::{self as cl, types as clt};
use std::collections::{HashMap, HashSet};

/// How a CLIF value is held in atomc.
#[derive(Clone, Copy, Debug)]
pub(super) enum Repr {
    /// An atomc value of the CLIF value's type.
    Val(Value),
    /// A CLIF `i64` address held as an atomc pointer.
    Ptr(Value),
    /// A CLIF `i8` comparison result held as a `pred`.
    Pred(Value),
}

/// Translates one CLIF function into atomc IR (see the module docs for
/// the mapping), and verifies the result.
///
/// Each atomc instruction gets the location of the CLIF instruction it comes from: CLIF's
/// `SourceLoc` (set with `FunctionBuilder::set_srcloc`) as the line, column 0.
pub fn import(src: &cl::Function, opts: &ImportOptions) -> Result<Function, ImportError> {
    import_located(src, opts, None)
}

/// [`import`], with the `.clif` text position of each instruction (which wins over `SourceLoc`).
pub(super) fn import_located(
    src: &cl::Function,
    opts: &ImportOptions,
    lines: Option<&HashMap<cl::Inst, atomc_ir::SrcLoc>>,
) -> Result<Function, ImportError> {
    let mut t = Translator::new(src, opts)?;
    t.lines = lines;
    for block in analysis::reverse_postorder(src) {
        t.cur = t.blocks[&block];
        for inst in src.layout.block_insts(block) {
            let first = t.out.insts.len();
            t.inst(inst)?;
            t.locate(inst, first);
        }
    }
    let out = t.out;
    atomc_ir::verify::verify(&out).map_err(|diags| ImportError::Invalid {
        function: t.name.clone(),
        messages: diags.iter().map(|d| d.message.as_str()).collect::<Vec<_>>().join("; "),
    })?;
    Ok(renumbered(out))
}

/// The function with values and blocks numbered in text order (the
/// translation creates every block parameter first, which reads badly).
/// Printing and re-parsing is the IR's own canonical numbering; the
/// locations carried over from CLIF are kept (the instruction order is the same).
fn renumbered(func: Function) -> Function {
    match atomc_ir::parse::parse(&func.to_string()) {
        Ok(mut funcs) if funcs.len() == 1 => {
            let mut out = funcs.pop().unwrap_or(func.clone());
            let locs: Vec<_> = func.inst_order().map(|(_, i)| func.inst_locs[i]).collect();
            let insts: Vec<_> = out.inst_order().map(|(_, i)| i).collect();
            for (i, loc) in insts.into_iter().zip(locs) {
                out.inst_locs[i] = loc;
            }
            out
        }
        _ => func,
    }
}

pub(super) struct Translator<'a> {
    pub src: &'a cl::Function,
    pub opts: &'a ImportOptions,
    pub out: Function,
    /// The CLIF function's name without `%`.
    pub name: String,
    /// The atomc block instructions are appended to.
    pub cur: Block,
    pub blocks: HashMap<cl::Block, Block>,
    vals: HashMap<cl::Value, Repr>,
    /// Conversions made on demand: (value, block, form) → atomc value.
    made: HashMap<(cl::Value, Block, u8), Value>,
    /// Scratch-buffer offsets of the stack slots.
    pub slots: HashMap<cl::StackSlot, u64>,
    /// Text positions of the CLIF instructions, for `.clif` files.
    lines: Option<&'a HashMap<cl::Inst, atomc_ir::SrcLoc>>,
}

impl<'a> Translator<'a> {
    fn new(src: &'a cl::Function, opts: &'a ImportOptions) -> Result<Translator<'a>, ImportError> {
        let name = atomc_name(&src.name.to_string());
        let type_err = |what: String, ty: cl::Type, reason: &str| ImportError::Type {
            function: name.clone(),
            what,
            ty: ty.to_string(),
            reason: reason.to_string(),
        };
        let mut returns = Vec::new();
        for (i, r) in src.signature.returns.iter().enumerate() {
            let ty = map_type(r.value_type).map_err(|why| type_err(format!("return value {i}"), r.value_type, why))?;
            returns.push(ty);
        }
        let mut out = Function::new(name.clone(), returns);
        let ptrs = if opts.pointer_params {
            analysis::pointer_params(src)
        } else {
            HashSet::new()
        };
        let entry = src.layout.entry_block();
        let mut blocks = HashMap::new();
        let mut vals = HashMap::new();
        let reachable: HashSet<cl::Block> = analysis::reverse_postorder(src).into_iter().collect();
        for block in src.layout.blocks().filter(|b| reachable.contains(b)) {
            let b = out.create_block();
            blocks.insert(block, b);
            for (i, &p) in src.dfg.block_params(block).iter().enumerate() {
                let cty = src.dfg.value_type(p);
                let what = if Some(block) == entry {
                    format!("parameter {i}")
                } else {
                    format!("{p} ({block})")
                };
                let ty = map_type(cty).map_err(|why| type_err(what, cty, why))?;
                if Some(block) == entry && ptrs.contains(&i) {
                    let v = out.append_block_param(b, Type::Ptr(opts.address_space));
                    vals.insert(p, Repr::Ptr(v));
                } else {
                    let v = out.append_block_param(b, ty);
                    vals.insert(p, Repr::Val(v));
                }
            }
        }
        let cur = out.entry_block().unwrap_or_else(|| out.create_block());
        Ok(Translator {
            src,
            opts,
            out,
            name,
            cur,
            blocks,
            vals,
            made: HashMap::new(),
            slots: analysis::slot_layout(src).0,
            lines: None,
        })
    }

    /// Appends an instruction to the current block; returns its result.
    pub fn ins(&mut self, data: InstData) -> Option<Value> {
        let inst = self.out.append_inst(self.cur, data);
        self.out.inst_result(inst)
    }

    /// Appends an instruction that has a result.
    pub fn ins_v(&mut self, data: InstData) -> Value {
        let inst = self.out.append_inst(self.cur, data);
        // Every caller passes an instruction with a result; fall back to a
        // fresh constant rather than panicking if that ever changes.
        match self.out.inst_result(inst) {
            Some(v) => v,
            None => self.iconst(Type::I32, 0),
        }
    }

    pub fn iconst(&mut self, ty: Type, imm: i64) -> Value {
        let inst = self.out.append_inst(
            self.cur,
            InstData::Iconst {
                ty,
                imm: sext(imm, ty.bits()),
            },
        );
        self.out.inst_result(inst).expect("iconst has a result")
    }

    pub fn convert(&mut self, op: ConvOp, to: Type, arg: Value) -> Value {
        self.ins_v(InstData::Convert { op, to, arg })
    }

    /// Records the atomc form of a CLIF result.
    pub fn def(&mut self, v: cl::Value, r: Repr) {
        self.vals.insert(v, r);
    }

    fn repr(&self, v: cl::Value) -> Result<Repr, String> {
        let v = self.src.dfg.resolve_aliases(v);
        self.vals
            .get(&v)
            .copied()
            .ok_or_else(|| format!("{v} is used before its definition is translated"))
    }

    /// The CLIF value as an atomc value of its own type (`i64` for
    /// addresses, `i8` for comparison results).
    pub fn val(&mut self, v: cl::Value) -> Result<Value, String> {
        let v = self.src.dfg.resolve_aliases(v);
        match self.repr(v)? {
            Repr::Val(x) => Ok(x),
            Repr::Ptr(p) => Ok(self.made_once(v, 0, |t| {
                if t.out.value_type(p) == Type::Ptr(AddrSpace::Shared) {
                    let w = t.convert(ConvOp::Bitcast, Type::I32, p);
                    t.convert(ConvOp::Uextend, Type::I64, w)
                } else {
                    t.convert(ConvOp::Bitcast, Type::I64, p)
                }
            })),
            Repr::Pred(c) => Ok(self.made_once(v, 1, |t| {
                let one = t.iconst(Type::I8, 1);
                let zero = t.iconst(Type::I8, 0);
                t.ins_v(InstData::Select {
                    cond: c,
                    args: [one, zero],
                })
            })),
        }
    }

    /// The CLIF value as a `pred` (non-zero is true).
    pub fn cond(&mut self, v: cl::Value) -> Result<Value, String> {
        let v = self.src.dfg.resolve_aliases(v);
        match self.repr(v)? {
            Repr::Pred(c) => Ok(c),
            _ => {
                let x = self.val(v)?;
                Ok(self.made_once(v, 2, |t| {
                    let ty = t.out.value_type(x);
                    let zero = t.iconst(ty, 0);
                    t.ins_v(InstData::Icmp {
                        cond: IntCC::Ne,
                        args: [x, zero],
                    })
                }))
            }
        }
    }

    /// The CLIF address as an atomc pointer (of the options' space unless
    /// it already is a pointer).
    pub fn ptr(&mut self, v: cl::Value) -> Result<Value, String> {
        let v = self.src.dfg.resolve_aliases(v);
        if let Repr::Ptr(p) = self.repr(v)? {
            return Ok(p);
        }
        let x = self.val(v)?;
        let space = self.opts.address_space;
        Ok(self.made_once(v, 3, |t| {
            if space == AddrSpace::Shared {
                let w = t.convert(ConvOp::Ireduce, Type::I32, x);
                t.convert(ConvOp::Bitcast, Type::Ptr(space), w)
            } else {
                t.convert(ConvOp::Bitcast, Type::Ptr(space), x)
            }
        }))
    }

    /// Whether the CLIF value is held as a pointer.
    pub fn is_ptr(&self, v: cl::Value) -> bool {
        matches!(self.repr(v), Ok(Repr::Ptr(_)))
    }

    fn made_once(&mut self, v: cl::Value, form: u8, make: impl FnOnce(&mut Self) -> Value) -> Value {
        let key = (v, self.cur, form);
        if let Some(&x) = self.made.get(&key) {
            return x;
        }
        let x = make(self);
        self.made.insert(key, x);
        x
    }

    /// A CLIF branch target as an atomc one.
    pub fn block_call(&mut self, call: &cl::BlockCall) -> Result<atomc_ir::BlockCall, String> {
        let pool = &self.src.dfg.value_lists;
        let target = call.block(pool);
        let block = *self
            .blocks
            .get(&target)
            .ok_or_else(|| format!("{target} is not reachable"))?;
        let params = self.out.blocks[block].params.clone();
        let args: Vec<cl::BlockArg> = call.args(pool).collect();
        let mut out = Vec::new();
        for (arg, param) in args.into_iter().zip(params) {
            let cl::BlockArg::Value(v) = arg else {
                return Err("try_call results as block arguments have no GPU meaning".to_string());
            };
            let x = if self.out.value_type(param).is_ptr() {
                self.ptr(v)?
            } else {
                self.val(v)?
            };
            out.push(x);
        }
        Ok(atomc_ir::BlockCall {
            block,
            args: out.into_iter().collect(),
        })
    }

    /// Gives the atomc instructions made for `inst` (those numbered from `first`) its location:
    /// its `.clif` text position if known, else CLIF's own
    /// `SourceLoc` as the line (a number the front end chose; column 0).
    fn locate(&mut self, inst: cl::Inst, first: usize) {
        let loc = match self.lines.and_then(|l| l.get(&inst).copied()) {
            Some(loc) => loc,
            None => {
                let s = self.src.srcloc(inst);
                if s.is_default() {
                    return;
                }
                atomc_ir::SrcLoc { line: s.bits(), col: 0 }
            }
        };
        let made: Vec<atomc_ir::Inst> = self.out.insts.keys().skip(first).collect();
        for i in made {
            self.out.inst_locs[i] = loc;
        }
    }

    /// An [`ImportError::Unsupported`] for `inst`.
    pub fn reject(&self, inst: cl::Inst, reason: impl Into<String>) -> ImportError {
        ImportError::Unsupported {
            function: self.name.clone(),
            opcode: self.src.dfg.insts[inst].opcode().to_string(),
            inst: self.src.dfg.display_inst(inst).to_string(),
            reason: reason.into(),
            at: inst,
        }
    }

    /// The atomc type of a CLIF value, or the reason it has none.
    pub fn ty_of(&self, v: cl::Value) -> Result<Type, String> {
        let ty = self.src.dfg.value_type(v);
        map_type(ty).map_err(|why| format!("{v} has type {ty}: {why}"))
    }
}

/// The atomc type of a CLIF type.
pub(super) fn map_type(ty: cl::Type) -> Result<Type, &'static str> {
    Ok(match ty {
        clt::I8 => Type::I8,
        clt::I16 => Type::I16,
        clt::I32 => Type::I32,
        clt::I64 => Type::I64,
        clt::F16 => Type::F16,
        clt::F32 => Type::F32,
        clt::F64 => Type::F64,
        clt::I128 => return Err("128-bit integers have no GPU registers or atomics in atomc"),
        clt::F128 => return Err("128-bit floats have no GPU meaning in atomc"),
        t if t.is_vector() || t.is_dynamic_vector() => return Err("SIMD vector types are not supported"),
        _ => return Err("no atomc type"),
    })
}

/// Sign-extends the low `bits` of `x`.
pub(super) fn sext(x: i64, bits: u32) -> i64 {
    if bits >= 64 || bits == 0 {
        x
    } else {
        (x << (64 - bits)) >> (64 - bits)
    }
}

/// A CLIF function name (`%name`, `u0:1`) as an atomc name.
fn atomc_name(clif: &str) -> String {
    let s = clif.trim_start_matches('%');
    let s: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "_.$-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() {
        "clif".to_string()
    } else {
        s
    }
}
