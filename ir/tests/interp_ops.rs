//! Non-atomic semantics: integer ops, shifts, comparisons, select,
//! conversions (saturation, NaN → 0, rounding), float arithmetic, and the
//! binary16/bfloat16 helpers.

mod interp_common;
use atomc_ir::interp::run_line;
use atomc_ir::interp::{bf16_bits_to_f32, f16_bits_to_f32, f32_to_bf16_bits, f32_to_f16_bits};
use atomc_ir::Function;
use interp_common::func;

/// Runs each row's run line on the function `make` builds from the row's names. Every row runs;
/// the test then fails listing each row whose run line failed.
fn rows<const N: usize>(make: impl Fn([&str; N]) -> Function, rows: &[([&str; N], &str)]) {
    let failed: Vec<String> = rows
        .iter()
        .filter_map(|&(names, line)| {
            run_line(&make(names), line)
                .err()
                .map(|e| format!("{names:?}: run line failed: {line}\n  {e}"))
        })
        .collect();
    assert!(
        failed.is_empty(),
        "{} of {} rows failed:\n{}",
        failed.len(),
        rows.len(),
        failed.join("\n")
    );
}

fn binop([op, ty]: [&str; 2]) -> Function {
    func(&format!(
        "function %f({ty}, {ty}) -> {ty} {{
block0(v0: {ty}, v1: {ty}):
    v2 = {op} v0, v1
    return v2
}}
"
    ))
}

#[test]
fn integer_arithmetic_wraps_and_divides_by_sign() {
    rows(
        binop,
        &[
            (["iadd", "i8"], "%f(127, 1) == -128"),
            (["isub", "i16"], "%f(-32768, 1) == 32767"),
            (["imul", "i32"], "%f(0x10000, 0x10000) == 0"),
            (["imul", "i64"], "%f(-3, 5) == -15"),
            (["udiv", "i32"], "%f(-1, 2) == 0x7fffffff"),
            (["sdiv", "i32"], "%f(-7, 2) == -3"),
            (["sdiv", "i32"], "%f(-2147483648, -1) == -2147483648"),
            (["sdiv", "i8"], "%f(-128, -1) == -128"),
            (["srem", "i32"], "%f(-7, 2) == -1"),
            (["srem", "i64"], "%f(-9223372036854775808, -1) == 0"),
            (["urem", "i16"], "%f(-1, 10) == 5"),
            (["umin", "i32"], "%f(-1, 1) == 1"),
            (["smin", "i32"], "%f(-1, 1) == -1"),
            (["umax", "i8"], "%f(-1, 1) == -1"),
            (["smax", "i8"], "%f(-1, 1) == 1"),
            (["band", "i32"], "%f(0xff00, 0x0ff0) == 0x0f00"),
            (["bor", "i32"], "%f(0xff00, 0x0ff0) == 0xfff0"),
            (["bxor", "i32"], "%f(0xff00, 0x0ff0) == 0xf0f0"),
        ],
    );
}

#[test]
fn shifts_take_the_amount_modulo_the_width() {
    rows(
        binop,
        &[
            (["ishl", "i32"], "%f(1, 33) == 2"),
            (["ishl", "i8"], "%f(1, 9) == 2"),
            (["ushr", "i8"], "%f(-128, 7) == 1"),
            (["sshr", "i8"], "%f(-128, 7) == -1"),
            (["sshr", "i64"], "%f(-256, 68) == -16"),
            (["ushr", "i16"], "%f(0x8000, 16) == 0x8000"),
        ],
    );
}

#[test]
fn unary_ops() {
    let un = |[op, ty]: [&str; 2]| {
        func(&format!("function %f({ty}) -> {ty} {{\nblock0(v0: {ty}):\n    v1 = {op} v0\n    return v1\n}}\n"))
    };
    rows(
        un,
        &[
            (["ineg", "i8"], "%f(-128) == -128"),
            (["ineg", "i32"], "%f(5) == -5"),
            (["bnot", "i16"], "%f(0) == -1"),
            (["fneg", "f32"], "%f(0.0) == -0.0"),
            (["fneg", "f32"], "%f(nan) == -nan"),
            (["fabs", "f64"], "%f(-nan) == nan"),
            (["fabs", "f16"], "%f(-2.5) == 2.5"),
            (["fneg", "f32"], "%f(0x7f800001) == 0xff800001"),
        ],
    );
}

#[test]
fn float_arithmetic_per_type() {
    rows(
        binop,
        &[
            (["fadd", "f32"], "%f(0.1, 0.2) == 0.3"),
            (["fadd", "f64"], "%f(0.1, 0.2) == 0.30000000000000004"),
            (["fsub", "f16"], "%f(1.0, 0.0004883) == 0.99951171875"),
            (["fmul", "f16"], "%f(256.0, 256.0) == inf"),
            (["fdiv", "f32"], "%f(1.0, 0.0) == inf"),
            (["fdiv", "f32"], "%f(0.0, 0.0) == nan"),
            (["fdiv", "f64"], "%f(-1.0, 0.0) == -inf"),
            (["fdiv", "f16"], "%f(1.0, 3.0) == 0x3555"),
            (["fmin", "f32"], "%f(nan, -1.0) == -1.0"),
            (["fmax", "f64"], "%f(-0.0, 0.0) == 0.0"),
            (["fmin", "f16"], "%f(-0.0, 0.0) == -0.0"),
        ],
    );
}

