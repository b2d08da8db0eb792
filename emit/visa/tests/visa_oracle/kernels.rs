//! Kernels for the oracle tests, built with the model.

use crate::visa_common::{atomic_vars, cas32_loop, cas64_loop, fenced_add, sources, New64};
use atomc_visa::*;

/// How the atomic is issued.
#[derive(Clone, Copy, Debug)]
pub enum Form {
    Plain,
    Pred,
    PredNot,
    PredAny,
    PredAll,
    NullDst,
    NoMask,
    M5,
}

fn width_name(w: AtomicWidth) -> &'static str {
    match w {
        AtomicWidth::W16 => "16",
        AtomicWidth::W32 => "32",
        AtomicWidth::W64 => "64",
    }
}

/// One `svm_atomic` with inputs A (8 × uq) @64, S0 @128, S1 @192, C (8 × ud,
/// the guard's compare source) @256.
pub fn atomic(op: AtomicOp, w: AtomicWidth, exec: Exec, form: Form) -> Kernel {
    let name = format!("at_{op:?}_{}_{}_{form:?}", width_name(w), exec.size.lanes()).to_lowercase();
    let mut k = Kernel::new(name);
    let ty = svm_data_type(op, w);
    let [a, s0, s1, d] = atomic_vars(&mut k, ("A", Type::UQ), ty, 8);
    let c = k.decl_simd("C", Type::UD, 8);
    k.input(a, 64);
    k.input(s0, 128);
    k.input(s1, 192);
    k.input(c, 256);
    let guard: Option<fn(PredId) -> Predicate> = match form {
        Form::Pred => Some(Predicate::on),
        Form::PredNot => Some(Predicate::not),
        Form::PredAny => Some(Predicate::any),
        Form::PredAll => Some(Predicate::all),
        _ => None,
    };
    let exec = match form {
        Form::NoMask => Exec {
            nomask: true,
            ..exec
        },
        Form::M5 => Exec { offset: 4, ..exec },
        _ => exec,
    };
    let p = guard.map(|_| k.decl_pred("P1", 8));
    if let Some(p) = p {
        let e = Exec {
            nomask: false,
            offset: 0,
            ..exec
        };
        k.cmp(
            e,
            Relop::Lt,
            Operand::pred(p),
            Operand::src(c),
            Operand::imm(Imm::ud(10)),
        );
    }
    let (src0, src1) = sources(op, Operand::raw(s0), Operand::raw(s1));
    let dst = if matches!(form, Form::NullDst) {
        Operand::null()
    } else {
        Operand::raw(d)
    };
    let i = k.svm_atomic(exec, op, w, Operand::raw(a), dst, src0, src1);
    if let (Some(g), Some(p)) = (guard, p) {
        i.predicated(g(p));
    }
    k.ret();
    k
}

/// A SIMD16/32 atomic issued through [`Kernel::svm_atomic_wide`] as SIMD8
/// slices M1/M3/M5/M7 with stepped raw offsets.
pub fn atomic_wide(op: AtomicOp, w: AtomicWidth, lanes: u16) -> Kernel {
    let name = format!("atw_{op:?}_{}_{lanes}", width_name(w)).to_lowercase();
    let mut k = Kernel::new(name);
    k.simd_size = Some(lanes as u8);
    let ty = svm_data_type(op, w);
    let [a, s0, s1, d] = atomic_vars(&mut k, ("A", Type::UQ), ty, lanes);
    k.input(a, 64);
    let (src0, src1) = sources(op, Operand::raw(s0), Operand::raw(s1));
    k.svm_atomic_wide(lanes as u32, op, w, Operand::raw(a), Operand::raw(d), src0, src1);
    k.ret();
    k
}

/// Every op (but predec, which has no text form) × width × exec size 1/2/4/8
/// × {plain, predicated, %null dst}, at SIMD8 also `!P`, `.any`, `.all`,
/// NoMask and M5, and SIMD16/32 through SIMD8 slices.
pub fn atomic_matrix() -> Vec<Kernel> {
    let mut v = Vec::new();
    for op in AtomicOp::ALL {
        if op == AtomicOp::PreDec {
            continue;
        }
        for w in [AtomicWidth::W16, AtomicWidth::W32, AtomicWidth::W64] {
            for size in [ExecSize::S1, ExecSize::S2, ExecSize::S4, ExecSize::S8] {
                for form in [Form::Plain, Form::Pred, Form::NullDst] {
                    v.push(atomic(op, w, Exec::new(size), form));
                }
            }
            for form in [
                Form::PredNot,
                Form::PredAny,
                Form::PredAll,
                Form::NoMask,
                Form::M5,
            ] {
                v.push(atomic(op, w, Exec::new(ExecSize::S8), form));
            }
            v.push(atomic_wide(op, w, 16));
            v.push(atomic_wide(op, w, 32));
        }
    }
    v
}

