//! Loads, stores, atomics, fences' companions and stack slots.

use super::translate::{Repr, Translator};
use super::StackSlots;
use atomc_ir::interp::GLOBAL_BASE;
use atomc_ir::{AddrSpace, Address, BinaryOp, ConvOp, InstData, MemOrder, RmwOp, Type, MAX_ADDRESS_OFFSET};
use cranelift_codegen::ir::{self as cl, AtomicRmwOp, Endianness, InstructionData as D, Opcode as Op};

impl Translator<'_> {
    /// Translates a memory instruction (or `stack_addr`, or `bitcast`,
    /// which shares the load format).
    pub(super) fn memory(&mut self, inst: cl::Inst, data: &D) -> Result<(), String> {
        let big = mem_flags(data)
            .is_some_and(|flags| self.src.dfg.mem_flags[flags].explicit_endianness() == Some(Endianness::Big));
        if big && !self.opts.emulate_big_endian {
            return Err("big-endian memory access: atomc's targets are little-endian \
                        (`ImportOptions::emulate_big_endian` swaps bytes instead)"
                .into());
        }
        let (order, scope) = (MemOrder::SeqCst, self.opts.scope);
        match *data {
            D::Load {
                opcode, arg, offset, ..
            } => {
                let res = self.result(inst)?;
                let rty = self.ty_of(res)?;
                let (mem_ty, ext) = match opcode {
                    Op::Load => (rty, None),
                    Op::Uload8 => (Type::I8, Some(ConvOp::Uextend)),
                    Op::Sload8 => (Type::I8, Some(ConvOp::Sextend)),
                    Op::Uload16 => (Type::I16, Some(ConvOp::Uextend)),
                    Op::Sload16 => (Type::I16, Some(ConvOp::Sextend)),
                    Op::Uload32 => (Type::I32, Some(ConvOp::Uextend)),
                    Op::Sload32 => (Type::I32, Some(ConvOp::Sextend)),
                    _ => return Err("no atomc translation for this CLIF instruction".into()),
                };
                let addr = self.address(arg, i32::from(offset), mem_ty)?;
                let mut x = self.ins_v(InstData::Load { ty: mem_ty, addr });
                if big {
                    x = self.bswap(x);
                }
                if let Some(op) = ext {
                    x = self.convert(op, rty, x);
                }
                self.def(res, Repr::Val(x));
            }
            D::Store {
                opcode, args, offset, ..
            } => {
                let mut v = self.val(args[0])?;
                let narrow = match opcode {
                    Op::Store => None,
                    Op::Istore8 => Some(Type::I8),
                    Op::Istore16 => Some(Type::I16),
                    Op::Istore32 => Some(Type::I32),
                    _ => return Err("no atomc translation for this CLIF instruction".into()),
                };
                if let Some(ty) = narrow {
                    v = self.convert(ConvOp::Ireduce, ty, v);
                }
                if big {
                    v = self.bswap(v);
                }
                let ty = self.out.value_type(v);
                let addr = self.address(args[1], i32::from(offset), ty)?;
                self.ins(InstData::Store { value: v, addr });
            }
            D::LoadNoOffset {
                opcode: Op::AtomicLoad,
                arg,
                ..
            } => {
                let res = self.result(inst)?;
                let ty = self.ty_of(res)?;
                let addr = self.address(arg, 0, ty)?;
                let mut x = self.ins_v(InstData::AtomicLoad { ty, order, scope, addr });
                if big {
                    x = self.bswap(x);
                }
                self.def(res, Repr::Val(x));
            }
            D::LoadNoOffset {
                opcode: Op::Bitcast,
                arg,
                ..
            } => {
                let res = self.result(inst)?;
                let to = self.ty_of(res)?;
                let a = self.val(arg)?;
                let x = if self.out.value_type(a) == to {
                    a
                } else {
                    self.convert(ConvOp::Bitcast, to, a)
                };
                self.def(res, Repr::Val(x));
            }
            D::StoreNoOffset {
                opcode: Op::AtomicStore,
                args,
                ..
            } => {
                let mut value = self.val(args[0])?;
                if big {
                    value = self.bswap(value);
                }
                let ty = self.out.value_type(value);
                let addr = self.address(args[1], 0, ty)?;
                self.ins(InstData::AtomicStore {
                    ty,
                    order,
                    scope,
                    addr,
                    value,
                });
            }
            D::AtomicRmw { args, op, .. } => {
                let res = self.result(inst)?;
                let ty = self.ty_of(res)?;
                let addr = self.address(args[0], 0, ty)?;
                let x = self.val(args[1])?;
                let old = match (rmw_op(op), big) {
                    // Bitwise ops and exchange commute with a byte swap.
                    (Some(op @ (RmwOp::And | RmwOp::Nand | RmwOp::Or | RmwOp::Xor | RmwOp::Xchg)), true) => {
                        let arg = self.bswap(x);
                        let old = self.ins_v(InstData::AtomicRmw {
                            op,
                            ty,
                            order,
                            scope,
                            addr,
                            arg,
                        });
                        self.bswap(old)
                    }
                    (Some(op), false) => self.ins_v(InstData::AtomicRmw {
                        op,
                        ty,
                        order,
                        scope,
                        addr,
                        arg: x,
                    }),
                    (_, swap) => self.cas_loop(ty, addr, swap, |t, old| {
                        let bop = match op {
                            AtomicRmwOp::Add => BinaryOp::Iadd,
                            AtomicRmwOp::Sub => BinaryOp::Isub,
                            AtomicRmwOp::Umin => BinaryOp::Umin,
                            AtomicRmwOp::Umax => BinaryOp::Umax,
                            AtomicRmwOp::Smin => BinaryOp::Smin,
                            _ => BinaryOp::Smax,
                        };
                        t.ins_v(InstData::Binary {
                            op: bop,
                            args: [old, x],
                        })
                    }),
                };
                self.def(res, Repr::Val(old));
            }
            D::AtomicCas { args, .. } => {
                let res = self.result(inst)?;
                let ty = self.ty_of(res)?;
                let addr = self.address(args[0], 0, ty)?;
                let (mut expected, mut replacement) = (self.val(args[1])?, self.val(args[2])?);
                if big {
                    (expected, replacement) = (self.bswap(expected), self.bswap(replacement));
                }
                let mut old = self.ins_v(InstData::AtomicCas {
                    ty,
                    order,
                    scope,
                    addr,
                    expected,
                    replacement,
                });
                if big {
                    old = self.bswap(old);
                }
                self.def(res, Repr::Val(old));
            }
            D::StackAddr { stack_slot, offset, .. } => {
                if self.opts.stack_slots == StackSlots::Reject {
                    return Err("stack slots have no GPU meaning for a kernel compiled to a backend \
                                (use global or shared memory; `StackSlots::Scratch` maps them into the \
                                interpreter's scratch buffer)"
                        .into());
                }
                let base = *self.slots.get(&stack_slot).ok_or("unknown stack slot")?;
                let at = (GLOBAL_BASE + base).wrapping_add_signed(i64::from(i32::from(offset)));
                let k = self.iconst(Type::I64, at as i64);
                let p = self.convert(ConvOp::Bitcast, Type::Ptr(AddrSpace::Global), k);
                self.def(self.result(inst)?, Repr::Ptr(p));
            }
            _ => return Err("no atomc translation for this CLIF instruction".into()),
        }
        Ok(())
    }

    /// `addr + offset` as an atomc address. Offsets that atomc cannot hold
    /// as a constant (too large, or not a multiple of the access size, which
    /// the verifier requires of the constant part) become a `ptr_add`.
    fn address(&mut self, addr: cl::Value, offset: i32, ty: Type) -> Result<Address, String> {
        let p = self.ptr(addr)?;
        let fits = offset.unsigned_abs() <= MAX_ADDRESS_OFFSET as u32 && offset % ty.bytes().max(1) as i32 == 0;
        if fits {
            return Ok(Address { ptr: p, offset });
        }
        let k = self.iconst(Type::I64, i64::from(offset));
        let q = self.ins_v(InstData::PtrAdd { ptr: p, offset: k });
        Ok(Address { ptr: q, offset: 0 })
    }
}

