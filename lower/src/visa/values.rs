//! Where IR values live in vISA, and the operands that read and write them.

use atomc_ir::{InstData, Type as IrType, Value};

use super::{Lower, LowerError};
use atomc_visa::{Align, Exec, ExecSize, Imm, Operand, PredId, Region, Type, VarId};

/// The home of one IR value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Loc {
    /// A variable of the value's canonical type ([`canonical`]); one element
    /// when `uniform`, else `max(simd, 8)`.
    Var { var: VarId, uniform: bool },
    /// A constant, by its bits (zero-extended from the IR type).
    Const(u64),
    /// A predicate of `simd` lanes.
    Pred { pred: PredId, uniform: bool },
    /// A 64-bit value that is the zero extension of the 32-bit value
    /// `src`: no instruction until something needs it whole, and its known
    /// zero high half makes 64-bit address arithmetic cheaper.
    Zext { src: Value, uniform: bool },
}

/// The vISA element type an IR type is kept in (`None`: not representable).
pub(crate) fn canonical(t: IrType) -> Option<Type> {
    Some(match t {
        // f16 too: its bits, zero-extended (no f16 arithmetic is lowered,
        // but it can be moved, exchanged and compared-and-swapped).
        IrType::I8 | IrType::I16 | IrType::F16 | IrType::I32 | IrType::F16x2 | IrType::BF16x2 => Type::UD,
        // A shared pointer: a byte offset into the thread group's SLM.
        IrType::Ptr(atomc_ir::AddrSpace::Shared) => Type::UD,
        IrType::I64 | IrType::Surface => Type::UQ,
        IrType::Ptr(s) if s.pointer_bits() == 64 => Type::UQ,
        IrType::F32 => Type::F,
        IrType::F64 => Type::DF,
        _ => return None,
    })
}

/// Whether the IR type occupies 64 bits.
pub(crate) fn is64(t: IrType) -> bool {
    t.bits() == 64
}

/// Marks every value uniform or varying ([`crate::uniform`], the rule warp aggregation uses
/// too: one SIMD thread's lanes are one work-group's, like one warp's), and the branches on a
/// varying condition.
pub(crate) fn analyze(l: &mut Lower<'_>) -> Result<(), LowerError> {
    let f = l.f;
    let uniform = crate::uniform::Uniformity::of(f);
    for &b in &l.order.clone() {
        if let Some(t) = f.terminator(b) {
            if let InstData::Brif { cond, .. } = &f.insts[t] {
                if !uniform.is_uniform(*cond) {
                    l.varying_branches.push(b);
                }
            }
        }
    }
    l.uniform_set = Some(uniform);
    for (_, inst) in f.inst_order() {
        l.used_set.extend(f.insts[inst].args());
    }
    Ok(())
}

