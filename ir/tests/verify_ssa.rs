//! SSA rules: definitions, result types, dominance.

mod verify_common;

use atomc_ir::verify::verify;
use atomc_ir::{BinaryOp, ConvOp, FunctionBuilder, InstData, IntCC, Type, Value, ValueDef};
use cranelift_entity::EntityRef;
use verify_common::assert_rules;

#[test]
fn value_undefined_out_of_range() {
    let mut b = FunctionBuilder::new("k", &[Type::I32]);
    let x = b.param(0);
    b.ins(InstData::Binary { op: BinaryOp::Iadd, args: [x, x] });
    b.ret(&[]);
    let mut f = b.finish();
    let add = f.blocks[f.layout[0]].insts[0];
    f.insts[add] = InstData::Binary { op: BinaryOp::Iadd, args: [x, Value::new(1000)] };
    assert_rules(&f, &["value-undefined"]);
}

#[test]
fn value_defined_by_unplaced_instruction() {
    let mut b = FunctionBuilder::new("k", &[]);
    b.ret(&[]);
    let mut f = b.finish();
    let orphan = f.make_inst(InstData::Iconst { ty: Type::I32, imm: 1 });
    let v = f.inst_result(orphan).unwrap();
    let entry = f.layout[0];
    let add = f.make_inst(InstData::Binary { op: BinaryOp::Iadd, args: [v, v] });
    f.blocks[entry].insts.insert(0, add);
    assert_rules(&f, &["value-undefined"]);
}

#[test]
fn value_def_mismatch_of_result() {
    let mut b = FunctionBuilder::new("k", &[]);
    let c = b.iconst(Type::I32, 1);
    b.ret(&[]);
    let mut f = b.finish();
    f.values[c].def = ValueDef::Param(f.layout[0], 3);
    assert_rules(&f, &["value-def-mismatch"]);
}

#[test]
fn value_def_mismatch_of_param() {
    let mut b = FunctionBuilder::new("k", &[Type::I32, Type::I32]);
    b.ret(&[]);
    let mut f = b.finish();
    let entry = f.layout[0];
    f.blocks[entry].params.swap(0, 1);
    assert_rules(&f, &["value-def-mismatch", "value-def-mismatch"]);
}

#[test]
fn inst_result_missing() {
    let mut b = FunctionBuilder::new("k", &[]);
    b.iconst(Type::I32, 1);
    b.ret(&[]);
    let mut f = b.finish();
    let c = f.blocks[f.layout[0]].insts[0];
    f.results[c] = None;
    assert_rules(&f, &["inst-result"]);
}

#[test]
fn inst_result_on_store() {
    let mut b = FunctionBuilder::new("k", &[Type::Ptr(atomc_ir::AddrSpace::Global), Type::I32]);
    let (p, x) = (b.param(0), b.param(1));
    b.store(x, p, 0);
    b.ret(&[]);
    let mut f = b.finish();
    let st = f.blocks[f.layout[0]].insts[0];
    f.results[st] = Some(x);
    assert_rules(&f, &["inst-result"]);
}

#[test]
fn result_type() {
    let mut b = FunctionBuilder::new("k", &[Type::I32]);
    let x = b.param(0);
    let y = b.binary(BinaryOp::Iadd, x, x);
    b.ret(&[]);
    let mut f = b.finish();
    f.values[y].ty = Type::I64;
    assert_rules(&f, &["result-type"]);
}

#[test]
fn use_before_def_in_one_block() {
    let mut b = FunctionBuilder::new("k", &[Type::I32]);
    let x = b.param(0);
    let y = b.binary(BinaryOp::Iadd, x, x);
    b.binary(BinaryOp::Imul, y, y);
    b.ret(&[]);
    let mut f = b.finish();
    let entry = f.layout[0];
    f.blocks[entry].insts.swap(0, 1);
    assert_rules(&f, &["ssa-dominance"]);
}

#[test]
fn self_use() {
    let mut b = FunctionBuilder::new("k", &[Type::I32]);
    let x = b.param(0);
    let y = b.binary(BinaryOp::Iadd, x, x);
    b.ret(&[]);
    let mut f = b.finish();
    let add = f.blocks[f.layout[0]].insts[0];
    f.insts[add] = InstData::Binary { op: BinaryOp::Iadd, args: [x, y] };
    assert_rules(&f, &["ssa-dominance"]);
}

