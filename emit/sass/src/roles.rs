//! Operand roles of a decoded instruction: which registers it reads and writes, and how wide
//! each register operand is. Derived from the form's operand slots and modifier spellings, so it
//! applies to any decodable instruction — ptxas's code as much as atomc's — and owes nothing to
//! the selector's own operand lists (the hazard check in [`super::hazard`] relies on that).

use super::form::{BaseWidth, ExtSpec, OpSpec};
use super::instr::{Instr, Operand, PT, RZ, URZ};
use super::Arch;
use smallvec::SmallVec;

/// Register numbering shared by the role and hazard code: GPRs 0..=254, predicates 256 + n,
/// the sm_50 condition code [`CC`], uniform registers [`UR_BASE`] + n, uniform predicates
/// [`UP_BASE`] + n.
pub type Loc = u16;
/// First predicate location.
pub const P_BASE: Loc = 256;
/// The sm_50 condition-code (carry) register.
pub const CC: Loc = 264;
/// First uniform register location.
pub const UR_BASE: Loc = 300;
/// First uniform predicate location.
pub const UP_BASE: Loc = 400;

/// Whether `l` is a predicate (general or uniform).
pub fn is_pred_loc(l: Loc) -> bool {
    (P_BASE..CC).contains(&l) || l >= UP_BASE
}

/// Name of a register location, as the hazard check prints it: `R5`, `P2`, `CC`, `UR4`, `UP1`.
pub fn loc_name(l: Loc) -> String {
    match l {
        0..=254 => format!("R{l}"),
        CC => "CC".into(),
        _ if (P_BASE..CC).contains(&l) => format!("P{}", l - P_BASE),
        _ if (UR_BASE..UP_BASE).contains(&l) => format!("UR{}", l - UR_BASE),
        _ => format!("UP{}", l.saturating_sub(UP_BASE)),
    }
}

/// Reads and writes of one instruction.
#[derive(Clone, Debug, Default)]
pub struct Roles {
    pub reads: SmallVec<[Loc; 12]>,
    pub writes: SmallVec<[Loc; 6]>,
    /// The guard predicate, if not `PT`.
    pub guard: Option<Loc>,
    /// The instruction has a memory operand (its register sources are read as addresses/data).
    pub memory: bool,
}

/// Mnemonics with no register result (their first register slot is a source).
const NO_RESULT: &[&str] = &[
    "ST",
    "STG",
    "STS",
    "STL",
    "RED",
    "REDG",
    "SURED",
    "SUST",
    "BAR",
    "MEMBAR",
    "BRA",
    "EXIT",
    "BSSY",
    "BSYNC",
    "NOP",
    "YIELD",
    "CALL",
    "RET",
    "CCTL",
    "ERRBAR",
    "CGAERRBAR",
    "SSY",
    "SYNC",
    "PBK",
    "BRK",
    "WARPSYNC",
    "DEPBAR",
];

/// Mnemonics the dependency pass treats as barriers: control transfers, convergence points and
/// memory fences. Every open scoreboard is waited on before one issues and every fixed-latency
/// result is ready, so nothing in flight crosses a branch, a fence or a warp synchronisation.
const ORDERS_EVERYTHING: &[&str] = &[
    "BRA",
    "EXIT",
    "CALL",
    "RET",
    "BAR",
    "MEMBAR",
    "ERRBAR",
    "CGAERRBAR",
    "CCTL",
    "WARPSYNC",
    "BSSY",
    "BSYNC",
    "SSY",
    "SYNC",
    "PBK",
    "BRK",
];

/// Whether `mnemonic` is one of `ORDERS_EVERYTHING`.
pub fn orders_everything(mnemonic: &str) -> bool {
    ORDERS_EVERYTHING.contains(&mnemonic)
}

/// Whether an instruction of `mnemonic` does something besides writing its result registers:
/// a store, an atomic or reduction, a surface access (a trapping `SULD` can fault), or one of
/// `ORDERS_EVERYTHING`. Dead-code elimination keeps these whether or not their results are read.
pub fn has_side_effects(mnemonic: &str) -> bool {
    orders_everything(mnemonic)
        || NO_RESULT.contains(&mnemonic)
        || matches!(mnemonic, "ATOM" | "ATOMG" | "ATOMS" | "SUATOM" | "SULD")
}

/// Mnemonics whose two leading predicates are results (compare-and-combine forms).
const TWO_PRED_RESULTS: &[&str] = &["ISETP", "FSETP", "DSETP", "HSETP2", "PLOP3", "PSETP", "UISETP", "UPLOP3"];

