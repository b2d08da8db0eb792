//! Pre-decoding: a function becomes one flat array of [`Op`]s, with value
//! operands as register indices, types resolved, and branch targets as
//! program counters, so the hot loop does no map lookups.

use super::error::{InterpError, Site};
use super::memory::mem_size;
use crate::{
    AddrSpace, BinaryOp, BlockCall, ConvOp, FloatCC, Function, Inst, InstData, IntCC, ReduceOp,
    RmwOp, ShuffleMode, SpecialReg, SurfaceAccess, SurfaceRef, TernaryOp, Type, UnaryOp, Value,
    VoteOp,
};
use cranelift_entity::{EntityRef, SecondaryMap};

/// A register: the index of a [`Value`].
pub(crate) type Reg = u32;

/// A slice of [`Program::pool`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Span {
    pub start: u32,
    pub len: u32,
}

impl Span {
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..(self.start + self.len) as usize
    }
}

/// A resolved branch target: where to go, and the parallel copy of the
/// arguments (`args`) into the block parameters (`params`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Target {
    pub pc: u32,
    pub args: Span,
    pub params: Span,
}

/// A resolved address operand.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Addr {
    pub ptr: Reg,
    pub offset: i32,
    pub space: AddrSpace,
}

/// A surface operand: the access and, for the bindless form, the handle.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Surf {
    pub access: SurfaceAccess,
    pub handle: Option<Reg>,
    pub coords: Span,
}

/// One decoded instruction.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Op {
    Const {
        dst: Reg,
        bits: u64,
    },
    Unary {
        op: UnaryOp,
        ty: Type,
        dst: Reg,
        a: Reg,
    },
    Binary {
        op: BinaryOp,
        ty: Type,
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    Ternary {
        op: TernaryOp,
        ty: Type,
        dst: Reg,
        a: Reg,
        b: Reg,
        c: Reg,
    },
    Bfi {
        ty: Type,
        dst: Reg,
        x: Reg,
        base: Reg,
        pos: Reg,
        len: Reg,
    },
    /// A subgroup instruction: the lane waits for its subgroup (see
    /// `subgroup.rs`); `a` and `b` are its operands where it has them.
    Subgroup {
        op: SubOp,
        ty: Type,
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    Icmp {
        cond: IntCC,
        ty: Type,
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    Fcmp {
        cond: FloatCC,
        ty: Type,
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    Select {
        dst: Reg,
        c: Reg,
        a: Reg,
        b: Reg,
    },
    Convert {
        op: ConvOp,
        from: Type,
        to: Type,
        dst: Reg,
        a: Reg,
    },
    PtrAdd {
        space: AddrSpace,
        off_ty: Type,
        dst: Reg,
        p: Reg,
        off: Reg,
    },
    PtrToGeneric {
        from: AddrSpace,
        dst: Reg,
        p: Reg,
    },
    Special {
        reg: SpecialReg,
        dst: Reg,
    },
    Load {
        ty: Type,
        dst: Reg,
        addr: Addr,
    },
    Store {
        ty: Type,
        val: Reg,
        addr: Addr,
    },
    Rmw {
        op: RmwOp,
        ty: Type,
        dst: Reg,
        addr: Addr,
        x: Reg,
    },
    Cas {
        ty: Type,
        dst: Reg,
        addr: Addr,
        exp: Reg,
        rep: Reg,
    },
    SurfRmw {
        op: RmwOp,
        ty: Type,
        dst: Reg,
        surf: Surf,
        x: Reg,
    },
    SurfCas {
        ty: Type,
        dst: Reg,
        surf: Surf,
        exp: Reg,
        rep: Reg,
    },
    /// Fences: the interleaving is sequentially consistent, so no effect.
    Nop,
    Barrier,
    Jump(Target),
    Brif {
        c: Reg,
        t: Target,
        e: Target,
    },
    Return {
        args: Span,
    },
    /// The end of a block without a terminator.
    FallOff,
}

/// Which subgroup instruction an [`Op::Subgroup`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SubOp {
    ActiveMask,
    Ballot,
    Vote(VoteOp),
    Shuffle(ShuffleMode),
    MatchAny,
    Reduce(ReduceOp),
}

/// A decoded function, ready to run any number of times.
pub struct Program<'f> {
    pub(crate) func: &'f Function,
    pub(crate) code: Vec<Op>,
    /// The IR instruction of each op (`None` for [`Op::FallOff`], whose
    /// site is the block's last instruction, stored instead).
    pub(crate) insts: Vec<Inst>,
    pub(crate) pool: Vec<Reg>,
    pub(crate) num_values: usize,
    pub(crate) params: Vec<Reg>,
    /// The layout index of the block of each op, and each block's first
    /// pc and successors (layout indices): for the subgroup rendezvous.
    pub(crate) block_of: Vec<u32>,
    pub(crate) succs: Vec<Vec<u32>>,
}

impl<'f> Program<'f> {
    /// Decodes `func`. Fails on structural problems (no entry block, a
    /// branch to a block outside the layout, operands of the wrong type for
    /// their instruction).
    pub fn new(func: &'f Function) -> Result<Program<'f>, InterpError> {
        Decoder::new(func)?.run()
    }

    /// The function this program runs.
    pub fn func(&self) -> &'f Function {
        self.func
    }

    pub(crate) fn site(&self, pc: usize, thread: Option<([u32; 3], [u32; 3])>) -> Site {
        Site::new(self.func, self.insts[pc], thread)
    }
}

struct Decoder<'f> {
    func: &'f Function,
    block_pc: SecondaryMap<crate::Block, Option<u32>>,
    p: Program<'f>,
}

