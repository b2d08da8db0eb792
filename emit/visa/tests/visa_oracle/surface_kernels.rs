//! Kernels for `typed_atomic` (every op it has at 32 bits, on 1, 2 and 3
//! coordinates, with and without a result, in SIMD8 and as two SIMD8 pieces
//! M1/M3 of a SIMD16 kernel, two surface arguments) and for
//! `lsc_atomic_icas.slm` on d64 (SIMD8, SIMD16, guarded, and the M5 half of a
//! SIMD32 kernel; DG2 and PVC only), `resinfo` (1 to 3 channels, SIMD8 and SIMD16),
//! `gather4_typed`/`scatter4_typed` (channel masks R, G, RG, RGBA on 1 to 3 coordinates, SIMD8
//! and the M3 piece of a SIMD16 kernel, guarded or not), and the bindless forms: `movs` to
//! `%bss` from a `ud` or `d` scalar or an immediate, then `typed_atomic` and `resinfo` on
//! `%bss`, twice with two handles.

use crate::visa_common::{atomic_vars, sources};
use atomc_visa::*;

/// The typed-surface kernels (every platform).
pub fn typed() -> Vec<Kernel> {
    let mut v = Vec::new();
    let ops = AtomicOp::ALL
        .into_iter()
        .filter(|op| !matches!(op, AtomicOp::PreDec | AtomicOp::FAdd | AtomicOp::FSub | AtomicOp::FCmpWr));
    for op in ops {
        for coords in 1..=3usize {
            for used in [true, false] {
                let name = format!("typed_{}_{coords}_{}", op.text().unwrap_or("x"), used as u8);
                let mut k = Kernel::new(name);
                k.simd_size = Some(16);
                let ty = slm_data_type(op, AtomicWidth::W32);
                let [u, s0, s1, d] = atomic_vars(&mut k, ("U", Type::UD), ty, 16);
                // One 64-byte slot per input: GRF aligned on PVC too.
                k.input(u, 64);
                k.input(s0, 128);
                k.input(s1, 192);
                let t0 = k.surface("SURF_A", 256);
                let t1 = k.surface("SURF_B", 260);
                for (i, t) in [(0u16, t0), (1, t1)] {
                    let at = |x: VarId| Operand::raw_at(x, 32 * i);
                    let c = |j: usize| if j < coords { at(u) } else { Operand::null() };
                    let (src0, src1) = sources(op, at(s0), at(s1));
                    let dst = if used { at(d) } else { Operand::null() };
                    let e = Exec::at(ExecSize::S8, 2 * i as u8);
                    k.typed_atomic(e, op, AtomicWidth::W32, t, [c(0), c(1), c(2), Operand::null()], src0, src1, dst);
                }
                if used {
                    // Feed the result to another message so that it stays live.
                    let dud = k.alias("D_UD", Type::UD, 16, d, 0);
                    let c = [Operand::raw(u), Operand::null(), Operand::null(), Operand::null()];
                    let e = Exec::new(ExecSize::S8);
                    k.typed_atomic(
                        e,
                        AtomicOp::Xchg,
                        AtomicWidth::W32,
                        t0,
                        c,
                        Operand::raw(dud),
                        Operand::null(),
                        Operand::null(),
                    );
                }
                k.ret();
                v.push(k);
            }
        }
    }
    // resinfo with 1, 2 and 3 channels on 8 and 16 lanes without mask (lod from an input), its
    // sizes fed to a typed_atomic's coordinates so that they stay live.
    for (lanes, size) in [(8u16, ExecSize::S8), (16, ExecSize::S16)] {
        for n in 1..=3usize {
            let mut k = Kernel::new(format!("resinfo_{n}_{lanes}"));
            k.simd_size = Some(8);
            let lod = k.decl_simd("LOD", Type::UD, 16);
            let s0 = k.decl_simd("S0", Type::UD, 8);
            let sizes = k.decl_simd("SIZES", Type::UD, lanes * n as u16);
            k.input(lod, 64);
            k.input(s0, 128);
            let t = k.surface("SURF_A", 192);
            k.resinfo(Exec::nomask(size), Channels::first(n), t, Operand::raw(lod), Operand::raw(sizes));
            let c = |j: usize| if j < n { Operand::raw_at(sizes, 4 * lanes * j as u16) } else { Operand::null() };
            let e = Exec::new(ExecSize::S8);
            k.typed_atomic(
                e,
                AtomicOp::Add,
                AtomicWidth::W32,
                t,
                [c(0), c(1), c(2), Operand::null()],
                Operand::raw(s0),
                Operand::null(),
                Operand::null(),
            );
            k.ret();
            v.push(k);
        }
    }
    v
}

