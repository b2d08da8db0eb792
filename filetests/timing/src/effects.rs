//! What an instruction reads and writes, from nvdisasm's spelling alone.
//!
//! These are this crate's own rules, written from the PTX/SASS conventions nvdisasm prints
//! (the destination first, predicate destinations of compares, `.64`/`.128` data, `[Rn.64]`
//! and sm_50 `.E` addresses as register pairs, FP64 operands as pairs, sm_50 `.CC`/`.X` as a
//! carry flag). They do not consult atomc's form table. Where a spelling is ambiguous they read
//! more rather than less: a false dependency can only make the check stricter and the
//! calibrated minimum smaller, never admit an unproven read.

use super::listing::{Family, Inst};

/// A location an instruction reads or writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Loc {
    R(u16),
    P(u8),
    UR(u16),
    UP(u8),
    /// sm_50's carry flag (`.CC` writes it, `.X` reads it).
    Cc,
}

impl Loc {
    pub fn kind(self) -> &'static str {
        match self {
            Loc::R(_) => "r",
            Loc::P(_) => "p",
            Loc::UR(_) => "ur",
            Loc::UP(_) => "up",
            Loc::Cc => "cc",
        }
    }
}

impl std::fmt::Display for Loc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Loc::R(n) => write!(f, "R{n}"),
            Loc::P(n) => write!(f, "P{n}"),
            Loc::UR(n) => write!(f, "UR{n}"),
            Loc::UP(n) => write!(f, "UP{n}"),
            Loc::Cc => write!(f, "CC"),
        }
    }
}

/// How a location is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// An ordinary source operand.
    Source,
    /// A memory operand's address register.
    Address,
    /// The guard predicate (`@P0`).
    Guard,
    /// The high half of an `IMAD.WIDE` addend pair, which the FMA pipe reads later than the
    /// other sources.
    WideAddendHigh,
    /// A later register of a multi-register source (a pair's high half): some units read it
    /// later than the first.
    PairHigh,
}

impl Role {
    pub fn name(self) -> &'static str {
        match self {
            Role::Source => "src",
            Role::Address => "addr",
            Role::Guard => "guard",
            Role::WideAddendHigh => "addend-hi",
            Role::PairHigh => "src-hi",
        }
    }
}

/// The reads and writes of one instruction.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Effects {
    pub reads: Vec<(Loc, Role)>,
    pub writes: Vec<Loc>,
}

/// Instructions that write nothing an operand names (stores, reductions, control, fences).
const NO_DEST: &[&str] = &[
    "ST", "STG", "STS", "STL", "RED", "REDG", "REDUX_NONE", "SURED", "SUST", "BRA", "BRX", "JMP", "JMX", "EXIT", "RET",
    "CALL", "SYNC", "SSY", "PBK", "BRK", "PCNT", "CONT", "BSSY", "BSYNC", "BAR", "MEMBAR", "ERRBAR", "CGAERRBAR", "CCTL",
    "NOP", "DEPBAR", "WARPSYNC", "KILL", "FENCE", "BMOV", "YIELD", "ACQBULK", "UCGABAR_ARV", "UCGABAR_WAIT", "CGABAR",
];

/// Compares: their leading predicate operands (at most two) are destinations.
fn is_compare(m: &str) -> bool {
    m.ends_with("SETP") || m == "PLOP3" || m == "FCHK"
}

fn reg_num(s: &str, prefix: &str) -> Option<u16> {
    let d = s.strip_prefix(prefix)?;
    let end = d.find(|c: char| !c.is_ascii_digit()).unwrap_or(d.len());
    if end == 0 {
        return None;
    }
    d[..end].parse().ok()
}

/// The location a bare register token names, with `-`, `|`, `!`, `~` and `.H1`-style suffixes
/// stripped; `RZ`, `PT`, `URZ`, `UPT` name none.
fn loc_of(token: &str) -> Option<Loc> {
    let t = token.trim_start_matches(['-', '|', '!', '~', '+']).trim_end_matches('|');
    if t.starts_with("UR") {
        return reg_num(t, "UR").map(Loc::UR);
    }
    if t.starts_with("UP") {
        return reg_num(t, "UP").map(|n| Loc::UP(n as u8));
    }
    if t.starts_with('R') {
        return reg_num(t, "R").map(Loc::R);
    }
    if t.starts_with('P') && !t.starts_with("PT") && !t.starts_with("PR") {
        return reg_num(t, "P").map(|n| Loc::P(n as u8));
    }
    None
}

