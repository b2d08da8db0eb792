//! What one instruction form does, beside its bits: which operands are results, how many
//! registers each register operand spans, what it orders or changes besides its results, and
//! its timing class on its target. One [`Facts`] per form, written once per mnemonic family in
//! the table source (`tables/{sm90,sm50}/facts.rs`), named by each form declaration of the
//! family (`.facts(facts::IMAD)`) and carried on each generated [`super::form::Form`], from
//! which the operand roles ([`super::roles`]), the fixed latencies ([`super::latency`]) and the
//! hazard check ([`super::hazard`]) derive.
//!
//! Facts that depend on modifier values (data width, conversion types, `.WIDE`, surface
//! dimension, `.CC` / `.X`) are read from the [`Meaning`] of each modifier value, which the
//! table builder records once per spelling; nothing here reads printed text at run time.
//!
//! This file is compiled by the build script too (the tables are written in its types).

/// Which leading operand slots are results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Results {
    /// No register result: the first register slot is a source (stores, reductions, control).
    None,
    /// Leading predicates are results; the register after them is one only when there are
    /// none (`FCHK P0, ...`, `IADD3 R2, P0, ...`), followed by up to `carries` carry-out
    /// predicates (IADD3's two, LEA's one, VOTE's one).
    Lead { carries: u8 },
    /// Leading predicates and then the register after them are results (`ATOMG.E.ADD P0, R2`,
    /// `LOP3.LUT P0, R3`, sm_50 `LEA P0, R4.CC`), followed by up to `carries` carry-outs.
    PredThenReg { carries: u8 },
    /// The two leading predicates are results (compare-and-combine forms: `ISETP P0, P1`).
    TwoPreds,
}

/// How many registers a general-register operand spans.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// The data width the modifiers name ([`Meaning::data`]; at least 2 with [`Facts::fp64`]).
    Data,
    /// Always one register.
    One,
    /// A conversion: the result is as wide as its type, a source as wide as the source type
    /// (the types from [`Meaning::types`]; see [`Conversion`]).
    Convert(Conversion),
    /// `IMAD`: with `.WIDE` ([`Meaning::wide`]) the result and the addend (slot 3) are pairs,
    /// the factors one register; without it, [`Width::Data`].
    Multiply,
    /// `MATCH`: a one-register result of a lane mask from a register of the data width
    /// (`.U64`: a pair).
    LaneMask,
    /// `SUATOM`: with `.CAS` ([`Meaning::cas`]) compare and swap are packed in one source group
    /// (a pair for 32-bit data, an aligned quad for 64-bit); otherwise [`Width::Data`].
    SurfaceAtomic,
    /// `DSET`: a word (the test's mask) from two f64 pairs.
    WordFromPairs,
    /// `CS2R`: a pair, one register with `.32` ([`Meaning::word`]).
    SpecialPair,
}

/// Which type of a conversion names its result and which its source (widths: 64-bit types
/// span two registers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conversion {
    /// The first type names the result, the last the source (`F2F.F64.F32`).
    FirstLast,
    /// `I2F`: the float type names the result, the integer type the source. sm_90's nvdisasm
    /// leaves out the default type (f32 float, s32 integer): `I2F.U64 R5, R4` (f32 result of a
    /// pair).
    IntToFloat,
    /// `F2I`: the integer type names the result, the float type the source (sm_90
    /// `F2I.S64.TRUNC R4, R4`: a pair result of an f32).
    FloatToInt,
}

/// What an instruction does besides writing its results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effects {
    /// Nothing: dead-code elimination may drop it when no result is read.
    None,
    /// A store, an atomic or reduction, a surface access (a trapping `SULD` can fault), or an
    /// instruction without results kept for what it does (`NOP`, `YIELD`, `DEPBAR`).
    Side,
    /// A control transfer, convergence point or memory fence: the dependency pass waits on every
    /// open scoreboard and every fixed-latency result before it issues, so nothing in flight
    /// crosses a branch, a fence or a warp synchronisation. Has side effects too.
    OrdersEverything,
}