/// `movs (M1_NM, 1) %bss(0) H` and messages on `%bss`: `typed_atomic` with and without a
/// result, in SIMD8 and as M1/M3 pieces of a SIMD16 kernel (one piece on PVC, whose 64-byte
/// GRFs would leave the second unaligned), `resinfo` feeding coordinates, a second `movs`
/// switching to another handle, the handle a `ud` or `d` variable or an immediate. Every one
/// passes atomc's rules on `p`.
pub fn bindless(p: Platform) -> Vec<Kernel> {
    let pieces = if p.grf_bytes() == 32 { 2 } else { 1 };
    let mut v = Vec::new();
    for (name, src) in [("ud", 0), ("d", 1), ("imm", 2)] {
        let mut k = Kernel::new(format!("bindless_{name}"));
        k.simd_size = Some(16);
        let u = k.decl_simd("U", Type::UD, 16);
        let s0 = k.decl_simd("S0", Type::UD, 16);
        let d = k.decl_simd("D", Type::UD, 16);
        let lod = k.decl_simd("LOD", Type::UD, 8);
        let sizes = k.decl_simd("SIZES", Type::UD, 2 * p.grf_bytes() as u16 / 4);
        let h = k.decl("H", Type::UD, 2, Align::Dword);
        k.input(u, 64);
        k.input(s0, 128);
        k.input(h, 192);
        let nm1 = Exec::nomask(ExecSize::S1);
        let handle = |k: &mut Kernel, i: u8| match src {
            0 => Operand::src_at(h, 0, i, Region::SCALAR),
            1 => Operand::src_at(k.alias(format!("HD{i}"), Type::D, 2, h, 0), 0, i, Region::SCALAR),
            _ => Operand::imm(Imm::ud(0x1000 * (i as u32 + 1))),
        };
        let first = handle(&mut k, 0);
        k.movs(nm1, Surf::Bss, first);
        for i in 0..pieces {
            let at = |x: VarId| Operand::raw_at(x, 32 * i);
            let c = [at(u), Operand::null(), Operand::null(), Operand::null()];
            let e = Exec::at(ExecSize::S8, 2 * i as u8);
            k.typed_atomic(e, AtomicOp::Add, AtomicWidth::W32, Surf::Bss, c, at(s0), Operand::null(), at(d));
        }
        k.mov(Exec::nomask(ExecSize::S8), Operand::dst(lod), Operand::imm(Imm::ud(0)));
        k.resinfo(Exec::nomask(ExecSize::S8), Channels::first(2), Surf::Bss, Operand::raw(lod), Operand::raw(sizes));
        // The second handle: its atomic uses the results and sizes above so that they stay live.
        let second = handle(&mut k, 1);
        k.movs(nm1, Surf::Bss, second);
        let c = [Operand::raw(sizes), Operand::raw_at(sizes, p.grf_bytes() as u16), Operand::null(), Operand::null()];
        let e = Exec::new(ExecSize::S8);
        let (xchg, w) = (AtomicOp::Xchg, AtomicWidth::W32);
        k.typed_atomic(e, xchg, w, Surf::Bss, c, Operand::raw(d), Operand::null(), Operand::null());
        k.ret();
        v.push(k);
    }
    v
}

