//! atomc's cubin writer against ptxas's own cubins: each PTX kernel below is
//! compiled by ptxas (11.8 for sm_50 and sm_90, 13.x for sm_90); its code and
//! attributes are read back, written again by `write_cubin`, and the two
//! files are compared attribute by attribute (`cubin::compare::diff`), then
//! read by cuobjdump and nvdisasm, which must print the same instructions
//! for both.

use atomc_sass::cubin::compare::{diff, kernel_from_cubin, listing_instructions, Depth};
use atomc_sass::cubin::{self, inspect::inspect};
use atomc_oracle::{self as oracle, Sm, SmTools, Tool};

/// (name, PTX body after the `.target` line, with `TARGET` for the SM).
const KERNELS: &[(&str, &str)] = &[
    (
        "two_params",
        ".visible .entry k(.param .u64 p, .param .u32 v)\n{\n.reg .u32 %r<3>;\n.reg .u64 %rd<3>;\n\
         ld.param.u64 %rd1, [p];\nld.param.u32 %r1, [v];\ncvta.to.global.u64 %rd2, %rd1;\n\
         atom.global.add.u32 %r2, [%rd2], %r1;\nst.global.u32 [%rd2+4], %r2;\nret;\n}\n",
    ),
    ("no_params", ".visible .entry e()\n{\nret;\n}\n"),
    (
        "shared_local_barrier_maxntid",
        ".visible .entry s(.param .u64 p, .param .u32 v, .param .u64 q) .maxntid 128, 1, 1\n{\n\
         .reg .u32 %r<8>;\n.reg .u64 %rd<5>;\n.shared .align 4 .b8 sh[64];\n.local .align 4 .b8 loc[32];\n\
         ld.param.u64 %rd1, [p];\nld.param.u32 %r1, [v];\nmov.u32 %r3, %tid.x;\nshl.b32 %r4, %r3, 2;\n\
         mov.u32 %r5, sh;\nadd.u32 %r5, %r5, %r4;\natom.shared.add.u32 %r2, [%r5], %r1;\nbar.sync 0;\n\
         mov.u64 %rd3, loc;\ncvt.u64.u32 %rd4, %r4;\nadd.u64 %rd3, %rd3, %rd4;\nst.local.u32 [%rd3], %r2;\n\
         and.b32 %r6, %r1, 7;\nshl.b32 %r6, %r6, 2;\ncvt.u64.u32 %rd4, %r6;\nmov.u64 %rd3, loc;\n\
         add.u64 %rd3, %rd3, %rd4;\nld.local.u32 %r7, [%rd3];\ncvta.to.global.u64 %rd2, %rd1;\n\
         st.global.u32 [%rd2+4], %r7;\nret;\n}\n",
    ),
    (
        "cas_loop_branches",
        ".visible .entry c(.param .u64 p, .param .u32 a, .param .u32 b)\n{\n.reg .pred %p<2>;\n\
         .reg .u32 %r<6>;\n.reg .u64 %rd<3>;\nld.param.u64 %rd1, [p];\nld.param.u32 %r1, [a];\n\
         ld.param.u32 %r2, [b];\ncvta.to.global.u64 %rd2, %rd1;\nld.global.u32 %r3, [%rd2];\nL1:\n\
         add.u32 %r4, %r3, %r1;\natom.global.cas.b32 %r5, [%rd2], %r3, %r4;\nsetp.ne.u32 %p1, %r5, %r3;\n\
         mov.u32 %r3, %r5;\n@%p1 bra L1;\nsetp.eq.u32 %p1, %r2, 0;\n@%p1 ret;\nst.global.u32 [%rd2+8], %r2;\nret;\n}\n",
    ),
];

fn ptx_for(body: &str, sm: &str) -> String {
    format!(".version 7.8\n.target {sm}\n.address_size 64\n{body}")
}

/// (tool that compiles, target, how deep to compare, the tools that read the result).
fn cases() -> Vec<(Tool, Sm, Depth)> {
    vec![
        (Tool::Ptxas118, Sm::Sm50, Depth::Full),
        (Tool::Ptxas118, Sm::Sm90, Depth::Full),
        (Tool::Ptxas13, Sm::Sm90, Depth::Attributes),
    ]
}

