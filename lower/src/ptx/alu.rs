//! Non-memory instructions: constants, arithmetic, comparisons, conversions, pointers, special
//! registers.

use super::regs::{bit_type, class_of, hex_imm, int_type, mov_type, reg_bits, Class};
use super::{Emitter, PtxError};
use atomc_ir::{AddrSpace, BinaryOp, ConvOp, FloatCC, InstData, IntCC, SpecialReg, Type, UnaryOp, Value};

pub(super) fn inst(e: &mut Emitter<'_>, data: &InstData, result: Option<Value>) -> Result<(), PtxError> {
    let Some(res) = result else {
        return Err(PtxError::Invalid(format!("{} without a result", data.opcode_name())));
    };
    let d = e.reg(res);
    let rty = e.ty(res);
    match data {
        InstData::Iconst { ty, imm } => {
            let bits = reg_bits(*ty);
            e.line(format!("mov{} {d}, {}", bit_type(bits), hex_imm(*imm, bits)));
        }
        InstData::Fconst { ty, bits } => match ty {
            Type::F32 => e.line(format!("mov.f32 {d}, 0f{:08X}", *bits as u32)),
            Type::F64 => e.line(format!("mov.f64 {d}, 0d{bits:016X}")),
            _ => e.line(format!("mov.b16 {d}, 0x{:04X}", *bits as u16)),
        },
        InstData::Unary { op, arg } => unary(e, *op, &d, *arg)?,
        InstData::Binary { op, args } => binary(e, *op, &d, rty, args[0], args[1])?,
        InstData::Icmp { cond, args } => {
            let ty = e.ty(args[0]);
            let signed = matches!(cond, IntCC::Slt | IntCC::Sle | IntCC::Sgt | IntCC::Sge);
            let a = normalized(e, args[0], signed);
            let b = normalized(e, args[1], signed);
            let cc = match cond {
                IntCC::Eq => "eq",
                IntCC::Ne => "ne",
                IntCC::Slt | IntCC::Ult => "lt",
                IntCC::Sle | IntCC::Ule => "le",
                IntCC::Sgt | IntCC::Ugt => "gt",
                IntCC::Sge | IntCC::Uge => "ge",
            };
            e.line(format!("setp.{cc}{} {d}, {a}, {b}", int_type(reg_bits(ty), signed)));
        }
        InstData::Fcmp { cond, args } => {
            let (a, b, fty) = float_operands(e, args[0], args[1]);
            let cc = match cond {
                FloatCC::Eq => "eq",
                FloatCC::Ne => "neu",
                FloatCC::Lt => "lt",
                FloatCC::Le => "le",
                FloatCC::Gt => "gt",
                FloatCC::Ge => "ge",
                FloatCC::Ord => "num",
                FloatCC::Uno => "nan",
            };
            e.line(format!("setp.{cc}{fty} {d}, {a}, {b}"));
        }
        InstData::Select { cond, args } => {
            let c = e.reg(*cond);
            let a = e.reg(args[0]);
            let b = e.reg(args[1]);
            if rty == Type::Pred {
                let t = e.regs.temp_class(Class::Pred);
                e.line(format!("and.pred {t}, {c}, {a}"));
                e.line(format!("not.pred {d}, {c}"));
                e.line(format!("and.pred {d}, {d}, {b}"));
                e.line(format!("or.pred {d}, {d}, {t}"));
            } else {
                e.line(format!("selp{} {d}, {a}, {b}, {c}", selp_type(rty)));
            }
        }
        InstData::Convert { op, to, arg } => convert(e, *op, *to, &d, *arg)?,
        InstData::PtrAdd { ptr, offset } => {
            let p = e.reg(*ptr);
            let o = e.reg(*offset);
            let oty = e.ty(*offset);
            match (rty.addr_space(), oty) {
                (Some(AddrSpace::Shared), Type::I64) => {
                    let t = e.regs.temp_class(Class::B32);
                    e.line(format!("cvt.u32.u64 {t}, {o}"));
                    e.line(format!("add.s32 {d}, {p}, {t}"));
                }
                (Some(AddrSpace::Shared), _) => e.line(format!("add.s32 {d}, {p}, {o}")),
                (_, Type::I64) => e.line(format!("add.s64 {d}, {p}, {o}")),
                _ => {
                    let t = e.regs.temp_class(Class::B64);
                    e.line(format!("cvt.s64.s32 {t}, {o}"));
                    e.line(format!("add.s64 {d}, {p}, {t}"));
                }
            }
        }
        InstData::PtrToGeneric { ptr } => {
            let p = e.reg(*ptr);
            match e.ty(*ptr) {
                Type::Ptr(AddrSpace::Global) => e.line(format!("cvta.global.u64 {d}, {p}")),
                Type::Ptr(AddrSpace::Shared) => {
                    let t = e.regs.temp_class(Class::B64);
                    let p = e.shared_address(&p);
                    e.line(format!("cvt.u64.u32 {t}, {p}"));
                    e.line(format!("cvta.shared.u64 {d}, {t}"));
                }
                _ => e.line(format!("mov.b64 {d}, {p}")),
            }
        }
        InstData::Special { reg } => {
            let sreg = match reg {
                SpecialReg::ThreadIdX => "%tid.x",
                SpecialReg::ThreadIdY => "%tid.y",
                SpecialReg::ThreadIdZ => "%tid.z",
                SpecialReg::BlockIdX => "%ctaid.x",
                SpecialReg::BlockIdY => "%ctaid.y",
                SpecialReg::BlockIdZ => "%ctaid.z",
                SpecialReg::BlockDimX => "%ntid.x",
                SpecialReg::BlockDimY => "%ntid.y",
                SpecialReg::BlockDimZ => "%ntid.z",
                SpecialReg::GridDimX => "%nctaid.x",
                SpecialReg::GridDimY => "%nctaid.y",
                SpecialReg::GridDimZ => "%nctaid.z",
                SpecialReg::LaneId => "%laneid",
            };
            e.line(format!("mov.u32 {d}, {sreg}"));
        }
        // A shared pointer is an offset in the block's shared memory; accesses add the base.
        InstData::SharedAddr { var } => {
            let offset = e.func.shared_layout().offsets[*var];
            e.line(format!("mov.u32 {d}, {offset}"));
        }
        other => {
            return Err(PtxError::Invalid(format!(
                "{} reached the ALU path",
                other.opcode_name()
            )))
        }
    }
    Ok(())
}

