//! The command line's behaviour: argument parsing, exit codes, and the
//! shipped example.

use super::{dispatch, exit_code, Cli, UserError};
use clap::Parser;
use std::path::PathBuf;

fn repo(path: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(path)
        .display()
        .to_string()
}

fn run(args: &[&str]) -> Result<(), UserError> {
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
fn user_errors_exit_with_1() {
    let missing = run(&["verify", "/nonexistent/x.atom"]).unwrap_err();
    assert!(missing.0.contains("cannot read"), "{}", missing.0);
    let invalid = run(&["verify", &repo("filetests/filetests/verify/atomic-order.atom")]).unwrap_err();
    assert!(invalid.0.contains("error[atomic-order]"), "{}", invalid.0);
    assert_eq!(exit_code(Ok(Err(invalid))), 1);
    let asm = run(&["asm", "--target", "sm_90", "-o", "/dev/null"]);
    assert_eq!(exit_code(Ok(asm)), 1);
    assert_eq!(exit_code(Ok(Ok(()))), 0);
}

#[test]
fn a_panic_is_an_internal_error_not_101() {
    let caught = atomc_filetests::panic_capture::catch(|| -> Result<(), UserError> { panic!("boom") });
    assert_eq!(exit_code(caught), 1);
}

#[test]
fn run_options_build_a_run_line() {
    let file = repo("filetests/filetests/interpret/contention-add.atom");
    let ok = [
        "run",
        &file,
        "--function",
        "count_blocks",
        "--grid",
        "4",
        "--block",
        "8",
        "--init",
        "c: i64[1] = 5",
        "--args",
        "c",
        "--expect",
        "c == [37]",
    ];
    run(&ok).expect("32 increments");
    let wrong = [
        "run",
        &file,
        "--function",
        "count_blocks",
        "--block",
        "8",
        "--init",
        "c: i64[1] = 5",
        "--args",
        "c",
        "--expect",
        "c == [37]",
    ];
    assert!(run(&wrong).is_err());
}

#[test]
fn compile_emits_ir_and_rejects_binary_for_many_functions() {
    let file = repo("filetests/filetests/interpret/cas.atom");
    let out = std::env::temp_dir().join(format!("atomc-cli-{}.txt", std::process::id()));
    let out_s = out.display().to_string();
    run(&["compile", &file, "--target", "sm_90", "--emit", "ir", "-o", &out_s]).expect("ir output");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("atomic_cas.i32 acq_rel gpu"), "{text}");
    let _ = std::fs::remove_file(&out);
    let err = run(&["compile", &file, "--target", "sm_90", "--emit", "cubin"]).unwrap_err();
    assert!(err.0.contains("--function"), "{}", err.0);
}
