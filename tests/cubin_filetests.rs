//! `--emit cubin` over the whole filetest suite.
//!
//! 1. Every filetest kernel atomc compiles for sm_90 becomes a cubin, which
//!    CUDA 13's `cuobjdump -elf -sass` and `nvdisasm` (on the ELF, no `-b`)
//!    must accept and list with exactly atomc's own instruction text, and
//!    whose attributes (register count, frame, parameters, EXIT offsets)
//!    cuobjdump must print as atomc computed them. CUDA 11.8's cuobjdump must
//!    accept the file too.
//! 2. The same kernels as PTX (`emit::ptx`), compiled by ptxas 11.8 and 13
//!    for sm_90, compared with atomc's cubin attribute by attribute
//!    (`cubin::compare::diff`); values that follow from the code (register
//!    count, EXIT offsets, ...) are printed side by side, not compared.

mod common;

use atomc::{pipeline, Emit, Output, Target};
use atomc_emit::cubin::compare::{diff, listing_instructions, Depth};
use atomc_emit::describe::param_layout;
use atomc_emit::cubin::inspect::inspect;
use atomc_emit::cubin::nvinfo::attr;
use atomc_oracle::{self as oracle, Sm, Tool};
use std::collections::BTreeMap;

/// `cuobjdump -elf -sass` with a chosen cuobjdump.
fn cuobjdump_elf_sass(tool: Tool, bytes: &[u8]) -> Result<String, oracle::OracleError> {
    oracle::cuobjdump_with(tool, bytes, &["-elf", "-sass"])
}

/// Where `tool`'s listing `text` of kernel `name`'s cubin first differs from atomc's own
/// listing `ours` (`None` if it lists the same instructions).
fn listing_mismatch(name: &str, tool: &str, text: &str, ours: &[(u32, String)]) -> Option<String> {
    let listed = listing_instructions(text);
    if listed == ours {
        return None;
    }
    let i = listed.iter().zip(ours).position(|(a, b)| a != b).unwrap_or(listed.len().min(ours.len()));
    Some(format!("{name}: {tool} lists {:?}, atomc {:?}", listed.get(i), ours.get(i)))
}

/// (name, function, cubin, atomc's listing as `(offset, text)`, the compile's output).
type Compiled = (
    String,
    atomc::ir::Function,
    Vec<u8>,
    Vec<(u32, String)>,
    pipeline::SassOutput,
);

/// One kernel in this many runs in the test command (`oracle::slice`); every one in the full run.
const SLICE: u32 = 4;

/// The atomc cubins of every filetest kernel of the slice that compiles for sm_90.
fn compiled_kernels() -> Vec<Compiled> {
    let mut out = Vec::new();
    println!("kernels: {}", oracle::slice::describe(SLICE));
    for (name, func) in oracle::slice::sample(common::filetest_kernels(), SLICE, |k| &k.0) {
        let Ok(sass) = pipeline::compile_sass(&func, Target::Sm90) else {
            continue;
        };
        let bytes = match atomc::compile(&func, Target::Sm90, Emit::Cubin) {
            Ok(Output::Binary(b)) => b,
            other => panic!("{name}: compile_sass succeeds but --emit cubin gives {other:?}"),
        };
        let listing = listing_instructions(&sass.kernel.listing(sass.arch, false));
        out.push((name, func, bytes, listing, sass));
    }
    out
}