/// The pipe a fixed-latency producer issues to (sm_90; sm_50's figures do not depend on it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pipe {
    /// Integer/logic ALU (`IADD3`, `LOP3`, `SHF`, `MOV`, `SEL`, `LEA`, `PRMT`, `ISETP`, and on
    /// ptxas 13.5's evidence `FMNMX`, `FSETP`, `VIMNMX`).
    Alu,
    /// The FMA pipe (`IMAD`, `FADD`, `FMUL`, `FFMA`).
    Fma,
    /// `IMAD.WIDE`: a pair result from the FMA pipe whose halves land a cycle apart.
    FmaWide,
    /// The uniform datapath (`UIADD3`, `ULEA`, `USHF`, ...).
    Uniform,
    /// Uniform moves and constant loads (`UMOV`, `ULDC`, `VOTEU`): 2 cycles.
    UniformMove,
    /// The FP64 pipe (`DADD`, `DMUL`, `DFMA`): 8 cycles on sm_90.
    Fp64,
    /// sm_90 `HMNMX2`: a pipe of its own by ptxas 13's timing, 4 cycles to itself and 5 to
    /// and from the ALU and FMA pipes.
    HalfMinMax,
    /// Everything else with a fixed latency.
    Other,
}

/// What the cubin container records about an instruction, beside its code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listed {
    /// Nothing.
    No,
    /// A barrier instruction: the kernel's `EIATTR_NUM_BARRIERS` counts the barriers it names.
    Barrier,
    /// Every thread of the warp takes part: its offset goes in `EIATTR_INT_WARP_WIDE_INSTR_OFFSETS`
    /// (ptxas 11.8 lists its `SHFL` and `VOTEU` there on sm_50 and sm_90 kernels).
    WarpWide,
}

/// How the address and data operands of a memory instruction are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryReader {
    /// Global or generic memory (loads, stores, atomics).
    Global,
    /// Shared memory (`LDS`, `STS`, `ATOMS`).
    Shared,
    /// A surface instruction: read like an unclassified source.
    Surface,
}

/// When a result of a variable-latency class arrives after a fixed delay after all. Each rule
/// reads the conversion's types ([`Meaning::types`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FixedWhen {
    /// Never: every result signals a scoreboard.
    Never,
    /// An 8- or 16-bit integer source and no f16/f64 type (`I2F` to f32).
    SmallIntToF32,
    /// A 16-bit integer type (sm_50 `F2I` to a 16-bit result).
    SixteenBitInt,
    /// The float result type `to` followed by the float source type `from` (`F2F.F32.F16`).
    Floats { to: u8, from: u8 },
    /// The first two three-character integer tokens ([`Meaning::wide_ints`]) both 32-bit
    /// (sm_50 `I2I.S32.S32`).
    Int32ToInt32,
}

/// The unit whose variable-latency results complete in issue order: a later scoreboard of the
/// same unit also covers its earlier unsignalled results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// In order only with instructions of the same mnemonic.
    Own,
    FloPopc,
    /// Shared-memory loads, shuffles and shared-memory atomics (the MIO pipe).
    Mio,
    /// Global and local loads.
    Lsu,
    /// The FP64 compares.
    Fp64Compare,
}

impl Unit {
    /// The unit's name; `Own` units are named by their mnemonic.
    pub fn name(self, mnemonic: &'static str) -> &'static str {
        match self {
            Unit::Own => mnemonic,
            Unit::FloPopc => "FLO/POPC",
            Unit::Mio => "MIO",
            Unit::Lsu => "LSU",
            Unit::Fp64Compare => "FP64 compare",
        }
    }
}

/// Operands the hazard check lets an instruction read later than issue (sm_90).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LateRead {
    None,
    /// With `.WIDE`, the high word of the 64-bit addend (slot 3) is read 2 cycles late.
    WideAddendHigh,
    /// An FP64-pipe result is read 2 cycles late.
    Fp64Result,
}