/// The `selp` type for a value type.
fn selp_type(ty: Type) -> &'static str {
    match class_of(ty) {
        Class::F32 => ".f32",
        Class::F64 => ".f64",
        Class::B64 => ".b64",
        Class::B16 => ".b16",
        _ => ".b32",
    }
}

/// The register of an integer operand, with an `i8` first sign- or zero-extended within its
/// 16-bit register (its upper byte is otherwise unspecified).
pub(super) fn normalized(e: &mut Emitter<'_>, v: Value, signed: bool) -> String {
    let r = e.reg(v);
    if e.ty(v) != Type::I8 {
        return r;
    }
    let t = e.regs.temp_class(Class::B16);
    e.line(format!(
        "cvt.{}16.{}8 {t}, {r}",
        if signed { 's' } else { 'u' },
        if signed { 's' } else { 'u' }
    ));
    t
}

/// Float operands as registers PTX can compute on on every target: `f16` is widened to `f32`
/// (exact), so half-precision arithmetic works below sm_53 and rounds once when narrowed.
fn float_operands(e: &mut Emitter<'_>, a: Value, b: Value) -> (String, String, &'static str) {
    let ty = e.ty(a);
    let (ra, rb) = (e.reg(a), e.reg(b));
    match ty {
        Type::F16 => {
            let (ta, tb) = (e.regs.temp_class(Class::F32), e.regs.temp_class(Class::F32));
            e.line(format!("cvt.f32.f16 {ta}, {ra}"));
            e.line(format!("cvt.f32.f16 {tb}, {rb}"));
            (ta, tb, ".f32")
        }
        Type::F64 => (ra, rb, ".f64"),
        _ => (ra, rb, ".f32"),
    }
}

