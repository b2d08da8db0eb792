//! Builders for the shared-local-memory (SLM) messages and the barrier:
//! `dword_atomic`, `gather_scaled` and `scatter_scaled` on `%slm` (T0), and
//! `barrier`. Their record layouts are in [`super::inst`]'s table.

use super::inst::{AtomicOp, AtomicWidth, Ext, Inst, Op, EXEC1};
use super::kernel::Kernel;
use super::operand::Operand;
use super::types::Exec;

impl Kernel {
    /// `dword_atomic.<op>[.16] (exec) %slm offsets src0 src1 dst`: an atomic
    /// on SLM at the per-lane byte offsets (`ud`). Pass [`Operand::null`] for
    /// unused operands; `width` is 32 or 16 bits (no `.64` on SLM).
    #[allow(clippy::too_many_arguments)]
    pub fn dword_atomic(
        &mut self,
        exec: Exec,
        op: AtomicOp,
        width: AtomicWidth,
        offsets: Operand,
        dst: Operand,
        src0: Operand,
        src1: Operand,
    ) -> &mut Inst {
        self.push(Inst::new(Op::DwordAtomic, exec, Ext::Atomic(op, width), vec![offsets, src0, src1, dst]))
    }

    /// `gather_scaled.<bytes> (exec) %slm base offsets dst`: per lane, `bytes`
    /// (1, 2 or 4) bytes from SLM at `base + offsets[lane]`; `base` is a
    /// scalar `ud` source (an immediate or a `<0;1,0>` region).
    pub fn gather_scaled(&mut self, exec: Exec, bytes: u8, base: Operand, offsets: Operand, dst: Operand) -> &mut Inst {
        self.push(Inst::new(Op::GatherScaled, exec, Ext::Scaled(bytes), vec![base, offsets, dst]))
    }

    /// `scatter_scaled.<bytes> (exec) %slm base offsets src`: per-lane stores.
    pub fn scatter_scaled(
        &mut self,
        exec: Exec,
        bytes: u8,
        base: Operand,
        offsets: Operand,
        src: Operand,
    ) -> &mut Inst {
        self.push(Inst::new(Op::ScatterScaled, exec, Ext::Scaled(bytes), vec![base, offsets, src]))
    }

    /// `barrier`: every thread of the thread group waits here for the others.
    pub fn barrier(&mut self) -> &mut Inst {
        self.push(Inst::new(Op::Barrier, EXEC1, Ext::None, vec![]))
    }
}
