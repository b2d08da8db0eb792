//! Helpers shared by the sm_90 oracle tests.
#![allow(dead_code)]

use atomc_oracle::{self as oracle, Sm, Tool};
use atomc_sass::{Arch, Instr};

/// Every instruction line of an nvdisasm listing as (offset, text) with the text exactly as
/// printed, `;` and the blank before it included (nvdisasm omits that blank for some words).
pub fn exact_lines(listing: &str) -> Vec<(u32, String)> {
    oracle::listing_lines(listing)
}

/// Disassembles raw sm_90 words with nvdisasm; `None` when nvdisasm rejects the batch.
pub fn nvdisasm_lines(bytes: &[u8]) -> Result<Vec<(u32, String)>, String> {
    oracle::nvdisasm(Sm::Sm90, bytes).map(|l| exact_lines(&l)).map_err(|e| e.to_string())
}

/// A deterministic xorshift sequence from `seed`, for random words that reproduce.
pub fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

/// Skips (or fails under CI) without the sm_90 tools.
pub fn have_tools(tools: &[Tool]) -> bool {
    oracle::require_all(tools)
}

/// Checks each instruction against nvdisasm. The words go in one batch; when nvdisasm rejects a
/// batch it is split in halves until the rejected words are isolated. Returns (checked, failures).
pub fn check_against_nvdisasm(arch: &Arch, code: &[Instr]) -> (usize, Vec<String>) {
    let mut fails = Vec::new();
    let mut ok: Vec<Instr> = Vec::new();
    for ins in code {
        match arch.encode(ins) {
            Ok(_) => ok.push(ins.clone()),
            Err(e) => fails.push(format!("encode {}: {}", arch.print(ins), e)),
        }
    }
    let mut checked = 0;
    check_batch(arch, &ok, &mut checked, &mut fails);
    (checked, fails)
}

fn check_batch(arch: &Arch, code: &[Instr], checked: &mut usize, fails: &mut Vec<String>) {
    if code.is_empty() {
        return;
    }
    let mut bytes = Vec::new();
    for ins in code {
        bytes.extend(arch.encode(ins).unwrap_or_default());
    }
    match nvdisasm_lines(&bytes) {
        Ok(lines) if lines.len() == code.len() => {
            for (i, (ins, (_, got))) in code.iter().zip(&lines).enumerate() {
                let want = arch.print_at(ins, (i * 16) as u64);
                if want != *got {
                    fails.push(format!("ours `{}` vs nvdisasm `{}`", want, got));
                }
                *checked += 1;
            }
        }
        Ok(lines) if code.len() == 1 => fails.push(format!("`{}`: nvdisasm printed {} lines", arch.print(&code[0]), lines.len())),
        Err(e) if code.len() == 1 => {
            let msg = e.lines().find(|l| l.contains("error")).unwrap_or("").trim().to_string();
            fails.push(format!("`{}`: nvdisasm rejected it: {}", arch.print(&code[0]), msg))
        }
        _ => {
            // Addresses matter for branch targets: re-check each half at its own base 0.
            let mid = code.len() / 2;
            check_batch(arch, &code[..mid], checked, fails);
            check_batch(arch, &code[mid..], checked, fails);
        }
    }
}
