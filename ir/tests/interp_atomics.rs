//! Every read-modify-write op on each legal type, the wrap points of
//! inc_wrap/dec_wrap, float min/max NaN and signed-zero rules, packed
//! lanes, and bitwise CAS — through run lines on parsed kernels.

mod interp_common;
use interp_common::{func, pass};

/// `out = atomic_rmw.T op mem, x` on one element.
fn rmw_kernel(op: &str, ty: &str) -> atomc_ir::Function {
    func(&format!(
        "function %rmw(ptr.global, ptr.global, {ty}) {{
block0(v0: ptr.global, v1: ptr.global, v2: {ty}):
    v3 = atomic_rmw.{ty} {op} relaxed gpu v0, v2
    store v3, v1
    return
}}
"
    ))
}

/// Checks `op(old, x) == new` and that the old value is returned.
fn case(op: &str, ty: &str, old: &str, x: &str, new: &str) {
    let f = rmw_kernel(op, ty);
    pass(
        &f,
        &format!("args(m, o, {x}) m: {ty}[1] = [{old}] o: {ty}[1] => m == [{new}], o == [{old}]"),
    );
}

#[test]
fn integer_ops_on_every_width() {
    for ty in ["i8", "i16", "i32", "i64"] {
        // old = -1 (all ones), x = 1: signed and unsigned views differ.
        case("add", ty, "-1", "1", "0");
        case("sub", ty, "-1", "1", "-2");
        case("and", ty, "-1", "1", "1");
        case("or", ty, "-1", "1", "-1");
        case("xor", ty, "-1", "1", "-2");
        case("xchg", ty, "-1", "1", "1");
        case("smin", ty, "-1", "1", "-1");
        case("smax", ty, "-1", "1", "1");
        case("umin", ty, "-1", "1", "1");
        case("umax", ty, "-1", "1", "-1");
    }
    // Wrapping at the top of the signed range.
    case("add", "i8", "127", "1", "-128");
    case("add", "i16", "32767", "1", "-32768");
    case("add", "i32", "0x7fffffff", "1", "0x80000000");
    case(
        "sub",
        "i64",
        "-9223372036854775808",
        "1",
        "9223372036854775807",
    );
}

#[test]
fn inc_wrap_at_its_wrap_points() {
    case("inc_wrap", "i32", "4", "5", "5");
    case("inc_wrap", "i32", "5", "5", "0");
    case("inc_wrap", "i32", "6", "5", "0");
    case("inc_wrap", "i32", "0", "0", "0");
    case("inc_wrap", "i32", "0xfffffffe", "0xffffffff", "0xffffffff");
    case("inc_wrap", "i32", "0xffffffff", "0xffffffff", "0");
    // x is read unsigned: -1 is the largest bound, so 7 just increments.
    case("inc_wrap", "i32", "7", "-1", "8");
}

#[test]
fn dec_wrap_at_its_wrap_points() {
    case("dec_wrap", "i32", "0", "5", "5");
    case("dec_wrap", "i32", "6", "5", "5");
    case("dec_wrap", "i32", "5", "5", "4");
    case("dec_wrap", "i32", "1", "5", "0");
    case("dec_wrap", "i32", "0", "0", "0");
    case("dec_wrap", "i32", "0xffffffff", "0xfffffffe", "0xfffffffe");
    case("dec_wrap", "i32", "0xffffffff", "0xffffffff", "0xfffffffe");
}

#[test]
fn inc_wrap_cycles_under_contention() {
    // 10 threads each inc_wrap a counter bounded by 3: 0,1,2,3,0,1,2,3,0,1 → ends at 2.
    let f = rmw_kernel("inc_wrap", "i32");
    pass(
        &f,
        "block 10 args(m, o, 3) m: i32[1] = 0 o: i32[1] => m == [2]",
    );
    let f = rmw_kernel("dec_wrap", "i32");
    pass(
        &f,
        "block 10 args(m, o, 3) m: i32[1] = 0 o: i32[1] => m == [2]",
    );
}

