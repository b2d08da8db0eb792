//! Loads, stores, atomics and fences (surface atomics: `surface.rs`; 8/16-bit loops: `subword.rs`).
//!
//! Orders and scopes (per target generation):
//!
//! | IR order | sm_70+ atom/cas | below sm_70 |
//! | --- | --- | --- |
//! | relaxed | `atom.relaxed.<scope>` | `atom` |
//! | acquire | `atom.acquire.<scope>` | `atom`, then `membar` |
//! | release | `atom.release.<scope>` | `membar`, then `atom` |
//! | acq_rel | `atom.acq_rel.<scope>` | `membar`, `atom`, `membar` |
//! | seq_cst | `fence.sc.<scope>`, `atom.acquire.<scope>` | as acq_rel |
//!
//! `membar.cta|gl|sys` follows the scope. From sm_60 the atom carries `.cta|.gpu|.sys`; below it,
//! `atom` is device-scope, so `cta` is widened (safe) and `sys` read-modify-writes are rejected.

use super::regs::{bit_type, class_of, int_type, mem_type, reg_bits, Class};
use super::subword::{subword_loop, SubwordOp};
use super::{Emitter, PtxError};
use atomc_ir::{AddrSpace, Address, InstData, MemOrder, RmwOp, Scope, Type, Value};

