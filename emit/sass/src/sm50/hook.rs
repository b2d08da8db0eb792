//! The sm_50 assembler hook: accepts input spellings the selector finds easier to write than
//! nvdisasm's — `IADD.CC Rd, ...` for `IADD Rd.CC, ...` (and `IADD32I.CC`, `LEA.CC`), `XMAD.AH1.BH1 Rd, Ra, Rb, Rc` for
//! `XMAD Rd, Ra.H1, Rb.H1, Rc`, `[R2-0x10]` for `[R2+-0x10]` — and refuses the
//! seed's sparse-predicate forms, which have no bits in sm_50 words.
//!
//! The seeds list `ATOM{.E}.op Ps, Rd, [Ra], Rb` and `SUATOM ... Ps, Rd, [Ra], Rb, Rc` with a
//! sparse-tile status predicate. In an sm_50 ATOM word every one of the 64 bits belongs to
//! another field (Rd, Ra, guard, Rb, the 20-bit offset, .E, size, op, opcode), and nvdisasm
//! 11.8 prints no predicate result for any SUATOM word; so the assembler reports the form
//! instead of silently dropping the predicate.

use crate::written::Written;

/// See [`super::super::Arch::asm_hook`].
pub(super) fn rewrite(stmt: &str) -> Result<Option<String>, String> {
    let body = match stmt.strip_prefix('@') {
        Some(r) => r.split_once(char::is_whitespace).map(|(_, b)| b.trim_start()).unwrap_or(""),
        None => stmt,
    };
    let (opcode, operands) = body.split_once(char::is_whitespace).unwrap_or((body, ""));
    let mnemonic = opcode.split('.').next().unwrap_or("");
    let guard = &stmt[..stmt.len() - body.len()];
    // Negative address offsets: nvdisasm writes `[R2+-0x10]`; accept `[R2-0x10]` too.
    if let Some(i) = operands.find('[') {
        let inner = &operands[i..];
        if let Some(j) = inner.find("-0x").filter(|&j| j > 1 && !inner[..j].ends_with('+') && inner[..j].contains('R'))
        {
            let fixed =
                format!("{}{}+{}", &stmt[..stmt.len() - operands.len()], &operands[..i + j], &operands[i + j..]);
            return Ok(Some(fixed));
        }
    }
    if let Some((base, a_h1, b_h1)) = xmad_halves(mnemonic, opcode) {
        let mut ops: Vec<String> = operands.split(',').map(|o| o.trim().to_string()).collect();
        if ops.len() == 4 {
            if a_h1 {
                ops[1].push_str(".H1");
            }
            if b_h1 {
                ops[2].push_str(".H1");
            }
        }
        return Ok(Some(format!("{guard}{base} {}", ops.join(", "))));
    }
    if let Some(base) = carry_out_base(mnemonic, opcode) {
        let (first, rest) = operands.split_once(',').unwrap_or((operands, ""));
        return Ok(Some(format!("{guard}{base} {}.CC,{rest}", first.trim())));
    }
    let first = operands.split(',').next().unwrap_or("").trim();
    let first_is_pred =
        first.trim_start_matches('!').strip_prefix('P').is_some_and(|n| n == "T" || n.parse::<u8>().is_ok());
    refusal(mnemonic, opcode, first_is_pred).map_or(Ok(None), Err)
}

/// See [`super::super::Arch::written_hook`]: the same input spellings and refusals as
/// [`rewrite`], for operands handed over as values.
pub(super) fn rewrite_written(opcode: &str, ops: &mut [Written<'_>]) -> Result<Option<String>, String> {
    let mnemonic = opcode.split('.').next().unwrap_or("");
    if let Some((base, a_h1, b_h1)) = xmad_halves(mnemonic, opcode) {
        if ops.len() == 4 {
            for (k, on) in [(1, a_h1), (2, b_h1)] {
                match &mut ops[k] {
                    Written::Reg { suffix, .. } => *suffix |= on,
                    Written::CBank { h1, .. } => *h1 |= on,
                    _ => {}
                }
            }
        }
        return Ok(Some(base));
    }
    if let Some(base) = carry_out_base(mnemonic, opcode) {
        if let Some(Written::Reg { suffix, .. }) = ops.first_mut() {
            *suffix = true;
        }
        return Ok(Some(base.to_string()));
    }
    let first_is_pred = matches!(ops.first(), Some(Written::Pred(_)));
    refusal(mnemonic, opcode, first_is_pred).map_or(Ok(None), Err)
}

/// `XMAD.AH1.BH1` without its half selectors, and which operands they move onto (A, B).
fn xmad_halves(mnemonic: &str, opcode: &str) -> Option<(String, bool, bool)> {
    if mnemonic != "XMAD" || !opcode.split('.').any(|t| t == "AH1" || t == "BH1") {
        return None;
    }
    let base: Vec<&str> = opcode.split('.').filter(|t| *t != "AH1" && *t != "BH1").collect();
    Some((base.join("."), opcode.split('.').any(|t| t == "AH1"), opcode.split('.').any(|t| t == "BH1")))
}

/// `IADD.CC` (and `IADD32I.CC`, `LEA.CC`) without the `.CC` it moves onto the result (`Rd.CC`).
fn carry_out_base<'o>(mnemonic: &str, opcode: &'o str) -> Option<&'o str> {
    opcode.strip_suffix(".CC").filter(|_| matches!(mnemonic, "IADD" | "IADD32I" | "LEA"))
}

