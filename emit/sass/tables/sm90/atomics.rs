//! sm_90 atomics: ATOM (generic), ATOMG (global), ATOMS (shared), REDG, SUATOM / SURED.
//! Field positions: see the module header and the reference notes on sm_90 atomics; every
//! group below was checked value by value with nvdisasm.

use super::*;

/// Memory order and scope, bits 77..80 (all 16 code points).
pub(super) fn sem() -> ModGroup {
    g(
        "sem",
        77,
        4,
        &[
            (0, ""),
            (1, "CONSTANT.PRIVATE"),
            (2, "CONSTANT.CTA"),
            (3, "CONSTANT.CTA.PRIVATE"),
            (4, "STRONG.SM.PRIVATE"),
            (5, "STRONG.SM"),
            (6, "STRONG.GPU.PRIVATE"),
            (7, "STRONG.GPU"),
            (8, "MMIO.GPU"),
            (9, "CONSTANT.SM"),
            (10, "STRONG.SYS"),
            (11, "CONSTANT.SM.PRIVATE"),
            (12, "MMIO.SYS"),
            (13, "CONSTANT.VC"),
            (14, "CONSTANT.VC.PRIVATE"),
            (15, "CONSTANT.GPU"),
        ],
    )
}

/// Cache eviction priority, bits 84..86 (1 = default).
pub(super) fn evict() -> ModGroup {
    g("evict", 84, 3, &[(0, "EF"), (1, ""), (2, "EL"), (3, "LU"), (4, "EU"), (5, "NA")])
}

/// `.E` that the uniform-register address forms require (value 0 prints `???0`).
pub(super) fn e_only() -> ModGroup {
    g("E", 72, 1, &[(1, "E")])
}

fn int_op() -> ModGroup {
    g("op", 87, 4, &ATOMIC_INT_OPS)
}

fn int_size() -> ModGroup {
    g("size", 73, 3, &[(0, ""), (1, "S32"), (2, "64"), (3, "S64"), (4, "128")])
}

fn cas_size() -> ModGroup {
    g("size", 73, 3, &[(0, ""), (1, "S32"), (2, "64"), (4, "128")])
}

/// Float atomic types, bits 73..76 of the float opcodes.
fn float_type() -> ModGroup {
    g(
        "type",
        73,
        4,
        &[
            (0, "F16x2.RN"),
            (1, "F16x4.RN"),
            (2, "F16x8.RN"),
            (3, "BF16x2.RN"),
            (4, "BF16x4.RN"),
            (5, "BF16x8.RN"),
            (9, "F32.FTZ.RN"),
            (10, "F32x2.FTZ.RN"),
            (11, "F32x4.FTZ.RN"),
            (12, "F32.RN"),
            (13, "F32x2.RN"),
            (14, "F32x4.RN"),
            (15, "F64.RN"),
        ],
    )
}

fn float_op() -> ModGroup {
    g("op", 88, 2, &[(0, "ADD"), (1, "MIN"), (2, "MAX")])
}

