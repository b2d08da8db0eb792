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

use crate::op::{m, t, Mnemonic, Opcode, Tok};
use crate::toks;
use crate::written::Written;
use smallvec::SmallVec;

/// See [`super::super::Arch::asm_hook`].
pub(super) fn rewrite(stmt: &str) -> Result<Option<String>, String> {
    let body = match stmt.strip_prefix('@') {
        Some(r) => r.split_once(char::is_whitespace).map(|(_, b)| b.trim_start()).unwrap_or(""),
        None => stmt,
    };
    let (opcode, operands) = body.split_once(char::is_whitespace).unwrap_or((body, ""));
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
    // An opcode outside the vocabulary is none of these spellings, and no form reads it.
    let Some(op) = Opcode::parse(opcode) else { return Ok(None) };
    if let Some((base, a_h1, b_h1)) = xmad_halves(op) {
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
    if let Some(base) = carry_out_base(op) {
        let (first, rest) = operands.split_once(',').unwrap_or((operands, ""));
        return Ok(Some(format!("{guard}{base} {}.CC,{rest}", first.trim())));
    }
    let first = operands.split(',').next().unwrap_or("").trim();
    let first_is_pred =
        first.trim_start_matches('!').strip_prefix('P').is_some_and(|n| n == "T" || n.parse::<u8>().is_ok());
    refusal(op, first_is_pred).map_or(Ok(None), Err)
}

/// See [`super::super::Arch::written_hook`]: the same input spellings and refusals as
/// [`rewrite`], for operands handed over as values.
pub(super) fn rewrite_written(op: &mut Opcode, ops: &mut [Written<'_>]) -> Result<(), String> {
    if let Some((base, a_h1, b_h1)) = xmad_halves(*op) {
        if ops.len() == 4 {
            for (k, on) in [(1, a_h1), (2, b_h1)] {
                match &mut ops[k] {
                    Written::Reg { suffix, .. } => *suffix |= on,
                    Written::CBank { h1, .. } => *h1 |= on,
                    _ => {}
                }
            }
        }
        *op = base;
        return Ok(());
    }
    if let Some(base) = carry_out_base(*op) {
        if let Some(Written::Reg { suffix, .. }) = ops.first_mut() {
            *suffix = true;
        }
        *op = base;
        return Ok(());
    }
    let first_is_pred = matches!(ops.first(), Some(Written::Pred(_)));
    refusal(*op, first_is_pred).map_or(Ok(()), Err)
}

/// `XMAD.AH1.BH1` without its half selectors, and which operands they move onto (A, B).
fn xmad_halves(op: Opcode) -> Option<(Opcode, bool, bool)> {
    let (a, b) = (op.has(t::AH1), op.has(t::BH1));
    if op.mnemonic() != m::XMAD || !(a || b) {
        return None;
    }
    Some((op.retain(|x| x != t::AH1 && x != t::BH1), a, b))
}

/// `IADD.CC` (and `IADD32I.CC`, `LEA.CC`) without the `.CC` it moves onto the result (`Rd.CC`).
fn carry_out_base(op: Opcode) -> Option<Opcode> {
    let toks = op.toks();
    if toks.last() != Some(&t::CC) || ![m::IADD, m::IADD32I, m::LEA].contains(&op.mnemonic()) {
        return None;
    }
    Some(Opcode::of(op.mnemonic(), &toks[..toks.len() - 1]))
}

/// Why sm_50 has no word for this instruction, if it has none: an op x size pair the seeds do
/// not list, or a sparse-predicate form (`first_is_pred`: a predicate before the destination).
fn refusal(op: Opcode, first_is_pred: bool) -> Option<String> {
    if let Some(msg) = forbidden_combination(op) {
        return Some(msg);
    }
    let mnemonic = op.mnemonic();
    ([m::ATOM, m::SUATOM, m::RED, m::ATOMS].contains(&mnemonic) && first_is_pred).then(|| {
        let mnemonic = mnemonic.name();
        format!(
            "sm_50 has no encoding for the sparse-predicate form of {mnemonic} (a predicate before the destination): \
             nvdisasm 11.8 shows no predicate-result bits in sm_50 {mnemonic} words; drop the predicate"
        )
    })
}

/// The sizes the seeds allow for each ATOM / RED / SUATOM operation (`U32` is the unprinted
/// default). nvdisasm decodes every op x size pair of the bit fields, but the seed tables list
/// only these; any other pair (e.g. `ATOM.INC.U64`, `RED.ADD.S64`, `.U128`) is refused.
fn allowed_sizes(mnemonic: Mnemonic, op: Tok) -> Option<&'static [&'static [Tok]]> {
    const ADD: &[&[Tok]] = &[&toks!(U32), &toks!(S32), &toks!(U64), &toks!(F32.FTZ.RN)];
    const MINMAX: &[&[Tok]] = &[&toks!(U32), &toks!(S32), &toks!(U64), &toks!(S64)];
    const U32: &[&[Tok]] = &[&toks!(U32)];
    const LOGIC: &[&[Tok]] = &[&toks!(U32), &toks!(S32), &toks!(U64)];
    const SU_ADD: &[&[Tok]] = &[&toks!(U32), &toks!(S32), &toks!(SD32), &toks!(U64), &toks!(F32.FTZ.RN)];
    const SU_MINMAX: &[&[Tok]] = &[&toks!(U32), &toks!(S32), &toks!(SD32), &toks!(U64), &toks!(S64), &toks!(SD64)];
    const SU_LOGIC: &[&[Tok]] = &[&toks!(U32), &toks!(S32), &toks!(SD32), &toks!(U64)];
    let (atom_or_red, su) = (mnemonic == m::ATOM || mnemonic == m::RED, mnemonic == m::SUATOM);
    let is = |ts: &[Tok]| ts.contains(&op);
    Some(match () {
        _ if atom_or_red && op == t::ADD => ADD,
        _ if atom_or_red && is(&toks!(MIN.MAX)) => MINMAX,
        _ if (atom_or_red || su) && is(&toks!(INC.DEC)) => U32,
        _ if atom_or_red && is(&toks!(AND.OR.XOR)) => LOGIC,
        _ if (mnemonic == m::ATOM || su) && is(&toks!(EXCH.CAS)) => LOGIC,
        _ if mnemonic == m::ATOM && op == t::SAFEADD => &[&toks!(U64)],
        _ if su && op == t::ADD => SU_ADD,
        _ if su && is(&toks!(MIN.MAX)) => SU_MINMAX,
        _ if su && is(&toks!(AND.OR.XOR)) => SU_LOGIC,
        _ => return None,
    })
}

/// An error when the opcode names an op x size pair the seeds do not list.
fn forbidden_combination(op: Opcode) -> Option<String> {
    let mnemonic = op.mnemonic();
    if ![m::ATOM, m::RED, m::SUATOM].contains(&mnemonic) {
        return None;
    }
    const OPS: [Tok; 11] = toks!(ADD.MIN.MAX.INC.DEC.AND.OR.XOR.EXCH.SAFEADD.CAS);
    const NOT_SIZE: [Tok; 2] = toks!(IGN.TRAP);
    let toks = op.toks();
    let at = toks.iter().position(|t| OPS.contains(t))?;
    let size: SmallVec<[Tok; 4]> = toks[at + 1..].iter().copied().filter(|t| !NOT_SIZE.contains(t)).collect();
    let size: &[Tok] = match size.as_slice() {
        [] | [t::_32] => &[t::U32],
        [t::_64] => &[t::U64],
        s => s,
    };
    let allowed = allowed_sizes(mnemonic, toks[at])?;
    if allowed.contains(&size) {
        return None;
    }
    let spell = |s: &[Tok]| s.iter().map(|t| t.name()).collect::<Vec<_>>().join(".");
    Some(format!(
        "{}.{} does not take .{} on sm_50: the seed's table lists only {} for it",
        mnemonic.name(),
        toks[at].name(),
        spell(size),
        allowed.iter().map(|s| format!(".{}", spell(s))).collect::<Vec<_>>().join(" ")
    ))
}
