//! The vISA writers against the oracle, GenX_IR 1.0.12504 (visa.md §8):
//! every kernel atomc's validator accepts must (a) compile from our text
//! with rc 0, no errors file and no assert/WARNING/ERROR line, and (b) from
//! our `.isa` to the same Gen code and the same `-dumpcommonisa` print.
//! Each test prints `N kernel×platform pairs checked …, N failures`.

#[path = "visa_oracle/check.rs"]
mod check;
#[path = "visa_oracle/kernels.rs"]
mod kernels;
#[path = "visa_oracle/slm_kernels.rs"]
mod slm_kernels;
#[path = "visa_oracle/surface_kernels.rs"]
mod surface_kernels;
mod visa_common;

use atomc_oracle::{require, Tool};
use atomc_visa::*;
use check::Tally;

const PLATFORMS: [Platform; 3] = [Platform::Tgllp, Platform::Dg2, Platform::Pvc];

fn run(what: &str, ks: impl Fn(Platform) -> Vec<Kernel>) {
    if require(Tool::GenXIR).is_none() {
        return;
    }
    let pairs = PLATFORMS
        .iter()
        .flat_map(|&p| ks(p).into_iter().map(move |k| (k, p)))
        .collect();
    let t = Tally::run_all(pairs);
    t.report(what);
    assert!(t.failures.is_empty(), "{} failures", t.failures.len());
    assert!(t.checked > 0);
}

#[test]
fn svm_atomic_every_op_width_exec_size_and_form() {
    run("svm_atomic matrix", |_| kernels::atomic_matrix());
}

#[test]
fn cas_retry_loops_with_simd_goto() {
    run("CAS loops", kernels::cas_loops);
}

#[test]
fn alu_conversions_and_control_flow() {
    run("ALU and control flow", kernels::alu_tour);
}

#[test]
fn gather_scatter_and_fences() {
    run("gather/scatter/fence", |_| kernels::memory());
}

#[test]
fn slm_messages_and_barrier() {
    run("SLM dword_atomic/gather_scaled/scatter_scaled/barrier", |_| slm_kernels::slm());
}

#[test]
fn typed_atomic_and_lsc_slm_icas() {
    run("typed_atomic (bound and bindless) and lsc_atomic_icas.slm", |p| {
        let mut ks = surface_kernels::typed();
        let bindless = surface_kernels::bindless(p);
        for k in &bindless {
            validate(k, p).unwrap_or_else(|e| panic!("{} on {p}: {e:?}", k.name));
        }
        ks.extend(bindless);
        ks.extend(surface_kernels::lsc(p));
        ks
    });
}

#[test]
fn typed_reads_and_writes() {
    run("gather4_typed and scatter4_typed", |_| surface_kernels::typed_rw());
}

/// The evidence for the PVC rule of `scatter4_typed` (validate/typed.rs): GenX_IR 1.0.12504
/// sends a GRF of data per channel of a SIMD8 typed write on TGLLP and DG2, but on PVC the
/// channels' 32 bytes each rounded down to 64-byte GRFs (`.RG` → 1 GRF), while the `.RG` read
/// there still returns two GRFs: the G register of a two-channel write would not be sent.
#[test]
fn typed_write_payload_lengths() {
    if require(Tool::GenXIR).is_none() {
        return;
    }
    // The data length of the write: GenX_IR's `wr:a0.0[28:25]+N` comment on the `send.dc1`
    // whose destination is `null` (N GRFs of data after the coordinates).
    let write_len = |asm: &str| -> Option<u32> {
        let line = asm.lines().find(|l| l.contains("send.dc1") && l.split_whitespace().nth(2) == Some("null"))?;
        let n = line.split_once("wr:a0.0[28:25]+")?.1;
        n[..n.find(|c: char| !c.is_ascii_digit())?].parse().ok()
    };
    let kernels = surface_kernels::typed_rw();
    let mut seen = 0;
    for (mask, dg2, pvc) in [("R", 1, 1), ("RG", 2, 1), ("RGBA", 4, 2)] {
        let k = kernels.iter().find(|k| k.name == format!("typed_rw_{mask}_1_8")).expect("kernel");
        for (p, want) in [(Platform::Dg2, dg2), (Platform::Tgllp, dg2), (Platform::Pvc, pvc)] {
            let out = atomc_oracle::genx_ir(atomc_oracle::GenxInput::Text(&k.to_text()), p.genx_name())
                .unwrap_or_else(|e| panic!("{} on {p}: {e}", k.name));
            assert_eq!(write_len(&out.asm), Some(want), "{} on {p}:\n{}", k.name, out.asm);
            seen += 1;
        }
    }
    println!("visa oracle [typed write payloads]: {seen} kernel×platform pairs as measured");
}

