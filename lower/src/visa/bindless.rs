//! Bindless surfaces: a surface atomic on a handle (`SurfaceRef::Handle`) runs its messages on
//! `%bss`, the predefined bindless surface (T4), after a `movs` has written the handle's low
//! word, the surface's bindless surface-state offset, into `%bss(0)`. The handle's upper 32
//! bits are ignored (the SASS backends also name a surface by the low word).
//!
//! * uniform handle (every lane holds the same one): one `movs (M1_NM, 1) %bss(0) H` before
//!   the access, as IGC emits for a uniform bindless resource;
//! * varying handle: `movs` takes one scalar, so a loop over the distinct low words (IGC's
//!   "resource loop"): take the smallest low word among the lanes still enabled (a `min` tree
//!   over the lanes, as the subgroup reductions do), `movs` it, send the lanes whose handle
//!   differs forward to the end of the body with a SIMD `goto`, run the access in the others,
//!   and close the loop with a backward `goto` on the same predicate: the served lanes wait
//!   after it, the rest go round again with one handle fewer. Every round serves at least the
//!   lane that supplied the minimum, so the loop runs once per distinct handle.
//!
//! GenX_IR 1.0.12504 (TGLLP, DG2, PVC) turns the `movs` into a write of the address register
//! `a0.0` and the message into a `send` with binding-table index 252 (0xFC) whose extended
//! descriptor comes from `a0.0`: on TGLLP `add (1) a0.0 H 0x4C` for `typed_atomic` (0x4C: the
//! data port's SFID 0xC and source-1 length 1 in bits 6-10, added to the handle, so a handle's
//! low 11 bits must be clear; GenX_IR annotates the send `wr:1+a0.0[10:6]`) and
//! `add (1) a0.0 H 0x2` for `resinfo`'s sampler message; on DG2 and PVC `mov (1) a0.0 H` and
//! the send marked `ExBSO` (extended bindless surface offset). The low word is passed through
//! unchanged, unchecked. Tests: `tests/visa_oracle.rs` (filetest
//! `visa/surface-bindless.atom`), `tests/visa_differential.rs`.

use atomc_ir::{Inst, Value};

use super::{Lower, LowerError};
use atomc_visa::{Exec, ExecSize, Op, Operand, Predicate, Relop, Surf, SurfId, Type};

/// The surface an access names, after the checks of [`super::surface::prepare`].
#[derive(Clone, Copy, Debug)]
pub(super) enum Target {
    /// A bound slot's surface argument.
    Bound(SurfId),
    /// A bindless handle (a `surface` value).
    Bindless(Value),
}

/// Emits `body` (the access, its coordinates and messages) once on the surface `target` names:
/// directly for a bound slot, after a `movs` for a uniform handle, inside the resource loop for
/// a varying one (see the module comment). `body` is emitted once in every case.
pub(super) fn on_surface<'a>(
    l: &mut Lower<'a>,
    inst: Inst,
    target: Target,
    body: impl FnOnce(&mut Lower<'a>, Surf) -> Result<(), LowerError>,
) -> Result<(), LowerError> {
    let h = match target {
        Target::Bound(t) => return body(l, Surf::User(t)),
        Target::Bindless(h) => h,
    };
    // The low word of the 64-bit handle: scalar when uniform, every other dword when varying.
    let lo = l.half(h, false, Type::UD)?;
    let one = Exec::nomask(ExecSize::S1);
    if l.is_uniform(h) {
        l.k.movs(one, Surf::Bss, lo);
        return body(l, Surf::Bss);
    }
    // Blocks with a varying handle are never if-converted (`cfg::find_if_conversions`): the
    // minimum would be taken over lanes the guard leaves out. This is the backstop.
    if l.guard.is_some() {
        return Err(l.reject(inst, "a varying bindless handle in an if-converted block"));
    }
    let ex = Exec::new(l.simd);
    let name = l.tmp_name("bss_loop");
    let top = l.k.label(name);
    let name = l.tmp_name("bss_next");
    let next = l.k.label(name);
    l.k.place(top);
    let min = l.tmp(Type::UD, false);
    l.lane_tree(min, Op::Min, u32::MAX, lo);
    let chosen = Operand::scalar(min);
    l.k.movs(one, Surf::Bss, chosen);
    let other = l.tmp_pred();
    l.k.cmp(ex, Relop::Ne, Operand::pred(other), lo, chosen);
    l.k.goto(ex, next).predicated(Predicate::on(other));
    body(l, Surf::Bss)?;
    l.k.place(next);
    l.k.goto(ex, top).predicated(Predicate::on(other));
    Ok(())
}