#[test]
fn every_compiled_kernel_makes_a_cubin_the_tools_read() {
    if !oracle::require_all(&[Tool::Cuobjdump13, Tool::Nvdisasm13, Tool::Cuobjdump118]) {
        return;
    }
    let (mut checked, mut instrs) = (0, 0);
    let (mut with_frame, mut with_barrier, mut with_params) = (0, 0, 0);
    let mut failures = Vec::new();
    let kernels = compiled_kernels();
    // The tool runs dominate: run them on a few threads first.
    let outputs = common::par_map(&kernels, |(_, _, bytes, _, _)| {
        (
            cuobjdump_elf_sass(Tool::Cuobjdump13, bytes),
            oracle::nvdisasm_cubin(Sm::Sm90, bytes),
            cuobjdump_elf_sass(Tool::Cuobjdump118, bytes),
        )
    });
    for ((name, func, bytes, ours, sass), (cuobjdump13, nvdisasm13, cuobjdump118)) in kernels.into_iter().zip(outputs) {
        let _ = &bytes;
        checked += 1;
        instrs += ours.len();
        let alloc = &sass.allocated.alloc;
        let regcount = atomc_emit::sass::Sm::Sm90.regcount(alloc.num_regs);
        let params = param_layout(&func);
        let exits: String = sass.kernel.exit_offsets.iter().map(|o| format!("{o:#x} ")).collect();
        with_frame += usize::from(alloc.spill_bytes() > 0);
        with_barrier += usize::from(ours.iter().any(|(_, t)| t.starts_with("BAR")));
        with_params += usize::from(!params.is_empty());
        match cuobjdump13 {
            Ok(text) => {
                failures.extend(listing_mismatch(&name, "cuobjdump13", &text, &ours));
                let expect = [
                    format!("register count: {regcount}"),
                    format!("frame size: {:#x}", alloc.spill_bytes()),
                    format!("EIATTR_EXIT_INSTR_OFFSETS\n\tFormat:\tEIFMT_SVAL\n\tValue:\t{exits}"),
                ];
                for e in &expect {
                    if !text.contains(e.as_str()) {
                        failures.push(format!("{name}: cuobjdump13 does not print `{e}`"));
                    }
                }
                if text.matches("EIATTR_KPARAM_INFO").count() != params.len() {
                    failures.push(format!(
                        "{name}: cuobjdump13 prints a KPARAM_INFO count other than {}",
                        params.len()
                    ));
                }
                if !params.is_empty() {
                    let size = params.iter().map(|p| p.offset + p.size).max().unwrap_or(0);
                    let e = format!("EIATTR_CBANK_PARAM_SIZE\n\tFormat:\tEIFMT_HVAL\n\tValue:\t{size:#x}");
                    if !text.contains(&e) {
                        failures.push(format!("{name}: cuobjdump13 does not print `{e}`"));
                    }
                }
            }
            Err(e) => failures.push(format!("{name}: cuobjdump13 rejects the cubin: {e}")),
        }
        match nvdisasm13 {
            Ok(text) => failures.extend(listing_mismatch(&name, "nvdisasm13", &text, &ours)),
            Err(e) => failures.push(format!("{name}: nvdisasm13 rejects the cubin: {e}")),
        }
        match cuobjdump118 {
            Ok(text) => {
                if !text.contains(&format!("register count: {regcount}")) {
                    failures.push(format!("{name}: cuobjdump118 does not print the register count"));
                }
            }
            Err(e) => failures.push(format!("{name}: cuobjdump118 rejects the cubin: {e}")),
        }
        // REGCOUNT covers every register the listing names.
        let highest = ours
            .iter()
            .flat_map(|(_, t)| {
                t.split(|c: char| !c.is_ascii_alphanumeric())
                    .filter_map(|w| w.strip_prefix('R').and_then(|n| n.parse::<u32>().ok()))
                    .collect::<Vec<_>>()
            })
            .max();
        if let Some(h) = highest {
            if h + 1 > alloc.num_regs {
                failures.push(format!(
                    "{name}: R{h} used but the allocator reports {} registers",
                    alloc.num_regs
                ));
            }
        }
    }
    // A listing mismatch with an accepted container is an encoding problem (the raw
    // nvdisasm check in sm90_oracle.rs sees the same); anything else is the container's.
    let failed_kernels: std::collections::BTreeSet<&str> =
        failures.iter().map(|f| f.split(": ").next().unwrap_or("")).collect();
    let encoding = failures.iter().filter(|f| f.contains(" lists ")).count();
    println!(
        "cubins: {checked} checked ({instrs} instructions), {} failures ({} container problems, {encoding} listing mismatches)",
        failed_kernels.len(),
        failures.len() - encoding
    );
    println!("  of which {with_params} with parameters, {with_barrier} with a barrier, {with_frame} with a local frame");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked > 0);
}

