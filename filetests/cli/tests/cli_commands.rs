//! The `atomc` binary on single commands whose library side is tested elsewhere: a cubin written
//! to a file, the register cap, Cranelift IR input, and vISA diagnostics and outputs.

mod common;

use atomc_emit::cubin::inspect::inspect;
use common::{atomc, repo, scratch};

#[test]
fn compile_writes_a_cubin() {
    let out = scratch("cubin").join("bump.cubin").display().to_string();
    let src = repo("filetests/filetests/compile/sm90/atomic-add-i32.atom");
    let (rc, _, err) =
        atomc(&["compile", "--target", "sm_90", "--emit", "cubin", "--function", "bump", "-o", &out, &src]);
    assert_eq!(rc, 0, "{err}");
    let bytes = std::fs::read(&out).unwrap();
    let s = inspect(&bytes).unwrap();
    assert_eq!((s.header.e_machine, s.header.os_abi, s.header.e_flags), (190, 0x33, 0x5a055a));
    let k = s.symbol("bump").expect("kernel symbol");
    assert_eq!((k.bind, k.kind, k.other), (1, 2, 0x10));
    assert_eq!(s.section(".nv.constant0.bump").unwrap().size, 0x210 + 12);
}

/// `--max-registers N` on `atomc compile` and `atomc run --target`: the capped kernel sets up
/// its frame and spills; out-of-range caps are usage errors (exit 2).
#[test]
fn max_registers_on_the_command_line() {
    let file = repo("filetests/cli/tests/data/live40.atom");
    for (target, setup) in [("sm_90", "LDC R1, c[0x0][0x28] ;"), ("sm_50", "MOV R1, c[0x0][0x20] ;")] {
        let (rc, out, err) = atomc(&["compile", &file, "--target", target, "--emit", "asm"]);
        assert_eq!(rc, 0, "{err}");
        assert!(!out.contains("STL") && !out.contains(setup), "{target}: 40 live values fit:\n{out}");
        let (rc, out, err) = atomc(&["compile", &file, "--target", target, "--emit", "asm", "--max-registers", "32"]);
        assert_eq!(rc, 0, "{err}");
        // The listing is headed by the kernel's `.text.NAME:` label; the frame set-up comes first.
        let first = out.lines().find(|l| !l.starts_with(".text."));
        assert!(first.is_some_and(|l| l.contains(setup)), "{target}: no frame set-up first:\n{out}");
        assert!(out.contains("STL [R1") && out.contains("LDL R"), "{target}: no spills:\n{out}");
        let (rc, out, err) = atomc(&["run", &file, "--target", target, "--max-registers", "32"]);
        assert_eq!(rc, 0, "{target}: {out}{err}");
        assert!(out.contains("1 run line(s) passed"), "{out}");
    }
    let (rc, _, _) = atomc(&["compile", &file, "--target", "sm_90", "--emit", "asm", "--max-registers", "8"]);
    assert_eq!(rc, 2, "a cap below 16 is a usage error");
}

#[cfg(feature = "clif")]
#[test]
fn compile_reads_clif_files() {
    let dir = scratch("clif");
    let good = dir.join("kernel.clif").display().to_string();
    let kernel = "function %rmw_add_i32(i64, i32) {\nblock0(v0: i64, v1: i32):\n    \
                  v2 = atomic_rmw.i32 add v0, v1\n    store.i32 v2, v0+8\n    return\n}\n";
    std::fs::write(&good, format!("test run\ntarget x86_64\n\n{kernel}")).expect("write");
    let bad = dir.join("bad.clif").display().to_string();
    std::fs::write(&bad, "function %f(i128) {\nblock0(v0: i128):\n    return\n}\n").expect("write");
    let (rc, out, err) = atomc(&["compile", &good, "--target", "sm_90", "--emit", "asm"]);
    assert_eq!(rc, 0, "{err}");
    assert!(out.contains("ATOMG.E.ADD.STRONG.GPU"), "{out}");
    let (rc, _, err) = atomc(&["compile", &bad, "--target", "sm_90", "--emit", "asm"]);
    assert_eq!(rc, 1);
    assert!(err.contains("bad.clif") && err.contains("i128"), "{err}");
}

#[test]
fn a_visa_refusal_is_printed_with_exit_1() {
    let file = repo("filetests/filetests/compile/visa/reject/unsupported.atom");
    let args = ["compile", &file, "--target", "visa", "--platform", "TGLLP", "--emit", "visaasm", "--function", "surface"];
    let (rc, _, err) = atomc(&args);
    assert_eq!(rc, 1);
    assert!(err.contains("visa:TGLLP cannot express") && err.contains("trap"), "{err}");
}

#[test]
fn compile_writes_visaasm_and_isa() {
    let file = repo("filetests/filetests/compile/visa/rmw-ops.atom");
    let dir = scratch("visa");
    for (emit, name) in [("visaasm", "k.visaasm"), ("isa", "k.isa")] {
        let out = dir.join(name).display().to_string();
        let args =
            ["compile", &file, "--target", "visa", "--platform", "DG2", "--emit", emit, "--function", "add", "-o", &out];
        let (rc, _, err) = atomc(&args);
        assert_eq!(rc, 0, "{err}");
    }
    let text = std::fs::read_to_string(dir.join("k.visaasm")).unwrap();
    assert!(text.contains("svm_atomic.add (M1, 8)"), "{text}");
    let isa = std::fs::read(dir.join("k.isa")).unwrap();
    assert_eq!(&isa[..6], b"CISA\x04\x01");
}

/// A kernel name PTX cannot spell is the input's problem (exit 1), not an internal error (3).
#[test]
fn a_name_that_is_no_ptx_identifier_is_refused_as_input() {
    let file = scratch("ptx-name").join("name.atom").display().to_string();
    std::fs::write(&file, "function %9lives(ptr.global) {\nblock0(v0: ptr.global):\n    return\n}\n").unwrap();
    let (rc, _, err) = atomc(&["compile", &file, "--target", "sm_90", "--emit", "ptx"]);
    assert_eq!(rc, 1, "{err}");
    assert!(err.contains("`function %9lives`") && err.contains("not a PTX identifier"), "{err}");
}
