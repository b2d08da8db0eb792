//! ptxas 11.8's SURED corpus: one kernel for every PTX surface reduction ptxas 11.8 accepts
//! for sm_50 (`sured.b` add.u32/s32/u64, min/max.u32/s32, and/or.b32; `sured.p` add, min,
//! max, and, or on .b32; each on .1d/.2d/.3d with .trap/.clamp/.zero) on a bound `.surfref`,
//! on a surface passed as a kernel parameter (ptxas turns it into a header index too) and on
//! a handle loaded from memory (the register form). Every SURED word nvdisasm 11.8 lists is
//! decoded by the form table to the same text, re-encoded to the same 64 bits, and the listed
//! text assembles to the same 64 bits.
//!
//! Everything else ptxas 11.8 refuses for sm_50: `.a1d`/`.a2d`, min/max/and/or on 64-bit
//! types, inc/dec/xor/exch/cas, floats, and `sured.p` on any type but `.b32` (probed once;
//! `sured.p.xor.b32` and `sured.p.exch.b32` crash ptxas 11.8 instead of being refused).

use atomc_oracle::{self as oracle, Sm, Tool};
use atomc_sass::sm50;
use std::collections::BTreeSet;

/// (addressing, op, PTX type) triples ptxas 11.8 accepts for sm_50.
const ACCEPTED: &[(&str, &str, &str)] = &[
    ("b", "add", "u32"),
    ("b", "add", "s32"),
    ("b", "add", "u64"),
    ("b", "min", "u32"),
    ("b", "min", "s32"),
    ("b", "max", "u32"),
    ("b", "max", "s32"),
    ("b", "and", "b32"),
    ("b", "or", "b32"),
    ("p", "add", "b32"),
    ("p", "min", "b32"),
    ("p", "max", "b32"),
    ("p", "and", "b32"),
    ("p", "or", "b32"),
];

/// How the kernel names its surface.
#[derive(Clone, Copy)]
enum Surface {
    Bound,
    Param,
    Loaded,
}

/// One PTX module with a kernel per accepted combination; returns it and the kernel count.
fn module() -> (String, usize) {
    let mut ptx = String::from(".version 7.8\n.target sm_50\n.address_size 64\n.global .surfref s0;\n");
    let mut n = 0;
    for &(addressing, op, ty) in ACCEPTED {
        for (geom, coords) in [("1d", "{%r1}"), ("2d", "{%r1, %r2}"), ("3d", "{%r1, %r2, %r3, %r3}")] {
            for clamp in ["trap", "clamp", "zero"] {
                for surface in [Surface::Bound, Surface::Param, Surface::Loaded] {
                    let surf = match surface {
                        Surface::Bound => "s0",
                        Surface::Param => "%rd1",
                        Surface::Loaded => "%rd3",
                    };
                    let x = if ty.ends_with("64") { "%rd2" } else { "%r4" };
                    // The thread index in x keeps ptxas from aggregating a uniform address.
                    ptx.push_str(&format!(
                        ".visible .entry k{n}(.param .u64 p, .param .u32 x, .param .u32 y, .param .u32 z, .param .u64 v)\n{{\n\
                         .reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n\
                         ld.param.u64 %rd1, [p];\nld.param.u32 %r5, [x];\nld.param.u32 %r2, [y];\n\
                         ld.param.u32 %r3, [z];\nld.param.u64 %rd2, [v];\nmov.u32 %r6, %tid.x;\n\
                         add.u32 %r1, %r5, %r6;\nld.global.u64 %rd3, [%rd1];\ncvt.u32.u64 %r4, %rd2;\n\
                         sured.{addressing}.{op}.{geom}.{ty}.{clamp} [{surf}, {coords}], {x};\nret;\n}}\n"
                    ));
                    n += 1;
                }
            }
        }
    }
    (ptx, n)
}

/// (offset, text, word) of every instruction of an `nvdisasm -hex` listing.
fn listed_words(listing: &str) -> Vec<(u32, String, u64)> {
    listing
        .lines()
        .filter_map(|line| {
            let (offset, text) = oracle::listing_lines(line).into_iter().next()?;
            let hex = line.rsplit("/* 0x").next()?.split_whitespace().next()?;
            Some((offset, text, u64::from_str_radix(hex, 16).ok()?))
        })
        .collect()
}

fn norm(t: &str) -> String {
    t.trim().trim_end_matches(';').trim_end().to_string()
}

#[test]
fn every_sured_ptxas_118_emits_round_trips() {
    if !oracle::require_all(&[Tool::Ptxas118, Tool::Nvdisasm118]) {
        return;
    }
    let arch = sm50();
    let (ptx, kernels) = module();
    let cubin = oracle::ptxas(Sm::Sm50, &ptx).expect("ptxas 11.8 accepts every kernel");
    let listing = oracle::nvdisasm_cubin(Sm::Sm50, &cubin).expect("nvdisasm");
    let mut fails = Vec::new();
    let mut forms = BTreeSet::new();
    let mut count = 0;
    for (offset, text, word) in listed_words(&listing) {
        if !text.split_whitespace().any(|t| t.starts_with("SURED.")) {
            continue;
        }
        count += 1;
        let addr = u64::from(offset);
        let want = norm(&text);
        match arch.decode_word(u128::from(word)) {
            Ok(ins) => {
                let ours = norm(&arch.print_at(&ins, addr));
                if ours != want {
                    fails.push(format!("{word:#018x}: atomc `{ours}`, nvdisasm `{want}`"));
                }
                if arch.encode_word(&ins).ok() != Some(u128::from(word)) {
                    fails.push(format!("{word:#018x} `{want}`: decode then encode gives other bits"));
                }
                let key = arch.forms[ins.form as usize].key;
                let opcode = want.split_whitespace().find(|t| t.starts_with("SURED")).unwrap_or("").to_string();
                forms.insert((key, opcode));
            }
            Err(e) => fails.push(format!("{word:#018x} `{want}`: {e}")),
        }
        match arch.assemble_line(&format!("{want} ;"), addr) {
            Ok(Some(ins)) if arch.encode_word(&ins).ok() == Some(u128::from(word)) => {}
            other => fails.push(format!("`{want}` assembles to {other:?}, not {word:#018x}")),
        }
    }
    println!(
        "ptxas 11.8 SURED corpus: {kernels} kernels, {count} SURED words, {} distinct forms (form x modifiers), {} mismatches",
        forms.len(),
        fails.len()
    );
    assert!(fails.is_empty(), "{}", fails.join("\n"));
    assert_eq!(count, kernels, "one SURED per kernel");
    // 126 modifier spellings, each in the bound (header index) and bindless (register) form.
    assert_eq!(forms.len(), 252, "{forms:?}");
}