/// How control leaves an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// To the next instruction.
    Next,
    /// To its target (and, guarded, the next).
    Branch,
    /// Nowhere (`EXIT`, `RET`; guarded, the next).
    End,
    /// Opens a reconvergence point at its target (sm_50 `SSY`, `PBK`: `Opens(0)`, `Opens(1)`).
    Opens(u8),
    /// Continues at every point opened by the matching opener (`SYNC`: `Rejoins(0)`, `BRK`:
    /// `Rejoins(1)`).
    Rejoins(u8),
}

/// The sm_50 condition code ([`super::roles::CC`], a register location of its own).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CondCode {
    /// No condition code on this target.
    None,
    /// Written by a `.CC` modifier ([`Meaning::cc`]) or a set `.CC` result suffix, read by
    /// `.X` ([`Meaning::x`]).
    Modifiers,
}

/// The description of one form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facts {
    pub results: Results,
    pub width: Width,
    /// FP64 data: the data width is at least a pair.
    pub fp64: bool,
    /// Uniform register operands are as wide as the data (`ULDC.64`); otherwise one register.
    pub uniform_data: bool,
    /// A surface instruction: the memory operand's base spans the coordinates the dimension
    /// names ([`Meaning::coords`]), and a register after the address and data is a 64-bit
    /// bindless handle.
    pub surface: bool,
    pub cond_code: CondCode,
    pub effects: Effects,
    pub flow: Flow,
    /// A partial wait on scoreboards (sm_50 `DEPBAR`): the hazard check forgets what is pending.
    pub partial_wait: bool,
    /// The sm_90 pipe of a fixed-latency result (`Pipe::Fma` on `IMAD.WIDE` is `FmaWide`).
    pub pipe: Pipe,
    pub memory_reader: MemoryReader,
    /// The result arrives after a variable delay (the classes for which ptxas always sets a
    /// write scoreboard when the result is used) ...
    pub variable: bool,
    /// ... except where this says.
    pub fixed_when: FixedWhen,
    /// The predicate result is available at issue although the register result is not.
    pub predicate_at_issue: bool,
    pub unit: Unit,
    pub late_read: LateRead,
    /// The largest stall the sm_90 yield hint may be set with ([`super::latency::sm90_yield_hint`]).
    pub max_yield_stall: u8,
    /// What the cubin's kernel attributes record about the instruction.
    pub listed: Listed,
    /// Every source is read before a result is written, so the allocator may give a result
    /// the register of a source that dies there, whatever their shapes.
    pub reads_sources_first: bool,
    /// A memory fence (`MEMBAR`): with a GPU or system [`Meaning::scope`] every store the SM
    /// issued before it reaches L2 before anything after it (ptxas 13.5 `fence.acq_rel.gpu` →
    /// `MEMBAR.ALL.GPU`, `membar.gl` → `MEMBAR.SC.GPU`; ptxas 11.8 `membar.gl` →
    /// `MEMBAR.GL.IVALLD`); a CTA scope orders only within the SM, which is coherent already.
    pub fence: bool,
}

impl Facts {
    /// A fixed-latency instruction with one register result (and leading predicate results), of
    /// the data width, in no classified pipe.
    pub const PLAIN: Facts = Facts {
        results: Results::Lead { carries: 2 },
        width: Width::Data,
        fp64: false,
        uniform_data: false,
        surface: false,
        cond_code: CondCode::None,
        effects: Effects::None,
        flow: Flow::Next,
        partial_wait: false,
        pipe: Pipe::Other,
        memory_reader: MemoryReader::Global,
        variable: false,
        fixed_when: FixedWhen::Never,
        predicate_at_issue: false,
        unit: Unit::Own,
        late_read: LateRead::None,
        max_yield_stall: 15,
        listed: Listed::No,
        reads_sources_first: false,
        fence: false,
    };

