//! Surface atomics: `SUATOM` (with a result), `SURED` (without), and
//! `SUATOM.CAS`. The coordinates travel as one aligned register tuple
//! (x; x,y; x,y,z in a quad), the CAS data as a packed compare/swap tuple,
//! the bindless handle in Rc (its low word; seed 001 and nvdisasm 13 agree
//! that Ra and Rc are never RZ).
//!
//! A bound slot is what ptxas makes of a module `.surfref`: a 32-bit header word in constant
//! bank 0 after the parameters, which the driver fills (an `R_CUDA_SURF_HEADER_INDEX`
//! relocation against the `CUDA_SURFACE` symbol). ptxas 13.5 for `sured.b.add.2d.u32
//! [s0, ..]` with parameters ending at 0x21c: `ULDC UR4, c[0x0][0x21c]` then `SURED.D.BA.2D.ADD
//! ... [R2], R5, UR4, 0x0`, the word used as a bindless handle; ptxas 11.8 for sm_50 names the
//! word by its index in the instruction instead (`SURED.D.BA.2D.ADD.TRAP [R2], R0, 0x53` for
//! the word at 0x14c). atomc gives the slots it uses one word each, in ascending slot order
//! ([`surface_slot_words`]); sm_90 loads the word into a register for the Rc form.

use super::{Isel, IselError};
use crate::sass::inst::MOp;
use crate::vcode::{OperandRule, Reg, RegClass, RegForm, VReg};
use atomc_ir::{
    Function, InstData, RmwOp, SurfaceAccess, SurfaceAddressing, SurfaceClamp, SurfaceDim, SurfaceRef, Type, Value,
};
use atomc_sass::op::{t, Tok, Toks};
use atomc_sass::surface::{x_shift, SELECT_BA};
use atomc_sass::toks;

fn dim_name(d: SurfaceDim) -> Tok {
    match d {
        SurfaceDim::D1 => t::_1D,
        SurfaceDim::D1Buffer => t::_1D_BUFFER,
        SurfaceDim::D1Array => t::_1D_ARRAY,
        SurfaceDim::D2 => t::_2D,
        SurfaceDim::D2Array => t::_2D_ARRAY,
        SurfaceDim::D3 => t::_3D,
    }
}

fn clamp_name(c: SurfaceClamp) -> Option<Tok> {
    match c {
        SurfaceClamp::Ign => Some(t::IGN),
        SurfaceClamp::Near => None,
        SurfaceClamp::Trap => Some(t::TRAP),
    }
}

/// The op and size modifiers of a surface atomic, or why there is none.
fn op_size(op: RmwOp, ty: Type) -> Option<(Tok, &'static [Tok])> {
    let name = match op {
        RmwOp::Add | RmwOp::Fadd => t::ADD,
        RmwOp::And => t::AND,
        RmwOp::Or => t::OR,
        RmwOp::Xor => t::XOR,
        RmwOp::Xchg => t::EXCH,
        RmwOp::Smin | RmwOp::Umin => t::MIN,
        RmwOp::Smax | RmwOp::Umax => t::MAX,
        RmwOp::IncWrap => t::INC,
        RmwOp::DecWrap => t::DEC,
        _ => return None,
    };
    let signed = matches!(op, RmwOp::Smin | RmwOp::Smax);
    let size: &[Tok] = match ty {
        Type::I32 if signed => &toks!(S32),
        Type::I32 => &[],
        Type::I64 if signed => &toks!(S64),
        Type::I64 => &toks!(U64),
        Type::F16x2 if op == RmwOp::Fadd => &toks!(F16x2.RN),
        // EXCH moves the 32-bit pattern.
        Type::F32 | Type::F16x2 if op == RmwOp::Xchg => &[],
        _ => return None,
    };
    Some((name, size))
}

/// The bound surface slots `func` uses, ascending, each with the byte offset in constant bank
/// 0 of its header word: the words follow the parameters (laid out from `param_base` as the
/// selector loads them), 4 bytes each, as ptxas places a module's `.surfref` words.
pub fn surface_slot_words(func: &Function, param_base: u32) -> Vec<(u16, u32)> {
    let mut end = param_base;
    for ty in func.params() {
        let size = ty.bytes().max(4);
        end = end.next_multiple_of(size) + size;
    }
    let mut slots: Vec<u16> = func
        .inst_order()
        .filter_map(|(_, i)| match &func.insts[i] {
            InstData::SurfaceRmw { access, .. } | InstData::SurfaceCas { access, .. } => match access.surface {
                SurfaceRef::Slot(n) => Some(n),
                SurfaceRef::Handle(_) => None,
            },
            _ => None,
        })
        .collect();
    slots.sort_unstable();
    slots.dedup();
    slots.into_iter().enumerate().map(|(i, n)| (n, end + 4 * i as u32)).collect()
}

