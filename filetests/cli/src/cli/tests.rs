//! The command line's behaviour: argument parsing, exit codes, and the
//! shipped example.

use super::{dispatch, exit_code, Cli, Failure};
use clap::Parser;
use std::path::PathBuf;

fn repo(path: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(path).display().to_string()
}

fn run(args: &[&str]) -> Result<(), Failure> {
    let cli = Cli::try_parse_from(std::iter::once("atomc").chain(args.iter().copied())).expect("valid arguments");
    dispatch(cli)
}

#[test]
fn usage_errors_are_clap_errors_with_exit_code_2() {
    for bad in [
        &["compile", "x.atom", "--target", "sm_91", "--emit", "asm"][..],
        &["compile", "x.atom", "--target", "sm_90"],
        &["frobnicate"],
        &["run"],
    ] {
        let err = Cli::try_parse_from(std::iter::once("atomc").chain(bad.iter().copied())).unwrap_err();
        assert_eq!(err.exit_code(), 2, "{bad:?}");
    }
}

#[test]
fn the_example_runs() {
    run(&["run", &repo("examples/histogram.atom")]).expect("the histogram's run lines pass");
    run(&["verify", &repo("examples/histogram.atom")]).expect("the histogram verifies");
}

#[test]
fn input_errors_exit_with_1_and_unreadable_files_with_2() {
    let missing = run(&["verify", "/nonexistent/x.atom"]).unwrap_err();
    assert!(missing.message().contains("cannot read"), "{}", missing.message());
    let invalid = run(&["verify", &repo("filetests/filetests/verify/atomic-order.atom")]).unwrap_err();
    assert!(invalid.message().contains("error[atomic-order]"), "{}", invalid.message());
    assert_eq!(exit_code(Ok(Err(invalid))), 1);
    // A file that cannot be read is a command-line mistake (README: exit codes).
    let asm = run(&["asm", "--target", "sm_50", "-o", "/dev/null", "/nonexistent/k.sass"]);
    assert_eq!(exit_code(Ok(asm)), 2);
    assert_eq!(exit_code(Ok(Ok(()))), 0);
}

#[test]
fn a_panic_is_an_internal_error_with_exit_code_3() {
    let caught = atomc_filetests::panic_capture::catch(|| -> Result<(), Failure> { panic!("boom") });
    assert_eq!(exit_code(caught), 3);
}

#[test]
fn run_options_build_a_run_line() {
    let file = repo("filetests/filetests/interpret/contention-add.atom");
    // 4 blocks of 8 threads add 32; without `--grid`, one block adds 8 and the expectation fails.
    let run_with = |grid: &[&str]| {
        let mut args = vec!["run", file.as_str(), "--function", "count_blocks"];
        args.extend(grid);
        args.extend(["--block", "8", "--init", "c: i64[1] = 5", "--args", "c", "--expect", "c == [37]"]);
        run(&args)
    };
    run_with(&["--grid", "4"]).expect("32 increments");
    assert!(run_with(&[]).is_err());
}

#[test]
fn compile_emits_ir_and_needs_a_stem_for_many_binaries() {
    let file = repo("filetests/filetests/interpret/cas.atom");
    let out = std::env::temp_dir().join(format!("atomc-cli-{}.txt", std::process::id()));
    let out_s = out.display().to_string();
    run(&["compile", &file, "--target", "sm_90", "--emit", "ir", "-o", &out_s]).expect("ir output");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("atomic_cas.i32 acq_rel gpu"), "{text}");
    let _ = std::fs::remove_file(&out);
    let err = run(&["compile", &file, "--target", "sm_90", "--emit", "bin"]).unwrap_err();
    assert!(err.message().contains("-o STEM"), "{}", err.message());
    assert_eq!(err.code(), 2);
}

#[test]
fn asm_and_disasm_round_trip() {
    let dir = std::env::temp_dir().join(format!("atomc-cli-asm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = dir.join("k.sass");
    let bin = dir.join("k.bin");
    let back = dir.join("k2.sass");
    let listing = "/*0000*/ LDC.64 R0, c[0x0][0x210] ;\n/*0010*/ MOV R2, 0x1 ;\n/*0020*/ REDG.E.ADD.STRONG.GPU [R0], R2 ;\n/*0030*/ EXIT ;\n/*0040*/ BRA 0x40 ;\n";
    std::fs::write(&text, listing).unwrap();
    let s = |p: &PathBuf| p.display().to_string();
    run(&["asm", "--target", "sm_90", &s(&text), "-o", &s(&bin)]).expect("assembles");
    assert_eq!(std::fs::read(&bin).unwrap().len(), 5 * 16);
    run(&["disasm", "--target", "sm_90", &s(&bin), "-o", &s(&back)]).expect("disassembles");
    // `disasm` spells addresses as `compile` does: two spaces after `/*0000*/`.
    assert_eq!(std::fs::read_to_string(&back).unwrap(), listing.replace("*/ ", "*/  "));
    // sm_50: one 32-byte bundle (control word + three instructions).
    let listing50 = "/*0008*/ MOV R1, c[0x0][0x20] ;\n/*0010*/ S2R R0, SR_TID.X ;\n/*0018*/ EXIT ;\n";
    std::fs::write(&text, listing50).unwrap();
    run(&["asm", "--target", "sm_50", &s(&text), "-o", &s(&bin)]).expect("assembles");
    assert_eq!(std::fs::read(&bin).unwrap().len(), 32);
    run(&["disasm", "--target", "sm_50", &s(&bin), "-o", &s(&back)]).expect("disassembles");
    assert_eq!(std::fs::read_to_string(&back).unwrap(), listing50.replace("*/ ", "*/  "));
    std::fs::write(&text, "FROB R0 ;\n").unwrap();
    let err = run(&["asm", "--target", "sm_90", &s(&text), "-o", &s(&bin)]).unwrap_err();
    assert!(err.message().contains("k.sass:1:"), "{}", err.message());
    let _ = std::fs::remove_dir_all(&dir);
}
