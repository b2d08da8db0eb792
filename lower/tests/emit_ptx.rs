//! `emit_ptx` against the real assemblers: every kernel here must be accepted by ptxas 11.8
//! (sm_50, sm_90, and sm_60/70/80 for the feature gates between) and ptxas 13 (sm_90);
//! constructs PTX cannot express must fail with an error that names the instruction and target.

mod ptx_common;

use atomc_oracle::{self as oracle, SmTools};
use ptx_common::MATRIX;
use atomc_lower::ptx::{emit_ptx, emit_ptx_module, PtxError};
use atomc_ir::{
    AddrSpace, BinaryOp, ConvOp, FloatCC, Function, FunctionBuilder, InstData, IntCC, MemOrder, RmwOp, Scope,
    SpecialReg, SurfaceAccess, SurfaceAddressing, SurfaceClamp, SurfaceDim, SurfaceRef, Type, UnaryOp,
};

const GLOBAL: Type = Type::Ptr(AddrSpace::Global);
const SHARED: Type = Type::Ptr(AddrSpace::Shared);
const GENERIC: Type = Type::Ptr(AddrSpace::Generic);

/// The integer read-modify-write ops of every width (inc/dec wrap are 32-bit only).
const INT_RMW_OPS: [RmwOp; 10] = [
    RmwOp::Add,
    RmwOp::Sub,
    RmwOp::And,
    RmwOp::Or,
    RmwOp::Xor,
    RmwOp::Xchg,
    RmwOp::Smin,
    RmwOp::Smax,
    RmwOp::Umin,
    RmwOp::Umax,
];

/// Every target number the emitter is exercised on.
const ALL_SMS: [u32; 5] = [50, 60, 70, 80, 90];

