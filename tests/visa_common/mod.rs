//! Shared by the `visa_*` tests: the vISA compile filetests and a GenX_IR
//! round trip (visa.md §8) that compares the text and `.isa` paths.

#![allow(dead_code)]

use atomc::ir::Function;
use atomc_emit::visa::{Kernel, Platform};
use atomc_oracle::{genx_ir, GenxInput};
use std::path::{Path, PathBuf};

/// The vISA compile filetests.
pub fn visa_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("filetests/filetests/compile/visa")
}

/// `(file/function, function)` for every function of every vISA compile filetest.
pub fn visa_filetest_kernels() -> Vec<(String, Function)> {
    let mut out = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(visa_dir())
        .expect("filetests/filetests/compile/visa exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "atom"))
        .collect();
    files.sort();
    for path in files {
        let src = std::fs::read_to_string(&path).expect("readable");
        let funcs = atomc::ir::parse::parse(&src).unwrap_or_else(|_| panic!("{} parses", path.display()));
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        for f in funcs {
            out.push((format!("{stem}/%{}", f.name), f));
        }
    }
    out
}

/// The element size of the surface bound at `slot`, as `f`'s surface atomics on it access it
/// (4 when none names the slot).
pub fn slot_elem_bytes(f: &Function, slot: u16) -> u32 {
    use atomc::ir::{InstData, SurfaceRef};
    f.inst_order()
        .find_map(|(_, i)| match &f.insts[i] {
            InstData::SurfaceRmw { ty, access, .. } | InstData::SurfaceCas { ty, access, .. }
                if access.surface == SurfaceRef::Slot(slot) =>
            {
                Some(ty.bytes())
            }
            _ => None,
        })
        .unwrap_or(4)
}

/// Drops comments, blank and `.version` lines and the `/// $n` tails;
/// undoes the `.isa` reader's label renaming; normalises spacing.
fn normalize(s: &str, renames: &[(String, String)]) -> String {
    let mut out = String::new();
    for line in s.lines() {
        let t = line.trim_end();
        let t = match t.find("///") {
            Some(i) => t[..i].trim_end(),
            None => t,
        };
        if t.trim_start().starts_with("//") || t.trim().is_empty() || t.starts_with(".version") {
            continue;
        }
        let mut l = t.to_string();
        for (from, to) in renames {
            l = l.replace(from.as_str(), to.as_str());
        }
        // GenX_IR's dump glues the first instruction onto the last
        // `.kernel_attr` line (visa.md §2): split it off again.
        for w in l.split_whitespace() {
            out.push_str(w);
            out.push(' ');
        }
        out.push('\n');
    }
    out.replace("\" ", "\"\n")
}

/// The `.isa` reader's label names (`NAME_<string index>`): the string
/// pool holds the kernel name, the variables, the predicates, the labels.
fn label_renames(k: &Kernel) -> Vec<(String, String)> {
    let base = 1 + k.vars.len() + k.preds.len();
    let mut v: Vec<(String, String)> =
        k.labels.iter().enumerate().map(|(i, l)| (format!("{l}_{}", base + i), l.clone())).collect();
    v.sort_by_key(|(from, _)| std::cmp::Reverse(from.len()));
    v
}

/// GenX_IR on our text (rc 0, no errors file, no assert/WARNING/ERROR lines)
/// and on our `.isa` (the same, then the same Gen code and the same
/// `-dumpcommonisa` print). `Ok(true)` when both paths agree.
pub fn genx_round_trip(k: &Kernel, p: Platform) -> Result<(), String> {
    let text = k.to_text();
    let t = genx_ir(GenxInput::Text(&text), p.genx_name()).map_err(|e| format!("text path: {e}\n{text}"))?;
    let b = genx_ir(GenxInput::Binary(&k.to_isa()), p.genx_name()).map_err(|e| format!(".isa path: {e}\n{text}"))?;
    let ren = label_renames(k);
    let (ta, ba) = (normalize(&t.asm, &[]), normalize(&b.asm, &ren));
    if ta != ba {
        return Err(format!("Gen code differs between text and .isa\n--- text\n{ta}--- isa\n{ba}"));
    }
    let td = normalize(t.visaasm.as_deref().unwrap_or(""), &[]);
    let bd = normalize(b.visaasm.as_deref().unwrap_or(""), &ren);
    if td.is_empty() || td != bd {
        return Err(format!("-dumpcommonisa differs between text and .isa\n--- text\n{td}--- isa\n{bd}"));
    }
    Ok(())
}
