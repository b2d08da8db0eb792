//! Surface atomics of both targets: `SUATOM` (with a result), `SUATOM.CAS` and `SURED`, on the
//! launch's surfaces ([`crate::Launch::surfaces`]) with the reference interpreter's layout,
//! clamping and operations (`atomc_ir::interp`).
//!
//! A surface is named by a 32-bit header word: surface `i` has word `i`, the low word of the
//! interpreter's bindless handle `SURFACE_HANDLE_BASE + i`. The word comes from a register or a
//! uniform register (sm_90, bindless or a bound slot's word loaded from constant bank 0), or,
//! on sm_50, the instruction's immediate names the constant-bank-0 word that holds it (the
//! word a driver fills for a bound surface; [`crate::Launch::surface_words`]).
//!
//! The coordinates are consecutive registers from the address register: x (in bytes under
//! `.BA`, in elements without it: `atomc_sass::surface`, which the selector reads too), then
//! y, then z or the layer, as atomc's selector builds them.

use crate::exec::{lanes, Ctx};
use crate::EmuError;
use atomc_emit::sass::surface::element_x;
use atomc_emit::sass::Operand;
use atomc_ir::interp;
use atomc_ir::{RmwOp, Type};

/// Handles `SUATOM` and `SURED`; `None` for any other mnemonic.
pub fn surface(c: &mut Ctx, m: &str) -> Result<Option<()>, EmuError> {
    if !matches!(m, "SUATOM" | "SURED") {
        return Ok(None);
    }
    let Some(mi) = c.ins.ops.iter().position(|o| matches!(o, Operand::Mem(_))) else {
        return Err(c.unsupported("no memory operand"));
    };
    let Operand::Mem(mem) = c.op(mi)? else { unreachable!("found above") };
    let dims = if c.has("3D") || c.has("2D_ARRAY") {
        3
    } else if c.has("2D") || c.has("1D_ARRAY") {
        2
    } else {
        1
    };
    let wide = c.has("64") || c.has("U64") || c.has("S64") || c.has("SD64");
    let bytes = if wide { 8 } else { 4 };
    let words = (bytes / 4) as u8;
    let rmw = if c.has("CAS") { None } else { Some(rmw_of(c, wide)?) };
    let dst = if m == "SUATOM" { mi.checked_sub(1) } else { None };
    let (data, handle) = (mi + 1, mi + 2);
    for lane in lanes(c.exec) {
        let word = match c.op(handle)? {
            // sm_50's bound form: the index of the header word in constant bank 0.
            Operand::Imm(i) if c.sm() == crate::kernel::Sm::Sm50 => c.cload(0, (i as u32).wrapping_mul(4), 4)? as u32,
            // sm_90's `SURED.ur`: a uniform register plus an immediate.
            Operand::UReg(_) => c.raw(handle, lane)?.wrapping_add(c.raw(handle + 1, lane).unwrap_or(0)),
            _ => c.raw(handle, lane)?,
        };
        let mut coords = [0i64; 3];
        for (j, x) in coords.iter_mut().enumerate().take(dims) {
            let r = if mem.base == 255 { 255 } else { mem.base.saturating_add(j as u8).min(254) };
            *x = if r == 255 { 0 } else { c.w.reg(r, lane) as i32 as i64 };
        }
        let at = element(c, word, &coords[..dims], bytes)?;
        let old = match at {
            None => 0,
            Some((s, off)) => {
                let cell = &mut c.mem.surfaces[s].data[off..off + bytes as usize];
                let old = cell.iter().rev().fold(0u64, |a, &b| a << 8 | b as u64);
                let new = match rmw {
                    Some((op, ty)) => interp::rmw(op, ty, old, c.wide(data, lane, words)? as u64),
                    None => {
                        // Compare and swap travel as one tuple: compare, then swap.
                        let both = c.wide(data, lane, 2 * words)?;
                        let (cmp, val) = ((both & mask(bytes)) as u64, (both >> (8 * bytes)) as u64);
                        if old == cmp {
                            val
                        } else {
                            old
                        }
                    }
                };
                let cell = &mut c.mem.surfaces[s].data[off..off + bytes as usize];
                cell.copy_from_slice(&new.to_le_bytes()[..bytes as usize]);
                c.stats.atomics += 1;
                old
            }
        };
        if let Some(d) = dst {
            c.set_wide(d, lane, old as u128, words)?;
        }
    }
    Ok(Some(()))
}

