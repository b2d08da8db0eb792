//! Byte-for-byte check of the `.isa` writer against the reference samples
//! (`filetests/visa-data/samples/`, copied from the project's vISA reference:
//! each `.isa` is a binary GenX_IR's reader accepts and compiles to the same
//! Gen code as the `.visaasm` beside it). Each kernel is rebuilt here with
//! the model from what its `.visaasm` says; our bytes must equal the file.

use std::path::PathBuf;

use atomc_visa::*;

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
    let a = k.decl_simd("A", Type::UQ, 8);
    let s0 = k.decl_simd("S0", s.ty, 8);
    let s1 = k.decl_simd("S1", s.ty, 8);
    let d = k.decl_simd("D", s.ty, 8);
    let p = s.guard.map(|_| k.decl_pred("P1", 8));
    k.input(a, 64);
    k.input(s0, 128);
    k.input(s1, 256);
    if let Some(p) = p {
        k.cmp(
            e8(),
            Relop::Lt,
            Operand::pred(p),
            Operand::src(s0),
            Operand::imm(Imm::ud(10)),
        );
    }
    let n = s.op.num_sources();
    let src0 = if n >= 1 {
        Operand::raw(s0)
    } else {
        Operand::null()
    };
    let src1 = if n == 2 {
        Operand::raw(s1)
    } else {
        Operand::null()
    };
    let dst = if s.dst_null {
        Operand::null()
    } else {
        Operand::raw(d)
    };
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
    for (name, size) in [
        ("exec1", ExecSize::S1),
        ("exec2", ExecSize::S2),
        ("exec4", ExecSize::S4),
        ("exec8", ExecSize::S8),
    ] {
        v.push(Std {
            exec: Exec::new(size),
            ..base(name, Type::UD, Add, W32)
        });
    }
    v.push(Std {
        exec: Exec::nomask(ExecSize::S1),
        ..base("nomask1", Type::UD, Add, W32)
    });
    v.push(Std {
        exec: Exec::nomask(ExecSize::S8),
        ..base("nomask8", Type::UD, Add, W32)
    });
    v.push(Std {
        exec: Exec::at(ExecSize::S8, 4),
        ..base("mask_M5", Type::UD, Add, W32)
    });
    v.push(Std {
        guard: Some(Predicate::on),
        ..base("pred", Type::UD, Add, W32)
    });
    v.push(Std {
        guard: Some(Predicate::not),
        ..base("pred_not", Type::UD, Add, W32)
    });
    v.push(Std {
        guard: Some(Predicate::any),
        ..base("pred_any", Type::UD, Add, W32)
    });
    v.push(Std {
        guard: Some(Predicate::all),
        ..base("pred_all", Type::UD, Add, W32)
    });
    v.push(Std {
        dst_null: true,
        ..base("dstnull_add", Type::UD, Add, W32)
    });
    v.push(Std {
        dst_null: true,
        ..base("dstnull_inc", Type::UD, Inc, W32)
    });
    v.push(Std {
        dst_null: true,
        ..base("dstnull_cmpxchg64", Type::UQ, CmpXchg, W64)
    });
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
    k.cmp(
        e8(),
        Relop::Ge,
        Operand::pred(p2),
        Operand::src(x),
        Operand::imm(Imm::ud(3)),
    );
    k.binary(
        Op::And,
        e8(),
        Operand::pred(p1),
        Operand::pred(p1),
        Operand::pred(p2),
    );
    k.unary(Op::Not, e8(), Operand::pred(p2), Operand::pred(p1));
    k.binary(
        Op::Sel,
        e8(),
        Operand::dst(y),
        Operand::src(x),
        Operand::imm(Imm::d(-7)),
    )
    .predicated(Predicate::on(p1));
    k.mov(e8(), Operand::dst(f), Operand::imm(Imm::f(2.5)))
        .predicated(Predicate::not(p2));
    k.add(
        Exec::nomask(ExecSize::S8),
        Operand::dst(q),
        Operand::src(a),
        Operand::imm(Imm::uq(0x1_0000_0000)),
    );
    k.cmp(
        e8(),
        Relop::Eq,
        Operand::dst(x),
        Operand::src(x),
        Operand::imm(Imm::ud(1)),
    );
    k.jmp(Exec::new(ExecSize::S1), l1)
        .predicated(Predicate::any(p2));
    k.add(
        e8(),
        Operand::dst(x),
        Operand::src(x),
        Operand::imm(Imm::ud(1)),
    );
    k.place(l1);
    k.svm_atomic(
        e8(),
        AtomicOp::Xchg,
        AtomicWidth::W32,
        Operand::raw(a),
        Operand::null(),
        Operand::raw(x),
        Operand::null(),
    );
    k.ret();
    k
}