#[test]
fn comparisons_and_select() {
    let cmp = |[kind, cc, ty]: [&str; 3]| {
        func(&format!(
            "function %f({ty}, {ty}) -> i32 {{
block0(v0: {ty}, v1: {ty}):
    v2 = {kind} {cc} v0, v1
    v3 = iconst.i32 1
    v4 = iconst.i32 0
    v5 = select v2, v3, v4
    return v5
}}
"
        ))
    };
    rows(
        cmp,
        &[
            (["icmp", "slt", "i32"], "%f(-1, 0) == 1"),
            (["icmp", "ult", "i32"], "%f(-1, 0) == 0"),
            (["icmp", "sge", "i8"], "%f(-128, 127) == 0"),
            (["icmp", "uge", "i8"], "%f(-128, 127) == 1"),
            (["icmp", "ne", "i64"], "%f(1, 1) == 0"),
            (["fcmp", "eq", "f32"], "%f(0.0, -0.0) == 1"),
            (["fcmp", "eq", "f32"], "%f(nan, nan) == 0"),
            (["fcmp", "ne", "f32"], "%f(nan, nan) == 1"),
            (["fcmp", "lt", "f64"], "%f(nan, 1.0) == 0"),
            (["fcmp", "uno", "f16"], "%f(nan, 1.0) == 1"),
            (["fcmp", "ord", "f16"], "%f(2.0, 1.0) == 1"),
            (["fcmp", "ge", "f16"], "%f(2.0, 1.0) == 1"),
        ],
    );
}

fn conv([op, from, to]: [&str; 3]) -> Function {
    func(&format!(
        "function %f({from}) -> {to} {{\nblock0(v0: {from}):\n    v1 = {op}.{to} v0\n    return v1\n}}\n"
    ))
}

#[test]
fn integer_conversions() {
    rows(
        conv,
        &[
            (["uextend", "i8", "i32"], "%f(-1) == 255"),
            (["sextend", "i8", "i64"], "%f(-1) == -1"),
            (["sextend", "i16", "i32"], "%f(0x8000) == -32768"),
            (["ireduce", "i64", "i8"], "%f(0x1234) == 0x34"),
            (["bitcast", "f32", "i32"], "%f(1.0) == 0x3f800000"),
            (["bitcast", "i64", "f64"], "%f(0x4000000000000000) == 2.0"),
        ],
    );
}

#[test]
fn float_to_int_truncates_saturates_and_maps_nan_to_zero() {
    rows(
        conv,
        &[
            (["fcvt_to_sint", "f32", "i32"], "%f(-2.9) == -2"),
            (["fcvt_to_sint", "f32", "i32"], "%f(3e9) == 2147483647"),
            (["fcvt_to_sint", "f32", "i32"], "%f(-inf) == -2147483648"),
            (["fcvt_to_sint", "f64", "i8"], "%f(200.0) == 127"),
            (["fcvt_to_sint", "f64", "i8"], "%f(nan) == 0"),
            (["fcvt_to_uint", "f32", "i32"], "%f(-5.0) == 0"),
            (["fcvt_to_uint", "f32", "i32"], "%f(5e9) == 0xffffffff"),
            (["fcvt_to_uint", "f16", "i16"], "%f(inf) == 0xffff"),
            (["fcvt_to_uint", "f64", "i64"], "%f(nan) == 0"),
            (["fcvt_to_sint", "f16", "i64"], "%f(-65504.0) == -65504"),
        ],
    );
}

#[test]
fn int_to_float_and_float_width_changes_round_once() {
    rows(
        conv,
        &[
            (
                ["fcvt_from_sint", "i32", "f32"],
                "%f(16777217) == 16777216.0",
            ),
            (
                ["fcvt_from_sint", "i32", "f32"],
                "%f(16777219) == 16777220.0",
            ),
            (["fcvt_from_uint", "i32", "f32"], "%f(-1) == 4294967296.0"),
            (["fcvt_from_sint", "i32", "f16"], "%f(2049) == 2048.0"),
            (["fcvt_from_sint", "i32", "f16"], "%f(2051) == 2052.0"),
            (["fcvt_from_sint", "i32", "f16"], "%f(65520) == inf"),
            (["fcvt_from_sint", "i32", "f16"], "%f(65519) == 65504.0"),
            (
                ["fcvt_from_uint", "i64", "f64"],
                "%f(-1) == 18446744073709551616.0",
            ),
            (
                ["fpromote", "f16", "f64"],
                "%f(0x0001) == 5.960464477539063e-8",
            ),
            (["fpromote", "f32", "f64"], "%f(inf) == inf"),
            (["fdemote", "f64", "f32"], "%f(0.1) == 0.1"),
            // f64 → f16 directly, one rounding: 1 + 2^-11 + 2^-40 is just above the
            // tie, so it rounds up (rounding to f32 first would have made it a tie
            // and rounded down to 1.0).
            (
                ["fdemote", "f64", "f16"],
                "%f(0x3ff0020000001000) == 0x3c01",
            ),
            (["fdemote", "f32", "f16"], "%f(1e-8) == 0.0"),
            (["fdemote", "f32", "f16"], "%f(-1e6) == -inf"),
            (["fdemote", "f64", "f16"], "%f(nan) == nan"),
        ],
    );
}

