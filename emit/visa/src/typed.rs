//! Builder for the typed-surface message `typed_atomic` (record layout in
//! [`super::inst`]'s table).

use super::inst::{AtomicOp, AtomicWidth, Ext, Inst, Op};
use super::kernel::{Kernel, SurfId};
use super::operand::Operand;
use super::types::Exec;

impl Kernel {
    /// `typed_atomic.<op>[.16] (exec) surface u v r lod src0 src1 dst`: an
    /// atomic on a typed surface at per-lane texel coordinates (`ud`, or
    /// [`Operand::null`] past the surface's dimensions). Pass
    /// [`Operand::null`] for unused data operands.
    #[allow(clippy::too_many_arguments)]
    pub fn typed_atomic(
        &mut self,
        exec: Exec,
        op: AtomicOp,
        width: AtomicWidth,
        surface: SurfId,
        uvrl: [Operand; 4],
        src0: Operand,
        src1: Operand,
        dst: Operand,
    ) -> &mut Inst {
        let [u, v, r, lod] = uvrl;
        let ops = vec![Operand::Surface(surface), u, v, r, lod, src0, src1, dst];
        self.push(Inst::new(Op::TypedAtomic, exec, Ext::Atomic(op, width), ops))
    }
}