type DResult<T> = Result<T, InterpError>;

impl<'f> Decoder<'f> {
    fn new(func: &'f Function) -> DResult<Decoder<'f>> {
        let bad = |msg: &str| InterpError::BadFunction {
            name: func.name.clone(),
            msg: msg.to_string(),
        };
        let entry = func.entry_block().ok_or_else(|| bad("it has no blocks"))?;
        let mut block_pc: SecondaryMap<crate::Block, Option<u32>> = SecondaryMap::new();
        let mut pc = 0u32;
        for &b in &func.layout {
            let Some(data) = func.blocks.get(b) else {
                return Err(bad("its layout names a missing block"));
            };
            if block_pc[b].is_some() {
                return Err(bad(&format!("{b} appears twice in the layout")));
            }
            if data.insts.is_empty() {
                return Err(bad(&format!("{b} has no instructions")));
            }
            block_pc[b] = Some(pc);
            pc += data.insts.len() as u32;
            if !func
                .insts
                .get(*data.insts.last().unwrap_or(&Inst::new(0)))
                .is_some_and(|d| d.is_terminator())
            {
                pc += 1; // room for FallOff
            }
        }
        let params = func.blocks[entry]
            .params
            .iter()
            .map(|v| v.index() as Reg)
            .collect();
        let p = Program {
            func,
            code: Vec::with_capacity(pc as usize),
            insts: Vec::with_capacity(pc as usize),
            pool: Vec::new(),
            num_values: func.values.len(),
            params,
            block_of: Vec::with_capacity(pc as usize),
            succs: Vec::with_capacity(func.layout.len()),
        };
        Ok(Decoder { func, block_pc, p })
    }

    fn run(mut self) -> DResult<Program<'f>> {
        let func = self.func;
        let mut layout_index: SecondaryMap<crate::Block, Option<u32>> = SecondaryMap::new();
        for (i, &b) in func.layout.iter().enumerate() {
            layout_index[b] = Some(i as u32);
        }
        for (bi, &b) in func.layout.iter().enumerate() {
            let insts = &func.blocks[b].insts;
            let mut succs = Vec::new();
            if let Some(last) = insts.last().and_then(|&i| func.insts.get(i)) {
                for call in last.branch_targets() {
                    succs.extend(layout_index.get(call.block).copied().flatten());
                }
            }
            self.p.succs.push(succs);
            let before = self.p.code.len();
            for &inst in insts {
                let Some(data) = func.insts.get(inst) else {
                    return Err(InterpError::BadFunction {
                        name: func.name.clone(),
                        msg: format!("{b} names a missing instruction {inst}"),
                    });
                };
                let op = self
                    .decode(inst, data)
                    .map_err(|msg| InterpError::Malformed {
                        site: Box::new(Site::new(func, inst, None)),
                        msg,
                    })?;
                self.p.code.push(op);
                self.p.insts.push(inst);
            }
            let last = insts[insts.len() - 1];
            if !func.insts.get(last).is_some_and(|d| d.is_terminator()) {
                self.p.code.push(Op::FallOff);
                self.p.insts.push(last);
            }
            let added = self.p.code.len() - before;
            self.p.block_of.extend(std::iter::repeat_n(bi as u32, added));
        }
        Ok(self.p)
    }

