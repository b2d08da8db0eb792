//! Refusals name the instruction of the input and its location: functions built in code (the
//! `Inst`, and the position the caller attached), CLIF built with cranelift-frontend (its
//! `SourceLoc`) and `.clif` text (line and column), on SASS and vISA targets. Misused CLIF
//! intrinsics are import errors at the call. The refused instructions are what the targets'
//! tables refuse today: f16 fma on SASS (it selects FFMA and DFMA) and f64 fma on vISA (its f64
//! add, multiply and division are integer code where there is no fp64).

use atomc::clif::{self, ImportError, ImportOptions};
use atomc::ir::{self, AddrSpace, FunctionBuilder, InstData, MemOrder, RmwOp, Scope, SrcLoc, Type};
use atomc::{CompileError, Target, VisaPlatform};
use cranelift_codegen::ir::{self as cl, types, AbiParam, InstBuilder, UserFuncName};
use cranelift_frontend::{FunctionBuilder as ClifBuilder, FunctionBuilderContext};

/// `*p = fma(x, y, x)` in `ty`, the fma at `loc`; returns it.
fn fma(loc: SrcLoc, ty: Type) -> (ir::Function, ir::Inst) {
    let mut b = FunctionBuilder::new("fma", &[Type::Ptr(AddrSpace::Global), ty, ty]);
    b.set_loc(loc);
    let args = [b.param(1), b.param(2), b.param(1)];
    let r = b.ins(InstData::Ternary { op: ir::TernaryOp::Fma, args }).expect("a result");
    let inst = b.last_inst().expect("appended");
    b.set_loc(SrcLoc::default());
    b.store(r, b.param(0), 0);
    b.ret(&[]);
    (b.finish(), inst)
}

fn refusal(f: &ir::Function, target: Target) -> ir::diagnostic::Diagnostic {
    let e = match target {
        Target::Visa(_) => atomc::visa_kernel(f, target, &Default::default()).err(),
        _ => atomc::compile_kernel(f, target, &Default::default()).err(),
    };
    let e = e.unwrap_or_else(|| panic!("{target} compiled:\n{f}"));
    assert!(matches!(e, CompileError::Unsupported { .. }), "{e}");
    let mut diags = e.diagnostics();
    assert_eq!(diags.len(), 1);
    diags.remove(0)
}

#[test]
fn a_built_function_without_locations_gets_the_instruction() {
    let (f, inst) = fma(SrcLoc::default(), Type::F16);
    let d = refusal(&f, Target::Sm50);
    assert_eq!((d.inst, d.loc, d.rule), (Some(inst), SrcLoc::default(), "target-unsupported"));
    assert!(d.headline("%fma").starts_with(&format!("%fma: {inst}: error[target-unsupported]: sm_50 cannot")));
}

#[test]
fn a_built_function_keeps_the_callers_location_and_the_instruction() {
    let loc = SrcLoc { line: 31, col: 7 };
    let (half, half_inst) = fma(loc, Type::F16);
    // No f16 fma on SASS; no f64 fma on vISA (its f64 add, multiply and division on TGLLP are
    // integer code, fma is not lowered).
    let (fused, fma64) = fma(loc, Type::F64);
    assert!(matches!(half.insts[half_inst], InstData::Ternary { .. }));
    for (f, inst, target) in
        [(&half, half_inst, Target::Sm50), (&half, half_inst, Target::Sm90), (&fused, fma64, Target::Visa(VisaPlatform::Tgllp))]
    {
        let d = refusal(f, target);
        assert_eq!((d.inst, d.loc), (Some(inst), loc), "{target}");
        assert!(d.headline("gen.rs").starts_with(&format!("gen.rs:31:7: {inst}: error[target-unsupported]: ")));
    }
}

/// `fn k(p: i64, x: f16, y: f16) { *p = fma(x, y, x) }` with the fma at CLIF `SourceLoc`
/// `srcloc`.
fn clif_fma16(srcloc: u32) -> cl::Function {
    let mut sig = cl::Signature::new(cranelift_codegen::isa::CallConv::SystemV);
    sig.params.extend([AbiParam::new(types::I64), AbiParam::new(types::F16), AbiParam::new(types::F16)]);
    let mut func = cl::Function::with_name_signature(UserFuncName::testcase("k"), sig);
    let mut ctx = FunctionBuilderContext::new();
    let mut b = ClifBuilder::new(&mut func, &mut ctx);
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    b.seal_block(entry);
    let [p, x, y] = b.block_params(entry) else { unreachable!("three parameters") };
    let (p, x, y) = (*p, *x, *y);
    b.set_srcloc(cl::SourceLoc::new(srcloc));
    let q = b.ins().fma(x, y, x);
    b.set_srcloc(cl::SourceLoc::default());
    b.ins().store(cl::MemFlagsData::trusted(), q, p, 0);
    b.ins().return_(&[]);
    b.finalize(clif::frontend_config());
    func
}

#[test]
fn clif_source_locations_come_through_the_import() {
    let opts = ImportOptions { address_space: AddrSpace::Global, ..ImportOptions::default() };
    let f = clif::import(&clif_fma16(77), &opts).expect("imports");
    // The fma carries line 77; the store and `return` had no SourceLoc.
    let located: Vec<_> = f.inst_order().filter(|&(_, i)| f.inst_locs[i].is_known()).map(|(_, i)| i).collect();
    assert_eq!(located.len(), 1, "{f}");
    assert!(matches!(f.insts[located[0]], InstData::Ternary { op: ir::TernaryOp::Fma, .. }), "{f}");
    let d = refusal(&f, Target::Sm50);
    assert_eq!((d.inst, d.loc), (Some(located[0]), SrcLoc { line: 77, col: 0 }));
    assert!(d.headline("front.rs").starts_with(&format!("front.rs:77: {}: error[target-unsupported]", located[0])));
}

