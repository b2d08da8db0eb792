//! Memory instructions of both targets: loads, stores, atomics and reductions on global,
//! generic, shared and local memory. Each lane's access is one indivisible step; the lanes of a
//! warp go in lane order. Global loads and stores go through the SM's L1 and store buffer, and
//! atomics are performed at L2 ([`crate::order`]). Atomic results are the reference
//! interpreter's (`interp::rmw`).

use crate::exec::{lanes, Ctx};
use crate::memory::Space;
use crate::EmuError;
use atomc_emit::sass::{BaseWidth, Operand};
use atomc_ir::interp;
use atomc_ir::{RmwOp, Type};

/// Handles the memory instructions; `None` for any other mnemonic.
pub fn memory(c: &mut Ctx, m: &str) -> Result<Option<()>, EmuError> {
    let space = match m {
        "LDG" | "STG" | "LD" | "ST" | "ATOM" | "ATOMG" | "RED" | "REDG" => Space::Global,
        "LDS" | "STS" | "ATOMS" => Space::Shared,
        "LDL" | "STL" => Space::Local,
        _ => return Ok(None),
    };
    let Some(mi) = c.ins.ops.iter().position(|o| matches!(o, Operand::Mem(_))) else {
        return Err(c.unsupported("no memory operand"));
    };
    match m {
        "LDG" | "LD" | "LDS" | "LDL" => load(c, space, mi)?,
        "STG" | "ST" | "STS" | "STL" => store(c, space, mi)?,
        _ => atomic(c, space, mi)?,
    }
    Ok(Some(()))
}

/// Access size in bytes and whether it sign-extends, from the size modifiers.
fn size_of(c: &Ctx) -> (u32, bool) {
    for m in &c.mods {
        match *m {
            "U8" => return (1, false),
            "S8" => return (1, true),
            "U16" => return (2, false),
            "S16" => return (2, true),
            "64" | "U64" | "S64" | "F64" => return (8, false),
            "128" | "U128" => return (16, false),
            _ => {}
        }
    }
    (4, false)
}

/// The address of memory operand `k` for `lane`.
pub fn address(c: &Ctx, k: usize, space: Space, lane: usize) -> Result<u64, EmuError> {
    let Operand::Mem(mem) = c.op(k)? else {
        return Err(c.unsupported("not a memory operand"));
    };
    let sm50 = c.sm() == crate::kernel::Sm::Sm50;
    let wide = space == Space::Global && (mem.width == BaseWidth::Wide || c.has("E") || mem.desc.is_some());
    let base = if mem.base == 255 {
        0
    } else if wide {
        c.w.reg(mem.base, lane) as u64 | (c.w.reg(mem.base.wrapping_add(1).min(254), lane) as u64) << 32
    } else {
        c.w.reg(mem.base, lane) as u64
    };
    let base = if mem.scale > 0 { base << (mem.scale + 1) } else { base };
    let ur = match mem.ureg {
        Some(u) if u < 63 => {
            if wide {
                c.w.ureg(u) as u64 | (c.w.ureg(u + 1) as u64) << 32
            } else {
                c.w.ureg(u) as u64
            }
        }
        _ => 0,
    };
    let a = base.wrapping_add(ur).wrapping_add(mem.offset as u64);
    let _ = sm50;
    Ok(if wide { a } else { a & 0xffff_ffff })
}

fn load(c: &mut Ctx, space: Space, mi: usize) -> Result<(), EmuError> {
    let (size, signed) = size_of(c);
    let dst = mi.checked_sub(1).ok_or_else(|| c.unsupported("no destination"))?;
    for lane in lanes(c.exec) {
        let addr = address(c, mi, space, lane)?;
        let p = c.place(space, addr, size, lane)?;
        let mut v = c.mem.load(p, size, c.w.block, c.order.bypasses_l1);
        if signed {
            let bits = size * 8;
            v = (((v as i128) << (128 - bits)) >> (128 - bits)) as u128;
        }
        c.set_wide(dst, lane, v, size.div_ceil(4) as u8)?;
    }
    Ok(())
}

fn store(c: &mut Ctx, space: Space, mi: usize) -> Result<(), EmuError> {
    let (size, _) = size_of(c);
    let mut writes = Vec::new();
    for lane in lanes(c.exec) {
        let addr = address(c, mi, space, lane)?;
        let v = c.wide(mi + 1, lane, size.div_ceil(4) as u8)?;
        let p = c.place(space, addr, size, lane)?;
        writes.push((p, size, v));
    }
    c.mem.store(c.w.block, &writes);
    Ok(())
}

