//! Immediates the chosen form cannot hold. The form table decides: an instruction that does not
//! resolve with an immediate as selected, but resolves with a register in that slot, takes the
//! constant through a register (sm_50's 20-bit ALU fields: `ISETP`, `SEL`, `SHR`, `XMAD`, ..);
//! one that resolves with no immediate in that slot at all is refused, naming the op and the
//! target, before anything is encoded.
//!
//! ptxas 11.8 on `setp.lt.s32 %p1, %r1, 2147483647` (sm_50) reads the constant from its own
//! constant bank (`ISETP.GE.AND P0, PT, R0, c[0x2][0x0], PT`; `min.s32 .., 0x7fffffff` →
//! `IMNMX R10, R0, c[0x2][0x0], PT`; `selp.u32 .., 0x80000, ..` → `SEL R11, R0, c[0x2][0x4],
//! P0`) and moves a multiplier into a register (`mul.lo.s32 .., 0x12345` → `MOV32I R10,
//! 0x12345` + `XMAD`s). atomc's cubins have no bank 2: the register is the `MOV32I` route
//! (the immediate moves of the target, [`crate::sass::isel::Isa::mov`]); where sm_50 has a
//! 32-bit-immediate form (`IADD32I`, `LOP32I`) the selector chooses it before this.

use super::Isel;
use crate::sass::inst::{FormCache, MOp, SassInst};
use crate::vcode::{HwReg, Reg, RegClass};
use atomc_sass::Arch;

/// A register placeholder (R0, as resolution's placeholders are) for a trial resolution.
fn placeholder() -> MOp {
    MOp::use_(Reg::Hw(HwReg::new(0).expect("R0")))
}

/// The indices of `inst`'s immediates that must leave their slot for it to resolve: the
/// smallest set, tried one immediate at a time and then all together. `None` when moving them
/// does not make it resolve (the reason is elsewhere).
pub(crate) fn immediates_to_move(inst: &SassInst, arch: &Arch, cache: &mut FormCache) -> Option<Vec<usize>> {
    let imms: Vec<usize> = (0..inst.ops.len()).filter(|&i| matches!(inst.ops[i], MOp::Imm(_))).collect();
    if imms.is_empty() {
        return None;
    }
    let resolves = |moved: &[usize], cache: &mut FormCache| {
        let mut trial = inst.clone();
        for &i in moved {
            trial.ops[i] = placeholder();
        }
        trial.resolve_cached(arch, cache).is_ok()
    };
    for &i in &imms {
        if resolves(&[i], cache) {
            return Some(vec![i]);
        }
    }
    resolves(&imms, cache).then_some(imms)
}

/// Why `inst` is refused when its only fault is an immediate no field of its form holds and
/// no form takes in a register (an `ISCADD` shift, a `BAR` id): the instruction resolves with
/// that immediate made small, and not with it in a register. `None` when that is not the fault.
pub(crate) fn immediate_misfit(inst: &SassInst, arch: &Arch, cache: &mut FormCache) -> Option<String> {
    if immediates_to_move(inst, arch, cache).is_some() {
        return None;
    }
    let mut trial = inst.clone();
    let mut wide = Vec::new();
    for op in trial.ops.iter_mut() {
        if let MOp::Imm(v) = op {
            wide.push(*v);
            *op = MOp::Imm(0);
        }
    }
    if wide.is_empty() || trial.resolve_cached(arch, cache).is_err() {
        return None;
    }
    // The cache's reason may name another value of the same width class: the message names
    // the instruction as selected.
    Some(format!("`{inst}`: an immediate does not fit its field, and no {} form takes it in a register", arch.name))
}

impl Isel<'_> {
    /// `inst` with the immediates its form cannot hold moved into registers (the target's
    /// immediate move, emitted before it), when a form then takes it.
    pub(super) fn immediates_in_registers(&mut self, inst: &SassInst) -> Option<SassInst> {
        let arch = (self.target.arch)();
        let moved = immediates_to_move(inst, arch, &mut self.forms)?;
        let mut fixed = inst.clone();
        for i in moved {
            let MOp::Imm(v) = fixed.ops[i] else { unreachable!("an immediate") };
            let r = self.new_vreg(RegClass::Single);
            let mov = self.isa.mov(&[MOp::def(r.reg(), 1)], MOp::Imm(v));
            self.emit(mov);
            fixed.ops[i] = MOp::use_(r.reg());
        }
        fixed.resolve_cached(arch, &mut self.forms).ok()?;
        Some(fixed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use atomc_sass::op;

    fn r(n: u8) -> MOp {
        MOp::use_(Reg::Hw(HwReg::new(n).expect("a register")))
    }

    fn d(n: u8) -> MOp {
        MOp::def(Reg::Hw(HwReg::new(n).expect("a register")), 1)
    }

    /// sm_50's `ISETP` immediate is 20 bits, sign-extended (nvdisasm 11.8 reads the field so,
    /// and ptxas 11.8 takes 0x7fffffff from a constant instead): the constant leaves the field
    /// for a register; one that fits stays.
    #[test]
    fn a_compare_constant_beyond_20_bits_moves_to_a_register() {
        let arch = atomc_sass::sm50();
        let mut cache = FormCache::default();
        let isetp = |v: i64| {
            SassInst::new(op!(ISETP.EQ.U32.AND), [MOp::p0(), MOp::pt(), r(2), MOp::Imm(v), MOp::pt()])
        };
        for v in [0x7fff_ffff, -0x8000_0000, 0x8_0000, 0xf_ffff, -0x8_0001] {
            assert!(isetp(v).resolve_cached(arch, &mut cache).is_err(), "{v:#x} fits?");
            assert_eq!(immediates_to_move(&isetp(v), arch, &mut cache), Some(vec![3]), "{v:#x}");
            assert_eq!(immediate_misfit(&isetp(v), arch, &mut cache), None, "{v:#x}");
        }
        for v in [0x7_ffff, -0x8_0000, 1, -1] {
            assert!(isetp(v).resolve_cached(arch, &mut cache).is_ok(), "{v:#x}");
        }
    }

    /// An immediate no form holds, in its field or in a register (`ISCADD`'s shift is 5 bits,
    /// and no ISCADD form takes it in a register), is refused naming the target; an
    /// instruction wrong for another reason is not called an immediate misfit.
    #[test]
    fn an_immediate_no_form_holds_is_refused() {
        let arch = atomc_sass::sm50();
        let mut cache = FormCache::default();
        let iscadd = SassInst::new(op!(ISCADD), [d(0), r(2), r(3), MOp::Imm(0x40)]);
        assert!(iscadd.clone().resolve_cached(arch, &mut cache).is_err());
        assert_eq!(immediates_to_move(&iscadd, arch, &mut cache), None);
        let why = immediate_misfit(&iscadd, arch, &mut cache).expect("a refusal");
        assert!(why.contains("0x40") && why.contains("does not fit") && why.contains(arch.name), "{why}");
        let no_form = SassInst::new(op!(ISCADD), [d(0), r(2)]);
        assert_eq!(immediate_misfit(&no_form, arch, &mut cache), None);
    }
}
