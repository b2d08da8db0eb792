//! Shared by the `visa_*` tests: the vISA compile filetests, a GenX_IR
//! round trip (visa.md §8) that compares the text and `.isa` paths, and the
//! seeded input bytes, memory comparison and lock breaking of the simulator
//! tests.

#![allow(dead_code)]

use atomc::ir::interp::{BufferId, DataValue, Memory};
use atomc::ir::{AddrSpace, Function};
use atomc_emit::visa::{AtomicOp, AtomicWidth, Ext, Imm, Kernel, Op, Operand, Platform, Relop};
use atomc_oracle::{genx_ir, GenxInput};
use std::path::{Path, PathBuf};

/// The vISA compile filetests.
pub fn visa_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("filetests/filetests/compile/visa")
}

/// Every `.atom` file below `filetests/filetests` (all folders), sorted.
pub fn all_filetest_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    atom_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("filetests/filetests"), &mut files);
    files.sort();
    files
}

/// The `.atom` files below `dir`, at any depth (unsorted).
fn atom_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            atom_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "atom") {
            out.push(p);
        }
    }
}

/// `n` pseudo-random bytes below 0x40 from `seed` (xorshift): a buffer's initial contents.
pub fn init_bytes(seed: u64, n: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x & 0x3f) as u8
        })
        .collect()
}

/// A global buffer parameter of both runs: 512 bytes of [`init_bytes`] from `seed` added to
/// `mem` and recorded in `bufs` as (id, address, initial bytes); returns the interpreter's
/// argument and the simulator's input bytes (the address).
pub fn global_buffer(mem: &mut Memory, seed: u64, bufs: &mut Vec<(BufferId, u64, Vec<u8>)>) -> (DataValue, Vec<u8>) {
    let init = init_bytes(seed, 512);
    let id = mem.add_buffer(init.clone());
    let a = mem.buffer_addr(id);
    bufs.push((id, a, init));
    (DataValue::Ptr(AddrSpace::Global, a), a.to_le_bytes().to_vec())
}

/// `Ok` when the simulator's bytes `got` equal the interpreter's `want`; else where `what`
/// first differs, with up to 16 bytes of each from there.
pub fn first_diff(want: &[u8], got: &[u8], what: &str) -> Result<(), String> {
    if want == got {
        return Ok(());
    }
    let i = want.iter().zip(got).position(|(a, b)| a != b).unwrap_or(want.len().min(got.len()));
    Err(format!(
        "{what} differs from byte {i}: IR {:02x?} vISA {:02x?}",
        &want[i..(i + 16).min(want.len())],
        &got[i..(i + 16).min(got.len())]
    ))
}

/// Breaks a spinlock's acquire, the 32-bit `cmpxchg` of message `op` on the lock word: the
/// compare after it of the lock's old value with 0 compares 0 with 0, so every waiting lane
/// enters the critical section at once. Whether there was such a compare to break.
pub fn break_lock(k: &mut Kernel, op: Op) -> bool {
    let mut touched = false;
    for i in 1..k.insts.len() {
        let acquire = k.insts[i - 1].op == op && k.insts[i - 1].ext == Ext::Atomic(AtomicOp::CmpXchg, AtomicWidth::W32);
        let i_ = &mut k.insts[i];
        if acquire && i_.op == Op::Cmp && i_.ext == Ext::Relop(Relop::Eq) {
            i_.operands[1] = Operand::imm(Imm::ud(0));
            touched = true;
        }
    }
    touched
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

/// How many hardware threads of `lanes` lanes the lock tests run as one group: 64 lanes in all,
/// at most 8 threads.
pub fn lock_test_threads(lanes: u32) -> u32 {
    (64 / lanes).min(8)
}

/// The runs of the lock tests with the lock broken on purpose ([`break_lock`]) and how many of
/// them the comparison noticed: the tests' evidence that they would see a lock that does not
/// hold.
#[derive(Default)]
pub struct BrokenLockRuns {
    broken: usize,
    noticed: usize,
}

impl BrokenLockRuns {
    /// Records one run with the lock broken; `Err` (the two runs differ) means it was noticed.
    pub fn record(&mut self, what: &str, run: Result<(), String>) {
        self.broken += 1;
        match run {
            Err(e) => {
                println!("  noticed: {what}: {e}");
                self.noticed += 1
            }
            Ok(()) => println!("  not noticed: {what}"),
        }
    }

    /// Asserts that at least `min` runs had the lock broken and that every one was noticed.
    pub fn assert_all_noticed(&self, test: &str, min: usize) {
        let (broken, noticed) = (self.broken, self.noticed);
        println!("{test}: {noticed} of {broken} runs with the lock broken noticed");
        assert!(broken >= min && noticed == broken, "{noticed} of {broken}");
    }
}
