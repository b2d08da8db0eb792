//! sm_90 integer, logic, compare and move forms.
//!
//! ALU opcodes come in operand-kind variants selected by bits 9..11: 0x2 all registers,
//! 0x4 immediate in the last source, 0x8 immediate in the second, 0xA constant in the second,
//! 0xC uniform register in the second, 0x6 constant in the last, 0xE uniform register in the
//! last. When the second or last source is not a register, the other register source moves to
//! bits 64..71. The uniform-register variants also set bit 91.

use super::*;

/// `.X` (LEA.HI and ULEA.HI add the carry-in predicate in 87..90), or without it that
/// predicate fixed to PT.
fn carry_in(f: F, x: bool) -> F {
    if x {
        f.lit("X")
    } else {
        f.fix(87, 4, 0xf)
    }
}

/// IMAD.WIDE and IMAD.HI (`variant`): IMAD without its carries (carry-out 81..83 and carry-in
/// 87..90 fixed to PT), signed when bit 73 is set; Rd, Ra, B, C in the operand kind's slots.
fn imad_variant(variant: &'static str, opc: u64, kind: u64, b91: u64, b: OpSpec, c: OpSpec) -> F {
    form(key(&format!("IMAD.{variant}"), kind), "IMAD", (kind << 8) | opc).facts(facts::IMAD)
        .fix(91, 1, b91)
        .fix(81, 3, 7)
        .fix(87, 4, 0xf)
        .lit(variant)
        .m(g("type", 73, 1, &[(0, "U32"), (1, "")]))
        .op(r(16))
        .op(rs(24, 0))
        .op(b)
        .op(c)
}