/// Why sm_50 has no word for this instruction, if it has none: an op x size pair the seeds do
/// not list, or a sparse-predicate form (`first_is_pred`: a predicate before the destination).
fn refusal(mnemonic: &str, opcode: &str, first_is_pred: bool) -> Option<String> {
    if let Some(msg) = forbidden_combination(mnemonic, opcode) {
        return Some(msg);
    }
    (matches!(mnemonic, "ATOM" | "SUATOM" | "RED" | "ATOMS") && first_is_pred).then(|| {
        format!(
            "sm_50 has no encoding for the sparse-predicate form of {mnemonic} (a predicate before the destination): \
             nvdisasm 11.8 shows no predicate-result bits in sm_50 {mnemonic} words; drop the predicate"
        )
    })
}

/// The sizes the seeds allow for each ATOM / RED / SUATOM operation (`U32` is the unprinted
/// default). nvdisasm decodes every op x size pair of the bit fields, but the seed tables list
/// only these; any other pair (e.g. `ATOM.INC.U64`, `RED.ADD.S64`, `.U128`) is refused.
fn allowed_sizes(mnemonic: &str, op: &str) -> Option<&'static [&'static str]> {
    const ADD: &[&str] = &["U32", "S32", "U64", "F32.FTZ.RN"];
    const MINMAX: &[&str] = &["U32", "S32", "U64", "S64"];
    const U32: &[&str] = &["U32"];
    const LOGIC: &[&str] = &["U32", "S32", "U64"];
    const SU_ADD: &[&str] = &["U32", "S32", "SD32", "U64", "F32.FTZ.RN"];
    const SU_MINMAX: &[&str] = &["U32", "S32", "SD32", "U64", "S64", "SD64"];
    const SU_LOGIC: &[&str] = &["U32", "S32", "SD32", "U64"];
    Some(match (mnemonic, op) {
        ("ATOM" | "RED", "ADD") => ADD,
        ("ATOM" | "RED", "MIN" | "MAX") => MINMAX,
        ("ATOM" | "RED" | "SUATOM", "INC" | "DEC") => U32,
        ("ATOM" | "RED", "AND" | "OR" | "XOR") => LOGIC,
        ("ATOM" | "SUATOM", "EXCH" | "CAS") => LOGIC,
        ("ATOM", "SAFEADD") => &["U64"],
        ("SUATOM", "ADD") => SU_ADD,
        ("SUATOM", "MIN" | "MAX") => SU_MINMAX,
        ("SUATOM", "AND" | "OR" | "XOR") => SU_LOGIC,
        _ => return None,
    })
}

/// An error when the opcode names an op x size pair the seeds do not list.
fn forbidden_combination(mnemonic: &str, opcode: &str) -> Option<String> {
    if !matches!(mnemonic, "ATOM" | "RED" | "SUATOM") {
        return None;
    }
    const OPS: &[&str] = &["ADD", "MIN", "MAX", "INC", "DEC", "AND", "OR", "XOR", "EXCH", "SAFEADD", "CAS"];
    const NOT_SIZE: &[&str] = &["IGN", "NEAR", "TRAP"];
    let toks: Vec<&str> = opcode.split('.').skip(1).collect();
    let at = toks.iter().position(|t| OPS.contains(t))?;
    let op = toks[at];
    let size_toks: Vec<&str> = toks[at + 1..].iter().copied().filter(|t| !NOT_SIZE.contains(t)).collect();
    let size = match size_toks.join(".").as_str() {
        "" | "32" => "U32".to_string(),
        "64" => "U64".to_string(),
        s => s.to_string(),
    };
    let allowed = allowed_sizes(mnemonic, op)?;
    if allowed.contains(&size.as_str()) {
        return None;
    }
    Some(format!(
        "{mnemonic}.{op} does not take .{size} on sm_50: the seed's table lists only {} for it",
        allowed.iter().map(|s| format!(".{s}")).collect::<Vec<_>>().join(" ")
    ))
}
