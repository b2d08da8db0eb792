//! Operand roles of a decoded instruction: which registers it reads and writes, and how wide
//! each register operand is. Derived from the form's operand slots, its
//! [`super::facts::Facts`] and the meanings of its modifier values, so it applies to any
//! decodable instruction — ptxas's code as much as atomc's — and owes nothing to the selector's
//! own operand lists (the hazard check in [`super::hazard`] relies on that).

use super::facts::{CondCode, Conversion, Meaning, Results, Width};
use super::form::{BaseWidth, ExtSpec, Form, OpSpec};
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

/// Width in registers of the data `form`'s modifiers `mods` name ([`Meaning::data`]); FP64
/// forms' data is at least a pair.
fn data_width(form: &Form, mods: &[u64]) -> u8 {
    let w = form.meanings(mods).map(|m| m.data).max().unwrap_or(1).max(1);
    if form.facts.fp64 {
        w.max(2)
    } else {
        w
    }
}

/// The width of a conversion's result (`def`) or source: 2 for a 64-bit type, else 1.
fn conversion_width(conv: Conversion, form: &Form, mods: &[u64], def: bool) -> u8 {
    let types = || form.meanings(mods).flat_map(|m| m.types.iter().flatten());
    let t = match conv {
        Conversion::IntToFloat | Conversion::FloatToInt => {
            let float_wanted = def == (conv == Conversion::IntToFloat);
            types().find(|t| t.float == float_wanted)
        }
        Conversion::FirstLast if def => types().next(),
        Conversion::FirstLast => types().last(),
    };
    match t {
        Some(t) if t.bits == 64 => 2,
        _ => 1,
    }
}

/// Computes the roles of `ins` under `arch`, from its form's [`super::facts::Facts`] and the
/// meanings of its modifier values.
pub fn roles(arch: &Arch, ins: &Instr) -> Roles {
    let form = &arch.forms[ins.form as usize];
    let facts = &form.facts;
    let mods = &ins.mods[..];
    let has = |flag: fn(&Meaning) -> bool| form.meanings(mods).any(flag);
    let mut r = Roles::default();
    if ins.guard.num != PT {
        r.guard = Some(if form.uniform_guard { UP_BASE } else { P_BASE } + ins.guard.num as Loc);
    }
    let data = data_width(form, mods);

    // Which operand slots are results.
    let n = ins.ops.len();
    let mut is_def: SmallVec<[bool; 8]> = smallvec::smallvec![false; n];
    let is_pred = |k: usize| matches!(ins.ops[k], Operand::Pred(_) | Operand::UPred(_));
    match facts.results {
        Results::None => {}
        Results::TwoPreds => {
            for (k, d) in is_def.iter_mut().enumerate().take(2.min(n)) {
                *d = is_pred(k);
            }
        }
        Results::Lead { carries } | Results::PredThenReg { carries } => {
            let mut k = 0;
            // Leading predicate results (ATOMG's and SHFL's `PT`, LDG's, FCHK's).
            while k < n && is_pred(k) {
                is_def[k] = true;
                k += 1;
            }
            let reg_result = k == 0 || matches!(facts.results, Results::PredThenReg { .. });
            if reg_result && k < n && matches!(ins.ops[k], Operand::Reg(_) | Operand::UReg(_)) {
                is_def[k] = true;
                k += 1;
                // Carry-outs right after the result.
                let mut taken = 0;
                while k < n && taken < carries && is_pred(k) {
                    is_def[k] = true;
                    k += 1;
                    taken += 1;
                }
            }
        }
    }

    // Widths of register operands.
    let width_of = |k: usize, def: bool| -> u8 {
        match facts.width {
            Width::Convert(conv) => conversion_width(conv, form, mods, def),
            // Result and addend are pairs.
            Width::Multiply if has(|m| m.wide) => {
                if def || k == 3 {
                    2
                } else {
                    1
                }
            }
            Width::LaneMask if def => 1,
            // Compare and swap packed in one group: a pair (32-bit) or an aligned quad (64-bit).
            Width::SurfaceAtomic if has(|m| m.cas) && !def => 2 * data,
            Width::WordFromPairs if def => 1,
            Width::WordFromPairs => 2,
            Width::SpecialPair if has(|m| m.word) => 1,
            Width::SpecialPair => 2,
            Width::One => 1,
            // Memory data, atomics and loads: the data size; sm_50 CAS pairs are separate slots.
            Width::Data | Width::Multiply | Width::LaneMask | Width::SurfaceAtomic => data,
        }
    };

    // A bindless surface handle (the register after a surface instruction's address and data)
    // is a 64-bit pair though the field names its first register: sm_50's `MOV R5,
    // c[0x0][0x144]` then `SUATOM.D.1D.CAS.U64.IGN RZ, [R8], R0, R4` needs R5 ready too.
    let handle = (facts.surface
        && n > 1
        && matches!(ins.ops[n - 1], Operand::Reg(_))
        && ins.ops[..n - 1].iter().any(|o| matches!(o, Operand::Mem(_))))
    .then(|| n - 1);
    // Registers a surface coordinate operand spans (0: not a surface instruction).
    let coords = if facts.surface { form.meanings(mods).map(|m| m.coords).max().unwrap_or(0).max(1) } else { 0 };
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
                let w = if facts.uniform_data { data } else { 1 };
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
                    || has(|m| m.extended);
                if m.base != RZ {
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
    // The sm_50 condition code, a register location of its own: `.CC` (a modifier or the
    // result's suffix) writes it, `.X` reads it.
    if facts.cond_code == CondCode::Modifiers {
        let cc_suffix =
            ins.ops.iter().zip(form.ops.iter()).any(
                |(o, spec)| matches!((o, spec), (Operand::Reg(g), OpSpec::Ext(ExtSpec::Suffixed { sets_cc: true, .. })) if g.not),
            );
        if has(|m| m.cc) || cc_suffix {
            r.writes.push(CC);
        }
        if has(|m| m.x) {
            r.reads.push(CC);
        }
    }
    r
}
