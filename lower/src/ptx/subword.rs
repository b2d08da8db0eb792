//! 8- and 16-bit atomics PTX has no instruction for (every 8-bit op; 16-bit ones below sm_70,
//! where `atom.cas.b16` is missing): a compare-and-swap loop on the aligned 32-bit word that
//! holds the value.
//!
//! ```text
//!     a     = ptr + off                  // byte address
//!     wa    = a & ~3                     // its word
//!     sh    = (a & 3) * 8                // bit position inside the word (little endian)
//!     mask  = ((1 << w) - 1) << sh
//!     old   = ld [wa]
//! L:  sub   = old >> sh                  // the current value
//!     (CAS only: if sub != expected, stop: nothing is stored)
//!     new   = (old & ~mask) | ((f(sub) << sh) & mask)
//!     cur   = atom.cas [wa], old, new
//!     p     = cur != old;  old = cur;  @p bra L
//!     result = sub
//! ```
//! The neighbouring bytes are rewritten with the values the CAS proved current, so concurrent
//! atomics on them are not lost. The memory order is placed as in the full-width loop (release
//! side before the loop, qualifiers and acquire side on the CAS, acquire fence on the failure exit).

use super::memory::{acquire_fence, first_load, order_parts};
use super::regs::Class;
use super::{Emitter, PtxError};
use atomc_ir::{AddrSpace, Address, MemOrder, RmwOp, Scope, Type};

/// What the loop computes.
pub(super) enum SubwordOp<'r> {
    /// `new = op(old, x)`; `x` is the operand's register.
    Rmw(RmwOp, &'r str),
    /// Store `replacement` if the value equals `expected`.
    Cas { expected: &'r str, replacement: &'r str },
}

#[allow(clippy::too_many_arguments)]
pub(super) fn subword_loop(
    e: &mut Emitter<'_>,
    op: SubwordOp<'_>,
    ty: Type,
    order: MemOrder,
    scope: Scope,
    addr: Address,
    d: &str,
) -> Result<(), PtxError> {
    let width = ty.bits();
    let low_mask: u32 = if width == 8 { 0xFF } else { 0xFFFF };
    let space_kind = e.ty(addr.ptr).addr_space().unwrap_or(AddrSpace::Generic);
    let space = match space_kind {
        AddrSpace::Global => ".global",
        AddrSpace::Shared => ".shared",
        AddrSpace::Generic => "",
    };
    let mut p = e.reg(addr.ptr);
    if space_kind == AddrSpace::Shared {
        p = e.shared_address(&p);
    }

    // Word address and bit shift.
    let sh = e.regs.temp_class(Class::B32);
    let wa = if space_kind == AddrSpace::Shared {
        let a = e.regs.temp_class(Class::B32);
        let wa = e.regs.temp_class(Class::B32);
        e.line(format!("add.s32 {a}, {p}, {}", addr.offset));
        e.line(format!("and.b32 {sh}, {a}, 3"));
        e.line(format!("and.b32 {wa}, {a}, -4"));
        wa
    } else {
        let a = e.regs.temp_class(Class::B64);
        let wa = e.regs.temp_class(Class::B64);
        e.line(format!("add.s64 {a}, {p}, {}", addr.offset));
        e.line(format!("cvt.u32.u64 {sh}, {a}"));
        e.line(format!("and.b32 {sh}, {sh}, 3"));
        e.line(format!("and.b64 {wa}, {a}, -4"));
        wa
    };
    e.line(format!("shl.b32 {sh}, {sh}, 3"));
    let mask = e.regs.temp_class(Class::B32);
    let keep = e.regs.temp_class(Class::B32);
    e.line(format!("mov.b32 {mask}, {low_mask}"));
    e.line(format!("shl.b32 {mask}, {mask}, {sh}"));
    e.line(format!("not.b32 {keep}, {mask}"));

    let old = e.regs.temp_class(Class::B32);
    let cur = e.regs.temp_class(Class::B32);
    let sub = e.regs.temp_class(Class::B16);
    let wide = e.regs.temp_class(Class::B32);
    let retry = e.regs.temp_class(Class::Pred);
    // The release side goes before the loop: it then also covers a CAS that fails (and
    // `fence.sc` runs once, not per retry).
    let (pre, sem, post) = order_parts(e, order, scope);
    pre.into_iter().for_each(|l| e.line(l));
    let first = first_load(e, scope);
    e.line(format!("{first}{space}.b32 {old}, [{wa}]"));
    let top = e.new_label("sub");
    let done = e.new_label("subdone");
    let fail = e.new_label("subfail");
    e.label(&top);
    e.line(format!("shr.b32 {wide}, {old}, {sh}"));
    e.line(format!("cvt.u16.u32 {sub}, {wide}"));
    let new_sub = match op {
        SubwordOp::Rmw(rmw, x) => super::memory::rmw_compute(e, rmw, ty, &sub, x)?,
        SubwordOp::Cas { expected, replacement } => {
            let (a, b) = (e.regs.temp_class(Class::B16), e.regs.temp_class(Class::B16));
            let differs = e.regs.temp_class(Class::Pred);
            e.line(format!("and.b16 {a}, {sub}, {low_mask}"));
            e.line(format!("and.b16 {b}, {expected}, {low_mask}"));
            e.line(format!("setp.ne.b16 {differs}, {a}, {b}"));
            e.line(format!("@{differs} bra {fail}"));
            replacement.to_string()
        }
    };
    let new = e.regs.temp_class(Class::B32);
    e.line(format!("cvt.u32.u16 {wide}, {new_sub}"));
    e.line(format!("shl.b32 {wide}, {wide}, {sh}"));
    e.line(format!("and.b32 {wide}, {wide}, {mask}"));
    e.line(format!("and.b32 {new}, {old}, {keep}"));
    e.line(format!("or.b32 {new}, {new}, {wide}"));
    e.line(format!("atom{sem}{space}.cas.b32 {cur}, [{wa}], {old}, {new}"));
    post.into_iter().for_each(|l| e.line(l));
    e.line(format!("setp.ne.b32 {retry}, {cur}, {old}"));
    e.line(format!("mov.b32 {old}, {cur}"));
    e.line(format!("@{retry} bra {top}"));
    e.line(format!("bra.uni {done}"));
    // A CAS that fails without storing still has the order's acquire side.
    e.label(&fail);
    if order.acquires() {
        let fence = acquire_fence(e, scope);
        e.line(fence);
    }
    e.label(&done);
    e.line(format!("mov.b16 {d}, {sub}"));
    Ok(())
}