pub(super) fn inst(e: &mut Emitter<'_>, data: &InstData, result: Option<Value>) -> Result<(), PtxError> {
    match data {
        InstData::Load { ty, addr } => {
            let d = result_reg(e, result)?;
            let (space, a) = address(e, *addr);
            let mt = mem(e, *ty, "load")?;
            e.line(format!("ld{space}{mt} {d}, {a}"));
        }
        InstData::Store { value, addr } => {
            let ty = e.ty(*value);
            let v = e.reg(*value);
            let (space, a) = address(e, *addr);
            let mt = mem(e, ty, "store")?;
            e.line(format!("st{space}{mt} {a}, {v}"));
        }
        InstData::AtomicLoad { ty, order, scope, addr } => {
            let d = result_reg(e, result)?;
            let (space, a) = address(e, *addr);
            let mt = mem(e, *ty, "atomic_load")?;
            if e.sm >= 70 {
                let sem = if *order == MemOrder::Relaxed {
                    "relaxed"
                } else {
                    "acquire"
                };
                if *order == MemOrder::SeqCst {
                    e.line(format!("fence.sc{}", scope_name(*scope)));
                }
                e.line(format!("ld.{sem}{}{space}{mt} {d}, {a}", scope_name(*scope)));
            } else {
                e.line(format!("ld.volatile{space}{mt} {d}, {a}"));
                if order.acquires() {
                    e.line(membar(*scope));
                }
            }
        }
        InstData::AtomicStore {
            ty,
            order,
            scope,
            addr,
            value,
        } => {
            let v = e.reg(*value);
            let (space, a) = address(e, *addr);
            let mt = mem(e, *ty, "atomic_store")?;
            if e.sm >= 70 {
                let sem = match order {
                    MemOrder::Release => "release",
                    _ => "relaxed",
                };
                if *order == MemOrder::SeqCst {
                    e.line(format!("fence.sc{}", scope_name(*scope)));
                }
                e.line(format!("st.{sem}{}{space}{mt} {a}, {v}", scope_name(*scope)));
            } else {
                if order.releases() {
                    e.line(membar(*scope));
                }
                e.line(format!("st.volatile{space}{mt} {a}, {v}"));
            }
        }
        InstData::Fence { order, scope } => {
            if e.sm >= 70 {
                let sem = if *order == MemOrder::SeqCst { "sc" } else { "acq_rel" };
                e.line(format!("fence.{sem}{}", scope_name(*scope)));
            } else {
                e.line(membar(*scope));
            }
        }
        InstData::AtomicRmw {
            op,
            ty,
            order,
            scope,
            addr,
            arg,
        } => {
            let d = result_reg(e, result)?;
            let what = format!("atomic_rmw.{ty} {} {order} {scope}", op.name());
            let (space, a) = address(e, *addr);
            let x = e.reg(*arg);
            check_scope(e, *scope, &what)?;
            // `fsub` is `fadd` of the negation, exactly (as the legalizer rewrites it for SASS).
            let (op, x) = if *op == RmwOp::Fsub { (&RmwOp::Fadd, sign_flipped(e, *ty, &x)) } else { (op, x) };
            match native_rmw(e, *op, *ty) {
                Some((opname, ptx_ty)) => {
                    let x = if *op == RmwOp::Sub {
                        let t = e.regs.temp(*ty);
                        e.line(format!("neg{} {t}, {x}", int_type(reg_bits(*ty), true)));
                        t
                    } else {
                        x
                    };
                    let (pre, sem, post) = order_parts(e, *order, *scope);
                    pre.into_iter().for_each(|l| e.line(l));
                    e.line(format!("atom{sem}{space}.{opname}{ptx_ty} {d}, {a}, {x}"));
                    post.into_iter().for_each(|l| e.line(l));
                }
                None if needs_subword_loop(e, *ty) => {
                    subword_loop(e, SubwordOp::Rmw(*op, &x), *ty, *order, *scope, *addr, &d)?
                }
                None => cas_loop(e, &what, *op, *ty, *order, *scope, (&space, &a), &x, &d)?,
            }
        }
        InstData::AtomicCas {
            ty,
            order,
            scope,
            addr,
            expected,
            replacement,
        } => {
            let d = result_reg(e, result)?;
            let what = format!("atomic_cas.{ty} {order} {scope}");
            check_scope(e, *scope, &what)?;
            let (x, y) = (e.reg(*expected), e.reg(*replacement));
            if needs_subword_loop(e, *ty) {
                let op = SubwordOp::Cas {
                    expected: &x,
                    replacement: &y,
                };
                return subword_loop(e, op, *ty, *order, *scope, *addr, &d);
            }
            let width = cas_width(e, *ty, &what)?;
            let (space, a) = address(e, *addr);
            let (pre, sem, post) = order_parts(e, *order, *scope);
            pre.into_iter().for_each(|l| e.line(l));
            e.line(format!("atom{sem}{space}.cas.b{width} {d}, {a}, {x}, {y}"));
            post.into_iter().for_each(|l| e.line(l));
        }
        InstData::SurfaceRmw {
            op,
            ty,
            order,
            scope,
            access,
            coords,
            arg,
        } => {
            let what = format!("surface_rmw.{ty} {} {}", op.name(), access.dim.name());
            if result.is_some_and(|r| super::surface::value_is_used(e, r)) {
                return Err(e.unsupported(
                    what,
                    "PTX has no surface atomic that returns the old value (only `sured`, a reduction); \
                     the result must be unused",
                ));
            }
            super::surface::reduction(e, &what, *op, *ty, *order, *scope, access, coords, *arg)?;
        }
        InstData::SurfaceCas { ty, access, .. } => {
            return Err(e.unsupported(
                format!("surface_cas.{ty} {}", access.dim.name()),
                "PTX has no surface compare-and-swap (`sured` supports add, min, max, and, or only)",
            ));
        }
        other => {
            return Err(PtxError::Invalid(format!(
                "{} reached the memory path",
                other.opcode_name()
            )))
        }
    }
    Ok(())
}

fn result_reg(e: &mut Emitter<'_>, result: Option<Value>) -> Result<String, PtxError> {
    match result {
        Some(v) => Ok(e.reg(v)),
        None => Err(PtxError::Invalid("a memory read without a result value".into())),
    }
}

fn mem(e: &Emitter<'_>, ty: Type, what: &str) -> Result<&'static str, PtxError> {
    mem_type(ty).ok_or_else(|| e.unsupported(format!("{what}.{ty}"), "pred values have no memory form"))
}

/// `.global` / `.shared` / `` (generic) and the `[reg+off]` operand.
fn address(e: &mut Emitter<'_>, addr: Address) -> (String, String) {
    let space = match e.ty(addr.ptr).addr_space() {
        Some(AddrSpace::Global) => ".global",
        Some(AddrSpace::Shared) => ".shared",
        _ => "",
    };
    let mut p = e.reg(addr.ptr);
    if e.ty(addr.ptr).addr_space() == Some(AddrSpace::Shared) {
        p = e.shared_address(&p);
    }
    let a = if addr.offset == 0 {
        format!("[{p}]")
    } else {
        format!("[{p}+{}]", addr.offset)
    };
    (space.to_string(), a)
}

pub(super) fn scope_name(scope: Scope) -> &'static str {
    match scope {
        Scope::Cta => ".cta",
        Scope::Gpu => ".gpu",
        Scope::Sys => ".sys",
    }
}

