//! What NVIDIA's float-to-integer conversion gives for NaN, and that atomc's code gives the
//! IR's 0 regardless.
//!
//! The IR's `fcvt_to_sint` / `fcvt_to_uint` turn NaN into 0. NVIDIA's `F2I` (and PTX's
//! `cvt.rzi`) give 0 only where the source is not f64 and the result is narrower than 64 bits;
//! otherwise the result's top bit alone (PTX ISA 9.0, `cvt`). An H100 showed it first
//! (docs/gpu-runs.md, run 9: `conversions-all-sizes` disagreed with the interpreter in atomc's
//! and ptxas's code alike), so the emulator models it and the SASS and PTX lowerings add a NaN
//! select (`atomc_lower::legalize::nan_to_int`).
//!
//! - `ptxas_code_on_the_emulator`: ptxas's code of hand-written PTX conversions (no select)
//!   run on the emulator gives the hardware's values; without the emulator's rule it gives 0.
//! - `ptxas_code_on_the_gpu`: the same cubin on an sm_90 GPU, where one is present.
//! - `atomc_code_gives_zero`: atomc's own code, both targets, on the emulator: 0 everywhere.

use atomc::emulate::{run_cubin, Param};
use atomc::{Emit, Output, Target};
use atomc_oracle::{self as oracle, Sm, Tool};

/// Each conversion: PTX result type, source (`f32` at byte 0, `f64` at byte 8), where it is
/// stored, its width in bytes, and what NVIDIA's conversion writes for a NaN.
const CONVERSIONS: &[(&str, &str, usize, usize, u64)] = &[
    ("s64", "f32", 16, 8, 0x8000_0000_0000_0000),
    ("u64", "f32", 24, 8, 0x8000_0000_0000_0000),
    ("s32", "f32", 32, 4, 0),
    ("u32", "f32", 36, 4, 0),
    ("s8", "f64", 40, 1, 0x80),
    ("u8", "f64", 41, 1, 0x80),
    ("s16", "f64", 42, 2, 0x8000),
    ("s32", "f64", 44, 4, 0x8000_0000),
    ("u32", "f64", 48, 4, 0x8000_0000),
    ("s64", "f64", 56, 8, 0x8000_0000_0000_0000),
];

const BUFFER_BYTES: usize = 64;

/// One thread loads an f32 NaN and an f64 NaN from the buffer (loaded, so that ptxas cannot fold
/// the conversions) and stores every conversion of [`CONVERSIONS`].
fn ptx(sm: u32) -> String {
    let mut body = String::new();
    for (k, &(to, from, at, bytes, _)) in CONVERSIONS.iter().enumerate() {
        let (reg, st) = match bytes {
            8 => (format!("%rd{}", k + 2), "b64"),
            4 => (format!("%r{k}"), "b32"),
            2 => (format!("%h{k}"), "b16"),
            _ => (format!("%h{k}"), "b8"),
        };
        let src = if from == "f32" { "%f0" } else { "%fd0" };
        body += &format!("\tcvt.rzi.{to}.{from} {reg}, {src};\n\tst.global.{st} [%rd1+{at}], {reg};\n");
    }
    format!(
        ".version 7.8\n.target sm_{sm}\n.address_size 64\n\n.visible .entry nan_cvt(.param .u64 out)\n{{\n\
         \t.reg .f32 %f<1>;\n\t.reg .f64 %fd<1>;\n\t.reg .b64 %rd<16>;\n\t.reg .b32 %r<16>;\n\t.reg .b16 %h<16>;\n\
         \tld.param.u64 %rd0, [out];\n\tcvta.to.global.u64 %rd1, %rd0;\n\
         \tld.global.f32 %f0, [%rd1];\n\tld.global.f64 %fd0, [%rd1+8];\n{body}\tret;\n}}\n"
    )
}

fn input() -> Vec<u8> {
    let mut buf = vec![0u8; BUFFER_BYTES];
    buf[0..4].copy_from_slice(&0x7fc0_0000u32.to_le_bytes());
    buf[8..16].copy_from_slice(&0x7ff8_0000_0000_0000u64.to_le_bytes());
    buf
}

fn read(buf: &[u8], at: usize, bytes: usize) -> u64 {
    let mut word = [0u8; 8];
    word[..bytes].copy_from_slice(&buf[at..at + bytes]);
    u64::from_le_bytes(word)
}

/// What ptxas's code for `sm` writes for a NaN. ptxas 11.8 converts an f64 to u8 on sm_50 by
/// `F2I.U32.F64.TRUNC` (NaN: 0x8000_0000) and `I2I.U8.U32.SAT` (0xff) (not run on a Maxwell GPU).
fn expected(sm: u32, to: &str, from: &str, want: u64) -> u64 {
    if sm == 50 && (to, from) == ("u8", "f64") { 0xff } else { want }
}

/// Every conversion whose stored value differs from what NVIDIA's conversion writes.
fn wrong(sm: u32, buf: &[u8]) -> Vec<String> {
    CONVERSIONS
        .iter()
        .map(|&(to, from, at, bytes, want)| (to, from, read(buf, at, bytes), expected(sm, to, from, want)))
        .filter(|&(_, _, got, want)| got != want)
        .map(|(to, from, got, want)| format!("cvt.rzi.{to}.{from}: {got:#x}, expected {want:#x}"))
        .collect()
}

