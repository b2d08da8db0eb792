//! Memory instructions: addresses, atomic types, op × type, operand types,
//! memory orders, scopes, and the surface atomics.

mod verify_common;

use atomc_ir::verify::{verify, MAX_SURFACE_SLOTS};
use atomc_ir::{
    InstData, MemOrder, RmwOp, Scope, SurfaceAccess, SurfaceAddressing, SurfaceClamp, SurfaceDim, SurfaceRef, Type,
    MAX_ADDRESS_OFFSET,
};
use verify_common::{assert_rules, expect, kernel, GENERIC, GLOBAL, SHARED};

const R: MemOrder = MemOrder::Relaxed;
const GPU: Scope = Scope::Gpu;

#[test]
fn atomic_op_type() {
    expect(&[GLOBAL, Type::I32], &["atomic-op-type"], |b, a| {
        b.atomic_rmw(RmwOp::Fadd, Type::I32, R, GPU, a[0], 0, a[1]);
    });
    expect(&[GLOBAL, Type::I64], &["atomic-op-type"], |b, a| {
        b.atomic_rmw(RmwOp::IncWrap, Type::I64, R, GPU, a[0], 0, a[1]);
    });
    expect(&[GLOBAL, Type::F32], &["atomic-op-type"], |b, a| {
        b.atomic_rmw(RmwOp::Add, Type::F32, R, GPU, a[0], 0, a[1]);
    });
    let f = kernel(&[GLOBAL, Type::I32], |b, a| {
        b.atomic_rmw(RmwOp::Fadd, Type::I32, R, GPU, a[0], 0, a[1]);
    });
    assert_eq!(
        verify(&f).unwrap_err()[0].message,
        "`v2 = atomic_rmw.i32 fadd relaxed gpu v0, v1`: fadd needs a float type, got i32"
    );
}

/// Every op × type pair the IR defines passes, every other is rejected.
#[test]
fn op_type_table_is_rmw_accepts_type() {
    for &op in RmwOp::ALL {
        for ty in Type::ALL {
            let f = kernel(&[GLOBAL, ty], |b, a| {
                b.atomic_rmw(op, ty, R, GPU, a[0], 0, a[1]);
            });
            let atomic_ty = ty.is_int() || ty.is_float() || ty.is_packed_float();
            let want: &[&str] = if !atomic_ty {
                &["atomic-type"]
            } else if op.accepts_type(ty) {
                &[]
            } else {
                &["atomic-op-type"]
            };
            assert_rules(&f, want);
        }
    }
}

#[test]
fn atomic_type() {
    for ty in [Type::Pred, GLOBAL, Type::Surface] {
        expect(&[GLOBAL, ty], &["atomic-type"], |b, a| {
            b.atomic_cas(ty, R, GPU, a[0], 0, a[1], a[1]);
        });
        expect(&[GLOBAL], &["atomic-type"], |b, a| {
            b.atomic_load(ty, R, GPU, a[0], 0);
        });
        expect(&[GLOBAL, ty], &["atomic-type"], |b, a| {
            b.atomic_store(ty, R, GPU, a[0], 0, a[1]);
        });
    }
    expect(&[GLOBAL, Type::I8, Type::BF16x2], &[], |b, a| {
        b.atomic_cas(Type::I8, R, GPU, a[0], 1, a[1], a[1]);
        b.atomic_load(Type::BF16x2, R, GPU, a[0], 4);
        b.atomic_store(Type::I8, R, GPU, a[0], 3, a[1]);
    });
}

#[test]
fn atomic_operand_type() {
    expect(&[GLOBAL, Type::I64], &["atomic-operand-type"], |b, a| {
        b.atomic_rmw(RmwOp::Add, Type::I32, R, GPU, a[0], 0, a[1]);
    });
    expect(&[GLOBAL, Type::I32, Type::F32], &["atomic-operand-type", "atomic-operand-type"], |b, a| {
        b.atomic_cas(Type::F64, R, GPU, a[0], 0, a[1], a[2]);
    });
    expect(&[GLOBAL, Type::I32], &["atomic-operand-type"], |b, a| {
        b.atomic_store(Type::F32, R, GPU, a[0], 0, a[1]);
    });
}

#[test]
fn atomic_order() {
    for order in [MemOrder::Release, MemOrder::AcqRel] {
        expect(&[GLOBAL], &["atomic-order"], |b, a| {
            b.atomic_load(Type::I32, order, GPU, a[0], 0);
        });
    }
    for order in [MemOrder::Acquire, MemOrder::AcqRel] {
        expect(&[GLOBAL, Type::I32], &["atomic-order"], |b, a| {
            b.atomic_store(Type::I32, order, GPU, a[0], 0, a[1]);
        });
    }
    expect(&[], &["atomic-order"], |b, _| {
        b.fence(MemOrder::Relaxed, Scope::Cta);
    });
}

#[test]
fn atomic_scope() {
    expect(&[SHARED, Type::I32], &["atomic-scope"], |b, a| {
        b.atomic_rmw(RmwOp::Add, Type::I32, R, Scope::Sys, a[0], 0, a[1]);
    });
    expect(&[SHARED], &["atomic-scope"], |b, a| {
        b.atomic_load(Type::I32, MemOrder::Acquire, Scope::Sys, a[0], 0);
    });
    // cta on global, gpu on shared and sys on generic are all fine.
    expect(&[GLOBAL, SHARED, GENERIC, Type::I32], &[], |b, a| {
        b.atomic_rmw(RmwOp::Add, Type::I32, R, Scope::Cta, a[0], 0, a[3]);
        b.atomic_rmw(RmwOp::Add, Type::I32, R, Scope::Gpu, a[1], 0, a[3]);
        b.atomic_rmw(RmwOp::Add, Type::I32, R, Scope::Sys, a[2], 0, a[3]);
    });
}