pub(super) fn membar(scope: Scope) -> &'static str {
    match scope {
        Scope::Cta => "membar.cta",
        Scope::Gpu => "membar.gl",
        Scope::Sys => "membar.sys",
    }
}

fn check_scope(e: &Emitter<'_>, scope: Scope, what: &str) -> Result<(), PtxError> {
    if scope == Scope::Sys && e.sm < 60 {
        return Err(e.unsupported(what, "PTX `atom.sys` needs sm_60; below it `atom` is device-scope only"));
    }
    Ok(())
}

/// The fence lines before the atom, the qualifiers on it (`.acq_rel.gpu`), and the fence lines
/// after it, for an order and scope on this target.
pub(super) fn order_parts(e: &Emitter<'_>, order: MemOrder, scope: Scope) -> (Vec<String>, String, Vec<String>) {
    if e.sm >= 70 {
        let (pre, sem) = match order {
            MemOrder::Relaxed => (vec![], "relaxed"),
            MemOrder::Acquire => (vec![], "acquire"),
            MemOrder::Release => (vec![], "release"),
            MemOrder::AcqRel => (vec![], "acq_rel"),
            MemOrder::SeqCst => (vec![format!("fence.sc{}", scope_name(scope))], "acquire"),
        };
        return (pre, format!(".{sem}{}", scope_name(scope)), vec![]);
    }
    let qual = if e.sm >= 60 {
        scope_name(scope).to_string()
    } else {
        String::new()
    };
    let pre = if order.releases() {
        vec![membar(scope).to_string()]
    } else {
        vec![]
    };
    let post = if order.acquires() {
        vec![membar(scope).to_string()]
    } else {
        vec![]
    };
    (pre, qual, post)
}

/// The PTX `atom` op and type for an IR read-modify-write, if PTX has it on this target.
fn native_rmw(e: &Emitter<'_>, op: RmwOp, ty: Type) -> Option<(&'static str, &'static str)> {
    let sm = e.sm;
    let w = ty.bits();
    let int = ty.is_int() && (w == 32 || w == 64);
    Some(match op {
        RmwOp::Add | RmwOp::Sub if int => ("add", if w == 32 { ".u32" } else { ".u64" }),
        RmwOp::And if int => ("and", if w == 32 { ".b32" } else { ".b64" }),
        RmwOp::Or if int => ("or", if w == 32 { ".b32" } else { ".b64" }),
        RmwOp::Xor if int => ("xor", if w == 32 { ".b32" } else { ".b64" }),
        RmwOp::Xchg if w == 32 || w == 64 => ("exch", if w == 32 { ".b32" } else { ".b64" }),
        RmwOp::Smin if int => ("min", if w == 32 { ".s32" } else { ".s64" }),
        RmwOp::Smax if int => ("max", if w == 32 { ".s32" } else { ".s64" }),
        RmwOp::Umin if int => ("min", if w == 32 { ".u32" } else { ".u64" }),
        RmwOp::Umax if int => ("max", if w == 32 { ".u32" } else { ".u64" }),
        RmwOp::IncWrap if ty == Type::I32 => ("inc", ".u32"),
        RmwOp::DecWrap if ty == Type::I32 => ("dec", ".u32"),
        RmwOp::Fadd => match ty {
            Type::F32 => ("add", ".f32"),
            Type::F64 if sm >= 60 => ("add", ".f64"),
            Type::F16x2 if sm >= 60 => ("add.noftz", ".f16x2"),
            Type::F16 if sm >= 70 => ("add.noftz", ".f16"),
            Type::BF16x2 if sm >= 90 => ("add.noftz", ".bf16x2"),
            _ => return None,
        },
        _ => return None,
    })
}

/// Whether an atomic on this type needs the word-sized loop of `subword.rs`: 8-bit always,
/// 16-bit below sm_70 (no `atom.cas.b16`).
fn needs_subword_loop(e: &Emitter<'_>, ty: Type) -> bool {
    ty.bits() == 8 || (ty.bits() == 16 && e.sm < 70)
}