pub(super) fn forms(out: &mut Vec<Form>) {
    // MOV: source in the second slot only; bits 72..75 are a lane mask (0xf = all).
    for (kind, b91, src) in two(ImmKind::Hex) {
        form(key("MOV", kind), "MOV", (kind << 8) | 0x02)
            .facts(facts::MOV)
            .fix(91, 1, b91)
            .fix(72, 4, 0xf)
            .op(r(16))
            .op(src)
            .done(out);
    }
    // IADD3 and IADD3.X (carry-outs 81..83 / 84..86, carry-ins 87..90 / 77..80).
    for (kind, b91, b, c) in three_rc(ImmKind::SignedHex) {
        for x in [false, true] {
            let k = key(if x { "IADD3.X" } else { "IADD3" }, kind);
            let mut f = form(k, "IADD3", (kind << 8) | 0x10).facts(facts::IADD3).fix(91, 1, b91).fix(74, 1, x as u64);
            if x {
                f = f.lit("X");
            } else {
                f = f.fix(87, 4, 0xf).fix(77, 4, 0xf);
            }
            // Source A and register/uniform B carry a negation (`-R`) or, in .X, a bitwise
            // not (`~R`): bits 72 and 63.
            let (neg, not) = if x { (None, Some(72)) } else { (Some(72), None) };
            let a = rmod(24, Some(0), neg, None, not);
            let (bneg, bnot) = if x { (None, Some(63)) } else { (Some(63), None) };
            let b = match b {
                OpSpec::Reg(_) => rmod(32, Some(1), bneg, None, bnot),
                OpSpec::UReg(_) => urmod(32, bneg, bnot),
                other => other,
            };
            let c = match c {
                OpSpec::Reg(_) if !x => rmod(64, Some(2), Some(75), None, None),
                OpSpec::Reg(_) => rmod(64, Some(2), None, None, Some(75)),
                other => other,
            };
            f = f.op(r(16)).op(p_opt(81)).op(p_opt(84)).op(a).op(b).op(c);
            if x {
                f = f.op(pn(87, 90)).op(pn(77, 80));
            }
            f.done(out);
        }
    }
    // IMAD (with the MOV/SHL/IADD aliases) and IMAD.WIDE.
    for (kind, b91, b, c) in three(ImmKind::SignedHex) {
        for x in [false, true] {
            let k = key(if x { "IMAD.X" } else { "IMAD" }, kind);
            let mut f = form(k, "IMAD", (kind << 8) | 0x24).facts(facts::IMAD).fix(91, 1, b91).fix(81, 3, 7).m(g(
                "type",
                73,
                1,
                &[(0, "U32"), (1, "")],
            ));
            if x {
                f = f.fix(74, 1, 1).lit("X");
            } else {
                f = f.fix(74, 1, 0).fix(87, 4, 0xf).alias(Alias::Imad);
            }
            // C: negation, or bitwise not in .X (bit 75); a uniform C negated by bit 63 (ptxas
            // 13.5: `IMAD R0, RZ, RZ, -UR4`, 0x80000004ff007e24).
            let c = match c {
                OpSpec::Reg(_) if x => rmod(64, Some(2), None, None, Some(75)),
                OpSpec::Reg(_) => rmod(64, Some(2), Some(75), None, None),
                OpSpec::UReg(_) if !x => urmod(32, Some(63), None),
                other => other,
            };
            f = f.op(r(16)).op(rs(24, 0)).op(b).op(c);
            if x {
                f = f.op(pn(87, 90));
            }
            f.done(out);
        }
        if kind == 0x4 {
            continue;
        }
        imad_variant("WIDE", 0x25, kind, b91, b, c).done(out);
    }
    // LOP3.LUT: truth table in 72..79, optional predicate result, predicate input 87..90.
    for (kind, b91, b, c) in three_rc(ImmKind::Hex) {
        form(key("LOP3", kind), "LOP3", (kind << 8) | 0x12).facts(facts::LOP3)
            .fix(91, 1, b91)
            .lit("LUT")
            .op(p_opt(81))
            .op(r(16))
            .op(rs(24, 0))
            .op(b)
            .op(c)
            .op(imm(72, 8, ImmKind::Hex))
            .op(pn(87, 90))
            .done(out);
    }
    // ISETP: compare 76..78, unsigned when bit 73 is clear, combine 74..75, .EX bit 72.
    for (kind, b91, b) in two(ImmKind::SignedHex) {
        for ex in [false, true] {
            let k = key(if ex { "ISETP.EX" } else { "ISETP" }, kind);
            let mut f = form(k, "ISETP", (kind << 8) | 0x0c).facts(facts::ISETP)
                .fix(91, 1, b91)
                .fix(72, 1, ex as u64)
                .m(g(
                    "cmp",
                    76,
                    3,
                    &[(0, "F"), (1, "LT"), (2, "EQ"), (3, "LE"), (4, "GT"), (5, "NE"), (6, "GE"), (7, "T")],
                ))
                .m(g("type", 73, 1, &[(0, "U32"), (1, "")]))
                .m(g("bop", 74, 2, &[(0, "AND"), (1, "OR"), (2, "XOR")]));
            if ex {
                f = f.lit("EX");
            } else {
                f = f.fix(68, 4, 7);
            }
            f = f.op(p(81)).op(p(84)).op(rs(24, 0)).op(b).op(pn(87, 90));
            if ex {
                f = f.op(pn(68, 71));
            }
            f.done(out);
        }
    }
    // SEL / FSEL: Rd = Pp ? Ra : B.
    for (mn, facts, opc) in [("SEL", facts::SEL, 0x07u64), ("FSEL", facts::FSEL, 0x08)] {
        for (kind, b91, b) in two(if mn == "SEL" { ImmKind::Hex } else { ImmKind::F32 }) {
            // FSEL's A source takes negation / absolute value (72 / 73).
            let a = if mn == "FSEL" { rmod(24, Some(0), Some(72), Some(73), None) } else { rs(24, 0) };
            let f = form(key(mn, kind), mn, (kind << 8) | opc).facts(facts).fix(91, 1, b91);
            f.op(r(16)).op(a).op(b).op(pn(87, 90)).done(out);
        }
    }
}

