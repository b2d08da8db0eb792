//! sm_50 atomics: ATOM (generic address, must hit global memory), ATOM.CAS with its operand
//! layout field, RED, ATOMS / ATOMS.CAS (shared), SUATOM and SURED (bound and bindless
//! surfaces).
//! Field positions: reference §2.2, each value checked with nvdisasm 11.8 by the line test.

use super::*;

/// ATOM / RED operation, 4 bits (ATOM: 52..55; 9, 11..15 are invalid).
fn atom_op(lo: u8) -> ModGroup {
    g("op", lo, 4, &[ATOMIC_INT_OPS.as_slice(), &[(10, "SAFEADD")]].concat())
}

/// ATOM / RED data size (3 bits): U32 is the unprinted default; 6 and 7 are invalid.
fn atom_size(lo: u8) -> ModGroup {
    g("size", lo, 3, &[(0, ""), (1, "S32"), (2, "U64"), (3, "F32.FTZ.RN"), (4, "U128"), (5, "S64")])
}

/// SUATOM operation, 4 bits at 29 (ADD..EXCH).
fn su_op() -> ModGroup {
    g("op", 29, 4, &ATOMIC_INT_OPS)
}

/// SUATOM size table (4 is invalid).
fn su_size(lo: u8) -> ModGroup {
    g("size", lo, 3, &[(0, ""), (1, "S32"), (2, "U64"), (3, "F32.FTZ.RN"), (5, "S64"), (6, "SD32"), (7, "SD64")])
}

fn su_dim() -> ModGroup {
    g("dim", 33, 3, &[(0, "1D"), (1, "1D_BUFFER"), (2, "1D_ARRAY"), (3, "2D"), (4, "2D_ARRAY"), (5, "3D")])
}

fn su_clamp() -> ModGroup {
    g("clamp", 49, 2, &[(0, "IGN"), (1, ""), (2, "TRAP")])
}

pub(super) fn forms(out: &mut Vec<Form>) {
    let mut based = Vec::new();
    // ATOM{.E}.op{.sz} Rd, [Ra+ImmS20], Rb
    form("ATOM", "ATOM", 8, 0xed).facts(facts::ATOM)
        .m(flag(48, "E"))
        .m(atom_op(52))
        .m(atom_size(49))
        .op(r(0))
        .op(mem(28, 20))
        .op(r(20))
        .done(&mut based);
    // ATOM{.E}.CAS{.64}: bits 50..51 say where the compare and swap values are.
    // Layout 2: RZ, Rb (the register field holds the swap value); layout 1: Rb, RZ;
    // layout 0: Rb, Rb+1 (32-bit) / Rb, Rb+2 (64-bit). Layouts 1 and 2 are here to read and
    // check words (nvdisasm 11.8 decodes them); selection never uses them and the register
    // rules refuse them (RZ compare or swap: ptxas 11.8 writes `MOV R5, RZ` and layout 0 for a
    // zero swap value, tests/ptx/cas_zero_operands.ptx; unverified on hardware). The RZ layouts come first so that the
    // assembler tries them before the register pair (whose encoder insists on Rb+1 / Rb+2).
    for (wide, sfx, delta) in [(0u64, "", 1u8), (1, ".64", 2)] {
        for (layout, lk) in [(2u64, ".zr"), (1, ".rz"), (0, "")] {
            let key = leak_str(format!("ATOM.CAS{sfx}{lk}"));
            let f = form(key, "ATOM", 12, 0xeef)
                .facts(facts::ATOM)
                .fix(49, 1, wide)
                .fix(50, 2, layout)
                .m(flag(48, "E"))
                .lit("CAS");
            let f = if wide == 1 { f.lit("64") } else { f };
            let f = f.op(r(0)).op(mem(28, 20));
            let f = match layout {
                2 => f.op(implied_rz()).op(r(20)),
                1 => f.op(rnz(20)).op(implied_rz()),
                _ => f.op(rnz(20)).op(implied(2, delta)),
            };
            f.done(&mut based);
        }
    }
    // RED{.E}.op{.sz} [Ra+ImmS20], Rb (no EXCH, no CAS; bits 26..27 and 49..50 are ignored by
    // the disassembler and kept zero).
    form("RED", "RED", 13, 0xebf8 >> 3).facts(facts::RED)
        .fix(26, 2, 0)
        .fix(49, 2, 0)
        .m(flag(48, "E"))
        .m(g("op", 23, 3, &ATOMIC_INT_OPS[..8]))
        .m(atom_size(20))
        .op(mem(28, 20))
        .op(r(0))
        .done(&mut based);
    // ATOMS.op{.sz} Rd, [Ra+Imm], Rb: the 22-bit offset counts words.
    form("ATOMS", "ATOMS", 8, 0xec).facts(facts::ATOMS)
        .m(g("op", 52, 4, &ATOMIC_INT_OPS))
        .m(g("size", 28, 2, &[(0, ""), (1, "S32"), (2, "U64"), (3, "S64")]))
        .op(r(0))
        .op(mem_scaled(30, 22, 2))
        .op(r(20))
        .done(&mut based);
    // ATOMS.CAS / CAST / CAST.SPIN{.64} Rd, [Ra+Imm], Rb, Rb+1 (Rb+2).
    for (wide, key, delta) in [(0u64, "ATOMS.CAS", 1u8), (1, "ATOMS.CAS.64", 2)] {
        let f = form(key, "ATOMS", 9, 0xee0 >> 3).facts(facts::ATOMS).fix(52, 1, wide).m(g(
            "mode",
            53,
            2,
            &[(0, "CAST"), (1, "CAST.SPIN"), (2, "CAS")],
        ));
        let f = if wide == 1 { f.lit("64") } else { f };
        f.op(r(0)).op(mem_scaled(30, 22, 2)).op(rnz(20)).op(implied(2, delta)).done(&mut based);
    }
    for f in &based {
        if let Some(t) = absolute_twin(f) {
            out.push(t);
        }
    }
    out.extend(based);

    // A CAS's packed compare-and-swap group is never RZ: ptxas 11.8 puts a zero compare or
    // swap value in a register (`MOV R4, RZ` then `ATOM.E.CAS R0, [R2], R4, R5`,
    // tests/ptx/cas_zero_operands.ptx), and no GPU run has shown RZ reads as zero there.
    let data = |cas: bool| if cas { rnz(20) } else { r(20) };
    // SUATOM.D{.BA}.dim.op{.sz}{.clamp} Rd, [Ra], Rb, Rc (bindless: Rc holds the header
    // pointer) and SUATOM.D{.BA}.dim.CAS{.sz}{.clamp} (Rb holds compare, swap as a vector).
    for (cas, key, top) in [(false, "SUATOM", 0xea60u64 >> 5), (true, "SUATOM.CAS", 0xeac0 >> 5)] {
        let f = form(key, "SUATOM", 11, top)
            .facts(facts::SUATOM)
            .fix(51, 1, 0)
            .fix(52, 1, 1)
            .lit("D")
            .m(flag(28, "BA"))
            .m(su_dim());
        let f = if cas { f.fix(29, 4, 0).lit("CAS") } else { f.m(su_op()) };
        f.m(su_size(36)).m(su_clamp()).op(r(0)).op(mem0()).op(data(cas)).op(r(39)).done(out);
    }
    // Bound surface: the 13-bit header index sits in 36..48 and the size moves to 51..53.
    for (cas, key, top) in [(false, "SUATOM.bound", 0xea00u64 >> 6), (true, "SUATOM.CAS.bound", 0xea80 >> 6)] {
        let f = form(key, "SUATOM", 10, top).facts(facts::SUATOM).lit("D").m(flag(28, "BA")).m(su_dim());
        let f = if cas { f.fix(29, 4, 0).lit("CAS") } else { f.m(su_op()) };
        f.m(su_size(51)).m(su_clamp()).op(r(0)).op(mem0()).op(data(cas)).op(imm(36, 13)).done(out);
    }

    sured(out);
}

