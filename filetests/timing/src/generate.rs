//! Generated PTX kernels: short dependent chains of the operations atomc selects whose class
//! pairs atomc's own PTX corpus does not show ptxas reading (a computed predicate in a vote, a
//! 64-bit value built from ALU halves in a conversion or an FP64 op, half-precision results in
//! memory, uniform votes read by the ALU, ...). Each body reads the kernel's parameters and
//! thread id, so ptxas cannot fold it, and stores what it computes.

use super::listing::Family;

/// One kernel: `(name, sm_90 only, body)`. The body may use `%rd1` (the output pointer), `%r1`, `%r2`
/// (parameters), `%r3` (the thread id) and the declared registers.
const BODIES: &[(&str, bool, &str)] = &[
    (
        "vote_computed_pred",
        false,
        "add.s32 %r4, %r3, %r1; setp.ne.s32 %p1, %r4, %r2; vote.sync.ballot.b32 %r5, %p1, -1;
         vote.sync.any.pred %p2, %p1, -1; selp.u32 %r6, 1, 0, %p2; add.s32 %r7, %r5, %r6;
         st.global.u32 [%rd1], %r7;",
    ),
    (
        "f64_from_alu_halves",
        false,
        "add.s32 %r4, %r3, %r1; xor.b32 %r5, %r4, %r2; mov.b64 %fd1, {%r4, %r5};
         cvt.rzi.s64.f64 %rd2, %fd1; st.global.u64 [%rd1], %rd2;
         or.b32 %r6, %r4, %r2; mov.b64 %fd2, {%r5, %r6}; cvt.rn.f32.f64 %f1, %fd2; st.global.f32 [%rd1+8], %f1;
         and.b32 %r7, %r4, %r1; mov.b64 %fd3, {%r6, %r7}; cvt.rzi.s32.f64 %r8, %fd3; st.global.u32 [%rd1+12], %r8;
         shl.b32 %r9, %r4, 3; mov.b64 %rd3, {%r7, %r9}; cvt.rn.f64.s64 %fd4, %rd3; st.global.f64 [%rd1+16], %fd4;
         sub.s32 %r10, %r9, %r2; mov.b64 %fd5, {%r9, %r10}; add.f64 %fd6, %fd5, %fd1; st.global.f64 [%rd1+24], %fd6;
         setp.gt.f64 %p1, %fd5, %fd2; selp.u32 %r11, 1, 2, %p1; st.global.u32 [%rd1+32], %r11;",
    ),
    (
        "fp64_into_conversions",
        false,
        "cvt.rn.f64.s32 %fd1, %r1; cvt.rn.f64.s32 %fd2, %r3; fma.rn.f64 %fd3, %fd1, %fd2, %fd1;
         cvt.rn.f32.f64 %f1, %fd3; st.global.f32 [%rd1], %f1; mul.f64 %fd4, %fd3, %fd2;
         cvt.rzi.s32.f64 %r4, %fd4; st.global.u32 [%rd1+4], %r4; add.f64 %fd5, %fd4, %fd1;
         mov.b64 {%r5, %r6}, %fd5; and.b32 %r7, %r6, %r1; st.global.u32 [%rd1+8], %r7;
         st.global.f64 [%rd1+16], %fd5;",
    ),
    (
        "half_results",
        true,
        "cvt.rn.f32.s32 %f1, %r1; cvt.rn.f32.s32 %f2, %r3; cvt.rn.f16.f32 %h1, %f1; cvt.rn.f16.f32 %h2, %f2;
         add.f16 %h3, %h1, %h2; st.global.b16 [%rd1], %h3; mul.f16 %h4, %h3, %h1; st.global.b16 [%rd1+2], %h4;
         max.f16 %h5, %h4, %h2; st.global.b16 [%rd1+4], %h5; mov.b32 %r4, {%h5, %h3}; and.b32 %r5, %r4, %r2;
         st.global.u32 [%rd1+8], %r5; cvt.f32.f16 %f3, %h5; st.global.f32 [%rd1+12], %f3;
         cvt.rn.f16x2.f32 %r6, %f1, %f2; xor.b32 %r7, %r6, %r1; st.global.u32 [%rd1+16], %r7;
         max.f16x2 %r8, %r6, %r7; min.f16x2 %r9, %r8, %r6; st.global.u32 [%rd1+20], %r9;",
    ),
    (
        "uniform_vote_alu",
        false,
        "vote.sync.ballot.b32 %r4, 1, -1; and.b32 %r5, %r4, %r1; st.global.u32 [%rd1], %r5;
         setp.lt.u32 %p1, %r1, %r2; vote.sync.ballot.b32 %r6, %p1, -1; or.b32 %r7, %r6, %r3;
         st.global.u32 [%rd1+4], %r7; popc.b32 %r8, %r6; add.s32 %r9, %r8, %r3; st.global.u32 [%rd1+8], %r9;",
    ),
    (
        "bits_and_masks",
        false,
        "add.s32 %r4, %r3, %r1; brev.b32 %r5, %r4; st.global.u32 [%rd1], %r5; or.b32 %r6, %r4, 1;
         bar.warp.sync -1; clz.b32 %r7, %r6; add.s32 %r8, %r7, %r2; st.global.u32 [%rd1+4], %r8;
         bfind.u32 %r9, %r8; st.global.u32 [%rd1+8], %r9;",
    ),
    (
        "wide_into_shuffle",
        false,
        "mul.wide.u32 %rd2, %r3, %r2; cvt.u32.u64 %r4, %rd2; shfl.sync.idx.b32 %r5, %r4, 0, 31, -1;
         shr.u64 %rd3, %rd2, 32; cvt.u32.u64 %r6, %rd3; shfl.sync.bfly.b32 %r7, %r6, 1, 31, -1;
         add.s32 %r8, %r5, %r7; st.global.u32 [%rd1], %r8;",
    ),
    (
        "minmax_into_memory",
        false,
        "add.s32 %r4, %r3, %r1; max.u32 %r5, %r4, %r2; st.global.u32 [%rd1], %r5; min.s32 %r6, %r5, %r1;
         atom.global.cas.b32 %r7, [%rd1+4], %r6, %r5; cvt.rn.f32.u32 %f1, %r7; cvt.rn.f32.u32 %f2, %r4;
         max.f32 %f3, %f1, %f2; st.global.f32 [%rd1+8], %f3; min.f32 %f4, %f3, %f1;
         atom.global.exch.b32 %r8, [%rd1+12], %r6; mov.b32 %r9, %f4; add.s32 %r10, %r9, %r8; st.global.u32 [%rd1+16], %r10;",
    ),
    // Dependent chains from here on (sm_90, whose thin class pairs they fill): each
    // instruction reads the one before, so ptxas has little to issue in between and reads each
    // result about as soon as it allows.
    (
        "chain_f64_low_half_from_alu",
        true,
        "add.s32 %r4, %r3, %r1; xor.b32 %r5, %r4, %r2; st.global.u32 [%rd1+40], %r5; st.global.u32 [%rd1+44], %r4;
         xor.b32 %r6, %r5, %r1; mov.b64 %fd1, {%r6, %r5}; add.f64 %fd2, %fd1, %fd1; mov.b64 {%r10, %r11}, %fd2;
         add.s32 %r12, %r10, %r11; xor.b32 %r7, %r12, %r2; mov.b64 %fd3, {%r7, %r4}; mul.f64 %fd4, %fd3, %fd3;
         mov.b64 {%r13, %r14}, %fd4; add.s32 %r15, %r13, %r14; or.b32 %r16, %r15, %r1; mov.b64 %fd5, {%r16, %r5};
         setp.gt.f64 %p1, %fd5, %fd4; selp.u32 %r17, %r15, %r16, %p1; shl.b32 %r18, %r17, 2; mov.b64 %fd6, {%r18, %r4};
         fma.rn.f64 %fd7, %fd6, %fd6, %fd5; st.global.f64 [%rd1], %fd7;",
    ),
    (
        "chain_fp64_results",
        true,
        "cvt.rn.f64.s32 %fd1, %r1; cvt.rn.f64.s32 %fd2, %r3; st.global.f64 [%rd1+40], %fd1; st.global.f64 [%rd1+48], %fd2;
         fma.rn.f64 %fd3, %fd1, %fd2, %fd1; st.global.f64 [%rd1], %fd3; mul.f64 %fd4, %fd3, %fd2;
         mov.b64 {%r4, %r5}, %fd4; mad.lo.s32 %r6, %r4, %r2, %r5; mul.wide.u32 %rd2, %r6, %r2; mov.b64 %fd5, %rd2;
         add.f64 %fd6, %fd5, %fd1; st.global.f64 [%rd1+8], %fd6; mul.f64 %fd7, %fd6, %fd6; st.global.f64 [%rd1+16], %fd7;",
    ),
    (
        "chain_uniform_vote_in_branch",
        true,
        "add.s32 %r4, %r3, %r1; xor.b32 %r5, %r4, %r2; st.global.u32 [%rd1+40], %r5; st.global.u32 [%rd1+44], %r4;
         activemask.b32 %r6; and.b32 %r7, %r5, %r6; st.global.u32 [%rd1], %r7;
         setp.lt.u32 %p1, %r5, 9; @%p1 bra SKIP; activemask.b32 %r8; shr.u32 %r9, %r4, %r8; st.global.u32 [%rd1+4], %r9;
         setp.lt.u32 %p2, %r4, 5; @%p2 bra SKIP; activemask.b32 %r10; setp.eq.u32 %p3, %r5, %r10;
         selp.u32 %r11, 3, %r4, %p3; st.global.u32 [%rd1+8], %r11;
         SKIP: activemask.b32 %r12; mov.b32 %r13, %r12; st.global.u32 [%rd1+12], %r13;",
    ),
    (
        "chain_bits_and_minmax",
        true,
        "add.s32 %r4, %r3, %r1; bmsk.wrap.b32 %r5, %r4, %r2; and.b32 %r6, %r5, %r4; szext.wrap.s32 %r7, %r6, %r2;
         xor.b32 %r8, %r7, %r4; min.u32 %r9, %r8, 31; shfl.sync.up.b32 %r10, %r4, %r9, 0, -1; max.u32 %r11, %r10, %r2;
         atom.global.add.u32 %r12, [%rd1], %r11; min.s32 %r13, %r12, %r1; redux.sync.add.u32 %r14, %r13, -1;
         xor.b32 %r15, %r14, %r4; brev.b32 %r16, %r15; or.b32 %r17, %r16, %r1; bar.warp.sync %r17;
         max.s32 %r18, %r17, %r2; st.global.u32 [%rd1+4], %r18; min.u32 %r19, %r18, %r4; st.global.u32 [%rd1+8], %r19;
         abs.s32 %r20, %r19; mad.lo.s32 %r21, %r20, %r2, %r1; st.global.u32 [%rd1+12], %r21;",
    ),
    (
        "chain_half",
        true,
        "cvt.rn.f32.s32 %f1, %r1; cvt.rn.f32.s32 %f2, %r3; cvt.rn.f16.f32 %h1, %f1; cvt.rn.f16.f32 %h2, %f2;
         st.global.b16 [%rd1+30], %h1; st.global.b16 [%rd1+32], %h2;
         add.f16 %h3, %h1, %h2; st.global.b16 [%rd1], %h3; mul.f16 %h4, %h3, %h2; max.f16 %h5, %h4, %h1;
         max.f16 %h6, %h5, %h2; st.global.b16 [%rd1+2], %h6; mul.f16 %h7, %h6, %h1; st.global.b16 [%rd1+4], %h7;
         cvt.f64.f16 %fd1, %h7; st.global.f64 [%rd1+8], %fd1; add.f16 %h8, %h7, %h2; cvt.f64.f16 %fd2, %h8;
         st.global.f64 [%rd1+16], %fd2; max.f16 %h9, %h8, %h1; mov.b16 %rs1, %h9; cvt.u32.u16 %r4, %rs1;
         and.b32 %r5, %r4, %r2; st.global.u32 [%rd1+24], %r5; min.f16 %h10, %h9, %h2; st.global.b16 [%rd1+28], %h10;",
    ),
    (
        "chain_selects_into_units",
        true,
        ".shared .align 8 .b64 sh[8];
         setp.lt.u32 %p1, %r3, %r2; cvt.rn.f64.s32 %fd1, %r1; cvt.rn.f64.s32 %fd2, %r3;
         st.global.f64 [%rd1+40], %fd1; st.global.f64 [%rd1+48], %fd2;
         selp.f64 %fd3, %fd1, %fd2, %p1; st.global.f64 [%rd1], %fd3; selp.f64 %fd4, %fd2, %fd3, %p1;
         st.shared.f64 [sh], %fd4; selp.f64 %fd5, %fd4, %fd1, %p1; add.f64 %fd6, %fd5, %fd1; st.global.f64 [%rd1+8], %fd6;
         cvt.rn.f32.s32 %f1, %r1; max.f32 %f2, %f1, 0f3F800000; st.shared.f32 [sh+8], %f2; min.f32 %f3, %f2, %f1;
         mov.b32 %r4, %f3; atom.shared.cas.b32 %r5, [sh+12], %r4, %r3; st.global.u32 [%rd1+16], %r5;",
    ),
];