/// predec has no text spelling, so only our `.isa` can carry it: GenX_IR
/// must read it (rc 0, clean output) on the pre-XeHP platform we test.
#[test]
fn predec_binary_only() {
    if require(Tool::GenXIR).is_none() {
        return;
    }
    let k = kernels::atomic(
        AtomicOp::PreDec,
        AtomicWidth::W32,
        Exec::new(ExecSize::S8),
        kernels::Form::Plain,
    );
    validate(&k, Platform::Tgllp).expect("predec is valid on TGLLP");
    assert!(
        validate(&k, Platform::Dg2).is_err(),
        "predec is refused on XeHP+"
    );
    assert!(
        validate_for_text(&k, Platform::Tgllp).is_err(),
        "predec has no text form"
    );
    let out =
        atomc_oracle::genx_ir(atomc_oracle::GenxInput::Binary(&k.to_isa()), "TGLLP")
            .expect("GenX_IR reads predec from .isa");
    assert!(out.asm.contains("send"), "{}", out.asm);
    println!("visa oracle [predec]: 1 kernel×platform pair checked (.isa only), 0 failures");
}

/// Every opcode of the table (and every svm_atomic op) appears in the
/// kernels above, so every table entry is checked through GenX_IR's reader.
#[test]
fn oracle_kernels_cover_the_whole_opcode_table() {
    let mut ks = kernels::atomic_matrix();
    for p in PLATFORMS {
        ks.extend(kernels::cas_loops(p));
        ks.extend(kernels::alu_tour(p));
    }
    ks.extend(kernels::memory());
    ks.extend(slm_kernels::slm());
    ks.extend(surface_kernels::typed());
    ks.extend(surface_kernels::bindless(Platform::Pvc));
    ks.extend(surface_kernels::typed_rw());
    ks.extend(surface_kernels::lsc(Platform::Pvc));
    for k in &ks {
        let back = atomc_visa::reader::read(&k.to_isa())
            .unwrap_or_else(|e| panic!("{}: {e}", k.name));
        assert_eq!(&back, k, "{} does not survive write + read", k.name);
    }
    let used: std::collections::HashSet<Op> = ks
        .iter()
        .flat_map(|k| k.insts.iter().map(|i| i.op))
        .collect();
    let missing: Vec<Op> = atomc_visa::inst::table()
        .iter()
        .map(|e| e.op)
        .filter(|op| !used.contains(op))
        .collect();
    assert!(
        missing.is_empty(),
        "opcodes not covered by oracle kernels: {missing:?}"
    );
    let atomics: std::collections::HashSet<AtomicOp> = ks
        .iter()
        .flat_map(|k| {
            k.insts.iter().filter_map(|i| match i.ext {
                Ext::Atomic(op, _) => Some(op),
                _ => None,
            })
        })
        .collect();
    let missing: Vec<AtomicOp> = AtomicOp::ALL
        .into_iter()
        .filter(|op| !atomics.contains(op) && *op != AtomicOp::PreDec)
        .collect();
    assert!(missing.is_empty(), "atomic ops not covered: {missing:?}");
    println!(
        "visa oracle coverage: {} opcodes, {} atomic ops (+ predec via .isa only)",
        atomc_visa::inst::table().len(),
        atomics.len()
    );
}