/// `cuobjdump -elf -sass` with a chosen cuobjdump.
fn cuobjdump_elf_sass(tool: Tool, bytes: &[u8]) -> Result<String, oracle::OracleError> {
    oracle::cuobjdump_with(tool, bytes, &["-elf", "-sass"])
}

/// The instruction lines of a listing (nvdisasm also prints the data of
/// other sections as `/*offset*/ .byte ...` lines; those are dropped).
fn instructions(listing: &str) -> Vec<(u32, String)> {
    listing_instructions(listing)
}

/// The first line where two listings differ, as text.
fn first_difference(a: &[(u32, String)], b: &[(u32, String)]) -> Option<String> {
    if a == b {
        return None;
    }
    let i = a
        .iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    Some(format!(
        "line {i} of {}/{}: {:?} vs {:?}",
        a.len(),
        b.len(),
        a.get(i),
        b.get(i)
    ))
}

#[test]
fn rewritten_ptxas_cubins_match_attribute_by_attribute() {
    let needed = [
        Tool::Ptxas118,
        Tool::Ptxas13,
        Tool::Cuobjdump118,
        Tool::Cuobjdump13,
        Tool::Nvdisasm118,
        Tool::Nvdisasm13,
    ];
    if !oracle::require_all(&needed) {
        return;
    }
    let (mut checked, mut failures) = (0, Vec::new());
    for (ptxas, sm, depth) in cases() {
        for (label, body) in KERNELS {
            let ptx = ptx_for(body, sm.ptx_arch());
            let theirs = oracle::ptxas_with(ptxas, sm.ptx_arch(), &ptx, &[])
                .unwrap_or_else(|e| panic!("{label}: {ptxas} rejects the PTX: {e}"));
            let desc = kernel_from_cubin(&theirs).unwrap_or_else(|e| panic!("{label}: {e}"));
            let ours = cubin::write_cubin(&desc).unwrap_or_else(|e| panic!("{label}: {e}"));
            checked += 1;
            let what = format!("{label} ({ptxas} {sm})");
            // Attribute by attribute.
            for d in diff(&ours, &theirs, depth, true).expect("both parse") {
                failures.push(format!("{what}: {d}"));
            }
            // The readers: the same instructions from both files.
            let listed = |tool: Tool, bytes: &[u8]| cuobjdump_elf_sass(tool, bytes);
            if let Err(e) = listed(sm.cuobjdump_tool(), &theirs) {
                failures.push(format!("{what}: {} rejects ptxas's cubin: {e}", sm.cuobjdump_tool()));
                continue;
            }
            // Both CUDA versions' cuobjdump for sm_90 (11.8 reads only the classic layout,
            // which is what atomc writes).
            let readers: &[Tool] = match sm {
                Sm::Sm50 => &[Tool::Cuobjdump118],
                Sm::Sm90 => &[Tool::Cuobjdump13, Tool::Cuobjdump118],
            };
            for &tool in readers {
                // cuobjdump 11.8 spells some sm_90 operands the old way (no `desc[URx]`);
                // compare it with its own listing of ptxas's cubin when it can read that
                // (not ptxas 13's newer layout); otherwise only require that it accepts
                // atomc's file (it does not know some instructions ptxas 13 emits, such as
                // VIADD, so even the offsets would not line up).
                let own_reference = match listed(tool, &theirs) {
                    Ok(text) => Some(instructions(&text)),
                    Err(_) => None,
                };
                match listed(tool, &ours) {
                    Ok(text) => {
                        let got = instructions(&text);
                        let d = match &own_reference {
                            Some(r) => first_difference(&got, r),
                            None => None,
                        };
                        if let Some(d) = d {
                            failures.push(format!("{what}: {tool} lists different instructions: {d}"));
                        }
                        let regs = format!("register count: {}", desc.arch.regcount(desc.regs_used));
                        for needle in [regs.as_str(), "EIATTR_EXIT_INSTR_OFFSETS", "EIATTR_MAXREG_COUNT"] {
                            if !text.contains(needle) {
                                failures.push(format!("{what}: {tool} does not print `{needle}`"));
                            }
                        }
                    }
                    Err(e) => failures.push(format!("{what}: {tool} rejects atomc's cubin: {e}")),
                }
            }
            match oracle::nvdisasm_cubin(sm, &ours) {
                Ok(text) => {
                    let theirs_nv = oracle::nvdisasm_cubin(sm, &theirs)
                        .map(|t| instructions(&t))
                        .unwrap_or_default();
                    if let Some(d) = first_difference(&instructions(&text), &theirs_nv) {
                        failures.push(format!("{what}: nvdisasm lists different instructions: {d}"));
                    }
                }
                Err(e) => failures.push(format!("{what}: nvdisasm rejects atomc's cubin: {e}")),
            }
        }
    }
    println!("ptxas cubins rewritten: {checked} checked, {} failures", failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The smallest kernel `write_cubin` accepts: sm_90 `k`, one register, 32 bytes of code that
/// exit at once, no parameters, shared or local memory, and no optional attribute.
fn minimal_kernel() -> cubin::CubinKernel {
    cubin::CubinKernel {
        arch: Sm::Sm90,
        name: "k".into(),
        code: vec![0; 32],
        regs_used: 1,
        params: vec![],
        exit_offsets: vec![0],
        warp_wide_offsets: vec![],
        shared_bytes: 0,
        uses_shared: false,
        local_frame_bytes: 0,
        max_threads: None,
        max_registers: None,
        num_barriers: 0,
        extra_records: vec![],
        surface_refs: vec![],
    }
}

#[test]
fn written_attributes_read_back() {
    // Sizes, memory, limits and barriers set; the rest as in the minimal kernel.
    let k = cubin::CubinKernel {
        code: vec![0; 128],
        regs_used: 8,
        params: vec![
            cubin::KernelParam { offset: 0, size: 8 },
            cubin::KernelParam { offset: 8, size: 4 },
        ],
        exit_offsets: vec![0x10],
        shared_bytes: 64,
        uses_shared: true,
        local_frame_bytes: 16,
        max_threads: Some([256, 1, 1]),
        max_registers: Some(32),
        num_barriers: 1,
        ..minimal_kernel()
    };
    let bytes = cubin::write_cubin(&k).unwrap();
    let back = kernel_from_cubin(&bytes).unwrap();
    assert_eq!(back, k);
    let s = inspect(&bytes).unwrap();
    assert_eq!(s.header.e_flags, 0x5a055a);
    assert_eq!(
        (
            s.header.os_abi,
            s.header.abi_version,
            s.header.e_machine,
            s.header.e_version
        ),
        (0x33, 7, 190, 0x76)
    );
    assert_eq!(s.section(".nv.constant0.k").unwrap().size, 0x210 + 12);
    assert_eq!(s.section(".nv.shared.k").unwrap().size, 0x400 + 64);
    let mut k50 = k.clone();
    k50.arch = Sm::Sm50;
    k50.exit_offsets = vec![0x18];
    let b50 = cubin::write_cubin(&k50).unwrap();
    assert_eq!(kernel_from_cubin(&b50).unwrap(), k50);
    let s50 = inspect(&b50).unwrap();
    assert_eq!(s50.section(".text.k").unwrap().info >> 24, 8);
}

#[test]
fn invalid_descriptions_are_errors() {
    let ok = minimal_kernel();
    assert!(cubin::write_cubin(&ok).is_ok());
    let bad = [
        cubin::CubinKernel {
            name: String::new(),
            ..ok.clone()
        },
        cubin::CubinKernel {
            code: vec![0; 24],
            ..ok.clone()
        },
        cubin::CubinKernel {
            exit_offsets: vec![32],
            ..ok.clone()
        },
        cubin::CubinKernel {
            params: vec![cubin::KernelParam { offset: 4, size: 8 }],
            ..ok.clone()
        },
        cubin::CubinKernel {
            num_barriers: 17,
            ..ok.clone()
        },
        cubin::CubinKernel {
            arch: Sm::Sm50,
            exit_offsets: vec![0],
            ..ok.clone()
        },
    ];
    for k in bad {
        assert!(cubin::write_cubin(&k).is_err(), "{k:?}");
    }
}