fn mask(bytes: u32) -> u128 {
    (1u128 << (8 * bytes)) - 1
}

/// The interpreter's operation and type of a surface atomic's modifiers.
fn rmw_of(c: &Ctx, wide: bool) -> Result<(RmwOp, Type), EmuError> {
    let signed = c.has("S32") || c.has("S64") || c.has("SD32") || c.has("SD64");
    if c.has("F32") {
        // `.F32.FTZ.RN` flushes subnormals, which the interpreter's `fadd` keeps; atomc
        // selects it nowhere and ptxas writes no float surface atomic.
        return Err(c.unsupported("SUATOM .F32.FTZ.RN"));
    }
    let float = c.has("F16x2").then_some(Type::F16x2);
    let ty = float.unwrap_or(if wide { Type::I64 } else { Type::I32 });
    let op = match () {
        _ if c.has("ADD") => {
            if float.is_some() {
                RmwOp::Fadd
            } else {
                RmwOp::Add
            }
        }
        _ if c.has("MIN") => {
            if signed {
                RmwOp::Smin
            } else {
                RmwOp::Umin
            }
        }
        _ if c.has("MAX") => {
            if signed {
                RmwOp::Smax
            } else {
                RmwOp::Umax
            }
        }
        _ if c.has("INC") => RmwOp::IncWrap,
        _ if c.has("DEC") => RmwOp::DecWrap,
        _ if c.has("AND") => RmwOp::And,
        _ if c.has("OR") => RmwOp::Or,
        _ if c.has("XOR") => RmwOp::Xor,
        _ if c.has("EXCH") => RmwOp::Xchg,
        _ => return Err(c.unsupported("unknown surface operation")),
    };
    Ok((op, ty))
}

/// The surface and byte offset of the element at `coords`, or `None` when `.IGN` drops an
/// out-of-range access; the interpreter's rules (`interp::exec` surface_elem).
fn element(c: &Ctx, word: u32, coords: &[i64], bytes: u32) -> Result<Option<(usize, usize)>, EmuError> {
    let fault = |why: String| EmuError::Control { at: c.at(), text: c.text(), why };
    let s = c.mem.surfaces.get(word as usize).ok_or_else(|| fault(format!("{word:#x} names no surface")))?;
    if s.elem_bytes != bytes {
        return Err(fault(format!("the surface holds {}-byte elements; the access is {bytes} bytes", s.elem_bytes)));
    }
    let mut at = [0i64; 3];
    at[..coords.len()].copy_from_slice(coords);
    // x counts bytes under `.BA`, elements without it: the fact the selector reads too.
    at[0] = element_x(at[0], bytes, c.has("BA"))
        .map_err(|x| fault(format!("byte coordinate {x} is not a multiple of the element size {bytes}")))?;
    for (i, x) in at.iter_mut().enumerate().take(coords.len()) {
        let e = s.extent[i].max(1) as i64;
        if *x < 0 || *x >= e {
            if c.has("IGN") {
                return Ok(None);
            } else if c.has("TRAP") {
                return Err(fault(format!("surface coordinates {coords:?} out of range of {:?}", s.extent)));
            }
            *x = (*x).clamp(0, e - 1);
        }
    }
    let (w, h) = (s.extent[0].max(1) as i64, s.extent[1].max(1) as i64);
    let off = (((at[2] * h + at[1]) * w + at[0]) * bytes as i64) as usize;
    if off + bytes as usize > s.data.len() {
        return Err(fault(format!("the surface has {} bytes, too few for its extent {:?}", s.data.len(), s.extent)));
    }
    Ok(Some((word as usize, off)))
}
