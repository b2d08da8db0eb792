//! sm_90 floating-point arithmetic, compares and conversions.
//!
//! FADD/DADD put their second source in the "last source" slot of the kind encoding (0x2
//! register at 32, 0x4 immediate, 0x6 constant, 0xE uniform register), FMUL/DMUL in the
//! "second source" slot (0x2, 0x8, 0xA, 0xC). Negation/absolute value: source A at 72/73,
//! register source B at 63/62.

use super::*;

fn a_src() -> OpSpec {
    rmod(24, Some(0), Some(72), Some(73), None)
}

/// Flush-to-zero, bit 80.
fn ftz() -> ModGroup {
    flag(80, "FTZ")
}

/// Rounding, bits 78..79 (round-to-nearest is the default).
fn rnd() -> ModGroup {
    g("rnd", 78, 2, &[(0, ""), (1, "RM"), (2, "RP"), (3, "RZ")])
}

fn b_reg() -> OpSpec {
    rmod(32, Some(1), Some(63), Some(62), None)
}

/// What FSETP and DSETP share after their compare (and FSETP's `.FTZ`): the combine 74..75,
/// then Pd, Pq, A, B and the predicate input Pp.
fn setp_tail(f: F, b: OpSpec) -> F {
    f.m(g("bop", 74, 2, &[(0, "AND"), (1, "OR"), (2, "XOR")])).op(p(81)).op(p(84)).op(a_src()).op(b).op(pn(87, 90))
}

