//! Translation of the non-memory instructions: constants, arithmetic,
//! comparisons, conversions, control flow, and the list of rejections.

use super::error::ImportError;
use super::intrinsics;
use super::translate::{Repr, Translator};
use atomc_ir::{BinaryOp, ConvOp, FloatCC, InstData, IntCC, TernaryOp, Type, UnaryOp, Value};
use cranelift_codegen::ir::{self as cl, condcodes as cc, InstructionData as D, Opcode as Op};

impl Translator<'_> {
    /// Translates one CLIF instruction, appending to the current block.
    pub fn inst(&mut self, inst: cl::Inst) -> Result<(), ImportError> {
        if let Some(why) = self.rejected(inst) {
            return Err(self.reject(inst, why));
        }
        self.inst_inner(inst).map_err(|why| self.reject(inst, why))
    }

    /// Instructions and types with no GPU meaning.
    fn rejected(&self, inst: cl::Inst) -> Option<String> {
        let dfg = &self.src.dfg;
        let data = &dfg.insts[inst];
        let op = data.opcode();
        if op == Op::Call && intrinsics::is_intrinsic_call(self.src, data) {
            if let Some(why) = intrinsics::check_call(self.src, inst) {
                return Some(why);
            }
        } else if op.is_call() {
            return Some(
                "calls have no GPU meaning here (atomc compiles one function; inline the callee; \
                 GPU intrinsics are calls of `%atomc_*` names)"
                    .into(),
            );
        }
        let why = match data {
            D::Trap { .. } | D::CondTrap { .. } | D::IntAddTrap { .. } => "traps have no atomc equivalent",
            D::UnaryGlobalValue { .. } | D::FuncAddr { .. } => {
                "global values and symbols have no GPU meaning (pass the address as a parameter)"
            }
            D::DynamicStackAddr { .. } => "dynamic stack slots have no GPU meaning",
            D::TryCall { .. } | D::TryCallIndirect { .. } => "calls have no GPU meaning here",
            _ => "",
        };
        if !why.is_empty() {
            return Some(why.into());
        }
        for &v in dfg.inst_results(inst).iter().chain(dfg.inst_args(inst)) {
            if let Err(why) = self.ty_of(v) {
                return Some(why);
            }
        }
        if dfg.inst_results(inst).len() > 1 {
            return Some("instructions with several results have no atomc equivalent".into());
        }
        None
    }

    pub(super) fn result(&self, inst: cl::Inst) -> Result<cl::Value, String> {
        self.src
            .dfg
            .inst_results(inst)
            .first()
            .copied()
            .ok_or_else(|| "expected a result".to_string())
    }

    fn ctrl_type(&self, inst: cl::Inst) -> Result<Type, String> {
        let v = self.result(inst)?;
        self.ty_of(v)
    }

    fn inst_inner(&mut self, inst: cl::Inst) -> Result<(), String> {
        let data = self.src.dfg.insts[inst];
        match data {
            D::NullAry { opcode: Op::Nop } => Ok(()),
            D::NullAry { opcode: Op::Fence } => {
                let (order, scope) = (atomc_ir::MemOrder::SeqCst, self.opts.scope);
                self.ins(InstData::Fence { order, scope });
                Ok(())
            }
            D::UnaryImm {
                opcode: Op::Iconst,
                imm,
            } => {
                let ty = self.ctrl_type(inst)?;
                let x = self.iconst(ty, imm.bits());
                self.def(self.result(inst)?, Repr::Val(x));
                Ok(())
            }
            D::UnaryIeee16 {
                opcode: Op::F16const,
                imm,
            } => self.fconst(inst, Type::F16, u64::from(imm.bits())),
            D::UnaryIeee32 {
                opcode: Op::F32const,
                imm,
            } => self.fconst(inst, Type::F32, u64::from(imm.bits())),
            D::UnaryIeee64 {
                opcode: Op::F64const,
                imm,
            } => self.fconst(inst, Type::F64, imm.bits()),
            D::Unary { opcode, arg } => self.unary(inst, opcode, arg),
            D::Binary { opcode, args } => self.binary(inst, opcode, args),
            D::IntCompare { cond, args, .. } => {
                let (a, b) = (self.val(args[0])?, self.val(args[1])?);
                let p = self.ins_v(InstData::Icmp {
                    cond: int_cc(cond),
                    args: [a, b],
                });
                self.def(self.result(inst)?, Repr::Pred(p));
                Ok(())
            }
            D::FloatCompare { cond, args, .. } => self.fcmp(inst, cond, args),
            D::Ternary {
                opcode: Op::Select | Op::SelectSpectreGuard,
                args,
            } => {
                let c = self.cond(args[0])?;
                let (a, b) = (self.val(args[1])?, self.val(args[2])?);
                let x = self.ins_v(InstData::Select { cond: c, args: [a, b] });
                self.def(self.result(inst)?, Repr::Val(x));
                Ok(())
            }
            // CLIF's fma and atomc's: one rounding, same type throughout.
            D::Ternary { opcode: Op::Fma, args } => {
                let args = [self.val(args[0])?, self.val(args[1])?, self.val(args[2])?];
                let x = self.ins_v(InstData::Ternary { op: TernaryOp::Fma, args });
                self.def(self.result(inst)?, Repr::Val(x));
                Ok(())
            }
            D::Ternary {
                opcode: Op::Bitselect,
                args,
            } => {
                let (c, a, b) = (self.val(args[0])?, self.val(args[1])?, self.val(args[2])?);
                let ty = self.out.value_type(a);
                if !ty.is_int() {
                    return Err("bitselect is translated for integers only".into());
                }
                let t = self.ins_v(InstData::Binary {
                    op: BinaryOp::Band,
                    args: [c, a],
                });
                let nc = self.ins_v(InstData::Unary {
                    op: UnaryOp::Bnot,
                    arg: c,
                });
                let e = self.ins_v(InstData::Binary {
                    op: BinaryOp::Band,
                    args: [nc, b],
                });
                let x = self.ins_v(InstData::Binary {
                    op: BinaryOp::Bor,
                    args: [t, e],
                });
                self.def(self.result(inst)?, Repr::Val(x));
                Ok(())
            }
            D::Load { .. }
            | D::Store { .. }
            | D::LoadNoOffset { .. }
            | D::StoreNoOffset { .. }
            | D::AtomicRmw { .. }
            | D::AtomicCas { .. }
            | D::StackAddr { .. } => self.memory(inst, &data),
            D::Jump { destination, .. } => {
                let dest = self.block_call(&destination)?;
                self.ins(InstData::Jump { dest });
                Ok(())
            }
            D::Brif { arg, blocks, .. } => {
                let c = self.cond(arg)?;
                let then_dest = self.block_call(&blocks[0])?;
                let else_dest = self.block_call(&blocks[1])?;
                self.ins(InstData::Brif {
                    cond: c,
                    then_dest,
                    else_dest,
                });
                Ok(())
            }
            D::BranchTable { arg, table, .. } => self.br_table(arg, table),
            D::Call { .. } => self.intrinsic(inst),
            D::MultiAry { opcode: Op::Return, .. } => {
                let args: Vec<cl::Value> = self.src.dfg.inst_args(inst).to_vec();
                let mut vals = Vec::new();
                for a in args {
                    vals.push(self.val(a)?);
                }
                self.ins(InstData::Return {
                    args: vals.into_iter().collect(),
                });
                Ok(())
            }
            _ => Err("no atomc translation for this CLIF instruction".into()),
        }
    }

    fn fconst(&mut self, inst: cl::Inst, ty: Type, bits: u64) -> Result<(), String> {
        let x = self.ins_v(InstData::Fconst { ty, bits });
        self.def(self.result(inst)?, Repr::Val(x));
        Ok(())
    }

    fn unary(&mut self, inst: cl::Inst, opcode: Op, arg: cl::Value) -> Result<(), String> {
        let to = self.ctrl_type(inst)?;
        let a = self.val(arg)?;
        let x = match opcode {
            Op::Ineg => self.ins_v(InstData::Unary {
                op: UnaryOp::Ineg,
                arg: a,
            }),
            Op::Bnot => self.ins_v(InstData::Unary {
                op: UnaryOp::Bnot,
                arg: a,
            }),
            Op::Fneg => self.ins_v(InstData::Unary {
                op: UnaryOp::Fneg,
                arg: a,
            }),
            Op::Fabs => self.ins_v(InstData::Unary {
                op: UnaryOp::Fabs,
                arg: a,
            }),
            Op::Iabs => {
                let ty = self.out.value_type(a);
                let zero = self.iconst(ty, 0);
                let neg = self.ins_v(InstData::Icmp {
                    cond: IntCC::Slt,
                    args: [a, zero],
                });
                let n = self.ins_v(InstData::Unary {
                    op: UnaryOp::Ineg,
                    arg: a,
                });
                self.ins_v(InstData::Select {
                    cond: neg,
                    args: [n, a],
                })
            }
            _ => {
                let op = match opcode {
                    Op::Uextend => ConvOp::Uextend,
                    Op::Sextend => ConvOp::Sextend,
                    Op::Ireduce => ConvOp::Ireduce,
                    Op::Fpromote => ConvOp::Fpromote,
                    Op::Fdemote => ConvOp::Fdemote,
                    Op::FcvtToSint | Op::FcvtToSintSat => ConvOp::FcvtToSint,
                    Op::FcvtToUint | Op::FcvtToUintSat => ConvOp::FcvtToUint,
                    Op::FcvtFromSint => ConvOp::FcvtFromSint,
                    Op::FcvtFromUint => ConvOp::FcvtFromUint,
                    _ => return Err("no atomc translation for this CLIF instruction".into()),
                };
                self.convert(op, to, a)
            }
        };
        self.def(self.result(inst)?, Repr::Val(x));
        Ok(())
    }

    fn binary(&mut self, inst: cl::Inst, opcode: Op, args: [cl::Value; 2]) -> Result<(), String> {
        let res = self.result(inst)?;
        // Address arithmetic on a pointer stays a pointer.
        if matches!(opcode, Op::Iadd | Op::Isub) && self.src.dfg.value_type(res) == cl::types::I64 {
            let (p_first, p_second) = (self.is_ptr(args[0]), self.is_ptr(args[1]));
            let pick = match (opcode, p_first, p_second) {
                (Op::Iadd, true, false) => Some((args[0], args[1], false)),
                (Op::Iadd, false, true) => Some((args[1], args[0], false)),
                (Op::Isub, true, false) => Some((args[0], args[1], true)),
                _ => None,
            };
            if let Some((p, off, negate)) = pick {
                let p = self.ptr(p)?;
                let mut off = self.val(off)?;
                if negate {
                    off = self.ins_v(InstData::Unary {
                        op: UnaryOp::Ineg,
                        arg: off,
                    });
                }
                let x = self.ins_v(InstData::PtrAdd { ptr: p, offset: off });
                self.def(res, Repr::Ptr(x));
                return Ok(());
            }
        }
        let a = self.val(args[0])?;
        let mut b = self.val(args[1])?;
        let ty = self.out.value_type(a);
        let simple = |op| Some(op);
        let op = match opcode {
            Op::Iadd => simple(BinaryOp::Iadd),
            Op::Isub => simple(BinaryOp::Isub),
            Op::Imul => simple(BinaryOp::Imul),
            Op::Udiv => simple(BinaryOp::Udiv),
            Op::Sdiv => simple(BinaryOp::Sdiv),
            Op::Urem => simple(BinaryOp::Urem),
            Op::Srem => simple(BinaryOp::Srem),
            Op::Band => simple(BinaryOp::Band),
            Op::Bor => simple(BinaryOp::Bor),
            Op::Bxor => simple(BinaryOp::Bxor),
            Op::Umin => simple(BinaryOp::Umin),
            Op::Umax => simple(BinaryOp::Umax),
            Op::Smin => simple(BinaryOp::Smin),
            Op::Smax => simple(BinaryOp::Smax),
            Op::Fadd => simple(BinaryOp::Fadd),
            Op::Fsub => simple(BinaryOp::Fsub),
            Op::Fmul => simple(BinaryOp::Fmul),
            Op::Fdiv => simple(BinaryOp::Fdiv),
            Op::Umulhi => simple(BinaryOp::Umulhi),
            Op::Smulhi => simple(BinaryOp::Smulhi),
            Op::Ishl | Op::Ushr | Op::Sshr => {
                b = self.shift_amount(b, ty);
                simple(match opcode {
                    Op::Ishl => BinaryOp::Ishl,
                    Op::Ushr => BinaryOp::Ushr,
                    _ => BinaryOp::Sshr,
                })
            }
            Op::Fmin | Op::Fmax => None,
            _ => return Err("no atomc translation for this CLIF instruction".into()),
        };
        let x = match op {
            Some(op) => self.ins_v(InstData::Binary { op, args: [a, b] }),
            None => {
                // CLIF's fmin/fmax propagate NaN; atomc's (minNum/maxNum)
                // drop it. Both order -0.0 below +0.0.
                let op = if opcode == Op::Fmin {
                    BinaryOp::Fmin
                } else {
                    BinaryOp::Fmax
                };
                let m = self.ins_v(InstData::Binary { op, args: [a, b] });
                let nan = self.ins_v(InstData::Fcmp {
                    cond: FloatCC::Uno,
                    args: [a, b],
                });
                let sum = self.ins_v(InstData::Binary {
                    op: BinaryOp::Fadd,
                    args: [a, b],
                });
                self.ins_v(InstData::Select {
                    cond: nan,
                    args: [sum, m],
                })
            }
        };
        self.def(res, Repr::Val(x));
        Ok(())
    }

    /// CLIF shift amounts may have any integer type; atomc's have the
    /// shifted value's. Both take the amount modulo the width, so keeping
    /// the low bits is exact.
    fn shift_amount(&mut self, b: Value, ty: Type) -> Value {
        let bty = self.out.value_type(b);
        if bty.bits() > ty.bits() {
            self.convert(ConvOp::Ireduce, ty, b)
        } else if bty.bits() < ty.bits() {
            self.convert(ConvOp::Uextend, ty, b)
        } else {
            b
        }
    }

    fn fcmp(&mut self, inst: cl::Inst, cond: cc::FloatCC, args: [cl::Value; 2]) -> Result<(), String> {
        use cc::FloatCC as F;
        let (a, b) = (self.val(args[0])?, self.val(args[1])?);
        let direct = match cond {
            F::Equal => Some(FloatCC::Eq),
            F::NotEqual => Some(FloatCC::Ne),
            F::LessThan => Some(FloatCC::Lt),
            F::LessThanOrEqual => Some(FloatCC::Le),
            F::GreaterThan => Some(FloatCC::Gt),
            F::GreaterThanOrEqual => Some(FloatCC::Ge),
            F::Ordered => Some(FloatCC::Ord),
            F::Unordered => Some(FloatCC::Uno),
            _ => None,
        };
        let res = self.result(inst)?;
        if let Some(c) = direct {
            let p = self.ins_v(InstData::Fcmp { cond: c, args: [a, b] });
            self.def(res, Repr::Pred(p));
            return Ok(());
        }
        // The rest are "unordered or X" = not (ordered and not X), and
        // "ordered and not equal": build them as 0/1 in an i8.
        let (one, zero) = (self.iconst(Type::I8, 1), self.iconst(Type::I8, 0));
        let x = match cond {
            F::OrderedNotEqual | F::UnorderedOrEqual => {
                let lt = self.ins_v(InstData::Fcmp {
                    cond: FloatCC::Lt,
                    args: [a, b],
                });
                let gt = self.ins_v(InstData::Fcmp {
                    cond: FloatCC::Gt,
                    args: [a, b],
                });
                let (t, f) = if cond == F::OrderedNotEqual {
                    (one, zero)
                } else {
                    (zero, one)
                };
                let g = self.ins_v(InstData::Select { cond: gt, args: [t, f] });
                self.ins_v(InstData::Select { cond: lt, args: [t, g] })
            }
            _ => {
                let opposite = match cond {
                    F::UnorderedOrLessThan => FloatCC::Ge,
                    F::UnorderedOrLessThanOrEqual => FloatCC::Gt,
                    F::UnorderedOrGreaterThan => FloatCC::Le,
                    F::UnorderedOrGreaterThanOrEqual => FloatCC::Lt,
                    _ => return Err(format!("no atomc translation for fcmp {cond}")),
                };
                let p = self.ins_v(InstData::Fcmp {
                    cond: opposite,
                    args: [a, b],
                });
                self.ins_v(InstData::Select {
                    cond: p,
                    args: [zero, one],
                })
            }
        };
        self.def(res, Repr::Val(x));
        Ok(())
    }

    /// `br_table x, default, [t0, t1, ..]` as a chain of compares.
    fn br_table(&mut self, arg: cl::Value, table: cl::JumpTable) -> Result<(), String> {
        let jt = self.src.dfg.jump_tables.get(table).ok_or("unknown jump table")?.clone();
        let x = self.val(arg)?;
        let ty = self.out.value_type(x);
        for (i, call) in jt.as_slice().iter().enumerate() {
            let k = self.iconst(ty, i as i64);
            let hit = self.ins_v(InstData::Icmp {
                cond: IntCC::Eq,
                args: [x, k],
            });
            let then_dest = self.block_call(call)?;
            let next = self.out.create_block();
            let else_dest = atomc_ir::BlockCall {
                block: next,
                args: Default::default(),
            };
            self.ins(InstData::Brif {
                cond: hit,
                then_dest,
                else_dest,
            });
            self.cur = next;
        }
        let dest = self.block_call(&jt.default_block())?;
        self.ins(InstData::Jump { dest });
        Ok(())
    }
}

fn int_cc(c: cc::IntCC) -> IntCC {
    use cc::IntCC as C;
    match c {
        C::Equal => IntCC::Eq,
        C::NotEqual => IntCC::Ne,
        C::SignedLessThan => IntCC::Slt,
        C::SignedLessThanOrEqual => IntCC::Sle,
        C::SignedGreaterThan => IntCC::Sgt,
        C::SignedGreaterThanOrEqual => IntCC::Sge,
        C::UnsignedLessThan => IntCC::Ult,
        C::UnsignedLessThanOrEqual => IntCC::Ule,
        C::UnsignedGreaterThan => IntCC::Ugt,
        C::UnsignedGreaterThanOrEqual => IntCC::Uge,
    }
}