    fn reg(&self, v: Value) -> Result<Reg, String> {
        if v.index() < self.func.values.len() {
            Ok(v.index() as Reg)
        } else {
            Err(format!("uses {v}, which does not exist"))
        }
    }

    fn ty(&self, v: Value) -> Result<Type, String> {
        self.reg(v).map(|_| self.func.values[v].ty)
    }

    fn dst(&self, inst: Inst) -> Result<Reg, String> {
        match self.func.results.get(inst).copied().flatten() {
            Some(v) => self.reg(v),
            None => Err("has no result value".to_string()),
        }
    }

    fn addr(&self, a: crate::Address) -> Result<Addr, String> {
        match self.ty(a.ptr)? {
            Type::Ptr(space) => Ok(Addr {
                ptr: self.reg(a.ptr)?,
                offset: a.offset,
                space,
            }),
            t => Err(format!(
                "address operand {} has type {t}, not a pointer",
                a.ptr
            )),
        }
    }

    fn span(&mut self, vals: &[Value]) -> Result<Span, String> {
        let start = self.p.pool.len() as u32;
        for &v in vals {
            let r = self.reg(v)?;
            self.p.pool.push(r);
        }
        Ok(Span {
            start,
            len: vals.len() as u32,
        })
    }

    fn target(&mut self, call: &BlockCall) -> Result<Target, String> {
        let pc = self
            .block_pc
            .get(call.block)
            .copied()
            .flatten()
            .ok_or_else(|| format!("branches to {}, which is not in the layout", call.block))?;
        let params = self.func.blocks[call.block].params.clone();
        if params.len() != call.args.len() {
            return Err(format!(
                "passes {} arguments to {}, which has {} parameters",
                call.args.len(),
                call.block,
                params.len()
            ));
        }
        let args = self.span(&call.args)?;
        let params = self.span(&params)?;
        Ok(Target { pc, args, params })
    }

    fn surf(&mut self, access: &SurfaceAccess, coords: &[Value]) -> Result<Surf, String> {
        if coords.len() != access.dim.coord_count() {
            return Err(format!(
                "a {} surface takes {} coordinates, not {}",
                access.dim,
                access.dim.coord_count(),
                coords.len()
            ));
        }
        let handle = match access.surface {
            SurfaceRef::Slot(_) => None,
            SurfaceRef::Handle(v) => Some(self.reg(v)?),
        };
        Ok(Surf {
            access: *access,
            handle,
            coords: self.span(coords)?,
        })
    }

