//! The sm_50 (Maxwell) paths of the selector.
//!
//! The shared selector speaks the sm_70+ instruction set (IADD3, LOP3 with a predicate
//! operand, SHF, IMAD.WIDE, LDC). On sm_50 every instruction it emits passes through
//! [`Isel::emit_sm50`], which rewrites it into what ptxas 11.8 emits for Maxwell:
//!
//! | shared selector                     | sm_50                                        |
//! | ----------------------------------- | -------------------------------------------- |
//! | `LDC Rd, c[0x0][o]` (parameters)    | `MOV Rd, c[0x0][o]` (`.64`: two MOVs)        |
//! | `IADD3 Rd, a, b, RZ`                | `IADD Rd, a, b` / `IADD32I Rd, a, imm`       |
//! | `IADD3 Rd, P1, a, b, RZ` + `.X`     | `IADD Rd.CC, a, b` + `IADD.X Rd, a, b`       |
//! | `IMAD.WIDE{.U32} Rd, x, 2^k, p`     | `SHL` + `SHR` + `IADD .CC` / `IADD.X`        |
//! | `LOP3.LUT Rd, a, b, c, lut, !PT`    | `LOP3.LUT` / `LOP32I.op` / `LOP.PASS_B`      |
//! | `SHF.L.U32` / `SHF.R.{U,S}32.HI`    | `SHL` / `SHR{.U32}`                          |
//! | `SHF.L.W.U32` / `SHF.R.W.{U,S}32.HI` | `SHL.W` / `SHR{.U32}.W`                     |
//! | `ATOM{G}.E.op PT, Rd, [a], b`       | `ATOM.E.op Rd, [a], b` (sizes `U64`)         |
//! | `BAR.SYNC.DEFER_BLOCKING`           | `BAR.SYNC` + `MEMBAR.CTA` (as ptxas)         |
//!
//! The carry between `IADD .CC` and `IADD.X` is the condition-code register, which nothing in
//! between writes (register-allocator moves are MOVs). Instructions with no sm_50 rewrite are
//! refused with [`Isel::sm50_error`] rather than emitted in a form the assembler would reject.
//!
//! `ATOM.CAS` and `ATOMS.CAS` take compare and swap as one packed register group (seed 000):
//! [`Isel::lower_cas_sm50`] builds it in a Pair (32-bit) or Quad (64-bit) vreg with in-place
//! partial writes, and uses the `Rb, RZ` layout when the swap value is the constant zero.

mod bits;
mod generic;
mod subgroup;

use super::{Isel, IselError};
use crate::sass::inst::{intern, MOp, SassInst};
use crate::vcode::{OperandRule, Reg, RegClass, RegForm, VReg};
use atomc_ir::{AddrSpace, InstData, Value};

/// The vreg of a virtual register operand.
fn vreg_of(op: &MOp) -> Option<(VReg, u8)> {
    match op {
        MOp::Reg { reg: Reg::Virt { vreg, sub }, .. } => Some((*vreg, *sub)),
        _ => None,
    }
}

fn is_rz(op: &MOp) -> bool {
    matches!(op, MOp::Reg { reg: Reg::Zero, .. })
}

/// An IMAD.WIDE scale as a shift count.
fn log2(c: i64) -> Option<i64> {
    (c > 0 && (c & (c - 1)) == 0).then(|| c.trailing_zeros() as i64)
}

