//! Operand types of constants, arithmetic, comparisons, `select`,
//! conversions and pointer instructions.

mod verify_common;

use atomc_ir::verify::verify;
use atomc_ir::{BinaryOp, ConvOp, FloatCC, InstData, IntCC, Type, UnaryOp};
use verify_common::{assert_rules, expect, kernel, GENERIC, GLOBAL, SHARED};

#[test]
fn const_type() {
    expect(&[], &["const-type"], |b, _| {
        b.iconst(Type::F32, 1);
    });
    expect(&[], &["const-type"], |b, _| {
        b.ins(InstData::Fconst { ty: Type::I32, bits: 0 });
    });
    expect(&[], &["const-type"], |b, _| {
        b.ins(InstData::Fconst { ty: Type::F16x2, bits: 0 });
    });
}

#[test]
fn const_range() {
    expect(&[], &[], |b, _| {
        b.iconst(Type::I8, -128);
        b.iconst(Type::I32, -1);
        b.iconst(Type::I64, i64::MIN);
    });
    expect(&[], &["const-range"], |b, _| {
        b.iconst(Type::I8, 128);
    });
    expect(&[], &["const-range"], |b, _| {
        b.iconst(Type::I32, 0xffff_ffff);
    });
    expect(&[], &["const-range"], |b, _| {
        b.ins(InstData::Fconst { ty: Type::F16, bits: 0x1_0000 });
    });
}

#[test]
fn int_op_type() {
    expect(&[Type::F32], &["int-op-type"], |b, a| {
        b.binary(BinaryOp::Iadd, a[0], a[0]);
    });
    expect(&[Type::Pred], &["int-op-type"], |b, a| {
        b.unary(UnaryOp::Bnot, a[0]);
    });
    // One error per cause: the pointer is not an integer; that the types differ follows.
    expect(&[GLOBAL, Type::I64], &["int-op-type"], |b, a| {
        b.binary(BinaryOp::Iadd, a[0], a[1]);
    });
}

#[test]
fn float_op_type() {
    expect(&[Type::I32], &["float-op-type"], |b, a| {
        b.unary(UnaryOp::Fneg, a[0]);
    });
    expect(&[Type::F16x2], &["float-op-type"], |b, a| {
        b.binary(BinaryOp::Fmul, a[0], a[0]);
    });
}

/// Two operands of one bad type report once; of two bad types, once each (and no
/// `operand-type-mismatch` besides).
#[test]
fn one_report_per_distinct_operand_type() {
    expect(&[Type::F32, Type::F32], &["int-op-type"], |b, a| {
        b.binary(BinaryOp::Umin, a[0], a[1]);
    });
    expect(&[Type::F32, Type::F64], &["int-op-type", "int-op-type"], |b, a| {
        b.binary(BinaryOp::Umin, a[0], a[1]);
    });
}

#[test]
fn operand_type_mismatch() {
    expect(&[Type::I32, Type::I64], &["operand-type-mismatch"], |b, a| {
        b.binary(BinaryOp::Ishl, a[1], a[0]);
    });
    expect(&[Type::F32, Type::F64], &["operand-type-mismatch"], |b, a| {
        b.fcmp(FloatCC::Lt, a[0], a[1]);
    });
    expect(&[GLOBAL, SHARED], &["operand-type-mismatch"], |b, a| {
        b.icmp(IntCC::Eq, a[0], a[1]);
    });
    expect(&[Type::Pred, Type::I32, Type::I16], &["operand-type-mismatch"], |b, a| {
        b.select(a[0], a[1], a[2]);
    });
}

#[test]
fn icmp_type() {
    expect(&[GLOBAL], &[], |b, a| {
        b.icmp(IntCC::Ult, a[0], a[0]);
    });
    expect(&[Type::F32], &["icmp-type"], |b, a| {
        b.icmp(IntCC::Eq, a[0], a[0]);
    });
}

#[test]
fn fcmp_type() {
    expect(&[Type::I32], &["fcmp-type"], |b, a| {
        b.fcmp(FloatCC::Eq, a[0], a[0]);
    });
    expect(&[Type::BF16x2], &["fcmp-type"], |b, a| {
        b.fcmp(FloatCC::Uno, a[0], a[0]);
    });
}

