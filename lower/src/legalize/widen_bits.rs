//! `popcnt`, `clz`, `ctz` and `bitrev` of a type the target counts only on 32 bits
//! ([`OpLowering::FromI32`]) → the i32 op and a fix-up, all of it IR the targets select.
//!
//! On N < 32 bits (the operand zero-extended to `u`; the IR's meaning: on N bits, `clz`/`ctz`
//! of 0 is N): `popcnt u`; `clz u - (32 - N)`; `ctz (u | 1 << N)`, the set bit N making a zero
//! operand count N; `bitrev u >> (32 - N)`. Each result is below 2^N (at most N), so the final
//! `ireduce` keeps it whole.
//!
//! On 64 bits, from the halves `lo` and `hi`: `popcnt lo + popcnt hi`; `clz` is `clz hi` where
//! `hi != 0`, else `32 + clz lo` (64 for 0); `ctz` is `ctz lo` where `lo != 0`, else
//! `32 + ctz hi`; `bitrev` is `bitrev lo` in the high half and `bitrev hi` in the low one.

use super::edit;
use crate::caps::TargetCaps;
use crate::caps_ops::{lookup, op_key, OpLowering};
use atomc_ir::{BinaryOp, ConvOp, Function, Inst, InstData, IntCC, Type, UnaryOp, Value};

/// Rewrites in place; returns how many were rewritten.
pub fn run(func: &mut Function, caps: &TargetCaps) -> usize {
    let mut count = 0;
    edit::rewrite(func, |func, inst, splice| {
        let Some((kind, ty)) = op_key(func, &func.insts[inst]) else { return };
        if lookup(caps.ops, kind, ty) != OpLowering::FromI32 {
            return;
        }
        let InstData::Unary { op, arg } = func.insts[inst] else { return };
        let mut b = Before { func, splice, at: inst };
        let last = if ty.bits() == 64 { from_halves(&mut b, op, arg) } else { narrow(&mut b, op, ty, arg) };
        // The instruction itself becomes the last step, so its result keeps its uses.
        b.func.insts[inst] = last;
        count += 1;
    });
    count
}

/// Places instructions before `at`.
struct Before<'a> {
    func: &'a mut Function,
    splice: &'a mut edit::Splice,
    at: Inst,
}

impl Before<'_> {
    fn val(&mut self, data: InstData) -> Value {
        self.splice.before(self.func, self.at, data).expect("has a result")
    }
    fn i32(&mut self, imm: i64) -> Value {
        self.val(InstData::Iconst { ty: Type::I32, imm })
    }
    fn un(&mut self, op: UnaryOp, arg: Value) -> Value {
        self.val(InstData::Unary { op, arg })
    }
    fn bin(&mut self, op: BinaryOp, a: Value, b: Value) -> Value {
        self.val(InstData::Binary { op, args: [a, b] })
    }
    fn conv(&mut self, op: ConvOp, to: Type, arg: Value) -> Value {
        self.val(InstData::Convert { op, to, arg })
    }
}

/// The last instruction for an operand of `ty`, narrower than 32 bits; the ones before it are placed.
fn narrow(b: &mut Before, op: UnaryOp, ty: Type, arg: Value) -> InstData {
    let n = ty.bits();
    let u = b.conv(ConvOp::Uextend, Type::I32, arg);
    let wide = match op {
        UnaryOp::Popcnt => b.un(op, u),
        UnaryOp::Clz => {
            let c = b.un(op, u);
            let k = b.i32(32 - n as i64);
            b.bin(BinaryOp::Isub, c, k)
        }
        UnaryOp::Ctz => {
            let stop = b.i32(1 << n);
            let o = b.bin(BinaryOp::Bor, u, stop);
            b.un(op, o)
        }
        UnaryOp::Bitrev => {
            let r = b.un(op, u);
            let k = b.i32(32 - n as i64);
            b.bin(BinaryOp::Ushr, r, k)
        }
        _ => unreachable!("op_key gives bit counts only"),
    };
    InstData::Convert { op: ConvOp::Ireduce, to: ty, arg: wide }
}

/// The last instruction for a 64-bit operand; the ones before it are placed.
fn from_halves(b: &mut Before, op: UnaryOp, arg: Value) -> InstData {
    let lo = b.conv(ConvOp::Ireduce, Type::I32, arg);
    let k32 = b.val(InstData::Iconst { ty: Type::I64, imm: 32 });
    let high = b.bin(BinaryOp::Ushr, arg, k32);
    let hi = b.conv(ConvOp::Ireduce, Type::I32, high);
    let wide = match op {
        UnaryOp::Popcnt => {
            let (pl, ph) = (b.un(op, lo), b.un(op, hi));
            b.bin(BinaryOp::Iadd, pl, ph)
        }
        // `first` decides unless it is 0; then 32 + the count of `second`.
        UnaryOp::Clz | UnaryOp::Ctz => {
            let (first, second) = if op == UnaryOp::Clz { (hi, lo) } else { (lo, hi) };
            let zero = b.i32(0);
            let empty = b.val(InstData::Icmp { cond: IntCC::Eq, args: [first, zero] });
            let cf = b.un(op, first);
            let cs = b.un(op, second);
            let k = b.i32(32);
            let beyond = b.bin(BinaryOp::Iadd, cs, k);
            b.val(InstData::Select { cond: empty, args: [beyond, cf] })
        }
        UnaryOp::Bitrev => {
            let (rl, rh) = (b.un(op, lo), b.un(op, hi));
            let up = b.conv(ConvOp::Uextend, Type::I64, rl);
            let new_hi = b.bin(BinaryOp::Ishl, up, k32);
            let new_lo = b.conv(ConvOp::Uextend, Type::I64, rh);
            return InstData::Binary { op: BinaryOp::Bor, args: [new_hi, new_lo] };
        }
        _ => unreachable!("op_key gives bit counts only"),
    };
    InstData::Convert { op: ConvOp::Uextend, to: Type::I64, arg: wide }
}
