//! The register rules of each SASS target, as data: one [`TargetRules`] per target, both with
//! the same shape, so the post-allocation checker (and documentation) read one table.
//!
//! Sources: the SPA 5.0 `ATOM` and `SUATOM` instruction documents (CAS register groups, surface
//! coordinate alignment, "Ra/Rc cannot be RZ"), and disassembler experiments on SM50/SM90
//! encodings (SM90 CAS compare and swap are independent registers; SM70+ reserves two GPRs).
//!
//! A rule row lists an instruction form's register fields in the order the instruction visits
//! them (see `atomc_lower::vcode::RegForm`).

use atomc_lower::vcode::RegForm;
pub use atomc_sass::Sm;
use smallvec::SmallVec;

/// The rule table of `sm`.
pub fn rules(sm: Sm) -> &'static TargetRules {
    match sm {
        Sm::Sm50 => &SM50,
        Sm::Sm90 => &SM90,
    }
}

/// How many consecutive registers a field names.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Width {
    /// Whatever the instruction declares (1, 2 or 4), e.g. an address that is 32 or 64 bits.
    Declared,
    /// Exactly this many.
    Exactly(u8),
}

/// The rule for one register field.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FieldRule {
    /// The field's name in the ISA documents (`Rd`, `Ra`, `Rb`, `Rc`).
    pub name: &'static str,
    pub width: Width,
    /// Required alignment of the first register; `None` = natural (width rounded up to a power
    /// of two: pairs even, quads and 3-register groups multiple of 4).
    pub align: Option<u8>,
    /// May the field hold RZ?
    pub rz: bool,
}

impl FieldRule {
    const fn new(name: &'static str, width: Width, align: Option<u8>, rz: bool) -> Self {
        FieldRule { name, width, align, rz }
    }

    /// Alignment for a field of `width` registers.
    pub fn alignment(&self, width: u8) -> u8 {
        self.align.unwrap_or_else(|| width.max(1).next_power_of_two())
    }
}

/// "Field `field` must be field `base` + `offset`":
/// the implied second register of SM50's packed CAS group.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Tie {
    pub field: usize,
    pub base: usize,
    pub offset: u8,
}

/// One row: the fields of a form and its tie, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormRule {
    pub name: &'static str,
    pub fields: SmallVec<[FieldRule; 4]>,
    pub tie: Option<Tie>,
}

/// A CAS row (fields Rd, Ra, Rb, Rc) with its tie.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CasRule {
    pub fields: [FieldRule; 4],
    pub tie: Option<Tie>,
}

/// A target's register rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetRules {
    pub target: Sm,
    /// R0..R(usable-1) may be allocated.
    pub usable: u8,
    /// Registers never to be used (R255 is RZ and not a register at all).
    pub reserved: &'static [u8],
    /// `ATOM` (non-CAS) with a 32-bit / 64-bit value: Rd, Ra, Rb.
    pub atom32: [FieldRule; 3],
    pub atom64: [FieldRule; 3],
    /// `ATOM.CAS` 32-bit / 64-bit: Rd, Ra, Rb (compare), Rc (swap).
    pub cas32: CasRule,
    pub cas64: CasRule,
    /// May surface coordinates (Ra) / the bindless handle (Rc) be RZ?
    pub surface_coords_rz: bool,
    pub surface_handle_rz: bool,
    /// SUATOM.CAS takes compare and swap as one packed group in Rb.
    pub surface_cas_packed: bool,
}

const RD1: FieldRule = FieldRule::new("Rd", Width::Exactly(1), None, true);
const RD2: FieldRule = FieldRule::new("Rd", Width::Exactly(2), None, true);
const RA: FieldRule = FieldRule::new("Ra", Width::Declared, None, true);
const RB1: FieldRule = FieldRule::new("Rb", Width::Exactly(1), None, true);
const RB2: FieldRule = FieldRule::new("Rb", Width::Exactly(2), None, true);

/// No CAS reads RZ as its compare or swap value, on either target: the CAS forms' compare and
/// swap slots refuse it (`rz_ok: false` in `emit/sass/tables/{sm90,sm50}/atomics.rs`, with the
/// evidence: ptxas 13.5 and 11.8 always put a zero compare or swap value in a register,
/// `HFMA2.MMA R4, -RZ, RZ, 0, 0` / `MOV R4, RZ`), and `tests/rules.rs` checks these rows
/// against the form table. Whether RZ reads as zero there is unverified on hardware.
pub const CAS_VALUE_RZ: bool = false;