/// One conversion form: key, mnemonic, facts, opcode, modifier spellings, type bits (72..87).
type ConvForm = (&'static str, &'static str, Facts, u64, Vec<&'static str>, u64);

/// F2I and I2F for every integer / float size pair, in the order they were collected (per
/// float size F16, F32, F64; per integer S8, U8, S16, U16, S32, U32, S64, U64; F2I before I2F):
/// [`ConvForm`]s. ptxas 13.5 writes them for cvt.rzi.{s,u}N.fM
/// and cvt.rn.fM.{s,u}N (0x004e24000010e900_0000000000057305 `F2I.S16.F16.TRUNC.NTZ R5, R0`,
/// 0x004e240000300c00_0000000400057312 `I2F.F16.S64 R5, R4`). Bits 72..87: F2I source float
/// size at 84 (1 f16, 2 f32, 3 f64), TRUNC 0xc0, NTZ 0x20 (not with an f64 source or a 64-bit
/// result), result size 0/8/0x10/0x18, signed bit 0; I2F source size at 84 (0 8-bit to 3
/// 64-bit), result 0x08 f16 / 0x10 f32 / 0x18 f64, signed 0x04. Opcode 0x311/0x312 where either
/// side is 64 bits wide, else 0x305/0x306. S32 and F32 are the unprinted defaults.
fn size_pairs() -> Vec<ConvForm> {
    // (name, size code 0..3 for 8..64 bits, signed)
    let ints: [(&str, u64, u64); 8] = [
        ("S8", 0, 1), ("U8", 0, 0), ("S16", 1, 1), ("U16", 1, 0),
        ("S32", 2, 1), ("U32", 2, 0), ("S64", 3, 1), ("U64", 3, 0),
    ];
    let printed = |names: [&'static str; 2]| -> Vec<&'static str> {
        names.into_iter().filter(|&n| n != "S32" && n != "F32").collect()
    };
    let key = |mn: &str, lits: &[&str]| leak_str([mn].iter().chain(lits).copied().collect::<Vec<_>>().join("."));
    let mut v = Vec::new();
    for (fl, fsz) in [("F16", 1u64), ("F32", 2), ("F64", 3)] {
        for (int, isz, signed) in ints {
            let wide = fsz == 3 || isz == 3;
            let mut f2i = printed([int, fl]);
            f2i.push("TRUNC");
            if !wide {
                f2i.push("NTZ");
            }
            let bits = (fsz << 12) | 0xc0 | (if wide { 0 } else { 0x20 }) | (isz * 8) | signed;
            v.push((key("F2I", &f2i), "F2I", facts::F2I, if wide { 0x311 } else { 0x305 }, f2i, bits));
            let i2f = printed([fl, int]);
            let bits = (isz << 12) | (fsz * 8) | (signed * 4);
            v.push((key("I2F", &i2f), "I2F", facts::I2F, if wide { 0x312 } else { 0x306 }, i2f, bits));
        }
    }
    v
}

pub(super) fn forms(out: &mut Vec<Form>) {
    // FADD / DADD.
    for (mn, facts, opc, ik) in
        [("FADD", facts::FADD, 0x21u64, ImmKind::F32), ("DADD", facts::DADD, 0x29, ImmKind::F64Hi)]
    {
        // DADD's register form reads its second source from 64..71, FADD's from 32..39; DADD's
        // negates it with bit 75 and takes its absolute value with 74 (nvdisasm 13: `DADD R2,
        // R4, R6` with bit 75 set prints `DADD R2, R4, -R6`, with 74 `|R6|`).
        let reg = if mn == "DADD" { rmod(64, Some(1), Some(75), Some(74), None) } else { b_reg() };
        for (kind, b91, b) in [(0x2u64, 0u64, reg), (0x4, 0, imm(32, 32, ik)), (0x6, 0, cbank()), (0xe, 1, ur(32))] {
            let mut f = form(key(mn, kind), mn, (kind << 8) | opc).facts(facts).fix(91, 1, b91);
            if !(mn == "DADD" && kind == 0x2) {
                f = f.fix(64, 8, 0);
            }
            if mn == "FADD" {
                f = f.m(ftz());
            }
            f.m(rnd()).op(r(16)).op(a_src()).op(b).done(out);
        }
    }
    // FMUL / DMUL.
    for (mn, facts, opc, ik) in
        [("FMUL", facts::FMUL, 0x20u64, ImmKind::F32), ("DMUL", facts::DMUL, 0x28, ImmKind::F64Hi)]
    {
        for (kind, b91, b) in two(ik) {
            let mut f = form(key(mn, kind), mn, (kind << 8) | opc).facts(facts).fix(91, 1, b91);
            if mn == "FMUL" {
                f = f.m(ftz()).m(g("scale", 84, 3, &[(1, "D8"), (2, "D4"), (3, "D2"), (4, ""), (5, "M2"), (6, "M4"), (7, "M8")]));
            }
            let b = match b {
                OpSpec::Reg(_) => rmod(32, Some(1), Some(63), None, None),
                other => other,
            };
            f.m(rnd()).op(r(16)).op(rmod(24, Some(0), Some(72), None, None)).op(b).done(out);
        }
    }
    // FFMA / DFMA.
    for (mn, facts, opc, ik) in
        [("FFMA", facts::FFMA, 0x23u64, ImmKind::F32), ("DFMA", facts::DFMA, 0x2b, ImmKind::F64Hi)]
    {
        for (kind, b91, b, c) in three(ik) {
            // Negation: A at 72, C (when a register) at 75.
            let c = match c {
                OpSpec::Reg(_) => rmod(64, Some(2), Some(75), None, None),
                other => other,
            };
            let mut f = form(key(mn, kind), mn, (kind << 8) | opc).facts(facts).fix(91, 1, b91);
            if mn == "FFMA" {
                f = f.m(ftz());
            }
            f.m(rnd()).op(r(16)).op(rmod(24, Some(0), Some(72), None, None)).op(b).op(c).done(out);
        }
    }
    // FMNMX: Pp selects min (PT) or max (!PT).
    for (kind, b91, b) in two(ImmKind::F32) {
        form(key("FMNMX", kind), "FMNMX", (kind << 8) | 0x09)
            .facts(facts::FMNMX)
            .fix(91, 1, b91)
            .m(ftz())
            .op(r(16))
            .op(a_src())
            .op(b)
            .op(pn(87, 90))
            .done(out);
    }
    // FSETP: 4-bit compare 76..79, combine 74..75.
    for (kind, b91, b) in two(ImmKind::F32) {
        let f = form(key("FSETP", kind), "FSETP", (kind << 8) | 0x0b).facts(facts::FSETP).fix(91, 1, b91);
        setp_tail(f.m(g("cmp", 76, 4, &FLOAT_COMPARES)).m(ftz()), b).done(out);
    }
    // DSETP: FSETP's layout on the FP64 pipe (register or uniform B). The compare values F
    // and T print as MIN and MAX: ptxas 13.5 computes fmax.f64 with `DSETP.MAX.AND P0, P1`
    // then selects by P0 and quietens by P1.
    let dcmp: Vec<(u64, &'static str)> =
        FLOAT_COMPARES.iter().map(|&(v, s)| (v, if v == 0 { "MIN" } else if v == 15 { "MAX" } else { s })).collect();
    for (kind, b91, b) in [(0x2u64, 0u64, rs(32, 1)), (0xe, 1, ur(32))] {
        let f = form(key("DSETP", kind), "DSETP", (kind << 8) | 0x2a).facts(facts::DSETP).fix(91, 1, b91);
        setp_tail(f.m(g("cmp", 76, 4, &dcmp)), b).done(out);
    }
    // Conversions in the exact variants ptxas uses (other type pairs are not in the table yet).
    let listed = [
        ("I2FP.F32.S32", "I2FP", facts::I2FP, 0x245u64, &["F32", "S32"][..], 0x2014u64),
        ("I2FP.F32.U32", "I2FP", facts::I2FP, 0x245, &["F32", "U32"][..], 0x2010),
        ("F2I.TRUNC.NTZ", "F2I", facts::F2I, 0x305, &["TRUNC", "NTZ"][..], 0x20f1),
        ("F2F.F32.F64", "F2F", facts::F2F, 0x310, &["F32", "F64"][..], 0x3010),
        ("F2F.F64.F32", "F2F", facts::F2F, 0x310, &["F64", "F32"][..], 0x2018),
        ("F2I.U32.TRUNC.NTZ", "F2I", facts::F2I, 0x305, &["U32", "TRUNC", "NTZ"][..], 0x20f0),
        ("F2I.NTZ", "F2I", facts::F2I, 0x305, &["NTZ"][..], 0x2031),
        ("F2I.FTZ.U32.TRUNC.NTZ", "F2I", facts::F2I, 0x305, &["FTZ", "U32", "TRUNC", "NTZ"][..], 0x21f0),
        ("I2F.F64", "I2F", facts::I2F, 0x312, &["F64"][..], 0x201c),
        ("I2F.F64.U32", "I2F", facts::I2F, 0x312, &["F64", "U32"][..], 0x2018),
        ("F2F.F16.F32", "F2F", facts::F2F, 0x304, &["F16", "F32"][..], 0x2008),
        // ptxas 13.5's cvt.rn.f16.f64: 0x004e240000300800_0000000600077310 `F2F.F16.F64 R7, R6`.
        ("F2F.F16.F64", "F2F", facts::F2F, 0x310, &["F16", "F64"][..], 0x3008),
        ("I2F.RP", "I2F", facts::I2F, 0x306, &["RP"][..], 0x2094),
        ("I2F.U32.RP", "I2F", facts::I2F, 0x306, &["U32", "RP"][..], 0x2090),
        // ptxas 13.5's div.u64: 0x000e300000309000_00000004000a7312 `I2F.U64.RP R10, R4`,
        // 0x000e24000020d800_0000000600067311 `F2I.U64.TRUNC R6, R6`.
        ("I2F.U64.RP", "I2F", facts::I2F, 0x312, &["U64", "RP"][..], 0x3090),
        ("F2I.U64.TRUNC", "F2I", facts::F2I, 0x311, &["U64", "TRUNC"][..], 0x20d8),
        // ptxas 13.5's 16-bit division: 0x000e240000101000_0000000700047306 `I2F.U16 R4, R7`,
        // 0x000e62000010d000_0000000400047306 `I2F.U16.RZ R4, R4`.
        ("I2F.U16", "I2F", facts::I2F, 0x306, &["U16"][..], 0x1010),
        ("I2F.U16.RZ", "I2F", facts::I2F, 0x306, &["U16", "RZ"][..], 0x10d0),
    ];
    // Then every integer/float size pair not listed above (see `size_pairs`); the plain `I2F`
    // (S32 to F32, rounded to nearest) is left out: ptxas writes I2FP.F32.S32 for it.
    let listed_keys: Vec<&str> = listed.iter().map(|l| l.0).collect();
    let pairs = size_pairs().into_iter().filter(|p| p.0 != "I2F" && !listed_keys.contains(&p.0));
    let listed = listed.into_iter().map(|(k, mn, facts, opc, lits, bits)| (k, mn, facts, opc, lits.to_vec(), bits));
    for (k, mn, facts, opc, lits, bits) in listed.chain(pairs) {
        let mut f = form(k, mn, opc).facts(facts).fix(72, 16, bits);
        for l in lits {
            f = f.lit(l);
        }
        f.op(r(16)).op(rs(32, 1)).done(out);
    }
    // ... and of a uniform f64: 0x000e220008300800_0000000400057d10 `F2F.F16.F64 R5, UR4`.
    form("F2F.F16.F64.ur", "F2F", 0xd10)
        .facts(facts::F2F)
        .fix(91, 1, 1)
        .fix(72, 16, 0x3008)
        .lit("F16")
        .lit("F64")
        .op(r(16))
        .op(ur(32))
        .done(out);
    // ptxas 13.5's cvt.f64.f16: 0x004e620000101800_1000000000067310 `F2F.F64.F16 R6, R0.H1`,
    // bit 60 choosing the high half.
    form("F2F.F64.F16", "F2F", 0x310).facts(facts::F2F)
        .fix(72, 16, 0x1018)
        .lit("F64")
        .lit("F16")
        .op(r(16))
        .op(OpSpec::Ext(ExtSpec::Suffixed { field: Field::new(32, 8), flag: Field::new(60, 1), suffix: ".H1", reuse: Some(1), sets_cc: false }))
        .done(out);
    // The uniform-register source variant of the I2F forms (0xD06, bit 91).
    // The immediate-source variant (0x906): ptxas 13's `urem` by 3 starts with
    // 0x000e220000209000_0000000300007906 `I2F.U32.RP R0, 0x3`.
    for (k, bits, lits, kind) in [
        ("I2F.U32.RP.imm", 0x2090u64, &["U32", "RP"][..], ImmKind::Hex),
        ("I2F.RP.imm", 0x2094, &["RP"][..], ImmKind::SignedHex),
    ] {
        let mut f = form(k, "I2F", 0x906).facts(facts::I2F).fix(72, 16, bits);
        for l in lits {
            f = f.lit(l);
        }
        f.op(r(16)).op(imm(32, 32, kind)).done(out);
    }
    form("I2F.U32.RP.ur", "I2F", 0xd06)
        .facts(facts::I2F)
        .fix(91, 1, 1)
        .fix(72, 16, 0x2090)
        .lit("U32")
        .lit("RP")
        .op(r(16))
        .op(ur(32))
        .done(out);
}

/// Multi-function unit, FCHK, F2FP.
pub(super) fn mufu(out: &mut Vec<Form>) {
    form("MUFU", "MUFU", 0x308).facts(facts::MUFU)
        .m(g(
            "op",
            74,
            4,
            &[(0, "COS"), (1, "SIN"), (2, "EX2"), (3, "LG2"), (4, "RCP"), (5, "RSQ"), (6, "RCP64H"), (7, "RSQ64H"), (8, "SQRT"), (9, "TANH")],
        ))
        .op(r(16))
        .op(rs(32, 1))
        .done(out);
    form("MUFU.i", "MUFU", 0x908).facts(facts::MUFU)
        .m(g("op", 74, 4, &[(0, "COS"), (1, "SIN"), (2, "EX2"), (3, "LG2"), (4, "RCP"), (5, "RSQ"), (8, "SQRT"), (9, "TANH")]))
        .op(r(16))
        .op(imm(32, 32, ImmKind::F32))
        .done(out);
    // The 64-bit reciprocal seeds read their immediate as the high half of a double.
    form("MUFU.i64", "MUFU", 0x908).facts(facts::MUFU)
        .fix(75, 3, 3)
        .m(g("op", 74, 1, &[(0, "RCP64H"), (1, "RSQ64H")]))
        .op(r(16))
        .op(imm(32, 32, ImmKind::F64Hi))
        .done(out);
    form("FCHK", "FCHK", 0x302).facts(facts::FCHK).op(p(81)).op(rs(24, 0)).op(rs(32, 1)).done(out);
    form("F2FP.F16.F32.PACK_AB", "F2FP", 0x23e)
        .facts(facts::F2FP)
        .fix(64, 8, 0xff)
        .lit("F16")
        .lit("F32")
        .lit("PACK_AB")
        .op(r(16))
        .op(rs(24, 0))
        .op(rs(32, 1))
        .done(out);
    // ptxas 13.5 narrows a uniform f32 with 0x000fe200080000ff_00000004ff007c3e
    // `F2FP.F16.F32.PACK_AB R0, RZ, UR4` (cvt.rn.f16.f32 of a kernel parameter).
    form("F2FP.F16.F32.PACK_AB.ur", "F2FP", 0xc3e).facts(facts::F2FP)
        .fix(91, 1, 1)
        .fix(64, 8, 0xff)
        .lit("F16")
        .lit("F32")
        .lit("PACK_AB")
        .op(r(16))
        .op(rs(24, 0))
        .op(ur(32))
        .done(out);
}

/// HFMA2.MMA with a packed f16x2 immediate (ptxas uses it to materialise constants): the
/// first printed half is bits 48..63, the second 32..47. A: -/| | at 72/73, B: 84/83.
pub(super) fn hfma2(out: &mut Vec<Form>) {
    form("HFMA2.MMA.4", "HFMA2", 0x435).facts(facts::HFMA2)
        .fix(74, 2, 0)
        .fix(78, 2, 0)
        .fix(85, 1, 0)
        .lit("MMA")
        // Denormal handling is one group over bits 80 (FTZ) and 76 (FMZ); both set is invalid.
        .m(ModGroup { name: "fmz", field: Some(Field::split2((80, 1), (76, 1))), values: &[(0, ""), (1, "FTZ"), (2, "FMZ")], meanings: &[] })
        .m(flag(77, "SAT"))
        .op(r(16))
        .op(rmod(24, Some(0), Some(72), Some(73), None))
        .op(rmod(64, Some(1), Some(84), Some(83), None))
        .op(imm(48, 16, ImmKind::F16))
        .op(imm(32, 16, ImmKind::F16))
        .done(out);
}