/// Producers of the pair kernels: `(name, type, PTX)` computing `{d}` from `{a}` and `{b}`,
/// both of `type`.
const PRODUCERS: &[(&str, &str, &str)] = &[
    ("add_f16", "f16", "add.f16 {d}, {a}, {b};"),
    ("mul_f16", "f16", "mul.f16 {d}, {a}, {b};"),
    ("max_f16", "f16", "max.f16 {d}, {a}, {b};"),
    ("min_f16", "f16", "min.f16 {d}, {a}, {b};"),
    ("fma_f16", "f16", "fma.rn.f16 {d}, {a}, {b}, {a};"),
    ("xor", "u32", "xor.b32 {d}, {a}, {b};"),
    ("min_u32", "u32", "min.u32 {d}, {a}, {b};"),
    ("max_s32", "u32", "max.s32 {d}, {a}, {b};"),
    ("abs", "u32", "abs.s32 {d}, {a};"),
    ("bmsk", "u32", "bmsk.wrap.b32 {d}, {a}, {b};"),
    ("szext", "u32", "szext.wrap.s32 {d}, {a}, {b};"),
    ("mad", "u32", "mad.lo.s32 {d}, {a}, {b}, {a};"),
    ("max_f32", "f32", "max.f32 {d}, {a}, {b};"),
    ("fma_f32", "f32", "fma.rn.f32 {d}, {a}, {b}, {a};"),
    ("selp_f64", "f64", "selp.f64 {d}, {a}, {b}, %p1;"),
    ("fma_f64", "f64", "fma.rn.f64 {d}, {a}, {b}, {a};"),
    ("mul_f64", "f64", "mul.f64 {d}, {a}, {b};"),
    ("add_f64", "f64", "add.f64 {d}, {a}, {b};"),
    ("mul_wide", "u64", "mul.wide.u32 {d}, %r4, %r5;"),
];