/// The 32-bit per-lane CAS retry loop of visa.md §5 (float add through
/// `cmpxchg`), SIMD `lanes` wide: atomics go out in SIMD8 slices M1/M3/…
/// with raw offsets stepping one GRF of data.
fn cas32(lanes: u16) -> Kernel {
    let mut k = cas32_loop(&format!("cas32_simd{lanes}"), lanes);
    k.simd_size = Some(lanes as u8);
    k
}

/// The 64-bit loop: `.64` atomics on uq, the compare on the ud halves, the
/// new value added with a carry.
fn cas64(swap: Relop) -> Kernel {
    cas64_loop(&format!("cas64_{}", swap.name()), swap, New64::AddCarry)
}

/// CAS loops: 32-bit at SIMD8/16/32, 64-bit with `cmp.ne`+`or` and with
/// `cmp.eq`+`and`+`(!P)`.
pub fn cas_loops(_p: Platform) -> Vec<Kernel> {
    vec![
        cas32(8),
        cas32(16),
        cas32(32),
        cas64(Relop::Ne),
        cas64(Relop::Eq),
    ]
}

/// A kernel frame for ALU tests: inputs X (ud), Y (d), F (f) at 64/128/192
/// (8 lanes each), plus locals of every type; `body` adds the code.
fn frame(name: &str, body: impl FnOnce(&mut Kernel, &Vars)) -> Kernel {
    let mut k = Kernel::new(name);
    let v = Vars {
        x: k.decl_simd("X", Type::UD, 8),
        y: k.decl_simd("Y", Type::D, 8),
        f: k.decl_simd("F", Type::F, 8),
        u: k.decl_simd("U", Type::UD, 8),
        i: k.decl_simd("I", Type::D, 8),
        g: k.decl_simd("G", Type::F, 8),
        w: k.decl_simd("W", Type::UW, 16),
        h: k.decl_simd("H", Type::HF, 16),
        q: k.decl_simd("Q", Type::UQ, 8),
        sq: k.decl_simd("SQ", Type::Q, 8),
        df: k.decl_simd("DF", Type::DF, 8),
        p1: k.decl_pred("P1", 16),
        p2: k.decl_pred("P2", 16),
    };
    k.input(v.x, 64);
    k.input(v.y, 128);
    k.input(v.f, 192);
    body(&mut k, &v);
    k.ret();
    k
}

/// The variables of [`frame`].
pub struct Vars {
    pub x: VarId,
    pub y: VarId,
    pub f: VarId,
    pub u: VarId,
    pub i: VarId,
    pub g: VarId,
    pub w: VarId,
    pub h: VarId,
    pub q: VarId,
    pub sq: VarId,
    pub df: VarId,
    pub p1: PredId,
    pub p2: PredId,
}