/// Mnemonics whose leading predicate result is followed by a register result.
/// (sm_50 `LOP.AND.NZ P0, R3, ...` and `LEA P0, R4.CC, ...` too.)
const PRED_THEN_REG: &[&str] =
    &["ATOM", "ATOMG", "LDG", "LD", "LEA", "LOP", "LOP3", "MATCH", "QSPC", "SHFL", "SUATOM", "SULD"];

/// Width in registers of the data a modifier list names (`.64`, `.128`, `F64`, `F32x2`, ...).
fn data_width(mnemonic: &str, mods: &[&str]) -> u8 {
    let mut w = 1;
    for m in mods {
        let m = *m;
        let here = match m {
            "64" | "U64" | "S64" | "SD64" | "F64" | "F32x2" | "F16x4" | "BF16x4" => 2,
            "128" | "F32x4" | "F16x8" | "BF16x8" => 4,
            _ => 1,
        };
        w = w.max(here);
    }
    if mnemonic.starts_with('D') && mnemonic != "DEPBAR" {
        w = 2;
    }
    w
}

/// Computes the roles of `ins` under `arch`.
pub fn roles(arch: &Arch, ins: &Instr) -> Roles {
    let form = &arch.forms[ins.form as usize];
    let mnemonic = form.mnemonic;
    let mods: SmallVec<[&str; 8]> = form
        .mods
        .iter()
        .zip(ins.mods.iter())
        .filter_map(|(g, v)| g.spelling(*v))
        .flat_map(|s| s.split('.'))
        .filter(|s| !s.is_empty())
        .collect();
    let has = |m: &str| mods.contains(&m);
    let mut r = Roles::default();
    if ins.guard.num != PT {
        r.guard = Some(if form.uniform_guard { UP_BASE } else { P_BASE } + ins.guard.num as Loc);
    }
    let sm50 = arch.name == "sm_50";
    let data = data_width(mnemonic, &mods);

    // Which operand slots are results.
    let n = ins.ops.len();
    let mut is_def: SmallVec<[bool; 8]> = smallvec::smallvec![false; n];
    if !NO_RESULT.contains(&mnemonic) {
        if TWO_PRED_RESULTS.contains(&mnemonic) {
            for (k, d) in is_def.iter_mut().enumerate().take(2.min(n)) {
                *d = matches!(ins.ops[k], Operand::Pred(_) | Operand::UPred(_));
            }
        } else {
            let mut k = 0;
            // Leading predicate results (ATOMG's and SHFL's `PT`, LDG's, FCHK's).
            while k < n && matches!(ins.ops[k], Operand::Pred(_) | Operand::UPred(_)) {
                is_def[k] = true;
                k += 1;
            }
            let reg_result = k == 0 || PRED_THEN_REG.contains(&mnemonic);
            if reg_result && k < n && matches!(ins.ops[k], Operand::Reg(_) | Operand::UReg(_)) {
                is_def[k] = true;
                k += 1;
                // Carry-outs right after the result (IADD3's two, LEA's one, VOTE's one).
                let max = if mnemonic == "VOTE" || mnemonic == "VOTEU" { 1 } else { 2 };
                let mut taken = 0;
                while k < n && taken < max && matches!(ins.ops[k], Operand::Pred(_) | Operand::UPred(_)) {
                    is_def[k] = true;
                    k += 1;
                    taken += 1;
                }
            }
        }
    }

    // Widths of register operands.
    let width_of = |k: usize, def: bool| -> u8 {
        let is_conv = matches!(mnemonic, "F2F" | "I2F" | "F2I" | "I2FP" | "F2FP");
        if is_conv {
            // The first type names the result, the last the source (`F2F.F64.F32`).
            let is_type =
                |m: &&str| m.len() >= 2 && m.starts_with(['F', 'S', 'U']) && m[1..].bytes().all(|b| b.is_ascii_digit());
            let types: SmallVec<[&str; 4]> = mods.iter().copied().filter(is_type).collect();
            // sm_90's nvdisasm leaves out the default type (f32 float, s32 integer) of I2F and
            // F2I: `I2F.U64 R5, R4` (f32 result of a pair), `F2I.S64.TRUNC R4, R4` (pair result
            // of an f32), so there the float type is I2F's result and F2I's source.
            let float = |m: &&str| m.starts_with('F');
            let t = match mnemonic {
                "I2F" | "F2I" if def == (mnemonic == "I2F") => types.iter().find(|m| float(m)),
                "I2F" | "F2I" => types.iter().find(|m| !float(m)),
                _ if def => types.first(),
                _ => types.last(),
            };
            return match t {
                Some(t) if t.ends_with("64") => 2,
                _ => 1,
            };
        }
        if mnemonic == "IMAD" && has("WIDE") {
            // Result and addend are pairs.
            return if def || k == 3 { 2 } else { 1 };
        }
        if mnemonic == "MATCH" {
            // A lane mask from a register (`.U64`: a pair).
            return if def { 1 } else { data };
        }
        if mnemonic == "SUATOM" && has("CAS") && !def {
            // Compare and swap packed in one group: a pair (32-bit) or an aligned quad (64-bit).
            return 2 * data;
        }
        if mnemonic == "DSET" {
            // A word (the test's mask) from two f64 pairs.
            return if def { 1 } else { 2 };
        }
        if mnemonic == "CS2R" {
            return if has("32") { 1 } else { 2 };
        }
        if matches!(mnemonic, "SHF" | "LOP3" | "IADD3" | "SEL" | "MOV" | "ISETP" | "LEA" | "PRMT" | "IMNMX" | "XMAD") {
            return 1;
        }
        // Memory data, atomics and loads: the data size; sm_50 CAS pairs are separate slots.
        data
    };

    // A bindless surface handle (the register after a surface instruction's address and data)
    // is a 64-bit pair though the field names its first register: sm_50's `MOV R5,
    // c[0x0][0x144]` then `SUATOM.D.1D.CAS.U64.IGN RZ, [R8], R0, R4` needs R5 ready too.
    let handle = (mnemonic.starts_with("SU")
        && n > 1
        && matches!(ins.ops[n - 1], Operand::Reg(_))
        && ins.ops[..n - 1].iter().any(|o| matches!(o, Operand::Mem(_))))
    .then(|| n - 1);
    for (k, op) in ins.ops.iter().enumerate() {
        let def = is_def[k];
        let put = |l: Loc, r: &mut Roles| {
            if def {
                r.writes.push(l)
            } else {
                r.reads.push(l)
            }
        };
        match *op {
            Operand::Reg(reg) if reg.num != RZ => {
                let w = if handle == Some(k) { 2 } else { width_of(k, def) };
                for i in 0..w {
                    put(reg.num as Loc + i as Loc, &mut r);
                }
            }
            Operand::UReg(reg) if reg.num != URZ => {
                let w = if matches!(mnemonic, "ULDC" | "LDC") { data } else { 1 };
                for i in 0..w {
                    put(UR_BASE + reg.num as Loc + i as Loc, &mut r);
                }
            }
            Operand::Pred(p) if p.num != PT => put(P_BASE + p.num as Loc, &mut r),
            Operand::UPred(p) if p.num != PT => put(UP_BASE + p.num as Loc, &mut r),
            Operand::Mem(m) => {
                r.memory = true;
                let spec_width = match form.ops.get(k) {
                    Some(OpSpec::Mem(s)) => Some(s.width),
                    _ => None,
                };
                let wide = m.width == BaseWidth::Wide
                    || spec_width == Some(BaseWidth::Wide)
                    // `.E` makes `[R2]` a 64-bit address in R2:R3 (sm_50; and sm_90's plain
                    // forms, which nvdisasm prints without `.64`).
                    || has("E");
                if m.base != RZ {
                    let coords = surface_coords(mnemonic, &mods);
                    let w = if coords > 1 {
                        coords
                    } else if wide {
                        2
                    } else {
                        1
                    };
                    for i in 0..w {
                        r.reads.push(m.base as Loc + i as Loc);
                    }
                }
                for u in [m.ureg, m.desc].into_iter().flatten() {
                    if u != URZ {
                        r.reads.push(UR_BASE + u as Loc);
                        if m.desc == Some(u) {
                            r.reads.push(UR_BASE + u as Loc + 1);
                        }
                    }
                }
            }
            Operand::CBank { base, .. } if base != RZ => r.reads.push(base as Loc),
            _ => {}
        }
    }
    // Condition code on sm_50: `.CC` writes it, `.X` reads it.
    if sm50 {
        let cc_suffix =
            ins.ops.iter().zip(form.ops.iter()).any(
                |(o, spec)| matches!((o, spec), (Operand::Reg(g), OpSpec::Ext(ExtSpec::Suffixed { suffix: ".CC", .. })) if g.not),
            );
        if has("CC") || cc_suffix {
            r.writes.push(CC);
        }
        if has("X") {
            r.reads.push(CC);
        }
    }
    r
}

/// Registers a surface coordinate operand spans (0: not a surface instruction).
fn surface_coords(mnemonic: &str, mods: &[&str]) -> u8 {
    if !mnemonic.starts_with("SU") {
        return 0;
    }
    if mods.contains(&"3D") || mods.contains(&"2D_ARRAY") {
        3
    } else if mods.contains(&"2D") || mods.contains(&"1D_ARRAY") {
        2
    } else {
        1
    }
}