    fn decode(&mut self, inst: Inst, data: &InstData) -> Result<Op, String> {
        Ok(match data {
            InstData::Iconst { ty, imm } => {
                if !ty.is_int() {
                    return Err(format!("iconst of non-integer type {ty}"));
                }
                Op::Const {
                    dst: self.dst(inst)?,
                    bits: mask(*imm as u64, ty.bits()),
                }
            }
            InstData::Fconst { ty, bits } => Op::Const {
                dst: self.dst(inst)?,
                bits: mask(*bits, ty.bits()),
            },
            InstData::SharedAddr { var } => {
                if self.func.shared_vars.get(*var).is_none() {
                    return Err(format!("{var} is not declared"));
                }
                Op::Const {
                    dst: self.dst(inst)?,
                    bits: u64::from(self.func.shared_layout().offsets[*var]),
                }
            }
            InstData::Unary { op, arg } => {
                let ty = self.ty(*arg)?;
                let ok = if op.is_float() {
                    ty.is_float() || ty.is_packed_float()
                } else {
                    ty.is_int()
                };
                if !ok {
                    return Err(format!("{op} is not defined on {ty}"));
                }
                Op::Unary {
                    op: *op,
                    ty,
                    dst: self.dst(inst)?,
                    a: self.reg(*arg)?,
                }
            }
            InstData::Binary { op, args } => {
                let ty = self.ty(args[0])?;
                let ok = if op.is_float() {
                    ty.is_float() || ty.is_packed_float()
                } else {
                    ty.is_int()
                };
                if !ok || self.ty(args[1])? != ty {
                    return Err(format!(
                        "{op} is not defined on {ty}, {}",
                        self.ty(args[1])?
                    ));
                }
                Op::Binary {
                    op: *op,
                    ty,
                    dst: self.dst(inst)?,
                    a: self.reg(args[0])?,
                    b: self.reg(args[1])?,
                }
            }
            InstData::Ternary { op, args } => {
                let ty = self.ty(args[0])?;
                let ok = match op {
                    TernaryOp::Fma => {
                        ty.is_float() && self.ty(args[1])? == ty && self.ty(args[2])? == ty
                    }
                    _ => ty.is_int() && self.ty(args[1])? == Type::I32 && self.ty(args[2])? == Type::I32,
                };
                if !ok {
                    return Err(format!("{op} is not defined on these operand types"));
                }
                Op::Ternary {
                    op: *op,
                    ty,
                    dst: self.dst(inst)?,
                    a: self.reg(args[0])?,
                    b: self.reg(args[1])?,
                    c: self.reg(args[2])?,
                }
            }
            InstData::Bfi { args } => {
                let ty = self.ty(args[0])?;
                if !ty.is_int()
                    || self.ty(args[1])? != ty
                    || self.ty(args[2])? != Type::I32
                    || self.ty(args[3])? != Type::I32
                {
                    return Err("bfi is not defined on these operand types".to_string());
                }
                Op::Bfi {
                    ty,
                    dst: self.dst(inst)?,
                    x: self.reg(args[0])?,
                    base: self.reg(args[1])?,
                    pos: self.reg(args[2])?,
                    len: self.reg(args[3])?,
                }
            }
            InstData::ActiveMask
            | InstData::Ballot { .. }
            | InstData::Vote { .. }
            | InstData::Shuffle { .. }
            | InstData::MatchAny { .. }
            | InstData::Reduce { .. } => self.subgroup(inst, data)?,
            InstData::Icmp { cond, args } => {
                let ty = self.ty(args[0])?;
                if !(ty.is_int() || ty.is_ptr()) || self.ty(args[1])? != ty {
                    return Err(format!(
                        "icmp is not defined on {ty}, {}",
                        self.ty(args[1])?
                    ));
                }
                Op::Icmp {
                    cond: *cond,
                    ty,
                    dst: self.dst(inst)?,
                    a: self.reg(args[0])?,
                    b: self.reg(args[1])?,
                }
            }
            InstData::Fcmp { cond, args } => {
                let ty = self.ty(args[0])?;
                if !ty.is_float() || self.ty(args[1])? != ty {
                    return Err(format!(
                        "fcmp is not defined on {ty}, {}",
                        self.ty(args[1])?
                    ));
                }
                Op::Fcmp {
                    cond: *cond,
                    ty,
                    dst: self.dst(inst)?,
                    a: self.reg(args[0])?,
                    b: self.reg(args[1])?,
                }
            }
            InstData::Select { cond, args } => Op::Select {
                dst: self.dst(inst)?,
                c: self.reg(*cond)?,
                a: self.reg(args[0])?,
                b: self.reg(args[1])?,
            },
            InstData::Convert { op, to, arg } => {
                let from = self.ty(*arg)?;
                super::arith::check_convert(*op, from, *to)?;
                Op::Convert {
                    op: *op,
                    from,
                    to: *to,
                    dst: self.dst(inst)?,
                    a: self.reg(*arg)?,
                }
            }
            InstData::PtrAdd { ptr, offset } => {
                let Type::Ptr(space) = self.ty(*ptr)? else {
                    return Err(format!("ptr_add of non-pointer {ptr}"));
                };
                let off_ty = self.ty(*offset)?;
                if !matches!(off_ty, Type::I32 | Type::I64) {
                    return Err(format!("ptr_add offset has type {off_ty}, not i32 or i64"));
                }
                Op::PtrAdd {
                    space,
                    off_ty,
                    dst: self.dst(inst)?,
                    p: self.reg(*ptr)?,
                    off: self.reg(*offset)?,
                }
            }
            InstData::PtrToGeneric { ptr } => {
                let Type::Ptr(from) = self.ty(*ptr)? else {
                    return Err(format!("ptr_to_generic of non-pointer {ptr}"));
                };
                Op::PtrToGeneric {
                    from,
                    dst: self.dst(inst)?,
                    p: self.reg(*ptr)?,
                }
            }
            InstData::Special { reg } => Op::Special {
                reg: *reg,
                dst: self.dst(inst)?,
            },
            InstData::Load { ty, addr } => {
                mem_size(*ty).ok_or_else(|| format!("load of {ty}, which has no memory form"))?;
                Op::Load {
                    ty: *ty,
                    dst: self.dst(inst)?,
                    addr: self.addr(*addr)?,
                }
            }
            InstData::Store { value, addr } => {
                let ty = self.ty(*value)?;
                mem_size(ty).ok_or_else(|| format!("store of {ty}, which has no memory form"))?;
                Op::Store {
                    ty,
                    val: self.reg(*value)?,
                    addr: self.addr(*addr)?,
                }
            }
            InstData::AtomicRmw {
                op, ty, addr, arg, ..
            } => {
                if !op.accepts_type(*ty) {
                    return Err(format!("atomic_rmw {op} is not defined on {ty}"));
                }
                Op::Rmw {
                    op: *op,
                    ty: *ty,
                    dst: self.dst(inst)?,
                    addr: self.addr(*addr)?,
                    x: self.reg(*arg)?,
                }
            }
            InstData::AtomicCas {
                ty,
                addr,
                expected,
                replacement,
                ..
            } => {
                mem_size(*ty)
                    .ok_or_else(|| format!("atomic_cas of {ty}, which has no memory form"))?;
                Op::Cas {
                    ty: *ty,
                    dst: self.dst(inst)?,
                    addr: self.addr(*addr)?,
                    exp: self.reg(*expected)?,
                    rep: self.reg(*replacement)?,
                }
            }
            InstData::AtomicLoad { ty, addr, .. } => {
                mem_size(*ty)
                    .ok_or_else(|| format!("atomic_load of {ty}, which has no memory form"))?;
                Op::Load {
                    ty: *ty,
                    dst: self.dst(inst)?,
                    addr: self.addr(*addr)?,
                }
            }
            InstData::AtomicStore {
                ty, addr, value, ..
            } => {
                mem_size(*ty)
                    .ok_or_else(|| format!("atomic_store of {ty}, which has no memory form"))?;
                Op::Store {
                    ty: *ty,
                    val: self.reg(*value)?,
                    addr: self.addr(*addr)?,
                }
            }
            InstData::Fence { .. } => Op::Nop,
            InstData::SurfaceRmw {
                op,
                ty,
                access,
                coords,
                arg,
                ..
            } => {
                if !op.accepts_type(*ty) {
                    return Err(format!("surface_rmw {op} is not defined on {ty}"));
                }
                let surf = self.surf(access, coords)?;
                Op::SurfRmw {
                    op: *op,
                    ty: *ty,
                    dst: self.dst(inst)?,
                    surf,
                    x: self.reg(*arg)?,
                }
            }
            InstData::SurfaceCas {
                ty,
                access,
                coords,
                expected,
                replacement,
                ..
            } => {
                mem_size(*ty)
                    .ok_or_else(|| format!("surface_cas of {ty}, which has no memory form"))?;
                let surf = self.surf(access, coords)?;
                Op::SurfCas {
                    ty: *ty,
                    dst: self.dst(inst)?,
                    surf,
                    exp: self.reg(*expected)?,
                    rep: self.reg(*replacement)?,
                }
            }
            InstData::Barrier => Op::Barrier,
            InstData::Jump { dest } => Op::Jump(self.target(dest)?),
            InstData::Brif {
                cond,
                then_dest,
                else_dest,
            } => Op::Brif {
                c: self.reg(*cond)?,
                t: self.target(then_dest)?,
                e: self.target(else_dest)?,
            },
            InstData::Return { args } => {
                if args.len() != self.func.returns.len() {
                    return Err(format!(
                        "returns {} values; the function returns {}",
                        args.len(),
                        self.func.returns.len()
                    ));
                }
                Op::Return {
                    args: self.span(args)?,
                }
            }
        })
    }
}

