//! Round trips through the text format: canonical text must print back
//! byte for byte, and printing must be a fixed point after one parse.

use atomc_ir::parse::{parse, parse_file};
use atomc_ir::print::print_function;

/// Parses `src` (one or more functions) and prints every function.
fn reprint(src: &str) -> String {
    match parse(src) {
        Ok(funcs) => funcs.iter().map(print_function).collect::<Vec<_>>().join("\n"),
        Err(diags) => panic!("parse failed:\n{}", atomc_ir::diagnostic::render("test.atom", src, &diags)),
    }
}

/// Canonical text must come back unchanged.
fn assert_canonical(src: &str) {
    let out = reprint(src);
    assert_eq!(out, src, "canonical text changed on round trip");
}

/// Non-canonical text must reach a fixed point after one print.
fn assert_fixed_point(src: &str) -> String {
    let once = reprint(src);
    let twice = reprint(&once);
    assert_eq!(once, twice, "printing is not a fixed point");
    once
}

const HIST: &str = "\
function %hist(ptr.global, i32) {
block0(v0: ptr.global, v1: i32):
    v2 = thread_id.x
    v3 = uextend.i64 v2
    v4 = iconst.i64 4
    v5 = imul v3, v4
    v6 = ptr_add v0, v5
    v7 = atomic_rmw.i32 add relaxed gpu v6+8, v1
    v8 = atomic_cas.i64 acq_rel cta v0, v3, v4
    v9 = icmp ult v1, v2
    brif v9, block1(v1), block2
block1(v10: i32):
    atomic_store.i32 release gpu v0-4, v10
    fence seq_cst sys
    v11 = surface_rmw.i32 add 2d coord trap relaxed gpu slot 3 [v1, v2], v1
    jump block2
block2:
    return
}
";

#[test]
fn brief_example_round_trips() {
    assert_canonical(HIST);
}

#[test]
fn every_instruction_form_round_trips() {
    let src = "\
function %all(ptr.global, ptr.shared, i32, i64, f32, surface, f16, f64) -> i32, i64 {
block0(v0: ptr.global, v1: ptr.shared, v2: i32, v3: i64, v4: f32, v5: surface, v6: f16, v7: f64):
    v8 = iconst.i32 -7
    v9 = iconst.i64 9223372036854775807
    v10 = iconst.i8 -128
    v11 = iconst.i16 0
    v12 = fconst.f32 1.5
    v13 = fconst.f32 -0.0
    v14 = fconst.f32 inf
    v15 = fconst.f64 -inf
    v16 = fconst.f32 0x7fc00001
    v17 = fconst.f16 65504.0
    v18 = fconst.f64 1e300
    v19 = fconst.f16 0x7e01
    v20 = ineg v2
    v21 = bnot v2
    v22 = fneg v4
    v23 = fabs v4
    v24 = iadd v2, v8
    v25 = isub v2, v8
    v26 = imul v2, v8
    v27 = udiv v2, v8
    v28 = sdiv v2, v8
    v29 = urem v2, v8
    v30 = srem v2, v8
    v31 = band v2, v8
    v32 = bor v2, v8
    v33 = bxor v2, v8
    v34 = ishl v2, v8
    v35 = ushr v2, v8
    v36 = sshr v2, v8
    v37 = umin v2, v8
    v38 = umax v2, v8
    v39 = smin v2, v8
    v40 = smax v2, v8
    v41 = fadd v4, v12
    v42 = fsub v4, v12
    v43 = fmul v4, v12
    v44 = fdiv v4, v12
    v45 = fmin v4, v12
    v46 = fmax v4, v12
    v47 = icmp eq v2, v8
    v48 = fcmp uno v4, v12
    v49 = select v47, v2, v8
    v50 = uextend.i64 v2
    v51 = sextend.i64 v2
    v52 = ireduce.i16 v2
    v53 = fpromote.f64 v4
    v54 = fdemote.f16 v4
    v55 = fcvt_to_sint.i32 v4
    v56 = fcvt_to_uint.i32 v4
    v57 = fcvt_from_sint.f32 v2
    v58 = fcvt_from_uint.f32 v2
    v59 = bitcast.i32 v4
    v60 = ptr_add v0, v3
    v61 = ptr_to_generic v1
    v62 = thread_id.y
    v63 = block_dim.z
    v64 = grid_dim.x
    v65 = lane_id
    v66 = load.f32 v0+16
    store v2, v1-8
    v67 = atomic_rmw.f32 fadd seq_cst sys v0, v4
    v68 = atomic_rmw.i32 inc_wrap relaxed cta v1+4, v2
    v69 = atomic_cas.i32 relaxed gpu v1, v2, v8
    v70 = atomic_load.i64 acquire gpu v0+8
    atomic_store.i64 seq_cst sys v0, v3
    fence acq_rel cta
    v71 = surface_rmw.i64 umax 3d bytes near acq_rel sys v5 [v2, v2, v2], v3
    v72 = surface_cas.i32 1d_buffer coord ign relaxed gpu slot 65535 [v2], v2, v8
    v73 = surface_rmw.f16x2 fadd 1d_array coord trap release cta slot 0 [v2, v8], v2
    barrier
    jump block1(v2, v3)
block1(v74: i32, v75: i64):
    brif v47, block2, block1(v74, v75)
block2:
    return v74, v75
}
";
    assert_canonical(src);
}