/// Integer forms beyond the basics: shifts, min/max, add, permute, LEA, uniform ops.
pub(super) fn more_forms(out: &mut Vec<Form>) {
    // SHF: direction 76, .W 75, type 73..74, .HI 80.
    for (kind, b91, b, c) in three(ImmKind::Hex) {
        form(key("SHF", kind), "SHF", (kind << 8) | 0x19).facts(facts::SHF)
            .fix(91, 1, b91)
            .m(g("dir", 76, 1, &[(0, "L"), (1, "R")]))
            .m(flag(75, "W"))
            .m(g("type", 73, 2, &[(0, "S64"), (1, "U64"), (2, "S32"), (3, "U32")]))
            .m(flag(80, "HI"))
            .op(r(16))
            .op(rs(24, 0))
            .op(b)
            .op(c)
            .done(out);
    }
    // PRMT.
    for (kind, b91, b, c) in three(ImmKind::Hex) {
        form(key("PRMT", kind), "PRMT", (kind << 8) | 0x16).facts(facts::PRMT)
            .fix(91, 1, b91)
            .op(r(16))
            .op(rs(24, 0))
            .op(b)
            .op(c)
            .done(out);
    }
    // VIADD Rd, Ra, B.
    for (kind, b91, b) in two(ImmKind::SignedHex) {
        let b = match b {
            OpSpec::Reg(_) => rmod(32, Some(1), Some(63), None, None),
            OpSpec::UReg(_) => urmod(32, Some(63), None),
            OpSpec::Imm(_) => imm(32, 32, ImmKind::Hex),
            other => other,
        };
        form(key("VIADD", kind), "VIADD", (kind << 8) | 0x36)
            .facts(facts::VIADD)
            .fix(91, 1, b91)
            .op(r(16))
            .op(rs(24, 0))
            .op(b)
            .done(out);
    }
    // VIMNMX: signed unless bit 72 is clear; Pp picks min (PT) or max (!PT).
    for (kind, b91, b) in two(ImmKind::SignedHex) {
        form(key("VIMNMX", kind), "VIMNMX", (kind << 8) | 0x48).facts(facts::VIMNMX)
            .fix(91, 1, b91)
            .fix(81, 3, 7)
            .fix(84, 3, 7)
            .m(g("type", 72, 2, &[(0, "U32"), (1, ""), (2, "U16x2"), (3, "S16x2")]))
            .op(r(16))
            .op(rs(24, 0))
            .op(b)
            .op(pn(87, 90))
            .done(out);
    }
    // LEA Rd, [Pu,] Ra, B, shift; LEA.HI[.X] Rd, [Pu,] Ra, B, Rc, shift[, Pcarry]. Shift in
    // 75..79, .HI bit 80, .X bit 74, carry-out 81..83, carry-in 87..90. `.SX32` (bit 73) takes
    // the sign of Ra as the high word instead of Rc, whose field holds RZ: ptxas 13.5 writes
    // `LEA.HI.X.SX32 R3, R0, UR5, 0x1, P0` as 0x000fe200080f0eff_0000000500037c11 for a
    // sign-extended 32-bit offset added to a pointer.
    for (kind, b91, b) in two(ImmKind::Hex) {
        let names = [
            ("LEA", 0u64, 0u64, 0u64),
            ("LEA.HI", 1, 0, 0),
            ("LEA.HI.X", 1, 1, 0),
            ("LEA.HI.SX32", 1, 0, 1),
            ("LEA.HI.X.SX32", 1, 1, 1),
        ];
        for (name, hi, x, sx) in names {
            let mut f = form(key(name, kind), "LEA", (kind << 8) | 0x11).facts(facts::LEA)
                .fix(91, 1, b91)
                .fix(80, 1, hi)
                .fix(74, 1, x)
                .fix(73, 1, sx);
            if hi == 1 {
                f = f.lit("HI");
            }
            if hi == 0 || sx == 1 {
                f = f.fix(64, 8, 0xff);
            }
            f = carry_in(f, x == 1);
            if sx == 1 {
                f = f.lit("SX32");
            }
            f = f.op(r(16)).op(p_opt(81)).op(rs(24, 0)).op(b);
            if hi == 1 && sx == 0 {
                f = f.op(rs(64, 2));
            }
            f = f.op(imm(75, 5, ImmKind::Hex));
            if x == 1 {
                f = f.op(pn(87, 90));
            }
            f.done(out);
        }
    }
    // ULEA, the same on the uniform datapath (uniform predicates).
    let up_opt = OpSpec::UPred(PredSpec { field: Field::new(81, 3), not: None, hide_pt: true });
    for (name, hi, x) in [("ULEA", 0u64, 0u64), ("ULEA.HI", 1, 0), ("ULEA.HI.X", 1, 1)] {
        let mut f = form(name, "ULEA", 0x291).facts(facts::ULEA).uniform().fix(91, 1, 1).fix(80, 1, hi).fix(74, 1, x);
        if hi == 1 {
            f = f.lit("HI");
        } else {
            f = f.fix(64, 8, 0x3f);
        }
        f = carry_in(f, x == 1);
        f = f.op(ur(16)).op(up_opt).op(ur(24)).op(ur(32));
        if hi == 1 {
            f = f.op(ur(64));
        }
        f = f.op(imm(75, 5, ImmKind::Hex));
        if x == 1 {
            f = f.op(OpSpec::UPred(PredSpec {
                field: Field::new(87, 3),
                not: Some(Field::new(90, 1)),
                hide_pt: false,
            }));
        }
        f.done(out);
    }
    // Uniform datapath.
    form("UMOV.8", "UMOV", 0x882).facts(facts::UMOV).uniform().op(ur(16)).op(imm(32, 32, ImmKind::Hex)).done(out);
    form("UMOV.c", "UMOV", 0xc82).facts(facts::UMOV).uniform().fix(91, 1, 1).op(ur(16)).op(ur(32)).done(out);
    form("UFLO.U32", "UFLO", 0x2bd)
        .facts(facts::UFLO)
        .uniform()
        .fix(72, 20, 0x80e00)
        .lit("U32")
        .op(ur(16))
        .op(ur(32))
        .done(out);
    form("UBREV", "UBREV", 0x2be).facts(facts::UBREV).uniform().fix(72, 20, 0x80000).op(ur(16)).op(ur(32)).done(out);
    form("UPOPC", "UPOPC", 0x2bf).facts(facts::UPOPC).uniform().fix(72, 20, 0x80000).op(ur(16)).op(ur(32)).done(out);
    form("VOTEU", "VOTEU", 0x886).facts(facts::VOTEU)
        .fix(84, 3, 0)
        .m(g("mode", 72, 2, &[(0, "ALL"), (1, "ANY"), (2, "EQ")]))
        // nvdisasm hides a URZ destination here; the table requires a real one.
        .op(OpSpec::UReg(RegSpec {
            field: Field::new(16, 6),
            rz_ok: false,
            neg: None,
            abs: None,
            not: None,
            reuse: None,
        }))
        .op(OpSpec::UPred(PredSpec { field: Field::new(81, 3), not: None, hide_pt: false }))
        .op(pn(87, 90))
        .done(out);
}

