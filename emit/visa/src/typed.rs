//! Builders for the typed-surface messages `typed_atomic`, `resinfo`, `gather4_typed` and
//! `scatter4_typed`, and for `movs`, which points `%bss` at a bindless surface (record layouts in
//! [`super::inst`]'s table).

use super::inst::{AtomicOp, AtomicWidth, Channels, Ext, Inst, Op};
use super::kernel::{Kernel, Surf};
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
        surface: impl Into<Surf>,
        uvrl: [Operand; 4],
        src0: Operand,
        src1: Operand,
        dst: Operand,
    ) -> &mut Inst {
        let [u, v, r, lod] = uvrl;
        let ops = vec![Operand::Surface(surface.into()), u, v, r, lod, src0, src1, dst];
        self.push(Inst::new(Op::TypedAtomic, exec, Ext::Atomic(op, width), ops))
    }

    /// `resinfo.<channels> (exec) surface lod dst`: the surface's size at the
    /// lod, `exec size` lanes of each enabled channel one after the other in
    /// `dst` (INFO.md: R width, G height or array layers, B depth or layers).
    pub fn resinfo(
        &mut self,
        exec: Exec,
        channels: Channels,
        surface: impl Into<Surf>,
        lod: Operand,
        dst: Operand,
    ) -> &mut Inst {
        let ops = vec![Operand::Surface(surface.into()), lod, dst];
        self.push(Inst::new(Op::ResInfo, exec, Ext::Channels(channels), ops))
    }

    /// `movs (exec) surface(0) src`: the surface-state offset the following messages on
    /// `surface` (`%bss`) use, from a scalar `ud` (a `<0;1,0>` region or an immediate); exec
    /// `(M1_NM, 1)`, as IGC writes it.
    pub fn movs(&mut self, exec: Exec, surface: impl Into<Surf>, src: Operand) -> &mut Inst {
        self.push(Inst::new(Op::Movs, exec, Ext::None, vec![Operand::state(surface), src]))
    }

    /// `gather4_typed.<channels> (exec) surface u v r lod dst`: the enabled channels of the
    /// texels at per-lane coordinates (`ud`, or [`Operand::null`] past the surface's
    /// dimensions), each channel's lanes in a GRF of their own in `dst`, R first (GATHER4_TYPED.md;
    /// an out-of-range texel reads 0 in R, G and B).
    pub fn gather4_typed(
        &mut self,
        exec: Exec,
        channels: Channels,
        surface: impl Into<Surf>,
        uvrl: [Operand; 4],
        dst: Operand,
    ) -> &mut Inst {
        let [u, v, r, lod] = uvrl;
        let ops = vec![Operand::Surface(surface.into()), u, v, r, lod, dst];
        self.push(Inst::new(Op::Gather4Typed, exec, Ext::Channels(channels), ops))
    }

    /// `scatter4_typed.<channels> (exec) surface u v r lod src`: writes the enabled channels,
    /// laid out as [`Kernel::gather4_typed`] reads them (SCATTER4_TYPED.md; an out-of-range
    /// write is dropped).
    pub fn scatter4_typed(
        &mut self,
        exec: Exec,
        channels: Channels,
        surface: impl Into<Surf>,
        uvrl: [Operand; 4],
        src: Operand,
    ) -> &mut Inst {
        let [u, v, r, lod] = uvrl;
        let ops = vec![Operand::Surface(surface.into()), u, v, r, lod, src];
        self.push(Inst::new(Op::Scatter4Typed, exec, Ext::Channels(channels), ops))
    }
}