#[test]
fn address_type() {
    expect(&[Type::I64, Type::I32], &["address-type"], |b, a| {
        b.atomic_rmw(RmwOp::Add, Type::I32, R, GPU, a[0], 0, a[1]);
    });
    expect(&[Type::I64], &["address-type"], |b, a| {
        b.load(Type::I32, a[0], 0);
    });
}

#[test]
fn address_alignment() {
    expect(&[GLOBAL, Type::I64], &["address-alignment"], |b, a| {
        b.atomic_rmw(RmwOp::Add, Type::I64, R, GPU, a[0], 4, a[1]);
    });
    expect(&[GLOBAL, Type::I32], &["address-alignment"], |b, a| {
        b.store(a[1], a[0], -2);
    });
    expect(&[SHARED], &["address-alignment"], |b, a| {
        b.atomic_load(Type::F16, R, Scope::Cta, a[0], 1);
    });
    expect(&[GLOBAL, Type::I8], &[], |b, a| {
        b.atomic_rmw(RmwOp::Add, Type::I8, R, GPU, a[0], -7, a[1]);
        b.atomic_load(Type::I64, R, GPU, a[0], -8);
    });
}

#[test]
fn address_offset_range() {
    let max = MAX_ADDRESS_OFFSET;
    expect(&[GLOBAL, Type::I8], &[], |b, a| {
        b.atomic_rmw(RmwOp::Add, Type::I8, R, GPU, a[0], max, a[1]);
        b.atomic_rmw(RmwOp::Add, Type::I8, R, GPU, a[0], -max, a[1]);
    });
    expect(&[GLOBAL, Type::I8], &["address-offset-range"], |b, a| {
        b.atomic_rmw(RmwOp::Add, Type::I8, R, GPU, a[0], max + 1, a[1]);
    });
    expect(&[GLOBAL], &["address-offset-range"], |b, a| {
        b.load(Type::I32, a[0], i32::MIN);
    });
}

fn access(dim: SurfaceDim, surface: SurfaceRef) -> SurfaceAccess {
    SurfaceAccess { dim, addressing: SurfaceAddressing::Coord, clamp: SurfaceClamp::Near, surface }
}

#[test]
fn surface_element_type() {
    for ty in [Type::I8, Type::F64, Type::BF16x2, Type::F16, Type::Pred] {
        let f = kernel(&[Type::I32, ty], |b, a| {
            let acc = access(SurfaceDim::D1, SurfaceRef::Slot(0));
            b.surface_rmw(RmwOp::Xchg, ty, R, GPU, acc, &[a[0]], a[1]);
        });
        assert_rules(&f, &["surface-element-type"]);
    }
}

#[test]
fn surface_op_type() {
    expect(&[Type::I32, Type::I64], &["atomic-op-type"], |b, a| {
        let acc = access(SurfaceDim::D1Buffer, SurfaceRef::Slot(3));
        b.surface_rmw(RmwOp::DecWrap, Type::I64, R, GPU, acc, &[a[0]], a[1]);
    });
    expect(&[Type::I32, Type::F32], &["atomic-operand-type"], |b, a| {
        let acc = access(SurfaceDim::D1Buffer, SurfaceRef::Slot(3));
        b.surface_rmw(RmwOp::Fadd, Type::F16x2, R, GPU, acc, &[a[0]], a[1]);
    });
}

#[test]
fn surface_coord_count() {
    for &dim in SurfaceDim::ALL {
        for n in 0..=4 {
            let f = kernel(&[Type::I32], |b, a| {
                let coords = vec![a[0]; n];
                b.surface_rmw(RmwOp::Add, Type::I32, R, GPU, access(dim, SurfaceRef::Slot(0)), &coords, a[0]);
            });
            let want: &[&str] = if n == dim.coord_count() { &[] } else { &["surface-coord-count"] };
            assert_rules(&f, want);
        }
    }
}

#[test]
fn surface_coord_type() {
    expect(&[Type::I32, Type::I64], &["surface-coord-type"], |b, a| {
        let acc = access(SurfaceDim::D2, SurfaceRef::Slot(0));
        b.surface_rmw(RmwOp::Add, Type::I32, R, GPU, acc, &[a[0], a[1]], a[0]);
    });
}

#[test]
fn surface_handle_type() {
    expect(&[Type::I64, Type::I32], &["surface-handle-type"], |b, a| {
        let acc = access(SurfaceDim::D1, SurfaceRef::Handle(a[0]));
        b.surface_rmw(RmwOp::Add, Type::I32, R, GPU, acc, &[a[1]], a[1]);
    });
}

#[test]
fn surface_slot_range() {
    expect(&[Type::I32], &["surface-slot-range"], |b, a| {
        let acc = access(SurfaceDim::D1, SurfaceRef::Slot(MAX_SURFACE_SLOTS));
        b.surface_rmw(RmwOp::Add, Type::I32, R, GPU, acc, &[a[0]], a[0]);
    });
}

#[test]
fn surface_cas_rules() {
    let f = kernel(&[Type::I32, Type::I64], |b, a| {
        b.ins(InstData::SurfaceCas {
            ty: Type::I64,
            order: MemOrder::SeqCst,
            scope: Scope::Sys,
            access: access(SurfaceDim::D3, SurfaceRef::Slot(1000)),
            coords: [a[0], a[1]].into_iter().collect(),
            expected: a[0],
            replacement: a[1],
        });
    });
    assert_rules(&f, &["surface-coord-count", "surface-coord-type", "surface-slot-range", "atomic-operand-type"]);
}