/// Consumers of the pair kernels: `(name, type, PTX)` reading `{v}` of `type`; what they
/// compute (`{o}`, of the type their name ends in) is stored.
const CONSUMERS: &[(&str, &str, &str)] = &[
    ("st_global", "any", "st.global.{t} [%rd1], {v};"),
    ("st_shared", "any", "st.shared.{t} [sh], {v};"),
    ("max_f16", "f16", "max.f16 %h9, {v}, %h2; st.global.b16 [%rd1], %h9;"),
    ("min_f16", "f16", "min.f16 %h9, {v}, %h2; st.global.b16 [%rd1], %h9;"),
    ("max_nan_f16", "f16", "max.NaN.f16 %h9, {v}, %h2; st.global.b16 [%rd1], %h9;"),
    ("cvt_f64_f16", "f16", "cvt.f64.f16 %fd9, {v}; st.global.f64 [%rd1], %fd9;"),
    ("cvt_f32_f16", "f16", "cvt.f32.f16 %f9, {v}; st.global.f32 [%rd1], %f9;"),
    ("and_f16", "f16", "mov.b16 %rs1, {v}; cvt.u32.u16 %r9, %rs1; and.b32 %r10, %r9, %r5; st.global.u32 [%rd1], %r10;"),
    ("atom_add", "u32", "atom.global.add.u32 %r9, [%rd1], {v}; st.global.u32 [%rd1+8], %r9;"),
    ("atom_cas", "u32", "atom.global.cas.b32 %r9, [%rd1], %r5, {v}; st.global.u32 [%rd1+8], %r9;"),
    ("shfl", "u32", "shfl.sync.idx.b32 %r9, %r5, {v}, 31, -1; st.global.u32 [%rd1], %r9;"),
    ("redux", "u32", "redux.sync.add.u32 %r9, {v}, -1; st.global.u32 [%rd1], %r9;"),
    ("brev", "u32", "brev.b32 %r9, {v}; st.global.u32 [%rd1], %r9;"),
    ("popc", "u32", "popc.b32 %r9, {v}; st.global.u32 [%rd1], %r9;"),
    ("clz", "u32", "clz.b32 %r9, {v}; st.global.u32 [%rd1], %r9;"),
    ("and", "u32", "and.b32 %r9, {v}, %r5; st.global.u32 [%rd1], %r9;"),
    ("mad", "u32", "mad.lo.s32 %r9, {v}, %r5, %r4; st.global.u32 [%rd1], %r9;"),
    ("cvt_f64_u32", "u32", "cvt.rn.f64.u32 %fd9, {v}; st.global.f64 [%rd1], %fd9;"),
    ("cvt_f32_u32", "u32", "cvt.rn.f32.u32 %f9, {v}; st.global.f32 [%rd1], %f9;"),
    ("f2f_u32", "u32", "mov.b32 %f9, {v}; cvt.f64.f32 %fd9, %f9; st.global.f64 [%rd1], %fd9;"),
    ("f2i_u32", "u32", "mov.b32 %f9, {v}; cvt.rzi.u64.f32 %rd9, %f9; st.global.u64 [%rd1], %rd9;"),
    ("warpsync", "u32", "or.b32 %r9, {v}, %r5; bar.warp.sync %r9; st.global.u32 [%rd1], %r9;"),
    ("cvt_f64_f32", "f32", "cvt.f64.f32 %fd9, {v}; st.global.f64 [%rd1], %fd9;"),
    ("cvt_s32_f32", "f32", "cvt.rzi.s32.f32 %r9, {v}; st.global.u32 [%rd1], %r9;"),
    ("cvt_u64_f32", "f32", "cvt.rzi.u64.f32 %rd9, {v}; st.global.u64 [%rd1], %rd9;"),
    ("add_f32", "f32", "add.f32 %f9, {v}, %f2; st.global.f32 [%rd1], %f9;"),
    ("add_f64", "f64", "add.f64 %fd9, {v}, %fd2; st.global.f64 [%rd1], %fd9;"),
    ("cvt_f32_f64", "f64", "cvt.rn.f32.f64 %f9, {v}; st.global.f32 [%rd1], %f9;"),
    ("cvt_s64_f64", "f64", "cvt.rzi.s64.f64 %rd9, {v}; st.global.u64 [%rd1], %rd9;"),
    ("halves_f64", "f64", "mov.b64 {%r9, %r10}, {v}; xor.b32 %r11, %r9, %r10; st.global.u32 [%rd1], %r11;"),
    ("f64_u64", "u64", "mov.b64 %fd9, {v}; add.f64 %fd10, %fd9, %fd2; st.global.f64 [%rd1], %fd10;"),
    ("cvt_f64_u64", "u64", "cvt.rn.f64.u64 %fd9, {v}; st.global.f64 [%rd1], %fd9;"),
    ("cas_u64", "u64", "atom.global.cas.b64 %rd9, [%rd1], %rd3, {v}; st.global.u64 [%rd1+8], %rd9;"),
];