/// The `atom.cas` width for a type, or an error naming the instruction when PTX has none here.
fn cas_width(e: &Emitter<'_>, ty: Type, what: &str) -> Result<u32, PtxError> {
    match ty.bits() {
        32 | 64 => Ok(ty.bits()),
        16 if e.sm >= 70 => Ok(16),
        16 => Err(e.unsupported(what, "PTX `atom.cas.b16` needs sm_70, and no other 16-bit atom exists")),
        _ => Err(e.unsupported(what, "PTX has no 8-bit atomics")),
    }
}

/// A read-modify-write PTX lacks, as a compare-and-swap loop on the location:
///
/// ```text
///     ld.relaxed|volatile  old, [a]        // first guess; the CAS checks it
/// L:  new = op(old, x)
///     atom.cas             cur, [a], old, new
///     setp.ne              p, cur, old
///     mov                  old, cur
///     @p bra L
/// ```
/// The result is the last `old`. The order's release side (fence) comes before the loop, its
/// qualifiers and acquire side go with the CAS.
#[allow(clippy::too_many_arguments)]
fn cas_loop(
    e: &mut Emitter<'_>,
    what: &str,
    op: RmwOp,
    ty: Type,
    order: MemOrder,
    scope: Scope,
    (space, a): (&str, &str),
    x: &str,
    d: &str,
) -> Result<(), PtxError> {
    let width = cas_width(e, ty, what)?;
    let bits = Class::bits(width);
    let bt = format!(".b{width}");
    let old = e.regs.temp_class(bits);
    let cur = e.regs.temp_class(bits);
    let xb = e.regs.temp_class(bits);
    let p = e.regs.temp_class(Class::Pred);
    e.line(format!("mov{bt} {xb}, {x}"));
    // The release side goes before the loop: it then also covers a CAS that fails (and
    // `fence.sc` runs once, not per retry).
    let (pre, sem, post) = order_parts(e, order, scope);
    pre.into_iter().for_each(|l| e.line(l));
    let first = first_load(e, scope);
    e.line(format!("{first}{space}{bt} {old}, {a}"));
    let top = e.new_label("cas");
    e.label(&top);
    let new = rmw_compute(e, op, ty, &old, &xb)?;
    e.line(format!("atom{sem}{space}.cas{bt} {cur}, {a}, {old}, {new}"));
    post.into_iter().for_each(|l| e.line(l));
    e.line(format!("setp.ne{bt} {p}, {cur}, {old}"));
    e.line(format!("mov{bt} {old}, {cur}"));
    e.line(format!("@{p} bra {top}"));
    e.line(format!("mov{} {d}, {old}", bit_type(reg_bits(ty))));
    Ok(())
}

/// The load that fetches a CAS loop's first guess: relaxed at the scope (sm_70+) or volatile.
pub(super) fn first_load(e: &Emitter<'_>, scope: Scope) -> String {
    if e.sm >= 70 {
        format!("ld.relaxed{}", scope_name(scope))
    } else {
        "ld.volatile".into()
    }
}

/// A fence with (at least) acquire effect at the scope.
pub(super) fn acquire_fence(e: &Emitter<'_>, scope: Scope) -> String {
    if e.sm >= 70 {
        format!("fence.acq_rel{}", scope_name(scope))
    } else {
        membar(scope).to_string()
    }
}