/// One small kernel per instruction form.
pub fn alu_tour(p: Platform) -> Vec<Kernel> {
    use Operand as O;
    let e8 = Exec::new(ExecSize::S8);
    let e1 = Exec::nomask(ExecSize::S1);
    let src = O::src;
    let dst = O::dst;
    let mut v = Vec::new();
    let mut add = |name: &str, f: &dyn Fn(&mut Kernel, &Vars)| v.push(frame(name, f));

    add("int_arith", &|k, v| {
        k.add(e8, dst(v.u), src(v.x), O::imm(Imm::ud(5)));
        k.add(e8, dst(v.i), src(v.y), src(v.y).with_mod(SrcMod::Neg));
        k.mul(e8, dst(v.u), src(v.u), src(v.x));
        k.mad(e8, dst(v.i), src(v.i), src(v.y), O::imm(Imm::d(-3)));
        k.add(
            e8,
            dst(v.i),
            O::src(v.y).with_mod(SrcMod::Abs),
            O::scalar(v.i),
        );
    });
    // Integer divide: GenX_IR 1.0.12504 makes `math.iqot`/`math.irem` on Gen12LP and refuses
    // it past that ("int divide/remainder is not supported for this platform").
    if p.has_int_divide() {
        add("int_divide", &|k, v| {
            k.binary(Op::Div, e8, dst(v.u), src(v.x), src(v.u));
            k.binary(Op::Mod, e8, dst(v.i), src(v.y), src(v.i));
        });
    }
    // The IEEE divide macro: GenX_IR 1.0.12504 expands it to math.invm and a madm chain on PVC
    // and refuses it on TGLLP and DG2 ("IEEE instruction divm is not supported on TGLLP platform").
    if p.has_ieee_divide() {
        add("ieee_divide", &|k, v| {
            k.binary(Op::Divm, e8, dst(v.g), src(v.f), src(v.g));
            k.binary(Op::Divm, e8, dst(v.df), src(v.df), src(v.df));
        });
    }
    add("carry", &|k, v| {
        k.addc(e8, dst(v.u), dst(v.x), src(v.x), src(v.u));
        k.subb(e8, dst(v.u), dst(v.x), src(v.x), O::imm(Imm::ud(1)));
    });
    add("logic", &|k, v| {
        for op in [Op::And, Op::Or, Op::Xor, Op::Shl, Op::Shr] {
            k.binary(op, e8, dst(v.u), src(v.x), O::imm(Imm::ud(3)));
        }
        k.binary(Op::Asr, e8, dst(v.i), src(v.y), O::imm(Imm::d(2)));
        k.unary(Op::Not, e8, dst(v.u), src(v.x));
        k.binary(
            Op::And,
            e8,
            dst(v.u),
            src(v.x),
            src(v.u).with_mod(SrcMod::Not),
        );
    });
    // The bit and multiply-high ops, and a predicate's lane bits copied into a scalar (the
    // subgroup lowering's lane masks).
    add("bits", &|k, v| {
        for op in [Op::Lzd, Op::Cbit, Op::Fbl, Op::Bfrev] {
            k.unary(op, e8, dst(v.u), src(v.x));
        }
        let bfe = Inst::new(Op::Bfe, e8, Ext::None, vec![dst(v.i), O::imm(Imm::ud(5)), src(v.x), src(v.y)]);
        k.push(bfe);
        let bfi = Inst::new(Op::Bfi, e8, Ext::None, vec![dst(v.u), src(v.x), O::imm(Imm::ud(3)), src(v.u), src(v.x)]);
        k.push(bfi);
        k.binary(Op::Mulh, e8, dst(v.u), src(v.x), src(v.u));
        k.binary(Op::Mulh, e8, dst(v.i), src(v.y), src(v.i));
        k.setp(Exec::nomask(ExecSize::S8), v.p1, O::imm(Imm::uw(0)));
        k.cmp(e8, Relop::Ne, O::pred(v.p1), src(v.x), O::imm(Imm::ud(0)));
        k.mov(e1, O::dst_at(v.u, 0, 0, 1), O::pred(v.p1));
    });
    add("minmax", &|k, v| {
        k.binary(Op::Min, e8, dst(v.u), src(v.x), src(v.u));
        k.binary(Op::Max, e8, dst(v.i), src(v.y), O::imm(Imm::d(-1)));
        k.binary(Op::Min, e8, dst(v.g), src(v.f), O::imm(Imm::f(0.5)));
        k.binary(Op::Max, e8, dst(v.g), src(v.f), src(v.g));
    });
    add("float_math", &|k, v| {
        k.add(e8, dst(v.g), src(v.f), O::imm(Imm::f(1.5)));
        k.mul(e8, dst(v.g), src(v.g), src(v.f).with_mod(SrcMod::NegAbs));
        k.mad(e8, dst(v.g), src(v.g), src(v.f), src(v.g));
        k.unary(Op::Inv, e8, dst(v.g), src(v.g));
        k.add(e8, dst(v.g), src(v.g), O::imm(Imm::f(0.0)))
            .saturate();
    });
    add("half_math", &|k, v| {
        let e16 = Exec::new(ExecSize::S16);
        k.mov(e16, dst(v.h), O::imm(Imm::hf_bits(0x3c00)));
        k.add(e16, dst(v.h), src(v.h), src(v.h));
        k.mul(e16, dst(v.h), src(v.h), O::imm(Imm::hf_bits(0x4000)));
        k.mad(e16, dst(v.h), src(v.h), src(v.h), src(v.h));
    });
    add("convert", &|k, v| {
        k.mov(e8, dst(v.g), src(v.x)); // ud -> f
        k.mov(e8, dst(v.i), src(v.f)); // f -> d
        k.mov(e8, dst(v.u), src(v.y)); // d -> ud
        k.mov(Exec::new(ExecSize::S16), dst(v.w), O::imm(Imm::uw(7)));
        k.mov(
            e8,
            dst(v.u),
            O::src_at(
                v.w,
                0,
                0,
                Region {
                    vstride: 2,
                    width: 1,
                    hstride: 0,
                },
            ),
        ); // uw -> ud
        k.mov(e8, O::dst_at(v.w, 0, 0, 2), src(v.x)); // ud -> uw
        k.mov(e8, dst(v.h), src(v.f)); // f -> hf
        k.mov(e8, dst(v.g), src(v.h)); // hf -> f
        k.mov(e1, O::dst_at(v.u, 0, 3, 1), O::imm(Imm::ud(9)));
    });
    add("wide64", &|k, v| {
        k.mov(e8, dst(v.q), O::imm(Imm::uq(0x1_0000_0001)));
        k.add(e8, dst(v.q), src(v.q), O::imm(Imm::uq(3)));
        k.mov(e8, dst(v.sq), src(v.y));
        k.mov(e8, dst(v.df), src(v.f));
        k.mul(e8, dst(v.df), src(v.df), O::imm(Imm::df(2.0)));
        k.mov(e8, dst(v.g), src(v.df));
    });
    add("copy64", &|k, v| {
        k.mov(e8, dst(v.q), O::imm(Imm::uq(0x1_0000_0001)));
        k.mov(e8, dst(v.sq), src(v.q));
    });
    add("compare_select", &|k, v| {
        for r in [Relop::Eq, Relop::Ne, Relop::Gt, Relop::Ge, Relop::Lt, Relop::Le] {
            k.cmp(e8, r, O::pred(v.p1), src(v.x), O::imm(Imm::ud(4)));
        }
        k.cmp(e8, Relop::Lt, O::pred(v.p2), src(v.f), O::imm(Imm::f(1.0)));
        k.cmp(e8, Relop::Gt, dst(v.u), src(v.x), src(v.u));
        k.binary(Op::Sel, e8, dst(v.u), src(v.x), src(v.u))
            .predicated(Predicate::on(v.p1));
        k.binary(Op::Sel, e8, dst(v.g), src(v.f), O::imm(Imm::f(-2.0)))
            .predicated(Predicate::not(v.p2));
        k.setp(Exec::nomask(ExecSize::S16), v.p1, O::imm(Imm::uw(0xff0f)));
        k.binary(Op::Xor, e8, O::pred(v.p1), O::pred(v.p1), O::pred(v.p2));
        k.unary(Op::Not, e8, O::pred(v.p2), O::pred(v.p1));
        k.add(e8, dst(v.u), src(v.u), O::imm(Imm::ud(1)))
            .predicated(Predicate::on(v.p2));
    });
    add("branches", &|k, v| {
        let skip = k.label("SKIP");
        let fwd = k.label("FWD");
        let back = k.label("BACK");
        k.cmp(e8, Relop::Eq, O::pred(v.p1), src(v.x), O::imm(Imm::ud(0)));
        k.jmp(Exec::new(ExecSize::S1), skip)
            .predicated(Predicate::all(v.p1));
        k.add(e8, dst(v.u), src(v.x), O::imm(Imm::ud(1)));
        k.place(skip);
        k.goto(e8, fwd).predicated(Predicate::on(v.p1));
        k.add(e8, dst(v.u), src(v.u), O::imm(Imm::ud(2)));
        k.place(fwd);
        k.place(back);
        k.add(e8, dst(v.u), src(v.u), O::imm(Imm::ud(1)));
        k.cmp(e8, Relop::Lt, O::pred(v.p2), src(v.u), O::imm(Imm::ud(8)));
        k.goto(e8, back).predicated(Predicate::on(v.p2));
        k.jmp(Exec::new(ExecSize::S1), skip)
            .predicated(Predicate::any(v.p2));
    });
    v
}

