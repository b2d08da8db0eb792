//! The kernel ABI: which `.input`s a lowered kernel has, and where.
//!
//! The launch preloads the GRF file; byte offsets below count from r0.
//!
//! | offset | inputs | contents |
//! | --- | --- | --- |
//! | 0 | (none) | r0, the thread payload header |
//! | next GRF, each GRF aligned | `TID_X`, `TID_Y`, `TID_Z`, `LANE_ID` (only those used, in this order) | per lane: thread index in the block, lane index; `max(simd, 8)` × `ud` |
//! | next GRF, +0/+4/+8, +16/+20/+24, +32/+36/+40 | `BLOCK_ID_{X,Y,Z}`, `BLOCK_DIM_{X,Y,Z}`, `GRID_DIM_{X,Y,Z}` (only those used) | uniform, 1 × `ud` each |
//! | next GRF, packed | the kernel parameters, named `vN` after the IR | uniform, 1 element each, naturally aligned; `i8`/`i16` zero-extended to `ud` |
//! | next dword, packed | `SLOTn`: a surface argument (T6 upwards) per bound surface slot the kernel uses, in slot order | the slot's binding-table index, 4 bytes |
//! | next dword | `SLM_LOCK` (TGLLP kernels with a 64-bit shared-memory atomic only) | uniform `ud`: the SLM byte offset of a dword the launch reserves for the kernel's spinlock, dword aligned and past every byte the kernel addresses (its shared variables and dynamic shared memory); the kernel zeroes it itself ([`super::slm_lock`]) |
//! | next qword | `SURFACE_LOCK` (kernels with a 64-bit surface atomic only) | uniform `uq`: the global address of a 4-byte aligned dword the launch sets to 0 before the kernel starts, the spinlock of every 64-bit surface atomic of the launch ([`super::surface_lock`]) |
//!
//! The lock word lies outside the IR's shared memory rather than inside it: shared pointers are
//! offsets the kernel computes, compares and receives from the launch, so a reserved word at a
//! fixed offset, or a shift of every offset, could collide with them or be seen; the launch,
//! which already sizes the SLM (the `.visaasm` declares none), knows where its allocation ends.
//!
//! IGC's own kernels get the local ids the same way (per-lane `.input`s
//! after r0, `igc_reference/*.visaasm`) and the group id from r0; atomc
//! asks for every id as an input so that the ABI fits in one table.

use atomc_ir::{InstData, SpecialReg};

use super::values::{canonical, Loc};
use super::{Lower, LowerError};
use atomc_visa::{Align, Type, VarId};

/// An implicit kernel input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Implicit {
    /// A per-lane input (`TID_X` …, `LANE_ID`).
    Lane(u8),
    /// A uniform id word: group (0 block id, 1 block dim, 2 grid dim) and
    /// component (0 x, 1 y, 2 z).
    Uniform(u8, u8),
}

fn implicit_of(reg: SpecialReg) -> Implicit {
    use SpecialReg::*;
    match reg {
        ThreadIdX => Implicit::Lane(0),
        ThreadIdY => Implicit::Lane(1),
        ThreadIdZ => Implicit::Lane(2),
        LaneId => Implicit::Lane(3),
        BlockIdX => Implicit::Uniform(0, 0),
        BlockIdY => Implicit::Uniform(0, 1),
        BlockIdZ => Implicit::Uniform(0, 2),
        BlockDimX => Implicit::Uniform(1, 0),
        BlockDimY => Implicit::Uniform(1, 1),
        BlockDimZ => Implicit::Uniform(1, 2),
        GridDimX => Implicit::Uniform(2, 0),
        GridDimY => Implicit::Uniform(2, 1),
        GridDimZ => Implicit::Uniform(2, 2),
    }
}

fn implicit_name(i: Implicit) -> String {
    const XYZ: [&str; 3] = ["X", "Y", "Z"];
    match i {
        Implicit::Lane(3) => "LANE_ID".into(),
        Implicit::Lane(c) => format!("TID_{}", XYZ[c as usize % 3]),
        Implicit::Uniform(g, c) => {
            let g = ["BLOCK_ID", "BLOCK_DIM", "GRID_DIM"][g as usize % 3];
            format!("{g}_{}", XYZ[c as usize % 3])
        }
    }
}