impl Isel<'_> {
    /// The constant-bank byte offset of bound slot `n`'s header word.
    fn slot_word(&self, n: u16) -> u32 {
        let words = surface_slot_words(self.func, self.target.param_base);
        words.iter().find(|w| w.0 == n).map(|w| w.1).expect("every slot the function uses has a word")
    }

    /// Builds one tuple register from 32-bit parts (the rest zero).
    fn tuple(&mut self, parts: &[MOp]) -> VReg {
        let class = RegClass::for_width(parts.len() as u8).expect("1 to 4 parts");
        if class == RegClass::Single {
            if let MOp::Reg { reg: Reg::Virt { vreg, sub: 0 }, .. } = parts[0] {
                if vreg.class() == RegClass::Single {
                    return vreg;
                }
            }
        }
        let width = class.width();
        let mut cur = self.new_vreg(class);
        self.emit(self.isa.mov(&[MOp::def(cur.part(0), width)], parts[0]));
        for k in 1..width {
            let next = self.new_vreg(class);
            let src = parts.get(k as usize).copied().unwrap_or_else(MOp::rz);
            self.emit(self.isa.mov(&[MOp::Tied { reg: cur.reg(), width }, MOp::reuse_def(next.part(k), 0)], src));
            cur = next;
        }
        cur
    }

    /// The 32-bit words of a value (one for 32-bit types, two for 64-bit).
    fn words(&mut self, v: Value) -> Vec<MOp> {
        let r = self.reg(v);
        match r.class() {
            RegClass::Pair => vec![MOp::use_(r.lo()), MOp::use_(r.hi())],
            _ => vec![MOp::use_(r)],
        }
    }

    pub(super) fn lower_surface(&mut self, data: &InstData) -> Result<(), IselError> {
        let (op, ty, scope, access, coords, values): (Option<RmwOp>, _, _, &SurfaceAccess, _, Vec<Value>) = match data {
            InstData::SurfaceRmw { op, ty, scope, access, coords, arg, .. } => {
                (Some(*op), *ty, *scope, access, coords, vec![*arg])
            }
            InstData::SurfaceCas { ty, scope, access, coords, expected, replacement, .. } => {
                (None, *ty, *scope, access, coords, vec![*expected, *replacement])
            }
            _ => unreachable!("only surface atomics come here"),
        };
        // sm_50 names a bound slot's header word by its index in the instruction; sm_90
        // reads the word and uses it as a bindless handle (see the module comment and
        // `Isa::surface_slot`).
        let handle_op = match access.surface {
            SurfaceRef::Handle(h) => {
                let h = self.reg(h);
                MOp::use_(if h.class() == RegClass::Pair { h.lo() } else { h.reg() })
            }
            SurfaceRef::Slot(n) => {
                let word = self.slot_word(n);
                self.isa.surface_slot(self, word)
            }
        };
        let bindless = !matches!(handle_op, MOp::Imm(_));
        let (opname, size) = match op {
            Some(op) => op_size(op, ty).ok_or_else(|| self.err(format!("no SUATOM form for {op} on {ty}")))?,
            None => (t::CAS, if ty.bits() == 64 { &toks!(64)[..] } else { &[] }),
        };
        // x in bytes under `.BA`, in elements without (`atomc_sass::surface`, with ptxas's
        // evidence); atomc selects `.BA`, so an element x is scaled by the element size.
        let ba = (SELECT_BA || access.addressing == SurfaceAddressing::Bytes).then_some(t::BA);
        let shift = match access.addressing {
            SurfaceAddressing::Coord => x_shift(ty.bits() / 8),
            SurfaceAddressing::Bytes => 0,
        };
        let mods = Toks::of(&[t::D])
            .with(ba)
            .with(dim_name(access.dim))
            .with(opname)
            .with(size)
            .with(self.target.strong(scope))
            .with(clamp_name(access.clamp));

        // Consecutive surface atomics in a block usually share coordinates.
        let key = (self.block, coords.to_vec(), shift);
        let coord = match self.coord_tuples.get(&key) {
            Some(&t) => t,
            None => {
                let mut coord_ops: Vec<MOp> = coords.iter().map(|&c| MOp::use_(self.reg(c))).collect();
                if shift != 0 {
                    let x = self.new_vreg(RegClass::Single);
                    let imm = MOp::Imm(shift as i64);
                    self.emit(self.isa.shl(MOp::def(x.reg(), 1), coord_ops[0], imm, false));
                    coord_ops[0] = MOp::use_(x.reg());
                }
                let t = self.tuple(&coord_ops);
                self.coord_tuples.insert(key, t);
                t
            }
        };
        let data_parts: Vec<MOp> = values.iter().flat_map(|&v| self.words(v)).collect();
        let data = self.tuple(&data_parts);
        let data_field = MOp::Reg { reg: data.reg(), width: data.class().width(), rule: OperandRule::Use, neg: false };
        let used = self.result_used();
        let form = RegForm::SurfaceAtom {
            coords: coords.len() as u8,
            wide: ty.bits() == 64,
            cas: op.is_none(),
            has_dst: used || op.is_none() || op == Some(RmwOp::Xchg),
            bindless,
        };
        let addr = MOp::Mem { base: coord.reg(), width: coords.len() as u8, offset: 0, ubase: None };
        let d = form_has_dst(&form).then(|| match (used, self.result()) {
            (true, Some(d)) => MOp::def(d.reg(), d.class().width()),
            (_, d) => {
                let width = d.map_or(1, |d| d.class().width());
                MOp::Reg { reg: Reg::Zero, width, rule: OperandRule::Def, neg: false }
            }
        });
        self.emit(self.isa.surface_rmw(mods, d, addr, data_field, handle_op, form));
        Ok(())
    }
}

fn form_has_dst(form: &RegForm) -> bool {
    matches!(form, RegForm::SurfaceAtom { has_dst: true, .. })
}
