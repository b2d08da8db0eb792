//! Well-formed functions the verifier must accept.

use atomc_ir::verify::verify;
use atomc_ir::{
    AddrSpace, BinaryOp, ConvOp, FunctionBuilder, IntCC, MemOrder, RmwOp, Scope, SpecialReg, SurfaceAccess,
    SurfaceAddressing, SurfaceClamp, SurfaceDim, SurfaceRef, Type,
};

const GLOBAL: Type = Type::Ptr(AddrSpace::Global);
const SHARED: Type = Type::Ptr(AddrSpace::Shared);

fn assert_valid(func: &atomc_ir::Function) {
    if let Err(diags) = verify(func) {
        panic!("expected a valid function, got:\n{diags:#?}");
    }
}

#[test]
fn counter_kernel() {
    let mut b = FunctionBuilder::new("count", &[GLOBAL]);
    let counter = b.param(0);
    let tid = b.special(SpecialReg::ThreadIdX);
    let tid64 = b.convert(ConvOp::Uextend, Type::I64, tid);
    let four = b.iconst(Type::I64, 4);
    let off = b.binary(BinaryOp::Imul, tid64, four);
    let p = b.ptr_add(counter, off);
    let one = b.iconst(Type::I32, 1);
    b.atomic_rmw(RmwOp::Add, Type::I32, MemOrder::Relaxed, Scope::Gpu, p, 0, one);
    b.ret(&[]);
    assert_valid(&b.finish());
}

/// A CAS retry loop: a block parameter carries the last seen value around
/// the back edge.
#[test]
fn cas_loop_with_block_params() {
    let mut b = FunctionBuilder::new("fmax_by_cas", &[GLOBAL, Type::F32]);
    let (p, x) = (b.param(0), b.param(1));
    let first = b.atomic_load(Type::F32, MemOrder::Relaxed, Scope::Gpu, p, 8);
    let head = b.create_block();
    let seen = b.block_param(head, Type::F32);
    let exit = b.create_block();
    b.jump(head, &[first]);
    b.switch_to_block(head);
    let new = b.binary(BinaryOp::Fmax, seen, x);
    let old = b.atomic_cas(Type::F32, MemOrder::AcqRel, Scope::Gpu, p, 8, seen, new);
    let old_bits = b.convert(ConvOp::Bitcast, Type::I32, old);
    let seen_bits = b.convert(ConvOp::Bitcast, Type::I32, seen);
    let done = b.icmp(IntCC::Eq, old_bits, seen_bits);
    b.brif(done, exit, &[], head, &[old]);
    b.switch_to_block(exit);
    b.ret(&[]);
    assert_valid(&b.finish());
}

/// A diamond: values of the entry block are used in the join block, and
/// each arm passes its own value to the join's parameter.
#[test]
fn diamond_with_returns() {
    let mut b = FunctionBuilder::with_returns("pick", &[Type::I32, Type::I32], &[Type::I32, Type::I64]);
    let (x, y) = (b.param(0), b.param(1));
    let c = b.icmp(IntCC::Slt, x, y);
    let (left, right, join) = (b.create_block(), b.create_block(), b.create_block());
    let v = b.block_param(join, Type::I32);
    b.brif(c, left, &[], right, &[]);
    b.switch_to_block(left);
    let s = b.binary(BinaryOp::Isub, y, x);
    b.jump(join, &[s]);
    b.switch_to_block(right);
    let t = b.binary(BinaryOp::Isub, x, y);
    b.jump(join, &[t]);
    b.switch_to_block(join);
    let sum = b.binary(BinaryOp::Iadd, v, x);
    let wide = b.convert(ConvOp::Sextend, Type::I64, sum);
    b.ret(&[sum, wide]);
    assert_valid(&b.finish());
}

#[test]
fn every_legal_order_and_shared_scopes() {
    let mut b = FunctionBuilder::new("orders", &[SHARED, GLOBAL]);
    let (s, g) = (b.param(0), b.param(1));
    let one = b.iconst(Type::I32, 1);
    for order in [MemOrder::Relaxed, MemOrder::Acquire, MemOrder::SeqCst] {
        b.atomic_load(Type::I32, order, Scope::Cta, s, 4);
    }
    for order in [MemOrder::Relaxed, MemOrder::Release, MemOrder::SeqCst] {
        b.atomic_store(Type::I32, order, Scope::Gpu, s, -4, one);
    }
    for &order in MemOrder::ALL {
        b.atomic_rmw(RmwOp::Xor, Type::I32, order, Scope::Cta, g, 0, one);
        b.atomic_cas(Type::I32, order, Scope::Sys, g, 0, one, one);
        if order != MemOrder::Relaxed {
            b.fence(order, Scope::Sys);
        }
    }
    let generic = b.ins(atomc_ir::InstData::PtrToGeneric { ptr: s }).unwrap();
    b.atomic_rmw(RmwOp::Umax, Type::I32, MemOrder::SeqCst, Scope::Sys, generic, 0, one);
    b.barrier();
    b.ret(&[]);
    assert_valid(&b.finish());
}

