//! Valid IR a SASS backend refuses (filetests/compile/sm50/reject, and the files of
//! filetests/compile/sm90/reject whose only target is sm_90): every function's
//! `; rejects: TEXT` comment must appear in the error `compile_sass` returns.

use atomc::{pipeline, Target};
use std::path::Path;

#[test]
fn sm50_rejections_carry_their_reason() {
    let checked = check_rejections("sm50", Target::Sm50, |_| true);
    println!("sm_50 rejections: {checked} functions refused with their reason");
}

#[test]
fn sm90_rejections_carry_their_reason() {
    let only_sm90 = |src: &str| src.lines().filter(|l| l.starts_with("target ")).eq(["target sm_90"]);
    let checked = check_rejections("sm90", Target::Sm90, only_sm90);
    println!("sm_90 rejections: {checked} functions refused with their reason");
}

/// Checks every function of the files of `compile/<dir>/reject` that `select` keeps; returns
/// how many (at least one).
fn check_rejections(dir: &str, target: Target, select: impl Fn(&str) -> bool) -> usize {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("filetests/filetests/compile").join(dir).join("reject");
    let mut checked = 0;
    for entry in std::fs::read_dir(&path).expect("reject dir").flatten() {
        let src = std::fs::read_to_string(entry.path()).expect("read");
        if !select(&src) {
            continue;
        }
        let parsed = atomc::ir::parse::parse_file(&src).expect("parses");
        for pf in parsed.functions {
            let name = pf.func.name.to_string();
            let start = src.find(&format!("function %{name}(")).expect("function text");
            let want =
                src[start..].lines().find_map(|l| l.trim().strip_prefix("; rejects: ")).expect("a `; rejects:` line");
            match pipeline::compile_sass(&pf.func, target) {
                Ok(_) => panic!("%{name} compiled for {target:?}"),
                Err(e) => assert!(e.to_string().contains(want), "%{name}: `{e}` lacks `{want}`"),
            }
            checked += 1;
        }
    }
    assert!(checked > 0, "no function in {}", path.display());
    checked
}