/// `op(old, x)` on raw bit registers of the type's width; returns the register holding `new`.
pub(super) fn rmw_compute(e: &mut Emitter<'_>, op: RmwOp, ty: Type, old: &str, x: &str) -> Result<String, PtxError> {
    let width = reg_bits(ty);
    let new = e.regs.temp_class(Class::bits(width));
    let s = int_type(width, true);
    let u = int_type(width, false);
    let bt = bit_type(width);
    // An 8-bit value sits in a 16-bit register with an unspecified upper byte: extend it
    // before the ops that read those bits.
    let (old, x) = match op {
        RmwOp::Smin | RmwOp::Smax | RmwOp::Umin | RmwOp::Umax if ty == Type::I8 => {
            let k = if matches!(op, RmwOp::Smin | RmwOp::Smax) {
                's'
            } else {
                'u'
            };
            let (a, b) = (e.regs.temp_class(Class::B16), e.regs.temp_class(Class::B16));
            e.line(format!("cvt.{k}16.{k}8 {a}, {old}"));
            e.line(format!("cvt.{k}16.{k}8 {b}, {x}"));
            (a, b)
        }
        _ => (old.to_string(), x.to_string()),
    };
    let (old, x) = (old.as_str(), x.as_str());
    match (op, ty) {
        (RmwOp::Add, _) => e.line(format!("add{s} {new}, {old}, {x}")),
        (RmwOp::Sub, _) => e.line(format!("sub{s} {new}, {old}, {x}")),
        (RmwOp::And, _) => e.line(format!("and{bt} {new}, {old}, {x}")),
        (RmwOp::Nand, _) => {
            e.line(format!("and{bt} {new}, {old}, {x}"));
            e.line(format!("not{bt} {new}, {new}"));
        }
        (RmwOp::Or, _) => e.line(format!("or{bt} {new}, {old}, {x}")),
        (RmwOp::Xor, _) => e.line(format!("xor{bt} {new}, {old}, {x}")),
        (RmwOp::Xchg, _) => e.line(format!("mov{bt} {new}, {x}")),
        (RmwOp::Smin, _) => e.line(format!("min{s} {new}, {old}, {x}")),
        (RmwOp::Smax, _) => e.line(format!("max{s} {new}, {old}, {x}")),
        (RmwOp::Umin, _) => e.line(format!("min{u} {new}, {old}, {x}")),
        (RmwOp::Umax, _) => e.line(format!("max{u} {new}, {old}, {x}")),
        (RmwOp::IncWrap, _) => {
            let p = e.regs.temp_class(Class::Pred);
            e.line(format!("setp.ge{u} {p}, {old}, {x}"));
            e.line(format!("add{u} {new}, {old}, 1"));
            e.line(format!("selp{bt} {new}, 0, {new}, {p}"));
        }
        (RmwOp::DecWrap, _) => {
            let (p, q) = (e.regs.temp_class(Class::Pred), e.regs.temp_class(Class::Pred));
            e.line(format!("setp.eq{u} {p}, {old}, 0"));
            e.line(format!("setp.gt{u} {q}, {old}, {x}"));
            e.line(format!("or.pred {p}, {p}, {q}"));
            e.line(format!("sub{u} {new}, {old}, 1"));
            e.line(format!("selp{bt} {new}, {x}, {new}, {p}"));
        }
        (RmwOp::Fadd | RmwOp::Fsub | RmwOp::Fmin | RmwOp::Fmax, _) => float_compute(e, op, ty, old, x, &new)?,
    }
    Ok(new)
}

/// A copy of the float `x` (a register of `ty`'s class) with its sign bit flipped, each lane's
/// for packed types: the negation, NaN payloads kept (PTX's `neg.f*` may change them).
fn sign_flipped(e: &mut Emitter<'_>, ty: Type, x: &str) -> String {
    let bits = reg_bits(ty);
    let mask: u64 = if ty.is_packed_float() { 0x8000_8000 } else { 1 << (bits - 1) };
    let out = e.regs.temp(ty);
    let bt = bit_type(bits);
    if class_of(ty) == Class::bits(bits) {
        e.line(format!("xor{bt} {out}, {x}, 0x{mask:X}"));
    } else {
        let t = e.regs.temp_class(Class::bits(bits));
        e.line(format!("mov{bt} {t}, {x}"));
        e.line(format!("xor{bt} {t}, {t}, 0x{mask:X}"));
        e.line(format!("mov{bt} {out}, {t}"));
    }
    out
}

