//! The whole register file (issue 12): kernels keeping 40 .. 600 32-bit values (and 100 64-bit
//! values) live at once compile for sm_90 and sm_50, with and without a register cap of 32.
//! regalloc2's spill slots live in the registers above those it allocated until the file is
//! full; only then do values go to local memory (`STL`/`LDL` at `[R1+off]`).
//!
//! * every kernel compiles on both targets, its cubin's REGCOUNT stays within the target (or the
//!   cap), and a frame exists exactly when something spilled to memory;
//! * `cuobjdump -res-usage` reads each cubin and reports the same registers and stack (skipped
//!   without the tools);
//! * several run on the emulator, judged against the reference interpreter, with and without
//!   the cap;
//! * with `--nocapture` and the tools, ptxas's registers and stack for atomc's PTX of the same
//!   kernels are printed beside atomc's (the table in docs/bench.md).

use atomc::emulate::{self, Schedule};
use atomc::ir::Function;
use atomc::{pipeline, Emit, Options, Output, Target};
use atomc_oracle::{self as oracle, Sm, SmTools, Tool};

/// Live-value counts of the 32-bit kernels.
const SIZES: [usize; 6] = [40, 64, 100, 200, 300, 600];
/// The 64-bit variant: 100 live 64-bit values (200 registers' worth).
const WIDE: usize = 100;

/// `n` values loaded from `a`, then `o[j] = a[j] - a[(j+1) % n]` stored from the last `j` down:
/// every value stays live until the stores begin, and a value swapped with another is caught.
fn kernel(n: usize, wide: bool) -> String {
    let (ty, size) = if wide { ("i64", 8) } else { ("i32", 4) };
    let mut s = format!(
        "function %live{n}{}(ptr.global, ptr.global) {{\nblock0(v0: ptr.global, v1: ptr.global):\n",
        if wide { "_i64" } else { "" }
    );
    for i in 0..n {
        s += &format!("    v{} = load.{ty} v0+{}\n", i + 2, i * size);
    }
    let mut k = n + 2;
    for j in (0..n).rev() {
        s += &format!("    v{k} = isub v{}, v{}\n", j + 2, (j + 1) % n + 2);
        s += &format!("    store v{k}, v1+{}\n", j * size);
        k += 1;
    }
    s + "    return\n}\n"
}

/// A run line with pseudo-random inputs and the expected outputs.
fn run_line(n: usize, wide: bool) -> String {
    let mut x = 0x9e37_79b9_7f4a_7c15u64 ^ n as u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let (ty, xs): (&str, Vec<i64>) = if wide {
        ("i64", (0..n).map(|_| next() as i64).collect())
    } else {
        ("i32", (0..n).map(|_| next() as u32 as i32 as i64).collect())
    };
    let ys: Vec<i64> = (0..n)
        .map(|j| {
            if wide {
                xs[j].wrapping_sub(xs[(j + 1) % n])
            } else {
                (xs[j] as i32).wrapping_sub(xs[(j + 1) % n] as i32) as i64
            }
        })
        .collect();
    let list = |v: &[i64]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ");
    format!("args(a, o) a: {ty}[{n}] = [{}] o: {ty}[{n}] = 0 => o == [{}]", list(&xs), list(&ys))
}

fn parse(text: &str) -> Function {
    let mut funcs = atomc::ir::parse::parse(text).expect("generated kernel parses");
    funcs.remove(0)
}

fn all_kernels() -> Vec<(String, bool, usize)> {
    let mut v: Vec<(String, bool, usize)> = SIZES.iter().map(|&n| (format!("live{n}"), false, n)).collect();
    v.push((format!("live{WIDE}_i64"), true, WIDE));
    v
}

fn sm(target: Target) -> Sm {
    if target == Target::Sm90 {
        Sm::Sm90
    } else {
        Sm::Sm50
    }
}