/// A value of one arm of a diamond used in the join block.
#[test]
fn use_not_dominated_across_blocks() {
    let mut b = FunctionBuilder::new("k", &[Type::I32]);
    let x = b.param(0);
    let c = b.icmp(IntCC::Eq, x, x);
    let (l, r, join) = (b.create_block(), b.create_block(), b.create_block());
    b.brif(c, l, &[], r, &[]);
    b.switch_to_block(l);
    let y = b.binary(BinaryOp::Iadd, x, x);
    b.jump(join, &[]);
    b.switch_to_block(r);
    b.jump(join, &[]);
    b.switch_to_block(join);
    b.binary(BinaryOp::Imul, y, x);
    b.ret(&[]);
    let f = b.finish();
    assert_rules(&f, &["ssa-dominance"]);
    let msg = &verify(&f).unwrap_err()[0].message;
    assert!(msg.contains("block1, which does not dominate block3"), "{msg}");
}

/// A parameter of another block used where that block does not dominate.
#[test]
fn block_param_used_outside_its_region() {
    let mut b = FunctionBuilder::new("k", &[Type::I32]);
    let x = b.param(0);
    let c = b.icmp(IntCC::Eq, x, x);
    let (l, r) = (b.create_block(), b.create_block());
    let p = b.block_param(l, Type::I32);
    b.brif(c, l, &[x], r, &[]);
    b.switch_to_block(l);
    b.ret(&[]);
    b.switch_to_block(r);
    b.binary(BinaryOp::Iadd, p, x);
    b.ret(&[]);
    assert_rules(&b.finish(), &["ssa-dominance"]);
}

/// A loop: a value defined in the body reaches the header only through the
/// back edge's block argument; using it directly in the header is an error.
#[test]
fn loop_value_used_in_header() {
    let mut b = FunctionBuilder::new("k", &[Type::I32]);
    let x = b.param(0);
    let (head, body, exit) = (b.create_block(), b.create_block(), b.create_block());
    let i = b.block_param(head, Type::I32);
    b.jump(head, &[x]);
    b.switch_to_block(head);
    let c = b.icmp(IntCC::Ult, i, x);
    b.brif(c, body, &[], exit, &[]);
    b.switch_to_block(body);
    let next = b.binary(BinaryOp::Iadd, i, x);
    b.jump(head, &[next]);
    b.switch_to_block(exit);
    b.ret(&[]);
    let mut f = b.finish();
    assert_rules(&f, &[]);
    let cmp = f.blocks[head].insts[0];
    f.insts[cmp] = InstData::Icmp { cond: IntCC::Ult, args: [next, x] };
    assert_rules(&f, &["ssa-dominance"]);
}

/// A value defined in an unreachable block is not available in reachable code.
#[test]
fn value_from_unreachable_block() {
    let mut b = FunctionBuilder::new("k", &[Type::I32]);
    let x = b.param(0);
    let (live, dead) = (b.create_block(), b.create_block());
    b.jump(live, &[]);
    b.switch_to_block(dead);
    let y = b.binary(BinaryOp::Iadd, x, x);
    b.jump(live, &[]);
    b.switch_to_block(live);
    b.binary(BinaryOp::Iadd, y, x);
    b.ret(&[]);
    assert_rules(&b.finish(), &["ssa-dominance"]);
}

/// Unreachable code is still type-checked and still checked within a block.
#[test]
fn unreachable_block_is_type_checked() {
    let mut b = FunctionBuilder::new("k", &[Type::I32]);
    let x = b.param(0);
    b.ret(&[]);
    let dead = b.create_block();
    b.switch_to_block(dead);
    let w = b.convert(ConvOp::Uextend, Type::I64, x);
    b.binary(BinaryOp::Iadd, w, x);
    b.ret(&[]);
    assert_rules(&b.finish(), &["operand-type-mismatch"]);
}

#[test]
fn param_of_block_outside_layout() {
    let mut b = FunctionBuilder::new("k", &[Type::I32]);
    let x = b.param(0);
    let ghost = b.create_block();
    let g = b.block_param(ghost, Type::I32);
    b.binary(BinaryOp::Iadd, g, x);
    b.ret(&[]);
    let mut f = b.finish();
    f.layout.retain(|&blk| blk != ghost);
    assert_rules(&f, &["value-undefined"]);
}