/// Float read-modify-write on bit registers: scalars directly (f16 through f32), packed types
/// lane by lane through f32 (exact for min/max; one rounding for add, which is correct for f16
/// because f32 carries more than twice its precision).
fn float_compute(e: &mut Emitter<'_>, op: RmwOp, ty: Type, old: &str, x: &str, new: &str) -> Result<(), PtxError> {
    let fop = match op {
        RmwOp::Fadd => "add.rn",
        RmwOp::Fmin => "min",
        RmwOp::Fmax => "max",
        _ => return Err(e.unsupported(format!("atomic_rmw {op}"), "not a float op this loop computes")),
    };
    match ty {
        Type::F32 | Type::F64 => {
            let (class, ft, bt) = if ty == Type::F32 {
                (Class::F32, ".f32", ".b32")
            } else {
                (Class::F64, ".f64", ".b64")
            };
            let (a, b) = (e.regs.temp_class(class), e.regs.temp_class(class));
            e.line(format!("mov{bt} {a}, {old}"));
            e.line(format!("mov{bt} {b}, {x}"));
            e.line(format!("{fop}{ft} {a}, {a}, {b}"));
            e.line(format!("mov{bt} {new}, {a}"));
        }
        Type::F16 => {
            let lane = half_lane(e, fop, false, old, x);
            e.line(format!("mov.b16 {new}, {lane}"));
        }
        Type::F16x2 | Type::BF16x2 => {
            let bf = ty == Type::BF16x2;
            let (ol, oh, xl, xh) = (
                e.regs.temp_class(Class::B16),
                e.regs.temp_class(Class::B16),
                e.regs.temp_class(Class::B16),
                e.regs.temp_class(Class::B16),
            );
            e.line(format!("mov.b32 {{{ol}, {oh}}}, {old}"));
            e.line(format!("mov.b32 {{{xl}, {xh}}}, {x}"));
            let lo = half_lane(e, fop, bf, &ol, &xl);
            let hi = half_lane(e, fop, bf, &oh, &xh);
            e.line(format!("mov.b32 {new}, {{{lo}, {hi}}}"));
        }
        _ => return Err(e.unsupported(format!("float atomic on {ty}"), "not a float type")),
    }
    Ok(())
}

/// One 16-bit float lane: widen both to f32, apply `fop`, narrow back (round to nearest even).
fn half_lane(e: &mut Emitter<'_>, fop: &str, bf16: bool, a: &str, b: &str) -> String {
    let (fa, fb) = (e.regs.temp_class(Class::F32), e.regs.temp_class(Class::F32));
    let out = e.regs.temp_class(Class::B16);
    if bf16 {
        // bf16 is the top half of an f32.
        for (f, h) in [(&fa, a), (&fb, b)] {
            let w = e.regs.temp_class(Class::B32);
            e.line(format!("cvt.u32.u16 {w}, {h}"));
            e.line(format!("shl.b32 {w}, {w}, 16"));
            e.line(format!("mov.b32 {f}, {w}"));
        }
        e.line(format!("{fop}.f32 {fa}, {fa}, {fb}"));
        if fop == "add.rn" && e.sm >= 80 {
            e.line(format!("cvt.rn.bf16.f32 {out}, {fa}"));
        } else if fop == "add.rn" {
            // No bf16 conversion before sm_80: round to nearest even by hand. Adding
            // 0x7FFF + (bit 16) to the f32 pattern carries into the kept half exactly when the
            // dropped half is above one half ulp, or equal to it with an odd kept half; an
            // overflow carries into the exponent and gives infinity, as it should. NaN becomes
            // 0x7FFF, the f32 canonical NaN's top half.
            let (w, lsb) = (e.regs.temp_class(Class::B32), e.regs.temp_class(Class::B32));
            let nan = e.regs.temp_class(Class::Pred);
            e.line(format!("mov.b32 {w}, {fa}"));
            e.line(format!("setp.nan.f32 {nan}, {fa}, {fa}"));
            e.line(format!("shr.u32 {lsb}, {w}, 16"));
            e.line(format!("and.b32 {lsb}, {lsb}, 1"));
            e.line(format!("add.u32 {w}, {w}, 32767"));
            e.line(format!("add.u32 {w}, {w}, {lsb}"));
            e.line(format!("shr.u32 {w}, {w}, 16"));
            e.line(format!("selp.b32 {w}, 32767, {w}, {nan}"));
            e.line(format!("cvt.u16.u32 {out}, {w}"));
        } else {
            // min/max return one of the (bf16-exact) inputs: the top half is the answer.
            let w = e.regs.temp_class(Class::B32);
            e.line(format!("mov.b32 {w}, {fa}"));
            e.line(format!("shr.u32 {w}, {w}, 16"));
            e.line(format!("cvt.u16.u32 {out}, {w}"));
        }
    } else {
        e.line(format!("cvt.f32.f16 {fa}, {a}"));
        e.line(format!("cvt.f32.f16 {fb}, {b}"));
        e.line(format!("{fop}.f32 {fa}, {fa}, {fb}"));
        e.line(format!("cvt.rn.f16.f32 {out}, {fa}"));
    }
    out
}