    /// Whether the instruction does something besides writing its results.
    pub fn has_side_effects(&self) -> bool {
        self.effects != Effects::None
    }

    /// Whether it orders everything before it.
    pub fn orders_everything(&self) -> bool {
        self.effects == Effects::OrdersEverything
    }
}

/// A number type a modifier names (`F32`, `U16`, `S64`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NumType {
    pub float: bool,
    pub bits: u8,
}

/// How far a fence or a strong access reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MemScope {
    /// The block's SM (`CTA`, `SM`).
    Cta,
    /// The device (`GPU`; sm_50 `GL`).
    Gpu,
    /// The system (`SYS`).
    Sys,
}

/// What one modifier value means to the facts: recorded by the table builder for every
/// spelling ([`meaning_of`]), parallel to [`super::form::ModGroup::values`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Meaning {
    /// Registers of data it names: 2 (`.64`, `.U64`, `.S64`, `.SD64`, `.F64`, `.F32x2`,
    /// `.F16x4`, `.BF16x4`), 4 (`.128`, `.F32x4`, `.F16x8`, `.BF16x8`), else 1.
    pub data: u8,
    /// The number types it names, in order (`F32.S16`: f32 then s16).
    pub types: [Option<NumType>; 2],
    /// The bits of each three-character token starting with `S` or `U` (`S32`, `U16`; 0 for
    /// `SAT`, `SYS`), in order: what [`FixedWhen::Int32ToInt32`] compares.
    pub wide_ints: [Option<u8>; 2],
    /// Registers a surface coordinate spans: 3 (`3D`, `2D_ARRAY`), 2 (`2D`, `1D_ARRAY`), else 0.
    pub coords: u8,
    /// `.WIDE` (a pair result of a multiply).
    pub wide: bool,
    /// `.E`: a 64-bit address in the pair the base register names.
    pub extended: bool,
    /// `.CAS`.
    pub cas: bool,
    /// `.32`.
    pub word: bool,
    /// `.CC`: writes the sm_50 condition code.
    pub cc: bool,
    /// `.X`: reads it.
    pub x: bool,
    /// The scope it names (`STRONG.GPU`, `MEMBAR`'s `.CTA`/`.GL`/`.SYS`).
    pub scope: Option<MemScope>,
    /// `STRONG` or `MMIO`: a strong access (ptxas 13.5 `ld.relaxed.gpu`, `ld.acquire.gpu` and
    /// `ld.global.cg` → `LDG.E.STRONG.GPU`, `ld.volatile` → `LDG.E.STRONG.SYS`); with a GPU or
    /// system scope it reads L2, not a line the SM's L1 filled earlier.
    pub strong: bool,
    /// sm_50's `CV` and `CG` cache operators: the load skips L1 (ptxas 11.8 `ld.volatile` →
    /// `LDG.E.CV`, `ld.global.cg` → `LDG.E.CG`; a plain `ld.global` is `LDG.E`).
    pub uncached: bool,
    /// Invalidates the SM's L1 data lines: sm_90 `CCTL.IVALL` (ptxas 13.5 after
    /// `ld.acquire.gpu` and in `fence.acq_rel.gpu`), sm_50 `MEMBAR`'s `.IVALLD`/`.IVALLTD`
    /// (ptxas 11.8 `membar.gl` → `MEMBAR.GL.IVALLD`, `membar.cta` → `MEMBAR.CTA`).
    pub invalidates: bool,
}