impl Isel<'_> {
    /// Whether this selection is for Maxwell.
    pub(super) fn is_sm50(&self) -> bool {
        self.target.name == "sm_50"
    }

    /// Records why the current instruction cannot be selected for sm_50; `select` reports it.
    pub(super) fn sm50_error(&mut self, reason: impl Into<String>) {
        if self.sm50_err.is_none() {
            self.sm50_err = Some(reason.into());
        }
    }

    fn push_raw(&mut self, inst: SassInst) {
        self.push_selected(inst);
    }

    /// Rewrites one instruction of the shared selector into sm_50 instructions.
    pub(super) fn emit_sm50(&mut self, mut inst: SassInst) {
        let ops = inst.ops.clone();
        let opcode = inst.opcode;
        let alu = |opc: &'static str, ops: Vec<MOp>| {
            let mut i = SassInst::new(opc, ops);
            i.guard = inst.guard;
            i
        };
        match (opcode, ops.as_slice()) {
            ("LDC", [d, MOp::CBank(_)]) => {
                inst.opcode = "MOV".into();
                let _ = d;
                self.push_raw(inst);
            }
            // Sub-word parameters zero-extended, as on sm_90 (`LDC.U16 Rd, c[0x0][o]`; the form
            // is nvdisasm-checked in the sm_50 table).
            ("LDC.U16" | "LDC.U8", [_, MOp::CBank(_)]) => self.push_raw(inst),
            ("LDC.64", [d, MOp::CBank(off)]) => {
                let Some((dv, _)) = vreg_of(d) else { return self.sm50_error("LDC.64 into a non-virtual register") };
                let tmp = self.new_vreg(RegClass::Pair);
                self.push_raw(alu("MOV", vec![MOp::def(tmp.lo(), 2), MOp::CBank(*off)]));
                self.push_raw(alu(
                    "MOV",
                    vec![MOp::Tied { reg: tmp.reg(), width: 2 }, MOp::reuse_def(dv.hi(), 0), MOp::CBank(off + 4)],
                ));
            }
            ("MOV", [d, MOp::Imm(v)]) => self.push_raw(alu("MOV32I", vec![*d, MOp::Imm(*v as u32 as i64)])),
            ("MOV", [head @ .., MOp::Imm(v)]) => {
                inst.opcode = "MOV32I".into();
                inst.ops = head.iter().copied().chain([MOp::Imm(*v as u32 as i64)]).collect();
                self.push_raw(inst);
            }
            ("MOV", [d, MOp::F32(f)]) => self.push_raw(alu("MOV32I", vec![*d, MOp::Imm(f.to_bits() as i64)])),
            ("MOV", _) | ("SEL", _) | ("S2R", _) | ("EXIT", _) | ("BRA", _) => self.push_raw(inst),
            // Spelled alike on both targets (warp aggregation's vote, count and broadcast).
            ("FLO.U32" | "POPC" | "SHFL.IDX" | "SHFL.UP", _) => self.push_raw(inst),
            (o, _) if o.starts_with("ISETP.") && !o.ends_with(".EX") => self.push_raw(inst),
            // 64-bit ordered compare, as ptxas 11.8 does: the low halves' subtraction sets the
            // carry (`IADD RZ.CC, a.lo, -b.lo`), the high halves compare with it (`.X`). The
            // shared selector emitted a low-half ISETP just before; it is replaced.
            (o, [pd, pq, a, b, last, MOp::Pred { .. }])
                if o.starts_with("ISETP.")
                    && o.ends_with(".AND.EX")
                    && !o.starts_with("ISETP.EQ.")
                    && !o.starts_with("ISETP.NE.") =>
            {
                let lo = self.pending_block().insts.pop();
                let Some(SassInst { ops: lo_ops, opcode: lo_opc, .. }) = lo else {
                    return self.sm50_error("64-bit compare without its low half");
                };
                let (Some(alo), Some(MOp::Reg { reg: blo, width, rule, .. })) =
                    (lo_ops.get(2).copied(), lo_ops.get(3).copied())
                else {
                    return self.sm50_error(format!("64-bit compare: unexpected low half `{lo_opc}`"));
                };
                let neg_b = MOp::Reg { reg: blo, width, rule, neg: true };
                let rz_def = MOp::Reg { reg: Reg::Zero, width: 1, rule: OperandRule::Def, neg: false };
                self.push_raw(alu("IADD.CC", vec![rz_def, alo, neg_b]));
                let head = o.strip_suffix(".AND.EX").unwrap_or(o);
                self.push_raw(alu(intern(&format!("{head}.X.AND")), vec![*pd, *pq, *a, *b, *last]));
            }
            // 64-bit equality: the high-half compare folds in the low half's predicate through
            // the boolean operator (EQ: AND, NE: OR) instead of sm_70's .EX chain.
            (o, [pd, pq, a, b, _, chain @ MOp::Pred { .. }])
                if o.starts_with("ISETP.EQ.") || o.starts_with("ISETP.NE.") =>
            {
                let cc = &o[6..8];
                let bop = if cc == "EQ" { "AND" } else { "OR" };
                self.push_raw(alu(intern(&format!("ISETP.{cc}.U32.{bop}")), vec![*pd, *pq, *a, *b, *chain]));
            }
            ("IMNMX" | "IMNMX.U32", [_, _, y, _]) if !matches!(y, MOp::Imm(_)) => self.push_raw(inst),
            // The immediate shape holds a sign-extended 20-bit value; a wider one goes through a
            // register (MOV32I).
            ("IMNMX" | "IMNMX.U32", [d, a, MOp::Imm(v), p]) => {
                let v32 = *v as u32 as i32 as i64;
                if (-(1 << 19)..(1 << 19)).contains(&v32) {
                    self.push_raw(alu(&opcode, vec![*d, *a, MOp::Imm(v32), *p]));
                } else {
                    let t = self.new_vreg(RegClass::Single);
                    self.push_raw(alu("MOV32I", vec![MOp::def(t.reg(), 1), MOp::Imm(*v as u32 as i64)]));
                    self.push_raw(alu(&opcode, vec![*d, *a, MOp::use_(t.reg()), *p]));
                }
            }
            // Plain 32-bit add: IADD3 d, a, b, RZ.
            ("IADD3", [d, a, b, c]) if is_rz(c) && !matches!(d, MOp::Pred { .. }) => {
                let (a, b) = match (a, b) {
                    (MOp::Reg { neg: true, .. }, _) => (*b, *a),
                    _ => (*a, *b),
                };
                if let MOp::Reg { neg: true, .. } = a {
                    return self.sm50_error("IADD with both sources negated");
                }
                match b {
                    MOp::Imm(v) => self.push_raw(alu("IADD32I", vec![*d, a, MOp::Imm(v as i32 as i64)])),
                    _ => self.push_raw(alu("IADD", vec![*d, a, b])),
                }
            }
            // A 64-bit add of a constant, as ptxas 11.8 does (`IADD32I R6.CC, R6, 0x1`,
            // `IADD.X R7, RZ, R7`): each half's word in the immediate field.
            ("IADD3", [d, MOp::Pred { num: 1, .. }, a @ MOp::Reg { neg: false, .. }, MOp::Imm(v), c]) if is_rz(c) => {
                self.push_raw(alu("IADD32I.CC", vec![*d, *a, MOp::Imm(*v as i32 as i64)]));
            }
            ("IADD3.X", [t @ MOp::Tied { .. }, d, a, MOp::Imm(v), c, MOp::Pred { num: 1, .. }, _]) if is_rz(c) => {
                self.push_raw(alu("IADD32I.X", vec![*t, *d, *a, MOp::Imm(*v as i32 as i64)]));
            }
            // Low half of a 64-bit add: IADD3 d, P1, a, b, RZ (carry out).
            ("IADD3", [d, MOp::Pred { num: 1, .. }, a, b, c]) if is_rz(c) && !matches!(b, MOp::Imm(_)) => {
                let (a, b) = if matches!(a, MOp::Reg { neg: true, .. }) { (*b, *a) } else { (*a, *b) };
                self.push_raw(alu("IADD.CC", vec![*d, a, b]));
            }
            // Low half of a parameter plus a scaled index: LEA d, P1, x, c[..], k (carry out).
            ("LEA", [d, MOp::Pred { num: 1, .. }, x, c @ MOp::CBank(_), k @ MOp::Imm(_)]) => {
                self.push_raw(alu("LEA.CC", vec![*d, *x, *c, *k]));
            }
            // Its high half: LEA.HI.X d, x, c[..], RZ, k, P1 (carry in; sm_50 has no carry operand).
            (
                "LEA.HI.X",
                [t @ MOp::Tied { .. }, d, x, c @ MOp::CBank(_), z, k @ MOp::Imm(_), MOp::Pred { num: 1, .. }],
            ) if is_rz(z) => {
                self.push_raw(alu("LEA.HI.X", vec![*t, *d, *x, *c, *z, *k]));
            }
            // High half: IADD3.X d, a, b, RZ, P1, !PT (carry in).
            ("IADD3.X", [t @ MOp::Tied { .. }, d, a, b, c, MOp::Pred { num: 1, .. }, _]) if is_rz(c) => {
                self.push_raw(alu("IADD.X", vec![*t, *d, *a, *b]));
            }
            // p + sext(o): the high half adds o's sign word with the carry.
            ("LEA.HI.X.SX32", [t @ MOp::Tied { .. }, d, o, phi, MOp::Imm(1), MOp::Pred { num: 1, .. }]) => {
                let s = self.new_vreg(RegClass::Single);
                self.push_raw(alu("SHR", vec![MOp::def(s.reg(), 1), *o, MOp::Imm(31)]));
                self.push_raw(alu("IADD.X", vec![*t, *d, *phi, MOp::use_(s.reg())]));
            }
            // p + ext(x) * 2^k, as ptxas does it: shift into a pair, then a 64-bit add.
            ("IMAD.WIDE" | "IMAD.WIDE.U32", [d, x, MOp::Imm(c), p]) => {
                let signed = opcode == "IMAD.WIDE";
                let (Some(k), Some((dv, _)), Some((pv, _))) = (log2(*c), vreg_of(d), vreg_of(p)) else {
                    return self
                        .sm50_error(format!("address scale {c} is not a power of two (sm_50 has no IMAD.WIDE)"));
                };
                let (lo, hi) = (self.new_vreg(RegClass::Single), self.new_vreg(RegClass::Single));
                self.push_raw(alu("SHL", vec![MOp::def(lo.reg(), 1), *x, MOp::Imm(k)]));
                match (k, signed) {
                    (0, false) => self.push_raw(alu("MOV", vec![MOp::def(hi.reg(), 1), MOp::rz()])),
                    (0, true) => self.push_raw(alu("SHR", vec![MOp::def(hi.reg(), 1), *x, MOp::Imm(31)])),
                    (_, false) => self.push_raw(alu("SHR.U32", vec![MOp::def(hi.reg(), 1), *x, MOp::Imm(32 - k)])),
                    (_, true) => self.push_raw(alu("SHR", vec![MOp::def(hi.reg(), 1), *x, MOp::Imm(32 - k)])),
                }
                let tmp = self.new_vreg(RegClass::Pair);
                self.push_raw(alu("IADD.CC", vec![MOp::def(tmp.lo(), 2), MOp::use_(pv.lo()), MOp::use_(lo.reg())]));
                self.push_raw(alu(
                    "IADD.X",
                    vec![
                        MOp::Tied { reg: tmp.reg(), width: 2 },
                        MOp::reuse_def(dv.hi(), 0),
                        MOp::use_(pv.hi()),
                        MOp::use_(hi.reg()),
                    ],
                ));
            }
            ("IMAD", [d, x, MOp::Imm(c), z]) if is_rz(z) && log2(*c).is_some() => {
                self.push_raw(alu("SHL", vec![*d, *x, MOp::Imm(log2(*c).unwrap_or(0))]));
            }
            // 32-bit multiply-add from 16-bit halves, as ptxas does on Maxwell:
            // t = x.lo*y.lo + z; u = x.lo*y.hi merged; d = (x.hi*u.hi << 16) + t.
            ("IMAD", [t @ MOp::Tied { .. }, d, x, y, z])
                if matches!(x, MOp::Reg { .. }) && matches!(y, MOp::Reg { .. }) =>
            {
                // In-place high-half write of a 64-bit product: the last XMAD writes the half.
                let (p, u) = (self.new_vreg(RegClass::Single), self.new_vreg(RegClass::Single));
                self.push_raw(alu("XMAD", vec![MOp::def(p.reg(), 1), *x, *y, *z]));
                self.push_raw(alu("XMAD.MRG.BH1", vec![MOp::def(u.reg(), 1), *x, *y, MOp::rz()]));
                self.push_raw(alu("XMAD.PSL.CBCC.AH1.BH1", vec![*t, *d, *x, MOp::use_(u.reg()), MOp::use_(p.reg())]));
            }
            // 32x32 -> 64-bit unsigned product, ptxas 11.8's sequence: four partial products
            // from 16-bit halves; the low word via PSL.CBCC, the high word via IADD3.RS
            // (((a.hi*b.lo + ll>>16) + a.lo*b.hi) >> 16) + a.hi*b.hi.
            ("IMAD.WIDE.U32", [d, x, y @ MOp::Reg { .. }, z]) if is_rz(z) => {
                let Some((dv, _)) = vreg_of(d) else {
                    return self.sm50_error("IMAD.WIDE.U32 into a non-virtual register");
                };
                let v = |this: &mut Self| this.new_vreg(RegClass::Single);
                let (ll, mrg, lh, chi, hh) = (v(self), v(self), v(self), v(self), v(self));
                self.push_raw(alu("XMAD", vec![MOp::def(ll.reg(), 1), *x, *y, MOp::rz()]));
                self.push_raw(alu("XMAD.MRG.BH1", vec![MOp::def(mrg.reg(), 1), *x, *y, MOp::rz()]));
                self.push_raw(alu("XMAD.BH1", vec![MOp::def(lh.reg(), 1), *x, *y, MOp::rz()]));
                self.push_raw(alu("XMAD.CHI.AH1", vec![MOp::def(chi.reg(), 1), *x, *y, MOp::use_(ll.reg())]));
                self.push_raw(alu("XMAD.AH1.BH1", vec![MOp::def(hh.reg(), 1), *x, *y, MOp::rz()]));
                let tmp = self.new_vreg(RegClass::Pair);
                self.push_raw(alu(
                    "XMAD.PSL.CBCC.AH1.BH1",
                    vec![MOp::def(tmp.lo(), 2), *x, MOp::use_(mrg.reg()), MOp::use_(ll.reg())],
                ));
                self.push_raw(alu(
                    "IADD3.RS",
                    vec![
                        MOp::Tied { reg: tmp.reg(), width: 2 },
                        MOp::reuse_def(dv.hi(), 0),
                        MOp::use_(chi.reg()),
                        MOp::use_(lh.reg()),
                        MOp::use_(hh.reg()),
                    ],
                ));
            }
            ("IMAD", [d, x, y, z]) if matches!(x, MOp::Reg { .. }) => {
                let y = match y {
                    MOp::Imm(c) => {
                        let t = self.new_vreg(RegClass::Single);
                        self.push_raw(alu("MOV32I", vec![MOp::def(t.reg(), 1), MOp::Imm(*c as u32 as i64)]));
                        MOp::use_(t.reg())
                    }
                    other => *other,
                };
                let (t, u) = (self.new_vreg(RegClass::Single), self.new_vreg(RegClass::Single));
                self.push_raw(alu("XMAD", vec![MOp::def(t.reg(), 1), *x, y, *z]));
                self.push_raw(alu("XMAD.MRG.BH1", vec![MOp::def(u.reg(), 1), *x, y, MOp::rz()]));
                self.push_raw(alu("XMAD.PSL.CBCC.AH1.BH1", vec![*d, *x, MOp::use_(u.reg()), MOp::use_(t.reg())]));
            }
            // Division (`isel/divide.rs`), in ptxas 11.8's spelling: `I2F.F32.U32.RP`,
            // `MUFU.RCP`, `F2I.FTZ.U32.F32.TRUNC`.
            ("I2F.U32.RP", [d, x]) => self.push_raw(SassInst::new("I2F.F32.U32.RP", [*d, *x])),
            ("MUFU.RCP", _) => self.push_raw(inst),
            // 64-bit division (`isel/divide64.rs`): ptxas 11.8's `I2F.F32.U64.RP`, `F2I.U64.F32.TRUNC`.
            ("I2F.U64.RP", [d, x]) => self.push_raw(SassInst::new("I2F.F32.U64.RP", [*d, *x])),
            ("F2I.U64.TRUNC", [d, x]) => self.push_raw(SassInst::new("F2I.U64.F32.TRUNC", [*d, *x])),
            ("F2I.FTZ.U32.TRUNC.NTZ", [d, x]) => self.push_raw(SassInst::new("F2I.FTZ.U32.F32.TRUNC", [*d, *x])),
            // The high word of a 32x32 product, as ptxas 11.8 forms it: four 16x16 partial
            // products, the middle ones summed and shifted by `XMAD.CHI` and `IADD3.RS`.
            ("IMAD.HI.U32", [d, x @ MOp::Reg { .. }, y @ MOp::Reg { .. }, z]) if is_rz(z) => {
                let v = |this: &mut Self| this.new_vreg(RegClass::Single);
                let (ll, lh, hh, chi) = (v(self), v(self), v(self), v(self));
                self.push_raw(alu("XMAD", vec![MOp::def(ll.reg(), 1), *x, *y, MOp::rz()]));
                self.push_raw(alu("XMAD.BH1", vec![MOp::def(lh.reg(), 1), *x, *y, MOp::rz()]));
                self.push_raw(alu("XMAD.AH1.BH1", vec![MOp::def(hh.reg(), 1), *x, *y, MOp::rz()]));
                self.push_raw(alu("XMAD.CHI.AH1", vec![MOp::def(chi.reg(), 1), *x, *y, MOp::use_(ll.reg())]));
                self.push_raw(alu(
                    "IADD3.RS",
                    vec![*d, MOp::use_(chi.reg()), MOp::use_(lh.reg()), MOp::use_(hh.reg())],
                ));
            }
            // |x| = (x ^ s) - s with s = x >> 31 (ptxas 11.8 reads `|c[..]|` through I2I).
            ("IABS", [d, x @ MOp::Reg { .. }]) => {
                let (s, t) = (self.new_vreg(RegClass::Single), self.new_vreg(RegClass::Single));
                self.push_raw(alu("SHR", vec![MOp::def(s.reg(), 1), *x, MOp::Imm(31)]));
                self.push_raw(alu(
                    "LOP3.LUT",
                    vec![MOp::def(t.reg(), 1), *x, MOp::use_(s.reg()), MOp::rz(), MOp::Imm(0x3c)],
                ));
                self.push_raw(alu("IADD", vec![*d, MOp::use_(t.reg()), MOp::neg(s.reg())]));
            }
            ("FADD" | "FMNMX" | "DADD" | "FMUL" | "DMUL" | "DMNMX", _) => self.push_raw(inst),
            // f32 division (`isel/fdiv.rs`), as ptxas 11.8's div.rn.f64 spells it.
            ("F2F.F64.F32" | "F2F.F32.F64" | "MUFU.RCP64H" | "DFMA", _) => self.fdiv_sm50(inst),
            // Shifts writing one half of a pair in place keep their tied tuple in front.
            ("SHF.L.U32", [t @ MOp::Tied { .. }, d, x, y, z]) if is_rz(z) => {
                self.push_raw(alu("SHL", vec![*t, *d, *x, *y]))
            }
            ("SHF.R.U32.HI", [t @ MOp::Tied { .. }, d, z, y, x]) if is_rz(z) => {
                self.push_raw(alu("SHR.U32", vec![*t, *d, *x, *y]))
            }
            ("SHF.R.S32.HI", [t @ MOp::Tied { .. }, d, z, y, x]) if is_rz(z) => {
                self.push_raw(alu("SHR", vec![*t, *d, *x, *y]))
            }
            (o, _) if o.starts_with("FSETP.") => self.push_raw(inst),
            ("SHF.L.U32", [d, x, y, z]) if is_rz(z) => self.push_raw(alu("SHL", vec![*d, *x, *y])),
            ("SHF.R.U32.HI", [d, z, y, x]) if is_rz(z) => self.push_raw(alu("SHR.U32", vec![*d, *x, *y])),
            ("SHF.R.S32.HI", [d, z, y, x]) if is_rz(z) => self.push_raw(alu("SHR", vec![*d, *x, *y])),
            ("SHF.L.W.U32", [d, x, y, z]) if is_rz(z) => self.push_raw(alu("SHL.W", vec![*d, *x, *y])),
            ("SHF.R.W.U32.HI", [d, z, y, x]) if is_rz(z) => self.push_raw(alu("SHR.U32.W", vec![*d, *x, *y])),
            ("SHF.R.W.S32.HI", [d, z, y, x]) if is_rz(z) => self.push_raw(alu("SHR.W", vec![*d, *x, *y])),
            ("LOP3.LUT", [rest @ .., MOp::Imm(lut), MOp::Pred { .. }]) => {
                // An in-place half write carries its tied tuple first; keep it in front.
                let (tied, rest) = match rest {
                    [t @ MOp::Tied { .. }, more @ ..] => (Some(*t), more),
                    _ => (None, rest),
                };
                let [d, a, b, c] = rest else { return self.sm50_error("LOP3.LUT shape") };
                let alu = |opc: &'static str, ops: Vec<MOp>| {
                    let mut i = SassInst::new(opc, tied.into_iter().chain(ops));
                    i.guard = inst.guard;
                    i
                };
                let op = match lut {
                    0xc0 => Some("AND"),
                    0xfc => Some("OR"),
                    0x3c => Some("XOR"),
                    _ => None,
                };
                match (op, b) {
                    // a OP imm
                    (Some(op), MOp::Imm(v)) if is_rz(c) => {
                        self.push_raw(alu(intern(&format!("LOP32I.{op}")), vec![*d, *a, MOp::Imm(*v as u32 as i64)]))
                    }
                    // ~b as b ^ 0xffffffff.
                    _ if *lut == 0x33 && is_rz(a) && is_rz(c) && matches!(b, MOp::Reg { .. }) => {
                        self.push_raw(alu("LOP32I.XOR", vec![*d, *b, MOp::Imm(0xffff_ffff)]))
                    }
                    (_, MOp::Reg { .. }) => self.push_raw(alu("LOP3.LUT", vec![*d, *a, *b, *c, MOp::Imm(*lut)])),
                    _ => self.sm50_error(format!("LOP3 LUT {lut:#x} with an immediate has no sm_50 form")),
                }
            }
            (o, [MOp::Pred { num: 7, not: false }, d, m, x])
                if o.starts_with("ATOM.E.") || o.starts_with("ATOMG.E.") =>
            {
                let rest = o.split_once(".E.").map(|(_, r)| r).unwrap_or("");
                let Some(spelled) = atom_size_sm50(rest) else {
                    return self.sm50_error(format!("`{rest}` has no sm_50 ATOM form"));
                };
                let mut i = SassInst::new(format!("ATOM.E.{spelled}"), [*d, *m, *x]);
                i.form = inst.form;
                i.guard = inst.guard;
                self.push_raw(i);
            }
            (o, [m, x]) if o.starts_with("RED.E.") => {
                let Some(spelled) = atom_size_sm50(&o[6..]) else {
                    return self.sm50_error(format!("`{}` has no sm_50 RED form", &o[6..]));
                };
                // ptxas 11.8 emits a 64-bit RED only for ADD; every other 64-bit reduction
                // becomes `ATOM.E.op.U64 RZ, [a], b` (`red.global.min.u64` → `ATOM.E.MIN.U64 RZ`).
                let wide_non_add = spelled.contains("64") && !spelled.starts_with("ADD");
                let mut i = if wide_non_add {
                    SassInst::new(format!("ATOM.E.{spelled}"), [MOp::rz(), *m, *x])
                } else {
                    SassInst::new(format!("RED.E.{spelled}"), [*m, *x])
                };
                i.form = inst.form;
                i.guard = inst.guard;
                self.push_raw(i);
            }
            (o, [_, _, _]) if o.starts_with("ATOMS.") && !o.starts_with("ATOMS.CAS") => match atom_size_sm50(&o[6..]) {
                Some(s) if !s.contains("F32") => {
                    inst.opcode = intern(&format!("ATOMS.{s}"));
                    self.push_raw(inst);
                }
                _ => self.sm50_error(format!("`{}` has no sm_50 ATOMS form", &o[6..])),
            },
            (o, _)
                if o.starts_with("LDG.E") || o.starts_with("STG.E") || o.starts_with("LDS") || o.starts_with("STS") =>
            {
                self.push_raw(inst)
            }
            (o, []) if o.starts_with("MEMBAR.") => self.push_raw(inst),
            // Surface atomics: sm_50 spells the 64-bit size U64. An unused result is a SURED
            // where ptxas 11.8 emits one for the op and size, otherwise SUATOM into RZ.
            (o, _) if o.starts_with("SUATOM.") || o.starts_with("SURED.") => {
                let (mn, mods) = o.split_once('.').unwrap_or((o, ""));
                let mods: Vec<&str> = mods.split('.').map(|t| if t == "64" { "U64" } else { t }).collect();
                if mn == "SURED" && sured_sm50(&mods) {
                    inst.opcode = intern(&format!("SURED.{}", mods.join(".")));
                    self.push_raw(inst);
                    return;
                }
                inst.opcode = intern(&format!("SUATOM.{}", mods.join(".")));
                if mn == "SURED" {
                    let width = match ops.first() {
                        Some(MOp::Reg { width, .. }) if ops.len() == 2 => *width,
                        _ => ops.get(1).map_or(1, |o| if let MOp::Reg { width, .. } = o { *width } else { 1 }),
                    };
                    inst.ops.insert(0, MOp::Reg { reg: Reg::Zero, width, rule: OperandRule::Def, neg: false });
                    if let RegForm::SurfaceAtom { coords, wide, cas, bindless, .. } = inst.form {
                        inst.form = RegForm::SurfaceAtom { coords, wide, cas, has_dst: true, bindless };
                    }
                }
                self.push_raw(inst);
            }
            // ptxas 11.8 follows `bar.sync` with MEMBAR.CTA on sm_50, so shared-memory writes
            // before the barrier are visible to loads after it.
            ("BAR.SYNC.DEFER_BLOCKING", [n]) => {
                let mut i = SassInst::new("BAR.SYNC", [*n]);
                i.guard = inst.guard;
                self.push_raw(i);
                self.push_raw(SassInst::new("MEMBAR.CTA", []));
            }
            _ => self.sm50_error(format!("it needs `{}`, which has no sm_50 form", inst.opcode)),
        }
    }

    /// `atomic_cas` on sm_50: compare and swap packed into one register group.
    pub(super) fn lower_cas_sm50(&mut self, data: &InstData) -> Result<(), IselError> {
        let InstData::AtomicCas { ty, addr, expected, replacement, .. } = data else {
            unreachable!("called for atomic_cas only")
        };
        let used = self.result_used();
        let (m, space) = self.mem(addr);
        let wide = ty.bits() == 64;
        let (d, _) = self.def_or_rz(used);
        let zero_swap = self.const_value(*replacement) == Some(0) && space == AddrSpace::Global;
        let group = self.new_vreg(if wide { RegClass::Quad } else { RegClass::Pair });
        let half = if wide { 2 } else { 1 };
        // Compare value into the group's first register(s): this write defines the group.
        self.write_part(group, None, 0, half, *expected);
        let data = if zero_swap {
            group
        } else {
            let full = self.new_vreg(group.class());
            self.write_part(full, Some(group), half, half, *replacement);
            full
        };
        let rb = MOp::Reg { reg: data.part(0), width: half, rule: OperandRule::Use, neg: false };
        let rc = if zero_swap {
            MOp::Reg { reg: Reg::Zero, width: half, rule: OperandRule::Use, neg: false }
        } else {
            MOp::Reg { reg: data.part(half), width: half, rule: OperandRule::Use, neg: false }
        };
        let size = if wide { ".64" } else { "" };
        if space == AddrSpace::Generic {
            // Both paths predicated on the shared-window test (generic_sm50.rs).
            let shared = self.shared_window_test(m);
            let (ds, vs) = self.path_def(used);
            let (dg, vg) = self.path_def(used);
            let form = RegForm::AtomCas { wide };
            let s = SassInst::new(format!("ATOMS.CAS{size}"), [ds, shared, rb, rc]).with_form(form);
            self.push_raw(generic::guarded(s, false));
            let g = SassInst::new(format!("ATOM.E.CAS{size}"), [dg, m, rb, rc]).with_form(form);
            self.push_raw(generic::guarded(g, true));
            if let (Some(vs), Some(vg), Some(d)) = (vs, vg, self.result()) {
                self.select_paths(d, vs, vg);
            }
            return Ok(());
        }
        let opc = match space {
            AddrSpace::Shared => format!("ATOMS.CAS{size}"),
            _ => format!("ATOM.E.CAS{size}"),
        };
        let inst = SassInst::new(opc, [d, m, rb, rc]).with_form(RegForm::AtomCas { wide });
        self.push_raw(inst);
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
            let opc = if matches!(s, MOp::Imm(_)) { "MOV32I" } else { "MOV" };
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
                    self.push_raw(SassInst::new("MOV", [first, MOp::rz()]));
                    vec![
                        MOp::Tied { reg: target.reg(), width: group.class().width() },
                        MOp::reuse_def(target.part(at + k), 0),
                        s,
                    ]
                }
                _ => ops,
            };
            self.push_raw(SassInst::new(opc, ops));
            prev = Some(target);
        }
    }
}