impl Lower<'_> {
    /// The IR type of a value.
    pub(crate) fn ty(&self, v: Value) -> IrType {
        self.f.value_type(v)
    }

    /// Whether some instruction reads `v`.
    pub(crate) fn used(&self, v: Value) -> bool {
        self.used_set.contains(&v)
    }

    /// Whether `v` is uniform (the same in every lane).
    pub(crate) fn is_uniform(&self, v: Value) -> bool {
        match self.vals.get(&v) {
            Some(Loc::Var { uniform, .. }) | Some(Loc::Pred { uniform, .. }) | Some(Loc::Zext { uniform, .. }) => {
                *uniform
            }
            Some(Loc::Const(_)) => true,
            None => self.uniform_set.as_ref().is_some_and(|u| u.is_uniform(v)),
        }
    }

    /// The exec of an instruction computing a value of this uniformity.
    pub(crate) fn exec(&self, uniform: bool) -> Exec {
        if uniform {
            Exec::nomask(ExecSize::S1)
        } else {
            Exec::new(self.simd)
        }
    }

    /// The exec of a predicate computation (always `simd` lanes; NoMask
    /// when uniform so every lane holds the value).
    pub(crate) fn pred_exec(&self, uniform: bool) -> Exec {
        if uniform {
            Exec::nomask(self.simd)
        } else {
            Exec::new(self.simd)
        }
    }

    /// The exec of a hoisted broadcast: NoMask, every lane (or lane 0).
    pub(crate) fn bcast_exec(&self, scalar: bool) -> Exec {
        Exec::nomask(if scalar { ExecSize::S1 } else { self.simd })
    }

    /// Elements of a varying variable.
    pub(crate) fn lanes_alloc(&self) -> u16 {
        self.simd.lanes().max(8) as u16
    }

    /// A name for a new temporary.
    pub(crate) fn tmp_name(&mut self, what: &str) -> String {
        self.ntmp += 1;
        format!("{what}{}", self.ntmp)
    }

    /// Declares a new variable of `ty`: one element when uniform, else a
    /// GRF-aligned SIMD variable.
    pub(crate) fn new_var(&mut self, name: String, ty: Type, uniform: bool) -> VarId {
        if uniform {
            let align = if ty.size() == 8 { Align::Qword } else { Align::Dword };
            self.k.decl(name, ty, 1, align)
        } else {
            let n = self.lanes_alloc();
            self.k.decl_simd(name, ty, n)
        }
    }

    /// A temporary of `ty`.
    pub(crate) fn tmp(&mut self, ty: Type, uniform: bool) -> VarId {
        let name = self.tmp_name("t");
        self.new_var(name, ty, uniform)
    }

    /// A (non-uniform) temporary of `ty` set to 0: the operand of an atomic that only reads.
    pub(crate) fn zeroed_tmp(&mut self, ty: Type) -> VarId {
        let zero = self.tmp(ty, false);
        let ex = self.exec(false);
        self.k.mov(ex, Operand::dst(zero), Operand::imm(Imm { ty, bits: 0 }));
        zero
    }

    /// The home of a new result value `v` (declared as `vN`).
    pub(crate) fn def_var(&mut self, v: Value, uniform: bool) -> Result<VarId, LowerError> {
        let t = self.ty(v);
        let ty =
            canonical(t).ok_or_else(|| self.unsupported(&format!("{v}: {t}"), "no vISA type holds this IR type"))?;
        let var = self.new_var(format!("{v}"), ty, uniform);
        self.vals.insert(v, Loc::Var { var, uniform });
        Ok(var)
    }

    /// `var` seen with element type `ty` (an alias at offset 0, created once).
    pub(crate) fn view(&mut self, var: VarId, ty: Type) -> VarId {
        let (base, base_ty, bytes) = {
            let mut b = var;
            while let Some((up, _)) = self.k.var(b).and_then(|d| d.alias) {
                b = up;
            }
            let d = self.k.var(b).expect("declared");
            (b, d.ty, d.bytes())
        };
        if base_ty == ty {
            return base;
        }
        if let Some(&a) = self.views.get(&(base, ty)) {
            return a;
        }
        let name = format!(
            "{}_{}",
            self.k.var(base).map(|d| d.name.clone()).unwrap_or_default(),
            ty.name()
        );
        let n = (bytes / ty.size()) as u16;
        let a = self.k.alias(name, ty, n, base, 0);
        self.views.insert((base, ty), a);
        a
    }

    /// The location of a value.
    pub(crate) fn loc(&self, v: Value) -> Result<Loc, LowerError> {
        self.vals
            .get(&v)
            .copied()
            .ok_or_else(|| self.unsupported(&format!("{v}"), "value used before it is defined in block order"))
    }

    /// The location of `v` with a [`Loc::Zext`] made into a variable here
    /// (two moves under the current mask; not cached, since this point may
    /// not dominate later uses).
    pub(crate) fn mat(&mut self, v: Value) -> Result<Loc, LowerError> {
        match self.loc(v)? {
            Loc::Zext { src, uniform } => {
                let var = self.tmp(Type::UQ, uniform);
                let lo = self.src(src, Type::UD)?;
                let ex = self.exec(uniform);
                let dl = self.half_dst(var, uniform, false, Type::UD);
                let dh = self.half_dst(var, uniform, true, Type::UD);
                self.k.mov(ex, dl, lo);
                self.k.mov(ex, dh, Operand::imm(Imm::ud(0)));
                Ok(Loc::Var { var, uniform })
            }
            other => Ok(other),
        }
    }

    /// A source operand reading a ≤32-bit value with element type `ty`.
    pub(crate) fn src(&mut self, v: Value, ty: Type) -> Result<Operand, LowerError> {
        match self.mat(v)? {
            Loc::Const(bits) => Ok(Operand::imm(Imm {
                ty,
                bits: bits & 0xffff_ffff,
            })),
            Loc::Var { var, uniform } => {
                let w = self.view(var, ty);
                Ok(if uniform { Operand::scalar(w) } else { Operand::src(w) })
            }
            Loc::Pred { .. } | Loc::Zext { .. } => {
                Err(self.unsupported(&format!("{v}"), "a predicate used as a number"))
            }
        }
    }

    /// A source operand reading a 64-bit value whole (`uq`/`q`/`df`).
    pub(crate) fn src_whole(&mut self, v: Value, ty: Type) -> Result<Operand, LowerError> {
        match self.loc(v)? {
            Loc::Const(bits) => Ok(Operand::imm(Imm { ty, bits })),
            _ => self.src(v, ty),
        }
    }

    /// A source operand reading the low (`hi = false`) or high half of a
    /// 64-bit value, as `ty` (`ud` or `d`).
    pub(crate) fn half(&mut self, v: Value, hi: bool, ty: Type) -> Result<Operand, LowerError> {
        if let Loc::Zext { src, .. } = self.loc(v)? {
            return if hi {
                Ok(Operand::imm(Imm { ty, bits: 0 }))
            } else {
                self.src(src, ty)
            };
        }
        match self.loc(v)? {
            Loc::Const(bits) => {
                let b = if hi { bits >> 32 } else { bits & 0xffff_ffff };
                Ok(Operand::imm(Imm { ty, bits: b }))
            }
            Loc::Var { var, uniform } => Ok(self.half_of(var, uniform, hi, ty)),
            Loc::Pred { .. } | Loc::Zext { .. } => {
                Err(self.unsupported(&format!("{v}"), "a predicate used as a number"))
            }
        }
    }

    /// Half of a 64-bit variable as a source.
    pub(crate) fn half_of(&mut self, var: VarId, uniform: bool, hi: bool, ty: Type) -> Operand {
        let w = self.view(var, ty);
        let region = if uniform { Region::SCALAR } else { Region::STRIDE2 };
        Operand::src_at(w, 0, hi as u8, region)
    }

    /// Half of a 64-bit variable as a destination.
    pub(crate) fn half_dst(&mut self, var: VarId, uniform: bool, hi: bool, ty: Type) -> Operand {
        let w = self.view(var, ty);
        Operand::dst_at(w, 0, hi as u8, if uniform { 1 } else { 2 })
    }

    /// A destination writing `var` as `ty`.
    pub(crate) fn dst(&mut self, var: VarId, ty: Type) -> Operand {
        let w = self.view(var, ty);
        Operand::dst(w)
    }

    /// The predicate of a `pred` value.
    pub(crate) fn pred(&self, v: Value) -> Result<(PredId, bool), LowerError> {
        match self.loc(v)? {
            Loc::Pred { pred, uniform } => Ok((pred, uniform)),
            _ => Err(self.unsupported(&format!("{v}"), "a number used as a predicate")),
        }
    }

    /// A new predicate for `v`.
    pub(crate) fn def_pred(&mut self, v: Value, uniform: bool) -> PredId {
        // Eight lanes at least: GenX_IR cannot branch on a 2- or 4-lane
        // predicate ("FlowGraph.cpp: predicate control not handled yet").
        let lanes = self.lanes_alloc();
        let p = self.k.decl_pred(format!("p{}", &format!("{v}")[1..]), lanes);
        self.vals.insert(v, Loc::Pred { pred: p, uniform });
        p
    }

    /// A temporary predicate.
    pub(crate) fn tmp_pred(&mut self) -> PredId {
        let name = self.tmp_name("pt");
        let lanes = self.lanes_alloc();
        self.k.decl_pred(name, lanes)
    }

    /// `v` as a varying variable of `ty` usable as a raw message operand:
    /// varying values are viewed in place, uniform ones and constants are
    /// broadcast into a temporary first.
    pub(crate) fn raw_src(&mut self, v: Value, ty: Type) -> Result<VarId, LowerError> {
        self.raw_src_ex(v, ty, false)
    }

    /// [`Self::raw_src`]; `scalar`: only lane 0 is needed (the broadcast is
    /// one `(M1_NM, 1)` move).
    pub(crate) fn raw_src_ex(&mut self, v: Value, ty: Type, scalar: bool) -> Result<VarId, LowerError> {
        if let Loc::Zext { uniform: false, .. } = self.loc(v)? {
            let Loc::Var { var, .. } = self.mat(v)? else {
                unreachable!("mat makes a variable")
            };
            return Ok(self.view(var, ty));
        }
        match self.loc(v)? {
            Loc::Var { var, uniform: false } => Ok(self.view(var, ty)),
            Loc::Var { .. } | Loc::Const(_) | Loc::Zext { .. } => {
                if let Some(&t) = self.bcast.get(&(v, 0, ty, scalar)) {
                    return Ok(t);
                }
                let t = self.tmp(ty, false);
                let ex = self.bcast_exec(scalar);
                let s = self.at_def(v, |l| -> Result<(), LowerError> {
                    let s = l.src_whole(v, ty)?;
                    l.k.mov(ex, Operand::dst(t), s);
                    Ok(())
                });
                s?;
                self.bcast.insert((v, 0, ty, scalar), t);
                Ok(t)
            }
            Loc::Pred { .. } => Err(self.unsupported(&format!("{v}"), "a predicate as message data")),
        }
    }
}
