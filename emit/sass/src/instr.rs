//! Decoded instructions: a form plus operand values, modifier values and schedule fields.

use super::form::BaseWidth;
use smallvec::SmallVec;

/// Register number of the zero register `RZ` (also "no destination").
pub const RZ: u8 = 255;
/// Uniform zero register `URZ` on sm_90.
pub const URZ: u8 = 63;
/// The true predicate `PT` (and `UPT`).
pub const PT: u8 = 7;

/// A register operand value (general or uniform).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Reg {
    pub num: u8,
    pub neg: bool,
    pub abs: bool,
    pub not: bool,
    /// Half-precision operand swizzle (`.H0_H0` = 2, `.H1_H1` = 3; 0 the unprinted pair
    /// order), where the form has one ([`super::form::ExtSpec::Swizzled`]).
    pub swz: u8,
}

impl Reg {
    pub fn r(num: u8) -> Reg {
        Reg { num, ..Reg::default() }
    }
}

/// A predicate value; `num` 7 is `PT`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pred {
    pub num: u8,
    pub not: bool,
}

impl Pred {
    pub const PT: Pred = Pred { num: PT, not: false };
    pub fn p(num: u8) -> Pred {
        Pred { num, not: false }
    }
}

impl Default for Pred {
    fn default() -> Pred {
        Pred::PT
    }
}

/// A memory operand value. Parts the form does not have are left at their defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mem {
    pub base: u8,
    /// How the base register is spelled (`R2`, `R2.64`, `R2.U32`).
    pub width: BaseWidth,
    /// Uniform register added to the address (`[R2+UR4]`).
    pub ureg: Option<u8>,
    /// Descriptor uniform register (`desc[UR4]`).
    pub desc: Option<u8>,
    pub offset: i64,
    /// Index scale of the base (0 none, 1 `.X4`, 2 `.X8`, 3 `.X16`).
    pub scale: u8,
}

impl Default for Mem {
    fn default() -> Mem {
        Mem { base: RZ, width: BaseWidth::Plain, ureg: None, desc: None, offset: 0, scale: 0 }
    }
}

/// One operand value; its kind matches the form's operand slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    Reg(Reg),
    UReg(Reg),
    Pred(Pred),
    UPred(Pred),
    /// The field value: sign-extended for signed immediates, raw bits for floats.
    Imm(i64),
    /// A constant; `neg`, `abs` and `h1` (`-|c[..][..]|.H1`) only where the form has their bits.
    CBank {
        bank: u8,
        base: u8,
        offset: u32,
        neg: bool,
        abs: bool,
        h1: bool,
    },
    Mem(Mem),
    SReg(u16),
    /// Byte offset of the branch target from the next instruction's address.
    Target(i64),
    BReg(u8),
}

impl Operand {
    pub fn r(n: u8) -> Operand {
        Operand::Reg(Reg::r(n))
    }
    pub fn rz() -> Operand {
        Operand::Reg(Reg::r(RZ))
    }
    pub fn ur(n: u8) -> Operand {
        Operand::UReg(Reg::r(n))
    }
    pub fn p(n: u8) -> Operand {
        Operand::Pred(Pred::p(n))
    }
    pub fn pt() -> Operand {
        Operand::Pred(Pred::PT)
    }
    pub fn imm(v: i64) -> Operand {
        Operand::Imm(v)
    }
    pub fn f32(v: f32) -> Operand {
        Operand::Imm(v.to_bits() as i64)
    }
    pub fn cbank(bank: u8, offset: u32) -> Operand {
        Operand::CBank { bank, base: RZ, offset, neg: false, abs: false, h1: false }
    }
    /// `[base+offset]`
    pub fn mem(base: u8, offset: i64) -> Operand {
        Operand::Mem(Mem { base, offset, ..Mem::default() })
    }
    /// `desc[URdesc][base.64+offset]`
    pub fn mem_desc(desc: u8, base: u8, offset: i64) -> Operand {
        Operand::Mem(Mem { base, width: BaseWidth::Wide, desc: Some(desc), offset, ..Mem::default() })
    }
    /// `[base.64+offset]` (64-bit address, no descriptor)
    pub fn mem64(base: u8, offset: i64) -> Operand {
        Operand::Mem(Mem { base, width: BaseWidth::Wide, offset, ..Mem::default() })
    }
    /// `[base+URu+offset]` with the base spelled as `width`
    pub fn mem_ur(base: u8, width: BaseWidth, ureg: u8, offset: i64) -> Operand {
        Operand::Mem(Mem { base, width, ureg: Some(ureg), offset, ..Mem::default() })
    }
}