/// Typed reads and writes: each kernel reads texels with a channel mask and writes them back
/// at the same coordinates (so the read stays live).
pub fn typed_rw() -> Vec<Kernel> {
    let mut v = Vec::new();
    for mask in [0b0001u8, 0b0010, 0b0011, 0b1111] {
        let ch = Channels(mask);
        for coords in 1..=3usize {
            for (lanes, piece, guard) in [(8u16, 0u8, false), (16, 1, true)] {
                let name = format!("typed_rw_{}_{coords}_{lanes}", ch.text());
                let mut k = Kernel::new(name);
                k.simd_size = Some(lanes as u8);
                let u = k.decl_simd("U", Type::UD, 16);
                // One GRF per channel, PVC's 64-byte ones included.
                let d = k.decl_simd("D", Type::UD, 64);
                let p = k.decl_pred("P", lanes);
                k.input(u, 64);
                let t = k.surface("SURF_A", 128);
                let at_u = Operand::raw_at(u, 32 * piece as u16);
                let c = |j: usize| if j < coords { at_u } else { Operand::null() };
                let uvrl = [c(0), c(1), c(2), Operand::null()];
                let e = Exec::at(ExecSize::S8, 2 * piece);
                if guard {
                    let row = Operand::src_at(u, 0, 0, Region::CONTIGUOUS);
                    k.cmp(Exec::new(ExecSize::S16), Relop::Lt, Operand::Pred(p), row, Operand::imm(Imm::ud(4)));
                }
                let r = k.gather4_typed(e, ch, t, uvrl, Operand::raw(d));
                if guard {
                    r.predicated(Predicate::on(p));
                }
                let w = k.scatter4_typed(e, ch, t, uvrl, Operand::raw(d));
                if guard {
                    w.predicated(Predicate::not(p));
                }
                k.ret();
                v.push(k);
            }
        }
    }
    v
}

/// The LSC SLM kernels (none on TGLLP, which has no LSC).
pub fn lsc(p: Platform) -> Vec<Kernel> {
    if !p.is_xehp_plus() {
        return Vec::new();
    }
    let mut v = Vec::new();
    for (lanes, exec, guard, used) in [
        (8u16, Exec::new(ExecSize::S8), false, true),
        (16, Exec::new(ExecSize::S16), true, true),
        (32, Exec::at(ExecSize::S16, 4), false, false),
    ] {
        let mut k = Kernel::new(format!("lsc_icas_simd{lanes}_{}{}", guard as u8, used as u8));
        k.simd_size = Some(lanes as u8);
        let a = k.decl_simd("A", Type::UD, lanes);
        let e = k.decl_simd("E", Type::UQ, lanes);
        let n = k.decl_simd("N", Type::UQ, lanes);
        let d = k.decl_simd("D", Type::UQ, lanes);
        let g = k.decl_pred("G", lanes);
        // GRF-aligned slots on PVC's 64-byte GRFs too, large enough for SIMD32.
        k.input(a, 64);
        k.input(e, 192);
        k.input(n, 448);
        let half = if exec.offset == 4 { 1 } else { 0 };
        let (ao, dof) = (64 * half, 128 * half);
        if guard {
            k.cmp(Exec::new(ExecSize::S16), Relop::Eq, Operand::Pred(g), Operand::src(a), Operand::imm(Imm::ud(0)));
        }
        let dst = if used { Operand::raw_at(d, dof) } else { Operand::null() };
        let i = k.lsc_slm_atomic(
            exec,
            AtomicOp::CmpXchg,
            AtomicWidth::W64,
            dst,
            Operand::raw_at(a, ao),
            Operand::raw_at(e, dof),
            Operand::raw_at(n, dof),
        );
        if guard {
            i.predicated(Predicate::on(g));
        }
        if used {
            // Feed the result to a second CAS so that it stays live.
            k.lsc_slm_atomic(
                exec,
                AtomicOp::CmpXchg,
                AtomicWidth::W64,
                Operand::null(),
                Operand::raw_at(a, ao),
                Operand::raw_at(d, dof),
                Operand::raw_at(n, dof),
            );
        }
        k.ret();
        v.push(k);
    }
    v
}