/// The meaning of the modifier spelling `s` (dot-separated tokens). Run by the table builder
/// only: the tables carry the result.
pub fn meaning_of(s: &str) -> Meaning {
    let mut m = Meaning {
        data: 1,
        types: [None; 2],
        wide_ints: [None; 2],
        coords: 0,
        wide: false,
        extended: false,
        cas: false,
        word: false,
        cc: false,
        x: false,
        scope: None,
        strong: false,
        uncached: false,
        invalidates: false,
    };
    let (mut nt, mut nw) = (0, 0);
    for t in s.split('.').filter(|t| !t.is_empty()) {
        let here = match t {
            "64" | "U64" | "S64" | "SD64" | "F64" | "F32x2" | "F16x4" | "BF16x4" => 2,
            "128" | "F32x4" | "F16x8" | "BF16x8" => 4,
            _ => 1,
        };
        m.data = m.data.max(here);
        let is_type = t.len() >= 2 && t.starts_with(['F', 'S', 'U']) && t[1..].bytes().all(|b| b.is_ascii_digit());
        if is_type {
            assert!(nt < 2, "{s}: more than two types in one spelling");
            m.types[nt] = Some(NumType { float: t.starts_with('F'), bits: t[1..].parse().expect("digits") });
            nt += 1;
        }
        if t.len() == 3 && t.starts_with(['S', 'U']) {
            assert!(nw < 2, "{s}: more than two integer types in one spelling");
            // The last two characters as bits, 0 where they are not digits (`SYS`, `SAT`).
            m.wide_ints[nw] = Some(t[1..].parse().unwrap_or(0));
            nw += 1;
        }
        m.coords = m.coords.max(match t {
            "3D" | "2D_ARRAY" => 3,
            "2D" | "1D_ARRAY" => 2,
            _ => 0,
        });
        m.wide |= t == "WIDE";
        m.extended |= t == "E";
        m.cas |= t == "CAS";
        m.word |= t == "32";
        m.cc |= t == "CC";
        m.x |= t == "X";
        m.scope = m.scope.or(match t {
            "CTA" | "SM" => Some(MemScope::Cta),
            "GPU" | "GL" => Some(MemScope::Gpu),
            "SYS" => Some(MemScope::Sys),
            _ => None,
        });
        m.strong |= matches!(t, "STRONG" | "MMIO");
        m.uncached |= matches!(t, "CV" | "CG");
        m.invalidates |= matches!(t, "IVALL" | "IVALLD" | "IVALLTD");
    }
    m
}

#[cfg(test)]
mod tests {
    use super::super::{roles, sm50, sm90, Arch};
    use super::*;

    /// The first instruction of the assembler line `text`.
    fn line(arch: &Arch, text: &str) -> crate::Instr {
        arch.assemble_line(&format!("{text} ;"), 0).expect("assembles").expect("an instruction")
    }

    /// Every form of both tables carries its family's facts and a meaning for every modifier
    /// value; samples read from the tables agree with what the table source says.
    #[test]
    fn every_form_is_described_by_its_table() {
        for arch in [sm90(), sm50()] {
            for f in arch.forms {
                for g in f.mods {
                    assert_eq!(g.meanings.len(), g.values.len(), "{}: group {} without meanings", f.key, g.name);
                }
                let forms = arch.forms_named(f.mnemonic);
                let same = forms.iter().all(|&i| arch.forms[i as usize].facts == f.facts);
                assert!(same, "{}: one family, one description", f.key);
                let cc = if arch.sm == crate::Sm::Sm50 { CondCode::Modifiers } else { CondCode::None };
                assert_eq!(f.facts.cond_code, cc, "{}", f.key);
            }
        }
        let a = sm90();
        // IMAD.WIDE: a pair result and a pair addend, the FMA pipe's pair timing.
        let imad = line(a, "IMAD.WIDE.U32 R2, R4, R6, R8");
        let form = &a.forms[imad.form as usize];
        assert_eq!((form.facts.width, form.facts.pipe), (Width::Multiply, Pipe::Fma));
        assert!(form.meanings(&imad.mods).any(|m| m.wide));
        let r = roles::roles(a, &imad);
        assert_eq!(&r.writes[..], &[2, 3]);
        assert_eq!(&r.reads[..], &[4, 6, 8, 9]);
        // DSETP: two predicate results from f64 pairs.
        let dsetp = line(a, "DSETP.MAX.AND P0, P1, R8, R4, PT");
        assert_eq!(a.forms[dsetp.form as usize].facts.results, Results::TwoPreds);
        let r = roles::roles(a, &dsetp);
        assert_eq!(&r.writes[..], &[roles::P_BASE, roles::P_BASE + 1]);
        assert_eq!(&r.reads[..], &[8, 9, 4, 5]);
        // sm_50 IADD with `.CC`: writes the condition code, which `.X` reads.
        let b = sm50();
        let add = line(b, "IADD R2.CC, R4, R6");
        let r = roles::roles(b, &add);
        assert_eq!(&r.writes[..], &[2, roles::CC]);
        let addx = line(b, "IADD.X R3, R5, R7");
        assert!(b.forms[addx.form as usize].meanings(&addx.mods).any(|m| m.x));
        assert!(roles::roles(b, &addx).reads.contains(&roles::CC));
    }

