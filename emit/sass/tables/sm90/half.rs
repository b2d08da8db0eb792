//! sm_90 half-precision pairs: HADD2, HMUL2, HFMA2, HMNMX2 with register sources.
//!
//! Each source half-pair carries a swizzle (`.H0_H0`, `.H1_H1`, or none for the pair as it is):
//! A at 74..75 with negate 72 / absolute 73, B at 60..61 with negate 63 / absolute 62, HFMA2's
//! C (register at 64) at 81..82 with absolute 83 / negate 84. Flags: `.SAT` 77, `.F32` (one f32
//! result) 78, `.FTZ` 80 (HMUL2/HFMA2: `.FMZ` 76), `.BF16_V2` 85, HMNMX2's `.NAN` 81. ptxas 13.5
//! (cvt/add/sub/mul/min/max/fma of `.f16`): 0x140fe20000000800_3000000000087230 `HADD2 R8,
//! R0.reuse.H0_H0, R0.reuse.H1_H1`, 0x000fe40000004100_20000000ff0d7230 `HADD2.F32 R13, -RZ,
//! R0.H0_H0`, 0x001fe20000000800_3000000000077232 `HMUL2 R7, R0.H0_H0, R0.H1_H1`,
//! 0x0c0fe20003800800_30000000000a7240 `HMNMX2 R10, R0.reuse.H0_H0, R0.reuse.H1_H1, PT`,
//! 0x000fe20000040808_3000000000007231 `HFMA2 R0, R0.H0_H0, R0.H1_H1, R8.H0_H0`. The reuse
//! flags, as nvdisasm 13 reads them: HADD2's B is reuse slot 2 (slot 1 is refused), HADD2.F32's
//! A has none; HMUL2/HMNMX2 use slots 0 and 1, HFMA2 0, 1 and 2.

use super::*;

fn swz(lo: u8, swz: u8, neg: u8, abs: Option<u8>, reuse: Option<u8>) -> OpSpec {
    let reg = match rmod(lo, reuse, Some(neg), abs, None) {
        OpSpec::Reg(r) => r,
        _ => unreachable!("rmod gives a register"),
    };
    OpSpec::Ext(ExtSpec::Swizzled { reg, swz: Field::new(swz, 2), uniform: false })
}

fn a(reuse: Option<u8>, abs: bool) -> OpSpec {
    swz(24, 74, 72, abs.then_some(73), reuse)
}

fn b(reuse: Option<u8>) -> OpSpec {
    swz(32, 60, 63, Some(62), reuse)
}

/// B as a uniform register (6 bits at 32), same negate/absolute/swizzle bits.
fn b_ur() -> OpSpec {
    let f = |b| Some(Field::new(b, 1));
    let reg = RegSpec { field: Field::new(32, 6), rz_ok: true, neg: f(63), abs: f(62), not: None, reuse: None };
    OpSpec::Ext(ExtSpec::Swizzled { reg, swz: Field::new(60, 2), uniform: true })
}

/// `.FTZ` (80) or `.FMZ` (76); both set is invalid.
fn fmz() -> ModGroup {
    ModGroup { name: "fmz", field: Some(Field::split2((80, 1), (76, 1))), values: &[(0, ""), (1, "FTZ"), (2, "FMZ")], meanings: &[] }
}

/// The layout HADD2, HMUL2, HMNMX2 and HFMA2 share: `.F32` clear, `.BF16_V2` first, then two
/// per-instruction modifiers; Rd, A (reuse slot 0, with absolute value) and the given B. Each
/// caller adds what its instruction has beyond that (HMNMX2's predicate, HFMA2's C).
fn half_pair(f: F, second: ModGroup, third: ModGroup, b: OpSpec) -> F {
    f.fix(78, 1, 0).m(flag(85, "BF16_V2")).m(second).m(third).op(r(16)).op(a(Some(0), true)).op(b)
}

pub(super) fn forms(out: &mut Vec<Form>) {
    // The uniform-register B shapes (bit 91): ptxas 13.5 adds an f16 to a loop-invariant
    // operand with `HADD2 R, R, UR6.H0_H0`; nvdisasm 13 reads 0xe30 as HADD2, 0xc32 as HMUL2
    // and 0xc40 as HMNMX2 with B a uniform register, printed `-|UR0.H1_H1|`.
    let ur = |key, mn, facts, opc| form(key, mn, opc).facts(facts).fix(91, 1, 1);
    half_pair(ur("HADD2.ur", "HADD2", facts::HADD2, 0xe30), flag(80, "FTZ"), flag(77, "SAT"), b_ur()).done(out);
    half_pair(ur("HMUL2.ur", "HMUL2", facts::HMUL2, 0xc32), fmz(), flag(77, "SAT"), b_ur()).done(out);
    let hmnmx2 = ur("HMNMX2.ur", "HMNMX2", facts::HMNMX2, 0xc40);
    half_pair(hmnmx2, flag(80, "FTZ"), flag(81, "NAN"), b_ur()).op(pn(87, 90)).done(out);
    // HADD2 / HADD2.F32: `.F32` excludes `.BF16_V2` (nvdisasm refuses the pair).
    let hadd2 = form("HADD2", "HADD2", 0x230).facts(facts::HADD2);
    half_pair(hadd2, flag(80, "FTZ"), flag(77, "SAT"), b(Some(2))).done(out);
    // The two-immediate shape (0x430): ptxas 13.5's CAS loops add an f16x2 constant with
    // 0x020fca0000000000_0003000305067430 `HADD2 R6, R5, 1.78813934326171875e-07,
    // 1.78813934326171875e-07` (high half first, as HFMA2.MMA). `.BF16_V2` would print the
    // immediates as bf16 and `.F32` takes one: both are left out; A has no reuse flag here.
    form("HADD2.imm", "HADD2", 0x430).facts(facts::HADD2)
        .fix(78, 1, 0)
        .fix(85, 1, 0)
        .m(flag(80, "FTZ"))
        .m(flag(77, "SAT"))
        .op(r(16))
        .op(a(None, true))
        .op(imm(48, 16, ImmKind::F16))
        .op(imm(32, 16, ImmKind::F16))
        .done(out);
    form("HADD2.F32", "HADD2", 0x230).facts(facts::HADD2)
        .fix(78, 1, 1)
        .fix(85, 1, 0)
        .fix(73, 1, 0)
        .lit("F32")
        .m(flag(80, "FTZ"))
        .m(flag(77, "SAT"))
        .op(r(16))
        .op(a(None, false))
        .op(b(Some(2)))
        .done(out);
    half_pair(form("HMUL2", "HMUL2", 0x232).facts(facts::HMUL2), fmz(), flag(77, "SAT"), b(Some(1))).done(out);
    // HMNMX2: the predicate picks min (PT) or max (!PT), as FMNMX.
    half_pair(form("HMNMX2", "HMNMX2", 0x240).facts(facts::HMNMX2), flag(80, "FTZ"), flag(81, "NAN"), b(Some(1)))
        .op(pn(87, 90))
        .done(out);
    half_pair(form("HFMA2", "HFMA2", 0x231).facts(facts::HFMA2), fmz(), flag(77, "SAT"), b(Some(1)))
        .fix(79, 1, 0)
        .fix(86, 1, 0)
        .op(swz(64, 81, 84, Some(83), Some(2)))
        .done(out);
}
