//! Valid IR the sm_50 backend refuses (filetests/compile/sm50/reject): every function's
//! `; rejects: TEXT` comment must appear in the error `compile_sass(.., Sm50)` returns.

use atomc::{pipeline, Target};
use std::path::Path;

#[test]
fn sm50_rejections_carry_their_reason() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("filetests/filetests/compile/sm50/reject");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).expect("reject dir").flatten() {
        let src = std::fs::read_to_string(entry.path()).expect("read");
        let parsed = atomc::ir::parse::parse_file(&src).expect("parses");
        for pf in parsed.functions {
            let name = pf.func.name.to_string();
            let start = src.find(&format!("function %{name}(")).expect("function text");
            let want =
                src[start..].lines().find_map(|l| l.trim().strip_prefix("; rejects: ")).expect("a `; rejects:` line");
            match pipeline::compile_sass(&pf.func, Target::Sm50) {
                Ok(_) => panic!("%{name} compiled for sm_50"),
                Err(e) => assert!(e.to_string().contains(want), "%{name}: `{e}` lacks `{want}`"),
            }
            checked += 1;
        }
    }
    println!("sm_50 rejections: {checked} functions refused with their reason");
    assert!(checked > 0);
}
