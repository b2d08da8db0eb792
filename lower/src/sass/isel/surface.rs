//! Surface atomics: `SUATOM` (with a result), `SURED` (without), and
//! `SUATOM.CAS`. The coordinates travel as one aligned register tuple
//! (x; x,y; x,y,z in a quad), the CAS data as a packed compare/swap tuple,
//! the bindless handle in Rc (its low word; seed 001 and nvdisasm 13 agree
//! that Ra and Rc are never RZ). sm_90 addresses surfaces only through
//! bindless handles, so a bound slot is rejected.

use super::{IselError, Isel};
use crate::sass::inst::{Latency, MOp, SassInst};
use crate::vcode::{OperandRule, Reg, RegClass, RegForm, VReg};
use atomc_ir::{InstData, RmwOp, SurfaceAccess, SurfaceAddressing, SurfaceClamp, SurfaceDim, SurfaceRef, Type, Value};

fn dim_name(d: SurfaceDim) -> &'static str {
    match d {
        SurfaceDim::D1 => "1D",
        SurfaceDim::D1Buffer => "1D_BUFFER",
        SurfaceDim::D1Array => "1D_ARRAY",
        SurfaceDim::D2 => "2D",
        SurfaceDim::D2Array => "2D_ARRAY",
        SurfaceDim::D3 => "3D",
    }
}

fn clamp_name(c: SurfaceClamp) -> &'static str {
    match c {
        SurfaceClamp::Ign => ".IGN",
        SurfaceClamp::Near => "",
        SurfaceClamp::Trap => ".TRAP",
    }
}

/// The op and size modifiers of a surface atomic, or why there is none.
fn op_size(op: RmwOp, ty: Type) -> Option<(&'static str, &'static str)> {
    let name = match op {
        RmwOp::Add | RmwOp::Fadd => "ADD",
        RmwOp::And => "AND",
        RmwOp::Or => "OR",
        RmwOp::Xor => "XOR",
        RmwOp::Xchg => "EXCH",
        RmwOp::Smin | RmwOp::Umin => "MIN",
        RmwOp::Smax | RmwOp::Umax => "MAX",
        RmwOp::IncWrap => "INC",
        RmwOp::DecWrap => "DEC",
        _ => return None,
    };
    let signed = matches!(op, RmwOp::Smin | RmwOp::Smax);
    let size = match ty {
        Type::I32 if signed => ".S32",
        Type::I32 => "",
        Type::I64 if signed => ".S64",
        Type::I64 => ".U64",
        Type::F16x2 if op == RmwOp::Fadd => ".F16x2.RN",
        _ => return None,
    };
    Some((name, size))
}

impl Isel<'_> {
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
        self.emit(SassInst::alu("MOV", [MOp::def(cur.part(0), width), parts[0]]));
        for k in 1..width {
            let next = self.new_vreg(class);
            let src = parts.get(k as usize).copied().unwrap_or_else(MOp::rz);
            self.emit(SassInst::alu(
                "MOV",
                [MOp::Tied { reg: cur.reg(), width }, MOp::reuse_def(next.part(k), 0), src],
            ));
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
            InstData::SurfaceRmw { op, ty, scope, access, coords, arg, .. } => (Some(*op), *ty, *scope, access, coords, vec![*arg]),
            InstData::SurfaceCas { ty, scope, access, coords, expected, replacement, .. } => {
                (None, *ty, *scope, access, coords, vec![*expected, *replacement])
            }
            _ => unreachable!("only surface atomics come here"),
        };
        // sm_50 also has bound surfaces: the slot is SUATOM's immediate header index.
        let handle = match access.surface {
            SurfaceRef::Handle(h) => Some(h),
            SurfaceRef::Slot(_) if self.is_sm50() => None,
            SurfaceRef::Slot(n) => {
                return Err(self.err(format!(
                    "sm_90 surface atomics take a bindless handle; bound slot {n} has no SUATOM form there"
                )))
            }
        };
        let (opname, size) = match op {
            Some(op) => op_size(op, ty).ok_or_else(|| self.err(format!("no SUATOM form for {op} on {ty}")))?,
            None => ("CAS", if ty.bits() == 64 { ".64" } else { "" }),
        };
        let ba = if access.addressing == SurfaceAddressing::Bytes { ".BA" } else { "" };
        let mods = format!(
            "D{ba}.{}.{opname}{size}{}{}",
            dim_name(access.dim),
            self.target.strong(scope),
            clamp_name(access.clamp)
        );

        // Consecutive surface atomics in a block usually share coordinates.
        let key = (self.block, coords.to_vec());
        let coord = match self.coord_tuples.get(&key) {
            Some(&t) => t,
            None => {
                let coord_ops: Vec<MOp> = coords.iter().map(|&c| MOp::use_(self.reg(c))).collect();
                let t = self.tuple(&coord_ops);
                self.coord_tuples.insert(key, t);
                t
            }
        };
        let data_parts: Vec<MOp> = values.iter().flat_map(|&v| self.words(v)).collect();
        let data = self.tuple(&data_parts);
        let handle_op = match (handle, access.surface) {
            (Some(handle), _) => {
                let h = self.reg(handle);
                MOp::use_(if h.class() == RegClass::Pair { h.lo() } else { h.reg() })
            }
            (None, SurfaceRef::Slot(n)) => MOp::Imm(n as i64),
            (None, SurfaceRef::Handle(_)) => unreachable!("handles are Some above"),
        };
        let data_field = MOp::Reg { reg: data.reg(), width: data.class().width(), rule: OperandRule::Use, neg: false };
        let used = self.result_used();
        let form = RegForm::SurfaceAtom {
            coords: coords.len() as u8,
            wide: ty.bits() == 64,
            cas: op.is_none(),
            has_dst: used || op.is_none() || op == Some(RmwOp::Xchg),
            bindless: handle.is_some(),
        };
        let addr = MOp::Mem { base: coord.reg(), width: coords.len() as u8, offset: 0, ubase: None };
        let inst = if form_has_dst(&form) {
            let d = match (used, self.result()) {
                (true, Some(d)) => MOp::def(d.reg(), d.class().width()),
                (_, d) => MOp::Reg {
                    reg: Reg::Zero,
                    width: d.map_or(1, |d| d.class().width()),
                    rule: OperandRule::Def,
                    neg: false,
                },
            };
            SassInst::new(format!("SUATOM.{mods}"), [d, addr, data_field, handle_op], Latency::Variable)
        } else {
            SassInst::new(format!("SURED.{mods}"), [addr, data_field, handle_op], Latency::Variable)
        };
        self.emit(inst.with_form(form));
        Ok(())
    }
}

fn form_has_dst(form: &RegForm) -> bool {
    matches!(form, RegForm::SurfaceAtom { has_dst: true, .. })
}