impl Decoder<'_> {
    /// A subgroup instruction, its operand types checked as the verifier does.
    fn subgroup(&mut self, inst: Inst, data: &InstData) -> Result<Op, String> {
        let dst = self.dst(inst)?;
        let passable = |t: Type| t.is_int() || t.is_float() || t.is_packed_float() || t.is_ptr();
        let (op, a, b) = match *data {
            InstData::ActiveMask => (SubOp::ActiveMask, None, None),
            InstData::Ballot { cond } => (SubOp::Ballot, Some(cond), None),
            InstData::Vote { op, arg } => (SubOp::Vote(op), Some(arg), None),
            InstData::Shuffle { mode, args } => (SubOp::Shuffle(mode), Some(args[0]), Some(args[1])),
            InstData::MatchAny { arg } => (SubOp::MatchAny, Some(arg), None),
            InstData::Reduce { op, arg } => (SubOp::Reduce(op), Some(arg), None),
            _ => return Err("is not a subgroup instruction".to_string()),
        };
        let ty = match a {
            Some(v) => self.ty(v)?,
            None => Type::I32,
        };
        let ok = match op {
            SubOp::ActiveMask => true,
            SubOp::Ballot | SubOp::Vote(VoteOp::Any | VoteOp::All) => ty == Type::Pred,
            SubOp::Vote(VoteOp::Eq) => ty != Type::Surface,
            SubOp::Shuffle(_) => passable(ty) && b.map(|v| self.ty(v)) == Some(Ok(Type::I32)),
            SubOp::MatchAny => passable(ty),
            SubOp::Reduce(_) => ty.is_int(),
        };
        if !ok {
            return Err(format!("{} is not defined on these operand types", data.opcode_name()));
        }
        let reg = |v: Option<Value>| v.map_or(Ok(0), |v| self.reg(v));
        Ok(Op::Subgroup { op, ty, dst, a: reg(a)?, b: reg(b)? })
    }
}

/// The low `bits` bits of `x`.
#[inline]
pub(crate) fn mask(x: u64, bits: u32) -> u64 {
    if bits >= 64 {
        x
    } else {
        x & ((1u64 << bits) - 1)
    }
}