/// One PTX body per producer and consumer of one type: inputs computed first (from a load
/// through the output pointer, so that the consumer's address is ready before the producer),
/// then the producer, then the consumer of its result alone, so ptxas issues the consumer as
/// soon as it allows after the producer: a dense sample of every class pair among atomc's
/// instruction kinds, where atomc's own PTX rarely reads a result that soon.
fn pair_bodies() -> Vec<(String, String)> {
    // Per type: PTX name for stores, the two inputs, the producer's result register.
    let types = [
        ("f16", "b16", "%h1", "%h2", "%h3"),
        ("u32", "u32", "%r4", "%r5", "%r6"),
        ("f32", "f32", "%f1", "%f2", "%f3"),
        ("f64", "f64", "%fd1", "%fd2", "%fd3"),
        ("u64", "u64", "%rd2", "%rd3", "%rd4"),
    ];
    let setup = ".shared .align 8 .b64 sh[4];
         ld.global.u32 %r7, [%rd1+64]; add.s32 %r4, %r3, %r7; xor.b32 %r5, %r3, %r2; setp.lt.u32 %p1, %r4, %r5;
         cvt.rn.f32.s32 %f1, %r4; cvt.rn.f32.s32 %f2, %r5; cvt.rn.f64.s32 %fd1, %r4; cvt.rn.f64.s32 %fd2, %r5;
         cvt.rn.f16.f32 %h1, %f1; cvt.rn.f16.f32 %h2, %f2; cvt.u64.u32 %rd2, %r4; cvt.u64.u32 %rd3, %r5;";
    let mut out = Vec::new();
    for (pname, ptype, pbody) in PRODUCERS {
        let &(_, st, a, b, d) = types.iter().find(|t| t.0 == *ptype).expect("a known type");
        for (cname, ctype, cbody) in CONSUMERS.iter().filter(|c| c.1 == *ptype || c.1 == "any") {
            let _ = ctype;
            let produce = pbody.replace("{a}", a).replace("{b}", b).replace("{d}", d);
            let consume = cbody.replace("{v}", d).replace("{t}", st);
            out.push((format!("pair_{pname}_{cname}"), format!("{setup}\n\t{produce}\n\t{consume}")));
        }
    }
    out
}

