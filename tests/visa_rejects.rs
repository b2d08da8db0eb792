//! Valid IR the vISA backend refuses, with its diagnostic: every function
//! of `filetests/filetests/compile/visa/reject/*.atom` must fail to compile
//! for every `target visa platform=P` line of its file, with an
//! `Unsupported` error whose text contains the function's `; rejects:`
//! comment. The command line prints it and exits with status 1.

use atomc::{CompileError, Emit, Target};
use std::path::Path;

#[test]
fn every_reject_filetest_fails_with_its_diagnostic() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("filetests/filetests/compile/visa/reject");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    let (mut checked, mut problems) = (0, Vec::new());
    for path in files.iter().filter(|p| p.extension().is_some_and(|e| e == "atom")) {
        let src = std::fs::read_to_string(path).unwrap();
        let parsed = atomc::ir::parse::parse_file(&src).expect("reject files parse");
        let targets: Vec<Target> = parsed
            .headers
            .iter()
            .filter_map(|h| h.text.strip_prefix("target visa platform="))
            .map(|p| Target::from_name(&format!("visa:{}", p.trim())).expect("known platform"))
            .collect();
        assert!(!targets.is_empty(), "{}: no vISA target", path.display());
        for pf in &parsed.functions {
            let want = pf
                .comments
                .iter()
                .find_map(|c| c.text.strip_prefix("rejects: "))
                .unwrap_or_else(|| panic!("{}: %{} has no `; rejects:` comment", path.display(), pf.func.name));
            for &t in &targets {
                checked += 1;
                match atomc::compile(&pf.func, t, Emit::Visaasm) {
                    Err(e @ CompileError::Unsupported { .. }) if e.to_string().contains(want) => {}
                    Err(e) => problems.push(format!("%{} on {t}: wrong error: {e}\n  wanted: {want}", pf.func.name)),
                    Ok(_) => problems.push(format!("%{} on {t}: compiled, wanted: {want}", pf.func.name)),
                }
            }
        }
    }
    println!(
        "vISA rejects: {checked} function×platform pairs refused with their diagnostic, {} problems",
        problems.len()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(checked > 0);
}



/// A kernel past a limit of the `.isa` format (here 4095 predicates: a chain of 4,200 compares)
/// is refused like any other construct vISA cannot express, naming the limit, not reported as an
/// internal error.
#[test]
fn a_kernel_past_a_visa_format_limit_is_refused() {
    use atomc::ir::{AddrSpace, FunctionBuilder, IntCC, SpecialReg, Type};
    let mut b = FunctionBuilder::new("many_compares", &[Type::Ptr(AddrSpace::Global)]);
    let out = b.param(0);
    let mut acc = b.special(SpecialReg::ThreadIdX);
    for k in 0..4200 {
        let c = b.iconst(Type::I32, k);
        let less = b.icmp(IntCC::Ult, acc, c);
        acc = b.select(less, c, acc);
    }
    b.store(acc, out, 0);
    b.ret(&[]);
    let func = b.finish();
    match atomc::compile(&func, Target::from_name("visa:TGLLP").unwrap(), Emit::Visaasm) {
        Err(e @ CompileError::Unsupported { .. }) => {
            assert!(e.to_string().contains("vISA format limit") && e.to_string().contains("predicates"), "{e}")
        }
        Err(e) => panic!("wanted a refusal, got: {e}"),
        Ok(_) => panic!("4,200 live predicates cannot fit the format"),
    }
}