#[test]
fn cubins_match_ptxas_attribute_by_attribute() {
    if !oracle::require_all(&[Tool::Ptxas118, Tool::Ptxas13]) {
        return;
    }
    let (mut compared, mut no_ptx) = (0, Vec::new());
    let mut differences: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut side_by_side = Vec::new();
    let mut explained = Vec::new();
    let kernels = compiled_kernels();
    // ptxas runs dominate: run them on a few threads first.
    let tools = [(Tool::Ptxas118, Depth::Full), (Tool::Ptxas13, Depth::Attributes)];
    let ptxas_out = common::par_map(&kernels, |(_, func, _, _, _)| {
        let ptx = atomc_lower::ptx::emit_ptx(func, 90).map_err(|e| e.to_string())?;
        Ok::<_, String>(tools.map(|(tool, _)| oracle::ptxas_with(tool, "sm_90", &ptx, &[])))
    });
    for ((name, func, ours, _, _), cubins) in kernels.into_iter().zip(ptxas_out) {
        let cubins = match cubins {
            Ok(c) => c,
            Err(e) => {
                no_ptx.push(format!("{name}: {e}"));
                continue;
            }
        };
        for ((tool, depth), theirs) in tools.into_iter().zip(cubins) {
            let theirs = match theirs {
                Ok(b) => b,
                Err(e) => {
                    no_ptx.push(format!("{name}: {tool} rejects atomc's PTX: {e}"));
                    continue;
                }
            };
            compared += 1;
            // atomc's selector widens i8/i16 parameters to 4-byte slots (isel's
            // `load_params`); PTX keeps them 1 and 2 bytes, so the parameter records and
            // the bank size differ for such kernels, each file consistent with its code.
            let sub_word = func.params().iter().any(|t| t.bytes() < 4);
            // ptxas calls subroutines of its own for 16-bit division (`CALL.REL.NOINC` to
            // `$k$__cuda_sm20_div_s16`, each with its frame records); atomc divides inline.
            let subroutines = inspect(&theirs).is_ok_and(|s| s.symbols.iter().any(|y| y.name.contains("__cuda_sm")));
            for d in diff(&ours, &theirs, depth, false).expect("both parse") {
                if subroutines && (d.starts_with("symbols") || d.starts_with(".nv.info records")) {
                    explained.push(format!("{name} ({tool}): ptxas's division subroutines (atomc inlines)"));
                    continue;
                }
                if sub_word && (d.contains("KPARAM_INFO") || d.starts_with("section .nv.constant0.")) {
                    explained.push(format!("{name} ({tool}): sub-word parameters widened to 4 bytes"));
                    continue;
                }
                if let Some(why) = only_tool_records(&d) {
                    explained.push(format!("{name} ({tool}): {why}"));
                    continue;
                }
                // Group by what differs (the text before the first ':').
                let key = format!("{tool}: {}", d.split(':').next().unwrap_or(""));
                differences.entry(key).or_default().push(format!("{name}: {d}"));
            }
            if tool == Tool::Ptxas118 {
                let (a, b) = (inspect(&ours).unwrap(), inspect(&theirs).unwrap());
                let regs = |s: &atomc_emit::cubin::inspect::CubinSummary| {
                    s.record(".nv.info", attr::REGCOUNT)
                        .map(|r| r.as_words()[1])
                        .unwrap_or(0)
                };
                side_by_side.push(format!("{name}: REGCOUNT atomc {} ptxas {}", regs(&a), regs(&b)));
            }
        }
    }
    println!("ptxas comparisons: {compared} cubin pairs");
    for line in &side_by_side {
        println!("  {line}");
    }
    for line in &no_ptx {
        println!("  not compared: {line}");
    }
    for line in &explained {
        println!("  explained difference: {line}");
    }
    let total: usize = differences.values().map(Vec::len).sum();
    for (key, list) in &differences {
        println!("difference `{key}` in {} pairs, e.g. {}", list.len(), list[0]);
    }
    println!("attribute comparison: {compared} pairs, {total} unexplained differences");
    assert_eq!(total, 0, "see the differences above");
    assert!(compared > 0);
}

/// A kernel-record difference that is only records ptxas 13 writes for tools, not for the
/// launch: `EIATTR_COOP_GROUP_MASK_REGIDS` (0x29, the registers holding the member masks of
/// PTX's `vote`/`shfl`/`match.sync`; atomc's subgroup instructions take no member mask) and
/// `EIATTR_UNUSED_LOAD_BYTE_OFFSET` (0x44, a vector load that reads bytes it does not use;
/// atomc loads what it uses). atomc's cubins run on an H100 without them (docs/gpu-runs.md).
fn only_tool_records(d: &str) -> Option<&'static str> {
    let (head, theirs) = d.split_once(", ptxas ")?;
    let ours = head.split_once(" records: atomc ")?.1;
    let mut why = None;
    let rest: Vec<&str> = theirs
        .split("; ")
        .filter(|r| {
            let tool_only = if r.starts_with("0x29 ") {
                Some("ptxas's EIATTR_COOP_GROUP_MASK_REGIDS (member masks of *.sync instructions)")
            } else if r.starts_with("0x44 ") {
                Some("ptxas's EIATTR_UNUSED_LOAD_BYTE_OFFSET (bytes its vector load reads unused)")
            } else {
                None
            };
            why = why.or(tool_only);
            tool_only.is_none()
        })
        .collect();
    (why.is_some() && rest.join("; ") == ours).then_some(why?)
}
