//! sm_50 forms for the bit-field ops and fused multiply-add, as ptxas 11.8 writes them for
//! `bfe`/`bfi` with register operands and `fma.rn.{f32,f64}` (words from its cubins; the sweep
//! of `emit/sass/tests/sass_sm50_lines.rs` checks every form against nvdisasm 11.8):
//!
//! ```text
//! 0x5c00000000871607  BFE.U32 R7, R22, R8          (R8 = position | length << 8)
//! 0x5c01000000871616  BFE R22, R22, R8
//! 0x5bf0000001771617  BFI R23, R22, R23, R0        (insert R22 into R0 under control R23)
//! 0x5980068000c70b10  FFMA R16, R11, R12, R13
//! 0x5b72030000470204  DFMA R4, R2, R4, -R6
//! 0x5371030800070804  DFMA R4, R8, -R6, c[0x2][0x0]   (div.rn.f64's 1.0 from the constant bank)
//! ```

use super::*;

/// BFE{.U32}{.BREV} Rd, Ra, b (b = position | length << 8), register or immediate: signed
/// unless bit 48 is clear; .BREV (bit 40) reverses Ra first.
pub(super) fn bfe(f: F, b: OpSpec) -> F {
    f.fix(41, 7, 0).m(sign48()).m(flag(40, "BREV")).op(r(0)).op(r(8)).op(b)
}

pub(super) fn forms(out: &mut Vec<Form>) {
    // BFE{.U32}{.BREV} Rd, Ra, Rb.
    bfe(form("BFE.r", "BFE", 15, 0x5c00 >> 1).facts(facts::BFE).fix(28, 12, 0), r(20)).done(out);
    // BFI Rd, Ra, Rb, Rc: Ra's low `length` bits into Rc at `position` (Rb as for BFE).
    form("BFI.r", "BFI", 16, 0x5bf0)
        .facts(facts::BFI)
        .fix(28, 11, 0)
        .fix(47, 1, 0)
        .op(r(0))
        .op(r(8))
        .op(r(20))
        .op(r(39))
        .done(out);
    // FFMA{.FTZ|.FMZ}{.rnd} Rd, Ra, -Rb, -Rc: negate the product 48, the addend 49.
    let neg = |lo: u8, bit: u8| rmod(lo, Some(bit), None);
    let fma_ops = |f: F| f.op(r(0)).op(r(8)).op(neg(20, 48)).op(neg(39, 49));
    // Every FFMA shape: `.CC` 47 and `.SAT` 50 written 0, flush mode 53..54, rounding 51..52.
    let ffma = |key: &'static str, bits: u8, top: u64| {
        form(key, "FFMA", bits, top).facts(facts::FFMA).fix(47, 1, 0).fix(50, 1, 0).m(g("fz", 53, 2, &[(0, ""), (1, "FTZ"), (2, "FMZ")])).m(rnd(51))
    };
    fma_ops(ffma("FFMA", 9, 0x5980 >> 7).fix(28, 11, 0)).done(out);
    // DFMA{.rnd} Rd, Ra, -Rb, -Rc (pairs).
    fma_ops(form("DFMA", "DFMA", 12, 0x5b7).facts(facts::DFMA).fix(28, 11, 0).fix(47, 1, 0).m(rnd(50))).done(out);
    // DFMA{.rnd} Rd, Ra, -Rb, -c[bank][offset]: Rb moves to 39 and the addend is a constant
    // (ptxas 11.8's div.rn.f64 reads its 1.0 from c[0x2][0x0]). Rb keeps the B slot's reuse
    // flag (1) there: nvdisasm 11.8 prints `DFMA R6, R8, R12.reuse, -c[0x0][0x148]` for
    // ptxas's code of atomc's `compile/sm50/fdiv64.atom` with flag 1 set.
    let rb = match neg(39, 48) {
        OpSpec::Reg(spec) => OpSpec::Reg(RegSpec { reuse: Some(1), ..spec }),
        other => other,
    };
    form("DFMA.rc", "DFMA", 12, 0x537).facts(facts::DFMA)
        .fix(47, 1, 0)
        .m(rnd(50))
        .op(r(0))
        .op(r(8))
        .op(rb)
        .op(cbank_mod(Some(49), None, None, false))
        .done(out);
    // DFMA{.rnd} Rd, Ra, imm, -Rc (immediate shape: a double's high 20 bits, the sign in 56;
    // opcode 57..63 and 52..55), as ptxas 11.8 writes `DFMA R10, R2, 0.5, R8`: nvdisasm 11.8
    // reads 0x3670043fe007020a so, and with one bit set: 48 `.NEG` after the immediate (not described,
    // written 0), 49 `-R8`, 50..51 `.RM` / `.RP`.
    let dimm20 = OpSpec::Imm(ImmSpec { field: Field::split2((20, 19), (56, 1)), kind: ImmKind::F64Hi20 });
    form("DFMA.i", "DFMA", 7, 0x3670 >> 9).facts(facts::DFMA)
        .fix(52, 4, 7)
        .fix(47, 1, 0)
        .zeros(&[(48, 1)])
        .m(rnd(50))
        .op(r(0))
        .op(r(8))
        .op(dimm20)
        .op(neg(39, 49))
        .done(out);
    // The constant in B (20..38; -B 48, -C 49 as in the register shape): ptxas 11.8's
    // 0x4981010005370002 `FFMA R2, R0, -c[0x0][0x14c], R2` and 0x4b71030005470204 `DFMA R4, R2,
    // -c[0x0][0x150], R6` (the sweep against nvdisasm 11.8 checks every other bit).
    let cb = || cbank_mod(Some(48), None, None, false);
    ffma("FFMA.c", 9, 0x4980 >> 7).op(r(0)).op(r(8)).op(cb()).op(neg(39, 49)).done(out);
    form("DFMA.c", "DFMA", 12, 0x4b7).facts(facts::DFMA).fix(47, 1, 0).m(rnd(50)).op(r(0)).op(r(8)).op(cb()).op(neg(39, 49)).done(out);
    // FFMA's shape of the same layout: ptxas 11.8's div.rn.f32 writes `FFMA R7, R4, -R6,
    // c[0x2][0x0]` (0x5181030800070407, interpret/fdiv-edges.atom); nvdisasm 11.8 on that word
    // with one bit set: 48 `R6` (the product's sign), 49 `-c[..]`, 51..52 the rounding, 53..54
    // `.FTZ` / `.FMZ`, 50 `.SAT`, 47 `R7.CC` (both written 0, as in the register shape).
    ffma("FFMA.rc", 9, 0x5180 >> 7).op(r(0)).op(r(8)).op(rb).op(cbank_mod(Some(49), None, None, false)).done(out);
    // FFMA{.fz}{.rnd} Rd, Ra, imm, -Rc (immediate shape, the sign in 56): ptxas 11.8's
    // div.rn.f32 scales with `@!P0 FFMA R6, R2, 1.84467440737095516160e+19, RZ`
    // (0x32807fdf80080206, interpret/fdiv-edges.atom); nvdisasm 11.8 on it with one bit set:
    // 49 `-RZ`, 50 `.SAT`, 51..52 the rounding, 53..54 `.FTZ` / `.FMZ`, 47 `R6.CC`, 48 `.NEG`
    // after the immediate, which the table does not describe (written 0). The opcode is 57..63
    // and 55 (clear, the word is a DSET).
    ffma("FFMA.i", 7, 0x3280 >> 9).fix(55, 1, 1).zeros(&[(48, 1)]).op(r(0)).op(r(8)).op(fimm20()).op(neg(39, 49)).done(out);
}