fn round_up(x: u32, to: u32) -> u32 {
    x.div_ceil(to) * to
}

/// Declares the implicit inputs the function uses and then its parameters,
/// in the layout of the module docs.
pub(crate) fn declare_params(l: &mut Lower<'_>) -> Result<(), LowerError> {
    let f = l.f;
    let grf = l.p.grf_bytes();
    let mut used = Vec::new();
    for (_, inst) in f.inst_order() {
        let reg = match f.insts[inst] {
            InstData::Special { reg } => reg,
            // A shuffle other than `idx` computes its source lane from the lane number.
            InstData::Shuffle { mode, .. } if mode != atomc_ir::ShuffleMode::Idx => SpecialReg::LaneId,
            _ => continue,
        };
        let i = implicit_of(reg);
        if !used.contains(&i) {
            used.push(i);
        }
    }
    let mut off = grf;
    for c in 0..4u8 {
        if used.contains(&Implicit::Lane(c)) {
            let n = l.lanes_alloc();
            let v = l.k.decl_simd(implicit_name(Implicit::Lane(c)), Type::UD, n);
            input(l, v, off)?;
            l.implicit.insert(Implicit::Lane(c), v);
            off += round_up(n as u32 * 4, grf);
        }
    }
    if used.iter().any(|i| matches!(i, Implicit::Uniform(..))) {
        for g in 0..3u8 {
            for c in 0..3u8 {
                let i = Implicit::Uniform(g, c);
                if used.contains(&i) {
                    let v = l.k.decl(implicit_name(i), Type::UD, 1, Align::Dword);
                    input(l, v, off + 16 * g as u32 + 4 * c as u32)?;
                    l.implicit.insert(i, v);
                }
            }
        }
        off += round_up(48, grf);
    }
    let Some(entry) = f.entry_block() else {
        return Err(l.unsupported("function", "it has no blocks"));
    };
    for &v in &f.blocks[entry].params {
        let t = f.value_type(v);
        let Some(ty) = canonical(t) else {
            return Err(l.unsupported(&format!("parameter {v}: {t}"), "no vISA input type holds this IR type"));
        };
        let size = ty.size();
        off = round_up(off, size);
        let var = l.new_var(format!("{v}"), ty, true);
        input(l, var, off)?;
        l.vals.insert(v, Loc::Var { var, uniform: true });
        off += size;
    }
    let mut slots: Vec<u16> = f
        .inst_order()
        .filter_map(|(_, inst)| match &f.insts[inst] {
            InstData::SurfaceRmw { access, .. } | InstData::SurfaceCas { access, .. } => match access.surface {
                atomc_ir::SurfaceRef::Slot(n) => Some(n),
                atomc_ir::SurfaceRef::Handle(_) => None,
            },
            _ => None,
        })
        .collect();
    slots.sort_unstable();
    slots.dedup();
    off = round_up(off, 4);
    for n in slots {
        let at = u16::try_from(off).map_err(|_| l.unsupported("kernel parameters", "more than 64 KiB of inputs"))?;
        let t = l.k.surface(format!("SLOT{n}"), at);
        l.surfaces.insert(n, t);
        off += 4;
    }
    if super::slm_lock::needed(l) {
        let v = l.k.decl("SLM_LOCK", Type::UD, 1, Align::Dword);
        input(l, v, off)?;
        l.slm_lock = Some(v);
        off += 4;
    }
    if super::surface_lock::needed(l) {
        off = round_up(off, 8);
        let v = l.k.decl("SURFACE_LOCK", Type::UQ, 1, Align::Qword);
        input(l, v, off)?;
        l.surface_lock = Some(v);
    }
    Ok(())
}

fn input(l: &mut Lower<'_>, v: VarId, off: u32) -> Result<(), LowerError> {
    let off = u16::try_from(off).map_err(|_| l.unsupported("kernel parameters", "more than 64 KiB of inputs"))?;
    l.k.input(v, off);
    Ok(())
}

/// The variable and uniformity of a special register.
pub(crate) fn special(l: &Lower<'_>, reg: SpecialReg) -> Option<(VarId, bool)> {
    let i = implicit_of(reg);
    l.implicit.get(&i).map(|&v| (v, matches!(i, Implicit::Uniform(..))))
}