/// Predicate logic: PLOP3.LUT Pd, Pq, Pa, Pb, Pc, lut, lut2 (lut split over 64..66 and 72..76).
pub(super) fn plop3(out: &mut Vec<Form>) {
    // Bit 67 makes the third input a uniform predicate.
    let upc = OpSpec::UPred(PredSpec { field: Field::new(68, 3), not: Some(Field::new(71, 1)), hide_pt: false });
    for (key, b67, pc) in [("PLOP3", 0u64, pn(68, 71)), ("PLOP3.up", 1, upc)] {
        form(key, "PLOP3", 0x81c).facts(facts::PLOP3)
            .fix(67, 1, b67)
            .lit("LUT")
            .op(p(81))
            .op(p(84))
            .op(pn(87, 90))
            .op(pn(77, 80))
            .op(pc)
            .op(OpSpec::Imm(ImmSpec { field: Field::split2((64, 3), (72, 5)), kind: ImmKind::Hex }))
            .op(imm(16, 8, ImmKind::Hex))
            .done(out);
    }
}

/// IMAD.HI, IABS, SHFL.
pub(super) fn misc(out: &mut Vec<Form>) {
    for (kind, b91, b, c) in three(ImmKind::SignedHex) {
        if kind == 0x4 {
            continue;
        }
        imad_variant("HI", 0x27, kind, b91, b, c).done(out);
    }
    for (kind, b91, b) in two(ImmKind::SignedHex) {
        form(key("IABS", kind), "IABS", (kind << 8) | 0x13)
            .facts(facts::IABS)
            .fix(91, 1, b91)
            .op(r(16))
            .op(b)
            .done(out);
    }
    // SHFL.mode Pd, Rd, Ra, lane, clamp; mode 58..59. The lane is an immediate (53..57) or a
    // register (B, 32..39), the clamp an immediate (40..52) or a register (C, 64..71): the
    // register clamp is ptxas 13's `shfl.sync.up` with a register lane.
    for (key, opcode, lane_imm, clamp_imm) in
        [("SHFL.ii", 0xf89, true, true), ("SHFL.ri", 0x589, false, true), ("SHFL.ir", 0x989, true, false), ("SHFL.rr", 0x389, false, false)]
    {
        let f = form(key, "SHFL", opcode).facts(facts::SHFL)
            .m(g("mode", 58, 2, &[(0, "IDX"), (1, "UP"), (2, "DOWN"), (3, "BFLY")]))
            .op(p(81))
            .op(r(16))
            .op(rs(24, 0));
        let f = if lane_imm { f.op(imm(53, 5, ImmKind::Hex)) } else { f.op(rs(32, 1)) };
        if clamp_imm { f.op(imm(40, 13, ImmKind::Hex)) } else { f.op(r(64)) }.done(out);
    }
}

