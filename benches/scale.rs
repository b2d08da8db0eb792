//! Compile time against kernel size: generated kernels of about 1k, 10k, 100k and 1M IR
//! instructions, compiled for sm_90, sm_50, vISA (TGLLP) and PTX, with the time per IR
//! instruction and its growth per tenfold size. A pass whose cost grows faster than the code
//! shows up as a growth ratio well above 10.
//!
//! `cargo bench --bench scale`
//!
//! Environment:
//! - `ATOMC_SCALE_MAX`: the largest size to build (default 1000000);
//! - `ATOMC_SCALE_TARGETS`: a comma-separated subset of `sm_90,sm_50,visa,ptx`;
//! - `ATOMC_SCALE_SHAPES`: a comma-separated subset of `chain,branchy`;
//! - `ATOMC_SCALE_DIGEST=DIR[,DIR..]`: time nothing; instead print a hash of every output
//!   kind for every target, of each function in the `.atom` files under the directories and
//!   of the generated kernels (up to `ATOMC_SCALE_MAX`), one line each. Two builds that print
//!   the same lines emit the same code, which is how a speed-up is checked to change nothing.
//!
//! Totals are the best of a few whole compiles through the public entry points; the stage
//! split comes from one more compile done stage by stage (the same calls those entry points
//! make), so the stages add up to about the total, not exactly.

use atomc::ir::{AddrSpace, BinaryOp, ConvOp, FunctionBuilder, IntCC, MemOrder, RmwOp, Scope, SpecialReg, Type, Value};
use atomc::{pipeline, Emit, Target, VisaPlatform};
use std::time::{Duration, Instant};

mod common;

/// One step of the chain: 9 IR instructions, ending in an atomic whose result feeds the next
/// step, so every value stays live into the next and the allocator has real work.
fn chain_step(
    b: &mut FunctionBuilder,
    k: usize,
    acc: Value,
    tid: Value,
    table: Value,
    mask: Value,
    four: Value,
) -> Value {
    let c = b.iconst(Type::I32, (k as i64 * 7919) & 0xffff);
    let x = b.binary(BinaryOp::Iadd, acc, c);
    let y = b.binary(BinaryOp::Bxor, x, tid);
    let p = common::table_word(b, table, y, mask, four);
    // A quarter of the atomics are `sub` (rewritten to `add` of the negation) and a quarter
    // acquire-release (fenced), so the legalizer inserts instructions all along the block.
    let (op, order) = match k % 4 {
        1 => (RmwOp::Sub, MemOrder::Relaxed),
        2 => (RmwOp::Add, MemOrder::AcqRel),
        _ => (RmwOp::Add, MemOrder::Relaxed),
    };
    let old = b.atomic_rmw(op, Type::I32, order, Scope::Gpu, p, 0, x);
    b.binary(BinaryOp::Iadd, old, y)
}

/// A float `max` step (3 IR instructions): a compare-and-swap loop on both SASS targets,
/// which splits its block in three.
fn fmax_step(b: &mut FunctionBuilder, acc: Value, table: Value) -> Value {
    let f = b.convert(ConvOp::Bitcast, Type::F32, acc);
    let old = b.atomic_rmw(RmwOp::Fmax, Type::F32, MemOrder::Relaxed, Scope::Gpu, table, 0, f);
    b.convert(ConvOp::Bitcast, Type::I32, old)
}

const STEP: usize = 9;

/// Straight-line: one block of `insts / 9` chained steps.
fn chain_kernel(insts: usize) -> atomc::ir::Function {
    let mut b = FunctionBuilder::new("chain", &[Type::Ptr(AddrSpace::Global), Type::Ptr(AddrSpace::Global)]);
    let (out, table) = (b.param(0), b.param(1));
    let tid = b.special(SpecialReg::ThreadIdX);
    let four = b.iconst(Type::I64, 4);
    let mask = b.iconst(Type::I32, 1023);
    let mut acc = tid;
    for k in 0..insts / STEP {
        acc = chain_step(&mut b, k, acc, tid, table, mask, four);
    }
    b.store(acc, out, 0);
    b.ret(&[]);
    b.finish()
}