/// `REG:n STACK:m` of the first function in a `cuobjdump -res-usage` listing.
fn res_usage(listing: &str) -> Option<(u32, u32)> {
    let field = |key: &str| -> Option<u32> {
        let at = listing.find(key)? + key.len();
        listing[at..].split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
    };
    Some((field("REG:")?, field("STACK:")?))
}

fn cubin(func: &Function, target: Target, cap: Option<u32>) -> Vec<u8> {
    match atomc::compile_with(func, target, Emit::Cubin, &Options { max_registers: cap, ..Default::default() }) {
        Ok(Output::Binary(b)) => b,
        Ok(_) => panic!("%{}: not binary", func.name),
        Err(e) => panic!("%{} on {target} cap {cap:?}: {e}", func.name),
    }
}

#[test]
fn live_value_kernels_compile_and_cuobjdump_reads_them() {
    let tools = oracle::require_all(&[Tool::Cuobjdump13, Tool::Cuobjdump118]);
    let ptxas = oracle::require_all(&[Tool::Ptxas13, Tool::Ptxas118]);
    let mut table = Vec::new();
    for (name, wide, n) in all_kernels() {
        let func = parse(&kernel(n, wide));
        for target in [Target::Sm90, Target::Sm50] {
            for cap in [None, Some(32)] {
                let opts = Options { max_registers: cap, ..Default::default() };
                let out = pipeline::compile_sass_with(&func, target, &opts)
                    .unwrap_or_else(|e| panic!("{name} on {target} cap {cap:?}: {e}"));
                let alloc = &out.allocated.alloc;
                let reserved = if target == Target::Sm90 { 2 } else { 0 };
                let regcount = alloc.num_regs + reserved;
                let limit = cap.unwrap_or(255);
                assert!(regcount <= limit, "{name} {target} cap {cap:?}: REGCOUNT {regcount}");
                let stack = alloc.spill_bytes();
                assert_eq!(stack > 0, alloc.stats.spills > 0, "{name} {target} cap {cap:?}: {alloc}");
                // 64 values fit regalloc2's own registers plus slot registers; 600 never fit.
                if cap.is_none() {
                    assert_eq!(stack > 0, n * if wide { 2 } else { 1 } > 240, "{name} {target}: {alloc}");
                } else {
                    assert!(stack > 0, "{name} {target} cap 32 must spill: {alloc}");
                }
                // The library's usage report counts the same spill traffic: stores and loads
                // exactly when there is a stack frame.
                let usage = atomc::compile_kernel(&func, target, &opts).and_then(|k| k.usage()).expect("usage");
                assert_eq!(usage.stack_bytes, stack, "{name} {target} cap {cap:?}");
                assert_eq!(usage.spill_store_bytes > 0, stack > 0, "{name} {target} cap {cap:?}: {usage:?}");
                assert_eq!(usage.spill_load_bytes > 0, stack > 0, "{name} {target} cap {cap:?}: {usage:?}");
                let bin = cubin(&func, target, cap);
                let mut row = format!(
                    "| {name} | {target} | {} | {} | {} | {} |",
                    cap.map_or("-".to_string(), |c| c.to_string()),
                    regcount,
                    stack,
                    alloc.stats
                );
                if tools {
                    let listing = oracle::cuobjdump(sm(target), &bin, &["-res-usage"]).expect("cuobjdump runs");
                    let (reg, st) = res_usage(&listing).unwrap_or_else(|| panic!("no REG/STACK in {listing}"));
                    assert_eq!(
                        (reg, st),
                        (regcount.max(if target == Target::Sm90 { 4 } else { 2 }), stack),
                        "{name} {target} cap {cap:?}: cuobjdump says {listing}"
                    );
                }
                if ptxas {
                    let ptx = match atomc::compile(&func, target, Emit::Ptx) {
                        Ok(Output::Text(t)) => t,
                        _ => panic!("{name}: no PTX"),
                    };
                    let tool = if target == Target::Sm90 { Tool::Ptxas13 } else { Tool::Ptxas118 };
                    let cap_arg = cap.map(|c| format!("--maxrregcount={c}"));
                    let extra: Vec<&str> = cap_arg.iter().map(|s| s.as_str()).collect();
                    let theirs = oracle::ptxas_with(tool, sm(target).ptx_arch(), &ptx, &extra)
                        .unwrap_or_else(|e| panic!("ptxas {name}: {e}"));
                    if tools {
                        let listing = oracle::cuobjdump(sm(target), &theirs, &["-res-usage"]).expect("cuobjdump");
                        if let Some((r, s)) = res_usage(&listing) {
                            row = format!(
                                "| {name} | {target} | {} | {regcount} | {stack} | {r} | {s} | {} |",
                                cap.map_or("-".to_string(), |c| c.to_string()),
                                alloc.stats
                            );
                        }
                    }
                }
                table.push(row);
            }
        }
    }
    println!("| kernel | target | cap | atomc REG | atomc STACK | ptxas REG | ptxas STACK | atomc allocator |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- |");
    for r in table {
        println!("{r}");
    }
}

