//! The verifier never panics: functions built in code with out-of-range
//! entity references, broken value records and scrambled layouts all come
//! back as diagnostics. Also checks the public dominator tree.

use atomc_ir::verify::dominators::{successors, DominatorTree};
use atomc_ir::verify::verify;
use atomc_ir::{
    AddrSpace, BinaryOp, Block, Function, FunctionBuilder, Inst, InstData, IntCC, MemOrder, RmwOp, Scope,
    SurfaceAccess, SurfaceAddressing, SurfaceClamp, SurfaceDim, SurfaceRef, Type, Value, ValueDef,
};
use cranelift_entity::EntityRef;

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// A valid kernel with a loop, a diamond, atomics and a surface atomic.
fn sample() -> Function {
    let mut b = FunctionBuilder::new("sample", &[Type::Ptr(AddrSpace::Global), Type::I32, Type::Surface]);
    let (p, n, h) = (b.param(0), b.param(1), b.param(2));
    let (head, body, exit) = (b.create_block(), b.create_block(), b.create_block());
    let i = b.block_param(head, Type::I32);
    let zero = b.iconst(Type::I32, 0);
    b.jump(head, &[zero]);
    b.switch_to_block(head);
    let c = b.icmp(IntCC::Ult, i, n);
    b.brif(c, body, &[], exit, &[]);
    b.switch_to_block(body);
    let old = b.atomic_rmw(RmwOp::Add, Type::I32, MemOrder::Relaxed, Scope::Gpu, p, 4, i);
    let acc = SurfaceAccess {
        dim: SurfaceDim::D2,
        addressing: SurfaceAddressing::Bytes,
        clamp: SurfaceClamp::Ign,
        surface: SurfaceRef::Handle(h),
    };
    b.surface_rmw(RmwOp::Umax, Type::I32, MemOrder::AcqRel, Scope::Gpu, acc, &[i, old], old);
    let one = b.iconst(Type::I32, 1);
    let next = b.binary(BinaryOp::Iadd, i, one);
    b.jump(head, &[next]);
    b.switch_to_block(exit);
    b.fence(MemOrder::SeqCst, Scope::Sys);
    b.ret(&[]);
    b.finish()
}

/// Applies one random corruption to `f`.
fn corrupt(f: &mut Function, rng: &mut Rng) {
    let nv = f.values.len() + 3;
    let nb = f.blocks.len() + 2;
    let ni = f.insts.len() + 2;
    let inst = Inst::new(rng.below(f.insts.len()));
    match rng.below(12) {
        0 => {
            let target = rng.below(nv);
            let which = rng.below(4);
            let mut k = 0;
            if let Some(data) = f.insts.get_mut(inst) {
                data.map_args(|v| {
                    k += 1;
                    if k % 4 == which {
                        Value::new(target)
                    } else {
                        v
                    }
                });
            }
        }
        1 => {
            let target = Block::new(rng.below(nb));
            if let Some(data) = f.insts.get_mut(inst) {
                if let Some(call) = data.branch_targets_mut().into_iter().next() {
                    call.block = target;
                }
            }
        }
        2 => {
            let b = Block::new(rng.below(f.blocks.len()));
            let pos = rng.below(f.blocks[b].insts.len() + 1);
            f.blocks[b].insts.insert(pos, Inst::new(rng.below(ni)));
        }
        3 => {
            let b = Block::new(rng.below(f.blocks.len()));
            if !f.blocks[b].insts.is_empty() {
                let pos = rng.below(f.blocks[b].insts.len());
                f.blocks[b].insts.remove(pos);
            }
        }
        4 => {
            if !f.layout.is_empty() {
                let pos = rng.below(f.layout.len());
                f.layout[pos] = Block::new(rng.below(nb));
            }
        }
        5 => {
            let pos = rng.below(f.layout.len() + 1);
            f.layout.truncate(pos);
        }
        6 => f.results[inst] = if rng.below(2) == 0 { None } else { Some(Value::new(rng.below(nv))) },
        7 => {
            let v = Value::new(rng.below(f.values.len()));
            f.values[v].def = if rng.below(2) == 0 {
                ValueDef::Result(Inst::new(rng.below(ni)))
            } else {
                ValueDef::Param(Block::new(rng.below(nb)), rng.below(3))
            };
        }
        8 => {
            let v = Value::new(rng.below(f.values.len()));
            f.values[v].ty = Type::ALL[rng.below(Type::ALL.len())];
        }
        9 => {
            let b = Block::new(rng.below(f.blocks.len()));
            f.blocks[b].params.push(Value::new(rng.below(nv)));
        }
        10 => {
            if let Some(data) = f.insts.get_mut(inst) {
                if let InstData::SurfaceRmw { access, coords, .. } = data {
                    access.surface = SurfaceRef::Handle(Value::new(rng.below(nv)));
                    coords.push(Value::new(rng.below(nv)));
                }
                if let InstData::AtomicRmw { addr, ty, .. } = data {
                    addr.offset = rng.next() as i32;
                    *ty = Type::ALL[rng.below(Type::ALL.len())];
                }
            }
        }
        _ => {
            let a = rng.below(f.layout.len().max(1));
            let b = rng.below(f.layout.len().max(1));
            if a < f.layout.len() && b < f.layout.len() {
                f.layout.swap(a, b);
            }
        }
    }
}