/// SURED.D{.BA}.dim.op{.sz}{.clamp} [Ra], Rb, Rc|idx: the surface reduction ptxas 11.8 emits for
/// every PTX `sured` (fields probed with nvdisasm 11.8 on ptxas's words, e.g.
/// `0xeb50010006070005` = `SURED.D.1D.OR.IGN [R0], R5, R2`, `0xeb58050006070002` =
/// `SURED.D.1D.OR.IGN [R0], R2, 0x50`). Unlike SUATOM the data register sits in 0..7 (there is
/// no Rd), the size moves to 20..22, `.BA` to 23 and the op to 24..26 (ADD..XOR; bit 27 and
/// 28..32 are ignored by nvdisasm and kept zero, as ptxas does). Bit 52 is `.D` (`.P` when
/// clear; ptxas 11.8 writes `.D` even for `sured.p`). Bit 51 picks the bound form, whose
/// 13-bit header index fills 36..48; the bindless form's 36..38 and 47..48 are ignored.
/// ptxas's index is the word offset of the surface's handle in constant bank 0 (its cubin says
/// EIATTR_BINDLESS_SURFACE_BANK 0): a `.u64` parameter at c[0x0][0x148] gives 0x52, a module
/// `.surfref` gives the word after the parameters through an R_CUDA_SURF_HEADER_INDEX relocation.
fn sured(out: &mut Vec<Form>) {
    let op = g("op", 24, 3, &ATOMIC_INT_OPS[..8]);
    let start = |key, top: u64| {
        form(key, "SURED", 13, top).facts(facts::SURED)
            .fix(27, 6, 0)
            .lit("D")
            .m(flag(23, "BA"))
            .m(su_dim())
            .m(op)
            .m(su_size(20))
            .m(su_clamp())
    };
    start("SURED", 0xeb50 >> 3).fix(36, 3, 0).fix(47, 2, 0).op(mem0()).op(r(0)).op(r(39)).done(out);
    start("SURED.bound", 0xeb58 >> 3).op(mem0()).op(r(0)).op(imm(36, 13)).done(out);
}
