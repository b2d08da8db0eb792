//! Bad kernels for the `typed_atomic`, `gather4_typed`/`scatter4_typed`, `lsc_atomic_<op>.slm`
//! and `movs`/`%bss` rules.

use super::{Case, Genx};
use atomc_visa::validate::Rule;
use atomc_visa::*;

/// A kernel with a surface argument and SIMD16 `ud`/`uq` operands.
fn kernel(name: &str) -> (Kernel, SurfId, [VarId; 3]) {
    let mut k = Kernel::new(name);
    let u = k.decl_simd("U", Type::UD, 16);
    let s = k.decl_simd("S", Type::UD, 16);
    let q = k.decl_simd("Q", Type::UQ, 16);
    k.input(u, 64);
    k.input(s, 128);
    k.input(q, 192);
    let h = k.decl("H", Type::UD, 1, Align::Dword);
    let w = k.decl("HW", Type::UW, 2, Align::Dword);
    k.input(h, 324);
    k.input(w, 328);
    let t = k.surface("SURF", 320);
    (k, t, [u, s, q])
}

/// The case `name`: kernel `kernel_name` with `body` in it, which `platform` must refuse
/// under `rule`.
fn case(
    name: &'static str,
    kernel_name: &str,
    (platform, rule, genx): (Platform, Rule, Genx),
    body: impl FnOnce(&mut Kernel, SurfId, [VarId; 3]),
) -> Case {
    let (mut k, t, vars) = kernel(kernel_name);
    body(&mut k, t, vars);
    k.ret();
    Case { name, platform, rule, genx, k }
}

/// `typed_atomic.add` of `data` at `coords`, at `size`.
fn typed(k: &mut Kernel, size: ExecSize, width: AtomicWidth, t: impl Into<Surf>, coords: [Operand; 4], data: VarId) {
    k.typed_atomic(
        Exec::new(size),
        AtomicOp::Add,
        width,
        t,
        coords,
        Operand::raw(data),
        Operand::null(),
        Operand::null(),
    );
}

/// A 64-bit `lsc_atomic_<op>.slm` at SIMD8 with address `u`.
fn lsc64(k: &mut Kernel, op: AtomicOp, u: VarId, src0: Operand, src1: Operand) {
    k.lsc_slm_atomic(Exec::new(ExecSize::S8), op, AtomicWidth::W64, Operand::null(), Operand::raw(u), src0, src1);
}

pub(super) fn cases(v: &mut Vec<Case>) {
    let at_u = |u: VarId| [Operand::raw(u), Operand::null(), Operand::null(), Operand::null()];
    let typed_rule = (Platform::Tgllp, Rule::TypedMessage, Genx::NotRun);
    v.push(case("typed_atomic at SIMD16", "typed16", typed_rule, |k, t, [u, s, _]| {
        typed(k, ExecSize::S16, AtomicWidth::W32, t, at_u(u), s)
    }));
    v.push(case("typed_atomic.64", "typed64", typed_rule, |k, t, [u, _, q]| {
        typed(k, ExecSize::S8, AtomicWidth::W64, t, at_u(u), q)
    }));
    v.push(case("typed_atomic without u", "typednou", typed_rule, |k, t, [_, s, _]| {
        typed(k, ExecSize::S8, AtomicWidth::W32, t, [Operand::null(); 4], s)
    }));
    // GenX_IR compiles it without a word, sending one of the two GRFs (visa_oracle.rs,
    // typed_write_payload_lengths).
    v.push(case(
        "scatter4_typed.RG on PVC",
        "scatterrg",
        (Platform::Pvc, Rule::TypedMessage, Genx::Silent),
        |k, t, [u, _, _]| {
            let d = k.decl_simd("D", Type::UD, 32);
            let uvrl = at_u(u);
            let e = Exec::new(ExecSize::S8);
            k.gather4_typed(e, Channels(0b11), t, uvrl, Operand::raw(d));
            k.scatter4_typed(e, Channels(0b11), t, uvrl, Operand::raw(d));
        },
    ));
    v.push(case("gather4_typed into too small a variable", "gathersmall", typed_rule, |k, t, [u, s, _]| {
        k.gather4_typed(Exec::new(ExecSize::S8), Channels(0b1111), t, at_u(u), Operand::raw(s));
    }));
    v.push(case(
        "lsc icas on TGLLP",
        "lsctgl",
        (Platform::Tgllp, Rule::LscMessage, Genx::Rejected),
        |k, _, [u, _, q]| lsc64(k, AtomicOp::CmpXchg, u, Operand::raw(q), Operand::raw(q)),
    ));
    v.push(case(
        "lsc iadd d64 on SLM",
        "lscadd",
        (Platform::Dg2, Rule::LscMessage, Genx::Rejected),
        |k, _, [u, _, q]| lsc64(k, AtomicOp::Add, u, Operand::raw(q), Operand::null()),
    ));
    v.push(case(
        "lsc icas d64 with ud data",
        "lscud",
        (Platform::Dg2, Rule::LscMessage, Genx::NotRun),
        |k, _, [u, s, _]| lsc64(k, AtomicOp::CmpXchg, u, Operand::raw(s), Operand::raw(s)),
    ));
    bindless(v);
}

/// `movs` to `%bss` and the messages on it: each breach compiles silently in GenX_IR 1.0.12504
/// (measured on TGLLP; [`Rule::Bindless`]).
fn bindless(v: &mut Vec<Case>) {
    let rule = (Platform::Tgllp, Rule::Bindless, Genx::Silent);
    let at_u = |u: VarId| [Operand::raw(u), Operand::null(), Operand::null(), Operand::null()];
    let h = |k: &Kernel| {
        let i = k.vars.iter().position(|d| d.name == "H").unwrap();
        Operand::scalar(VarId(i as u32))
    };
    let nm1 = Exec::nomask(ExecSize::S1);
    v.push(case("%bss message without movs", "bssunset", rule, |k, _, [u, s, _]| {
        typed(k, ExecSize::S8, AtomicWidth::W32, Surf::Bss, at_u(u), s)
    }));
    v.push(case("movs to %bss(1)", "bssoff", rule, |k, _, [u, s, _]| {
        let src = h(k);
        k.push(Inst::new(
            Op::Movs,
            nm1,
            Ext::None,
            vec![Operand::State { surface: Surf::Bss, offset: 1 }, src],
        ));
        typed(k, ExecSize::S8, AtomicWidth::W32, Surf::Bss, at_u(u), s)
    }));
    v.push(case("movs to a user surface", "bssuser", rule, |k, t, [u, s, _]| {
        let src = h(k);
        k.movs(nm1, t, src);
        typed(k, ExecSize::S8, AtomicWidth::W32, t, at_u(u), s)
    }));
    v.push(case("movs at SIMD8", "bss8", rule, |k, _, [u, s, _]| {
        k.movs(Exec::nomask(ExecSize::S8), Surf::Bss, Operand::src(u));
        typed(k, ExecSize::S8, AtomicWidth::W32, Surf::Bss, at_u(u), s)
    }));
    v.push(case("movs from a uw", "bssuw", rule, |k, _, [u, s, _]| {
        let i = k.vars.iter().position(|d| d.name == "HW").unwrap();
        k.movs(nm1, Surf::Bss, Operand::scalar(VarId(i as u32)));
        typed(k, ExecSize::S8, AtomicWidth::W32, Surf::Bss, at_u(u), s)
    }));
}