fn unary(e: &mut Emitter<'_>, op: UnaryOp, d: &str, arg: Value) -> Result<(), PtxError> {
    let ty = e.ty(arg);
    let a = e.reg(arg);
    let bits = reg_bits(ty);
    match op {
        UnaryOp::Ineg => e.line(format!("neg{} {d}, {a}", int_type(bits, true))),
        UnaryOp::Bnot => e.line(format!("not{} {d}, {a}", bit_type(bits))),
        // Sign-bit operations on the bit pattern: PTX's neg/abs.f* may change NaN payloads.
        UnaryOp::Fneg | UnaryOp::Fabs => {
            let sign: u64 = 1 << (bits - 1);
            let (opname, mask) = if op == UnaryOp::Fneg {
                ("xor", sign)
            } else {
                ("and", sign - 1)
            };
            if class_of(ty) == Class::B16 {
                e.line(format!("{opname}.b16 {d}, {a}, 0x{mask:X}"));
            } else {
                let t = e.regs.temp_class(Class::bits(bits));
                let bt = bit_type(bits);
                e.line(format!("mov{bt} {t}, {a}"));
                e.line(format!("{opname}{bt} {t}, {t}, 0x{mask:X}"));
                e.line(format!("mov{bt} {d}, {t}"));
            }
        }
        other => return Err(e.unsupported(other.name(), "no PTX lowering (lanes.rs refuses it first)")),
    }
    Ok(())
}

fn binary(e: &mut Emitter<'_>, op: BinaryOp, d: &str, ty: Type, a: Value, b: Value) -> Result<(), PtxError> {
    if op.is_float() {
        let (ra, rb, fty) = float_operands(e, a, b);
        let text = match op {
            BinaryOp::Fadd => "add.rn",
            BinaryOp::Fsub => "sub.rn",
            BinaryOp::Fmul => "mul.rn",
            BinaryOp::Fdiv => "div.rn",
            BinaryOp::Fmin => "min",
            _ => "max",
        };
        if ty == Type::F16 {
            let t = e.regs.temp_class(Class::F32);
            e.line(format!("{text}.f32 {t}, {ra}, {rb}"));
            e.line(format!("cvt.rn.f16.f32 {d}, {t}"));
        } else {
            e.line(format!("{text}{fty} {d}, {ra}, {rb}"));
        }
        return Ok(());
    }
    let bits = reg_bits(ty);
    let (signed, needs_norm) = match op {
        BinaryOp::Sdiv | BinaryOp::Srem | BinaryOp::Sshr | BinaryOp::Smin | BinaryOp::Smax => (true, true),
        BinaryOp::Udiv | BinaryOp::Urem | BinaryOp::Ushr | BinaryOp::Umin | BinaryOp::Umax => (false, true),
        _ => (false, false),
    };
    let ra = if needs_norm { normalized(e, a, signed) } else { e.reg(a) };
    let rb = if needs_norm { normalized(e, b, signed) } else { e.reg(b) };
    let s = int_type(bits, true);
    let u = int_type(bits, false);
    let bt = bit_type(bits);
    match op {
        BinaryOp::Iadd => e.line(format!("add{s} {d}, {ra}, {rb}")),
        BinaryOp::Isub => e.line(format!("sub{s} {d}, {ra}, {rb}")),
        BinaryOp::Imul => e.line(format!("mul.lo{s} {d}, {ra}, {rb}")),
        BinaryOp::Udiv => e.line(format!("div{u} {d}, {ra}, {rb}")),
        BinaryOp::Sdiv => e.line(format!("div{s} {d}, {ra}, {rb}")),
        BinaryOp::Urem => e.line(format!("rem{u} {d}, {ra}, {rb}")),
        BinaryOp::Srem => e.line(format!("rem{s} {d}, {ra}, {rb}")),
        BinaryOp::Band => e.line(format!("and{bt} {d}, {ra}, {rb}")),
        BinaryOp::Bor => e.line(format!("or{bt} {d}, {ra}, {rb}")),
        BinaryOp::Bxor => e.line(format!("xor{bt} {d}, {ra}, {rb}")),
        BinaryOp::Umin => e.line(format!("min{u} {d}, {ra}, {rb}")),
        BinaryOp::Umax => e.line(format!("max{u} {d}, {ra}, {rb}")),
        BinaryOp::Smin => e.line(format!("min{s} {d}, {ra}, {rb}")),
        BinaryOp::Smax => e.line(format!("max{s} {d}, {ra}, {rb}")),
        BinaryOp::Ishl | BinaryOp::Ushr | BinaryOp::Sshr => {
            // The IR takes the amount modulo the width; PTX clamps it and wants it as a u32.
            let width = e.ty(a).bits();
            let amount = e.regs.temp_class(Class::B32);
            match class_of(e.ty(b)) {
                Class::B64 => e.line(format!("cvt.u32.u64 {amount}, {rb}")),
                Class::B16 => e.line(format!("cvt.u32.u16 {amount}, {rb}")),
                _ => e.line(format!("mov.b32 {amount}, {rb}")),
            }
            e.line(format!("and.b32 {amount}, {amount}, {}", width - 1));
            let text = match op {
                BinaryOp::Ishl => format!("shl{bt}"),
                BinaryOp::Ushr => format!("shr{u}"),
                _ => format!("shr{s}"),
            };
            e.line(format!("{text} {d}, {ra}, {amount}"));
        }
        _ => return Err(PtxError::Invalid(format!("{} on integers", op.name()))),
    }
    Ok(())
}

