//! The NVIDIA oracles: `nvdisasm`, `ptxas`, `cuobjdump`.

use super::{os, run_tool, stdout_string, OracleError, ScratchDir, Sm, SmTools, Tool};

/// Disassembles raw instruction words with `nvdisasm -b SM50|SM90 -hex`.
///
/// `raw` is the bare `.text` bytes: for sm_90, each instruction as two little-endian u64 (low word
/// first); for sm_50, 32-byte bundles (a control word, then three instructions). An sm_50 bundle
/// needs a plausible control word: nvdisasm rejects NOP/EXIT slots under an all-zero one.
///
/// `-hex` is passed so every instruction line carries its encoding as a `/* 0x... */` comment,
/// which lets a test tie each printed line to the word it came from; [`disasm_instructions`]
/// strips it again. The result is nvdisasm's stdout, starting with a `.headerflags` line.
pub fn nvdisasm(arch: Sm, raw: &[u8]) -> Result<String, OracleError> {
    nvdisasm_raw(arch, raw, true)
}

/// Like [`nvdisasm`] but without `-hex`: the plain listing, one line per instruction.
pub fn nvdisasm_plain(arch: Sm, raw: &[u8]) -> Result<String, OracleError> {
    nvdisasm_raw(arch, raw, false)
}

fn nvdisasm_raw(arch: Sm, raw: &[u8], hex: bool) -> Result<String, OracleError> {
    let dir = ScratchDir::new()?;
    let file = dir.write("code.bin", raw)?;
    let mut args = vec![os("-b"), os(arch.nvdisasm_arch())];
    if hex {
        args.push(os("-hex"));
    }
    args.push(file.as_os_str());
    let out = run_tool(arch.nvdisasm_tool(), &args, None)?;
    Ok(stdout_string(&out))
}

/// Disassembles a whole cubin (ELF) with `nvdisasm -hex` (no `-b`: the ELF header names the
/// architecture), using the nvdisasm that reads `arch`.
pub fn nvdisasm_cubin(arch: Sm, cubin: &[u8]) -> Result<String, OracleError> {
    let dir = ScratchDir::new()?;
    let file = dir.write("module.cubin", cubin)?;
    let out = run_tool(arch.nvdisasm_tool(), &[os("-hex"), file.as_os_str()], None)?;
    Ok(stdout_string(&out))
}

/// Compiles PTX text with the default `ptxas` for `arch` (CUDA 11.8 for sm_50, 13.x for sm_90)
/// and returns the cubin's bytes. A rejected PTX gives [`OracleError::Failed`] with ptxas's
/// messages.
pub fn ptxas(arch: Sm, ptx: &str) -> Result<Vec<u8>, OracleError> {
    ptxas_with(arch.ptxas_tool(), arch.ptx_arch(), ptx, &[])
}

/// Compiles PTX with a chosen `ptxas` (`Tool::Ptxas13` or `Tool::Ptxas118`), `-arch=<target>`
/// (e.g. `"sm_90"`) and extra arguments (e.g. `["-O0"]`); returns the cubin's bytes.
pub fn ptxas_with(tool: Tool, target: &str, ptx: &str, extra: &[&str]) -> Result<Vec<u8>, OracleError> {
    let dir = ScratchDir::new()?;
    let input = dir.write("kernel.ptx", ptx.as_bytes())?;
    let output = dir.path().join("kernel.cubin");
    let arch = format!("-arch={target}");
    let mut args = vec![os(&arch)];
    args.extend(extra.iter().map(|a| os(a)));
    args.extend([input.as_os_str(), os("-o"), output.as_os_str()]);
    run_tool(tool, &args, None)?;
    match dir.read("kernel.cubin")? {
        Some(bytes) if !bytes.is_empty() => Ok(bytes),
        _ => Err(OracleError::NoOutput { tool, what: "cubin" }),
    }
}