#[test]
fn float_add_and_xchg_on_every_float_type() {
    for ty in ["f16", "f32", "f64"] {
        case("fadd", ty, "1.5", "2.25", "3.75");
        case("fadd", ty, "-0.0", "-0.0", "-0.0");
        case("fadd", ty, "inf", "-inf", "nan");
        case("xchg", ty, "1.5", "-2.0", "-2.0");
    }
    case("fadd", "f16x2", "[1.5 -2.0]", "[0.25 0.5]", "[1.75 -1.5]");
    case("fadd", "bf16x2", "[1.5 -2.0]", "[0.25 0.5]", "[1.75 -1.5]");
    case("xchg", "f16x2", "[1.5 -2.0]", "[0.25 0.5]", "[0.25 0.5]");
    case("xchg", "bf16x2", "0x12345678", "0x9abcdef0", "0x9abcdef0");
}

#[test]
fn float_add_rounds_to_nearest_even() {
    // f16: 1 + 2^-11 is halfway between 1 and 1 + 2^-10 → 1 (even).
    case("fadd", "f16", "0x3c00", "0x1000", "0x3c00");
    // 1 + 3·2^-11 is halfway between 1 + 2^-10 (odd) and 1 + 2^-9 → 1 + 2^-9.
    case("fadd", "f16", "0x3c00", "0x1600", "0x3c02");
    // Overflow to infinity: 65504 + 16 rounds to inf (65520 is the tie, rounds to even = inf).
    case("fadd", "f16", "65504.0", "16.0", "inf");
    case("fadd", "f16", "65504.0", "15.0", "65504.0");
    // Subnormal results: 2^-24 + 2^-24 = 2^-23.
    case("fadd", "f16", "0x0001", "0x0001", "0x0002");
    // bf16: 1 + 2^-8 is halfway between 1 and 1 + 2^-7 → 1; with 3·2^-8 → 1 + 2^-6.
    case(
        "fadd",
        "bf16x2",
        "[1.0 1.0]",
        "[0.00390625 0.01171875]",
        "[1.0 1.015625]",
    );
    // f32: 1 + 2^-24 → 1; 16777216 + 1 → 16777216.
    case("fadd", "f32", "1.0", "0x33800000", "1.0");
    case("fadd", "f32", "16777216.0", "1.0", "16777216.0");
}

#[test]
fn float_min_max_nan_and_signed_zero_rules() {
    for ty in ["f16", "f32", "f64"] {
        case("fmin", ty, "nan", "1.0", "1.0");
        case("fmin", ty, "1.0", "nan", "1.0");
        case("fmax", ty, "nan", "-1.0", "-1.0");
        case("fmax", ty, "-1.0", "nan", "-1.0");
        case("fmin", ty, "nan", "nan", "nan");
        case("fmin", ty, "-0.0", "0.0", "-0.0");
        case("fmin", ty, "0.0", "-0.0", "-0.0");
        case("fmax", ty, "-0.0", "0.0", "0.0");
        case("fmax", ty, "0.0", "-0.0", "0.0");
        case("fmin", ty, "-inf", "3.0", "-inf");
        case("fmax", ty, "-inf", "3.0", "3.0");
        case("fmin", ty, "2.0", "-3.5", "-3.5");
    }
    // Two NaNs give the canonical quiet NaN, whatever their payloads.
    case("fmin", "f32", "0x7fc00001", "0xffc00002", "0x7fc00000");
    case(
        "fmax",
        "f64",
        "0x7ff0000000000001",
        "nan",
        "0x7ff8000000000000",
    );
    case("fmin", "f16", "0x7c01", "0xfe00", "0x7e00");
    // A signaling NaN on one side still loses.
    case("fmin", "f32", "0x7f800001", "5.0", "5.0");
}