/// The schedule (control) fields of one instruction.
///
/// Bit layout inside the 21-bit group (bits 105..125 on sm_90, one slot of the control word on
/// sm_50): stall 0..3, yield 4, write scoreboard 5..7, read scoreboard 8..10, wait mask 11..16,
/// reuse 17..20. The write/read order follows ptxas output (an instruction producing a register
/// sets the first 3-bit scoreboard, the consumer waits on it; a REDG without destination sets
/// only the second). The nv_isa_solver-derived seed document labels these two the other way
/// round; its labels are hard-coded in that tool, and the observed behaviour wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sched {
    pub stall: u8,
    pub yield_: bool,
    /// Scoreboard set when the destination is written (7 = none).
    pub wr_sb: u8,
    /// Scoreboard set when the sources have been read (7 = none).
    pub rd_sb: u8,
    /// Scoreboards waited on before issue, bit i = SB i.
    pub wait: u8,
    /// Operand reuse-cache flags, bit i = operand slot i.
    pub reuse: u8,
}

impl Default for Sched {
    /// Stall 1, no scoreboards, no waits: a safe default for fixed-latency code.
    fn default() -> Sched {
        Sched { stall: 1, yield_: false, wr_sb: 7, rd_sb: 7, wait: 0, reuse: 0 }
    }
}

impl Sched {
    /// Packs the 21-bit group.
    pub fn to_bits(&self) -> u32 {
        (self.stall as u32 & 0xf)
            | (self.yield_ as u32) << 4
            | (self.wr_sb as u32 & 7) << 5
            | (self.rd_sb as u32 & 7) << 8
            | (self.wait as u32 & 0x3f) << 11
            | (self.reuse as u32 & 0xf) << 17
    }

    /// Unpacks the 21-bit group.
    pub fn from_bits(b: u32) -> Sched {
        Sched {
            stall: (b & 0xf) as u8,
            yield_: (b >> 4) & 1 != 0,
            wr_sb: ((b >> 5) & 7) as u8,
            rd_sb: ((b >> 8) & 7) as u8,
            wait: ((b >> 11) & 0x3f) as u8,
            reuse: ((b >> 17) & 0xf) as u8,
        }
    }

    /// A compact comment form, `/* S01 Y W3 R- B--3--- */`-like, for `--sched` listings.
    pub fn comment(&self) -> String {
        let sb = |v: u8| if v == 7 { "-".to_string() } else { v.to_string() };
        let mut wait = String::new();
        for i in 0..6 {
            wait.push(if self.wait & (1 << i) != 0 { char::from(b'0' + i) } else { '-' });
        }
        format!(
            "/* S{:02} {} W{} R{} B{} U{:x} */",
            self.stall,
            if self.yield_ { "Y" } else { "-" },
            sb(self.wr_sb),
            sb(self.rd_sb),
            wait,
            self.reuse
        )
    }
}

/// A machine instruction of some [`super::Arch`]: form index, guard, modifier values (one per
/// modifier group of the form, in order), operand values (one per operand slot) and schedule.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Instr {
    pub form: u16,
    pub guard: Pred,
    pub mods: SmallVec<[u64; 6]>,
    pub ops: SmallVec<[Operand; 6]>,
    pub sched: Sched,
}