/// `ATOM.CAS` with compare and swap packed in one group of `w`-register values: Rb aligned to
/// `2 * w`, Rc = Rb + `w` (SM50 also encodes `Rb, RZ` and `RZ, Rb`, never selected: see
/// [`CAS_VALUE_RZ`]).
const fn packed_cas(rd: FieldRule, w: u8) -> CasRule {
    CasRule {
        fields: [
            rd,
            RA,
            FieldRule::new("Rb", Width::Exactly(w), Some(2 * w), CAS_VALUE_RZ),
            FieldRule::new("Rc", Width::Exactly(w), Some(w), CAS_VALUE_RZ),
        ],
        tie: Some(Tie { field: 3, base: 2, offset: w }),
    }
}

/// `ATOM.CAS` with compare and swap independent `w`-register values, naturally aligned.
const fn independent_cas(rd: FieldRule, w: u8) -> CasRule {
    CasRule {
        fields: [
            rd,
            RA,
            FieldRule::new("Rb", Width::Exactly(w), None, CAS_VALUE_RZ),
            FieldRule::new("Rc", Width::Exactly(w), None, CAS_VALUE_RZ),
        ],
        tie: None,
    }
}

/// Maxwell: R0..R254, nothing reserved; CAS compare and swap packed (seed 000).
pub const SM50: TargetRules = TargetRules {
    target: Sm::Sm50,
    usable: 255,
    reserved: &[],
    atom32: [RD1, RA, RB1],
    atom64: [RD2, RA, RB2],
    // ATOM.CAS.32: Rb = R2n, Rc = Rb+1.
    cas32: packed_cas(RD1, 1),
    // ATOM.CAS.64: Rb = R4n, Rc = Rb+2.
    cas64: packed_cas(RD2, 2),
    surface_coords_rz: false,
    surface_handle_rz: false,
    surface_cas_packed: true,
};

/// Hopper: R0..R252 (SM70+ reserves two GPRs, R253/R254); CAS compare and swap independent.
/// RZ in the CAS compare (bits 32..39) or swap (64..71) field: nvdisasm 13 decodes both
/// (`ATOMG.E.CAS.STRONG.GPU PT, R2, [R0], RZ, R4`), unlike SM50's group base, which it prints as
/// `???255`, but ptxas never writes it, so it is forbidden ([`CAS_VALUE_RZ`]).
pub const SM90: TargetRules = TargetRules {
    target: Sm::Sm90,
    usable: 253,
    reserved: &[253, 254],
    cas32: independent_cas(RD1, 1),
    cas64: independent_cas(RD2, 2),
    // The ATOM rows and the surface rules are Maxwell's.
    ..SM50
};

impl TargetRules {
    /// The row for `form`; `None` for [`RegForm::Plain`] (fields follow their declared shapes,
    /// RZ accepted anywhere).
    pub fn form(&self, form: RegForm) -> Option<FormRule> {
        match form {
            RegForm::Plain => None,
            RegForm::Atom { wide } => Some(FormRule {
                name: if wide { "ATOM.64" } else { "ATOM.32" },
                fields: SmallVec::from_slice(if wide { &self.atom64 } else { &self.atom32 }),
                tie: None,
            }),
            RegForm::AtomCas { wide } => {
                let row = if wide { &self.cas64 } else { &self.cas32 };
                Some(FormRule {
                    name: if wide { "ATOM.CAS.64" } else { "ATOM.CAS.32" },
                    fields: SmallVec::from_slice(&row.fields),
                    tie: row.tie,
                })
            }
            RegForm::SurfaceAtom { coords, wide, cas, has_dst, bindless } => {
                let value = if wide { 2 } else { 1 };
                let data = if cas && self.surface_cas_packed { value * 2 } else { value };
                let mut fields = SmallVec::new();
                if has_dst {
                    fields.push(FieldRule::new("Rd", Width::Exactly(value), None, true));
                }
                fields.push(FieldRule::new("Ra", Width::Exactly(coords), None, self.surface_coords_rz));
                fields.push(FieldRule::new("Rb", Width::Exactly(data), None, !cas || CAS_VALUE_RZ));
                if bindless {
                    fields.push(FieldRule::new("Rc", Width::Exactly(1), None, self.surface_handle_rz));
                }
                Some(FormRule { name: if has_dst { "SUATOM" } else { "SURED" }, fields, tie: None })
            }
        }
    }

    /// Is `reg` reserved on this target?
    pub fn is_reserved(&self, reg: u8) -> bool {
        self.reserved.contains(&reg)
    }
}