fn is_pred_token(token: &str) -> bool {
    let t = token.trim_start_matches('!');
    (t.starts_with('P') && (t == "PT" || reg_num(t, "P").is_some())) || t == "UPT" || reg_num(t, "UP").is_some()
}

/// `n` consecutive locations from `l` (a register pair or quad).
fn run(l: Loc, n: u16) -> impl Iterator<Item = Loc> {
    (0..n).map(move |k| match l {
        Loc::R(r) => Loc::R(r + k),
        Loc::UR(r) => Loc::UR(r + k),
        other => other,
    })
}

/// Registers inside a memory operand `[R2.64+0x10]`, `desc[UR4][R2.64+UR6]`, `c[0x0][R2]`:
/// each register with the width its spelling (or the instruction's `.E` on sm_50) gives.
fn address_regs(op: &str, family: Family, ins: &Inst, out: &mut Vec<(Loc, Role)>) {
    for tok in op.split(|c: char| "[]+-, ".contains(c)) {
        let Some(l) = loc_of(tok) else { continue };
        let pair = tok.ends_with(".64") || (family == Family::Sm50 && ins.has_mod("E") && matches!(l, Loc::R(_)));
        // A uniform register in a `desc[URn]` is a 64-bit descriptor.
        let pair = pair || (op.starts_with("desc[") && tok.starts_with("UR") && op.find(tok) == Some(5));
        out.extend(run(l, if pair { 2 } else { 1 }).map(|l| (l, Role::Address)));
    }
}

/// Width in registers of an instruction's data operands and destination: `.64`/`.128`, FP64
/// arithmetic, and a memory, atomic or surface instruction on a 64-bit type
/// (`RED.E.ADD.U64 [R2], R8`, `SUATOM.D.2D.ADD.U64.IGN R0, [R4], R0, 0x56`).
fn data_width(ins: &Inst) -> u16 {
    let m = ins.mnemonic.as_str();
    let memory = ["LD", "ST", "ATOM", "RED", "SU"].iter().any(|p| m.starts_with(p));
    let typed64 = memory && ["U64", "S64", "F64"].iter().any(|t| ins.has_mod(t));
    if ins.has_mod("128") {
        4
    } else if ins.has_mod("64") || typed64 || m.starts_with('D') && m != "DEPBAR" {
        2
    } else {
        1
    }
}

/// The width of a conversion's destination and source from its type modifiers (`F2F.F32.F64`:
/// destination first).
fn conversion_widths(ins: &Inst) -> Option<(u16, u16)> {
    if !matches!(ins.mnemonic.as_str(), "F2F" | "F2I" | "I2F" | "I2I" | "FRND") {
        return None;
    }
    // The type modifiers, in order (`F32`, `S64`, ...): their widths, and whether each is a float.
    let named: Vec<(u16, bool)> = ins
        .mods
        .iter()
        .filter(|m| m.len() >= 2 && matches!(&m[..1], "F" | "S" | "U") && m[1..].chars().all(|c| c.is_ascii_digit()))
        .map(|m| (if m.ends_with("64") { 2 } else { 1 }, m.starts_with('F')))
        .collect();
    match (&named[..], ins.mnemonic.as_str()) {
        (&[(d, _), (s, _)], _) => Some((d, s)),
        // One type named: it is the float side or the integer side, whichever it spells
        // (`I2F.F64 R2, R3` names the destination, `I2F.U32.RP R5, R4` the source).
        (&[(t, float)], "I2F") => Some(if float { (t, 1) } else { (1, t) }),
        (&[(t, float)], "F2I") => Some(if float { (1, t) } else { (t, 1) }),
        (&[(t, _)], _) => Some((t, t)),
        _ => Some((1, 1)),
    }
}