/// `(name, PTX module)` for each generated kernel.
pub fn kernels(family: Family) -> Vec<(String, String)> {
    let target = match family {
        Family::Sm50 => "sm_50",
        Family::Sm90 => "sm_90",
    };
    let pairs = if family == Family::Sm90 { pair_bodies() } else { Vec::new() };
    BODIES
        .iter()
        .filter(|(_, sm90_only, _)| family == Family::Sm90 || !sm90_only)
        .map(|(name, _, body)| (name.to_string(), body.to_string()))
        .chain(pairs)
        .map(|(name, body)| {
            let ptx = format!(
                ".version 7.8\n.target {target}\n.address_size 64\n\n.visible .entry {name}(.param .u64 out, .param .u32 a, .param .u32 b)\n{{\n\
                 \t.reg .b32 %r<32>;\n\t.reg .b64 %rd<12>;\n\t.reg .pred %p<8>;\n\t.reg .f64 %fd<12>;\n\t.reg .f32 %f<12>;\n\t.reg .b16 %h<16>;\n\t.reg .b16 %rs<4>;\n\
                 \tld.param.u64 %rd1, [out];\n\tcvta.to.global.u64 %rd1, %rd1;\n\tld.param.u32 %r1, [a];\n\tld.param.u32 %r2, [b];\n\tmov.u32 %r3, %tid.x;\n\
                 \t{body}\n\tret;\n}}\n"
            );
            (format!("generated:{name}"), ptx)
        })
        .collect()
}
