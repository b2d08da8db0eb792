//! Reading `nvdisasm -hex` listings of a cubin: per kernel, its instructions with their control
//! fields, guards, operands and branch targets.
//!
//! Control fields (`shared/reference` facts, confirmed on nvdisasm's own listings):
//! * sm_90: the second 64-bit word of each instruction, printed on the line after it: bits
//!   41..44 stall, 45 yield, 46..48 write scoreboard, 49..51 read scoreboard, 52..57 wait mask.
//! * sm_50: a control word before every three instructions, printed on a line of its own; slot
//!   `i` at bit `21 * i`: 0..3 stall, 4 yield, 5..7 write scoreboard, 8..10 read scoreboard,
//!   11..16 wait mask.

use std::fmt;

/// The instruction-word layout of a listing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// Maxwell/Pascal: 64-bit words, a control word per three.
    Sm50,
    /// Volta and later: 128-bit words with the control fields in the high half.
    Sm90,
}

impl Family {
    pub fn name(self) -> &'static str {
        match self {
            Family::Sm50 => "sm_50",
            Family::Sm90 => "sm_90",
        }
    }
}

/// The schedule fields of one instruction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ctrl {
    pub stall: u8,
    pub yield_: bool,
    /// Write scoreboard, `None` for 7.
    pub wr_sb: Option<u8>,
    /// Read scoreboard, `None` for 7.
    pub rd_sb: Option<u8>,
    pub wait: u8,
}

impl Ctrl {
    fn from_bits(b: u64) -> Ctrl {
        let sb = |x: u64| if x & 7 == 7 { None } else { Some((x & 7) as u8) };
        Ctrl {
            stall: (b & 0xf) as u8,
            yield_: b & 0x10 != 0,
            wr_sb: sb(b >> 5),
            rd_sb: sb(b >> 8),
            wait: ((b >> 11) & 0x3f) as u8,
        }
    }
}

/// One instruction as nvdisasm prints it.
#[derive(Clone, Debug)]
pub struct Inst {
    pub addr: u64,
    /// `(negated, predicate)` of an `@P0`/`@!P0` guard.
    pub guard: Option<(bool, String)>,
    /// The mnemonic without modifiers (`IMAD`).
    pub mnemonic: String,
    /// The modifiers in order (`["WIDE", "U32"]`).
    pub mods: Vec<String>,
    /// The operands, split at top-level commas, trimmed.
    pub operands: Vec<String>,
    /// A label the instruction names: a branch target (`` `(.L_x_3) ``) or a `SYNC`'s
    /// `TARGET=` annotation.
    pub target: Option<String>,
    pub ctrl: Ctrl,
    /// The raw words: the instruction (sm_90: low then high).
    pub words: (u64, u64),
}

impl Inst {
    pub fn has_mod(&self, m: &str) -> bool {
        self.mods.iter().any(|x| x == m)
    }

    /// The spelling without schedule fields: `@P0 IMAD.WIDE R2, R3, 0x4, R4`.
    pub fn text(&self) -> String {
        let mut s = String::new();
        if let Some((neg, p)) = &self.guard {
            s.push('@');
            if *neg {
                s.push('!');
            }
            s.push_str(p);
            s.push(' ');
        }
        s.push_str(&self.mnemonic);
        for m in &self.mods {
            s.push('.');
            s.push_str(m);
        }
        if !self.operands.is_empty() {
            s.push(' ');
            s.push_str(&self.operands.join(", "));
        }
        s
    }
}

impl fmt::Display for Inst {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "/*{:04x}*/ {}", self.addr, self.text())
    }
}

/// One kernel's code: instructions in address order, and the labels with the index of the
/// instruction each one precedes.
#[derive(Clone, Debug, Default)]
pub struct Kernel {
    pub name: String,
    pub insts: Vec<Inst>,
    pub labels: Vec<(String, usize)>,
}

impl Kernel {
    /// The instruction a label names.
    pub fn label_index(&self, label: &str) -> Option<usize> {
        self.labels.iter().find(|(l, _)| l == label).map(|&(_, i)| i)
    }
}

/// Why a listing could not be read.
#[derive(Debug)]
pub struct ListingError(pub String);

impl fmt::Display for ListingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ListingError {}

