//! Bad kernels for the `typed_atomic` and `lsc_atomic_<op>.slm` rules.

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
    let t = k.surface("SURF", 320);
    (k, t, [u, s, q])
}

fn coords(u: VarId) -> [Operand; 4] {
    [Operand::raw(u), Operand::null(), Operand::null(), Operand::null()]
}

pub(super) fn cases(v: &mut Vec<Case>) {
    {
        let (mut k, t, [u, s, _]) = kernel("typed16");
        let e = Exec::new(ExecSize::S16);
        k.typed_atomic(
            e,
            AtomicOp::Add,
            AtomicWidth::W32,
            t,
            coords(u),
            Operand::raw(s),
            Operand::null(),
            Operand::null(),
        );
        k.ret();
        v.push(Case {
            name: "typed_atomic at SIMD16",
            platform: Platform::Tgllp,
            rule: Rule::TypedMessage,
            genx: Genx::NotRun,
            k,
        });
    }
    {
        let (mut k, t, [u, _, q]) = kernel("typed64");
        let e = Exec::new(ExecSize::S8);
        k.typed_atomic(
            e,
            AtomicOp::Add,
            AtomicWidth::W64,
            t,
            coords(u),
            Operand::raw(q),
            Operand::null(),
            Operand::null(),
        );
        k.ret();
        v.push(Case {
            name: "typed_atomic.64",
            platform: Platform::Tgllp,
            rule: Rule::TypedMessage,
            genx: Genx::NotRun,
            k,
        });
    }
    {
        let (mut k, t, [_, s, _]) = kernel("typednou");
        let e = Exec::new(ExecSize::S8);
        let c = [Operand::null(); 4];
        k.typed_atomic(e, AtomicOp::Add, AtomicWidth::W32, t, c, Operand::raw(s), Operand::null(), Operand::null());
        k.ret();
        v.push(Case {
            name: "typed_atomic without u",
            platform: Platform::Tgllp,
            rule: Rule::TypedMessage,
            genx: Genx::NotRun,
            k,
        });
    }
    {
        let (mut k, _, [u, _, q]) = kernel("lsctgl");
        let e = Exec::new(ExecSize::S8);
        k.lsc_slm_atomic(
            e,
            AtomicOp::CmpXchg,
            AtomicWidth::W64,
            Operand::null(),
            Operand::raw(u),
            Operand::raw(q),
            Operand::raw(q),
        );
        k.ret();
        v.push(Case {
            name: "lsc icas on TGLLP",
            platform: Platform::Tgllp,
            rule: Rule::LscMessage,
            genx: Genx::Rejected,
            k,
        });
    }
    {
        let (mut k, _, [u, _, q]) = kernel("lscadd");
        let e = Exec::new(ExecSize::S8);
        k.lsc_slm_atomic(
            e,
            AtomicOp::Add,
            AtomicWidth::W64,
            Operand::null(),
            Operand::raw(u),
            Operand::raw(q),
            Operand::null(),
        );
        k.ret();
        v.push(Case {
            name: "lsc iadd d64 on SLM",
            platform: Platform::Dg2,
            rule: Rule::LscMessage,
            genx: Genx::Rejected,
            k,
        });
    }
    {
        let (mut k, _, [u, s, _]) = kernel("lscud");
        let e = Exec::new(ExecSize::S8);
        k.lsc_slm_atomic(
            e,
            AtomicOp::CmpXchg,
            AtomicWidth::W64,
            Operand::null(),
            Operand::raw(u),
            Operand::raw(s),
            Operand::raw(s),
        );
        k.ret();
        v.push(Case {
            name: "lsc icas d64 with ud data",
            platform: Platform::Dg2,
            rule: Rule::LscMessage,
            genx: Genx::NotRun,
            k,
        });
    }
}
