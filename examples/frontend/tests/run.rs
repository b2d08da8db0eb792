//! Runs the example as a user would and checks what it prints.

use std::process::Command;

#[test]
fn compiles_three_kernels_for_two_targets_and_locates_the_refusals() {
    let out = Command::new(env!("CARGO_BIN_EXE_atomc-example-frontend")).output().expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    for target in ["sm_90", "sm_50"] {
        for kernel in ["count", "histogram", "max_index"] {
            let line = stdout
                .lines()
                .find(|l| l.starts_with(&format!("{target} %{kernel}: ")))
                .unwrap_or_else(|| panic!("no line for {target} %{kernel} in\n{stdout}"));
            assert!(line.contains(" registers, ") && line.contains(" instructions, "), "{line}");
        }
        assert!(stdout.contains(&format!("{target} module: 3 kernels, ")), "{stdout}");
    }
    // The histogram waits at one barrier (twice), the others at none.
    assert!(stdout.lines().any(|l| l.starts_with("sm_90 %histogram") && l.contains(" 1 barriers")), "{stdout}");

    // Both refusals: the file and line of this package's source that built the instruction,
    // the instruction, the rule, the target's reason.
    let refusals: Vec<&str> = stdout.lines().filter(|l| l.contains("error[target-unsupported]")).collect();
    assert_eq!(refusals.len(), 2, "{stdout}");
    let source = include_str!("../src/kernels.rs");
    for (r, needle) in refusals.iter().zip(["let q = b.ins(InstData::Ternary { op: TernaryOp::Fma", "let q = b.ins().fma("]) {
        let (at, rest) = r.split_once(": inst").unwrap_or_else(|| panic!("no instruction in {r}"));
        let mut parts = at.split(':');
        assert_eq!(parts.next(), Some("examples/frontend/src/kernels.rs"), "{r}");
        let line: usize = parts.next().and_then(|l| l.parse().ok()).unwrap_or_else(|| panic!("no line in {r}"));
        assert!(source.lines().nth(line - 1).is_some_and(|l| l.contains(needle)), "line {line} is not `{needle}`: {r}");
        assert!(rest.contains("sm_50 cannot express `fma on f16`"), "{r}");
    }
}