fn mem_flags(data: &D) -> Option<cl::MemFlags> {
    match *data {
        D::Load { flags, .. }
        | D::Store { flags, .. }
        | D::StoreNoOffset { flags, .. }
        | D::AtomicRmw { flags, .. }
        | D::AtomicCas { flags, .. } => Some(flags),
        D::LoadNoOffset {
            opcode: Op::AtomicLoad,
            flags,
            ..
        } => Some(flags),
        _ => None,
    }
}

/// The atomc op of a CLIF `atomic_rmw` op (every CLIF op has one).
fn rmw_op(op: AtomicRmwOp) -> Option<RmwOp> {
    Some(match op {
        AtomicRmwOp::Add => RmwOp::Add,
        AtomicRmwOp::Sub => RmwOp::Sub,
        AtomicRmwOp::And => RmwOp::And,
        AtomicRmwOp::Nand => RmwOp::Nand,
        AtomicRmwOp::Or => RmwOp::Or,
        AtomicRmwOp::Xor => RmwOp::Xor,
        AtomicRmwOp::Xchg => RmwOp::Xchg,
        AtomicRmwOp::Umin => RmwOp::Umin,
        AtomicRmwOp::Umax => RmwOp::Umax,
        AtomicRmwOp::Smin => RmwOp::Smin,
        AtomicRmwOp::Smax => RmwOp::Smax,
    })
}