/// Uniform-datapath integer forms seen in ptxas output for atomc's kernels.
pub(super) fn uniform(out: &mut Vec<Form>) {
    // UIADD3 / UIADD3.X: like IADD3 with uniform registers and predicates; always bit 91.
    let upo = |lo| OpSpec::UPred(PredSpec { field: Field::new(lo, 3), not: None, hide_pt: true });
    let upn =
        |lo, not| OpSpec::UPred(PredSpec { field: Field::new(lo, 3), not: Some(Field::new(not, 1)), hide_pt: false });
    for kind in [0x2u64, 0x8] {
        for x in [false, true] {
            // B: negation, or bitwise not in .X (bit 63).
            let b = match (kind, x) {
                (0x2, false) => urmod(32, Some(63), None),
                (0x2, true) => urmod(32, None, Some(63)),
                _ => imm(32, 32, ImmKind::SignedHex),
            };
            let k = key(if x { "UIADD3.X" } else { "UIADD3" }, kind);
            let mut f = form(k, "UIADD3", (kind << 8) | 0x90)
                .facts(facts::UIADD3)
                .uniform()
                .fix(91, 1, 1)
                .fix(74, 1, x as u64);
            if x {
                f = f.lit("X");
            } else {
                f = f.fix(87, 4, 0xf).fix(77, 4, 0xf);
            }
            let (neg, not) = if x { (None, Some(72)) } else { (Some(72), None) };
            f = f.op(ur(16)).op(upo(81)).op(upo(84)).op(urmod(24, neg, not)).op(b).op(ur(64));
            if x {
                f = f.op(upn(87, 90)).op(upn(77, 80));
            }
            f.done(out);
        }
    }
    // UIMAD / UIMAD.WIDE: IMAD on uniform registers (register sources only here).
    for (k, opc, wide) in [("UIMAD", 0x2a4u64, false), ("UIMAD.WIDE", 0x2a5, true)] {
        let mut f = form(k, "UIMAD", opc)
            .facts(facts::UIMAD)
            .uniform()
            .fix(91, 1, 1)
            .fix(81, 3, 7)
            .fix(87, 4, 0xf)
            .fix(74, 1, 0);
        if wide {
            f = f.lit("WIDE");
        }
        f.m(g("type", 73, 1, &[(0, "U32"), (1, "")])).op(ur(16)).op(ur(24)).op(ur(32)).op(ur(64)).done(out);
    }
    // UIMAD / UIMAD.WIDE with an immediate B (ptxas 13.5: `UIMAD.WIDE.U32 UR6, UR6, 0x1, URZ`).
    for (k, opc, wide) in [("UIMAD.8", 0x8a4u64, false), ("UIMAD.WIDE.8", 0x8a5, true)] {
        let mut f = form(k, "UIMAD", opc)
            .facts(facts::UIMAD)
            .uniform()
            .fix(91, 1, 1)
            .fix(81, 3, 7)
            .fix(87, 4, 0xf)
            .fix(74, 1, 0);
        if wide {
            f = f.lit("WIDE");
        }
        f.m(g("type", 73, 1, &[(0, "U32"), (1, "")]))
            .op(ur(16))
            .op(ur(24))
            .op(imm(32, 32, ImmKind::SignedHex))
            .op(ur(64))
            .done(out);
    }
    // ULOP3.LUT, USHF, UPRMT: LOP3, SHF and PRMT on the uniform datapath (register or
    // immediate B; ptxas 13.5's sub-word atomics compute masks and shifts with them).
    for (kind, b) in [(0x2u64, ur(32)), (0x8, imm(32, 32, ImmKind::Hex))] {
        form(key("ULOP3", kind), "ULOP3", (kind << 8) | 0x92).facts(facts::ULOP3)
            .uniform()
            .fix(91, 1, 1)
            .lit("LUT")
            .op(upo(81))
            .op(ur(16))
            .op(ur(24))
            .op(b)
            .op(ur(64))
            .op(imm(72, 8, ImmKind::Hex))
            .op(upn(87, 90))
            .done(out);
        form(key("USHF", kind), "USHF", (kind << 8) | 0x99).facts(facts::USHF)
            .uniform()
            .fix(91, 1, 1)
            .m(g("dir", 76, 1, &[(0, "L"), (1, "R")]))
            .m(flag(75, "W"))
            .m(g("type", 73, 2, &[(0, "S64"), (1, "U64"), (2, "S32"), (3, "U32")]))
            .m(flag(80, "HI"))
            .op(ur(16))
            .op(ur(24))
            .op(b)
            .op(ur(64))
            .done(out);
        form(key("UPRMT", kind), "UPRMT", (kind << 8) | 0x96).facts(facts::UPRMT)
            .uniform()
            .fix(91, 1, 1)
            .op(ur(16))
            .op(ur(24))
            .op(b)
            .op(ur(64))
            .done(out);
    }
    // REDUX: warp-wide reduction of a register into a uniform register (op 78..80, .S32 bit 73).
    form("REDUX", "REDUX", 0x3c4).facts(facts::REDUX)
        .m(g("op", 78, 3, &[(0, ""), (1, "OR"), (2, "XOR"), (3, "SUM"), (4, "MIN"), (5, "MAX")]))
        .m(g("type", 73, 1, &[(0, ""), (1, "S32")]))
        .op(ur(16))
        .op(rs(24, 0))
        .done(out);
    // POPC and FLO (leading one), register or uniform source.
    // Opcodes 0x309 / 0x300 with a register, 0xD09 / 0xD00 with a uniform register.
    for (kind, b91, b) in [(0x3u64, 0u64, rs(32, 1)), (0xd, 1, ur(32))] {
        form(key("POPC", kind), "POPC", (kind << 8) | 0x09)
            .facts(facts::POPC)
            .fix(91, 1, b91)
            .op(r(16))
            .op(b)
            .done(out);
        form(key("FLO", kind), "FLO", (kind << 8) | 0x00).facts(facts::FLO)
            .fix(91, 1, b91)
            .fix(81, 3, 7)
            .m(g("type", 73, 1, &[(0, "U32"), (1, "")]))
            .op(r(16))
            .op(b)
            .done(out);
    }
}
