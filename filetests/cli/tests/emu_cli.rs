//! `atomc run FILE --target sm_90|sm_50`: the run lines on the SASS emulator with atomc's
//! cubin; exit 0 when every line holds, 1 when one fails.

mod common;

use common::atomc;


const KERNEL: &str = "function %count(ptr.global) {
block0(v0: ptr.global):
    v1 = iconst.i32 1
    v2 = atomic_rmw.i32 add relaxed gpu v0, v1
    return
}
";

fn input(name: &str, expect: u32) -> String {
    let dir = std::env::temp_dir().join(format!("atomc-emu-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    let text = format!("{KERNEL}; run: grid 2 block 64 args(c) c: i32[1] = 0 => c == [{expect}]\n");
    std::fs::write(&path, text).expect("write");
    path.display().to_string()
}

#[test]
fn run_lines_on_the_emulator() {
    let good = input("good.atom", 128);
    let bad = input("bad.atom", 127);
    for target in ["sm_90", "sm_50"] {
        let (rc, out, err) = atomc(&["run", &good, "--target", target]);
        assert_eq!(rc, 0, "{target}: {out}{err}");
        assert!(out.contains(&format!("ok %count on {target}")), "{out}");
        let (rc, out, err) = atomc(&["run", &bad, "--target", target, "--seed", "7"]);
        assert_eq!(rc, 1, "{target}: {out}{err}");
        assert!(err.contains("c: is [128]") || err.contains("expected [127]"), "{err}");
    }
}
