//! Big-endian accesses on little-endian memory ([`ImportOptions::emulate_big_endian`](super::ImportOptions)):
//! byte swaps around loads and stores, and a CAS loop for the
//! read-modify-write ops that do not commute with a byte swap.

use super::translate::Translator;
use atomc_ir::{Address, BinaryOp, BlockCall, ConvOp, InstData, IntCC, MemOrder, Type, Value};

impl Translator<'_> {
    /// `x` with its bytes reversed (any memory type; floats go through the
    /// integer of their width).
    pub(super) fn bswap(&mut self, x: Value) -> Value {
        let ty = self.out.value_type(x);
        match ty {
            Type::I8 => x,
            Type::I16 => {
                let k = self.iconst(Type::I16, 8);
                let hi = self.bin(BinaryOp::Ishl, x, k);
                let lo = self.bin(BinaryOp::Ushr, x, k);
                self.bin(BinaryOp::Bor, hi, lo)
            }
            Type::I32 => {
                let (k8, k24) = (self.iconst(Type::I32, 8), self.iconst(Type::I32, 24));
                let mask = self.iconst(Type::I32, 0xff00);
                let b3 = self.bin(BinaryOp::Ishl, x, k24);
                let m = self.bin(BinaryOp::Band, x, mask);
                let b2 = self.bin(BinaryOp::Ishl, m, k8);
                let s = self.bin(BinaryOp::Ushr, x, k8);
                let b1 = self.bin(BinaryOp::Band, s, mask);
                let b0 = self.bin(BinaryOp::Ushr, x, k24);
                let a = self.bin(BinaryOp::Bor, b3, b2);
                let b = self.bin(BinaryOp::Bor, b1, b0);
                self.bin(BinaryOp::Bor, a, b)
            }
            Type::I64 => {
                let k32 = self.iconst(Type::I64, 32);
                let lo = self.convert(ConvOp::Ireduce, Type::I32, x);
                let shifted = self.bin(BinaryOp::Ushr, x, k32);
                let hi = self.convert(ConvOp::Ireduce, Type::I32, shifted);
                let (lo, hi) = (self.bswap(lo), self.bswap(hi));
                let lo64 = self.convert(ConvOp::Uextend, Type::I64, lo);
                let top = self.bin(BinaryOp::Ishl, lo64, k32);
                let hi64 = self.convert(ConvOp::Uextend, Type::I64, hi);
                self.bin(BinaryOp::Bor, top, hi64)
            }
            other => match other.as_int() {
                Some(int) => {
                    let i = self.convert(ConvOp::Bitcast, int, x);
                    let s = self.bswap(i);
                    self.convert(ConvOp::Bitcast, other, s)
                }
                None => x,
            },
        }
    }

    fn bin(&mut self, op: BinaryOp, a: Value, b: Value) -> Value {
        self.ins_v(InstData::Binary { op, args: [a, b] })
    }

    /// A read-modify-write as a CAS loop; returns the old value.
    ///
    /// ```text
    ///     v_init = atomic_load.T relaxed scope addr
    ///     jump loop(v_init)
    /// loop(cur):                       ; memory's bits
    ///     new = f(cur)                 ; (byte-swapped around f when `swap`)
    ///     prev = atomic_cas.T seq_cst scope addr, cur, new
    ///     brif (icmp eq prev, cur), done, loop(prev)
    /// done:                            ; old value: cur (swapped back)
    /// ```
    pub(super) fn cas_loop(
        &mut self,
        ty: Type,
        addr: Address,
        swap: bool,
        f: impl FnOnce(&mut Self, Value) -> Value,
    ) -> Value {
        let scope = self.opts.scope;
        let init = self.ins_v(InstData::AtomicLoad {
            ty,
            order: MemOrder::Relaxed,
            scope,
            addr,
        });
        let header = self.out.create_block();
        let cur = self.out.append_block_param(header, ty);
        let done = self.out.create_block();
        self.ins(InstData::Jump {
            dest: call(header, &[init]),
        });
        self.cur = header;
        let old = if swap { self.bswap(cur) } else { cur };
        let new = f(self, old);
        let new_mem = if swap { self.bswap(new) } else { new };
        let order = MemOrder::SeqCst;
        let prev = self.ins_v(InstData::AtomicCas {
            ty,
            order,
            scope,
            addr,
            expected: cur,
            replacement: new_mem,
        });
        let ok = self.ins_v(InstData::Icmp {
            cond: IntCC::Eq,
            args: [prev, cur],
        });
        self.ins(InstData::Brif {
            cond: ok,
            then_dest: call(done, &[]),
            else_dest: call(header, &[prev]),
        });
        self.cur = done;
        old
    }
}

fn call(block: atomc_ir::Block, args: &[Value]) -> BlockCall {
    BlockCall {
        block,
        args: args.iter().copied().collect(),
    }
}
