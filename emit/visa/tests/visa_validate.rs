//! Each validator rule fires on a kernel that breaks it (and only then),
//! and — where GenX_IR is installed — what GenX_IR itself does with that
//! kernel: the rules marked `Silent` are the ones it compiles with rc 0 and
//! no message, i.e. the checks only atomc makes.

#[path = "visa_validate/typed_cases.rs"]
mod typed_cases;
mod visa_common;

use atomc_oracle::{genx_ir, require, GenxInput, OracleError, Tool};
use atomc_visa::validate::Rule;
use atomc_visa::*;
use visa_common::atomic_vars;

/// What GenX_IR 1.0.12504 does with the text of the bad kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Genx {
    /// rc 0, no errors file, no assert/WARNING/ERROR line.
    Silent,
    /// rc 0 but an assert or WARNING line.
    Diagnostic,
    /// rc ≠ 0 (parser or verifier error).
    Rejected,
    /// Not run (the kernel makes GenX_IR hang, or has no text form).
    NotRun,
}

fn e8() -> Exec {
    Exec::new(ExecSize::S8)
}

/// A valid kernel: `svm_atomic.<op>` with A (8 × uq) @64, S0/S1/D of `ty`.
struct Base {
    k: Kernel,
    a: VarId,
    s0: VarId,
    s1: VarId,
    d: VarId,
}

fn base(ty: Type) -> Base {
    let mut k = Kernel::new("bad");
    let [a, s0, s1, d] = atomic_vars(&mut k, ("A", Type::UQ), ty, 8);
    k.input(a, 64);
    k.input(s0, 128);
    Base { k, a, s0, s1, d }
}

/// `svm_atomic.<op>` from `addr` into `dst`, then `ret`.
fn atomic(b: &mut Base, op: AtomicOp, w: AtomicWidth, addr: VarId, dst: Operand, s0: Operand, s1: Operand) {
    b.k.svm_atomic(e8(), op, w, Operand::raw(addr), dst, s0, s1);
    b.k.ret();
}

/// `svm_atomic.add` (32-bit, S0 as src0) under `exec` from `addr` into `dst`, without `ret`.
fn add(b: &mut Base, exec: Exec, addr: VarId, dst: Operand) {
    let s0 = Operand::raw(b.s0);
    b.k.svm_atomic(exec, AtomicOp::Add, AtomicWidth::W32, Operand::raw(addr), dst, s0, Operand::null());
}

/// [`base`] with `body` in it (a `ud` kernel).
fn with(body: impl FnOnce(&mut Base)) -> Kernel {
    let mut b = base(Type::UD);
    body(&mut b);
    b.k
}

/// [`base`] ending in the default `add` (see [`add`]) from `addr` into D, after `setup`, which
/// may return another address variable.
fn add_after(setup: impl FnOnce(&mut Base) -> Option<VarId>) -> Kernel {
    with(|b| {
        let addr = setup(b).unwrap_or(b.a);
        let d = Operand::raw(b.d);
        add(b, e8(), addr, d);
        b.k.ret();
    })
}

/// [`base`] with `add <dst(D)> = S0 + S0`.
fn add_into(dst: impl FnOnce(VarId) -> Operand) -> Kernel {
    with(|b| {
        let (d, s0) = (b.d, b.s0);
        b.k.add(e8(), dst(d), Operand::src(s0), Operand::src(s0));
        b.k.ret();
    })
}

fn simple(op: AtomicOp, w: AtomicWidth, ty: Type, s0: bool, s1: bool) -> Kernel {
    let mut b = base(ty);
    let (a, d) = (b.a, b.d);
    let s0o = if s0 { Operand::raw(b.s0) } else { Operand::null() };
    let s1o = if s1 { Operand::raw(b.s1) } else { Operand::null() };
    atomic(&mut b, op, w, a, Operand::raw(d), s0o, s1o);
    b.k
}

struct Case {
    name: &'static str,
    platform: Platform,
    rule: Rule,
    genx: Genx,
    k: Kernel,
}

