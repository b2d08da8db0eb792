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
    let key = leak_str(format!("{base}{sfx}"));
    let f = form(key, mn, 7, opc >> 9);
    let f = if sfx == ".i" { f } else { f.fix(56, 1, (opc >> 8) & 1) };
    if sfx.is_empty() {
        f.fix(28, 11, 0)
    } else {
        f
    }
}

/// The integer compare, 3 bits at 49 (ISETP, ISET, ICMP).
fn cmp() -> ModGroup {
    g("cmp", 49, 3, &[(0, "F"), (1, "LT"), (2, "EQ"), (3, "LE"), (4, "GT"), (5, "NE"), (6, "GE"), (7, "T")])
}

/// The integer compare modifiers of ISETP and ISET: `.cmp{.U32}{.X}.bop`.
fn compare(f: F) -> F {
    f.m(cmp()).m(sign48()).m(flag(43, "X")).m(g("bop", 45, 2, &[(0, "AND"), (1, "OR"), (2, "XOR")]))
}

/// The sources ISETP, ISET, SEL and IMNMX end with: Ra, the shape's src, and the predicate Pp.
fn ra_src_pp(f: F, src: OpSpec) -> F {
    f.op(r(8)).op(src).op(pn(39, 42))
}

/// A register in `lo..lo+8` with its upper-half selector `.H1` in bit `h1_bit` and a reuse slot.
fn h1(lo: u8, h1_bit: u8, reuse: u8) -> OpSpec {
    let (field, flag) = (Field::new(lo, 8), Field::new(h1_bit, 1));
    OpSpec::Ext(ExtSpec::Suffixed { field, flag, suffix: ".H1", reuse: Some(reuse), sets_cc: false })
}

/// F2F.dst.src with a register source: the type pair in 8..15, 28..38 clear.
fn f2f(key: &'static str, types: u64, dst: &'static str, src: &'static str) -> F {
    form(key, "F2F", 16, 0x5ca8).facts(facts::F2F).fix(28, 11, 0).fix(8, 8, types).lit(dst).lit(src)
}