#[test]
fn f16_conversion_round_trips_every_pattern() {
    for bits in 0..=u16::MAX {
        let x = f16_bits_to_f32(bits);
        let back = f32_to_f16_bits(x);
        if x.is_nan() {
            assert!(f16_bits_to_f32(back).is_nan(), "{bits:#x}");
            assert_eq!(back & 0x8000, bits & 0x8000);
        } else {
            assert_eq!(back, bits, "f16 {bits:#06x} → {x} → {back:#06x}");
        }
    }
}

#[test]
fn f16_rounding_is_to_nearest_even_everywhere() {
    // Every midpoint between consecutive finite positive f16 values rounds
    // to the even one; just above or below rounds to the nearer one.
    for bits in 0u16..0x7bff {
        let (a, b) = (
            f16_bits_to_f32(bits) as f64,
            f16_bits_to_f32(bits + 1) as f64,
        );
        let mid = ((a + b) / 2.0) as f32; // exact in f32
        let even = if bits & 1 == 0 { bits } else { bits + 1 };
        assert_eq!(f32_to_f16_bits(mid), even, "midpoint above {bits:#06x}");
        assert_eq!(f32_to_f16_bits(-mid), even | 0x8000);
        let up = f32::from_bits(mid.to_bits() + 1);
        let down = f32::from_bits(mid.to_bits() - 1);
        assert_eq!(
            f32_to_f16_bits(up),
            bits + 1,
            "just above the midpoint of {bits:#06x}"
        );
        assert_eq!(
            f32_to_f16_bits(down),
            bits,
            "just below the midpoint of {bits:#06x}"
        );
    }
    assert_eq!(f32_to_f16_bits(65504.0), 0x7bff);
    assert_eq!(f32_to_f16_bits(65519.99), 0x7bff);
    assert_eq!(f32_to_f16_bits(65520.0), 0x7c00);
    assert_eq!(f32_to_f16_bits(f32::INFINITY), 0x7c00);
    assert_eq!(f32_to_f16_bits(f32::NEG_INFINITY), 0xfc00);
    assert_eq!(f32_to_f16_bits(2.0f32.powi(-24)), 0x0001);
    assert_eq!(
        f32_to_f16_bits(2.0f32.powi(-25)),
        0x0000,
        "tie to even (zero)"
    );
    assert_eq!(f32_to_f16_bits(1.5 * 2.0f32.powi(-25)), 0x0001);
    assert_eq!(
        f32_to_f16_bits(3.0 * 2.0f32.powi(-25)),
        0x0002,
        "tie to even (2)"
    );
    assert_eq!(f32_to_f16_bits(-0.0), 0x8000);
    assert_eq!(f32_to_f16_bits(f32::MIN_POSITIVE), 0);
    assert_eq!(f32_to_f16_bits(f32::from_bits(0x7fc0_0000)), 0x7e00);
    assert_eq!(
        f32_to_f16_bits(f32::from_bits(0x7f80_0001)) & 0x7c00,
        0x7c00,
        "sNaN stays NaN"
    );
    assert_ne!(f32_to_f16_bits(f32::from_bits(0x7f80_0001)) & 0x3ff, 0);
}

#[test]
fn bf16_conversion() {
    for bits in 0..=u16::MAX {
        let x = bf16_bits_to_f32(bits);
        if !x.is_nan() {
            assert_eq!(f32_to_bf16_bits(x), bits);
        }
    }
    assert_eq!(
        f32_to_bf16_bits(f32::from_bits(0x3f80_8000)),
        0x3f80,
        "tie to even"
    );
    assert_eq!(
        f32_to_bf16_bits(f32::from_bits(0x3f81_8000)),
        0x3f82,
        "tie to even"
    );
    assert_eq!(f32_to_bf16_bits(f32::from_bits(0x3f80_8001)), 0x3f81);
    assert_eq!(f32_to_bf16_bits(f32::MAX), 0x7f80, "overflow to inf");
    assert_eq!(
        f32_to_bf16_bits(f32::from_bits(1)),
        0,
        "f32 subnormal tie-free below half → 0"
    );
}