thread_local! {
    /// Kernels of the running test waiting to be assembled, each with its targets.
    static PENDING: std::cell::RefCell<Vec<(Function, Vec<u32>)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Emits `func` for each target in `sms` (failing at once if it cannot) and queues it for
/// [`flush`], which assembles all queued kernels with one ptxas run per matrix entry.
fn assemble(func: &Function, sms: &[u32]) {
    for &sm in sms {
        if let Err(e) = emit_ptx(func, sm) {
            panic!("emit_ptx({}, sm_{sm}): {e}\n{func}", func.name);
        }
    }
    PENDING.with(|p| p.borrow_mut().push((func.clone(), sms.to_vec())));
}

/// Assembles the queued kernels: one module per (ptxas, target); when a module is rejected, the
/// kernels are assembled one by one to name the culprit.
fn flush() {
    let pending = PENDING.with(|p| std::mem::take(&mut *p.borrow_mut()));
    for (tool, sm) in MATRIX {
        let funcs: Vec<Function> = pending
            .iter()
            .filter(|(_, sms)| sms.contains(&sm))
            .map(|(f, _)| f.clone())
            .collect();
        if funcs.is_empty() || oracle::require(tool).is_none() {
            continue;
        }
        let arch = format!("sm_{sm}");
        let module = emit_ptx_module(&funcs, sm).expect("each kernel emitted alone");
        if oracle::ptxas_with(tool, &arch, &module, &[]).is_ok() {
            continue;
        }
        for func in &funcs {
            let ptx = emit_ptx(func, sm).expect("emitted before");
            if let Err(e) = oracle::ptxas_with(tool, &arch, &ptx, &[]) {
                panic!(
                    "{tool} rejected the PTX of {} for {arch}:\n{e}\n--- PTX ---\n{ptx}",
                    func.name
                );
            }
        }
        panic!("{tool} rejected the module for {arch} though it accepts each kernel:\n{module}");
    }
}

fn both(func: &Function) {
    assemble(func, &ALL_SMS);
}

/// A kernel `(ptr p, ty x)` doing one atomic_rmw whose result is stored back to `p+off`.
fn rmw_kernel(op: RmwOp, ty: Type, order: MemOrder, scope: Scope, space: AddrSpace) -> Function {
    let name = format!("rmw_{}_{ty}_{order}_{scope}_{}", op.name(), space.name());
    let mut b = FunctionBuilder::new(&name, &[Type::Ptr(space), ty]);
    let (p, x) = (b.param(0), b.param(1));
    let old = b.atomic_rmw(op, ty, order, scope, p, 0, x);
    b.store(old, p, 64);
    b.ret(&[]);
    b.finish()
}

#[test]
fn integer_rmw_all_ops_32_and_64_bit() {
    for space in AddrSpace::ALL {
        for ty in [Type::I32, Type::I64] {
            for op in INT_RMW_OPS {
                both(&rmw_kernel(op, ty, MemOrder::Relaxed, Scope::Gpu, space));
            }
        }
        for op in [RmwOp::IncWrap, RmwOp::DecWrap] {
            both(&rmw_kernel(op, Type::I32, MemOrder::Relaxed, Scope::Gpu, space));
        }
    }
    flush();
}

#[test]
fn float_rmw_native_and_cas_loops() {
    for space in [AddrSpace::Global, AddrSpace::Shared] {
        for ty in [Type::F32, Type::F64, Type::F16x2] {
            for op in [RmwOp::Fadd, RmwOp::Fmin, RmwOp::Fmax, RmwOp::Xchg] {
                both(&rmw_kernel(op, ty, MemOrder::Relaxed, Scope::Gpu, space));
            }
        }
        // bf16x2: native add on sm_90, CAS loops elsewhere (with hand rounding on sm_50).
        for op in [RmwOp::Fadd, RmwOp::Fmin, RmwOp::Fmax] {
            both(&rmw_kernel(op, Type::BF16x2, MemOrder::Relaxed, Scope::Gpu, space));
        }
    }
    flush();
}

#[test]
fn subword_rmw_and_cas() {
    // 16-bit ops are `atom.cas.b16` loops on sm_90; 8-bit ops (and 16-bit ones on sm_50) are
    // loops on the enclosing 32-bit word.
    for space in AddrSpace::ALL {
        for ty in [Type::I8, Type::I16] {
            for op in INT_RMW_OPS {
                both(&rmw_kernel(op, ty, MemOrder::AcqRel, Scope::Gpu, space));
            }
        }
        for op in [RmwOp::Fadd, RmwOp::Fmin, RmwOp::Fmax, RmwOp::Xchg] {
            both(&rmw_kernel(op, Type::F16, MemOrder::Acquire, Scope::Cta, space));
        }
    }
    flush();
}

#[test]
fn every_order_and_scope() {
    for &order in MemOrder::ALL {
        for &scope in Scope::ALL {
            let sms: &[u32] = if scope == Scope::Sys { &ALL_SMS[1..] } else { &ALL_SMS };
            assemble(&rmw_kernel(RmwOp::Add, Type::I32, order, scope, AddrSpace::Global), sms);
            assemble(
                &rmw_kernel(RmwOp::Fmax, Type::F32, order, scope, AddrSpace::Global),
                sms,
            );

            let mut b = FunctionBuilder::new(&format!("cas_{order}_{scope}"), &[GLOBAL, Type::I64, Type::I64]);
            let (p, e, r) = (b.param(0), b.param(1), b.param(2));
            let old = b.atomic_cas(Type::I64, order, scope, p, 8, e, r);
            b.store(old, p, 0);
            b.ret(&[]);
            assemble(&b.finish(), sms);

            // Loads, stores and fences at every scope work on sm_50 too (membar.sys exists).
            // Shared memory takes no sys scope (verifier rule): use a second global pointer then.
            let second = if scope == Scope::Sys { GLOBAL } else { SHARED };
            let mut b = FunctionBuilder::new(&format!("ldst_{order}_{scope}"), &[GLOBAL, second]);
            let (g, s) = (b.param(0), b.param(1));
            let load_order = if order.releases() && order != MemOrder::SeqCst {
                MemOrder::Acquire
            } else {
                order
            };
            let store_order = if order.acquires() && order != MemOrder::SeqCst {
                MemOrder::Release
            } else {
                order
            };
            let v = b.atomic_load(Type::I32, load_order, scope, g, 4);
            b.atomic_store(Type::I32, store_order, scope, s, 0, v);
            let f = b.atomic_load(Type::F64, load_order, scope, s, 8);
            b.atomic_store(Type::F64, store_order, scope, g, 16, f);
            if order != MemOrder::Relaxed {
                b.fence(order, scope);
            }
            b.ret(&[]);
            both(&b.finish());
        }
    }
    flush();
}

#[test]
fn cas_of_every_width_and_space() {
    for space in AddrSpace::ALL {
        for ty in [
            Type::I32,
            Type::I64,
            Type::F32,
            Type::F64,
            Type::F16x2,
            Type::I8,
            Type::I16,
            Type::F16,
        ] {
            let mut b = FunctionBuilder::new(&format!("cas_{ty}_{}", space.name()), &[Type::Ptr(space), ty, ty]);
            let (p, e, r) = (b.param(0), b.param(1), b.param(2));
            let old = b.atomic_cas(ty, MemOrder::Relaxed, Scope::Gpu, p, 0, e, r);
            b.store(old, p, 16);
            b.ret(&[]);

            both(&b.finish());
        }
    }
    flush();
}

/// The builder doc's kernel: `counter[thread_id.x] += 1`, plus a histogram-style loop with block
/// parameters, a conditional branch and a select.
#[test]
fn control_flow_and_indexing() {
    let mut b = FunctionBuilder::new("histogram", &[GLOBAL, GLOBAL, Type::I32]);
    let (bins, data, n) = (b.param(0), b.param(1), b.param(2));
    let tid = b.special(SpecialReg::ThreadIdX);
    let ntid = b.special(SpecialReg::BlockDimX);
    let head = b.create_block();
    let body = b.create_block();
    let exit = b.create_block();
    let i = b.block_param(head, Type::I32);
    b.jump(head, &[tid]);
    b.switch_to_block(head);
    let more = b.icmp(IntCC::Ult, i, n);
    b.brif(more, body, &[], exit, &[]);
    b.switch_to_block(body);
    let i64v = b.convert(ConvOp::Uextend, Type::I64, i);
    let four = b.iconst(Type::I64, 4);
    let off = b.binary(BinaryOp::Imul, i64v, four);
    let pd = b.ptr_add(data, off);
    let x = b.load(Type::I32, pd, 0);
    let mask = b.iconst(Type::I32, 255);
    let bin = b.binary(BinaryOp::Band, x, mask);
    let zero = b.iconst(Type::I32, 0);
    let neg = b.icmp(IntCC::Slt, x, zero);
    let bin = b.select(neg, zero, bin);
    let bin64 = b.convert(ConvOp::Uextend, Type::I64, bin);
    let boff = b.binary(BinaryOp::Imul, bin64, four);
    let pb = b.ptr_add(bins, boff);
    let one = b.iconst(Type::I32, 1);
    b.atomic_rmw(RmwOp::Add, Type::I32, MemOrder::Relaxed, Scope::Gpu, pb, 0, one);
    let next = b.binary(BinaryOp::Iadd, i, ntid);
    b.jump(head, &[next]);
    b.switch_to_block(exit);
    b.ret(&[]);
    both(&b.finish());
    flush();
}

#[test]
fn loop_carried_swap_and_pred_params() {
    // block1(a, b, c) -> block1(b, a, !c): the edge copies must read the old values.
    let mut b = FunctionBuilder::new("swap", &[GLOBAL, Type::I32]);
    let (p, n) = (b.param(0), b.param(1));
    let l = b.create_block();
    let out = b.create_block();
    let (a, bb, c) = (
        b.block_param(l, Type::I32),
        b.block_param(l, Type::I32),
        b.block_param(l, Type::Pred),
    );
    let zero = b.iconst(Type::I32, 0);
    let t = b.icmp(IntCC::Eq, n, zero);
    b.jump(l, &[n, zero, t]);
    b.switch_to_block(l);
    let one = b.iconst(Type::I32, 1);
    let a2 = b.binary(BinaryOp::Isub, a, one);
    let f = b.icmp(IntCC::Eq, a2, zero);
    let nc = b.select(c, f, t);
    let done = b.icmp(IntCC::Sle, a2, zero);
    b.brif(done, out, &[], l, &[bb, a2, nc]);
    b.switch_to_block(out);
    let s = b.select(c, a, bb);
    b.store(s, p, 0);
    b.ret(&[]);
    both(&b.finish());
    flush();
}

#[test]
fn alu_coverage() {
    for ty in [Type::I8, Type::I16, Type::I32, Type::I64] {
        let mut b = FunctionBuilder::new(&format!("alu_{ty}"), &[GLOBAL, ty, ty]);
        let (p, x, y) = (b.param(0), b.param(1), b.param(2));
        let mut acc = x;
        for op in [
            BinaryOp::Iadd,
            BinaryOp::Isub,
            BinaryOp::Imul,
            BinaryOp::Udiv,
            BinaryOp::Sdiv,
            BinaryOp::Urem,
            BinaryOp::Srem,
            BinaryOp::Band,
            BinaryOp::Bor,
            BinaryOp::Bxor,
            BinaryOp::Ishl,
            BinaryOp::Ushr,
            BinaryOp::Sshr,
            BinaryOp::Umin,
            BinaryOp::Umax,
            BinaryOp::Smin,
            BinaryOp::Smax,
        ] {
            acc = b.binary(op, acc, y);
        }
        let neg = b.unary(UnaryOp::Ineg, acc);
        let not = b.unary(UnaryOp::Bnot, neg);
        let k = b.iconst(ty, -3);
        let lt = b.icmp(IntCC::Ult, not, k);
        let r = b.select(lt, not, k);
        b.store(r, p, 0);
        // i64 and back (no conversion where `ty` is i64).
        let mut conv = |op, to, v| if ty == Type::I64 { v } else { b.convert(op, to, v) };
        let wide = conv(ConvOp::Sextend, Type::I64, r);
        let z = conv(ConvOp::Uextend, Type::I64, r);
        let s = b.binary(BinaryOp::Iadd, wide, z);
        let back = if ty == Type::I64 { s } else { b.convert(ConvOp::Ireduce, ty, s) };
        b.store(back, p, 8);
        let f = b.convert(ConvOp::FcvtFromSint, Type::F32, back);
        let g = b.convert(ConvOp::FcvtFromUint, Type::F64, back);
        let fi = b.convert(ConvOp::FcvtToSint, ty, f);
        let gi = b.convert(ConvOp::FcvtToUint, ty, g);
        let fg = b.binary(BinaryOp::Bxor, fi, gi);
        b.store(fg, p, 16);
        b.ret(&[]);
        both(&b.finish());
    }
    for ty in [Type::F16, Type::F32, Type::F64] {
        let mut b = FunctionBuilder::new(&format!("falu_{ty}"), &[GLOBAL, ty, ty]);
        let (p, x, y) = (b.param(0), b.param(1), b.param(2));
        let mut acc = x;
        for op in [
            BinaryOp::Fadd,
            BinaryOp::Fsub,
            BinaryOp::Fmul,
            BinaryOp::Fdiv,
            BinaryOp::Fmin,
            BinaryOp::Fmax,
        ] {
            acc = b.binary(op, acc, y);
        }
        let n = b.unary(UnaryOp::Fneg, acc);
        let a = b.unary(UnaryOp::Fabs, n);
        let c = b.fconst(ty, 1.5);
        let mut r = a;
        for cc in [
            FloatCC::Eq,
            FloatCC::Ne,
            FloatCC::Lt,
            FloatCC::Le,
            FloatCC::Gt,
            FloatCC::Ge,
            FloatCC::Ord,
            FloatCC::Uno,
        ] {
            let t = b.fcmp(cc, r, c);
            r = b.select(t, r, c);
        }
        b.store(r, p, 0);
        let bits = b.convert(ConvOp::Bitcast, ty.as_int().expect("int of same width"), r);
        b.store(bits, p, 8);
        let wide = if ty == Type::F64 { r } else { b.convert(ConvOp::Fpromote, Type::F64, r) };
        let narrow = b.convert(ConvOp::Fdemote, Type::F16, wide);
        b.store(narrow, p, 16);
        b.ret(&[]);
        both(&b.finish());
    }
    flush();
}

#[test]
fn pointers_specials_and_barrier() {
    let mut b = FunctionBuilder::new("ptrs", &[GLOBAL, SHARED, GENERIC, Type::I64]);
    let (g, s, gen, off) = (b.param(0), b.param(1), b.param(2), b.param(3));
    let mut sum = b.special(SpecialReg::LaneId);
    for &reg in SpecialReg::ALL {
        let v = b.special(reg);
        sum = b.binary(BinaryOp::Iadd, sum, v);
    }
    let s2 = b.ptr_add(s, sum);
    let s3 = b.ptr_add(s2, off);
    b.store(sum, s3, -4);
    b.barrier();
    let gg = b.ins(InstData::PtrToGeneric { ptr: g }).expect("result");
    let sg = b.ins(InstData::PtrToGeneric { ptr: s3 }).expect("result");
    let g2 = b.ptr_add(gg, off);
    let v = b.atomic_rmw(RmwOp::Add, Type::I32, MemOrder::Relaxed, Scope::Cta, sg, 0, sum);
    b.store(v, g2, 0);
    b.store(v, gen, 0);
    b.ret(&[]);
    both(&b.finish());
    flush();
}

fn surface_kernel(dim: SurfaceDim, addressing: SurfaceAddressing, slot: bool, op: RmwOp, ty: Type) -> Function {
    let name = format!("sured_{}_{}_{}_{}", dim.name(), addressing.name(), slot, op.name());
    let mut b = FunctionBuilder::new(&name, &[Type::Surface, Type::I32, ty]);
    let (h, x, v) = (b.param(0), b.param(1), b.param(2));
    let coords = vec![x; dim.coord_count()];
    let surface = if slot {
        SurfaceRef::Slot(3)
    } else {
        SurfaceRef::Handle(h)
    };
    let access = SurfaceAccess {
        dim,
        addressing,
        clamp: SurfaceClamp::Trap,
        surface,
    };
    b.surface_rmw(op, ty, MemOrder::Relaxed, Scope::Gpu, access, &coords, v);
    b.ret(&[]);
    b.finish()
}

#[test]
fn surface_reductions() {
    for dim in [SurfaceDim::D1, SurfaceDim::D2, SurfaceDim::D3] {
        for addressing in [SurfaceAddressing::Coord, SurfaceAddressing::Bytes] {
            for slot in [true, false] {
                both(&surface_kernel(dim, addressing, slot, RmwOp::Add, Type::I32));
            }
        }
    }
    for op in [RmwOp::Smin, RmwOp::Umax, RmwOp::And, RmwOp::Or] {
        both(&surface_kernel(
            SurfaceDim::D2,
            SurfaceAddressing::Bytes,
            false,
            op,
            Type::I32,
        ));
    }
    flush();
}

fn unsupported(func: &Function, sm: u32) -> String {
    match emit_ptx(func, sm) {
        Err(e @ PtxError::Unsupported { .. }) => e.to_string(),
        other => panic!("expected Unsupported for {} on sm_{sm}, got {other:?}", func.name),
    }
}

#[test]
fn rejections_name_the_instruction_and_target() {
    let msg = unsupported(
        &rmw_kernel(RmwOp::Add, Type::I32, MemOrder::Relaxed, Scope::Sys, AddrSpace::Global),
        50,
    );
    assert!(msg.contains("sys") && msg.contains("sm_50"), "{msg}");

    // A surface atomic whose result is used, and surface CAS.
    let mut b = FunctionBuilder::new("suatom_used", &[GLOBAL, Type::I32]);
    let (p, x) = (b.param(0), b.param(1));
    let access = SurfaceAccess {
        dim: SurfaceDim::D1,
        addressing: SurfaceAddressing::Coord,
        clamp: SurfaceClamp::Ign,
        surface: SurfaceRef::Slot(0),
    };
    let old = b.surface_rmw(RmwOp::Add, Type::I32, MemOrder::Relaxed, Scope::Gpu, access, &[x], x);
    b.store(old, p, 0);
    b.ret(&[]);
    let msg = unsupported(&b.finish(), 90);
    assert!(msg.contains("surface_rmw.i32 add 1d"), "{msg}");

    let mut b = FunctionBuilder::new("sucas", &[Type::I32]);
    let x = b.param(0);
    b.ins(InstData::SurfaceCas {
        ty: Type::I32,
        order: MemOrder::Relaxed,
        scope: Scope::Gpu,
        access,
        coords: [x].into_iter().collect(),
        expected: x,
        replacement: x,
    });
    b.ret(&[]);
    assert!(unsupported(&b.finish(), 50).contains("surface_cas.i32"));

    assert!(matches!(
        emit_ptx(
            &rmw_kernel(RmwOp::Add, Type::I32, MemOrder::Relaxed, Scope::Gpu, AddrSpace::Global),
            40
        ),
        Err(PtxError::BadTarget(40))
    ));
}

/// The SASS ptxas makes of our PTX shows the order and scope arrived (reference/sass.md §3.3):
/// sm_90 `.STRONG.SM|GPU|SYS`, `MEMBAR` before a release, `CCTL.IVALL` after an acquire; sm_50
/// `MEMBAR` on the matching side of the `ATOM`.
#[test]
fn orders_and_scopes_reach_the_sass() {
    use atomc_oracle::{cuobjdump_sass, disasm_instructions, ptxas, Sm};
    let cases: &[(Sm, MemOrder, Scope, &[&str])] = &[
        (Sm::Sm90, MemOrder::Relaxed, Scope::Gpu, &["ATOMG.E.ADD.STRONG.GPU"]),
        (Sm::Sm90, MemOrder::Relaxed, Scope::Cta, &["ATOMG.E.ADD.STRONG.SM"]),
        (Sm::Sm90, MemOrder::Relaxed, Scope::Sys, &["ATOMG.E.ADD.STRONG.SYS"]),
        (
            Sm::Sm90,
            MemOrder::Acquire,
            Scope::Gpu,
            &["ATOMG.E.ADD.STRONG.GPU", "CCTL.IVALL"],
        ),
        (
            Sm::Sm90,
            MemOrder::Release,
            Scope::Gpu,
            &["MEMBAR", "ATOMG.E.ADD.STRONG.GPU"],
        ),
        (
            Sm::Sm90,
            MemOrder::AcqRel,
            Scope::Sys,
            &["MEMBAR", "ATOMG.E.ADD.STRONG.SYS", "CCTL.IVALL"],
        ),
        (Sm::Sm50, MemOrder::Relaxed, Scope::Gpu, &["ATOM.E.ADD"]),
        (Sm::Sm50, MemOrder::Acquire, Scope::Gpu, &["ATOM.E.ADD", "MEMBAR"]),
        (Sm::Sm50, MemOrder::Release, Scope::Cta, &["MEMBAR", "ATOM.E.ADD"]),
    ];
    for &(sm, order, scope, expected) in cases {
        if !oracle::require_all(&[sm.ptxas_tool(), sm.cuobjdump_tool()]) {
            return;
        }
        let func = rmw_kernel(RmwOp::Add, Type::I32, order, scope, AddrSpace::Global);
        let ptx = emit_ptx(&func, sm.number()).expect("emits");
        let cubin = ptxas(sm, &ptx).expect("assembles");
        let listing = cuobjdump_sass(sm, &cubin).expect("dumps");
        let insts: Vec<String> = disasm_instructions(&listing).into_iter().map(|l| l.text).collect();
        // Each expected mnemonic appears, in the given order.
        let mut at = 0;
        for want in expected {
            match insts[at..].iter().position(|i| i.contains(want)) {
                Some(k) => at += k + 1,
                None => panic!(
                    "{sm} {order} {scope}: no `{want}` after position {at} in\n{}",
                    insts.join("\n")
                ),
            }
        }
    }
}
