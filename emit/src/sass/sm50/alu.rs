//! sm_50 integer ALU forms the selector uses: MOV / MOV32I, IADD / IADD32I, SHL / SHR,
//! LOP / LOP32I / LOP3.LUT, ISETP, SEL, IMNMX, XMAD. Most come in three shapes that differ
//! in the second source: a register (Rb at 20), a constant (`c[bank][offset]`) or a signed
//! 20-bit immediate (sign in bit 56); the shape is part of the opcode in bits 48..63.

use super::*;

/// The three shapes of an ALU instruction: (key suffix, opcode bits 48..63, second source).
fn shapes(reg: u64, cbank_opc: u64, imm_opc: u64) -> [(&'static str, u64, OpSpec); 3] {
    [("", reg, r(20)), (".c", cbank_opc, cbank()), (".i", imm_opc, imm20())]
}

/// Starts an ALU form: the opcode's bits 57..63 (and 56 outside the immediate shape) are
/// fixed here; bits 48..55 hold per-instruction flags and are fixed by the caller. The
/// register shape has no meaning for bits 28..38.
fn alu(base: &str, sfx: &str, mn: &'static str, opc: u64) -> F {
    let key: &'static str = Box::leak(format!("{base}{sfx}").into_boxed_str());
    let f = form(key, mn, 7, opc >> 9);
    let f = if sfx == ".i" { f } else { f.fix(56, 1, (opc >> 8) & 1) };
    if sfx.is_empty() {
        f.fix(28, 11, 0)
    } else {
        f
    }
}

fn cmp() -> ModGroup {
    g("cmp", 49, 3, &[(0, "F"), (1, "LT"), (2, "EQ"), (3, "LE"), (4, "GT"), (5, "NE"), (6, "GE"), (7, "T")])
}

pub(super) fn forms(out: &mut Vec<Form>) {
    // MOV Rd, src with lane mask 0xf (bits 39..42; other masks print an extra operand).
    for (sfx, opc, src) in shapes(0x5c98, 0x4c98, 0x3898) {
        alu("MOV", sfx, "MOV", opc).fix(48, 8, opc & 0xff).fix(39, 9, 0xf).fix(8, 8, 0).op(r(0)).op(src).done(out);
    }
    form("MOV32I", "MOV32I", 12, 0x010).fix(12, 4, 0xf).fix(8, 4, 0).op(r(0)).op(imm32()).done(out);

    // IADD{.X} Rd{.CC}, Ra, -Rb: bits 48..49 are the sign mode (1 negates the second source,
    // 2 the first, 3 is `.PO`, plus one); this table writes the second-source negation only.
    // .X 43, .CC 47.
    for (sfx, opc, src) in shapes(0x5c10, 0x4c10, 0x3810) {
        let f = alu("IADD", sfx, "IADD", opc).fix(51, 5, (opc >> 3) & 0x1f).fix(49, 2, 0).fix(39, 4, 0).fix(44, 3, 0);
        let (f, src) = if sfx.is_empty() { (f, rmod(20, Some(48), None)) } else { (f.fix(48, 1, 0), src) };
        f.m(flag(43, "X")).op(rd_cc(47)).op(r(8)).op(src).done(out);
    }
    // IADD32I{.X} Rd{.CC}, Ra, imm32: .CC 52, .X 53, .SAT 54 (not written).
    // IADD3{.X}{.RS|.LS} Rd{.CC}, Ra, Rb, Rc (register shape): negate Rc 49, Rb 50, Ra 51,
    // .X 48, .CC 47, shift mode 37..38 (RS: (Ra + Rb) >> 16 + Rc; LS: << 16).
    form("IADD3", "IADD3", 12, 0x5cc)
        .fix(28, 9, 0)
        .m(flag(48, "X"))
        .m(g("shift", 37, 2, &[(0, ""), (1, "RS"), (2, "LS")]))
        .op(rd_cc(47))
        .op(rmod(8, Some(51), None))
        .op(rmod(20, Some(50), None))
        .op(rmod(39, Some(49), None))
        .done(out);
    form("IADD32I", "IADD32I", 9, 0x1c0 >> 3)
        .fix(54, 1, 0)
        .m(flag(53, "X"))
        .op(rd_cc(52))
        .op(r(8))
        .op(OpSpec::Imm(ImmSpec { field: Field::new(20, 32), kind: ImmKind::SignedHex }))
        .done(out);

    // SHL Rd, Ra, src / SHR{.U32} Rd, Ra, src (bit 48: signed).
    for (sfx, opc, src) in shapes(0x5c48, 0x4c48, 0x3848) {
        alu("SHL", sfx, "SHL", opc)
            .fix(48, 8, opc & 0xff)
            .fix(40, 8, 0)
            .m(flag(39, "W"))
            .op(r(0))
            .op(r(8))
            .op(src)
            .done(out);
    }
    // `.W` (bit 39) wraps the amount modulo 32 instead of clamping it (ptxas 11.8:
    // `SHL.W R4, R0, R7` is 0x5c48008000770004, `SHR.U32.W` 0x5c28008000770005).
    for (sfx, opc, src) in shapes(0x5c28, 0x4c28, 0x3828) {
        alu("SHR", sfx, "SHR", opc)
            .fix(49, 7, (opc & 0xff) >> 1)
            .fix(40, 8, 0)
            .m(g("sign", 48, 1, &[(0, "U32"), (1, "")]))
            .m(flag(39, "W"))
            .op(r(0))
            .op(r(8))
            .op(src)
            .done(out);
    }

    // LOP.op Rd, ~Ra, ~Rb: op 41..42, invert Ra 39 / Rb 40, predicate result 48..50 fixed PT.
    for (sfx, opc, src) in shapes(0x5c40, 0x4c40, 0x3840) {
        let f = alu("LOP", sfx, "LOP", opc).fix(51, 5, (opc >> 3) & 0x1f).fix(48, 3, 7).fix(43, 5, 0).m(g(
            "op",
            41,
            2,
            &[(0, "AND"), (1, "OR"), (2, "XOR"), (3, "PASS_B")],
        ));
        let (f, src) = if sfx.is_empty() { (f, rmod(20, None, Some(40))) } else { (f.fix(40, 1, 0), src) };
        f.op(r(0)).op(rmod(8, None, Some(39))).op(src).done(out);
    }
    form("LOP32I", "LOP32I", 9, 0x008)
        .fix(52, 1, 0)
        .m(g("op", 53, 2, &[(0, "AND"), (1, "OR"), (2, "XOR"), (3, "PASS_B")]))
        .op(r(0))
        .op(r(8))
        .op(imm32())
        .done(out);
    // Forms ptxas 11.8 writes for atomc's kernels (words read from its cubins; the sweep of
    // `emit/tests/sass_sm50_lines.rs` checks them against nvdisasm).
    // SHFL.mode PT, Rd, Ra, b, c: mode 30..31, b an immediate (28 set) or a register, c an
    // immediate in 34..46 (29 set); the predicate result in 48..50.
    for (key, b_imm) in [("SHFL.ii", true), ("SHFL.ri", false)] {
        let f = form(key, "SHFL", 13, 0xef10 >> 3)
            .fix(28, 1, b_imm as u64)
            .fix(29, 1, 1)
            .m(g("mode", 30, 2, &[(0, "IDX"), (1, "UP"), (2, "DOWN"), (3, "BFLY")]))
            .op(p(48))
            .op(r(0))
            .op(r(8));
        let f = if b_imm { f.op(imm(20, 5)) } else { f.op(r(20)) };
        f.op(imm(34, 13)).done(out);
    }
    // BFE{.U32} Rd, Ra, imm (position | length << 8), signed unless bit 48 is clear.
    alu("BFE", ".i", "BFE", 0x3800).fix(49, 7, 0).m(g("sign", 48, 1, &[(0, "U32"), (1, "")])).op(r(0)).op(r(8)).op(imm20()).done(out);
    // BFI Rd, Ra, imm (position | length << 8), Rc.
    alu("BFI", ".i", "BFI", 0x36f0).fix(48, 8, 0xf0).op(r(0)).op(r(8)).op(imm20()).op(r(39)).done(out);
    // FLO{.U32} Rd, Rb.
    alu("FLO", "", "FLO", 0x5c30)
        .fix(49, 7, 0x5c30 >> 1 & 0x7f)
        .fix(8, 8, 0)
        .m(g("sign", 48, 1, &[(0, "U32"), (1, "")]))
        .op(r(0))
        .op(r(20))
        .done(out);
    // LOP3.LUT Rd, Ra, imm, Rc, lut (immediate shape; lut in 48..55).
    form("LOP3.LUT.i", "LOP3", 8, 0x3c).lit("LUT").op(r(0)).op(r(8)).op(imm(20, 19)).op(r(39)).op(imm(48, 8)).done(out);
    // IADD3{.X} Rd{.CC}, Ra, imm, Rc (immediate shape).
    alu("IADD3", ".i", "IADD3", 0x38c0)
        .fix(52, 4, 0xc)
        .m(flag(48, "X"))
        .op(rd_cc(47))
        .op(rmod(8, Some(51), None))
        // nvdisasm prints bit 56 as the immediate's bit 19 here, unsigned (`0xffff0`).
        .op(OpSpec::Imm(ImmSpec { field: Field::split2((20, 19), (56, 1)), kind: ImmKind::Hex }))
        .op(rmod(39, Some(49), None))
        .done(out);
    // ISCADD Rd{.CC}, Ra, src, shift (shift 39..43, .CC 47): (Ra << shift) + src.
    for (sfx, opc, src) in shapes(0x5c18, 0x4c18, 0x3818) {
        if sfx == ".i" {
            continue;
        }
        alu("ISCADD", sfx, "ISCADD", opc)
            .fix(48, 8, opc & 0xff)
            .fix(44, 3, 0)
            .op(rd_cc(47))
            .op(r(8))
            .op(src)
            .op(imm(39, 5))
            .done(out);
    }
    // LEA Rd{.CC}, Ra, c[..], shift: (Ra << shift) + c; LEA.HI.X Rd, Ra, c[..], Rc, shift: the
    // high word of {Rc, Ra} << shift, plus c, plus the carry. Predicate results fixed PT.
    form("LEA.c", "LEA", 16, 0x4bd7).fix(44, 3, 0).op(rd_cc(47)).op(r(8)).op(cbank()).op(imm(39, 5)).done(out);
    form("LEA.HI.X.c", "LEA", 8, 0x1a)
        .fix(48, 3, 7)
        .fix(47, 1, 0)
        .lit("HI")
        .lit("X")
        .op(r(0))
        .op(r(8))
        .op(cbank())
        .op(r(39))
        .op(imm(51, 5))
        .done(out);
    // LDC{.size} Rd, c[bank][Ra+offset]: byte offset 20..35, bank 36..40, size 48..50.
    form("LDC", "LDC", 12, 0xef9)
        .fix(41, 7, 0)
        .m(g("size", 48, 3, &[(0, "U8"), (1, "S8"), (2, "U16"), (3, "S16"), (4, ""), (5, "64")]))
        .op(r(0))
        .op(OpSpec::Ext(ExtSpec::CBankScaled {
            spec: CBankSpec { bank: Field::new(36, 5), offset: Field::new(20, 16), base: Some(Field::new(8, 8)) },
            shift: 0,
        }))
        .done(out);
    // F2F.F16.F32 / F2F.F32.F16 Rd, Rb{.H1} (types in 8..11, source half 41) and
    // I2F.F32.U32 / I2F.F64.U32 Rd, Rb (types in 8..13): the variants ptxas 11.8 writes.
    form("F2F.F16.F32", "F2F", 16, 0x5ca8)
        .fix(28, 11, 0)
        .fix(8, 8, 0x9)
        .lit("F16")
        .lit("F32")
        .op(r(0))
        .op(r(20))
        .done(out);
    form("F2F.F32.F16", "F2F", 16, 0x5ca8)
        .fix(28, 11, 0)
        .fix(8, 8, 0x6)
        .lit("F32")
        .lit("F16")
        .op(r(0))
        .op(OpSpec::Ext(ExtSpec::Suffixed { field: Field::new(20, 8), flag: Field::new(41, 1), suffix: ".H1", reuse: Some(1) }))
        .done(out);
    form("I2F", "I2F", 16, 0x5cb8)
        .fix(28, 11, 0)
        .fix(14, 2, 0)
        .m(g("types", 8, 6, &[(0x0a, "F32.U32"), (0x0b, "F64.U32")]))
        .op(r(0))
        .op(r(20))
        .done(out);
    // LOP3.LUT Rd, Ra, Rb, Rc, lut (register shape; lut in 28..35).
    form("LOP3.LUT", "LOP3", 16, 0x5be7)
        .fix(36, 3, 0)
        .fix(47, 1, 0)
        .lit("LUT")
        .op(r(0))
        .op(r(8))
        .op(r(20))
        .op(r(39))
        .op(imm(28, 8))
        .done(out);

    // ISETP.cmp{.U32}{.X}.bop Pd, Pq, Ra, src, Pp.
    for (sfx, opc, src) in shapes(0x5b60, 0x4b60, 0x3660) {
        alu("ISETP", sfx, "ISETP", opc)
            .fix(52, 4, (opc >> 4) & 0xf)
            .fix(44, 1, 0)
            .fix(47, 1, 0)
            .fix(6, 2, 0)
            .m(cmp())
            .m(g("sign", 48, 1, &[(0, "U32"), (1, "")]))
            .m(flag(43, "X"))
            .m(g("bop", 45, 2, &[(0, "AND"), (1, "OR"), (2, "XOR")]))
            .op(p(3))
            .op(p(0))
            .op(r(8))
            .op(src)
            .op(pn(39, 42))
            .done(out);
    }

    // SEL Rd, Ra, src, Pp / IMNMX{.U32} Rd, Ra, src, Pp (!PT = max).
    for (sfx, opc, src) in shapes(0x5ca0, 0x4ca0, 0x38a0) {
        alu("SEL", sfx, "SEL", opc)
            .fix(48, 8, opc & 0xff)
            .fix(43, 5, 0)
            .op(r(0))
            .op(r(8))
            .op(src)
            .op(pn(39, 42))
            .done(out);
    }
    for (sfx, opc, src) in shapes(0x5c20, 0x4c20, 0x3820) {
        alu("IMNMX", sfx, "IMNMX", opc)
            .fix(49, 7, (opc & 0xff) >> 1)
            .fix(43, 5, 0)
            .m(g("sign", 48, 1, &[(0, "U32"), (1, "")]))
            .op(r(0))
            .op(r(8))
            .op(src)
            .op(pn(39, 42))
            .done(out);
    }

    // XMAD{.PSL}{.MRG}{.mode} Rd, Ra{.H1}, Rb{.H1}, Rc: 16x16+32 multiply-add (register
    // shape, unsigned halves). PSL (product shifted left 16) 36, MRG (merge Rb's low half into
    // the result's high half) 37, A.H1 53, B.H1 35, mode 50..52.
    form("XMAD", "XMAD", 10, 0x5b00 >> 6)
        .fix(28, 7, 0)
        .fix(38, 1, 0)
        .fix(47, 3, 0)
        .m(flag(36, "PSL"))
        .m(flag(37, "MRG"))
        .m(g("mode", 50, 3, &[(0, ""), (1, "CLO"), (2, "CHI"), (3, "CSFU"), (4, "CBCC")]))
        .op(r(0))
        .op(OpSpec::Ext(ExtSpec::Suffixed {
            field: Field::new(8, 8),
            flag: Field::new(53, 1),
            suffix: ".H1",
            reuse: Some(0),
        }))
        .op(OpSpec::Ext(ExtSpec::Suffixed {
            field: Field::new(20, 8),
            flag: Field::new(35, 1),
            suffix: ".H1",
            reuse: Some(1),
        }))
        .op(r(39))
        .done(out);

    // VOTE.mode Rd, Pd, Pp (ALL / ANY / EQ over the warp); POPC Rd, Rb (register shape).
    // nvdisasm leaves the register result out when it is RZ: that shape is its own form.
    for (key, rz) in [("VOTE", false), ("VOTE.rz", true)] {
        let f = form(key, "VOTE", 14, 0x50d8 >> 2).fix(8, 8, 0).fix(20, 19, 0).fix(43, 2, 0).m(g(
            "mode",
            48,
            2,
            &[(0, "ALL"), (1, "ANY"), (2, "EQ")],
        ));
        let f = if rz { f.fix(0, 8, 255) } else { f.op(rnz(0)) };
        f.op(p(45)).op(pn(39, 42)).done(out);
    }
    form("POPC", "POPC", 16, 0x5c08).fix(8, 8, 0).fix(28, 20, 0).op(r(0)).op(r(20)).done(out);

    float_forms(out);
}

/// FADD / FMNMX / FSETP / DADD, register shape: negate A 48, absolute A 46, negate B 45,
/// absolute B 49 (FSETP: negate A 43, absolute A 7, negate B 6, absolute B 44).
fn float_forms(out: &mut Vec<Form>) {
    let fsrc = |lo: u8, neg: u8, abs: u8, reuse: u8| {
        OpSpec::Reg(RegSpec {
            field: Field::new(lo, 8),
            rz_ok: true,
            neg: Some(Field::new(neg, 1)),
            abs: Some(Field::new(abs, 1)),
            not: None,
            reuse: Some(reuse),
        })
    };
    let rnd = || g("rnd", 39, 2, &[(0, ""), (1, "RM"), (2, "RP"), (3, "RZ")]);
    form("FADD", "FADD", 13, 0x5c58 >> 3)
        .fix(28, 11, 0)
        .fix(41, 3, 0)
        .fix(47, 1, 0)
        .fix(50, 1, 0)
        .m(flag(44, "FTZ"))
        .m(rnd())
        .op(r(0))
        .op(fsrc(8, 48, 46, 0))
        .op(fsrc(20, 45, 49, 1))
        .done(out);
    form("DADD", "DADD", 13, 0x5c70 >> 3)
        .fix(28, 11, 0)
        .fix(41, 4, 0)
        .fix(47, 1, 0)
        .fix(50, 1, 0)
        .m(rnd())
        .op(r(0))
        .op(fsrc(8, 48, 46, 0))
        .op(fsrc(20, 45, 49, 1))
        .done(out);
    // FMUL{.FTZ|.FMZ}{.rnd} / DMUL{.rnd} Rd, Ra, -Rb: the product's sign flips with bit 48.
    let neg_b = OpSpec::Reg(RegSpec {
        field: Field::new(20, 8),
        rz_ok: true,
        neg: Some(Field::new(48, 1)),
        abs: None,
        not: None,
        reuse: Some(1),
    });
    form("FMUL", "FMUL", 15, 0x5c68 >> 1)
        .fix(28, 11, 0)
        .fix(41, 3, 0)
        .fix(46, 2, 0)
        .m(g("fz", 44, 2, &[(0, ""), (1, "FTZ"), (2, "FMZ")]))
        .m(rnd())
        .op(r(0))
        .op(r(8))
        .op(neg_b)
        .done(out);
    form("DMUL", "DMUL", 15, 0x5c80 >> 1)
        .fix(28, 11, 0)
        .fix(41, 7, 0)
        .m(rnd())
        .op(r(0))
        .op(r(8))
        .op(neg_b)
        .done(out);
    form("FMNMX", "FMNMX", 13, 0x5c60 >> 3)
        .fix(28, 11, 0)
        .fix(43, 1, 0)
        .fix(47, 1, 0)
        .fix(50, 1, 0)
        .m(flag(44, "FTZ"))
        .op(r(0))
        .op(fsrc(8, 48, 46, 0))
        .op(fsrc(20, 45, 49, 1))
        .op(pn(39, 42))
        .done(out);
    // The constant shapes of FMNMX and DADD, and DMNMX (FMNMX's layout on doubles), as ptxas
    // 11.8 writes them for atomc's kernels.
    form("FMNMX.c", "FMNMX", 13, 0x4c60 >> 3)
        .fix(43, 1, 0)
        .fix(47, 1, 0)
        .fix(50, 1, 0)
        .m(flag(44, "FTZ"))
        .op(r(0))
        .op(fsrc(8, 48, 46, 0))
        .op(cbank())
        .op(pn(39, 42))
        .done(out);
    form("DADD.c", "DADD", 13, 0x4c70 >> 3)
        .fix(41, 4, 0)
        .fix(47, 1, 0)
        .fix(50, 1, 0)
        .m(rnd())
        .op(r(0))
        .op(fsrc(8, 48, 46, 0))
        .op(cbank())
        .done(out);
    for (key, top, b) in [("DMNMX", 0x5c50u64, fsrc(20, 45, 49, 1)), ("DMNMX.c", 0x4c50, cbank())] {
        let f = form(key, "DMNMX", 13, top >> 3).fix(43, 2, 0).fix(47, 1, 0).fix(50, 1, 0);
        let f = if key == "DMNMX" { f.fix(28, 11, 0) } else { f };
        f.op(r(0)).op(fsrc(8, 48, 46, 0)).op(b).op(pn(39, 42)).done(out);
    }
    form("FSETP", "FSETP", 12, 0x5bb)
        .fix(28, 11, 0)
        .m(g(
            "cmp",
            48,
            4,
            &[
                (0, "F"),
                (1, "LT"),
                (2, "EQ"),
                (3, "LE"),
                (4, "GT"),
                (5, "NE"),
                (6, "GE"),
                (7, "NUM"),
                (8, "NAN"),
                (9, "LTU"),
                (10, "EQU"),
                (11, "LEU"),
                (12, "GTU"),
                (13, "NEU"),
                (14, "GEU"),
                (15, "T"),
            ],
        ))
        .m(flag(47, "FTZ"))
        .m(g("bop", 45, 2, &[(0, "AND"), (1, "OR"), (2, "XOR")]))
        .op(p(3))
        .op(p(0))
        .op(fsrc(8, 43, 7, 0))
        .op(fsrc(20, 6, 44, 1))
        .op(pn(39, 42))
        .done(out);
}
