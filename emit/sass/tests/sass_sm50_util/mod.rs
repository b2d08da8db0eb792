//! Helpers shared by the sm_50 oracle tests.
#![allow(dead_code)]

use atomc_oracle::{self as oracle, Sm};
use atomc_sass::{Arch, Instr};

/// Every instruction line of an nvdisasm sm_50 listing as (offset, text): the `/* 0x.. */`
/// encoding comment and the dual-issue braces `{` `}` removed, `;` kept as printed.
pub fn lines(listing: &str) -> Vec<(u32, String)> {
    oracle::listing_lines(listing)
}

/// nvdisasm prints `INSTR ;` or, inside a dual-issue pair, without the `;`: compare without it.
pub fn norm(t: &str) -> String {
    t.trim().trim_end_matches(';').trim_end().to_string()
}

/// Disassembles raw sm_50 bundles with nvdisasm 11.8.
pub fn nvdisasm_lines(bytes: &[u8]) -> Result<Vec<(u32, String)>, String> {
    oracle::nvdisasm(Sm::Sm50, bytes).map(|l| lines(&l)).map_err(|e| e.to_string())
}

/// Checks instructions against nvdisasm in bundles, halving a batch nvdisasm rejects down
/// to single instructions. Returns (checked, failures).
pub fn check_against_nvdisasm(arch: &Arch, code: &[Instr]) -> (usize, Vec<String>) {
    let mut checked = 0;
    let mut fails = Vec::new();
    check_batch(arch, code, &mut checked, &mut fails);
    (checked, fails)
}

fn check_batch(arch: &Arch, code: &[Instr], checked: &mut usize, fails: &mut Vec<String>) {
    if code.is_empty() {
        return;
    }
    let bytes = match arch.encode_bundles(code) {
        Ok(b) => b,
        Err(e) if code.len() == 1 => {
            fails.push(format!("encode `{}`: {}", arch.print(&code[0]), e));
            return;
        }
        Err(_) => {
            let mid = code.len() / 2;
            check_batch(arch, &code[..mid], checked, fails);
            check_batch(arch, &code[mid..], checked, fails);
            return;
        }
    };
    match nvdisasm_lines(&bytes) {
        Ok(lines) if lines.len() >= code.len() => {
            for (i, ins) in code.iter().enumerate() {
                let addr = arch.instr_addr(i);
                let want = arch.print_at(ins, addr);
                match lines.iter().find(|(o, _)| *o as u64 == addr) {
                    Some((_, got)) if norm(got) == norm(&want) => *checked += 1,
                    Some((_, got)) => fails.push(format!("ours `{}` vs nvdisasm `{}`", want, got)),
                    None => fails.push(format!("`{}`: nvdisasm printed nothing at {:#x}", want, addr)),
                }
            }
        }
        Ok(_) | Err(_) if code.len() == 1 => {
            fails.push(format!("`{}`: nvdisasm rejected it", arch.print(&code[0])));
        }
        _ => {
            let mid = code.len() / 2;
            check_batch(arch, &code[..mid], checked, fails);
            check_batch(arch, &code[mid..], checked, fails);
        }
    }
}