#[test]
fn offsets_print_without_zero_suffix() {
    let out = assert_fixed_point(
        "function %f(ptr.global) {\nblock0(v0: ptr.global):\n    v1 = load.i32 v0+0\n    v2 = load.i32 v0 - 12\n    return\n}\n",
    );
    assert!(out.contains("load.i32 v0\n"), "{out}");
    assert!(out.contains("load.i32 v0-12\n"), "{out}");
}

#[test]
fn sparse_numbering_is_renumbered_densely() {
    let src = "\
function %f(i32) -> i32 {
block7(v40: i32):
    v3 = iconst.i32 1
    jump block2(v3)
block2(v9: i32):
    v1 = iadd v9, v40
    return v1
}
";
    let expected = "\
function %f(i32) -> i32 {
block0(v0: i32):
    v1 = iconst.i32 1
    jump block1(v1)
block1(v2: i32):
    v3 = iadd v2, v0
    return v3
}
";
    assert_eq!(assert_fixed_point(src), expected);
}

#[test]
fn forward_references_get_the_right_type() {
    // v5 is used in block1 before block2 defines it; its type (i64) comes
    // from v4's, which is also defined later in the text.
    let src = "\
function %f(i64) {
block0(v0: i64):
    jump block2
block1:
    v1 = iadd v5, v5
    v2 = iadd v1, v1
    return
block2:
    v3 = iconst.i64 1
    v4 = iadd v0, v3
    v5 = isub v4, v3
    jump block1
}
";
    assert_canonical(src);
    let f = &parse(src).unwrap()[0];
    for v in f.values.keys() {
        assert_eq!(f.value_type(v), atomc_ir::Type::I64, "{v}");
    }
    assert_eq!(f.values.len(), 6, "no placeholder values are left behind");
}

#[test]
fn integers_are_sign_extended_from_the_type_width() {
    let out = assert_fixed_point(
        "function %f() {\nblock0:\n    v0 = iconst.i32 4294967295\n    v1 = iconst.i8 0xff\n    v2 = iconst.i64 0xffffffffffffffff\n    v3 = iconst.i16 -32768\n    return\n}\n",
    );
    assert!(out.contains("v0 = iconst.i32 -1\n"), "{out}");
    assert!(out.contains("v1 = iconst.i8 -1\n"), "{out}");
    assert!(out.contains("v2 = iconst.i64 -1\n"), "{out}");
    assert!(out.contains("v3 = iconst.i16 -32768\n"), "{out}");
    let f = &parse(&out).unwrap()[0];
    let imm = |i: usize| match &f.insts[f.blocks[f.layout[0]].insts[i]] {
        atomc_ir::InstData::Iconst { imm, .. } => *imm,
        other => panic!("{other:?}"),
    };
    assert_eq!([imm(0), imm(1), imm(2), imm(3)], [-1, -1, -1, -32768]);
}

#[test]
fn floats_keep_their_bits() {
    use atomc_ir::{FunctionBuilder, InstData, Type};
    let cases: &[(Type, u64)] = &[
        (Type::F32, 0x8000_0000), // -0.0
        (Type::F32, 0x7fc0_0000), // quiet NaN
        (Type::F32, 0xffa0_0001), // signalling NaN with payload
        (Type::F32, 0x0000_0001), // smallest subnormal
        (Type::F32, f32::MAX.to_bits() as u64),
        (Type::F32, 0.1f32.to_bits() as u64),
        (Type::F64, 0x8000_0000_0000_0000),
        (Type::F64, 0x7ff8_0000_0000_0abc),
        (Type::F64, 1),
        (Type::F64, f64::MIN_POSITIVE.to_bits()),
        (Type::F64, 0.1f64.to_bits()),
        (Type::F16, 0x8000),
        (Type::F16, 0x7bff),
        (Type::F16, 0x0001),
        (Type::F16, 0xfe3f),
        (Type::F16, 0x7c00),
    ];
    let mut b = FunctionBuilder::new("floats", &[]);
    for &(ty, bits) in cases {
        b.ins(InstData::Fconst { ty, bits });
    }
    b.ret(&[]);
    let func = b.finish();
    let text = print_function(&func);
    assert_canonical(&text);
    let parsed = &parse(&text).unwrap()[0];
    for (i, &(ty, bits)) in cases.iter().enumerate() {
        let inst = parsed.blocks[parsed.layout[0]].insts[i];
        assert_eq!(parsed.insts[inst], InstData::Fconst { ty, bits }, "case {i} printed as:\n{text}");
    }
    assert!(text.contains("fconst.f32 -0.0\n"), "{text}");
    assert!(text.contains("fconst.f32 0x7fc00000\n"), "{text}");
    assert!(text.contains("fconst.f32 0.1\n"), "{text}");
    assert!(text.contains("fconst.f16 inf\n"), "{text}");
}