#[test]
fn clif_text_positions_come_through_the_import() {
    let text = "function %k(i64, f16, f16) {\nblock0(v0: i64, v1: f16, v2: f16):\n  @0010  v3 = fma v1, v2, v1\n    store v3, v0\n    return\n}\n";
    let opts = ImportOptions { address_space: AddrSpace::Global, ..ImportOptions::default() };
    let f = clif::parse_clif_file_with(text, &opts).expect("imports").remove(0);
    let locs: Vec<(u32, u32)> = f.inst_order().map(|(_, i)| (f.inst_locs[i].line, f.inst_locs[i].col)).collect();
    assert_eq!(locs, [(3, 10), (4, 5), (5, 5)], "{f}");
    let d = refusal(&f, Target::Sm50);
    assert_eq!(d.loc, SrcLoc { line: 3, col: 10 });
    let shown = ir::diagnostic::render("k.clif", text, std::slice::from_ref(&d));
    assert!(shown.contains("3 |   @0010  v3 = fma v1, v2, v1"), "{shown}");
}

/// A CLIF kernel that calls `name` with the given signature on its pointer parameter.
fn calls(name: &str, params: &[cl::Type], returns: &[cl::Type]) -> Result<ir::Function, ImportError> {
    let mut sig = cl::Signature::new(cranelift_codegen::isa::CallConv::SystemV);
    sig.params.push(AbiParam::new(types::I64));
    let mut func = cl::Function::with_name_signature(UserFuncName::testcase("k"), sig);
    let mut ctx = FunctionBuilderContext::new();
    let mut b = ClifBuilder::new(&mut func, &mut ctx);
    let f = clif::intrinsic(&mut b, name, params, returns);
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    b.seal_block(entry);
    let p = b.block_params(entry)[0];
    let args: Vec<cl::Value> = params.iter().map(|&t| if t == types::I64 { p } else { b.ins().iconst(t, 1) }).collect();
    b.ins().call(f, &args);
    b.ins().return_(&[]);
    b.finalize(clif::frontend_config());
    clif::import(&func, &ImportOptions::default())
}

#[test]
fn misused_intrinsics_are_import_errors_at_the_call() {
    use types::{I32, I64};
    let cases: [(&str, &[cl::Type], &[cl::Type], &str); 4] = [
        ("atomc_thread_id_q", &[], &[I32], "is no atomc intrinsic"),
        ("atomc_barrier", &[I32], &[], "must be declared ()"),
        ("atomc_atomic_rmw_add_relaxed_gpu", &[I64, I32], &[I64], "must be declared (i64, T) -> T"),
        ("atomc_atomic_rmw_add_relaxed_warp", &[I64, I32], &[I32], "is no atomc intrinsic"),
    ];
    for (name, params, returns, why) in cases {
        let e = calls(name, params, returns).expect_err(name);
        assert_eq!(e.opcode(), Some("call"), "{e}");
        let ImportError::Unsupported { inst, reason, .. } = &e else { panic!("{e}") };
        assert!(inst.contains("call fn0("), "{inst}");
        assert!(reason.contains(why) && reason.contains(name), "{name}: {reason}");
    }
    // A call of another name is what it was: a call, rejected.
    let e = calls("helper", &[I64], &[]).expect_err("helper");
    assert!(e.to_string().contains("calls have no GPU meaning"), "{e}");
    // And a correct one imports.
    let f = calls("atomc_atomic_rmw_xchg_seq_cst_sys", &[I64, I32], &[I32]).expect("imports");
    assert!(f.to_string().contains("atomic_rmw.i32 xchg seq_cst sys v0"), "{f}");
}

#[test]
fn a_refused_instruction_the_legalizer_made_names_the_input_instruction_it_came_from() {
    // DG2 has no f32 atomic add on shared local memory: the legalizer makes a CAS loop of it,
    // and the vISA lowering refuses, at SIMD2, the loop's f32 add (GenX_IR cannot split a SIMD2
    // float op under SIMD control flow on XeHP+), an instruction the input does not have.
    let mut b = FunctionBuilder::new("fadd32", &[Type::Ptr(AddrSpace::Shared)]);
    let one = b.fconst(Type::F32, 1.0);
    b.atomic_rmw(RmwOp::Fadd, Type::F32, MemOrder::Relaxed, Scope::Cta, b.param(0), 0, one);
    let inst = b.last_inst().expect("appended");
    b.ret(&[]);
    let f = b.finish();
    let target = Target::Visa(VisaPlatform::Dg2);
    let opts = atomc_lower::visa::Options { simd: atomc_emit::visa::ExecSize::S2, ..Default::default() };
    let e = atomc::visa_kernel(&f, target, &opts).expect_err("refused at SIMD2");
    assert!(matches!(e, CompileError::Unsupported { .. }), "{e}");
    let mut diags = e.diagnostics();
    assert_eq!(diags.len(), 1);
    let d = diags.remove(0);
    assert!(d.headline("%fadd32").contains("SIMD2 float arithmetic in divergent code"), "{}", d.headline("%fadd32"));
    assert_eq!((d.inst, d.loc), (Some(inst), SrcLoc::default()), "{}", d.headline("%fadd32"));
    // The legalized function has the input's (here: no) locations, not the tracing ones.
    let legal = atomc::pipeline::legalize(&f, target).expect("legalizes");
    assert!(legal.inst_order().all(|(_, i)| !legal.inst_locs[i].is_known()));
}