/// The three uniform-register address shapes of the `0x9xx` forms (bits 70/71, UR in 64..69).
fn ur_addrs() -> [(&'static str, u64, u64, MemSpec); 3] {
    let u = |w| MemSpec { ureg: Some(Field::new(64, 6)), ..mem(w) };
    let d = MemSpec { desc: Some(Field::new(64, 6)), ..mem(BaseWidth::Wide) };
    [("u32ur", 0, 0, u(BaseWidth::U32)), ("64ur", 1, 0, u(BaseWidth::Wide)), ("desc", 1, 1, d)]
}

/// The modifiers every global atomic and reduction has, in print order: `.E` (a flag with a
/// plain address, required with a uniform register in it), the operation, eviction priority,
/// size or type, then memory order and scope.
fn global_mods(f: F, uniform_addr: bool, op: ModGroup, size: ModGroup) -> F {
    f.m(if uniform_addr { e_only() } else { flag(72, "E") }).m(op).m(evict()).m(size).m(sem())
}

/// The address (reuse slot 0) and data register Rb (slot 1) every atomic and reduction takes.
fn addr_data(f: F, addr: MemSpec) -> F {
    f.op(OpSpec::Mem(MemSpec { reuse: Some(0), ..addr })).op(rs(32, 1))
}

/// The compare (Rb, slot 1 of the reuse flags) and swap (Rc, slot 2) values of every CAS form,
/// never RZ. nvdisasm 13 decodes RZ there, but ptxas 13.5 never writes it: for
/// `atom.global.cas.b32 %r2, [%rd2], 0, %r1` it puts the zero in a register
/// (`HFMA2.MMA R4, -RZ, RZ, 0, 0` then `ATOMG.E.CAS.STRONG.GPU PT, R5, [R2], R4, R5`; a 64-bit
/// zero `CS2R R4, SRZ`; `ATOMS.CAS R5, [R0], R4, R5` likewise: tests/ptx/cas_zero_operands.ptx).
/// Until a GPU run shows RZ reads as zero there, selection materializes it
/// (`Isel::zeros_in_registers`), and the register rules forbid it.
fn cas_values(f: F, addr: MemSpec) -> F {
    f.op(OpSpec::Mem(MemSpec { reuse: Some(0), ..addr })).op(rsnz(32, 1)).op(rsnz(64, 2))
}

/// An ATOM / ATOMG form: the global modifiers, then Pd, Rd, the address and Rb.
fn atom(f: F, addr: MemSpec, uniform_addr: bool, op: ModGroup, size: ModGroup) -> F {
    addr_data(global_mods(f, uniform_addr, op, size).op(p(81)).op(r(16)), addr)
}

/// The compare-and-swap operation group (bits 87..88) of ATOM and ATOMS.
fn cas_op() -> ModGroup {
    g("op", 87, 2, &[(0, "CAS"), (1, "CAST"), (3, "CAST.SPIN")])
}

pub(super) fn forms(out: &mut Vec<Form>) {
    let plain = || mem(BaseWidth::Plain);
    // Integer ATOM / ATOMG, plain address.
    for (key, mn, facts, opc) in [("ATOM", "ATOM", facts::ATOM, 0x38a), ("ATOMG", "ATOMG", facts::ATOMG, 0x3a8)] {
        atom(form(key, mn, opc).facts(facts).fix(91, 1, 0), plain(), false, int_op(), int_size()).done(out);
    }
    // Integer ATOM / ATOMG with a uniform register in the address.
    for (mn, facts, opc) in [("ATOM", facts::ATOM, 0x98a), ("ATOMG", facts::ATOMG, 0x9a8)] {
        for (sfx, b70, b71, m) in ur_addrs() {
            let key = leak_str(format!("{}.{}", mn, sfx));
            let f = form(key, mn, opc).facts(facts).fix(91, 1, 1).fix(70, 1, b70).fix(71, 1, b71);
            atom(f, m, true, int_op(), int_size()).done(out);
        }
    }
    // Compare-and-swap: compare value in Rb, swap value in Rc (independent registers).
    for (key, mn, facts, opc, cast) in
        [("ATOM.CAS", "ATOM", facts::ATOM, 0x38b, true), ("ATOMG.CAS", "ATOMG", facts::ATOMG, 0x3a9, false)]
    {
        let f = form(key, mn, opc).facts(facts).fix(91, 1, 0);
        // ATOMG has no CAST: its operation bits are fixed and CAS is a plain spelling.
        let (f, op) = if cast { (f, cas_op()) } else { (f.fix(87, 2, 0), literal("CAS")) };
        cas_values(global_mods(f, false, op, cas_size()).op(p(81)).op(r(16)), plain()).done(out);
    }
    // Float ATOM / ATOMG (separate opcodes on sm_90).
    for (mn, facts, opc, uopc) in [("ATOM", facts::ATOM, 0x3a2, 0x9a2), ("ATOMG", facts::ATOMG, 0x3a3, 0x9a3)] {
        let key = leak_str(format!("{}.F", mn));
        let f = form(key, mn, opc).facts(facts).fix(91, 1, 0).fix(87, 1, 0).fix(90, 1, 0);
        atom(f, plain(), false, float_op(), float_type()).done(out);
        for (sfx, b70, b71, m) in ur_addrs() {
            let key = leak_str(format!("{}.F.{}", mn, sfx));
            let f = form(key, mn, uopc)
                .facts(facts)
                .fix(91, 1, 1)
                .fix(87, 1, 0)
                .fix(90, 1, 0)
                .fix(70, 1, b70)
                .fix(71, 1, b71);
            atom(f, m, true, float_op(), float_type()).done(out);
        }
    }
    // REDG: bit 91 selects the uniform-register forms, bit 90 a 64-bit base, bit 71 desc.
    let red_op = || g("op", 87, 3, &ATOMIC_INT_OPS[..8]);
    let red_addrs = || {
        let u = |w| MemSpec { ureg: Some(Field::new(64, 6)), ..mem(w) };
        let d = MemSpec { desc: Some(Field::new(64, 6)), ..mem(BaseWidth::Wide) };
        [
            ("plain", 0u64, 0u64, 0u64, mem(BaseWidth::Plain)),
            ("u32ur", 1, 0, 0, u(BaseWidth::U32)),
            ("64ur", 1, 1, 0, u(BaseWidth::Wide)),
            ("desc", 1, 1, 1, d),
        ]
    };
    for (sfx, b91, b90, b71, m) in red_addrs() {
        let uniform = b91 == 1;
        // Bit 71 (desc) is fixed only in the uniform-register forms.
        let desc_bit = |f: F| if uniform { f.fix(71, 1, b71) } else { f };
        let key = leak_str(format!("REDG.{}", sfx));
        let f = desc_bit(form(key, "REDG", 0x98e).facts(facts::REDG).fix(91, 1, b91).fix(90, 1, b90));
        let size = g("size", 73, 3, &[(0, ""), (1, "S32"), (2, "64"), (3, "S64")]);
        addr_data(global_mods(f, uniform, red_op(), size), m).done(out);
        let key = leak_str(format!("REDG.F.{}", sfx));
        let f = desc_bit(form(key, "REDG", 0x9a6).facts(facts::REDG).fix(91, 1, b91).fix(90, 1, b90).fix(87, 1, 0));
        addr_data(global_mods(f, uniform, float_op(), float_type()), m).done(out);
    }
    // ATOMS (shared): no order or eviction fields; index scale in 78..79.
    let shared = |key, opc, b91, op, addr| {
        let f = form(key, "ATOMS", opc).facts(facts::ATOMS).fix(91, 1, b91).m(op).m(cas_size()).op(r(16));
        addr_data(f, MemSpec { scale: Some(Field::new(78, 2)), ..addr })
    };
    shared("ATOMS", 0x38c, 0, int_op(), plain()).done(out);
    shared("ATOMS.ur", 0x98c, 1, int_op(), MemSpec { ureg: Some(Field::new(64, 6)), ..plain() }).done(out);
    let f = form("ATOMS.CAS", "ATOMS", 0x38d).facts(facts::ATOMS).fix(91, 1, 0).m(cas_op()).m(cas_size()).op(r(16));
    cas_values(f, MemSpec { scale: Some(Field::new(78, 2)), ..plain() }).done(out);
    // Warp-aggregated shared increment ptxas emits for `atom.shared.inc` patterns:
    // `ATOMS.POPC.INC.32 Rd, [Ra+URb]` (0xF8C, op bits 87..91 = 27).
    form("ATOMS.POPC.INC", "ATOMS", 0xf8c).facts(facts::ATOMS)
        .fix(87, 5, 27)
        .lit("POPC")
        .lit("INC")
        .lit("32")
        .op(r(16))
        .op(OpSpec::Mem(MemSpec { ureg: Some(Field::new(64, 6)), ..mem(BaseWidth::Plain) }))
        .done(out);
    // Surface atomics (bindless handle in Rc); no address offset. All share one modifier list:
    // `.D`, `.BA`, dimension, operation, eviction, size, order, out-of-range clamp.
    let su_size = || {
        g(
            "size",
            73,
            3,
            &[(0, ""), (1, "S32"), (2, "U64"), (3, "F32.FTZ.RN"), (4, "F16x2.RN"), (5, "S64"), (6, "SD32"), (7, "SD64")],
        )
    };
    let dim = || g("dim", 61, 3, &[(0, "1D"), (1, "1D_BUFFER"), (2, "1D_ARRAY"), (3, "2D"), (4, "2D_ARRAY"), (5, "3D")]);
    let clamp = || g("clamp", 59, 2, &[(0, "IGN"), (1, ""), (2, "TRAP")]);
    let surface = |f: F, op, size| {
        f.lit("D").m(flag(72, "BA")).m(dim()).m(op).m(evict()).m(size).m(sem()).m(clamp())
    };
    let su_mem = OpSpec::Mem(MemSpec { offset: None, ..mem(BaseWidth::Plain) });
    // SUATOM's operands: Pd (left out when PT), Rd, [Ra], Rb and the handle Rc.
    let suatom_ops = |f: F| f.op(p_opt(81)).op(r(16)).op(su_mem).op(r(32)).op(rnz(64));
    let f = form("SUATOM", "SUATOM", 0x394).facts(facts::SUATOM).fix(91, 1, 0);
    suatom_ops(surface(f, int_op(), su_size())).done(out);
    let f = form("SUATOM.CAS", "SUATOM", 0x396).facts(facts::SUATOM).fix(91, 1, 0).fix(87, 4, 0);
    let su_cas_size = g("size", 73, 3, &[(0, ""), (1, "S32"), (2, "64")]);
    // The packed compare-and-swap group, never RZ (see `cas_values`).
    let f = surface(f, literal("CAS"), su_cas_size).op(p_opt(81)).op(r(16)).op(su_mem).op(rnz(32));
    f.op(rnz(64)).done(out);
    // The form ptxas emits for bindless `sured.b`: handle in a uniform register (40..45) plus an
    // immediate (46..53), opcode 0xF9F with bit 91 set.
    let f = form("SURED.ur", "SURED", 0xf9f)
        .facts(facts::SURED)
        .fix(91, 1, 1)
        .fix(90, 1, 0)
        .fix(81, 3, 0)
        .fix(64, 8, 0);
    surface(f, red_op(), su_size()).op(su_mem).op(r(32)).op(ur(40)).op(imm(46, 8, ImmKind::Hex)).done(out);
    let f = form("SURED", "SURED", 0x3a0).facts(facts::SURED).fix(91, 1, 0).fix(90, 1, 0);
    surface(f, red_op(), su_size()).op(su_mem).op(r(32)).op(rnz(64)).done(out);
}
