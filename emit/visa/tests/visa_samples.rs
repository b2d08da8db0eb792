//! Byte-for-byte check of the `.isa` writer against the reference samples
//! (`filetests/visa-data/samples/`, copied from the project's vISA reference:
//! each `.isa` is a binary GenX_IR's reader accepts and compiles to the same
//! Gen code as the `.visaasm` beside it). Each kernel is rebuilt here with
//! the model from what its `.visaasm` says; our bytes must equal the file.

mod visa_common;

use std::path::PathBuf;

use atomc_visa::*;
use visa_common::{atomic_vars, cas32_loop, cas64_loop, fenced_add, sources, New64};

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../filetests/visa-data/samples")
        .join(name)
}

fn e8() -> Exec {
    Exec::new(ExecSize::S8)
}

/// The shape shared by the ops32/widths/exec samples: inputs A (8 × uq) at
/// 64, S0 at 128 and S1 at 256 (8 elements of `ty`), a result D, one
/// `svm_atomic`, `ret`.
struct Std {
    name: &'static str,
    ty: Type,
    op: AtomicOp,
    width: AtomicWidth,
    exec: Exec,
    dst_null: bool,
    guard: Option<fn(PredId) -> Predicate>,
}

fn std_kernel(s: &Std) -> Kernel {
    let mut k = Kernel::new(s.name);
    let [a, s0, s1, d] = atomic_vars(&mut k, ("A", Type::UQ), s.ty, 8);
    let p = s.guard.map(|_| k.decl_pred("P1", 8));
    k.input(a, 64);
    k.input(s0, 128);
    k.input(s1, 256);
    if let Some(p) = p {
        k.cmp(e8(), Relop::Lt, Operand::pred(p), Operand::src(s0), Operand::imm(Imm::ud(10)));
    }
    let (src0, src1) = sources(s.op, Operand::raw(s0), Operand::raw(s1));
    let dst = if s.dst_null { Operand::null() } else { Operand::raw(d) };
    let i = k.svm_atomic(s.exec, s.op, s.width, Operand::raw(a), dst, src0, src1);
    if let (Some(g), Some(p)) = (s.guard, p) {
        i.predicated(g(p));
    }
    k.ret();
    k
}

fn std_cases() -> Vec<Std> {
    use AtomicOp::*;
    use AtomicWidth::*;
    let base = |name, ty, op, width| Std {
        name,
        ty,
        op,
        width,
        exec: e8(),
        dst_null: false,
        guard: None,
    };
    let mut v = vec![
        base("a32_add", Type::UD, Add, W32),
        base("a32_sub", Type::UD, Sub, W32),
        base("a32_inc", Type::UD, Inc, W32),
        base("a32_dec", Type::UD, Dec, W32),
        base("a32_min", Type::UD, Min, W32),
        base("a32_max", Type::UD, Max, W32),
        base("a32_xchg", Type::UD, Xchg, W32),
        base("a32_cmpxchg", Type::UD, CmpXchg, W32),
        base("a32_and", Type::UD, And, W32),
        base("a32_or", Type::UD, Or, W32),
        base("a32_xor", Type::UD, Xor, W32),
        base("a32_imin", Type::D, IMin, W32),
        base("a32_imax", Type::D, IMax, W32),
        base("a32_fmax", Type::F, FMax, W32),
        base("a32_fmin", Type::F, FMin, W32),
        base("a32_fcmpwr", Type::F, FCmpWr, W32),
        base("a32_fadd", Type::F, FAdd, W32),
        base("a32_fsub", Type::F, FSub, W32),
        base("a16_add", Type::UD, Add, W16),
        base("a16_inc", Type::UD, Inc, W16),
        base("a16_xchg", Type::UD, Xchg, W16),
        base("a16_cmpxchg", Type::UD, CmpXchg, W16),
        base("a16_imin", Type::D, IMin, W16),
        base("a16_fmin", Type::F, FMin, W16),
        base("a16_fcmpwr", Type::F, FCmpWr, W16),
        base("a64_add", Type::UQ, Add, W64),
        base("a64_inc", Type::UQ, Inc, W64),
        base("a64_xchg", Type::UQ, Xchg, W64),
        base("a64_cmpxchg", Type::UQ, CmpXchg, W64),
        base("a64_imin", Type::Q, IMin, W64),
        base("a64_fmin", Type::DF, FMin, W64),
        base("a64_fcmpwr", Type::DF, FCmpWr, W64),
    ];
    // `add` (32-bit, ud) at other exec sizes and masks, then guarded.
    for (name, exec) in [
        ("exec1", Exec::new(ExecSize::S1)),
        ("exec2", Exec::new(ExecSize::S2)),
        ("exec4", Exec::new(ExecSize::S4)),
        ("exec8", Exec::new(ExecSize::S8)),
        ("nomask1", Exec::nomask(ExecSize::S1)),
        ("nomask8", Exec::nomask(ExecSize::S8)),
        ("mask_M5", Exec::at(ExecSize::S8, 4)),
    ] {
        v.push(Std { exec, ..base(name, Type::UD, Add, W32) });
    }
    let guards: [(_, fn(PredId) -> Predicate); 4] = [
        ("pred", Predicate::on),
        ("pred_not", Predicate::not),
        ("pred_any", Predicate::any),
        ("pred_all", Predicate::all),
    ];
    for (name, guard) in guards {
        v.push(Std { guard: Some(guard), ..base(name, Type::UD, Add, W32) });
    }
    // Results to %null.
    for (name, ty, op, width) in [
        ("dstnull_add", Type::UD, Add, W32),
        ("dstnull_inc", Type::UD, Inc, W32),
        ("dstnull_cmpxchg64", Type::UQ, CmpXchg, W64),
    ] {
        v.push(Std { dst_null: true, ..base(name, ty, op, width) });
    }
    v
}