fn run_on_emulator(name: &str, n: usize, wide: bool, target: Target, cap: Option<u32>) {
    let func = parse(&kernel(n, wide));
    let spec = atomc::ir::interp::parse_run_line(&func, &run_line(n, wide)).expect("run line parses");
    let want = emulate::interpret(&func, &spec).expect("the interpreter runs it");
    let bin = cubin(&func, target, cap);
    let (exact, out) = emulate::run_and_judge(&bin, &func, &spec, &want, Schedule::RoundRobin)
        .unwrap_or_else(|e| panic!("{name} on {target} cap {cap:?}: {e}"));
    assert!(exact, "{name} on {target} cap {cap:?}: not the interpreter's bytes");
    spec.check_contents(&out.buffers).unwrap_or_else(|e| panic!("{name} on {target} cap {cap:?}: {e}"));
}

#[test]
fn spilling_kernels_run_on_the_emulator() {
    for target in [Target::Sm90, Target::Sm50] {
        for cap in [None, Some(32)] {
            for n in [40, 100, 300] {
                run_on_emulator(&format!("live{n}"), n, false, target, cap);
            }
            run_on_emulator("live100_i64", WIDE, true, target, cap);
        }
    }
}

#[test]
fn the_600_value_kernel_runs_on_the_emulator() {
    for target in [Target::Sm90, Target::Sm50] {
        run_on_emulator("live600", 600, false, target, None);
    }
}



/// The register cap travels in the cubin as ptxas writes it: MAXREG_COUNT is the cap under
/// `--maxrregcount 32` / `--max-registers 32`, and 0xff without one (ptxas 13.5 and 11.8).
#[test]
fn the_register_cap_is_written_as_ptxas_writes_it() {
    use atomc_emit::cubin::{inspect::inspect, nvinfo::attr};
    let func = parse(&kernel(40, false));
    for target in [Target::Sm90, Target::Sm50] {
        let Some(_) = oracle::require(sm(target).ptxas_tool()) else { return };
        let Ok(Output::Text(ptx)) = atomc::compile(&func, target, Emit::Ptx) else { panic!("PTX") };
        for cap in [None, Some(32)] {
            let flag = cap.map(|n| format!("--maxrregcount={n}"));
            let extra: Vec<&str> = flag.iter().map(String::as_str).collect();
            let theirs = oracle::ptxas_with(sm(target).ptxas_tool(), sm(target).ptx_arch(), &ptx, &extra).unwrap();
            let ours = cubin(&func, target, cap);
            let maxreg = |bytes: &[u8]| {
                let s = inspect(bytes).unwrap();
                let r = s.record(&format!(".nv.info.{}", func.name), attr::MAXREG_COUNT).expect("MAXREG_COUNT").clone();
                r.value
            };
            assert_eq!(maxreg(&ours), maxreg(&theirs), "{target} cap {cap:?}");
            assert_eq!(maxreg(&ours)[0], cap.unwrap_or(0xff) as u8);
        }
    }
}