fn cases() -> Vec<Case> {
    use AtomicOp::*;
    use AtomicWidth::*;
    let tgl = Platform::Tgllp;
    let mut v = Vec::new();
    let mut case = |name, platform, rule, genx, k| v.push(Case { name, platform, rule, genx, k });

    // One atomic whose operation, width, data type and sources (S0, S1 present) break a rule.
    #[rustfmt::skip]
    let simple_cases = [
        ("inc with src0", tgl, Rule::AtomicSrc0, Genx::Silent, Inc, W32, Type::UD, true, false),
        ("add without src0", tgl, Rule::AtomicSrc0, Genx::Silent, Add, W32, Type::UD, false, false),
        ("add with src1", tgl, Rule::AtomicSrc1, Genx::Silent, Add, W32, Type::UD, true, true),
        ("cmpxchg without src1", tgl, Rule::AtomicSrc1, Genx::Silent, CmpXchg, W32, Type::UD, true, false),
        ("add on f data", tgl, Rule::AtomicTypes, Genx::Silent, Add, W32, Type::F, true, false),
        ("imin on ud data", tgl, Rule::AtomicTypes, Genx::Silent, IMin, W32, Type::UD, true, false),
        ("add on uq data", tgl, Rule::AtomicTypes, Genx::Silent, Add, W32, Type::UQ, true, false),
        ("add.64 on ud data", tgl, Rule::AtomicTypes, Genx::Silent, Add, W64, Type::UD, true, false),
        ("fadd on TGLLP", tgl, Rule::AtomicFaddPlatform, Genx::Silent, FAdd, W32, Type::F, true, false),
        ("fmin.64", tgl, Rule::AtomicFloat64, Genx::Silent, FMin, W64, Type::DF, true, false),
        ("add.16 on ICLLP", Platform::Icllp, Rule::Atomic16Platform, Genx::Silent, Add, W16, Type::UD, true, false),
        ("predec on DG2", Platform::Dg2, Rule::AtomicPredec, Genx::NotRun, PreDec, W32, Type::UD, false, false),
    ];
    for (name, platform, rule, genx, op, w, ty, s0, s1) in simple_cases {
        case(name, platform, rule, genx, simple(op, w, ty, s0, s1));
    }

    let k = add_after(|b| Some(b.k.decl_simd("AU", Type::UD, 16)));
    case("ud address", tgl, Rule::MsgAddress, Genx::Silent, k);
    let k = add_after(|b| Some(b.k.decl("AB", Type::UQ, 8, Align::Byte)));
    case("byte-aligned address", tgl, Rule::RawAlign, Genx::Silent, k);
    let k = with(|b| {
        let (a, d) = (b.a, Operand::raw(b.d));
        add(b, Exec::new(ExecSize::S16), a, d);
        b.k.ret();
    });
    case("SIMD16 atomic", tgl, Rule::MsgExecSize, Genx::Silent, k);
    let k = with(|b| {
        let (a, d) = (b.a, Operand::raw(b.d));
        add(b, Exec::at(ExecSize::S8, 1), a, d);
        b.k.ret();
    });
    case("M2 on SIMD8", tgl, Rule::ExecMask, Genx::Diagnostic, k);
    let k = with(|b| {
        let (a, d) = (b.a, Operand::raw_at(b.d, 32));
        add(b, e8(), a, d);
        b.k.ret();
    });
    case("raw offset past the variable", tgl, Rule::RawBounds, Genx::Diagnostic, k);
    let k = add_after(|b| {
        let x = b.k.decl_simd("X", Type::UD, 8);
        b.k.inputs.push(Input { var: x, offset: 300, size: 32 });
        None
    });
    case("unaligned input", tgl, Rule::InputAlign, Genx::Silent, k);
    let k = add_after(|b| {
        b.k.inputs[0].offset = 0;
        None
    });
    case("input on r0", tgl, Rule::InputR0, Genx::Silent, k);
    let k = add_after(|b| {
        b.k.decl_simd("BIG", Type::UD, 2048);
        None
    });
    case("8 KiB variable", tgl, Rule::VarSize, Genx::Silent, k);
    let k = add_after(|b| {
        let s0 = b.s0;
        b.k.alias("WIDE", Type::UD, 16, s0, 0);
        None
    });
    case("alias past its base", tgl, Rule::AliasBounds, Genx::Silent, k);
    let k = add_into(|d| Operand::dst_at(d, 3, 0, 1));
    case("region past the variable", tgl, Rule::RegionBounds, Genx::Diagnostic, k);
    let k = with(|b| {
        let p = b.k.decl_pred("P1", 8);
        let s0 = b.s0;
        b.k.cmp(Exec::new(ExecSize::S16), Relop::Lt, Operand::pred(p), Operand::src(s0), Operand::imm(Imm::ud(5)));
        b.k.ret();
    });
    case("SIMD16 cmp into an 8-lane predicate", tgl, Rule::PredLanes, Genx::Diagnostic, k);
    let k = with(|b| {
        let (a, d) = (b.a, Operand::raw(b.d));
        add(b, e8(), a, d);
    });
    case("no final ret", tgl, Rule::EndsWithRet, Genx::Silent, k);
    let k = with(|b| {
        let (a, q) = (b.a, b.k.decl_simd("Q", Type::UQ, 8));
        b.k.add(e8(), Operand::dst(q), Operand::src(a), Operand::imm(Imm::uq(1)));
        b.k.ret();
    });
    case("64-bit add on TGLLP", tgl, Rule::Alu64, Genx::Silent, k);
    let k = with(|b| {
        let p = b.k.decl_pred("P1", 8);
        let s0 = b.s0;
        b.k.cmp(e8(), Relop::Lt, Operand::pred(p), Operand::src(s0), Operand::imm(Imm::ud(5)))
            .predicated(Predicate::on(p));
        b.k.ret();
    });
    case("guard on cmp (would be dropped)", tgl, Rule::NoGuardField, Genx::Silent, k);
    let k = with(|b| {
        b.k.fence(Fence { rw: true, ..Fence::default() });
        b.k.ret();
    });
    case("fence .R alone", tgl, Rule::FenceText, Genx::Rejected, k);
    let k = with(|b| {
        let l = b.k.label("NOWHERE");
        b.k.goto(e8(), l);
        b.k.ret();
    });
    case("goto to an unplaced label", tgl, Rule::Labels, Genx::Rejected, k);
    let k = with(|b| {
        b.k.decl_pred("P1", 3);
        b.k.ret();
    });
    case("3-lane predicate", tgl, Rule::PredSize, Genx::Rejected, k);
    let k = with(|b| {
        let x = b.k.decl_simd("X", Type::UD, 8);
        b.k.inputs.push(Input { var: x, offset: 128, size: 32 });
        b.k.ret();
    });
    case("overlapping inputs", tgl, Rule::InputLayout, Genx::Rejected, k);
    let k = add_into(|d| Operand::dst_at(d, 0, 0, 3));
    case("destination stride 3", tgl, Rule::Region, Genx::Rejected, k);
    {
        let mut b = base(Type::F);
        let (d, s0) = (b.d, b.s0);
        b.k.binary(Op::And, e8(), Operand::dst(d), Operand::src(s0), Operand::src(s0));
        b.k.ret();
        case("and on floats", tgl, Rule::Types, Genx::NotRun, b.k);
    }
    let k = with(|b| {
        let l = b.k.label("L");
        b.k.jmp(e8(), l);
        b.k.place(l);
        b.k.ret();
    });
    case("SIMD8 jmp", tgl, Rule::JmpScalar, Genx::NotRun, k);
    let k = with(|b| {
        let d = b.k.decl_simd("DQ", Type::UQ, 128);
        let a16 = b.k.decl_simd("A16", Type::UQ, 16);
        let blocks = Blocks { block_bytes: 8, num_blocks: 8 };
        b.k.svm_gather(Exec::new(ExecSize::S16), blocks, Operand::raw(a16), Operand::raw(d));
        b.k.ret();
    });
    case("1 KiB gather (GenX_IR hangs)", tgl, Rule::MsgBlocks, Genx::NotRun, k);
    let k = with(|b| {
        b.k.vars[1].name = "9lives".into();
        b.k.ret();
    });
    case("bad name", tgl, Rule::Name, Genx::Rejected, k);
    typed_cases::cases(&mut v);
    v
}