/// The `/* 0x... */` comments of a line, as numbers.
fn hex_comments(line: &str) -> Vec<u64> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("/* 0x") {
        let tail = &rest[at + 5..];
        let end = tail.find(|c: char| !c.is_ascii_hexdigit()).unwrap_or(tail.len());
        if let Ok(v) = u64::from_str_radix(&tail[..end], 16) {
            out.push(v);
        }
        rest = &tail[end..];
    }
    out
}

/// Splits `a, [b, c], d` at the commas outside brackets.
fn split_operands(s: &str) -> Vec<String> {
    let (mut out, mut depth, mut cur) = (Vec::new(), 0i32, String::new());
    for c in s.chars() {
        match c {
            '[' | '(' | '{' => depth += 1,
            ']' | ')' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// Parses the text of an instruction line after its `/*addr*/`.
fn parse_inst(addr: u64, body: &str) -> Result<Inst, ListingError> {
    // The text ends at ` ;`, or at the `}` closing a dual-issue pair (sm_50: `{ A ;` then
    // `B }`); a `SYNC` carries a `(*"TARGET= .L_x_0 "*)` annotation before it.
    let body = body.trim().trim_start_matches('{');
    let end = body.find(';').or_else(|| body.rfind('}')).unwrap_or(body.len());
    let mut text = body[..end].trim().to_string();
    let mut target = None;
    if let Some(at) = text.find("(*\"TARGET=") {
        let ann = &text[at + 10..];
        target = ann.split_whitespace().next().map(|t| t.trim_end_matches("\"*)").to_string());
        text.truncate(at);
    }
    let mut rest = text.trim();
    let mut guard = None;
    if let Some(g) = rest.strip_prefix('@') {
        let (p, tail) = g.split_once(char::is_whitespace).unwrap_or((g, ""));
        guard = Some(match p.strip_prefix('!') {
            Some(p) => (true, p.to_string()),
            None => (false, p.to_string()),
        });
        rest = tail.trim();
    }
    let (op, ops) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let mut parts = op.split('.');
    let mnemonic = parts.next().unwrap_or_default().to_string();
    let mods = parts.map(str::to_string).collect();
    let operands = split_operands(ops);
    for o in &operands {
        if let Some(at) = o.find("`(") {
            let t = &o[at + 2..];
            target = Some(t[..t.find(')').unwrap_or(t.len())].to_string());
        }
    }
    Ok(Inst { addr, guard, mnemonic, mods, operands, target, ctrl: Ctrl::default(), words: (0, 0) })
}

/// Reads every `.text.NAME` section of an `nvdisasm -hex` listing.
pub fn parse(listing: &str, family: Family) -> Result<Vec<Kernel>, ListingError> {
    let mut kernels: Vec<Kernel> = Vec::new();
    // sm_50: the control word of the current bundle and the next slot in it.
    let (mut ctrl_word, mut slot) = (None::<u64>, 0u32);
    // The instruction whose word is on the next line (the second of a dual-issue pair).
    let mut word_pending = false;
    let mut in_text = false;
    for line in listing.lines() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix(".section").filter(|r| r.starts_with(char::is_whitespace)) {
            let name = rest.trim().split(',').next().unwrap_or("").trim();
            in_text = name.starts_with(".text.");
            if in_text {
                kernels.push(Kernel { name: name[6..].to_string(), ..Kernel::default() });
                ctrl_word = None;
                slot = 0;
            }
            continue;
        }
        if !in_text {
            continue;
        }
        let Some(k) = kernels.last_mut() else { continue };
        if t.starts_with(".L") && t.ends_with(':') {
            k.labels.push((t.trim_end_matches(':').to_string(), k.insts.len()));
            continue;
        }
        let hex = hex_comments(t);
        if let Some(body) = t.strip_prefix("/*").filter(|b| !b.trim_start().starts_with("0x")) {
            // An instruction line: `/*0008*/  TEXT ; /* 0x... */`.
            let Some((addr, body)) = body.split_once("*/") else { continue };
            let Ok(addr) = u64::from_str_radix(addr.trim(), 16) else { continue };
            let code = body.split("/* 0x").next().unwrap_or(body);
            let mut ins = parse_inst(addr, code)?;
            match hex.last() {
                Some(&w) => ins.words.0 = w,
                None => word_pending = true,
            }
            if family == Family::Sm50 {
                let c = ctrl_word.ok_or_else(|| ListingError(format!("/*{addr:04x}*/ before any control word")))?;
                ins.ctrl = Ctrl::from_bits(c >> (21 * slot));
                slot += 1;
            }
            k.insts.push(ins);
        } else if let [w] = hex[..] {
            if word_pending {
                word_pending = false;
                if let Some(ins) = k.insts.last_mut() {
                    ins.words.0 = w;
                }
                continue;
            }
            match family {
                Family::Sm50 => {
                    ctrl_word = Some(w);
                    slot = 0;
                }
                Family::Sm90 => {
                    let ins = k.insts.last_mut().ok_or_else(|| ListingError("a high word before any instruction".into()))?;
                    ins.words.1 = w;
                    ins.ctrl = Ctrl::from_bits(w >> 41);
                }
            }
        }
    }
    Ok(kernels)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sm50_bundle() {
        let l = "\t.section\t.text.k,\"ax\",@progbits\n\
            \t.sectionflags\t@\"SHF_BARRIERS=1\"\n\
            \x20   /* 0x001f8400e4200701 */\n\
            \x20 /*0008*/   S2R R4, SR_TID.X ;   /* 0xf0c8000002170004 */\n\
            \x20 /*0010*/   @!P0 BRA `(.L_x_1) ;   /* 0xe24000000108000f */\n\
            .L_x_1:\n\
            \x20 /*0018*/   SYNC   (*\"TARGET= .L_x_0 \"*); /* 0xf0f800000007000f */\n\
            \x20   /* 0x001fd800362007f0 */\n\
            \x20 /*0028*/ {  MOV32I R4, 0xff ;   /* 0x010000000ff7f004 */\n\
            \x20 /*0030*/    LDG.E.CV R6, [R2]         }\n\
            \x20   /* 0xeed4e00000070206 */\n\
            \x20 /*0038*/   BFI R5, R5, 0x203, RZ ;   /* 0x36f07f8020370505 */\n";
        let k = &parse(l, Family::Sm50).unwrap()[0];
        assert_eq!(k.name, "k");
        assert_eq!(k.insts.len(), 6);
        // A dual-issue pair: the first stalls 0; the second's word is on the next line.
        assert_eq!((k.insts[3].mnemonic.as_str(), k.insts[3].ctrl.stall), ("MOV32I", 0));
        assert_eq!((k.insts[4].text(), k.insts[4].words.0), ("LDG.E.CV R6, [R2]".into(), 0xeed4e00000070206));
        assert_eq!(k.insts[5].words.0, 0x36f07f8020370505);
        // 0x001f8400e4200701: slot 0 = 0x00701 → stall 1, write SB0, read SB7 (none), wait 0.
        assert_eq!(k.insts[0].ctrl, Ctrl { stall: 1, yield_: false, wr_sb: Some(0), rd_sb: None, wait: 0 });
        assert_eq!(k.insts[1].guard, Some((true, "P0".into())));
        assert_eq!(k.insts[1].target.as_deref(), Some(".L_x_1"));
        assert_eq!(k.insts[2].target.as_deref(), Some(".L_x_0"));
        assert_eq!(k.label_index(".L_x_1"), Some(2));
    }

    #[test]
    fn sm90_high_word() {
        let l = ".section\t.text.k,\"ax\",@progbits\n\
            /*0000*/   S2UR UR5, SR_CgaCtaId ;   /* 0x00000000000579c3 */\n\
            \x20                                /* 0x000e220000008800 */\n\
            /*0010*/   ATOMG.E.ADD.STRONG.GPU PT, R2, desc[UR4][R4.64], R5 ;   /* 0x0 */\n\
            \x20                                /* 0x001fcc000f8ec03f */\n";
        let k = &parse(l, Family::Sm90).unwrap()[0];
        // 0x000e22...: stall 1, yield, write SB0.
        assert_eq!(k.insts[0].ctrl, Ctrl { stall: 1, yield_: true, wr_sb: Some(0), rd_sb: None, wait: 0 });
        assert_eq!(k.insts[1].operands, ["PT", "R2", "desc[UR4][R4.64]", "R5"]);
        assert_eq!(k.insts[1].mods, ["E", "ADD", "STRONG", "GPU"]);
        assert_eq!(k.insts[1].ctrl.wait, 1);
    }
}