/// The reads and writes of `ins`.
pub fn effects(ins: &Inst, family: Family) -> Effects {
    let mut e = Effects::default();
    if let Some((_, p)) = &ins.guard {
        if let Some(l) = loc_of(p) {
            e.reads.push((l, Role::Guard));
        }
    }
    let m = ins.mnemonic.as_str();
    let ops = &ins.operands;
    // How many leading operands are destinations.
    let mut ndest = 0;
    if !NO_DEST.contains(&m) && !ops.is_empty() {
        ndest = if is_compare(m) {
            ops.iter().take(2).take_while(|o| is_pred_token(o)).count().max(1)
        } else if is_pred_token(&ops[0]) && ops.len() > 1 && loc_of(&ops[1]).map_or(ops[1] == "RZ", |l| matches!(l, Loc::R(_))) {
            // `SHFL.IDX PT, R3, ...`, `ATOMG.E.ADD PT, R2, ...`, `LOP3.LUT P0, RZ, ...`: a
            // predicate and a register result.
            2
        } else if m == "VOTE" || m == "VOTEU" {
            // `VOTE.ANY R5, PT, P0`: the mask and the vote's predicate.
            if ops.len() >= 3 { 2 } else { 1 }
        } else {
            // `IADD3 R2, P0, P1, ...`, `LEA R2, P0, ...`: a register and its carry-out
            // predicates (at most two) right after it.
            let mut n = 1;
            while n < 3 && n + 1 < ops.len() && is_pred_token(&ops[n]) && !ops[n].starts_with('!') {
                n += 1;
            }
            n
        };
    }
    let width = data_width(ins);
    let conv = conversion_widths(ins);
    let wide = ins.has_mod("WIDE");
    for (i, op) in ops.iter().enumerate() {
        if op.contains('[') {
            if op.starts_with("c[") && !op[2..].contains('R') {
                continue;
            }
            address_regs(op, family, ins, &mut e.reads);
            continue;
        }
        let Some(l) = loc_of(op) else {
            continue;
        };
        let is_pred = matches!(l, Loc::P(_) | Loc::UP(_));
        if i < ndest {
            // sm_50 `IADD R0.CC, ...` also writes the carry flag.
            if op.contains(".CC") {
                e.writes.push(Loc::Cc);
            }
            let n = if is_pred {
                1
            } else if let Some((d, _)) = conv {
                d
            } else if wide {
                2
            } else {
                width
            };
            e.writes.extend(run(l, n));
            continue;
        }
        let n = if is_pred || op.ends_with(".H1") || op.ends_with(".B1") {
            1
        } else if op.ends_with(".64") {
            2
        } else if let Some((_, s)) = conv {
            s
        } else if wide && i == ndest + 2 {
            // `IMAD.WIDE Rd, [Pc,] Ra, Rb, Rc`: the addend is a pair.
            e.reads.push((l, Role::Source));
            e.reads.extend(run(l, 2).skip(1).map(|l| (l, Role::WideAddendHigh)));
            continue;
        } else if m == "ATOM" && ins.has_mod("CAS") && family == Family::Sm50 && i == ops.len() - 2 {
            // sm_50 `ATOM.E.CAS Rd, [Ra], Rb, Rc`: Rb holds the compare and Rb+1 the swap value
            // (and pairs of pairs for `.64`); Rc is read as well.
            2 * width
        } else if m == "SHF" || m.starts_with("XMAD") || m == "PRMT" || m == "SEL" || m == "FSEL" {
            1
        } else {
            width
        };
        e.reads.extend(run(l, n).enumerate().map(|(k, l)| (l, if k == 0 { Role::Source } else { Role::PairHigh })));
    }
    // sm_50: `.X` extends with the carry flag (XMAD's `.CBCC` is a shift of its C operand, not a
    // carry: ptxas 11.8 reads it 1 cycle after an `IADD.X R0.CC` in udiv64).
    if family == Family::Sm50 && ins.has_mod("X") {
        e.reads.push((Loc::Cc, Role::Source));
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::listing::parse;

    fn one(text: &str, family: Family) -> Effects {
        let listing = match family {
            Family::Sm50 => format!(".section .text.k,\"ax\"\n /* 0x001f8400e4200701 */\n /*0008*/ {text} ; /* 0x0 */\n"),
            Family::Sm90 => format!(".section .text.k,\"ax\"\n /*0000*/ {text} ; /* 0x0 */\n /* 0x000e220000008800 */\n"),
        };
        effects(&parse(&listing, family).unwrap()[0].insts[0], family)
    }

    fn w(e: &Effects) -> Vec<String> {
        e.writes.iter().map(|l| l.to_string()).collect()
    }

    fn r(e: &Effects) -> Vec<String> {
        e.reads.iter().map(|(l, _)| l.to_string()).collect()
    }

    #[test]
    fn destinations() {
        let e = one("ISETP.GE.AND P0, PT, R2, R3, PT", Family::Sm90);
        assert_eq!((w(&e), r(&e)), (vec!["P0".into()], vec!["R2".into(), "R3".into()]));
        let e = one("ATOMG.E.CAS.STRONG.GPU PT, R2, desc[UR4][R4.64], R6, R7", Family::Sm90);
        assert_eq!(w(&e), ["R2"]);
        assert_eq!(r(&e), ["UR4", "UR5", "R4", "R5", "R6", "R7"]);
        let e = one("IMAD.WIDE.U32 R4, R0, 0x4, R2", Family::Sm90);
        assert_eq!((w(&e), r(&e)), (vec!["R4".into(), "R5".into()], vec!["R0".into(), "R2".into(), "R3".into()]));
        assert_eq!(e.reads[2].1, Role::WideAddendHigh);
        let e = one("IMAD.WIDE.U32 R4, P0, R5, R2, R4", Family::Sm90);
        assert_eq!((w(&e), r(&e)), (vec!["R4".into(), "R5".into(), "P0".into()], vec!["R5".into(), "R2".into(), "R4".into(), "R5".into()]));
        let e = one("@!P1 IADD3 R2, P0, P2, R3, R4, RZ", Family::Sm90);
        assert_eq!((w(&e), r(&e)), (vec!["R2".into(), "P0".into(), "P2".into()], vec!["P1".into(), "R3".into(), "R4".into()]));
        let e = one("VOTE.ANY R5, PT, P0", Family::Sm90);
        assert_eq!((w(&e), r(&e)), (vec!["R5".into()], vec!["P0".into()]));
        let e = one("SEL R2, R3, R4, P0", Family::Sm90);
        assert_eq!((w(&e), r(&e)), (vec!["R2".into()], vec!["R3".into(), "R4".into(), "P0".into()]));
        let e = one("DADD R2, R4, -R6", Family::Sm90);
        assert_eq!((w(&e), r(&e).len()), (vec!["R2".into(), "R3".into()], 4));
        let e = one("F2F.F32.F64 R2, R4", Family::Sm90);
        assert_eq!((w(&e), r(&e)), (vec!["R2".into()], vec!["R4".into(), "R5".into()]));
        let e = one("STG.E.64 desc[UR4][R2.64], R4", Family::Sm90);
        assert_eq!((w(&e), r(&e)), (vec![], vec!["UR4".into(), "UR5".into(), "R2".into(), "R3".into(), "R4".into(), "R5".into()]));
    }

    #[test]
    fn sm50_carry_and_pairs() {
        let e = one("IADD R0.CC, R2, c[0x0][0x150]", Family::Sm50);
        assert_eq!((w(&e), r(&e)), (vec!["CC".into(), "R0".into()], vec!["R2".into()]));
        let e = one("IADD.X R1, RZ, c[0x0][0x154]", Family::Sm50);
        assert_eq!((w(&e), r(&e)), (vec!["R1".into()], vec!["CC".into()]));
        let e = one("RED.E.ADD [R0], R3", Family::Sm50);
        assert_eq!((w(&e), r(&e)), (vec![], vec!["R0".into(), "R1".into(), "R3".into()]));
        let e = one("RED.E.ADD.U64 [R2], R8", Family::Sm50);
        assert_eq!(r(&e), ["R2", "R3", "R8", "R9"]);
        let e = one("LDS R3, [R3]", Family::Sm50);
        assert_eq!((w(&e), r(&e)), (vec!["R3".into()], vec!["R3".into()]));
        let e = one("XMAD.MRG R0, R6, R7.H1, RZ", Family::Sm50);
        assert_eq!((w(&e), r(&e)), (vec!["R0".into()], vec!["R6".into(), "R7".into()]));
    }
}
