//! The sm_50 assembler hook: accepts `IADD.CC Rd, ...` as an input spelling of nvdisasm's
//! `IADD Rd.CC, ...` (the selector writes the carry-out on the mnemonic), and refuses the
//! seed's sparse-predicate forms, which have no bits in sm_50 words.
//!
//! The seeds list `ATOM{.E}.op Ps, Rd, [Ra], Rb` and `SUATOM ... Ps, Rd, [Ra], Rb, Rc` with a
//! sparse-tile status predicate. In an sm_50 ATOM word every one of the 64 bits belongs to
//! another field (Rd, Ra, guard, Rb, the 20-bit offset, .E, size, op, opcode), and nvdisasm
//! 11.8 prints no predicate result for any SUATOM word; so the assembler reports the form
//! instead of silently dropping the predicate.

/// See [`super::super::Arch::asm_hook`].
pub(super) fn rewrite(stmt: &str) -> Result<Option<String>, String> {
    let body = match stmt.strip_prefix('@') {
        Some(r) => r.split_once(char::is_whitespace).map(|(_, b)| b.trim_start()).unwrap_or(""),
        None => stmt,
    };
    let (opcode, operands) = body.split_once(char::is_whitespace).unwrap_or((body, ""));
    let mnemonic = opcode.split('.').next().unwrap_or("");
    if let Some(base) = opcode.strip_suffix(".CC").filter(|_| mnemonic == "IADD") {
        let guard = &stmt[..stmt.len() - body.len()];
        let (first, rest) = operands.split_once(',').unwrap_or((operands, ""));
        return Ok(Some(format!("{guard}{base} {}.CC,{rest}", first.trim())));
    }
    if matches!(mnemonic, "ATOM" | "SUATOM" | "RED" | "ATOMS") {
        let first = operands.split(',').next().unwrap_or("").trim();
        let is_pred = first.trim_start_matches('!').strip_prefix('P').is_some_and(|n| n == "T" || n.parse::<u8>().is_ok());
        if is_pred {
            return Err(format!(
                "sm_50 has no encoding for the sparse-predicate form of {mnemonic} (`{first}` before the destination): \
                 nvdisasm 11.8 shows no predicate-result bits in sm_50 {mnemonic} words; drop the predicate"
            ));
        }
    }
    Ok(None)
}
