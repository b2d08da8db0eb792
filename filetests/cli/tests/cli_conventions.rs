//! The command line as the field's tools behave: every documented exit code (0 success,
//! 1 error in the input, 2 command-line mistake; 3, an internal error, is a caught panic and is
//! tested in `src/cli/tests.rs` of this package), a file of kernels as one module (one PTX module ptxas
//! accepts, listings headed by each kernel, one vISA file per kernel GenX_IR accepts),
//! `disasm` of cubins and stdin, `run` printing values and memory, `-v`, and `--version`.

mod common;

use atomc_oracle::{self as oracle, GenxInput, Sm, Tool};
use common::{atomc, atomc_with, repo, scratch};
use std::path::Path;
use std::process::Command;





const MODULE: &str = "examples/module.atom";

#[test]
fn exit_codes_are_as_documented() {
    let dir = scratch("codes");
    let empty = dir.join("empty.atom");
    std::fs::write(&empty, "").unwrap();
    let module = repo(MODULE);
    let invalid = repo("filetests/filetests/verify/atomic-order.atom");
    let cases: &[(&[&str], i32)] = &[
        (&["compile", &module, "--target", "sm_90", "--emit", "asm"], 0),
        (&["verify", &invalid], 1),
        (&["compile", &invalid, "--target", "sm_90", "--emit", "asm"], 1),
        (&["compile", empty.to_str().unwrap(), "--target", "sm_90", "--emit", "asm"], 1),
        (&["compile", &module, "--target", "sm_91", "--emit", "asm"], 2),
        (&["compile", &module, "--target", "sm_90", "--platform", "XYZ", "--emit", "asm"], 2),
        (&["compile", &module, "--target", "visa", "--platform", "XYZ", "--emit", "visaasm"], 2),
        (&["compile", &module, "--target", "sm_90", "--function", "count", "--emit", "visaasm"], 2),
        (&["compile", &module, "--target", "sm_90", "--emit", "asm,ptx"], 2),
        (&["disasm", empty.to_str().unwrap()], 2),
        (&["frobnicate"], 2),
    ];
    for (args, want) in cases {
        let (rc, _, err) = atomc(args);
        assert_eq!(rc, *want, "atomc {}: {err}", args.join(" "));
        assert!(!err.contains("panicked"), "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_file_of_kernels_is_one_module() {
    let module = repo(MODULE);
    let (rc, ptx, err) = atomc(&["compile", &module, "--target", "sm_90", "--emit", "ptx"]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(ptx.matches(".version").count(), 1, "{ptx}");
    assert_eq!(ptx.matches(".entry").count(), 3, "{ptx}");
    let (rc, asm, err) = atomc(&["compile", &module, "--target", "sm_50", "--emit", "asm"]);
    assert_eq!(rc, 0, "{err}");
    let heads: Vec<&str> = asm.lines().filter(|l| l.starts_with(".text.")).collect();
    assert_eq!(heads, [".text.count:", ".text.max_id:", ".text.claim:"]);

    let dir = scratch("module");
    let stem = dir.join("k");
    let (rc, _, err) =
        atomc(&["compile", &module, "--target", "visa", "--emit", "visaasm,isa", "-o", stem.to_str().unwrap()]);
    assert_eq!(rc, 0, "{err}");
    let cubin_path = dir.join("k.cubin");
    let (rc, _, err) =
        atomc(&["compile", &module, "--target", "sm_90", "--emit", "cubin", "-o", cubin_path.to_str().unwrap()]);
    assert_eq!(rc, 0, "{err}");
    let (rc, ours, err) = atomc(&["disasm", cubin_path.to_str().unwrap()]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(ours.lines().filter(|l| l.starts_with(".text.")).count(), 3, "one cubin, three kernels: {ours}");
    if oracle::require(Tool::Cuobjdump13).is_some() {
        let usage = oracle::cuobjdump(Sm::Sm90, &std::fs::read(&cubin_path).unwrap(), &["-res-usage"]).expect("reads");
        for k in ["count", "max_id", "claim"] {
            assert!(usage.contains(&format!("Function {k}:")), "{usage}");
        }
    }
    for k in ["count", "max_id", "claim"] {
        let text = std::fs::read_to_string(dir.join(format!("k.{k}.visaasm"))).expect("one vISA file per kernel");
        let bin = std::fs::read(dir.join(format!("k.{k}.isa"))).expect("one vISA binary per kernel");
        if oracle::require(Tool::GenXIR).is_some() {
            for input in [GenxInput::Text(&text), GenxInput::Binary(&bin)] {
                oracle::genx_ir(input, "TGLLP").unwrap_or_else(|e| panic!("GenX_IR rejects %{k}: {e}"));
            }
        }
    }
    if oracle::require(Tool::Ptxas13).is_some() && oracle::require(Tool::Cuobjdump13).is_some() {
        let cubin = oracle::ptxas(Sm::Sm90, &ptx).expect("ptxas accepts the module");
        let usage = oracle::cuobjdump(Sm::Sm90, &cubin, &["-res-usage"]).expect("cuobjdump reads it");
        for k in ["count", "max_id", "claim"] {
            assert!(usage.contains(&format!("Function {k}:")), "{usage}");
        }
        // `disasm` reads the cubin from stdin and heads each kernel as nvdisasm does.
        let (rc, out, err) = atomc_with(&["disasm", "-"], Some(&cubin));
        assert_eq!(rc, 0, "{err}");
        let out = String::from_utf8_lossy(&out);
        for k in ["count", "max_id", "claim"] {
            assert!(out.contains(&format!(".text.{k}:\n")), "{out}");
        }
        assert_eq!(out.matches("EXIT").count(), 3, "{out}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn run_prints_values_and_memory() {
    let (rc, out, err) = atomc(&["run", &repo("filetests/filetests/interpret/arithmetic.atom")]);
    assert_eq!(rc, 0, "{err}");
    assert!(out.contains("ok %int_ops returned [-3, -1, -2, 1073741822]"), "{out}");
    let (rc, out, err) = atomc(&[
        "run",
        &repo(MODULE),
        "--function",
        "count",
        "--block",
        "4",
        "--init",
        "c: i32[2] = 7",
        "--args",
        "c",
        "--show-memory",
    ]);
    assert_eq!(rc, 0, "{err}");
    assert!(out.contains("c = [11, 7]"), "{out}");
}

#[test]
fn resource_usage_and_version() {
    let (rc, _, err) =
        atomc(&["compile", &repo(MODULE), "--target", "sm_90", "--emit", "asm", "-o", "/dev/null", "-v"]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(err.matches("atomc info: %").count(), 3, "{err}");
    assert!(err.contains("%claim for sm_90:") && err.contains("registers"), "{err}");
    let (rc, out, _) = atomc(&["--version"]);
    assert_eq!(rc, 0);
    // `atomc 0.1.0 (<commit>)`.
    assert!(out.starts_with("atomc ") && out.contains('(') && out.trim_end().ends_with(')'), "{out}");
    let (_, help, _) = atomc(&["--help"]);
    assert!(
        help.contains("sm_50") && help.contains("sm_90") && help.contains("visa") && help.contains("Exit codes"),
        "{help}"
    );
}

/// Every kernel of a module cubin runs its run lines on the emulator, for both SASS targets.
#[test]
fn module_cubin_runs_every_kernel_on_the_emulator() {
    use atomc::emulate::{self, Schedule};
    let source = std::fs::read_to_string(repo(MODULE)).unwrap();
    let funcs: Vec<atomc::ir::Function> =
        atomc::ir::parse::parse_file(&source).expect("parses").functions.into_iter().map(|f| f.func).collect();
    for target in [atomc::Target::Sm90, atomc::Target::Sm50] {
        let cubin = atomc::compile_cubin_module(&funcs, target, &Default::default()).expect("compiles");
        for f in &funcs {
            let line = source
                .lines()
                .skip_while(|l| !l.starts_with(&format!("function %{}(", f.name)))
                .find_map(|l| l.strip_prefix("; run: "))
                .expect("a run line");
            let spec = atomc::ir::interp::parse_run_line(f, line).expect("run line");
            let want = emulate::interpret(f, &spec).expect("interprets");
            let (exact, _) = emulate::run_and_judge(&cubin, f, &spec, &want, Schedule::RoundRobin)
                .unwrap_or_else(|e| panic!("{target} %{}: {e}", f.name));
            assert!(exact, "{target} %{}", f.name);
        }
    }
}

/// A kernel the target cannot express is refused at the instruction, with its line and column,
/// rendered as the verifier renders its errors: vISA's generic pointers to shared memory and
/// f16 fma on SASS, both refused by the target description before selection.
#[test]
fn refusals_point_at_the_source() {
    let cases = [
        (
            "filetests/filetests/interpret/generic-pointers.atom",
            "visa",
            "generic-pointers.atom:11:5: error[target-unsupported]",
            "ptr_to_generic",
        ),
        (
            "filetests/filetests/compile/sm50/reject/fma-f16.atom",
            "sm_50",
            "fma-f16.atom:10:5: error[target-unsupported]",
            "fma v1, v2, v1",
        ),
        (
            "filetests/filetests/compile/sm90/reject/fma-f16.atom",
            "sm_90",
            "fma-f16.atom:",
            "fma v1, v2, v1",
        ),
    ];
    for (file, target, want, source) in cases {
        // `--emit visaasm` writes one kernel: name the refused one.
        let (emit, pick): (&str, &[&str]) =
            if target == "visa" { ("visaasm", &["--function", "via_generic"]) } else { ("asm", &[]) };
        let path = repo(file);
        let mut args = vec!["compile", path.as_str(), "--target", target, "--emit", emit];
        args.extend_from_slice(pick);
        let (rc, _, err) = atomc(&args);
        assert_eq!(rc, 1, "{err}");
        assert!(err.contains(want), "{err}");
        // The source line is shown under the location, with a caret.
        assert!(err.lines().any(|l| l.contains(source)) && err.contains('^'), "{err}");
    }
}

/// A user's own compile filetest, outside the repository, passes or fails on its own
/// expectations (filecheck lines, or a precise-output block) and writes nothing into atomc's
/// tree: no snapshot, no `.snap.new`.
#[test]
fn a_users_filetest_lives_anywhere() {
    let git_status = || {
        Command::new("git")
            .args(["status", "--porcelain", "--untracked-files=all"])
            .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default()
    };
    let before = git_status();
    let dir = scratch("user-filetests");
    let kernel = "function %count(ptr.global) {\nblock0(v0: ptr.global):\n    v1 = iconst.i32 1\n    v2 = atomic_rmw.i32 add relaxed gpu v0, v1\n    return\n}\n";
    let good = dir.join("good.atom");
    std::fs::write(&good, format!("test compile\ntarget sm_90\n\n{kernel}; check: REDG.E.ADD.STRONG.GPU\n")).unwrap();
    let bad = dir.join("bad.atom");
    std::fs::write(&bad, format!("test compile\ntarget sm_90\n\n{kernel}; check: ATOMG.E.EXCH\n")).unwrap();
    let (rc, out, err) = atomc(&["test", good.to_str().unwrap()]);
    assert_eq!(rc, 0, "{out}{err}");
    assert!(out.contains("1 passed, 0 failed") && !err.contains("snapshot"), "{out}{err}");
    let (rc, out, _) = atomc(&["test", bad.to_str().unwrap()]);
    assert_eq!(rc, 1, "{out}");
    assert!(out.contains("0 passed, 1 failed") && out.contains("ATOMG.E.EXCH"), "{out}");
    // A precise-output file: blessing writes its own expectation, and then it passes.
    let precise = dir.join("precise.atom");
    std::fs::write(&precise, format!("test compile precise-output\ntarget sm_50\n\n{kernel}")).unwrap();
    let (rc, _, _) = atomc(&["test", precise.to_str().unwrap()]);
    assert_eq!(rc, 1, "no expectation yet");
    let (rc, out, err) = atomc(&["test", "--bless", precise.to_str().unwrap()]);
    assert_eq!(rc, 0, "{out}{err}");
    let (rc, out, err) = atomc(&["test", precise.to_str().unwrap()]);
    assert_eq!(rc, 0, "{out}{err}");
    assert!(std::fs::read_to_string(&precise).unwrap().contains("; /*"), "the listing is in the file");
    assert_eq!(git_status(), before, "the repository's tree changed");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 30: a precise-output expectation pasted from `atomc compile --emit asm` (which heads
/// the listing with `.text.NAME:`) passes as it is, and a changed line in it still fails.
#[test]
fn a_precise_output_pasted_from_compile_passes() {
    let dir = scratch("pasted-precise");
    let kernel = "function %count(ptr.global) {\nblock0(v0: ptr.global):\n    v1 = iconst.i32 1\n    v2 = atomic_rmw.i32 add relaxed gpu v0, v1\n    return\n}\n";
    for target in ["sm_50", "sm_90"] {
        let file = dir.join(format!("pasted_{target}.atom"));
        let head = format!("test compile precise-output\ntarget {target}\n\n{kernel}");
        std::fs::write(&file, &head).unwrap();
        let (rc, listing, err) = atomc(&["compile", file.to_str().unwrap(), "--target", target, "--emit", "asm"]);
        assert_eq!(rc, 0, "{err}");
        assert!(listing.starts_with(".text.count:"), "{listing}");
        let pasted: String = listing.lines().map(|l| format!("; {l}\n")).collect();
        std::fs::write(&file, format!("{head}\n{pasted}")).unwrap();
        let (rc, out, err) = atomc(&["test", file.to_str().unwrap()]);
        assert_eq!(rc, 0, "{target}: {out}{err}");
        assert!(out.contains("1 passed, 0 failed"), "{out}");
        // The header is the only line forgiven: a wrong instruction still fails.
        let wrong = pasted.replacen("EXIT", "BRA", 1);
        assert_ne!(wrong, pasted);
        std::fs::write(&file, format!("{head}\n{wrong}")).unwrap();
        let (rc, out, _) = atomc(&["test", file.to_str().unwrap()]);
        assert_eq!(rc, 1, "{target}: {out}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