#[test]
fn select_cond_type() {
    expect(&[Type::I32], &["select-cond-type"], |b, a| {
        b.select(a[0], a[0], a[0]);
    });
}

#[test]
fn convert_type() {
    let bad: &[(ConvOp, Type, Type)] = &[
        (ConvOp::Uextend, Type::I32, Type::I32),
        (ConvOp::Sextend, Type::I64, Type::I32),
        (ConvOp::Sextend, Type::F32, Type::F64),
        (ConvOp::Ireduce, Type::I32, Type::I64),
        (ConvOp::Ireduce, Type::I16, Type::I16),
        (ConvOp::Fpromote, Type::F64, Type::F32),
        (ConvOp::Fpromote, Type::I16, Type::F32),
        (ConvOp::Fdemote, Type::F16, Type::F32),
        (ConvOp::Fdemote, Type::F32, Type::F16x2),
        (ConvOp::FcvtToSint, Type::I32, Type::I32),
        (ConvOp::FcvtToUint, Type::F32, Type::F64),
        (ConvOp::FcvtFromSint, Type::F32, Type::F32),
        (ConvOp::FcvtFromUint, Type::I32, Type::BF16x2),
        (ConvOp::Bitcast, Type::I32, Type::I64),
        (ConvOp::Bitcast, Type::Pred, Type::I8),
        (ConvOp::Bitcast, Type::I32, Type::Pred),
        (ConvOp::Bitcast, SHARED, GLOBAL),
    ];
    for &(op, from, to) in bad {
        let f = kernel(&[from], |b, a| {
            b.convert(op, to, a[0]);
        });
        assert_rules(&f, &["convert-type"]);
    }
    let good: &[(ConvOp, Type, Type)] = &[
        (ConvOp::Uextend, Type::I8, Type::I64),
        (ConvOp::Ireduce, Type::I64, Type::I8),
        (ConvOp::Fpromote, Type::F16, Type::F64),
        (ConvOp::Fdemote, Type::F64, Type::F32),
        (ConvOp::FcvtToSint, Type::F16, Type::I64),
        (ConvOp::FcvtFromUint, Type::I8, Type::F64),
        (ConvOp::Bitcast, Type::F16x2, Type::BF16x2),
        (ConvOp::Bitcast, Type::I64, Type::Surface),
        (ConvOp::Bitcast, SHARED, Type::I32),
        (ConvOp::Bitcast, GENERIC, GLOBAL),
    ];
    for &(op, from, to) in good {
        let f = kernel(&[from], |b, a| {
            b.convert(op, to, a[0]);
        });
        assert_rules(&f, &[]);
    }
}

#[test]
fn ptr_add_type() {
    expect(&[Type::I64, Type::I64], &["ptr-add-type"], |b, a| {
        b.ptr_add(a[0], a[1]);
    });
    expect(&[GLOBAL, Type::I16], &["ptr-add-type"], |b, a| {
        b.ptr_add(a[0], a[1]);
    });
    expect(&[SHARED, Type::I64], &[], |b, a| {
        b.ptr_add(a[0], a[1]);
    });
}

#[test]
fn ptr_to_generic_type() {
    expect(&[GENERIC], &["ptr-to-generic-type"], |b, a| {
        b.ins(InstData::PtrToGeneric { ptr: a[0] });
    });
    expect(&[Type::I64], &["ptr-to-generic-type"], |b, a| {
        b.ins(InstData::PtrToGeneric { ptr: a[0] });
    });
}

#[test]
fn memory_type() {
    expect(&[GLOBAL], &["memory-type"], |b, a| {
        b.load(Type::Pred, a[0], 0);
    });
    expect(&[GLOBAL, Type::I32], &["memory-type"], |b, a| {
        let c = b.icmp(IntCC::Eq, a[1], a[1]);
        b.store(c, a[0], 0);
    });
}

#[test]
fn messages_quote_the_instruction() {
    let f = kernel(&[Type::F32], |b, a| {
        b.convert(ConvOp::Uextend, Type::I64, a[0]);
    });
    let diags = verify(&f).unwrap_err();
    assert_eq!(
        diags[0].message,
        "`v1 = uextend.i64 v0`: uextend from f32 to i64: needs an integer to a strictly wider integer"
    );
}