/// The interpreter's operation and type of an atomic's modifiers; `None` for CAS.
fn rmw_of(c: &Ctx) -> Result<Option<(RmwOp, Type)>, EmuError> {
    let has = |m| c.has(m);
    if has("CAS") || has("CAST") {
        return Ok(None);
    }
    let float = if has("F16x2") {
        Some(Type::F16x2)
    } else if has("BF16x2") {
        Some(Type::BF16x2)
    } else if has("F32") {
        Some(Type::F32)
    } else if has("F64") {
        Some(Type::F64)
    } else {
        None
    };
    if c.mods.iter().any(|m| matches!(*m, "F16x4" | "F16x8" | "BF16x4" | "BF16x8" | "F32x2" | "F32x4" | "128" | "U128"))
    {
        return Err(c.unsupported("vector atomics"));
    }
    let wide = has("64") || has("U64") || has("S64");
    let signed = has("S32") || has("S64");
    let ty = float.unwrap_or(if wide { Type::I64 } else { Type::I32 });
    // The float, signed or unsigned form of a min/max.
    let by_type = |f, s, u| match (float, signed) {
        (Some(_), _) => f,
        (None, true) => s,
        (None, false) => u,
    };
    let op = if has("ADD") || has("SAFEADD") {
        if float.is_some() {
            RmwOp::Fadd
        } else {
            RmwOp::Add
        }
    } else if has("MIN") {
        by_type(RmwOp::Fmin, RmwOp::Smin, RmwOp::Umin)
    } else if has("MAX") {
        by_type(RmwOp::Fmax, RmwOp::Smax, RmwOp::Umax)
    } else {
        // The rest are named by one modifier each.
        let plain = [
            ("INC", RmwOp::IncWrap),
            ("DEC", RmwOp::DecWrap),
            ("AND", RmwOp::And),
            ("OR", RmwOp::Or),
            ("XOR", RmwOp::Xor),
            ("EXCH", RmwOp::Xchg),
        ];
        match plain.into_iter().find(|&(m, _)| has(m)) {
            Some((_, op)) => op,
            None => return Err(c.unsupported("unknown atomic operation")),
        }
    };
    Ok(Some((op, ty)))
}

fn atomic(c: &mut Ctx, space: Space, mi: usize) -> Result<(), EmuError> {
    // ATOMS.POPC.INC.32 RZ, [UR4]: ptxas's warp-aggregated shared increment: each active
    // lane adds one (`atom.shared.add 1` with the result unused).
    if c.has("POPC") {
        for lane in lanes(c.exec) {
            let addr = address(c, mi, space, lane)?;
            let p = c.place(space, addr, 4, lane)?;
            let old = c.mem.read(p, 4) as u32;
            c.mem.write(p, 4, old.wrapping_add(1) as u128);
            c.stats.atomics += 1;
        }
        return Ok(());
    }
    let dst = mi.checked_sub(1).filter(|&d| matches!(c.ins.ops[d], Operand::Reg(_)));
    let rmw = rmw_of(c)?;
    let bytes: u32 = match rmw {
        Some((_, ty)) => (ty.bits() / 8).max(4),
        None => {
            if c.has("64") || c.has("U64") {
                8
            } else {
                4
            }
        }
    };
    let words = (bytes / 4) as u8;
    // `ATOMS.CAST.SPIN{.64}`: compare and store, returning 1 when it stored and 0 when not
    // (ptxas 13.5's shared 64-bit CAS loops test `Rd == 1 && Rd+1 == 0`).
    let store_flag = c.has("CAST");
    for lane in lanes(c.exec) {
        let addr = address(c, mi, space, lane)?;
        let p = c.place(space, addr, bytes, lane)?;
        c.mem.at_l2(p, bytes, c.w.block);
        let old = c.mem.read(p, bytes) as u64;
        let new = match rmw {
            Some((op, ty)) => {
                let x = c.wide(mi + 1, lane, words)? as u64;
                interp::rmw(op, ty, old, x)
            }
            None => {
                // sm_90 CAS: compare then new value, each a register (pair); sm_50 prints
                // `Rb, Rb+n` for the same pair of registers.
                let (cmp, val) = (c.wide(mi + 1, lane, words)? as u64, c.wide(mi + 2, lane, words)? as u64);
                if old == cmp {
                    val
                } else {
                    old
                }
            }
        };
        c.mem.write(p, bytes, new as u128);
        c.stats.atomics += 1;
        let result = if store_flag {
            u128::from(rmw.is_none() && old as u128 == c.wide(mi + 1, lane, words)?)
        } else {
            old as u128
        };
        if let Some(d) = dst {
            c.set_wide(d, lane, result, words)?;
        }
        // sm_90's generic `ATOM.E… P0, Rd, [Ra]…` says in P0 that the atomic unit performed it
        // (ptxas 13 branches over a load/compare/store fallback for the local window when it
        // is true); every address the emulator takes here is global or shared.
        if matches!(c.ins.ops.first(), Some(Operand::Pred(_))) && mi >= 2 {
            c.set_pred(0, lane, true)?;
        }
    }
    Ok(())
}
