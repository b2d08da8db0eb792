//! The `svm_atomic` operand rules atomc enforces although GenX_IR would
//! accept the kernel (visa.md §4), shown on the lowering's own output:
//! every atomic of every vISA compile filetest (SIMD8, TGLLP) is mutated
//! in one way per rule; atomc's validator must refuse each mutant with
//! that rule, and GenX_IR is asked what it does with the mutant's text.
//! The table printed at the end is the evidence that the rule is atomc's
//! own: "silently" = GenX_IR exit 0 with no errors file and no diagnostic.

#[path = "visa_common/mod.rs"]
mod visa_common;

use atomc::{Target, VisaPlatform};
use atomc_oracle::{genx_ir, require, GenxInput, OracleError, Tool};
use atomc_emit::visa::validate::Rule;
use atomc_emit::visa::*;

/// A mutation: its name, the rule that must catch it, and the edit (None
/// when it does not apply to this atomic).
type Mutation = (&'static str, Rule, fn(&mut Kernel, usize) -> Option<()>);

fn ext(k: &Kernel, i: usize) -> (AtomicOp, AtomicWidth) {
    match k.insts[i].ext {
        Ext::Atomic(op, w) => (op, w),
        _ => unreachable!("an svm_atomic"),
    }
}

fn set_ext(k: &mut Kernel, i: usize, op: AtomicOp, w: AtomicWidth) {
    k.insts[i].ext = Ext::Atomic(op, w);
}

const MUTATIONS: &[Mutation] = &[
    ("src1 on a one-source op", Rule::AtomicSrc1, |k, i| {
        (ext(k, i).0.num_sources() == 1).then(|| k.insts[i].operands[2] = k.insts[i].operands[1])
    }),
    ("null src0 on a one-source op", Rule::AtomicSrc0, |k, i| {
        (ext(k, i).0.num_sources() >= 1).then(|| k.insts[i].operands[1] = Operand::null())
    }),
    ("src0 on inc/dec", Rule::AtomicSrc0, |k, i| {
        let dst = k.insts[i].operands[3];
        (ext(k, i).0.num_sources() == 0 && !dst.is_null()).then(|| k.insts[i].operands[1] = dst)
    }),
    ("cmpxchg without src1", Rule::AtomicSrc1, |k, i| {
        (ext(k, i).0.num_sources() == 2).then(|| k.insts[i].operands[2] = Operand::null())
    }),
    ("ud address", Rule::MsgAddress, |k, i| {
        let Operand::Raw { var: Some(a), offset } = k.insts[i].operands[0] else {
            return None;
        };
        let n = k.var(a)?.bytes() / 4;
        let v = k.alias(format!("mut_ud{i}"), Type::UD, n as u16, a, 0);
        k.insts[i].operands[0] = Operand::raw_at(v, offset);
        Some(())
    }),
    ("signed min on ud data", Rule::AtomicTypes, |k, i| {
        let (op, w) = ext(k, i);
        let ud = matches!(
            op,
            AtomicOp::Add | AtomicOp::Sub | AtomicOp::And | AtomicOp::Or | AtomicOp::Xor | AtomicOp::Xchg
        );
        ud.then(|| set_ext(k, i, AtomicOp::IMin, w))
    }),
    (".64 on 32-bit data", Rule::AtomicTypes, |k, i| {
        let (op, w) = ext(k, i);
        (w == AtomicWidth::W32 && !op.is_float() && op.num_sources() > 0).then(|| set_ext(k, i, op, AtomicWidth::W64))
    }),
    ("exec size 16", Rule::MsgExecSize, |k, i| {
        (!k.insts[i].exec.nomask).then(|| k.insts[i].exec.size = ExecSize::S16)
    }),
    ("mask M2 on SIMD8", Rule::ExecMask, |k, i| {
        (!k.insts[i].exec.nomask && k.insts[i].exec.size == ExecSize::S8).then(|| k.insts[i].exec.offset = 1)
    }),
    ("fadd on TGLLP", Rule::AtomicFaddPlatform, |k, i| {
        let (op, w) = ext(k, i);
        matches!(op, AtomicOp::FMin | AtomicOp::FMax).then(|| set_ext(k, i, AtomicOp::FAdd, w))
    }),
    (".64 float op", Rule::AtomicFloat64, |k, i| {
        let (op, _) = ext(k, i);
        matches!(op, AtomicOp::FMin | AtomicOp::FMax).then(|| set_ext(k, i, op, AtomicWidth::W64))
    }),
];

#[test]
fn mutated_lowering_outputs_are_refused_by_atomc() {
    let genx = require(Tool::GenXIR).is_some();
    // name, mutants, GenX_IR silent, GenX_IR diagnostic only, GenX_IR rejected
    let mut rows: Vec<(&str, Rule, usize, usize, usize, usize)> =
        MUTATIONS.iter().map(|(n, r, _)| (*n, *r, 0, 0, 0, 0)).collect();
    for (name, f) in visa_common::visa_filetest_kernels() {
        let Ok(k) = atomc::visa_kernel(&f, Target::Visa(VisaPlatform::Tgllp), &Default::default()) else {
            continue;
        };
        let atomics: Vec<usize> = (0..k.insts.len()).filter(|&i| k.insts[i].op == Op::SvmAtomic).collect();
        for &i in &atomics {
            for (m, (mname, rule, edit)) in MUTATIONS.iter().enumerate() {
                let mut mk = k.clone();
                if edit(&mut mk, i).is_none() {
                    continue;
                }
                let errs = validate(&mk, Platform::Tgllp).expect_err("a mutant must be refused");
                assert!(
                    errs.iter().any(|e| e.rule == *rule),
                    "{name} inst {i} `{mname}`: {errs:?}"
                );
                rows[m].2 += 1;
                if genx {
                    match genx_ir(GenxInput::Text(&mk.to_text()), "TGLLP") {
                        Ok(_) => rows[m].3 += 1,
                        Err(OracleError::GenxDiagnostics { .. }) => rows[m].4 += 1,
                        Err(_) => rows[m].5 += 1,
                    }
                }
            }
        }
    }
    // `.16` before TGLLP: the lowered TGLLP kernel, checked for ICLLP.
    let mut w16 = (0, 0, 0, 0);
    for (name, f) in visa_common::visa_filetest_kernels() {
        let Ok(k) = atomc::visa_kernel(&f, Target::Visa(VisaPlatform::Tgllp), &Default::default()) else {
            continue;
        };
        if !k
            .insts
            .iter()
            .any(|i| matches!(i.ext, Ext::Atomic(_, AtomicWidth::W16)))
        {
            continue;
        }
        let errs = validate(&k, Platform::Icllp).expect_err("`.16` is refused on ICLLP");
        assert!(
            errs.iter().any(|e| e.rule == Rule::Atomic16Platform),
            "{name}: {errs:?}"
        );
        w16.0 += 1;
        if genx {
            match genx_ir(GenxInput::Text(&k.to_text()), "ICLLP") {
                Ok(_) => w16.1 += 1,
                Err(OracleError::GenxDiagnostics { .. }) => w16.2 += 1,
                Err(_) => w16.3 += 1,
            }
        }
    }
    assert!(w16.0 > 0);
    println!("| mutation of a lowered svm_atomic | atomc rule | mutants (all refused by atomc) | GenX_IR: compiled silently | only a diagnostic | rejected |");
    println!("| --- | --- | --- | --- | --- | --- |");
    for (n, r, c, s, d, x) in &rows {
        println!("| {n} | {r:?} | {c} | {s} | {d} | {x} |");
        assert!(*c > 0, "no filetest atomic exercises `{n}`");
    }
    println!(
        "| `.16` kernel compiled for ICLLP | Atomic16Platform | {} | {} | {} | {} |",
        w16.0, w16.1, w16.2, w16.3
    );
}