/// Runs the `cuobjdump` that reads `arch` on a cubin with the given options (e.g. `["-elf"]`,
/// `["-sass"]`); the cubin's file name is appended last. Returns stdout.
pub fn cuobjdump(arch: Sm, cubin: &[u8], options: &[&str]) -> Result<String, OracleError> {
    cuobjdump_with(arch.cuobjdump_tool(), cubin, options)
}

/// [`cuobjdump`] with a chosen cuobjdump (e.g. both CUDA versions' on one sm_90 cubin).
pub fn cuobjdump_with(tool: Tool, cubin: &[u8], options: &[&str]) -> Result<String, OracleError> {
    let dir = ScratchDir::new()?;
    let file = dir.write("module.cubin", cubin)?;
    let mut args: Vec<&std::ffi::OsStr> = options.iter().map(|a| os(a)).collect();
    args.push(file.as_os_str());
    let out = run_tool(tool, &args, None)?;
    Ok(stdout_string(&out))
}

/// `cuobjdump -sass`: the SASS listing of a cubin.
pub fn cuobjdump_sass(arch: Sm, cubin: &[u8]) -> Result<String, OracleError> {
    cuobjdump(arch, cubin, &["-sass"])
}

/// Compiles PTX with the default `ptxas` for `arch` and returns the SASS instructions of the
/// resulting cubin as `cuobjdump -sass` lists them (all kernels, in file order): the reference
/// side of an atomc-vs-ptxas comparison.
pub fn ptxas_sass(arch: Sm, ptx: &str) -> Result<Vec<DisasmLine>, OracleError> {
    let cubin = ptxas(arch, ptx)?;
    Ok(disasm_instructions(&cuobjdump_sass(arch, &cubin)?))
}

/// One instruction of an nvdisasm/cuobjdump listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DisasmLine {
    /// The byte offset printed as `/*0040*/`.
    pub offset: u32,
    /// The instruction text with the trailing `;`, the hex comment and surrounding blanks removed
    /// (e.g. `ATOM.E.ADD.STRONG.GPU PT, R1, [R2], R3`, `@!P0 RED.E.ADD [R6+0x8], R3`).
    pub text: String,
}

/// Extracts the instructions from a listing printed by [`nvdisasm`], [`nvdisasm_plain`] or
/// [`cuobjdump_sass`], in order. Lines without an `/*offset*/` prefix (headers, labels, the
/// second hex line of an sm_90 instruction, sm_50 control words) are skipped.
pub fn disasm_instructions(listing: &str) -> Vec<DisasmLine> {
    listing_lines(listing)
        .into_iter()
        .map(|(offset, text)| DisasmLine { offset, text: text.trim_end_matches(';').trim_end().to_string() })
        .collect()
}