pub(super) fn forms(out: &mut Vec<Form>) {
    // MOV Rd, src with lane mask 0xf (bits 39..42; other masks print an extra operand).
    for (sfx, opc, src) in shapes(0x5c98, 0x4c98, 0x3898) {
        alu("MOV", sfx, "MOV", opc)
            .facts(facts::MOV)
            .fix(48, 8, opc & 0xff)
            .fix(39, 9, 0xf)
            .fix(8, 8, 0)
            .op(r(0))
            .op(src)
            .done(out);
    }
    form("MOV32I", "MOV32I", 12, 0x010)
        .facts(facts::MOV32I)
        .fix(12, 4, 0xf)
        .fix(8, 4, 0)
        .op(r(0))
        .op(imm32())
        .done(out);

    // IADD{.PO}{.SAT}{.X} Rd{.CC}, -Ra, -src: bits 48..49 are the sign mode (1 negates the
    // second source, 2 the first, 3 is `.PO`: a + b + 1, no negation); each mode is its own
    // form, so `-Ra, -Rb` (which has no encoding) is refused. .SAT 50, .X 43, .CC 47.
    // ptxas 11.8: 0x4c1100000547ff03 `IADD R3, RZ, -c[0x0][0x150]`, 0x5c12800000a708ff
    // `IADD RZ.CC, -R8, R10`; 0x5c17880000a708ff `IADD.PO.SAT.X RZ.CC, R8, R10` (nvdisasm, bits
    // flipped). The immediate shape's second-source negation prints as a `.NEG` suffix on the
    // immediate (`0x5.NEG`) and is not described (bit 48 fixed 0 there).
    for (sfx, opc, src) in shapes(0x5c10, 0x4c10, 0x3810) {
        let neg_b = match sfx {
            "" => Some(rmod(20, Some(48), None)),
            ".c" => Some(cbank_mod(Some(48), None, None, false)),
            _ => None,
        };
        for mode in ["", ".na", ".po"] {
            let base = leak_str(format!("IADD{mode}"));
            let f = alu(base, sfx, "IADD", opc)
                .facts(facts::IADD)
                .fix(51, 5, (opc >> 3) & 0x1f)
                .fix(39, 4, 0)
                .fix(44, 3, 0);
            let (f, a, b) = match mode {
                "" => {
                    let f = f.fix(49, 1, 0);
                    match neg_b {
                        Some(nb) => (f, r(8), nb),
                        None => (f.fix(48, 1, 0), r(8), src),
                    }
                }
                ".na" => (f.fix(48, 1, 0), rmod(8, Some(49), None), src),
                _ => (f.fix(48, 2, 3).lit("PO"), r(8), src),
            };
            f.m(flag(50, "SAT")).m(flag(43, "X")).op(rd_cc(47)).op(a).op(b).done(out);
        }
    }
    // IADD32I{.X} Rd{.CC}, Ra, imm32: .CC 52, .X 53, .SAT 54 (not written).
    // IADD3{.X}{.RS|.LS} Rd{.CC}, Ra, Rb, Rc (register shape): negate Rc 49, Rb 50, Ra 51,
    // .X 48, .CC 47, shift mode 37..38 (RS: (Ra + Rb) >> 16 + Rc; LS: << 16).
    form("IADD3", "IADD3", 12, 0x5cc).facts(facts::IADD3)
        .fix(28, 9, 0)
        .m(flag(48, "X"))
        .m(g("shift", 37, 2, &[(0, ""), (1, "RS"), (2, "LS")]))
        .op(rd_cc(47))
        .op(rmod(8, Some(51), None))
        .op(rmod(20, Some(50), None))
        .op(rmod(39, Some(49), None))
        .done(out);
    // IADD3's constant shape (no shift mode): ptxas 11.8's 0x4cc0028005370405 `IADD3 R5, R4,
    // c[0x0][0x14c], R5`.
    form("IADD3.c", "IADD3", 12, 0x4cc).facts(facts::IADD3)
        .m(flag(48, "X"))
        .op(rd_cc(47))
        .op(rmod(8, Some(51), None))
        .op(cbank_mod(Some(50), None, None, false))
        .op(rmod(39, Some(49), None))
        .done(out);
    // Ra negated by bit 56 (ptxas 11.8's `clz`: 0x1d00000001f70b13 `IADD32I R19, -R11, 0x1f`).
    form("IADD32I", "IADD32I", 7, 0x1c0 >> 5).facts(facts::IADD32I)
        .fix(55, 1, 0)
        .fix(54, 1, 0)
        .m(flag(53, "X"))
        .op(rd_cc(52))
        .op(rmod(8, Some(56), None))
        .op(OpSpec::Imm(ImmSpec { field: Field::new(20, 32), kind: ImmKind::SignedHex }))
        .done(out);

    // SHL Rd, Ra, src / SHR{.U32} Rd, Ra, src (bit 48: signed).
    // The layout both shifts share: `.W` 39, 40..47 clear; Rd, Ra, src.
    let shift = |f: F, src| f.fix(40, 8, 0).m(flag(39, "W")).op(r(0)).op(r(8)).op(src);
    for (sfx, opc, src) in shapes(0x5c48, 0x4c48, 0x3848) {
        shift(alu("SHL", sfx, "SHL", opc).facts(facts::SHL).fix(48, 8, opc & 0xff), src).done(out);
    }
    // `.W` (bit 39) wraps the amount modulo 32 instead of clamping it (ptxas 11.8:
    // `SHL.W R4, R0, R7` is 0x5c48008000770004, `SHR.U32.W` 0x5c28008000770005).
    for (sfx, opc, src) in shapes(0x5c28, 0x4c28, 0x3828) {
        shift(alu("SHR", sfx, "SHR", opc).facts(facts::SHR).fix(49, 7, (opc & 0xff) >> 1).m(sign48()), src).done(out);
    }

    // LOP.op{.X}{.test} {Pd,} Rd{.CC}, ~Ra, ~Rb: op 41..42, invert Ra 39 / Rb 40, .X 43, the
    // predicate test 44..45 (Pd = F, T, result == 0, result != 0), Pd 48..50 (left out when
    // PT), .CC 47. ptxas 11.8: 0x38403000001706ff `LOP.AND.NZ P0, RZ, R6, 0x1`; nvdisasm, bits
    // flipped: 0x5c40f80000170600 `LOP.AND.X.NZ P0, R0.CC, R6, R1`. The immediate shape's
    // inversion (bit 40) prints as an `.INV` suffix on the immediate and is not described.
    for (sfx, opc, src) in shapes(0x5c40, 0x4c40, 0x3840) {
        let f = alu("LOP", sfx, "LOP", opc).facts(facts::LOP)
            .fix(51, 5, (opc >> 3) & 0x1f)
            .fix(46, 1, 0)
            .m(g("op", 41, 2, &[(0, "AND"), (1, "OR"), (2, "XOR"), (3, "PASS_B")]))
            .m(flag(43, "X"))
            .m(g("test", 44, 2, &[(0, ""), (1, "T"), (2, "Z"), (3, "NZ")]));
        let (f, src) = if sfx.is_empty() { (f, rmod(20, None, Some(40))) } else { (f.fix(40, 1, 0), src) };
        f.op(p_hidden(48)).op(rd_cc(47)).op(rmod(8, None, Some(39))).op(src).done(out);
    }
    form("LOP32I", "LOP32I", 9, 0x008).facts(facts::LOP32I)
        .fix(52, 1, 0)
        .m(g("op", 53, 2, &[(0, "AND"), (1, "OR"), (2, "XOR"), (3, "PASS_B")]))
        .op(r(0))
        .op(r(8))
        .op(imm32())
        .done(out);
    // Forms ptxas 11.8 writes for atomc's kernels (words read from its cubins; the sweep of
    // `emit/sass/tests/sass_sm50_lines.rs` checks them against nvdisasm).
    // SHFL.mode PT, Rd, Ra, b, c: mode 30..31, b an immediate (28 set) or a register, c an
    // immediate in 34..46 (29 set); the predicate result in 48..50.
    // With 29 clear, c is a register in 39..46: ptxas 11.8's warp scan writes 0xef107f8050170005
    // `SHFL.UP P0, R5, R0, 0x1, RZ`.
    for (key, b_imm, c_imm) in
        [("SHFL.ii", true, true), ("SHFL.ri", false, true), ("SHFL.ir", true, false), ("SHFL.rr", false, false)]
    {
        let f = form(key, "SHFL", 13, 0xef10 >> 3).facts(facts::SHFL)
            .fix(28, 1, b_imm as u64)
            .fix(29, 1, c_imm as u64)
            .m(g("mode", 30, 2, &[(0, "IDX"), (1, "UP"), (2, "DOWN"), (3, "BFLY")]))
            .op(p(48))
            .op(r(0))
            .op(r(8));
        let f = if b_imm { f.op(imm(20, 5)) } else { f.op(r(20)) };
        if c_imm { f.op(imm(34, 13)) } else { f.fix(34, 5, 0).fix(47, 1, 0).op(r(39)) }.done(out);
    }
    // BFE{.U32}{.BREV} Rd, Ra, imm (position | length << 8), signed unless bit 48 is clear;
    // ptxas 11.8 writes `brev.b32` as 0x380001020007160a `BFE.U32.BREV R10, R22, 0x2000`.
    super::bits::bfe(alu("BFE", ".i", "BFE", 0x3800).facts(facts::BFE).fix(49, 7, 0), imm20()).done(out);
    // BFI Rd, Ra, b (position | length << 8), Rc, b an immediate or a constant. ptxas 11.8
    // writes the round-to-odd bit of cvt.rn.f16.f64 and cvt.f64.f16 as 0x4bf0020800000506
    // `@P0 BFI R6, R5, c[0x2][0x0], R4` (interpret/half-arith.atom); nvdisasm 11.8 on that
    // word ignores bits 48..50 and prints bit 47 as `R6.CC`.
    for (sfx, opc, b) in [(".i", 0x36f0, imm20()), (".c", 0x4bf0, cbank())] {
        alu("BFI", sfx, "BFI", opc).facts(facts::BFI).fix(48, 8, 0xf0).op(r(0)).op(r(8)).op(b).op(r(39)).done(out);
    }
    // FLO{.U32}{.SH} Rd, Rb; .SH (bit 41) gives 31 - index (ptxas 11.8: `bfind.shiftamt.u32`
    // as 0x5c30020001670006 `FLO.U32.SH R6, R22`).
    alu("FLO", "", "FLO", 0x5c30).facts(facts::FLO)
        .fix(49, 7, 0x5c30 >> 1 & 0x7f)
        .fix(8, 8, 0)
        .m(sign48())
        .m(flag(41, "SH"))
        .op(r(0))
        .op(r(20))
        .done(out);
    // LOP3.LUT Rd, Ra, imm, Rc, lut (immediate shape; lut in 48..55).
    form("LOP3.LUT.i", "LOP3", 8, 0x3c)
        .facts(facts::LOP3)
        .lit("LUT")
        .op(r(0))
        .op(r(8))
        .op(imm(20, 19))
        .op(r(39))
        .op(imm(48, 8))
        .done(out);
    // IADD3{.X} Rd{.CC}, Ra, imm, Rc (immediate shape).
    alu("IADD3", ".i", "IADD3", 0x38c0).facts(facts::IADD3)
        .fix(52, 4, 0xc)
        .m(flag(48, "X"))
        .op(rd_cc(47))
        .op(rmod(8, Some(51), None))
        // nvdisasm prints bit 56 as the immediate's bit 19 here, unsigned (`0xffff0`).
        .op(OpSpec::Imm(ImmSpec { field: Field::split2((20, 19), (56, 1)), kind: ImmKind::Hex }))
        .op(rmod(39, Some(49), None))
        .done(out);
    // ISCADD Rd{.CC}, Ra, src, shift (shift 39..43, .CC 47): (Ra << shift) + src.
    // The immediate shape (ptxas 11.8's `ISCADD R3, R7, 0x10, 0x2`): nvdisasm 11.8 reads
    // 0x3818010001070703 so.
    for (sfx, opc, src) in shapes(0x5c18, 0x4c18, 0x3818) {
        // Bit 49 negates Ra (ptxas 11.8's div.rn.f32: 0x5c1a0b8000670306 `ISCADD R6, -R3, R6,
        // 0x17`); nvdisasm 11.8 reads 48 and 49 together as `.PO` (48 is not written).
        alu("ISCADD", sfx, "ISCADD", opc).facts(facts::ISCADD)
            .fix(50, 6, (opc >> 2) & 0x3f)
            .fix(48, 1, 0)
            .fix(44, 3, 0)
            .op(rd_cc(47))
            .op(rmod(8, Some(49), None))
            .op(src)
            .op(imm(39, 5))
            .done(out);
    }
    // SHF.{L,R}{.W}{.mode}{.HI} Rd{.CC}, Ra, b, Rc: the funnel shift of {Rc, Ra} (the
    // emulator's `SHF` is sm_90's). ptxas 11.8's 64-bit shifts: 0x5bf801c000070203 `SHF.L.U64
    // R3, R2, R0, R3`, 0x5cf801e000270404 `SHF.R.S64 R4, R4, R2, R3`, 0x38f801c000770204
    // `SHF.R.U64 R4, R2, 0x7, R3`; nvdisasm 11.8 on them with one bit flipped: 37..38 the mode
    // (0 none, 1 `.INVALIDMAXSHIFT3`, 2 `.U64`, 3 `.S64`), 47 `R4.CC`, 48 `.HI`, 49 `.X` (not
    // described: written 0), 50 `.W`; the immediate is 6 bits (nvdisasm prints 0x3f for 16
    // set bits), and 26..36 and 56 change nothing there.
    for (key, dir, top, b) in [
        ("SHF.L", "L", 0x5bf8u64, r(20)),
        ("SHF.R", "R", 0x5cf8, r(20)),
        ("SHF.L.i", "L", 0x36f8, imm(20, 6)),
        ("SHF.R.i", "R", 0x38f8, imm(20, 6)),
    ] {
        let f = form(key, "SHF", 13, top >> 3).facts(facts::SHF).zeros(&[(49, 1)]);
        let f = if key.ends_with(".i") { f.zeros(&[(26, 11)]) } else { f.fix(28, 9, 0) };
        f.lit(dir)
            .m(flag(50, "W"))
            .m(g("mode", 37, 2, &[(0, ""), (2, "U64"), (3, "S64")]))
            .m(flag(48, "HI"))
            .op(rd_cc(47))
            .op(r(8))
            .op(b)
            .op(r(39))
            .done(out);
    }
    // ISCADD32I Rd{.CC}, Ra, imm32, shift: the 32-bit immediate in 20..51, .CC 52, the shift
    // 53..57, opcode 58..63. ptxas 11.8's div.rn.f32 writes `ISCADD32I R2, R5, -0x3f800000,
    // 0x17` (0x16ec080000070502, interpret/fdiv-edges.atom); nvdisasm 11.8 on it with one bit
    // set shows each field.
    form("ISCADD32I", "ISCADD32I", 6, 0x16ec >> 10).facts(facts::ISCADD32I)
        .op(rd_cc(52))
        .op(r(8))
        .op(OpSpec::Imm(ImmSpec { field: Field::new(20, 32), kind: ImmKind::SignedHex }))
        .op(imm(53, 5))
        .done(out);
    // LEA{.X} {Pd,} Rd{.CC}, -Ra, src{, shift}: (Ra << shift) + src; shift 39..43 (left out
    // when 0: that is its own form), -Ra 45, .X 46, .CC 47, Pd 48..50 (left out when PT).
    // ptxas 11.8: 0x5bd780000ff70004 `LEA R4.CC, R0, RZ`; nvdisasm, bits flipped:
    // 0x4bd6c08005470004 `LEA.X P6, R4.CC, R0, c[0x0][0x150], 0x1`, 0x4bd7a08005470004
    // `LEA R4.CC, -R0, c[0x0][0x150], 0x1`.
    // The immediate shape: ptxas 11.8's 0x36d7800003070008 `LEA R8.CC, R0, 0x30`.
    for (sfx, opc, src) in shapes(0x5bd7, 0x4bd7, 0x36d7) {
        for shifted in [true, false] {
            let key = leak_str(format!("LEA{sfx}{}", if shifted { "" } else { ".0" }));
            // The immediate's sign is bit 56, so the opcode there is 57..63 and 51..55.
            let f = match sfx {
                ".i" => form(key, "LEA", 7, opc >> 9).fix(51, 5, (opc >> 3) & 0x1f),
                _ => form(key, "LEA", 13, opc >> 3),
            };
            let f = f.facts(facts::LEA).fix(44, 1, 0).m(flag(46, "X"));
            let f = if sfx.is_empty() { f.fix(28, 11, 0) } else { f };
            let f = f.op(p_hidden(48)).op(rd_cc(47)).op(rmod(8, Some(45), None)).op(src);
            let f = if shifted { f.op(imm(39, 5)) } else { f.fix(39, 5, 0) };
            f.done(out);
        }
    }
    // LEA.HI{.X} Rd, Ra, c[bank][offset], Rc, s (constant shape; .X is bit 57). ptxas 11.8's
    // shift of `warp-aggregation-scan:slots_by_lane_operand` is 0x18a77f8800070306 `LEA.HI R6,
    // R3, c[0x2][0x0], RZ, 0x14`; nvdisasm 11.8 on it with one bit set: 57 `.X`, 56 `-R3`, 48..50
    // a predicate result, 47 `R6.CC`; these forms fix those bits as ptxas writes them.
    for (key, top, x) in [("LEA.HI.X.c", 0x1a, true), ("LEA.HI.c", 0x18, false)] {
        let f = form(key, "LEA", 8, top).facts(facts::LEA).fix(48, 3, 7).fix(47, 1, 0).lit("HI");
        let f = if x { f.lit("X") } else { f };
        f.op(r(0)).op(r(8)).op(cbank()).op(r(39)).op(imm(51, 5)).done(out);
    }
    // LEA.HI{.X} {Pd,} Rd{.CC}, Ra, Rb, Rc{, s} (register shape): the high word of {Rc, Ra} << s
    // plus Rb; .X 38, shift 28..32 (left out when 0: its own form), Pd 48..50 (left out when
    // PT), .CC 47. ptxas 11.8's generic atomics: 0x5bd801c00ff700ff `LEA.HI.X P0, RZ, R0, RZ,
    // R3`, its 64-bit indexing 0x5bdf02c010570407 `LEA.HI.X R7, R4, R5, R5, 0x1`, and
    // 0x5bdf7f810077040d `LEA.HI R13, R4, R7, RZ, 0x10` (nvdisasm 11.8's reading); nvdisasm 11.8
    // on the first with one bit changed: 38 clear `LEA.HI P0, ...`, 28 `R3, 0x1`, 37 `-R0`
    // (not written by ptxas: fixed 0), 47 `RZ.CC`, 48 `P1`, 48..50 all set: no predicate.
    for shifted in [true, false] {
        let key = if shifted { "LEA.HI" } else { "LEA.HI.0" };
        let f = form(key, "LEA", 13, 0x5bd8 >> 3).facts(facts::LEA).fix(33, 5, 0).lit("HI").m(flag(38, "X"));
        let f = f.op(p_hidden(48)).op(rd_cc(47)).op(r(8)).op(r(20)).op(r(39));
        let f = if shifted { f.op(imm(28, 5)) } else { f.fix(28, 5, 0) };
        f.done(out);
    }
    // LDC{.size} Rd, c[bank][Ra+offset]: byte offset 20..35, bank 36..40, size 48..50.
    form("LDC", "LDC", 12, 0xef9).facts(facts::LDC)
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
    f2f("F2F.F16.F32", 0x9, "F16", "F32").op(r(0)).op(r(20)).done(out);
    // F2F.F64.F32 / F2F.F32.F64 Rd, Rb (types 3|2<<2 and 2|3<<2): ptxas 11.8's cvt.f64.f32
    // 0x5ca8000000a70b0a `F2F.F64.F32 R10, R10`, cvt.rn.f32.f64 0x5ca8000000870e08
    // `F2F.F32.F64 R8, R8`; the narrowing rounds as 39..40 say (cvt.rn.f16.f64 rounds to odd
    // through 0x5ca8010000270e00 `F2F.F32.F64.RP R0, R2`, `.RM` 0x5ca8008000270e0b, `.RZ`).
    for (types, d, s) in [(0xbu64, "F64", "F32"), (0xe, "F32", "F64")] {
        let f = f2f(if d == "F64" { "F2F.F64.F32" } else { "F2F.F32.F64" }, types, d, s);
        let f = if d == "F32" { f.m(rnd(39)) } else { f };
        f.op(r(0)).op(r(20)).done(out);
    }
    // ptxas 11.8's cvt.f64.f16 rounds the (exact) f32 to odd: 0x5ca8010000270600
    // `F2F.F32.F16.RP R0, R2`, rounding in 39..40 as for F2F.F32.F64.
    f2f("F2F.F32.F16", 0x6, "F32", "F16").m(rnd(39)).op(r(0)).op(h1(20, 41, 1)).done(out);
    // I2F.dst.src{.rnd} Rd{.CC}, -|Rb|: result F16/F32/F64 in 8..9, source size 10..11 (8 to
    // 64 bits), signed 13, rounding 39..40, -Rb 45, |Rb| 49, .CC 47; nvdisasm ignores 12, 48
    // and 50 (written 0). The byte selectors `Rb.B1`..`.B3` (41..42) are not described.
    // ptxas 11.8: 0x5cb8000000072a00 `I2F.F32.S32 R0, R0`; nvdisasm, bits flipped:
    // 0x5cb8008000072a00 `I2F.F32.S32.RM R0, R0`, 0x5cb8200000072a00 `... R0, -R0`.
    let mut i2f_types = Vec::new();
    for (dv, dn) in [(1u64, "F16"), (2, "F32"), (3, "F64")] {
        for (sv, sn) in [(0u64, "8"), (1, "16"), (2, "32"), (3, "64")] {
            for (gv, gn) in [(0u64, "U"), (1, "S")] {
                let name = leak_str(format!("{dn}.{gn}{sn}"));
                i2f_types.push((dv | sv << 2 | gv << 5, name));
            }
        }
    }
    // F2I{.FTZ}.dst.src.rnd Rd{.CC}, -|Rb| (register shape): result size 8..9 (16, 32, 64 bits)
    // and signed 12, source 10..11 (F16, F32, F64), rounding 39..40, .FTZ 44, -Rb 45, |Rb| 49,
    // .CC 47; nvdisasm ignores 13 (written 0); `Rb.H1` (41) is not described. ptxas 11.8's
    // division: 0x5cb0118000270a02 `F2I.FTZ.U32.F32.TRUNC R2, R2` (bit 39 alone: FLOOR, 40
    // alone: CEIL, neither: round to nearest, printed as nothing).
    let mut f2i_types = Vec::new();
    for (gv, gn) in [(0u64, "U"), (1, "S")] {
        for (dv, dn) in [(1u64, "16"), (2, "32"), (3, "64")] {
            for (sv, sn) in [(1u64, "F16"), (2, "F32"), (3, "F64")] {
                let name = leak_str(format!("{gn}{dn}.{sn}"));
                f2i_types.push((dv | sv << 2 | gv << 4, name));
            }
        }
    }
    form("F2I", "F2I", 13, 0x5cb0 >> 3).facts(facts::F2I)
        .zeros(&[(28, 11), (13, 3), (41, 3), (46, 1), (48, 1), (50, 1)])
        .m(flag(44, "FTZ"))
        .m(g("types", 8, 5, &f2i_types))
        .m(g("rnd", 39, 2, &[(0, ""), (1, "FLOOR"), (2, "CEIL"), (3, "TRUNC")]))
        .op(rd_cc(47))
        .op(rna(20, 45, 49))
        .done(out);
    // ICMP.cmp{.U32} Rd, Ra, Rb, Rc (register shape): Rd = Rc cmp 0 ? Ra : Rb; the compare in
    // 49..51, signed when bit 48 is set; nvdisasm ignores 28..38 and 47 (written 0). ptxas
    // 11.8's signed division: 0x5b45000000970709 `ICMP.EQ R9, R7, R9, R0`.
    form("ICMP", "ICMP", 12, 0x5b4).facts(facts::ICMP)
        .fix(28, 11, 0)
        .fix(47, 1, 0)
        .m(cmp())
        .m(sign48())
        .op(r(0))
        .op(r(8))
        .op(r(20))
        .op(r(39))
        .done(out);
    // MUFU.op{.SAT} Rd, -|Ra|: the operation in 20..23, |Ra| 46, -Ra 48, .SAT 50; 8..15 of the
    // operation print as INVALIDMUFUOPCODEn. ptxas 11.8's division: 0x5080000000470000
    // `MUFU.RCP R0, R0`.
    form("MUFU", "MUFU", 13, 0x5080 >> 3).facts(facts::MUFU)
        .zeros(&[(24, 22), (47, 1), (49, 1)])
        .m(g(
            "op",
            20,
            4,
            &[(0, "COS"), (1, "SIN"), (2, "EX2"), (3, "LG2"), (4, "RCP"), (5, "RSQ"), (6, "RCP64H"), (7, "RSQ64H")],
        ))
        .m(flag(50, "SAT"))
        .op(r(0))
        .op(rna(8, 48, 46))
        .done(out);
    form("I2F", "I2F", 13, 0x5cb8 >> 3).facts(facts::I2F)
        .zeros(&[(28, 11), (14, 2), (41, 4), (46, 1), (48, 1), (50, 1)])
        .m(g("types", 8, 6, &i2f_types))
        .m(rnd(39))
        .op(rd_cc(47))
        .op(rna(20, 45, 49))
        .done(out);
    // I2I.dst.src{.SAT} Rd{.CC}, -|Rb|: result size 8..9 and signed 12, source size 10..11 and
    // signed 13 (8, 16 or 32 bits), -Rb 45, |Rb| 49, .SAT 50, .CC 47; nvdisasm ignores 14..15,
    // 28..40, 43..44, 46, 48 (written 0). The byte / half selectors `Rb.B1` / `Rb.H1` (41..42)
    // are not described. ptxas 11.8: 0x5ce0200000873508 `I2I.S16.S16 R8, -R8`.
    let mut i2i_types = Vec::new();
    for (dv, dn) in [(0u64, "8"), (1, "16"), (2, "32")] {
        for (ds, dsn) in [(0u64, "U"), (1, "S")] {
            for (sv, sn) in [(0u64, "8"), (1, "16"), (2, "32")] {
                for (ss, ssn) in [(0u64, "U"), (1, "S")] {
                    let name = leak_str(format!("{dsn}{dn}.{ssn}{sn}"));
                    i2i_types.push((dv | sv << 2 | ds << 4 | ss << 5, name));
                }
            }
        }
    }
    form("I2I", "I2I", 13, 0x5ce0 >> 3).facts(facts::I2I)
        .zeros(&[(28, 15), (43, 2), (14, 2), (46, 1), (48, 1)])
        .m(g("types", 8, 6, &i2i_types))
        .m(flag(50, "SAT"))
        .op(rd_cc(47))
        .op(rna(20, 45, 49))
        .done(out);
    // The constant shapes of I2F and I2I (nvdisasm spaces the constant as for XMAD): ptxas
    // 11.8's 0x4cb8010005370a02 `I2F.F32.U32.RP R2, c[0x0] [0x14c]` and 0x4ce2000005373a00
    // `I2I.S32.S32 R0, |c[0x0] [0x14c]|`; -b 45 and |b| 49 as in the register shapes.
    form("I2F.c", "I2F", 13, 0x4cb8 >> 3).facts(facts::I2F)
        .zeros(&[(14, 2), (41, 4), (46, 1), (48, 1), (50, 1)])
        .m(g("types", 8, 6, &i2f_types))
        .m(rnd(39))
        .op(rd_cc(47))
        .op(cbank_mod(Some(45), Some(49), None, true))
        .done(out);
    form("I2I.c", "I2I", 13, 0x4ce0 >> 3).facts(facts::I2I)
        .zeros(&[(43, 2), (14, 2), (46, 1), (48, 1), (39, 4)])
        .m(g("types", 8, 6, &i2i_types))
        .m(flag(50, "SAT"))
        .op(rd_cc(47))
        .op(cbank_mod(Some(45), Some(49), None, true))
        .done(out);
    // F2F.F16.F32 from a constant (unspaced, unlike the F16 source below): ptxas 11.8's
    // 0x4ca8000005270900 `F2F.F16.F32 R0, c[0x0][0x148]`.
    form("F2F.c.F32", "F2F", 13, 0x4ca8 >> 3).facts(facts::F2F)
        .fix(8, 8, 0x9)
        .zeros(&[(39, 2), (41, 9)])
        .lit("F16")
        .lit("F32")
        .op(r(0))
        .op(cbank())
        .done(out);
    // F2F{.FTZ}.dst.F16{.rnd}{.SAT} Rd{.CC}, -|c[..] [..]|{.H1}: the constant shape from a half
    // (nvdisasm spaces the constant as for XMAD): types 8..11 (F32 or F64 from F16), rounding
    // 39..40, .H1 41, .FTZ 44, negate 45, .CC 47, absolute 49, .SAT 50; nvdisasm ignores 12..15,
    // 42..43, 46, 48 (written 0). ptxas 11.8: 0x4ca8000005470608 `F2F.F32.F16 R8, c[0x0]
    // [0x150]`; nvdisasm, bits flipped: 0x4ca83a0005470608 `F2F.FTZ.F32.F16 R8, -c[0x0]
    // [0x150].H1`.
    form("F2F.c.F16", "F2F", 13, 0x4ca8 >> 3).facts(facts::F2F)
        .zeros(&[(12, 4), (42, 2), (46, 1), (48, 1)])
        .m(flag(44, "FTZ"))
        .m(g("types", 8, 4, &[(6, "F32.F16"), (7, "F64.F16")]))
        .m(rnd(39))
        .m(flag(50, "SAT"))
        .op(rd_cc(47))
        .op(cbank_mod(Some(45), Some(49), Some(41), true))
        .done(out);
    // LOP3.LUT{.X} Rd{.CC}, Ra, c[bank][offset], Rc, lut (constant shape; lut in 48..55).
    // ptxas 11.8's 16-bit division writes `LOP3.LUT R3, R5, c[0x2][0x8], R4, 0x48`
    // (0x0248020800270503, interpret/fdiv16-edges.atom); nvdisasm 11.8 on it with one bit
    // set: 56 `.X` and 47 `R3.CC` (both written 0).
    form("LOP3.LUT.c", "LOP3", 7, 0x0248 >> 9).facts(facts::LOP3)
        .fix(56, 1, 0)
        .fix(47, 1, 0)
        .lit("LUT")
        .op(r(0))
        .op(r(8))
        .op(cbank())
        .op(r(39))
        .op(imm(48, 8))
        .done(out);
    // PSETP.bop.bop2 Pd, Pq, Pa, Pb, Pc: Pd = (Pa bop Pb) bop2 Pc, Pq the same of the inverse.
    // ptxas 11.8's div.rn.f32 writes `PSETP.OR.AND P0, PT, !P0, !P1, PT` (0x5090038121078007,
    // interpret/fdiv-edges.atom); nvdisasm 11.8 on it with one bit set: 0..2 Pq, 3..5 Pd,
    // 12..14 Pa (`!` 15), 29..31 Pb (`!` 32), 39..41 Pc (`!` 42), 24..25 bop (3 is
    // `.INVALIDBOP3`), 45..46 bop2; 6..11, 20..23, 26..28, 33..38, 43..44 and 47..50 change
    // nothing (written 0).
    form("PSETP", "PSETP", 13, 0x5090 >> 3).facts(facts::PSETP)
        .zeros(&[(6, 6), (20, 4), (26, 3), (33, 6), (43, 2), (47, 4)])
        .m(g("bop", 24, 2, &[(0, "AND"), (1, "OR"), (2, "XOR")]))
        .m(g("bop2", 45, 2, &[(0, "AND"), (1, "OR"), (2, "XOR")]))
        .op(p(3))
        .op(p(0))
        .op(pn(12, 15))
        .op(pn(29, 32))
        .op(pn(39, 42))
        .done(out);
    // LOP3.LUT{.test} {Pd,} Rd, Ra, Rb, Rc, lut (register shape; lut in 28..35): Pd in 48..50
    // (left out when PT) tests the result as LOP's `.T` / `.Z` / `.NZ` do. ptxas 11.8's
    // div.rn.f32 writes `LOP3.LUT.NZ P0, RZ, R7, R8, R6, 0xc8` (0x5be0033c808707ff,
    // interpret/fdiv-edges.atom); nvdisasm 11.8 on it with one bit set: 36 `.Z`, 37 `.T`, 38
    // `.X` (written 0), 47 `RZ.CC` (written 0), 48..50 the predicate.
    form("LOP3.LUT", "LOP3", 13, 0x5be0 >> 3).facts(facts::LOP3)
        .fix(38, 1, 0)
        .fix(47, 1, 0)
        .lit("LUT")
        .m(g("test", 36, 2, &[(0, ""), (1, "T"), (2, "Z"), (3, "NZ")]))
        .op(p_hidden(48))
        .op(r(0))
        .op(r(8))
        .op(r(20))
        .op(r(39))
        .op(imm(28, 8))
        .done(out);

    // ISETP.cmp{.U32}{.X}.bop Pd, Pq, Ra, src, Pp.
    for (sfx, opc, src) in shapes(0x5b60, 0x4b60, 0x3660) {
        let f = alu("ISETP", sfx, "ISETP", opc)
            .facts(facts::ISETP)
            .fix(52, 4, (opc >> 4) & 0xf)
            .fix(44, 1, 0)
            .fix(47, 1, 0)
            .fix(6, 2, 0);
        ra_src_pp(compare(f).op(p(3)).op(p(0)), src).done(out);
    }

    // ICMP's constant and immediate shapes (the register one is above). ptxas 11.8's rem.s64 takes
    // the divisor's absolute value with 0x4b43018005470202 `ICMP.LT R2, R2, c[0x0][0x150], R3`
    // (R2 the negated low word, R3 the high word); its f64 conversions write 0x364a000000770504
    // `ICMP.NE.U32 R4, R5, 0x7, R0`. nvdisasm 11.8 on 0x4b4a010800070000 `ICMP.NE.U32 R0, R0,
    // c[0x2][0x0], R2` with one bit flipped: 48 `ICMP.NE`, 49..51 the compare, 47 nothing
    // (written 0), 52 `ISET`.
    for (sfx, opc, src) in shapes(0x5b40, 0x4b40, 0x3640).into_iter().skip(1) {
        let f = alu("ICMP", sfx, "ICMP", opc).facts(facts::ICMP).fix(52, 4, (opc >> 4) & 0xf).fix(47, 1, 0);
        f.m(cmp()).m(sign48()).op(r(0)).op(r(8)).op(src).op(r(39)).done(out);
    }

    // ISET{.BF}.cmp{.U32}{.X}.bop Rd{.CC}, Ra, src, Pp: ISETP's layout with a register result
    // (0xffffffff or 0; 1.0 or 0.0 with .BF, bit 44), .CC 47. ptxas 11.8: 0x5b5d038000270305
    // `ISET.GE.AND R5, R3, R2, PT`, 0x5b5303800007020a `ISET.LT.AND R10, R2, R0, PT`;
    // nvdisasm, bits flipped: 0x5b5c1b8000270305 `ISET.BF.GE.U32.X.AND R5, R3, R2, PT`.
    for (sfx, opc, src) in shapes(0x5b50, 0x4b50, 0x3650) {
        let f = alu("ISET", sfx, "ISET", opc).facts(facts::ISET).fix(52, 4, (opc >> 4) & 0xf).m(flag(44, "BF"));
        ra_src_pp(compare(f).op(rd_cc(47)), src).done(out);
    }

    // SEL Rd, Ra, src, Pp / IMNMX{.U32} Rd, Ra, src, Pp (!PT = max).
    for (sfx, opc, src) in shapes(0x5ca0, 0x4ca0, 0x38a0) {
        let f = alu("SEL", sfx, "SEL", opc).facts(facts::SEL).fix(48, 8, opc & 0xff).fix(43, 5, 0);
        ra_src_pp(f.op(r(0)), src).done(out);
    }
    // The 64-bit pair ptxas 11.8 writes for min.s64/max.u64: `.XHI` (bits 43..44 = 3) on the
    // high words into the condition code, then `.XLO` (1) on the low ones reading it:
    // 0x4c219b8005970c09 `IMNMX.XHI R9.CC, R12, c[0x0][0x164], PT`, 0x4c200b8005870008
    // `IMNMX.U32.XLO R8, R0, c[0x0][0x160], PT`.
    for (sfx, opc, src) in shapes(0x5c20, 0x4c20, 0x3820) {
        let f = alu("IMNMX", sfx, "IMNMX", opc)
            .facts(facts::IMNMX)
            .fix(49, 7, (opc & 0xff) >> 1)
            .fix(45, 2, 0)
            .m(sign48());
        ra_src_pp(f.m(g("mode", 43, 2, &[(0, ""), (1, "XLO"), (3, "XHI")])).op(rd_cc(47)), src).done(out);
    }

    // XMAD{.PSL}{.MRG}{.mode} Rd, Ra{.H1}, Rb{.H1}, Rc: 16x16+32 multiply-add (register
    // shape, unsigned halves). PSL (product shifted left 16) 36, MRG (merge Rb's low half into
    // the result's high half) 37, A.H1 53, B.H1 35, mode 50..52.
    form("XMAD", "XMAD", 10, 0x5b00 >> 6).facts(facts::XMAD)
        .zeros(&[(28, 7), (38, 1), (47, 3)])
        .m(flag(36, "PSL"))
        .m(flag(37, "MRG"))
        .m(g("mode", 50, 3, &[(0, ""), (1, "CLO"), (2, "CHI"), (3, "CSFU"), (4, "CBCC")]))
        .op(r(0))
        .op(h1(8, 53, 0))
        .op(h1(20, 35, 1))
        .op(r(39))
        .done(out);

    // XMAD, constant shape: c[bank][offset] at 20..38 (printed `c[0x0] [0x150]`), Rc 39, .CC 47,
    // signedness 48 (A) / 49 (B), mode 50..51, B.H1 52, A.H1 53, .X 54, .PSL 55, .MRG 56.
    // ptxas 11.8: 0x4e007f8005470407 `XMAD R7, R4, c[0x0] [0x150], RZ`; nvdisasm, bits
    // flipped: 0x4fc57f8005470407 `XMAD.S16.U16.PSL.CLO.MRG.X R7, R4, c[0x0] [0x150], RZ`.
    let sign = || g("sign", 48, 2, &[(0, ""), (1, "S16.U16"), (2, "U16.S16"), (3, "S16.S16")]);
    form("XMAD.c", "XMAD", 7, 0x4e >> 1).facts(facts::XMAD)
        .m(sign())
        .m(flag(55, "PSL"))
        .m(g("mode", 50, 2, &[(0, ""), (1, "CLO"), (2, "CHI"), (3, "CSFU")]))
        .m(flag(56, "MRG"))
        .m(flag(54, "X"))
        .op(rd_cc(47))
        .op(h1(8, 53, 0))
        .op(cbank_mod(None, None, Some(52), true))
        .op(r(39))
        .done(out);
    // XMAD, constant-addend shape: Rb moves to 39 and c[bank][offset] (20..38) is the addend.
    // ptxas 11.8's 0x5100010800070204 `XMAD R4, R2, R2, c[0x2][0x0]`; nvdisasm 11.8 on it with
    // one bit set: 47 `R4.CC`, 48 `.S16.U16`, 49 `.U16.S16`, 50 `.CLO`, 51 `.CHI`, 52 `R2.H1`
    // (B), 53 `R2.H1` (A), 54 `.X`, 55 an FFMA (opcode bits 55..63).
    form("XMAD.rc", "XMAD", 9, 0x5100 >> 7).facts(facts::XMAD)
        .m(sign())
        .m(g("mode", 50, 2, &[(0, ""), (1, "CLO"), (2, "CHI"), (3, "CSFU")]))
        .m(flag(54, "X"))
        .op(rd_cc(47))
        .op(h1(8, 53, 0))
        .op(h1(39, 52, 1))
        .op(cbank())
        .done(out);
    // XMAD, immediate shape: a 16-bit immediate at 20..35, unsigned unless B is signed (bit 49:
    // `XMAD.U16.S16 R3, R0, -0x7ffa, RZ`), .PSL 36, .MRG 37, .X 38, Rc 39, .CC 47, signedness
    // 48..49, mode 50..52 (5..7 print `???5`), A.H1 53; nvdisasm ignores bit 56 (written 0).
    // ptxas 11.8: 0x3604019000170903 `XMAD.PSL.CLO R3, R9, 0x1, R3`, 0x36007f8000670003
    // `XMAD R3, R0, 0x6, RZ`; nvdisasm, bits flipped: 0x3611fff000670003
    // `XMAD.S16.U16.PSL.CBCC.MRG.X R3.CC, R0, 0x6, RZ`.
    for (key, b_signed) in [("XMAD.i", false), ("XMAD.i.sb", true)] {
        let (sign, kind) = if b_signed {
            (g("sign", 48, 1, &[(0, "U16.S16"), (1, "S16.S16")]), ImmKind::SignedHex)
        } else {
            (g("sign", 48, 1, &[(0, ""), (1, "S16.U16")]), ImmKind::Hex)
        };
        // Bit 56 lies in the opcode field here, so it is written 0.
        form(key, "XMAD", 10, 0x3600 >> 6).facts(facts::XMAD)
            .fix(49, 1, b_signed as u64)
            .m(sign)
            .m(flag(36, "PSL"))
            .m(g("mode", 50, 3, &[(0, ""), (1, "CLO"), (2, "CHI"), (3, "CSFU"), (4, "CBCC")]))
            .m(flag(37, "MRG"))
            .m(flag(38, "X"))
            .op(rd_cc(47))
            .op(h1(8, 53, 0))
            .op(OpSpec::Imm(ImmSpec { field: Field::new(20, 16), kind }))
            .op(r(39))
            .done(out);
    }

    // VOTE.mode Rd, Pd, Pp (ALL / ANY / EQ over the warp); POPC Rd, Rb (register shape).
    // nvdisasm leaves the register result out when it is RZ: that shape is its own form.
    for (key, rz) in [("VOTE", false), ("VOTE.rz", true)] {
        let f = form(key, "VOTE", 14, 0x50d8 >> 2).facts(facts::VOTE).fix(8, 8, 0).fix(20, 19, 0).fix(43, 2, 0).m(g(
            "mode",
            48,
            2,
            &[(0, "ALL"), (1, "ANY"), (2, "EQ")],
        ));
        let f = if rz { f.fix(0, 8, 255) } else { f.op(rnz(0)) };
        f.op(p(45)).op(pn(39, 42)).done(out);
    }
    form("POPC", "POPC", 16, 0x5c08).facts(facts::POPC).fix(8, 8, 0).fix(28, 20, 0).op(r(0)).op(r(20)).done(out);

    float_forms(out);
}