#[test]
fn ptxas_code_on_the_emulator() {
    for (sm, tool, arch) in [(90, Tool::Ptxas13, Sm::Sm90), (50, Tool::Ptxas118, Sm::Sm50)] {
        if oracle::require(tool).is_none() {
            return;
        }
        let cubin = oracle::ptxas(arch, &ptx(sm)).expect("ptxas accepts the PTX");
        let mut launch = atomc_emu::Launch::new([1, 1, 1], [1, 1, 1]);
        launch.params = vec![Param::Buffer { index: 0, offset: 0 }];
        launch.buffers = vec![input()];
        let out = run_cubin(&cubin, "nan_cvt", &launch).expect("the emulator runs ptxas's code");
        assert_eq!(wrong(sm, &out.buffers[0]), Vec::<String>::new(), "sm_{sm}");
    }
}

#[cfg(feature = "gpu")]
#[test]
fn ptxas_code_on_the_gpu() {
    use atomc::gpu::{run_kernel, Driver, KernelArg};
    let Ok(driver) = Driver::load() else { return eprintln!("nan_to_int: SKIPPED (no CUDA driver)") };
    let Ok(device) = driver.device(0) else { return eprintln!("nan_to_int: SKIPPED (no CUDA device)") };
    if device.compute_capability().ok() != Some((9, 0)) || oracle::require(Tool::Ptxas13).is_none() {
        return eprintln!("nan_to_int: SKIPPED (no sm_90 device or no ptxas)");
    }
    let cubin = oracle::ptxas(Sm::Sm90, &ptx(90)).expect("ptxas accepts the PTX");
    let args = [KernelArg::Buffer { index: 0, offset: 0 }];
    let out = run_kernel(&driver, &cubin, "nan_cvt", [1, 1, 1], [1, 1, 1], 0, &args, &[input()]).expect("launch");
    let got: Vec<String> = CONVERSIONS
        .iter()
        .map(|&(to, from, at, bytes, _)| format!("cvt.rzi.{to}.{from} = {:#x}", read(&out[0], at, bytes)))
        .collect();
    eprintln!("nan_to_int: {} gives: {}", device.name().unwrap_or_default(), got.join(", "));
    assert_eq!(wrong(90, &out[0]), Vec::<String>::new());
}

/// Every float type to every integer type, signed and unsigned, of a NaN loaded from memory.
const IR: &str = "function %k(ptr.global) {
block0(v0: ptr.global):
    v1 = load.f16 v0
    v2 = load.f32 v0+4
    v3 = load.f64 v0+8
@CONVERSIONS@    return
}
";

#[test]
fn atomc_code_gives_zero() {
    let mut body = String::new();
    let mut at = 16;
    let mut n = 4;
    for (src, _) in [("v1", "f16"), ("v2", "f32"), ("v3", "f64")] {
        for ty in ["i8", "i16", "i32", "i64"] {
            for op in ["fcvt_to_sint", "fcvt_to_uint"] {
                body += &format!("    v{n} = {op}.{ty} {src}\n    store v{n}, v0+{at}\n");
                at += 8;
                n += 1;
            }
        }
    }
    let text = IR.replace("@CONVERSIONS@", &body);
    let func = atomc::ir::parse::parse(&text).expect("parses").remove(0);
    let mut buf = vec![0xa5u8; at];
    buf[0..2].copy_from_slice(&0x7e00u16.to_le_bytes());
    buf[4..8].copy_from_slice(&0x7fc0_0000u32.to_le_bytes());
    buf[8..16].copy_from_slice(&0x7ff8_0000_0000_0000u64.to_le_bytes());
    for target in [Target::Sm90, Target::Sm50] {
        let cubin = match atomc::compile(&func, target, Emit::Cubin) {
            Ok(Output::Binary(cubin)) => cubin,
            other => panic!("{target}: {:?}", other.err()),
        };
        let mut launch = atomc_emu::Launch::new([1, 1, 1], [1, 1, 1]);
        launch.params = vec![Param::Buffer { index: 0, offset: 0 }];
        launch.buffers = vec![buf.clone()];
        let out = run_cubin(&cubin, "k", &launch).expect("runs");
        let mut k = 0;
        for ty_bytes in [1usize, 2, 4, 8].repeat(3) {
            for _ in 0..2 {
                let slot = 16 + 8 * k;
                assert_eq!(read(&out.buffers[0], slot, ty_bytes), 0, "{target}: conversion {k} of a NaN");
                k += 1;
            }
        }
    }
    // Only the conversions NVIDIA gets wrong pay for the select: f64 sources (8) and 64-bit
    // results from f16 and f32 (4); Intel's `mov` gives 0 itself.
    let selects = |t| atomc::pipeline::legalize(&func, t).unwrap().to_string().matches("select").count();
    assert_eq!(selects(Target::Sm90), 12);
    assert_eq!(selects(Target::Sm50), 12);
    assert_eq!(selects(Target::Visa(atomc::VisaPlatform::Tgllp)), 0);
}
