//! sm_50 atomics: the spelling of `ATOM`, `RED`, `ATOMS`, `SUATOM` and `SURED` (seed 000's ATOM
//! op and size table, seed 003's RED, seed 001's SUATOM; ptxas 11.8's `sured` kernels), and
//! `atomic_cas`.
//!
//! `ATOM.CAS` and `ATOMS.CAS` take compare and swap as one packed register group (seed 000):
//! [`Isel::lower_cas_sm50`] builds it in a Pair (32-bit) or Quad (64-bit) vreg with in-place
//! partial writes. A zero compare or swap value is written into the group like any other
//! (`MOV R5, RZ`, as ptxas 11.8 does): the `Rb, RZ` / `RZ, Rb` layouts are never selected.

use super::generic::guarded;
use crate::sass::inst::{MOp, SassInst};
use crate::sass::isel::{Isel, IselError};
use crate::vcode::{OperandRule, RegClass, RegForm, VReg};
use atomc_ir::{AddrSpace, InstData, Value};
use atomc_sass::op::{t, Tok, Toks};
use atomc_sass::{op, toks};

impl Isel<'_> {
    /// `atomic_cas` on sm_50: compare and swap packed into one register group.
    pub(super) fn lower_cas_sm50(&mut self, data: &InstData) -> Result<(), IselError> {
        let InstData::AtomicCas { ty, addr, expected, replacement, .. } = data else {
            unreachable!("called for atomic_cas only")
        };
        let used = self.result_used();
        let (m, space) = self.mem(addr);
        let wide = ty.bits() == 64;
        let (d, _) = self.def_or_rz(used);
        let group = self.new_vreg(if wide { RegClass::Quad } else { RegClass::Pair });
        let half = if wide { 2 } else { 1 };
        // Compare value into the group's first register(s): this write defines the group.
        self.write_part(group, None, 0, half, *expected);
        let data = self.new_vreg(group.class());
        self.write_part(data, Some(group), half, half, *replacement);
        let rb = MOp::Reg { reg: data.part(0), width: half, rule: OperandRule::Use, neg: false };
        let rc = MOp::Reg { reg: data.part(half), width: half, rule: OperandRule::Use, neg: false };
        let size = wide.then_some(t::_64);
        if space == AddrSpace::Generic {
            // Both paths predicated on the shared-window test (generic.rs).
            let shared = self.shared_window_test(m);
            let (ds, vs) = self.path_def(used);
            let (dg, vg) = self.path_def(used);
            let form = RegForm::AtomCas { wide };
            let s = SassInst::new(op!(ATOMS.CAS).with(size), [ds, shared, rb, rc]).with_form(form);
            self.emit(guarded(s, false));
            let g = SassInst::new(op!(ATOM.E.CAS).with(size), [dg, m, rb, rc]).with_form(form);
            self.emit(guarded(g, true));
            if let (Some(vs), Some(vg), Some(d)) = (vs, vg, self.result()) {
                self.select_paths(d, vs, vg);
            }
            return Ok(());
        }
        let opc = match space {
            AddrSpace::Shared => op!(ATOMS.CAS).with(size),
            _ => op!(ATOM.E.CAS).with(size),
        };
        let inst = SassInst::new(opc, [d, m, rb, rc]).with_form(RegForm::AtomCas { wide });
        self.emit(inst);
        Ok(())
    }

    /// Writes `v` (one or two registers wide) into registers `at..at+width` of `group`. With
    /// `prev`, the write is in place over `prev`'s registers (the other half carries over);
    /// without, it defines `group`. A constant is materialised straight into the group.
    fn write_part(&mut self, group: VReg, prev: Option<VReg>, at: u8, width: u8, v: Value) {
        let konst = self.const_value(v);
        let src = |this: &mut Self, k: u8| -> MOp {
            match konst {
                Some(c) => {
                    let word = (c >> (32 * k as u32)) as u32;
                    if word == 0 {
                        MOp::rz()
                    } else {
                        MOp::Imm(word as i64)
                    }
                }
                None => {
                    let r = this.reg(v);
                    MOp::use_(if width == 1 { r.reg() } else { r.part(k) })
                }
            }
        };
        let mut prev = prev;
        for k in 0..width {
            let s = src(self, k);
            let opc = if matches!(s, MOp::Imm(_)) { op!(MOV32I) } else { op!(MOV) };
            let last = k + 1 == width;
            let target = if last { group } else { self.new_vreg(group.class()) };
            let ops = match prev {
                None => vec![MOp::def(target.part(at + k), group.class().width()), s],
                Some(p) => vec![
                    MOp::Tied { reg: p.reg(), width: group.class().width() },
                    MOp::reuse_def(target.part(at + k), 0),
                    s,
                ],
            };
            // A defining write names the group's first register with the group's width.
            let ops = match (prev, at + k) {
                (None, 0) => ops,
                (None, _) => {
                    // Define the whole group first through its first register, then write in place.
                    let first = MOp::def(target.part(0), group.class().width());
                    self.emit(SassInst::new(op!(MOV), [first, MOp::rz()]));
                    vec![
                        MOp::Tied { reg: target.reg(), width: group.class().width() },
                        MOp::reuse_def(target.part(at + k), 0),
                        s,
                    ]
                }
                _ => ops,
            };
            self.emit(SassInst::new(opc, ops));
            prev = Some(target);
        }
    }
}

/// The sm_50 spelling of an atomic's op and size (`ADD`, `MIN.S32`, `ADD.U64`, ...).
pub(super) fn atom_size(s: Toks) -> Option<Toks> {
    let (&op, size) = s.toks().split_first()?;
    let size: &[Tok] = match size {
        [] | [t::S32] | [t::S64] | [t::F32, t::FTZ, t::RN] => size,
        [t::_64] => &[t::U64],
        _ => return None,
    };
    Some(Toks::of(&[op]).with(size))
}

/// Whether ptxas 11.8 writes a SURED for a surface reduction with these modifiers: its `sured`
/// kernels (emit/sass/tests/sass_sm50_sured.rs) give ADD on U32, S32 and U64, MIN and MAX on
/// U32 and S32, AND and OR on 32 bits. PTX has no other `sured` for sm_50, so INC, DEC, XOR
/// and the other 64-bit reductions keep the SUATOM into RZ that seed 001 vouches for.
pub(super) fn sured(mods: Toks) -> bool {
    const OPS: [Tok; 10] = toks!(ADD.MIN.MAX.INC.DEC.AND.OR.XOR.EXCH.CAS);
    let mods = mods.toks();
    let Some(at) = mods.iter().position(|x| OPS.contains(x)) else { return false };
    let size = mods.get(at + 1).copied().filter(|x| *x != t::IGN && *x != t::TRAP);
    matches!(
        (mods[at], size),
        (t::ADD, None | Some(t::S32 | t::U64)) | (t::MIN | t::MAX, None | Some(t::S32)) | (t::AND | t::OR, None)
    )
}