/// Many blocks: every 16 steps end in a branch on a thread-dependent condition to a block
/// with one more step and a float `max` atomic, both paths meeting in a join block that takes
/// the chain value as a parameter. Exercises the block-level passes (layout, reconvergence,
/// liveness across edges, the CAS-loop expansion) with a block boundary every ~40
/// instructions.
fn branchy_kernel(insts: usize) -> atomc::ir::Function {
    const PER_BLOCK: usize = 16;
    // 16 steps, the branch's 3 instructions, the side block's two steps and jump.
    const PER_ROUND: usize = PER_BLOCK * STEP + 3 + STEP + 3 + 1;
    let mut b = FunctionBuilder::new("branchy", &[Type::Ptr(AddrSpace::Global), Type::Ptr(AddrSpace::Global)]);
    let (out, table) = (b.param(0), b.param(1));
    let tid = b.special(SpecialReg::ThreadIdX);
    let four = b.iconst(Type::I64, 4);
    let mask = b.iconst(Type::I32, 1023);
    let one = b.iconst(Type::I32, 1);
    let mut acc = tid;
    let mut k = 0;
    for _ in 0..(insts / PER_ROUND).max(1) {
        for _ in 0..PER_BLOCK {
            acc = chain_step(&mut b, k, acc, tid, table, mask, four);
            k += 1;
        }
        let side = b.create_block();
        let join = b.create_block();
        let joined = b.block_param(join, Type::I32);
        let bit = b.binary(BinaryOp::Band, acc, one);
        let c = b.icmp(IntCC::Eq, bit, one);
        b.brif(c, side, &[], join, &[acc]);
        b.switch_to_block(side);
        let more = chain_step(&mut b, k, acc, tid, table, mask, four);
        let more = fmax_step(&mut b, more, table);
        k += 1;
        b.jump(join, &[more]);
        b.switch_to_block(join);
        acc = joined;
    }
    b.store(acc, out, 0);
    b.ret(&[]);
    b.finish()
}

#[derive(Clone, Copy, PartialEq)]
enum Tgt {
    Sm90,
    Sm50,
    Visa,
    Ptx,
}

impl Tgt {
    fn name(self) -> &'static str {
        match self {
            Tgt::Sm90 => "sm_90",
            Tgt::Sm50 => "sm_50",
            Tgt::Visa => "visa",
            Tgt::Ptx => "ptx",
        }
    }

    fn stage_names(self) -> &'static [&'static str] {
        match self {
            Tgt::Sm90 | Tgt::Sm50 => &["legalize", "isel", "regalloc", "emit"],
            Tgt::Visa => &["legalize", "lower", "write"],
            Tgt::Ptx => &["ptx"],
        }
    }
}

/// One whole compile through the public entry point; returns a size to keep the work alive.
fn compile_once(func: &atomc::ir::Function, t: Tgt) -> Result<usize, atomc::CompileError> {
    let size = |out: atomc::Output| match out {
        atomc::Output::Binary(b) => b.len(),
        atomc::Output::Text(s) => s.len(),
    };
    Ok(match t {
        Tgt::Sm90 => pipeline::compile_sass(func, Target::Sm90)?.kernel.instrs.len(),
        Tgt::Sm50 => pipeline::compile_sass(func, Target::Sm50)?.kernel.instrs.len(),
        Tgt::Visa => size(atomc::compile(func, Target::Visa(VisaPlatform::Tgllp), Emit::Isa)?),
        Tgt::Ptx => size(atomc::compile(func, Target::Sm90, Emit::Ptx)?),
    })
}

/// The same compile split into its stages, each timed.
fn compile_staged(func: &atomc::ir::Function, t: Tgt) -> Vec<Duration> {
    let mut times = Vec::new();
    let mut lap = {
        let mut at = Instant::now();
        move |times: &mut Vec<Duration>| {
            let now = Instant::now();
            times.push(now - at);
            at = now;
        }
    };
    match t {
        Tgt::Sm90 | Tgt::Sm50 => {
            let (target, isel_target, rules, arch) = if t == Tgt::Sm90 {
                (Target::Sm90, &atomc_lower::sass::SM90, atomc_regalloc::Sm::Sm90, atomc_emit::sass::sm90())
            } else {
                (Target::Sm50, &atomc_lower::sass::SM50, atomc_regalloc::Sm::Sm50, atomc_emit::sass::sm50())
            };
            let legal = pipeline::legalize(func, target).expect("legalizes");
            lap(&mut times);
            let vcode = atomc_lower::sass::isel::select(&legal, isel_target).expect("selects");
            lap(&mut times);
            let mut allocated =
                atomc_regalloc::allocate_and_check_owned(vcode, rules, &Default::default()).expect("allocates");
            if allocated.alloc.frame_reg.is_some() {
                allocated.code.prepend(isel_target.frame_prologue(allocated.alloc.spill_bytes()));
            }
            lap(&mut times);
            let kernel = atomc_emit::codegen::emit(&allocated.code, arch).expect("emits");
            lap(&mut times);
            std::hint::black_box(kernel);
        }
        Tgt::Visa => {
            let target = Target::Visa(VisaPlatform::Tgllp);
            let legal = pipeline::legalize(func, target).expect("legalizes");
            lap(&mut times);
            let k = atomc_lower::visa::lower(&legal, atomc_emit::visa::Platform::Tgllp, &Default::default())
                .expect("lowers");
            lap(&mut times);
            std::hint::black_box(k.to_isa());
            lap(&mut times);
        }
        Tgt::Ptx => {
            std::hint::black_box(compile_once(func, t).expect("compiles"));
            lap(&mut times);
        }
    }
    times
}

