//! Block layout: allocated blocks in their final order with explicit terminators, so that
//! later passes (loop yields, reconvergence) can add blocks and redirect edges before the
//! code is flattened into one instruction list.

use atomc_lower::sass::{Flow, MOp, SassInst};
use atomc_lower::vcode::BlockId;
use atomc_regalloc::FinalCode;

/// How a block ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Term {
    /// No successor: the block ends in `EXIT` (or in an sm_50 `SYNC`, which continues wherever
    /// the matching `SSY` said).
    Stop,
    /// Continues at the block (a `BRA`, dropped when the block is laid out next).
    Jump(BlockId),
    /// `@P0 BRA then` (negated when `negate`), else continues at `else_block`.
    Cond { then_block: BlockId, else_block: BlockId, negate: bool },
}

impl Term {
    pub(crate) fn successors(&self) -> Vec<BlockId> {
        match *self {
            Term::Stop => vec![],
            Term::Jump(t) => vec![t],
            Term::Cond { then_block, else_block, .. } => vec![then_block, else_block],
        }
    }

    /// Replaces the edge to `from` by an edge to `to`.
    pub(crate) fn redirect(&mut self, from: BlockId, to: BlockId) {
        match self {
            Term::Stop => {}
            Term::Jump(t) => {
                if *t == from {
                    *t = to;
                }
            }
            Term::Cond { then_block, else_block, .. } => {
                if *then_block == from {
                    *then_block = to;
                }
                if *else_block == from {
                    *else_block = to;
                }
            }
        }
    }
}

/// An instruction of the layout: one of the allocated code's, borrowed (the code is not
/// copied, however large), or one the layout or reconvergence made.
#[derive(Debug)]
pub(crate) enum LInst<'a> {
    Code(&'a SassInst),
    Made(Box<SassInst>),
}

impl std::ops::Deref for LInst<'_> {
    type Target = SassInst;
    fn deref(&self) -> &SassInst {
        match self {
            LInst::Code(inst) => inst,
            LInst::Made(inst) => inst,
        }
    }
}

impl From<SassInst> for LInst<'_> {
    fn from(inst: SassInst) -> Self {
        LInst::Made(Box::new(inst))
    }
}

/// One block in layout order: its instructions without the branch, and how it ends.
#[derive(Debug)]
pub(crate) struct LBlock<'a> {
    pub id: BlockId,
    pub body: Vec<LInst<'a>>,
    pub term: Term,
}

/// The allocated blocks in their order, with blocks that are only `BRA X` threaded away (every
/// edge to one goes straight to X).
pub(crate) fn blocks(code: &FinalCode<SassInst>) -> Vec<LBlock<'_>> {
    let nblocks = code.blocks.len();
    let only_jump = |b: usize| -> Option<BlockId> {
        let r = &code.blocks[b];
        if r.end - r.start != 1 {
            return None;
        }
        let inst = &code.insts[r.start as usize];
        match (inst.flow, inst.ops.first()) {
            (Flow::Jump, Some(MOp::Label(t))) => Some(*t),
            _ => None,
        }
    };
    let resolve = |mut b: BlockId| {
        for _ in 0..nblocks {
            match only_jump(b.index()) {
                Some(t) if t != b => b = t,
                _ => break,
            }
        }
        b
    };
    let kept: Vec<usize> = (0..nblocks).filter(|&b| b == 0 || only_jump(b).is_none()).collect();
    let mut out = Vec::with_capacity(kept.len());
    for (k, &b) in kept.iter().enumerate() {
        let mut body = Vec::with_capacity(code.blocks[b].len());
        let mut term = None;
        for idx in code.blocks[b].clone() {
            let inst = &code.insts[idx as usize];
            match inst.flow {
                Flow::Jump => {
                    if let Some(MOp::Label(t)) = inst.ops.first() {
                        term = Some(Term::Jump(resolve(*t)));
                    }
                }
                Flow::CondJump { then_block, else_block, negate } => {
                    term =
                        Some(Term::Cond { then_block: resolve(then_block), else_block: resolve(else_block), negate });
                }
                Flow::Exit => {
                    body.push(LInst::Code(inst));
                    term = Some(Term::Stop);
                }
                Flow::None => body.push(LInst::Code(inst)),
            }
        }
        // A block without a branch falls into the next one.
        let term = term.unwrap_or_else(|| match kept.get(k + 1) {
            Some(&n) => Term::Jump(BlockId(n as u32)),
            None => Term::Stop,
        });
        out.push(LBlock { id: BlockId(b as u32), body, term });
    }
    out
}

/// One instruction after flattening, and whether it starts a block (a branch target).
pub(crate) struct Placed<'a> {
    pub inst: LInst<'a>,
    pub block_start: bool,
}

/// The blocks as one instruction list: branches to the next block are dropped, a conditional
/// branch whose taken side is next is inverted. Returns the list and each block's first
/// instruction index (indexed by block id).
pub(crate) fn flatten(blocks: Vec<LBlock<'_>>) -> (Vec<Placed<'_>>, Vec<Option<usize>>) {
    let max_id = blocks.iter().map(|b| b.id.index() + 1).max().unwrap_or(0);
    let mut first = vec![None; max_id];
    let mut placed = Vec::with_capacity(blocks.iter().map(|b| b.body.len() + 2).sum());
    let ids: Vec<BlockId> = blocks.iter().map(|b| b.id).collect();
    for (k, b) in blocks.into_iter().enumerate() {
        let next = ids.get(k + 1).copied();
        let start = placed.len();
        first[b.id.index()] = Some(start);
        placed.extend(b.body.into_iter().map(|inst| Placed { inst, block_start: false }));
        match b.term {
            Term::Stop => {}
            Term::Jump(t) => {
                if Some(t) != next {
                    placed.push(Placed { inst: SassInst::jump(t).into(), block_start: false });
                }
            }
            Term::Cond { then_block, else_block, negate } => {
                let (t, e, negate) = if Some(then_block) == next {
                    (else_block, then_block, !negate)
                } else {
                    (then_block, else_block, negate)
                };
                let mut br = SassInst::jump(t);
                br.guard = Some((0, negate));
                placed.push(Placed { inst: br.into(), block_start: false });
                if Some(e) != next {
                    placed.push(Placed { inst: SassInst::jump(e).into(), block_start: false });
                }
            }
        }
        if k > 0 {
            if let Some(p) = placed.get_mut(start) {
                p.block_start = true;
            }
        }
    }
    (placed, first)
}