/// `fk.visaasm`: fences around an atomic.
fn fk() -> Kernel {
    let mut k = Kernel::new("fk");
    let a = k.decl_simd("A", Type::UQ, 8);
    let s = k.decl_simd("S", Type::UD, 8);
    k.input(a, 64);
    k.input(s, 128);
    k.fence(Fence::default());
    k.svm_atomic(
        e8(),
        AtomicOp::Add,
        AtomicWidth::W32,
        Operand::raw(a),
        Operand::null(),
        Operand::raw(s),
        Operand::null(),
    );
    k.fence(Fence {
        commit: true,
        ..Fence::default()
    });
    k.ret();
    k
}

/// `cas_f32_add.visaasm`: float add through a 32-bit CAS retry loop.
fn cas_f32_add() -> Kernel {
    let mut k = Kernel::new("cas_f32_add");
    let a = k.decl_simd("A", Type::UQ, 8);
    let val = k.decl_simd("VAL", Type::F, 8);
    let old = k.decl_simd("OLD", Type::F, 8);
    let new = k.decl_simd("NEW", Type::F, 8);
    let prev = k.decl_simd("PREV", Type::F, 8);
    let oldu = k.alias("OLDu", Type::UD, 8, old, 0);
    let newu = k.alias("NEWu", Type::UD, 8, new, 0);
    let prevu = k.alias("PREVu", Type::UD, 8, prev, 0);
    let res = k.decl_simd("RES", Type::F, 8);
    let p1 = k.decl_pred("P1", 8);
    let lp = k.label("LOOP");
    k.input(a, 64);
    k.input(val, 128);
    k.mov(e8(), Operand::dst(newu), Operand::imm(Imm::ud(0)));
    k.svm_atomic(
        e8(),
        AtomicOp::Or,
        AtomicWidth::W32,
        Operand::raw(a),
        Operand::raw(oldu),
        Operand::raw(newu),
        Operand::null(),
    );
    k.place(lp);
    k.add(
        e8(),
        Operand::dst(new),
        Operand::src(old),
        Operand::src(val),
    );
    k.svm_atomic(
        e8(),
        AtomicOp::CmpXchg,
        AtomicWidth::W32,
        Operand::raw(a),
        Operand::raw(prevu),
        Operand::raw(newu),
        Operand::raw(oldu),
    );
    k.cmp(
        e8(),
        Relop::Ne,
        Operand::pred(p1),
        Operand::src(prevu),
        Operand::src(oldu),
    );
    k.mov(e8(), Operand::dst(old), Operand::src(prev));
    k.goto(e8(), lp).predicated(Predicate::on(p1));
    k.mov(e8(), Operand::dst(res), Operand::src(old));
    k.ret();
    k
}

/// `cas_u64.visaasm`: 64-bit CAS loop with the compare on ud halves.
fn cas_u64() -> Kernel {
    let mut k = Kernel::new("cas_u64");
    let names = ["A", "VAL", "OLD", "NEW", "PREV", "ZERO"];
    let v: Vec<VarId> = names.iter().map(|n| k.decl_simd(*n, Type::UQ, 8)).collect();
    let (a, val, old, new, prev, zero) = (v[0], v[1], v[2], v[3], v[4], v[5]);
    let vald = k.alias("VALd", Type::UD, 16, val, 0);
    let oldd = k.alias("OLDd", Type::UD, 16, old, 0);
    let newd = k.alias("NEWd", Type::UD, 16, new, 0);
    let prevd = k.alias("PREVd", Type::UD, 16, prev, 0);
    let zerod = k.alias("ZEROd", Type::UD, 16, zero, 0);
    let p1 = k.decl_pred("P1", 8);
    let p2 = k.decl_pred("P2", 8);
    let lp = k.label("LOOP");
    k.input(a, 64);
    k.input(val, 128);
    let e16 = Exec::new(ExecSize::S16);
    k.mov(e16, Operand::dst(zerod), Operand::imm(Imm::ud(0)));
    k.svm_atomic(
        e8(),
        AtomicOp::Or,
        AtomicWidth::W64,
        Operand::raw(a),
        Operand::raw(old),
        Operand::raw(zero),
        Operand::null(),
    );
    k.place(lp);
    k.binary(
        Op::Xor,
        e16,
        Operand::dst(newd),
        Operand::src(oldd),
        Operand::src(vald),
    );
    k.svm_atomic(
        e8(),
        AtomicOp::CmpXchg,
        AtomicWidth::W64,
        Operand::raw(a),
        Operand::raw(prev),
        Operand::raw(new),
        Operand::raw(old),
    );
    let s2 = |var, col| Operand::src_at(var, 0, col, Region::STRIDE2);
    k.cmp(
        e8(),
        Relop::Ne,
        Operand::pred(p1),
        s2(prevd, 0),
        s2(oldd, 0),
    );
    k.cmp(
        e8(),
        Relop::Ne,
        Operand::pred(p2),
        s2(prevd, 1),
        s2(oldd, 1),
    );
    k.binary(
        Op::Or,
        e8(),
        Operand::pred(p1),
        Operand::pred(p1),
        Operand::pred(p2),
    );
    k.mov(e16, Operand::dst(oldd), Operand::src(prevd));
    k.goto(e8(), lp).predicated(Predicate::on(p1));
    k.ret();
    k
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