/// The sm_50 spelling of an atomic's op and size (`ADD`, `MIN.S32`, `ADD.U64`, ...).
fn atom_size_sm50(s: &str) -> Option<String> {
    let (op, size) = s.split_once('.').unwrap_or((s, ""));
    let size = match size {
        "" | "S32" | "S64" | "F32.FTZ.RN" => size.to_string(),
        "64" => "U64".into(),
        _ => return None,
    };
    Some(if size.is_empty() { op.to_string() } else { format!("{op}.{size}") })
}

/// Whether ptxas 11.8 writes a SURED for a surface reduction with these modifiers: its `sured`
/// kernels (emit/sass/tests/sass_sm50_sured.rs) give ADD on U32, S32 and U64, MIN and MAX on
/// U32 and S32, AND and OR on 32 bits. PTX has no other `sured` for sm_50, so INC, DEC, XOR
/// and the other 64-bit reductions keep the SUATOM into RZ that seed 001 vouches for.
fn sured_sm50(mods: &[&str]) -> bool {
    const OPS: &[&str] = &["ADD", "MIN", "MAX", "INC", "DEC", "AND", "OR", "XOR", "EXCH", "CAS"];
    let Some(at) = mods.iter().position(|t| OPS.contains(t)) else { return false };
    let size = mods.get(at + 1).copied().filter(|t| !matches!(*t, "IGN" | "TRAP")).unwrap_or("");
    matches!((mods[at], size), ("ADD", "" | "S32" | "U64") | ("MIN" | "MAX", "" | "S32") | ("AND" | "OR", ""))
}