/// FADD / FMNMX / FSETP / DSETP / DADD, register shape: negate A 48, absolute A 46, negate B 45,
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
    // The adders read B through the third operand port: nvdisasm 11.8 prints `.reuse` on
    // FADD's and DADD's B for reuse flag 2 of the control word and ignores flag 1 (words
    // 0x5c58000000270004 and 0x5c70000000270004 under flags 0b010 and 0b100), where FMNMX,
    // FMUL and DMUL take flag 1; ptxas 11.8 sets flag 2 on an FADD (`FADD R4, R0.reuse,
    // R2.reuse`, control 0x283fc801e3a007ff, its third slot).
    form("FADD", "FADD", 13, 0x5c58 >> 3).facts(facts::FADD)
        .zeros(&[(28, 11), (41, 3), (47, 1), (50, 1)])
        .m(flag(44, "FTZ"))
        .m(rnd(39))
        .op(r(0))
        .op(fsrc(8, 48, 46, 0))
        .op(fsrc(20, 45, 49, 2))
        .done(out);
    // B from a constant or an immediate: its negate and absolute bits (45, 49) stay clear.
    let fadd_b = |f: F, b: OpSpec, out: &mut Vec<Form>| {
        f.fix(41, 3, 0)
            .zeros(&[(45, 1), (47, 1), (49, 2)])
            .m(flag(44, "FTZ"))
            .m(rnd(39))
            .op(r(0))
            .op(fsrc(8, 48, 46, 0))
            .op(b)
            .done(out)
    };
    // The constant-bank shape (bits 20..38 the bank and offset): ptxas 11.8 reads an f32
    // parameter there (`FADD R5, R4, c[0x0][0x148]`).
    fadd_b(form("FADD.c", "FADD", 13, 0x4c58 >> 3).facts(facts::FADD), cbank(), out);
    // The immediate shape (opcode 0x3858 around bit 56, which holds the immediate's sign):
    // ptxas 11.8 writes `FADD R3, R2, -1.5` as 0x3958003fc0070203, an fsub of 1.5 in a
    // shared-memory CAS loop (interpret/rmw-fsub.atom).
    fadd_b(form("FADD.i", "FADD", 7, 0x3858 >> 9).facts(facts::FADD).fix(51, 5, (0x3858 >> 3) & 0x1f), fimm20(), out);
    form("FMUL.c", "FMUL", 15, 0x4c68 >> 1).facts(facts::FMUL)
        .fix(41, 3, 0)
        .fix(46, 3, 0)
        .m(g("fz", 44, 2, &[(0, ""), (1, "FTZ"), (2, "FMZ")]))
        .m(rnd(39))
        .op(r(0))
        .op(r(8))
        .op(cbank())
        .done(out);
    form("DADD", "DADD", 13, 0x5c70 >> 3).facts(facts::DADD)
        .zeros(&[(28, 11), (41, 4), (47, 1), (50, 1)])
        .m(rnd(39))
        .op(r(0))
        .op(fsrc(8, 48, 46, 0))
        .op(fsrc(20, 45, 49, 2))
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
    form("FMUL", "FMUL", 15, 0x5c68 >> 1).facts(facts::FMUL)
        .zeros(&[(28, 11), (41, 3), (46, 2)])
        .m(g("fz", 44, 2, &[(0, ""), (1, "FTZ"), (2, "FMZ")]))
        .m(rnd(39))
        .op(r(0))
        .op(r(8))
        .op(neg_b)
        .done(out);
    form("DMUL", "DMUL", 15, 0x5c80 >> 1)
        .facts(facts::DMUL)
        .fix(28, 11, 0)
        .fix(41, 7, 0)
        .m(rnd(39))
        .op(r(0))
        .op(r(8))
        .op(neg_b)
        .done(out);
    // DMUL's constant shape: ptxas 11.8's 0x4c80000005270404 `DMUL R4, R4, c[0x0][0x148]`;
    // nvdisasm 11.8 with one bit flipped: 48 `-c[..]`, 39..40 the rounding, 47 `R4.CC` (written
    // 0), 41..46 and 49..50 nothing, 51 FCHK.
    form("DMUL.c", "DMUL", 13, 0x4c80 >> 3)
        .facts(facts::DMUL)
        .zeros(&[(41, 6), (47, 1), (49, 2)])
        .m(rnd(39))
        .op(r(0))
        .op(r(8))
        .op(cbank_mod(Some(48), None, None, false))
        .done(out);
    // DADD's immediate shape (a double's high 20 bits, the sign in 56): ptxas 11.8's
    // 0x3970003fd8070406 `DADD R6, R4, -0.375`; nvdisasm 11.8 with one bit flipped: 48 `-R4`,
    // 46 `|R4|`, 45 / 49 `.NEG` / `.ABS` after the immediate (not described: written 0), 39..40
    // the rounding, 47 `.CC` (written 0).
    let dimm20 = OpSpec::Imm(ImmSpec { field: Field::split2((20, 19), (56, 1)), kind: ImmKind::F64Hi20 });
    form("DADD.i", "DADD", 7, 0x3870 >> 9).facts(facts::DADD)
        .fix(51, 5, (0x3870 >> 3) & 0x1f)
        .zeros(&[(41, 5), (47, 1), (49, 2)])
        .m(rnd(39))
        .op(r(0))
        .op(fsrc(8, 48, 46, 0))
        .op(dimm20)
        .done(out);
    form("FMNMX", "FMNMX", 13, 0x5c60 >> 3).facts(facts::FMNMX)
        .zeros(&[(28, 11), (43, 1), (47, 1), (50, 1)])
        .m(flag(44, "FTZ"))
        .op(r(0))
        .op(fsrc(8, 48, 46, 0))
        .op(fsrc(20, 45, 49, 1))
        .op(pn(39, 42))
        .done(out);
    // The constant shapes of FMNMX and DADD, and DMNMX (FMNMX's layout on doubles), as ptxas
    // 11.8 writes them for atomc's kernels.
    form("FMNMX.c", "FMNMX", 13, 0x4c60 >> 3).facts(facts::FMNMX)
        .zeros(&[(43, 1), (47, 1), (50, 1)])
        .m(flag(44, "FTZ"))
        .op(r(0))
        .op(fsrc(8, 48, 46, 0))
        .op(cbank())
        .op(pn(39, 42))
        .done(out);
    form("DADD.c", "DADD", 13, 0x4c70 >> 3).facts(facts::DADD)
        .zeros(&[(41, 4), (47, 1), (50, 1)])
        .m(rnd(39))
        .op(r(0))
        .op(fsrc(8, 48, 46, 0))
        .op(cbank())
        .done(out);
    for (key, top, b) in [("DMNMX", 0x5c50u64, fsrc(20, 45, 49, 1)), ("DMNMX.c", 0x4c50, cbank())] {
        let f = form(key, "DMNMX", 13, top >> 3).facts(facts::DMNMX).fix(43, 2, 0).fix(47, 1, 0).fix(50, 1, 0);
        let f = if key == "DMNMX" { f.fix(28, 11, 0) } else { f };
        f.op(r(0)).op(fsrc(8, 48, 46, 0)).op(b).op(pn(39, 42)).done(out);
    }
    // DSETP is FSETP's layout on doubles, bit 47 (FSETP's FTZ) clear: ptxas 11.8 writes
    // `setp.nan.f64` as `DSETP.NAN.AND P0, PT, R4, R4, PT` (0x5b88038000470407) and
    // `setp.lt.f64`'s inverse as `DSETP.GEU.AND P1, PT, R4, R6, PT` (0x5b8e03800067040f).
    for (name, facts, top) in [("FSETP", facts::FSETP, 0x5bb), ("DSETP", facts::DSETP, 0x5b8)] {
        let f = form(name, name, 12, top).facts(facts).fix(28, 11, 0).m(g("cmp", 48, 4, &FLOAT_COMPARES));
        let f = if name == "FSETP" { f.m(flag(47, "FTZ")) } else { f.fix(47, 1, 0) };
        f.m(g("bop", 45, 2, &[(0, "AND"), (1, "OR"), (2, "XOR")]))
            .op(p(3))
            .op(p(0))
            .op(fsrc(8, 43, 7, 0))
            .op(fsrc(20, 6, 44, 1))
            .op(pn(39, 42))
            .done(out);
    }
    // FSETP's constant shape: ptxas 11.8's div.rn.f64 range checks 0x4bbc038800070887
    // `FSETP.GTU.AND P0, PT, |R8|, c[0x2][0x0], PT` and 0x4bb4038800170687 `FSETP.GT.AND P0, PT,
    // |R6|, c[0x2][0x4], PT`; -b 6 and |b| 44 as in the register shape (the sweep checks them).
    form("FSETP.c", "FSETP", 12, 0x4bb).facts(facts::FSETP)
        .m(g("cmp", 48, 4, &FLOAT_COMPARES))
        .m(flag(47, "FTZ"))
        .m(g("bop", 45, 2, &[(0, "AND"), (1, "OR"), (2, "XOR")]))
        .op(p(3))
        .op(p(0))
        .op(fsrc(8, 43, 7, 0))
        .op(cbank_mod(Some(6), Some(44), None, false))
        .op(pn(39, 42))
        .done(out);
    // FSETP's immediate shape (opcode bits 57..63 and 52..55, the immediate's sign in 56):
    // ptxas 11.8 writes div.rn.f64's range check as 0x36bc03801007038f `FSETP.GTU.AND P1, PT,
    // |R3|, 1.469367938527859385e-39, PT` (interpret/fdiv64-edges.atom). nvdisasm 11.8 prints
    // bits 6 and 44 as `.NEG` / `.ABS` after the immediate, which the table does not describe
    // (written 0), and 43 `-a`, 7 `|a|`, 47 `.FTZ`.
    // DSETP's is the same layout on a double's high 20 bits, 47 clear: ptxas 11.8's div.rn.f64
    // writes `@!P1 DSETP.NEU.AND P0, PT, |R6|, +INF , PT` (0x368d03fff0090687,
    // interpret/fdiv64-edges.atom), and nvdisasm 11.8 shows the same bits there.
    let dimm20 = OpSpec::Imm(ImmSpec { field: Field::split2((20, 19), (56, 1)), kind: ImmKind::F64Hi20 });
    for (key, name, facts, top, imm) in
        [("FSETP.i", "FSETP", facts::FSETP, 0x36bcu64, fimm20()), ("DSETP.i", "DSETP", facts::DSETP, 0x368d, dimm20)]
    {
        let f = form(key, name, 7, top >> 9).facts(facts).fix(52, 4, (top >> 4) & 0xf).zeros(&[(6, 1), (44, 1)]);
        let f = f.m(g("cmp", 48, 4, &FLOAT_COMPARES));
        // DSETP's bit 47 changes nothing in nvdisasm's reading of ptxas's word.
        let f = if name == "FSETP" { f.m(flag(47, "FTZ")) } else { f.zeros(&[(47, 1)]) };
        f.m(g("bop", 45, 2, &[(0, "AND"), (1, "OR"), (2, "XOR")]))
            .op(p(3))
            .op(p(0))
            .op(fsrc(8, 43, 7, 0))
            .op(imm)
            .op(pn(39, 42))
            .done(out);
    }
    // FCHK.DIVIDE Pd, a, b: whether a / b needs div.rn.f32's slow path. ptxas 11.8 writes
    // `FCHK.DIVIDE P0, R4, R6` (0x5c88000000670400, interpret/fdiv-edges.atom); nvdisasm 11.8
    // on that word with one bit set: 3..5 the predicate, 39..44 the check (`.INVALIDCHKMODE1`
    // .. `32`: only 0 is named), 45 `-b`, 46 `|a|`, 48 `-a`, 49 `|b|`, 60 a constant b; 0..2,
    // 28..38, 47 and 50 change nothing (written 0).
    form("FCHK", "FCHK", 13, 0x5c88 >> 3).facts(facts::FCHK)
        .zeros(&[(0, 3), (28, 11), (47, 1), (50, 1)])
        .m(g("check", 39, 6, &[(0, "DIVIDE")]))
        .op(p(3))
        .op(fsrc(8, 48, 46, 0))
        .op(fsrc(20, 45, 49, 1))
        .done(out);
    // DSET{.BF}.cmp.bop Rd, a, b, Pc: DSETP's test written to a register (0xffffffff / 0, or
    // 1.0 / 0.0 with `.BF`). ptxas 11.8 writes `setp.nan.f64` + `selp` as `DSET.NUM.AND R6,
    // R2, R2, PT` (0x5907038000270206) and an AND; nvdisasm 11.8 on that word with one bit set:
    // 43 `-R2` (A), 44 `|R2|` (B), 45 `.OR`, 47 `R6.CC`, 52 `.BF`, 53 `-R2` (B), 54 `|R2|` (A).
    form("DSET", "DSET", 9, 0x5907 >> 7).facts(facts::DSET)
        .fix(28, 11, 0)
        .m(flag(52, "BF"))
        .m(g("cmp", 48, 4, &FLOAT_COMPARES))
        .m(g("bop", 45, 2, &[(0, "AND"), (1, "OR"), (2, "XOR")]))
        .op(rd_cc(47))
        .op(fsrc(8, 43, 54, 0))
        .op(fsrc(20, 53, 44, 1))
        .op(pn(39, 42))
        .done(out);
    // DSET's constant and immediate shapes: ptxas 11.8's 0x490103800527ff09 `DSET.LT.AND R9,
    // RZ, c[0x0][0x148], PT` and 0x320103c004070400 `DSET.LT.AND R0, R4, 2.5, PT` (a double's
    // high 20 bits, the sign in 56; 53 / 44 print `.NEG` / `.ABS` after it: written 0).
    let dset = |key: &'static str, bits: u8, top: u64| {
        form(key, "DSET", bits, top).facts(facts::DSET)
            .m(flag(52, "BF"))
            .m(g("cmp", 48, 4, &FLOAT_COMPARES))
            .m(g("bop", 45, 2, &[(0, "AND"), (1, "OR"), (2, "XOR")]))
            .op(rd_cc(47))
            .op(fsrc(8, 43, 54, 0))
    };
    dset("DSET.c", 9, 0x4901 >> 7).op(cbank_mod(Some(53), Some(44), None, false)).op(pn(39, 42)).done(out);
    dset("DSET.i", 7, 0x3201 >> 9).zeros(&[(53, 1), (55, 1), (44, 1)]).op(dimm20).op(pn(39, 42)).done(out);
    // FCHK's constant shape (bit 60 clear, -b 45, |b| 49): ptxas 11.8's div.rn.f32 of a
    // parameter, 0x4c88000005370300 `FCHK.DIVIDE P0, R3, c[0x0][0x14c]`.
    form("FCHK.c", "FCHK", 13, 0x4c88 >> 3).facts(facts::FCHK)
        .zeros(&[(0, 3), (47, 1), (50, 1)])
        .m(g("check", 39, 6, &[(0, "DIVIDE")]))
        .op(p(3))
        .op(fsrc(8, 48, 46, 0))
        .op(cbank_mod(Some(45), Some(49), None, false))
        .done(out);
    // FSET{.BF}.cmp{.FTZ}.bop Rd, a, b, Pc: DSET's layout on f32 (bit 56 clear, .FTZ in 55), b
    // a register or a constant. ptxas 11.8 writes `FSET.LT.AND R7, R0, R6, PT`
    // (0x5801038000670007: an f16 compare through f32, interpret/half-arith.atom) and
    // `FSET.GTU.AND R10, |R3|, c[0x2][0x8], PT` (0x484c03880027030a: div.rn.f64's range
    // check, interpret/fdiv64-edges.atom); nvdisasm 11.8 on each with one bit set: 52 `.BF`,
    // 55 `.FTZ`, 43 `-a`, 54 `|a|`, 53 `-b`, 44 `|b|`, 56 `DSET`; 28..38 of the register shape
    // change nothing (written 0).
    //
    // The immediate shape (opcode bits 57..63, the immediate's sign in 56): ptxas 11.8's
    // div.rn.f32 writes `FSET.GTU.FTZ.AND R8, |R2|, +INF , PT` (0x30cc03ff80070208,
    // interpret/fdiv-edges.atom); nvdisasm 11.8 on it with one bit set shows the same bits,
    // and 53 / 44 as `.NEG` / `.ABS` after the immediate, which the table does not describe
    // (written 0), as for FSETP's immediate shape.
    let fset_b = cbank_mod(Some(53), Some(44), None, false);
    for (key, bits, top, b) in
        [("FSET", 8, 0x58u64, fsrc(20, 53, 44, 1)), ("FSET.c", 8, 0x48, fset_b), ("FSET.i", 7, 0x30cc >> 9, fimm20())]
    {
        let f = form(key, "FSET", bits, top).facts(facts::FSET);
        let f = match key {
            "FSET" => f.fix(28, 11, 0),
            "FSET.i" => f.zeros(&[(44, 1), (53, 1)]),
            _ => f,
        };
        f.m(flag(52, "BF"))
            .m(g("cmp", 48, 4, &FLOAT_COMPARES))
            .m(flag(55, "FTZ"))
            .m(g("bop", 45, 2, &[(0, "AND"), (1, "OR"), (2, "XOR")]))
            .op(rd_cc(47))
            .op(fsrc(8, 43, 54, 0))
            .op(b)
            .op(pn(39, 42))
            .done(out);
    }
}
