//! Kernels and kernel pieces shared by the vISA writer tests: the reference samples
//! (`visa_samples`) and the GenX_IR oracle kernels (`visa_oracle`) build the same CAS loops and
//! fenced atomics.

#![allow(dead_code)]

use atomc_visa::*;

/// `src0` and `src1` of an atomic `op`: `s0` and `s1` as far as `op` takes sources, `%null` for
/// the rest.
pub fn sources(op: AtomicOp, s0: Operand, s1: Operand) -> (Operand, Operand) {
    let n = op.num_sources();
    (if n >= 1 { s0 } else { Operand::null() }, if n == 2 { s1 } else { Operand::null() })
}

/// Declares an atomic's operands, `lanes` elements each: the address `addr` (of `addr_ty`), then
/// S0, S1 and D of `ty`.
pub fn atomic_vars(k: &mut Kernel, (addr, addr_ty): (&str, Type), ty: Type, lanes: u16) -> [VarId; 4] {
    let a = k.decl_simd(addr, addr_ty, lanes);
    let s0 = k.decl_simd("S0", ty, lanes);
    let s1 = k.decl_simd("S1", ty, lanes);
    let d = k.decl_simd("D", ty, lanes);
    [a, s0, s1, d]
}

/// The 32-bit per-lane CAS retry loop of visa.md §5 (float add through `cmpxchg`), SIMD `lanes`
/// wide: inputs A (uq) at 64 and VAL (f) after it; atomics go out in SIMD8 slices M1/M3/… with
/// raw offsets stepping one GRF of data. The kernel's SIMD size attribute is left unset.
pub fn cas32_loop(name: &str, lanes: u16) -> Kernel {
    let mut k = Kernel::new(name);
    let a = k.decl_simd("A", Type::UQ, lanes);
    let val = k.decl_simd("VAL", Type::F, lanes);
    let old = k.decl_simd("OLD", Type::F, lanes);
    let new = k.decl_simd("NEW", Type::F, lanes);
    let prev = k.decl_simd("PREV", Type::F, lanes);
    let oldu = k.alias("OLDu", Type::UD, lanes, old, 0);
    let newu = k.alias("NEWu", Type::UD, lanes, new, 0);
    let prevu = k.alias("PREVu", Type::UD, lanes, prev, 0);
    let res = k.decl_simd("RES", Type::F, lanes);
    let p1 = k.decl_pred("P1", lanes);
    let lp = k.label("LOOP");
    k.input(a, 64);
    k.input(val, 64 + 8 * lanes);
    let ew = Exec::new(ExecSize::from_lanes(lanes as u32).expect("simd width"));
    let l = lanes as u32;
    let w = AtomicWidth::W32;
    let (ra, null) = (Operand::raw(a), Operand::null());
    k.mov(ew, Operand::dst(newu), Operand::imm(Imm::ud(0)));
    k.svm_atomic_wide(l, AtomicOp::Or, w, ra, Operand::raw(oldu), Operand::raw(newu), null);
    k.place(lp);
    k.add(ew, Operand::dst(new), Operand::src(old), Operand::src(val));
    k.svm_atomic_wide(l, AtomicOp::CmpXchg, w, ra, Operand::raw(prevu), Operand::raw(newu), Operand::raw(oldu));
    k.cmp(ew, Relop::Ne, Operand::pred(p1), Operand::src(prevu), Operand::src(oldu));
    k.mov(ew, Operand::dst(old), Operand::src(prev));
    k.goto(ew, lp).predicated(Predicate::on(p1));
    k.mov(ew, Operand::dst(res), Operand::src(old));
    k.ret();
    k
}

/// How the 64-bit CAS loop makes its new value from OLD and VAL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum New64 {
    /// `xor` of the ud halves (SIMD16).
    Xor,
    /// A 64-bit add from the 32-bit halves with a carry (`addc`, `add`, `add`), through a CARRY
    /// variable.
    AddCarry,
}