/// Every instruction line of an nvdisasm or cuobjdump listing as (offset, text), the text as
/// printed with `;` (and the blank nvdisasm sometimes leaves before it) kept, the `/* 0x.. */`
/// encoding comment and sm_50's dual-issue braces `{` `}` removed.
pub fn listing_lines(listing: &str) -> Vec<(u32, String)> {
    let mut out = Vec::new();
    for line in listing.lines() {
        let Some(rest) = line.trim_start().strip_prefix("/*") else { continue };
        let Some(end) = rest.find("*/") else { continue };
        let Ok(offset) = u32::from_str_radix(rest[..end].trim(), 16) else { continue };
        let mut text = &rest[end + 2..];
        if let Some(comment) = text.find("/*") {
            text = &text[..comment];
        }
        let text = text.trim().trim_start_matches('{').trim_end_matches('}').trim();
        if !text.is_empty() {
            out.push((offset, text.to_string()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::require;

    fn le64s(words: &[u64]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    #[test]
    fn parses_listing_lines() {
        let listing = "\t.headerflags\t@\"EF_CUDA_SM90\"\n        /*0000*/                   ATOM.E.ADD.STRONG.GPU PT, R1, [R2], R3 ;  /* 0x000000030201738a */\n                                                                             /* 0x000fc200001ee100 */\n        /*0010*/                   EXIT ;                                    /* 0x000000000000794d */\n";
        let got = disasm_instructions(listing);
        assert_eq!(
            got,
            vec![
                DisasmLine {
                    offset: 0,
                    text: "ATOM.E.ADD.STRONG.GPU PT, R1, [R2], R3".into()
                },
                DisasmLine {
                    offset: 0x10,
                    text: "EXIT".into()
                },
            ]
        );
    }

    #[test]
    fn nvdisasm13_decodes_sm90_golden_word() {
        if require(Tool::Nvdisasm13).is_none() {
            return;
        }
        let raw = le64s(&[
            0x000000030201738a,
            0x000fc200001ee100,
            0x000000000000794d,
            0x000fc20003800000,
        ]);
        let text = nvdisasm(Sm::Sm90, &raw).expect("nvdisasm runs");
        let insts = disasm_instructions(&text);
        assert_eq!(insts[0].text, "ATOM.E.ADD.STRONG.GPU PT, R1, [R2], R3");
        assert_eq!(insts[1].text, "EXIT");
    }

    #[test]
    fn nvdisasm118_decodes_sm50_golden_bundle() {
        if require(Tool::Nvdisasm118).is_none() {
            return;
        }
        let raw = le64s(&[
            0x001ffc00fd4007ef,
            0xed00000000370201,
            0x50b0000000070f00,
            0xe30000000007000f,
        ]);
        let text = nvdisasm_plain(Sm::Sm50, &raw).expect("nvdisasm runs");
        let insts: Vec<String> = disasm_instructions(&text).into_iter().map(|l| l.text).collect();
        assert_eq!(insts, ["ATOM.ADD R1, [R2], R3", "NOP", "EXIT"]);
    }

    const PTX: &str = ".version 7.8\n.target TARGET\n.address_size 64\n\
        .visible .entry k(.param .u64 p, .param .u32 v)\n{\n\
        .reg .u32 %r<3>;\n.reg .u64 %rd<3>;\n\
        ld.param.u64 %rd1, [p];\nld.param.u32 %r1, [v];\n\
        cvta.to.global.u64 %rd2, %rd1;\n\
        atom.global.add.u32 %r2, [%rd2], %r1;\nst.global.u32 [%rd2+4], %r2;\nret;\n}\n";

    #[test]
    fn ptxas_and_cuobjdump_round_trip() {
        for sm in [Sm::Sm50, Sm::Sm90] {
            if !crate::require_all(&[sm.ptxas_tool(), sm.cuobjdump_tool(), sm.nvdisasm_tool()]) {
                continue;
            }
            let ptx = PTX.replace("TARGET", sm.ptx_arch());
            let cubin = ptxas(sm, &ptx).expect("ptxas accepts the kernel");
            assert_eq!(&cubin[..4], b"\x7fELF");
            let sass = cuobjdump_sass(sm, &cubin).expect("cuobjdump runs");
            let listed = disasm_instructions(&sass);
            assert!(listed.iter().any(|l| l.text.contains("ATOM")), "{sass}");
            let text = nvdisasm_cubin(sm, &cubin).expect("nvdisasm reads the cubin");
            assert!(text.contains("ATOM"), "{text}");
            let sass = ptxas_sass(sm, &ptx).expect("ptxas + cuobjdump");
            assert!(sass.iter().any(|l| l.text.starts_with("EXIT")), "{sass:?}");
        }
    }

    #[test]
    fn ptxas_rejection_is_a_typed_error() {
        if require(Tool::Ptxas13).is_none() {
            return;
        }
        let err = ptxas(Sm::Sm90, ".version 7.8\n.target sm_90\nbogus;\n").unwrap_err();
        assert!(
            matches!(
                err,
                OracleError::Failed {
                    tool: Tool::Ptxas13,
                    ..
                }
            ),
            "{err}"
        );
    }
}
