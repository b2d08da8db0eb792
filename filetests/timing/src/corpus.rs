//! The kernels: atomc's `.atom` files (filetests, bench kernels, examples), their PTX through
//! ptxas, and atomc's own code of them, each read back through nvdisasm.
//!
//! This is the one module that uses atomc, and only for what is compiled: which PTX ptxas is
//! given and which cubins are checked. Nothing here reads atomc's timing.

use super::listing::{self, Family, Kernel};
use atomc::ir::Function;
use atomc_oracle::{self as oracle, Sm};
use std::path::{Path, PathBuf};

/// The repository root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn atom_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            atom_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "atom") {
            out.push(p);
        }
    }
}

/// `(file:%name, function)` for every kernel that verifies in the filetests, the bench corpus and
/// the examples, sorted.
pub fn atom_kernels() -> Vec<(String, Function)> {
    let root = repo();
    let mut files = Vec::new();
    for d in ["filetests/filetests", "filetests/bench", "examples"] {
        atom_files(&root.join(d), &mut files);
    }
    let mut out = Vec::new();
    for p in files {
        let Ok(src) = std::fs::read_to_string(&p) else { continue };
        let Ok(parsed) = atomc::ir::parse::parse_file(&src) else { continue };
        let rel = p.strip_prefix(&root).unwrap_or(&p).display().to_string();
        for pf in parsed.functions {
            if pf.func.is_kernel() && atomc::ir::verify::verify(&pf.func).is_ok() {
                out.push((format!("{rel}:%{}", pf.func.name), pf.func));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

pub fn sm(family: Family) -> Sm {
    match family {
        Family::Sm50 => Sm::Sm50,
        Family::Sm90 => Sm::Sm90,
    }
}

fn target(family: Family) -> atomc::Target {
    match family {
        Family::Sm50 => atomc::Target::Sm50,
        Family::Sm90 => atomc::Target::Sm90,
    }
}

/// nvdisasm's reading of a cubin.
pub fn disassemble(family: Family, cubin: &[u8]) -> Result<Vec<Kernel>, String> {
    let text = oracle::nvdisasm_cubin(sm(family), cubin).map_err(|e| e.to_string())?;
    listing::parse(&text, family).map_err(|e| e.to_string())
}

/// ptxas's code of a PTX module (ptxas 11.8 for sm_50, 13 for sm_90), read back by nvdisasm.
/// nvdisasm's listing is kept under `target/timing-corpus/`, keyed by the PTX, so a rebuild of
/// the tables reruns only what changed.
pub fn ptxas(family: Family, ptx: &str) -> Result<Vec<Kernel>, String> {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (family.name(), ptx).hash(&mut h);
    let dir = repo().join("target/timing-corpus");
    let cached = dir.join(format!("{}-{:016x}.txt", family.name(), h.finish()));
    let text = match std::fs::read_to_string(&cached) {
        Ok(t) => t,
        Err(_) => {
            let cubin = oracle::ptxas(sm(family), ptx).map_err(|e| e.to_string())?;
            let t = oracle::nvdisasm_cubin(sm(family), &cubin).map_err(|e| e.to_string())?;
            let _ = std::fs::create_dir_all(&dir).and_then(|_| std::fs::write(&cached, &t));
            t
        }
    };
    listing::parse(&text, family).map_err(|e| e.to_string())
}

/// atomc's PTX of a kernel, for ptxas.
pub fn ptx_of(family: Family, func: &Function) -> Option<String> {
    let num = match family {
        Family::Sm50 => 50,
        Family::Sm90 => 90,
    };
    atomc_lower::ptx::emit_ptx(func, num).ok()
}

/// atomc's code of kernels, read back by nvdisasm: per kernel, its listing, `None` where the
/// target refuses it, or the error. The kernels go through nvdisasm in modules of up to 64
/// (renamed `k0`, `k1`, ... so that names are unique), as one nvdisasm run takes about as long
/// for one kernel as for a hundred.
pub fn atomc(family: Family, funcs: &[&Function], opts: &atomc::Options) -> Vec<Result<Option<Kernel>, String>> {
    use rayon::prelude::*;
    let compiled: Vec<Result<Option<atomc::CompiledKernel>, String>> = funcs
        .par_iter()
        .enumerate()
        .map(|(i, f)| {
            let mut f = (*f).clone();
            f.name = format!("k{i}");
            match atomc::compile_kernel(&f, target(family), opts) {
                Ok(k) => Ok(Some(k)),
                Err(atomc::CompileError::Unsupported { .. }) => Ok(None),
                Err(e) => Err(e.to_string()),
            }
        })
        .collect();
    let ok: Vec<(usize, &atomc::CompiledKernel)> =
        compiled.iter().enumerate().filter_map(|(i, c)| c.as_ref().ok()?.as_ref().map(|k| (i, k))).collect();
    let listings: Vec<Result<Vec<Kernel>, String>> = ok
        .par_chunks(64)
        .map(|chunk| {
            let ks: Vec<&atomc::CompiledKernel> = chunk.iter().map(|&(_, k)| k).collect();
            let cubin = atomc::cubin_module(&ks).map_err(|e| e.to_string())?;
            disassemble(family, &cubin)
        })
        .collect();
    let mut out: Vec<Result<Option<Kernel>, String>> =
        compiled.iter().map(|c| c.as_ref().map(|_| None).map_err(|e| e.clone())).collect();
    for (chunk, listing) in ok.chunks(64).zip(listings) {
        for &(i, _) in chunk {
            out[i] = match &listing {
                Ok(ks) => ks
                    .iter()
                    .find(|k| k.name == format!("k{i}"))
                    .cloned()
                    .map(Some)
                    .ok_or_else(|| format!("k{i} is not in nvdisasm's listing")),
                Err(e) => Err(e.clone()),
            };
        }
    }
    out
}

/// Whether the tools for `family` are installed.
pub fn tools(family: Family) -> bool {
    let t = match family {
        Family::Sm50 => [oracle::Tool::Ptxas118, oracle::Tool::Nvdisasm118],
        Family::Sm90 => [oracle::Tool::Ptxas13, oracle::Tool::Nvdisasm13],
    };
    oracle::require_all(&t)
}