/// `misc.visaasm`: setp, cmp into a predicate and into a variable, and/not
/// on predicates, sel, predicated mov of a float immediate, 64-bit add with
/// a uq immediate, a `.any` jmp, a label, an atomic with a %null dst.
fn misc() -> Kernel {
    let mut k = Kernel::new("misc");
    let a = k.decl_simd("A", Type::UQ, 8);
    let x = k.decl_simd("X", Type::UD, 8);
    let y = k.decl_simd("Y", Type::D, 8);
    let f = k.decl_simd("F", Type::F, 8);
    let q = k.decl_simd("Q", Type::UQ, 8);
    let p1 = k.decl_pred("P1", 8);
    let p2 = k.decl_pred("P2", 8);
    let l1 = k.label("L1");
    k.input(a, 64);
    k.input(x, 128);
    k.setp(Exec::nomask(ExecSize::S8), p1, Operand::imm(Imm::uw(0xf0)));
    k.cmp(e8(), Relop::Ge, Operand::pred(p2), Operand::src(x), Operand::imm(Imm::ud(3)));
    k.binary(Op::And, e8(), Operand::pred(p1), Operand::pred(p1), Operand::pred(p2));
    k.unary(Op::Not, e8(), Operand::pred(p2), Operand::pred(p1));
    k.binary(Op::Sel, e8(), Operand::dst(y), Operand::src(x), Operand::imm(Imm::d(-7)))
    .predicated(Predicate::on(p1));
    k.mov(e8(), Operand::dst(f), Operand::imm(Imm::f(2.5)))
        .predicated(Predicate::not(p2));
    k.add(
        Exec::nomask(ExecSize::S8),
        Operand::dst(q),
        Operand::src(a),
        Operand::imm(Imm::uq(0x1_0000_0000)),
    );
    k.cmp(e8(), Relop::Eq, Operand::dst(x), Operand::src(x), Operand::imm(Imm::ud(1)));
    k.jmp(Exec::new(ExecSize::S1), l1)
        .predicated(Predicate::any(p2));
    k.add(e8(), Operand::dst(x), Operand::src(x), Operand::imm(Imm::ud(1)));
    k.place(l1);
    let null = Operand::null();
    k.svm_atomic(e8(), AtomicOp::Xchg, AtomicWidth::W32, Operand::raw(a), null, Operand::raw(x), null);
    k.ret();
    k
}

/// `fk.visaasm`: fences around an atomic.
fn fk() -> Kernel {
    let commit = Fence { commit: true, ..Fence::default() };
    fenced_add("fk", Fence::default(), commit)
}

/// `cas_f32_add.visaasm`: float add through a 32-bit CAS retry loop (SIMD8).
fn cas_f32_add() -> Kernel {
    cas32_loop("cas_f32_add", 8)
}

/// `cas_u64.visaasm`: 64-bit CAS loop with the compare on ud halves.
fn cas_u64() -> Kernel {
    cas64_loop("cas_u64", Relop::Ne, New64::Xor)
}

fn all_samples() -> Vec<Kernel> {
    let mut v: Vec<Kernel> = std_cases().iter().map(std_kernel).collect();
    v.extend([misc(), fk(), cas_f32_add(), cas_u64()]);
    v
}

#[test]
fn isa_writer_matches_reference_samples_byte_for_byte() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for k in all_samples() {
        let want = std::fs::read(data(&format!("{}.isa", k.name))).expect("sample file");
        let got = k.to_isa();
        checked += 1;
        if got != want {
            let at = got
                .iter()
                .zip(&want)
                .position(|(a, b)| a != b)
                .unwrap_or(got.len().min(want.len()));
            failures.push(format!(
                "{}: first difference at byte {at:#x} (ours {} B, sample {} B)",
                k.name,
                got.len(),
                want.len()
            ));
        }
    }
    println!(
        "visa samples: {checked} .isa files compared byte for byte, {} failures",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The samples' own text, modulo our fixed `.version` and the order of the
/// header lines, must be what our text writer prints.
#[test]
fn text_writer_matches_reference_samples() {
    let norm = |s: &str| {
        let mut lines: Vec<String> = s
            .lines()
            .filter(|l| {
                !l.trim_start().starts_with("//")
                    && !l.starts_with(".version")
                    && !l.trim().is_empty()
            })
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect();
        // Directives may come in any order; instructions keep theirs.
        let split = lines
            .iter()
            .position(|l| !l.starts_with('.'))
            .unwrap_or(lines.len());
        lines[..split].sort();
        lines
    };
    let mut failures = Vec::new();
    let mut checked = 0;
    for k in all_samples() {
        let want =
            std::fs::read_to_string(data(&format!("{}.visaasm", k.name))).expect("sample text");
        // We spell immediates by their bits (see `text::write_imm`); the
        // misc sample spells two of them in decimal.
        let want = want
            .replace("-0x7:d", "-7:d")
            .replace("2.5:f", "0x40200000:f");
        checked += 1;
        if norm(&k.to_text()) != norm(&want) {
            failures.push(format!(
                "{}:\n--- ours\n{}--- sample\n{}",
                k.name,
                k.to_text(),
                want
            ));
        }
    }
    println!(
        "visa samples: {checked} .visaasm texts compared, {} failures",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The reader (driven by the same opcode table) decodes every sample into
/// the kernel its text describes.
#[test]
fn reader_decodes_the_samples() {
    for k in all_samples() {
        let bytes = std::fs::read(data(&format!("{}.isa", k.name))).expect("sample file");
        let back =
            atomc_visa::reader::read(&bytes).unwrap_or_else(|e| panic!("{}: {e}", k.name));
        assert_eq!(back, k, "{}", k.name);
    }
}
