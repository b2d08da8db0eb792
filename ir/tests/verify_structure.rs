//! Structural rules: blocks, terminators, placement, branch targets and
//! arguments, `return`.

mod verify_common;

use atomc_ir::verify::verify;
use atomc_ir::{AddrSpace, BinaryOp, Block, Function, FunctionBuilder, InstData, IntCC, SrcLoc, Type};
use cranelift_entity::EntityRef;
use verify_common::assert_rules;

/// A kernel `block0(v0: i32): return`.
fn trivial() -> FunctionBuilder {
    FunctionBuilder::new("k", &[Type::I32])
}

#[test]
fn no_blocks() {
    assert_rules(&Function::new("empty", vec![]), &["no-blocks"]);
}

#[test]
fn block_unknown_in_layout() {
    let mut b = trivial();
    b.ret(&[]);
    let mut f = b.finish();
    f.layout.push(Block::new(42));
    assert_rules(&f, &["block-unknown"]);
}

#[test]
fn only_unknown_blocks_means_no_blocks() {
    let mut f = Function::new("ghost", vec![]);
    f.layout.push(Block::new(3));
    assert_rules(&f, &["block-unknown", "no-blocks"]);
}

#[test]
fn block_layout_duplicate() {
    let mut b = trivial();
    b.ret(&[]);
    let mut f = b.finish();
    f.layout.push(f.layout[0]);
    assert_rules(&f, &["block-layout-duplicate"]);
}

#[test]
fn block_empty_reported_at_the_branch() {
    let mut b = trivial();
    let next = b.create_block();
    b.jump(next, &[]);
    let mut f = b.finish();
    let jump = f.blocks[f.layout[0]].insts[0];
    f.inst_locs[jump] = SrcLoc { line: 3, col: 5 };
    let diags = verify(&f).unwrap_err();
    assert_eq!(diags.len(), 1, "{diags:#?}");
    assert_eq!(diags[0].rule, "block-empty");
    assert_eq!(diags[0].loc, SrcLoc { line: 3, col: 5 });
    assert!(diags[0].message.contains("block1"), "{}", diags[0].message);
}

#[test]
fn block_missing_terminator() {
    let mut b = trivial();
    let x = b.param(0);
    b.binary(BinaryOp::Iadd, x, x);
    let f = b.finish();
    assert_rules(&f, &["block-missing-terminator"]);
    let msg = &verify(&f).unwrap_err()[0].message;
    assert!(msg.starts_with("`v1 = iadd v0, v0`: block0 does not end"), "{msg}");
}

#[test]
fn terminator_not_last() {
    let mut b = trivial();
    let x = b.param(0);
    b.ret(&[]);
    b.binary(BinaryOp::Iadd, x, x);
    b.ret(&[]);
    assert_rules(&b.finish(), &["terminator-not-last"]);
}

#[test]
fn inst_unknown() {
    let mut b = trivial();
    b.ret(&[]);
    let mut f = b.finish();
    let entry = f.layout[0];
    f.blocks[entry].insts.insert(0, atomc_ir::Inst::new(99));
    assert_rules(&f, &["inst-unknown"]);
}

#[test]
fn inst_listed_twice() {
    let mut b = trivial();
    let x = b.param(0);
    let next = b.create_block();
    b.binary(BinaryOp::Iadd, x, x);
    b.jump(next, &[]);
    b.switch_to_block(next);
    b.ret(&[]);
    let mut f = b.finish();
    let add = f.blocks[f.layout[0]].insts[0];
    f.blocks[next].insts.insert(0, add);
    assert_rules(&f, &["inst-multiple-placement"]);
}

#[test]
fn unplaced_instructions_are_dead_arena_entries() {
    let mut b = trivial();
    b.ret(&[]);
    let mut f = b.finish();
    f.make_inst(InstData::Barrier);
    assert_rules(&f, &[]);
}

#[test]
fn branch_target_unknown() {
    let mut b = trivial();
    b.jump(Block::new(7), &[]);
    assert_rules(&b.finish(), &["branch-target-unknown"]);
}

#[test]
fn branch_target_not_in_layout() {
    let mut b = trivial();
    let side = b.create_block();
    b.jump(side, &[]);
    b.switch_to_block(side);
    b.ret(&[]);
    let mut f = b.finish();
    f.layout.retain(|&blk| blk != side);
    assert_rules(&f, &["branch-target-not-in-layout"]);
}

#[test]
fn entry_block_branch_target() {
    let mut b = trivial();
    let x = b.param(0);
    let entry = b.current_block();
    let body = b.create_block();
    b.jump(body, &[]);
    b.switch_to_block(body);
    b.jump(entry, &[x]);
    assert_rules(&b.finish(), &["entry-block-branch-target"]);
}

#[test]
fn kernel_return_value() {
    let mut b = trivial();
    let x = b.param(0);
    b.ret(&[x]);
    assert_rules(&b.finish(), &["kernel-return-value"]);
}

#[test]
fn return_arity() {
    let mut b = FunctionBuilder::with_returns("f", &[Type::I32], &[Type::I32, Type::I32]);
    let x = b.param(0);
    b.ret(&[x]);
    assert_rules(&b.finish(), &["return-arity"]);
}

#[test]
fn return_type() {
    let mut b = FunctionBuilder::with_returns("f", &[Type::I32], &[Type::I64]);
    let x = b.param(0);
    b.ret(&[x]);
    assert_rules(&b.finish(), &["return-type"]);
}

#[test]
fn branch_arg_count() {
    let mut b = trivial();
    let x = b.param(0);
    let next = b.create_block();
    b.block_param(next, Type::I32);
    b.jump(next, &[x, x]);
    b.switch_to_block(next);
    b.ret(&[]);
    assert_rules(&b.finish(), &["branch-arg-count"]);
}

#[test]
fn branch_arg_type() {
    let mut b = trivial();
    let x = b.param(0);
    let c = b.icmp(IntCC::Eq, x, x);
    let (t, e) = (b.create_block(), b.create_block());
    b.block_param(t, Type::I64);
    b.block_param(e, Type::I32);
    b.brif(c, t, &[x], e, &[x]);
    b.switch_to_block(t);
    b.ret(&[]);
    b.switch_to_block(e);
    b.ret(&[]);
    assert_rules(&b.finish(), &["branch-arg-type"]);
}

#[test]
fn brif_cond_type() {
    let mut b = trivial();
    let x = b.param(0);
    let (t, e) = (b.create_block(), b.create_block());
    b.brif(x, t, &[], e, &[]);
    b.switch_to_block(t);
    b.ret(&[]);
    b.switch_to_block(e);
    b.ret(&[]);
    assert_rules(&b.finish(), &["brif-cond-type"]);
}

/// Every error is reported, not only the first.
#[test]
fn reports_all_errors() {
    let mut b = FunctionBuilder::new("many", &[Type::Ptr(AddrSpace::Global), Type::I32]);
    let (p, x) = (b.param(0), b.param(1));
    b.binary(BinaryOp::Fadd, x, x);
    b.binary(BinaryOp::Iadd, p, x);
    b.ret(&[x]);
    let want = ["float-op-type", "int-op-type", "kernel-return-value"];
    assert_rules(&b.finish(), &want);
}