/// The 64-bit CAS loop: `.64` atomics on uq (A, VAL, OLD, NEW, PREV, ZERO, 8 lanes; inputs A at
/// 64, VAL at 128), the compare on the ud halves with `swap` (`ne` then `or` and `(P1)`, `eq` then
/// `and` and `(!P1)`).
pub fn cas64_loop(name: &str, swap: Relop, new_value: New64) -> Kernel {
    let mut k = Kernel::new(name);
    let names = ["A", "VAL", "OLD", "NEW", "PREV", "ZERO"];
    let v: Vec<VarId> = names.iter().map(|n| k.decl_simd(*n, Type::UQ, 8)).collect();
    let (a, val, old, new, prev, zero) = (v[0], v[1], v[2], v[3], v[4], v[5]);
    let vald = k.alias("VALd", Type::UD, 16, val, 0);
    let oldd = k.alias("OLDd", Type::UD, 16, old, 0);
    let newd = k.alias("NEWd", Type::UD, 16, new, 0);
    let prevd = k.alias("PREVd", Type::UD, 16, prev, 0);
    let zerod = k.alias("ZEROd", Type::UD, 16, zero, 0);
    let carry = (new_value == New64::AddCarry).then(|| k.decl_simd("CARRY", Type::UD, 8));
    let p1 = k.decl_pred("P1", 8);
    let p2 = k.decl_pred("P2", 8);
    let lp = k.label("LOOP");
    k.input(a, 64);
    k.input(val, 128);
    let e8 = Exec::new(ExecSize::S8);
    let e16 = Exec::new(ExecSize::S16);
    let s2 = |var, col| Operand::src_at(var, 0, col, Region::STRIDE2);
    let d2 = |var, col| Operand::dst_at(var, 0, col, 2);
    let w = AtomicWidth::W64;
    k.mov(e16, Operand::dst(zerod), Operand::imm(Imm::ud(0)));
    k.svm_atomic(e8, AtomicOp::Or, w, Operand::raw(a), Operand::raw(old), Operand::raw(zero), Operand::null());
    k.place(lp);
    match carry {
        None => {
            k.binary(Op::Xor, e16, Operand::dst(newd), Operand::src(oldd), Operand::src(vald));
        }
        Some(carry) => {
            // new = old + val, 64-bit, from 32-bit halves with a carry.
            k.addc(e8, d2(newd, 0), Operand::dst(carry), s2(oldd, 0), s2(vald, 0));
            k.add(e8, d2(newd, 1), s2(oldd, 1), s2(vald, 1));
            k.add(e8, d2(newd, 1), s2(newd, 1), Operand::src(carry));
        }
    }
    k.svm_atomic(e8, AtomicOp::CmpXchg, w, Operand::raw(a), Operand::raw(prev), Operand::raw(new), Operand::raw(old));
    k.cmp(e8, swap, Operand::pred(p1), s2(prevd, 0), s2(oldd, 0));
    k.cmp(e8, swap, Operand::pred(p2), s2(prevd, 1), s2(oldd, 1));
    let combine = if swap == Relop::Ne { Op::Or } else { Op::And };
    k.binary(combine, e8, Operand::pred(p1), Operand::pred(p1), Operand::pred(p2));
    k.mov(e16, Operand::dst(oldd), Operand::src(prevd));
    let g = if swap == Relop::Ne { Predicate::on(p1) } else { Predicate::not(p1) };
    k.goto(e8, lp).predicated(g);
    k.ret();
    k
}

/// A SIMD8 `svm_atomic.add` of S (ud) at A with no result, between the fences `before` and
/// `after`: inputs A (uq) at 64, S at 128.
pub fn fenced_add(name: &str, before: Fence, after: Fence) -> Kernel {
    let mut k = Kernel::new(name);
    let a = k.decl_simd("A", Type::UQ, 8);
    let s = k.decl_simd("S", Type::UD, 8);
    k.input(a, 64);
    k.input(s, 128);
    k.fence(before);
    let (e8, null) = (Exec::new(ExecSize::S8), Operand::null());
    k.svm_atomic(e8, AtomicOp::Add, AtomicWidth::W32, Operand::raw(a), null, Operand::raw(s), null);
    k.fence(after);
    k.ret();
    k
}