fn classify(k: &Kernel, p: Platform) -> Genx {
    match genx_ir(GenxInput::Text(&k.to_text()), p.genx_name()) {
        Ok(_) => Genx::Silent,
        Err(OracleError::GenxDiagnostics { .. }) => Genx::Diagnostic,
        Err(_) => Genx::Rejected,
    }
}

#[test]
fn every_rule_fires_on_its_bad_kernel() {
    for c in cases() {
        let errs = validate(&c.k, c.platform).expect_err(c.name);
        assert!(
            errs.iter().any(|e| e.rule == c.rule),
            "{}: expected {:?}, got {errs:?}",
            c.name,
            c.rule
        );
    }
}

#[test]
fn genx_ir_accepts_what_only_atomc_rejects() {
    if require(Tool::GenXIR).is_none() {
        return;
    }
    let mut counts = [0usize; 3];
    let mut mismatches = Vec::new();
    for c in cases() {
        if c.genx == Genx::NotRun {
            continue;
        }
        let got = classify(&c.k, c.platform);
        counts[match got {
            Genx::Silent => 0,
            Genx::Diagnostic => 1,
            _ => 2,
        }] += 1;
        println!("  {:<40} {:?} -> GenX_IR: {got:?}", c.name, c.rule);
        if got != c.genx {
            mismatches.push(format!(
                "{}: GenX_IR {got:?}, expected {:?}",
                c.name, c.genx
            ));
        }
    }
    println!(
        "visa rules: {} bad kernels compiled silently by GenX_IR, {} with only a diagnostic, {} rejected by it; atomc rejects all",
        counts[0], counts[1], counts[2]
    );
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}