#[test]
fn packed_min_max_work_lane_by_lane() {
    case("fmin", "f16x2", "[1.0 nan]", "[2.0 -3.0]", "[1.0 -3.0]");
    case("fmax", "f16x2", "[1.0 -0.0]", "[2.0 0.0]", "[2.0 0.0]");
    case("fmin", "f16x2", "[nan nan]", "[nan -0.0]", "[nan -0.0]");
    case("fmin", "bf16x2", "[-1.0 nan]", "[2.0 nan]", "[-1.0 nan]");
    case("fmax", "bf16x2", "[0.0 -0.0]", "[-0.0 0.0]", "[0.0 0.0]");
    // Bit-level: lane 0 is bits 0..16. f16 1.0 = 0x3c00, 2.0 = 0x4000.
    case("fmax", "f16x2", "0x3c004000", "0x40003c00", "0x40004000");
}

#[test]
fn contended_packed_fadd_sums_each_lane() {
    let f = rmw_kernel("fadd", "f16x2");
    pass(&f, "block 64 args(m, o, [1.0 -0.5]) m: f16x2[1] = [[0.0 0.0]] o: f16x2[1] => m == [[64.0 -32.0]]");
    let f = rmw_kernel("fadd", "f32");
    pass(
        &f,
        "grid 2 block 100 args(m, o, 0.5) m: f32[1] o: f32[1] => m == [100.0]",
    );
}

/// `out = atomic_cas.T mem, expected, replacement`.
fn cas_kernel(ty: &str) -> atomc_ir::Function {
    func(&format!(
        "function %cas(ptr.global, ptr.global, {ty}, {ty}) {{
block0(v0: ptr.global, v1: ptr.global, v2: {ty}, v3: {ty}):
    v4 = atomic_cas.{ty} acq_rel gpu v0, v2, v3
    store v4, v1
    return
}}
"
    ))
}

#[test]
fn cas_compares_bitwise() {
    let f = cas_kernel("f32");
    // -0.0 == 0.0 as floats, but not bitwise: no swap.
    pass(
        &f,
        "args(m, o, -0.0, 1.0) m: f32[1] = [0.0] o: f32[1] => m == [0.0], o == [0.0]",
    );
    // NaN != NaN as floats, but equal bitwise: swap.
    pass(
        &f,
        "args(m, o, nan, 1.0) m: f32[1] = [nan] o: f32[1] => m == [1.0], o == [nan]",
    );
    pass(
        &f,
        "args(m, o, 0x7fc00001, 1.0) m: f32[1] = [nan] o: f32[1] => m == [nan]",
    );
    for ty in ["i8", "i16", "i32", "i64"] {
        let f = cas_kernel(ty);
        pass(
            &f,
            &format!("args(m, o, -1, 7) m: {ty}[1] = [-1] o: {ty}[1] => m == [7], o == [-1]"),
        );
        pass(
            &f,
            &format!("args(m, o, 1, 7) m: {ty}[1] = [-1] o: {ty}[1] => m == [-1], o == [-1]"),
        );
    }
    let f = cas_kernel("f16x2");
    pass(&f, "args(m, o, [1.0 2.0], [3.0 4.0]) m: f16x2[1] = [[1.0 2.0]] o: f16x2[1] => m == [[3.0 4.0]]");
}

#[test]
fn atomic_load_store_and_fences() {
    let f = func(
        "function %ls(ptr.global, ptr.shared) {
block0(v0: ptr.global, v1: ptr.shared):
    v2 = atomic_load.i64 acquire gpu v0
    fence seq_cst sys
    v3 = iconst.i64 1
    v4 = iadd v2, v3
    atomic_store.i64 release gpu v0+8, v4
    v5 = atomic_rmw.i64 add relaxed cta v1, v3
    v6 = atomic_load.i64 relaxed cta v1
    atomic_store.i64 seq_cst gpu v0+16, v6
    return
}
",
    );
    pass(
        &f,
        "block 1 shared 8 args(b, 0) b: i64[3] = [41, 0, 0] => b == [41, 42, 1]",
    );
}