fn convert(e: &mut Emitter<'_>, op: ConvOp, to: Type, d: &str, arg: Value) -> Result<(), PtxError> {
    let from = e.ty(arg);
    let a = e.reg(arg);
    let int_name = |ty: Type, signed: bool| format!(".{}{}", if signed { 's' } else { 'u' }, ty.bits());
    let float_name = |ty: Type| format!(".f{}", ty.bits());
    match op {
        ConvOp::Uextend | ConvOp::Sextend | ConvOp::Ireduce => {
            let signed = op == ConvOp::Sextend;
            // cvt reads only the low `from` bits of the source register and writes the
            // destination register in full, which is exactly extend/truncate.
            let dst = int_type(reg_bits(to), signed);
            if reg_bits(to) == reg_bits(from) && op == ConvOp::Ireduce {
                e.line(format!("mov{} {d}, {a}", mov_type(to)));
            } else {
                e.line(format!("cvt{dst}{} {d}, {a}", int_name(from, signed)));
            }
        }
        ConvOp::Fpromote => e.line(format!("cvt{}{} {d}, {a}", float_name(to), float_name(from))),
        ConvOp::Fdemote => e.line(format!("cvt.rn{}{} {d}, {a}", float_name(to), float_name(from))),
        ConvOp::FcvtToSint | ConvOp::FcvtToUint => {
            // `cvt.rzi` saturates as the IR requires, but gives NaN the result's top bit alone
            // where the source is f64 or the result 64 bits wide (PTX ISA 9.0, `cvt`; the
            // hardware agrees: `NanToInt::TopBitWhenWide`); a select makes that 0.
            let signed = op == ConvOp::FcvtToSint;
            e.line(format!("cvt.rzi{}{} {d}, {a}", int_name(to, signed), float_name(from)));
            if !crate::caps::NanToInt::TopBitWhenWide.gives_zero(from, to) {
                let x = if from == Type::F16 {
                    let t = e.regs.temp(Type::F32);
                    e.line(format!("cvt.f32.f16 {t}, {a}"));
                    t
                } else {
                    a
                };
                let fty = if from == Type::F64 { ".f64" } else { ".f32" };
                let nan = e.regs.temp(Type::Pred);
                e.line(format!("setp.nan{fty} {nan}, {x}, {x}"));
                e.line(format!("selp{} {d}, 0, {d}, {nan}", selp_type(to)));
            }
        }
        ConvOp::FcvtFromSint | ConvOp::FcvtFromUint => {
            let signed = op == ConvOp::FcvtFromSint;
            e.line(format!("cvt.rn{}{} {d}, {a}", float_name(to), int_name(from, signed)));
        }
        ConvOp::Bitcast => {
            if reg_bits(from) != reg_bits(to) {
                return Err(e.unsupported(format!("bitcast from {from} to {to}"), "the widths differ"));
            }
            e.line(format!("mov{} {d}, {a}", bit_type(reg_bits(to))));
        }
    }
    Ok(())
}