fn env_list(name: &str) -> Option<Vec<String>> {
    std::env::var(name).ok().map(|s| s.split(',').map(|x| x.trim().to_string()).filter(|x| !x.is_empty()).collect())
}

fn digest(what: &str, func: &atomc::ir::Function) {
    use std::hash::{Hash, Hasher};
    let targets = [
        Target::Sm50,
        Target::Sm90,
        Target::Visa(VisaPlatform::Tgllp),
        Target::Visa(VisaPlatform::Dg2),
        Target::Visa(VisaPlatform::Pvc),
    ];
    for target in targets {
        for (emit, emit_name) in Emit::ALL {
            // A fixed-key hasher: the same input hashes the same in every build.
            let mut h = std::hash::DefaultHasher::new();
            match atomc::compile(func, target, emit) {
                Ok(atomc::Output::Text(t)) => t.hash(&mut h),
                Ok(atomc::Output::Binary(b)) => b.hash(&mut h),
                Err(e) => e.to_string().hash(&mut h),
            }
            println!("{what} {target} {emit_name} {:016x}", h.finish());
        }
    }
}

fn atom_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            atom_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "atom") {
            out.push(p);
        }
    }
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument is not supported.
    let max: usize =
        std::env::var("ATOMC_SCALE_MAX").ok().and_then(|s| s.replace('_', "").parse().ok()).unwrap_or(1_000_000);
    let targets: Vec<Tgt> = {
        let all = [Tgt::Sm90, Tgt::Sm50, Tgt::Visa, Tgt::Ptx];
        match env_list("ATOMC_SCALE_TARGETS") {
            Some(names) => all.into_iter().filter(|t| names.iter().any(|n| n == t.name())).collect(),
            None => all.to_vec(),
        }
    };
    let shapes: Vec<&str> = {
        let all = ["chain", "branchy"];
        match env_list("ATOMC_SCALE_SHAPES") {
            Some(names) => all.into_iter().filter(|s| names.iter().any(|n| n == s)).collect(),
            None => all.to_vec(),
        }
    };
    let sizes: Vec<usize> = [1_000, 10_000, 100_000, 1_000_000].into_iter().filter(|&n| n <= max).collect();

    if let Some(dirs) = env_list("ATOMC_SCALE_DIGEST") {
        let mut files = Vec::new();
        for d in &dirs {
            atom_files(std::path::Path::new(d), &mut files);
        }
        for file in &files {
            let src = std::fs::read_to_string(file).expect("readable");
            match atomc::ir::parse::parse(&src) {
                Ok(funcs) => {
                    for f in &funcs {
                        digest(&format!("{}:{}", file.display(), f.name), f);
                    }
                }
                Err(_) => println!("{} does not parse", file.display()),
            }
        }
        for shape in &shapes {
            for &size in &sizes {
                let func = if *shape == "chain" { chain_kernel(size) } else { branchy_kernel(size) };
                digest(&format!("{shape}:{size}"), &func);
            }
        }
        return;
    }

    println!(
        "{:<8} {:>9} {:<6} {:>10} {:>8} {:>6}  stages (ms)",
        "shape", "IR insts", "target", "total ms", "us/inst", "x10"
    );
    for shape in &shapes {
        for &t in &targets {
            let mut prev: Option<Duration> = None;
            for &size in &sizes {
                let func = if *shape == "chain" { chain_kernel(size) } else { branchy_kernel(size) };
                let n = func.inst_order().count();
                let runs = match size {
                    0..=10_000 => 5,
                    10_001..=100_000 => 3,
                    _ => 1,
                };
                let mut best = Duration::MAX;
                let mut refused = None;
                for _ in 0..runs {
                    let at = Instant::now();
                    match compile_once(&func, t) {
                        Ok(n) => _ = std::hint::black_box(n),
                        Err(e) => {
                            refused = Some(e);
                            break;
                        }
                    }
                    best = best.min(at.elapsed());
                }
                // A format limit (vISA's 4095 predicates, say) is an answer, not a failure of
                // the benchmark.
                if let Some(e) = refused {
                    println!("{:<8} {:>9} {:<6} refused: {e}", shape, n, t.name());
                    continue;
                }
                let stages = compile_staged(&func, t);
                let split: Vec<String> = t
                    .stage_names()
                    .iter()
                    .zip(&stages)
                    .map(|(name, d)| format!("{name} {:.1}", d.as_secs_f64() * 1e3))
                    .collect();
                let growth = prev.map(|p| format!("{:.1}", best.as_secs_f64() / p.as_secs_f64())).unwrap_or_default();
                println!(
                    "{:<8} {:>9} {:<6} {:>10.1} {:>8.2} {:>6}  {}",
                    shape,
                    n,
                    t.name(),
                    best.as_secs_f64() * 1e3,
                    best.as_secs_f64() * 1e6 / n as f64,
                    growth,
                    split.join(", ")
                );
                prev = Some(best);
            }
        }
    }
}