    /// Fences, invalidations and strong or uncached loads, as ptxas writes them (see the
    /// `MEMBAR` facts of each table and [`Meaning::strong`]).
    #[test]
    fn ordering_facts() {
        let of = |arch: &Arch, text: &str| {
            let i = line(arch, text);
            let f = &arch.forms[i.form as usize];
            let ms: Vec<_> = f.meanings(&i.mods).collect();
            let scope = ms.iter().filter_map(|m| m.scope).max();
            let any = |p: fn(&Meaning) -> bool| ms.iter().any(|m| p(m));
            (f.facts.fence, scope, any(|m| m.strong), any(|m| m.uncached), any(|m| m.invalidates))
        };
        let (a, b) = (sm90(), sm50());
        assert_eq!(of(a, "MEMBAR.ALL.GPU"), (true, Some(MemScope::Gpu), false, false, false));
        assert_eq!(of(a, "MEMBAR.SC.CTA"), (true, Some(MemScope::Cta), false, false, false));
        assert_eq!(of(a, "CCTL.IVALL"), (false, None, false, false, true));
        assert_eq!(of(a, "LDG.E.STRONG.GPU R0, desc[UR4][R2.64+0x10]"), (false, Some(MemScope::Gpu), true, false, false));
        assert_eq!(of(a, "LDG.E.STRONG.SYS R0, desc[UR4][R2.64]"), (false, Some(MemScope::Sys), true, false, false));
        assert_eq!(of(a, "LDG.E R0, desc[UR4][R2.64]"), (false, None, false, false, false));
        assert_eq!(of(b, "MEMBAR.GL.IVALLD"), (true, Some(MemScope::Gpu), false, false, true));
        assert_eq!(of(b, "MEMBAR.CTA"), (true, Some(MemScope::Cta), false, false, false));
        assert_eq!(of(b, "LDG.E.CV R4, [R2+0x18]"), (false, None, false, true, false));
        assert_eq!(of(b, "LDG.E.CG R4, [R2+0x18]"), (false, None, false, true, false));
        assert_eq!(of(b, "LDG.E R4, [R2+0x18]"), (false, None, false, false, false));
    }

    #[test]
    fn meanings_of_spellings() {
        let m = meaning_of("F32.S16");
        assert_eq!(m.types, [Some(NumType { float: true, bits: 32 }), Some(NumType { float: false, bits: 16 })]);
        assert_eq!((meaning_of("E.64").data, meaning_of("128").data, meaning_of("F32x2.RN").data), (2, 4, 2));
        assert_eq!((meaning_of("2D_ARRAY").coords, meaning_of("1D").coords), (3, 0));
        assert!(meaning_of("E").extended && meaning_of("WIDE").wide && meaning_of("CC").cc);
    }
}