#[test]
fn builder_functions_round_trip() {
    use atomc_ir::{AddrSpace, ConvOp, FunctionBuilder, MemOrder, RmwOp, Scope, SpecialReg, Type};
    let mut b = FunctionBuilder::new("count", &[Type::Ptr(AddrSpace::Global)]);
    let counter = b.param(0);
    let tid = b.special(SpecialReg::ThreadIdX);
    let tid64 = b.convert(ConvOp::Uextend, Type::I64, tid);
    let four = b.iconst(Type::I64, 4);
    let off = b.binary(atomc_ir::BinaryOp::Imul, tid64, four);
    let p = b.ptr_add(counter, off);
    let one = b.iconst(Type::I32, 1);
    b.atomic_rmw(RmwOp::Add, Type::I32, MemOrder::Relaxed, Scope::Gpu, p, 0, one);
    b.ret(&[]);
    let func = b.finish();
    let text = func.to_string();
    assert_eq!(text, print_function(&func));
    assert_canonical(&text);
}

#[test]
fn comments_and_whitespace_are_not_canonical_but_reach_a_fixed_point() {
    let src = "\
; leading comment
function   %f ( i32 )  {   ; trailing
  block0 ( v0 : i32 ) :
        v1 = iadd   v0 ,v0 ; the sum
    return
}
";
    let out = assert_fixed_point(src);
    assert_eq!(out, "function %f(i32) {\nblock0(v0: i32):\n    v1 = iadd v0, v0\n    return\n}\n");
}

#[test]
fn parse_file_reports_headers_comments_text_and_locations() {
    let src = "\
test interpret ; run it
target sm_90

; not a header
function %a() {
block0:
    v0 = iconst.i32 1 ; one
    return
}
; run: %a() == 0
; check: done

function %b(i32) -> i32 {
block0(v0: i32):
  return v0
}
;   indented
";
    let file = parse_file(src).unwrap();
    let headers: Vec<_> = file.headers.iter().map(|h| (h.text.as_str(), h.loc.line, h.loc.col)).collect();
    assert_eq!(headers, [("test interpret", 1, 1), ("target sm_90", 2, 1)]);
    assert_eq!(file.functions.len(), 2);
    let a = &file.functions[0];
    let comments: Vec<_> = a.comments.iter().map(|c| (c.text.as_str(), c.loc.line, c.loc.col)).collect();
    assert_eq!(comments, [("one", 7, 23), ("run: %a() == 0", 10, 1), ("check: done", 11, 1)]);
    assert_eq!(a.text, "function %a() {\nblock0:\n    v0 = iconst.i32 1 ; one\n    return\n}");
    assert_eq!((a.loc.line, a.loc.col), (5, 1));
    let b = &file.functions[1];
    assert_eq!(b.comments.len(), 1);
    assert_eq!(b.comments[0].text, "  indented");
    assert_eq!((b.loc.line, b.loc.col), (13, 1));
    let f = &a.func;
    let locs: Vec<_> = f.inst_order().map(|(_, i)| (f.inst_locs[i].line, f.inst_locs[i].col)).collect();
    assert_eq!(locs, [(7, 5), (8, 5)]);
    let g = &b.func;
    let locs: Vec<_> = g.inst_order().map(|(_, i)| (g.inst_locs[i].line, g.inst_locs[i].col)).collect();
    assert_eq!(locs, [(15, 3)]);
}

#[test]
fn empty_and_header_only_files() {
    assert!(parse("").unwrap().is_empty());
    let file = parse_file("test compile precise-output\n").unwrap();
    assert_eq!(file.headers.len(), 1);
    assert!(file.functions.is_empty());
}

#[test]
fn crlf_line_endings_are_accepted() {
    let src = "function %f() {\r\nblock0:\r\n    return\r\n}\r\n";
    assert_eq!(reprint(src), "function %f() {\nblock0:\n    return\n}\n");
}

#[test]
fn the_example_in_the_docs_is_canonical() {
    let doc = include_str!("../../docs/ir.md");
    let start = doc.find("```\nfunction %hist").expect("docs/ir.md has the example") + 4;
    let end = start + doc[start..].find("```").unwrap();
    assert_canonical(&doc[start..end]);
    assert_eq!(&doc[start..end], HIST);
}

#[test]
fn the_printer_survives_malformed_functions() {
    use atomc_ir::{Block, Function, InstData, Value};
    let mut f = Function::new("broken", vec![]);
    let b = f.create_block();
    f.layout.push(Block::from_u32(7)); // a block that does not exist
    f.append_inst(
        b,
        InstData::Jump {
            dest: atomc_ir::BlockCall { block: Block::from_u32(9), args: [Value::from_u32(42)].into_iter().collect() },
        },
    );
    f.blocks[b].params.push(Value::from_u32(5)); // a dangling parameter
    let text = print_function(&f);
    assert_eq!(text, "function %broken(?) {\nblock0(v5: ?):\n    jump block9(v42)\n}\n");
    assert_eq!(atomc_ir::print::inst_to_string(&f, f.blocks[b].insts[0]), "jump block9(v42)");
}