#[test]
fn every_op_on_each_accepted_type() {
    let mut b = FunctionBuilder::new("ops", &[GLOBAL, Type::I8, Type::I16, Type::I32, Type::I64]);
    let p = b.param(0);
    let ints = [(Type::I8, b.param(1)), (Type::I16, b.param(2)), (Type::I32, b.param(3)), (Type::I64, b.param(4))];
    let f16 = b.ins(atomc_ir::InstData::Fconst { ty: Type::F16, bits: 0x3c00 }).unwrap();
    let f32 = b.fconst(Type::F32, 1.5);
    let f64 = b.fconst(Type::F64, -2.25);
    let h2 = b.convert(ConvOp::Bitcast, Type::F16x2, ints[2].1);
    let bh2 = b.convert(ConvOp::Bitcast, Type::BF16x2, ints[2].1);
    let floats = [(Type::F16, f16), (Type::F32, f32), (Type::F64, f64), (Type::F16x2, h2), (Type::BF16x2, bh2)];
    for &op in RmwOp::ALL {
        for &(ty, v) in ints.iter().chain(&floats) {
            if op.accepts_type(ty) {
                b.atomic_rmw(op, ty, MemOrder::Relaxed, Scope::Gpu, p, 16, v);
            }
        }
    }
    b.ret(&[]);
    assert_valid(&b.finish());
}

#[test]
fn surfaces_bound_and_bindless() {
    let mut b = FunctionBuilder::new("surf", &[Type::Surface, Type::I32, Type::I64]);
    let (h, x, wide) = (b.param(0), b.param(1), b.param(2));
    for &dim in SurfaceDim::ALL {
        for &addressing in SurfaceAddressing::ALL {
            let coords = vec![x; dim.coord_count()];
            let access = SurfaceAccess { dim, addressing, clamp: SurfaceClamp::Trap, surface: SurfaceRef::Handle(h) };
            b.surface_rmw(RmwOp::Add, Type::I32, MemOrder::Relaxed, Scope::Gpu, access, &coords, x);
            let slot = SurfaceAccess { surface: SurfaceRef::Slot(127), clamp: SurfaceClamp::Ign, ..access };
            b.surface_rmw(RmwOp::Umin, Type::I64, MemOrder::AcqRel, Scope::Sys, slot, &coords, wide);
            b.ins(atomc_ir::InstData::SurfaceCas {
                ty: Type::I64,
                order: MemOrder::SeqCst,
                scope: Scope::Cta,
                access,
                coords: coords.iter().copied().collect(),
                expected: wide,
                replacement: wide,
            });
        }
    }
    b.ret(&[]);
    assert_valid(&b.finish());
}

/// Unreachable blocks are allowed (they are still type-checked).
#[test]
fn unreachable_block_is_allowed() {
    let mut b = FunctionBuilder::new("dead", &[Type::I32]);
    let x = b.param(0);
    b.ret(&[]);
    let dead = b.create_block();
    let dead2 = b.create_block();
    let y = b.block_param(dead2, Type::I32);
    b.switch_to_block(dead);
    let z = b.binary(BinaryOp::Iadd, x, x);
    b.jump(dead2, &[z]);
    b.switch_to_block(dead2);
    b.binary(BinaryOp::Imul, y, z);
    b.jump(dead, &[]);
    assert_valid(&b.finish());
}

#[test]
fn legal_conversions_loads_and_stores() {
    let mut b = FunctionBuilder::new("conv", &[GLOBAL, SHARED]);
    let (g, s) = (b.param(0), b.param(1));
    let a8 = b.load(Type::I8, g, 3);
    let a16 = b.convert(ConvOp::Sextend, Type::I16, a8);
    let a64 = b.convert(ConvOp::Uextend, Type::I64, a16);
    let a32 = b.convert(ConvOp::Ireduce, Type::I32, a64);
    let f = b.convert(ConvOp::FcvtFromSint, Type::F32, a32);
    let d = b.convert(ConvOp::Fpromote, Type::F64, f);
    let h = b.convert(ConvOp::Fdemote, Type::F16, d);
    let u = b.convert(ConvOp::FcvtToUint, Type::I8, h);
    b.store(u, g, -1);
    let gp = b.convert(ConvOp::Bitcast, Type::Ptr(AddrSpace::Generic), a64);
    let back = b.convert(ConvOp::Bitcast, Type::I64, gp);
    let sp = b.ptr_add(s, a32);
    let gp2 = b.ptr_add(g, back);
    b.store(sp, gp2, 8);
    let loaded = b.load(SHARED, gp2, -8);
    b.store(d, loaded, 1024);
    b.ret(&[]);
    assert_valid(&b.finish());
}
