//! `--target sm_50` on the command line: compile to text and to raw bundles, `asm` and
//! `disasm` round trips (control words included), and the assembler's refusal of the seeds'
//! sparse-predicate forms (exit code 1 with the reason).

mod common;

use common::{atomc, repo};


fn file(name: &str) -> String {
    repo(&format!("filetests/filetests/compile/sm50/{name}"))
}

#[test]
fn compile_asm_disasm_round_trip() {
    let dir = std::env::temp_dir().join(format!("atomc-sm50-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (asm, bin, bin2) = (dir.join("k.s"), dir.join("k.bin"), dir.join("k2.bin"));
    let src = file("cas.atom");
    let (rc, text, err) = atomc(&["compile", &src, "--target", "sm_50", "--function", "cas64", "--emit", "asm"]);
    assert_eq!(rc, 0, "{err}");
    assert!(text.contains("ATOM.E.CAS.64"), "{text}");
    std::fs::write(&asm, &text).expect("write");
    let (rc, _, err) = atomc(&["asm", "--target", "sm_50", asm.to_str().unwrap(), "-o", bin.to_str().unwrap()]);
    assert_eq!(rc, 0, "{err}");
    let (rc, _, err) = atomc(&[
        "compile",
        &src,
        "--target",
        "sm_50",
        "--function",
        "cas64",
        "--emit",
        "bin",
        "-o",
        bin2.to_str().unwrap(),
    ]);
    assert_eq!(rc, 0, "{err}");
    let (a, b) = (std::fs::read(&bin).expect("bin"), std::fs::read(&bin2).expect("bin2"));
    assert_eq!(a.len() % 32, 0, "whole 32-byte bundles");
    // The listing carries no schedule comments, so only the instruction words must agree.
    let words = |v: &[u8]| v.chunks(32).flat_map(|c| c[8..].to_vec()).collect::<Vec<u8>>();
    assert_eq!(words(&a), words(&b), "asm of the listing gives the compiler's instruction words");
    let (rc, back, err) = atomc(&["disasm", "--target", "sm_50", bin2.to_str().unwrap()]);
    assert_eq!(rc, 0, "{err}");
    let norm = |s: &str| s.lines().map(|l| l.split_whitespace().collect::<Vec<_>>().join(" ")).collect::<Vec<_>>();
    // The compile listing heads the kernel with its `.text.cas64:` label; raw words have none.
    let body: String = text.lines().filter(|l| !l.starts_with(".text.")).map(|l| format!("{l}\n")).collect();
    assert_eq!(norm(&back), norm(&body));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sparse_predicate_is_refused() {
    let dir = std::env::temp_dir().join(format!("atomc-sm50-cli-sp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let s = dir.join("p.s");
    std::fs::write(&s, "SUATOM.D.2D.ADD.IGN P0, R1, [R2], R4, R6 ;\n").expect("write");
    let (rc, _, err) =
        atomc(&["asm", "--target", "sm_50", s.to_str().unwrap(), "-o", dir.join("p.bin").to_str().unwrap()]);
    assert_eq!(rc, 1);
    assert!(err.contains("sparse-predicate") && err.contains("SUATOM"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