/// `svm_gather`/`svm_scatter` at every block shape, SIMD8 and 16, and the
/// fence forms.
pub fn memory() -> Vec<Kernel> {
    let mut v = Vec::new();
    for (bytes, ty) in [(1u8, Type::UD), (4, Type::UD), (8, Type::UQ)] {
        for num in [1u8, 2, 4, 8] {
            for lanes in [8u16, 16] {
                let mut k = Kernel::new(format!("gs_{bytes}x{num}_simd{lanes}"));
                k.simd_size = Some(lanes as u8);
                let elt = if bytes == 8 { 8 } else { 4 };
                let per_lane = elt * num as u16 / ty.size() as u16;
                let a = k.decl_simd("A", Type::UQ, lanes);
                let d = k.decl_simd("D", ty, lanes * per_lane);
                k.input(a, 64);
                let e = Exec::new(ExecSize::from_lanes(lanes as u32).expect("lanes"));
                let b = Blocks {
                    block_bytes: bytes,
                    num_blocks: num,
                };
                k.svm_gather(e, b, Operand::raw(a), Operand::raw(d));
                k.svm_scatter(e, b, Operand::raw(a), Operand::raw(d));
                k.ret();
                v.push(k);
            }
        }
    }
    let fences = [
        Fence::default(),
        Fence { commit: true, ..Fence::default() },
        Fence { local: true, ..Fence::default() },
        Fence { local: true, commit: true, ..Fence::default() },
        Fence { commit: true, rw: true, ..Fence::default() },
        Fence { constant: true, sampler: true, ..Fence::default() },
        Fence { icache: true, ..Fence::default() },
        Fence { rw: true, ..Fence::default() },
        Fence { commit: true, icache: true, sampler: true, constant: true, rw: true, l1: true, local: false },
        Fence { l1: true, ..Fence::default() },
    ];
    for (i, f) in fences.into_iter().enumerate() {
        v.push(fenced_add(&format!("fence{i}"), f, f));
    }
    v
}