#[test]
fn random_corruptions_never_panic() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut rejected = 0;
    for _ in 0..3000 {
        let mut f = sample();
        for _ in 0..1 + rng.below(4) {
            corrupt(&mut f, &mut rng);
        }
        if let Err(diags) = verify(&f) {
            rejected += 1;
            assert!(diags.iter().all(|d| !d.rule.is_empty() && !d.message.is_empty()));
        }
        let tree = DominatorTree::compute(&f);
        for &b in tree.rpo() {
            assert!(tree.dominates(tree.rpo()[0], b));
        }
    }
    assert!(rejected > 1000, "only {rejected} corrupted functions were rejected");
}

#[test]
fn sample_is_valid() {
    assert_eq!(verify(&sample()), Ok(()));
}

#[test]
fn empty_block_list_in_layout_and_missing_inst_data() {
    let mut f = Function::new("f", vec![Type::I32]);
    let b = f.create_block();
    f.blocks[b].insts.push(Inst::new(0));
    f.blocks[b].params.push(Value::new(5));
    let diags = verify(&f).unwrap_err();
    let rules: Vec<&str> = diags.iter().map(|d| d.rule).collect();
    assert_eq!(rules, ["inst-unknown", "value-def-mismatch"], "{diags:#?}");
}

#[test]
fn dominator_tree_of_a_loop_and_a_diamond() {
    let f = sample();
    let tree = DominatorTree::compute(&f);
    let [b0, head, body, exit] = [0, 1, 2, 3].map(Block::new);
    assert_eq!(tree.rpo()[0], b0);
    assert_eq!(tree.rpo().len(), 4);
    assert_eq!(tree.idom(b0), None);
    assert_eq!(tree.idom(head), Some(b0));
    assert_eq!(tree.idom(body), Some(head));
    assert_eq!(tree.idom(exit), Some(head));
    assert!(tree.dominates(head, exit));
    assert!(!tree.dominates(body, exit));
    assert!(!tree.dominates(body, head));
    assert_eq!(tree.preds(head), &[b0, body]);
    assert_eq!(successors(&f, head).as_slice(), &[body, exit]);

    let mut b = FunctionBuilder::new("d", &[Type::Pred]);
    let c = b.param(0);
    let (l, r, j, dead) = (b.create_block(), b.create_block(), b.create_block(), b.create_block());
    b.brif(c, l, &[], r, &[]);
    for arm in [l, r] {
        b.switch_to_block(arm);
        b.jump(j, &[]);
    }
    b.switch_to_block(j);
    b.ret(&[]);
    b.switch_to_block(dead);
    b.jump(j, &[]);
    let f = b.finish();
    let tree = DominatorTree::compute(&f);
    assert_eq!(tree.idom(j), Some(Block::new(0)));
    assert!(!tree.is_reachable(dead));
    assert!(!tree.dominates(dead, dead));
    assert_eq!(tree.preds(j).len(), 2);
    assert_eq!(verify(&f), Ok(()));
}
