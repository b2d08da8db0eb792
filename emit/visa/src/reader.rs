//! A `.isa` 4.1 reader for the subset [`super::binary`] writes, driven by
//! the same opcode table: it decodes one-kernel files back into a
//! [`Kernel`], so tests can check that writing and reading agree and that
//! the reference samples decode to the kernels their text describes.

use super::inst::{
    self, AtomicOp, AtomicWidth, Blocks, Channels, Ext, Fence, Field, Inst, Op, Predicate, Relop, Slot,
};
use super::kernel::{Input, Kernel, LabelId, PredDecl, PredId, Surf, SurfId, SurfaceDecl, VarDecl, VarId};
use super::operand::{Imm, Operand, Region, SrcMod};
use super::types::{Align, Exec, ExecSize, PredCtl, Type};

/// Why a file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IsaReadError {
    /// The file ends early.
    #[error("file truncated at byte {0:#x}")]
    Truncated(usize),
    /// Something this reader does not handle (or that is invalid).
    #[error("unsupported at byte {at:#x}: {what}")]
    Unsupported {
        /// File offset.
        at: usize,
        /// What was found.
        what: String,
    },
}

struct Cur<'a> {
    b: &'a [u8],
    pos: usize,
}

impl Cur<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], IsaReadError> {
        let s = self
            .b
            .get(self.pos..self.pos + n)
            .ok_or(IsaReadError::Truncated(self.pos))?;
        self.pos += n;
        Ok(s)
    }
    fn ub(&mut self) -> Result<u8, IsaReadError> {
        Ok(self.take(1)?[0])
    }
    fn uw(&mut self) -> Result<u16, IsaReadError> {
        let s = self.take(2)?;
        Ok(u16::from_le_bytes([s[0], s[1]]))
    }
    fn ud(&mut self) -> Result<u32, IsaReadError> {
        let s = self.take(4)?;
        Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
    }
    fn bad<T>(&self, what: impl Into<String>) -> Result<T, IsaReadError> {
        Err(IsaReadError::Unsupported {
            at: self.pos,
            what: what.into(),
        })
    }
}

fn type_from(code: u8) -> Option<Type> {
    Type::ALL.into_iter().find(|t| t.code() == code)
}

fn align_from(code: u8) -> Option<Align> {
    use Align::*;
    [Byte, Word, Dword, Qword, Oword, Grf, Grf2, Hword, Wordx32]
        .into_iter()
        .find(|a| a.code() == code)
}

fn region_from(code: u8) -> u8 {
    match code {
        2 => 1,
        3 => 2,
        4 => 4,
        5 => 8,
        6 => 16,
        7 => 32,
        _ => 0,
    }
}

/// Reads a one-kernel `.isa` file.
pub fn read(bytes: &[u8]) -> Result<Kernel, IsaReadError> {
    let mut c = Cur { b: bytes, pos: 0 };
    if c.ud()? != 0x4153_4943 || c.ub()? != 4 || c.ub()? != 1 {
        return c.bad("not a CISA 4.1 file");
    }
    if c.uw()? != 1 {
        return c.bad("only one-kernel files are read");
    }
    let n = c.uw()? as usize;
    c.take(n)?;
    let body = c.ud()? as usize;
    c.pos = body;
    let nstr = c.ud()? as usize;
    let mut strings = Vec::with_capacity(nstr.min(1 << 16));
    for _ in 0..nstr {
        let start = c.pos;
        let len = bytes[start..]
            .iter()
            .position(|&b| b == 0)
            .ok_or(IsaReadError::Truncated(start))?;
        strings.push(String::from_utf8_lossy(&bytes[start..start + len]).into_owned());
        c.pos = start + len + 1;
    }
    let s = |c: &Cur<'_>, i: u32| -> Result<String, IsaReadError> {
        strings
            .get(i as usize)
            .cloned()
            .ok_or(IsaReadError::Unsupported {
                at: c.pos,
                what: format!("string {i}"),
            })
    };
    let name_index = c.ud()?;
    let mut k = Kernel::new(s(&c, name_index)?);
    let nvars = c.ud()?;
    for _ in 0..nvars {
        let idx = c.ud()?;
        let name = s(&c, idx)?;
        let props = c.ub()?;
        let num_elts = c.uw()?;
        let alias = c.ud()?;
        let off = c.uw()?;
        c.ub()?; // alias scope
        if c.ub()? != 0 {
            return c.bad("variable attributes");
        }
        let ty = type_from(props & 15).map_or_else(|| c.bad("type"), Ok)?;
        let align = align_from(props >> 4).map_or_else(|| c.bad("align"), Ok)?;
        let alias = if alias == 0 {
            None
        } else {
            Some((var_id(&c, alias)?, off))
        };
        k.vars.push(VarDecl {
            name,
            ty,
            num_elts,
            align,
            alias,
        });
    }
    if c.uw()? != 0 {
        return c.bad("address variables");
    }
    for _ in 0..c.uw()? {
        let idx = c.ud()?;
        let name = s(&c, idx)?;
        let num_elts = c.uw()?;
        if c.ub()? != 0 {
            return c.bad("predicate attributes");
        }
        k.preds.push(PredDecl { name, num_elts });
    }
    for _ in 0..c.uw()? {
        let idx = c.ud()?;
        let name = s(&c, idx)?;
        if c.ub()? != 0 || c.ub()? != 0 {
            return c.bad("non-block label");
        }
        k.labels.push(name);
    }
    if c.ub()? != 0 {
        return c.bad("samplers");
    }
    for _ in 0..c.ub()? {
        let idx = c.ud()?;
        let name = s(&c, idx)?;
        if c.uw()? != 1 || c.ub()? != 0 {
            return c.bad("surface array or attributes");
        }
        k.surfaces.push(SurfaceDecl { name, offset: 0 });
    }
    if c.ub()? != 0 {
        return c.bad("vme");
    }
    for _ in 0..c.ud()? {
        let kind = c.ub()?;
        let n = c.ud()?;
        let offset = c.uw()?;
        let size = c.uw()?;
        match kind {
            0 => {
                let var = var_id(&c, n)?;
                k.inputs.push(Input { var, offset, size });
            }
            // A surface argument: its number is T6 upwards.
            2 => match n.checked_sub(6).and_then(|i| k.surfaces.get_mut(i as usize)) {
                Some(t) if size == 4 => t.offset = offset,
                _ => return c.bad(format!("surface input T{n}")),
            },
            _ => return c.bad("sampler or implicit input"),
        }
    }
    let code_len = c.ud()? as usize;
    let entry = c.ud()? as usize;
    for _ in 0..c.uw()? {
        let idx = c.ud()?;
        let name = s(&c, idx)?;
        let len = c.ub()? as usize;
        let val = c.take(len)?.to_vec();
        match (name.as_str(), val.as_slice()) {
            ("Target", [0]) => {}
            ("SimdSize", [n]) => k.simd_size = Some(*n),
            _ => return c.bad(format!("attribute {name}")),
        }
    }
    c.pos = body + entry;
    let end = c.pos + code_len;
    while c.pos < end {
        let i = read_inst(&mut c)?;
        k.insts.push(i);
    }
    Ok(k)
}

fn var_id(c: &Cur<'_>, n: u32) -> Result<VarId, IsaReadError> {
    if n < 32 {
        return c.bad(format!("predefined variable V{n}"));
    }
    Ok(VarId(n - 32))
}

fn read_inst(c: &mut Cur<'_>) -> Result<Inst, IsaReadError> {
    let code = c.ub()?;
    let candidates: Vec<&inst::OpInfo> = inst::table().iter().filter(|e| e.code == code).collect();
    // Opcodes sharing a byte (svm, fminmax) differ in their first constant
    // field, which follows the opcode (svm) or the exec byte (fminmax).
    let info = match candidates.as_slice() {
        [] => return c.bad(format!("opcode {code:#x}")),
        [one] => *one,
        many => {
            let pick = |c: &Cur<'_>, at: usize| {
                let v = c.b.get(c.pos + at).copied();
                many.iter().copied().find(|e| {
                    e.fields.iter().position(|f| matches!(f, Field::Byte(_))) == Some(at)
                        && matches!(e.fields[at], Field::Byte(b) if Some(b) == v)
                })
            };
            match pick(c, 0).or_else(|| pick(c, 1)) {
                Some(e) => e,
                None => return c.bad(format!("sub-opcode of {code:#x}")),
            }
        }
    };
    let mut exec = inst::EXEC1;
    let mut pred = None;
    let mut ext = Ext::None;
    let mut sat = false;
    let mut operands = Vec::new();
    for f in info.fields {
        match *f {
            Field::Byte(_) => {
                c.ub()?;
            }
            Field::Slm => {
                if c.ub()? != 0 {
                    return c.bad("surface other than T0 (%slm)");
                }
            }
            Field::Exec => {
                let b = c.ub()?;
                let size = ExecSize::ALL
                    .into_iter()
                    .find(|s| s.code() == b & 7)
                    .map_or_else(|| c.bad("exec size"), Ok)?;
                exec = Exec {
                    size,
                    offset: (b >> 4) & 7,
                    nomask: b & 0x80 != 0,
                };
            }
            Field::Pred => {
                let w = c.uw()?;
                if w & 0xfff != 0 {
                    let ctl = match (w >> 13) & 3 {
                        0 => PredCtl::Normal,
                        1 => PredCtl::Any,
                        2 => PredCtl::All,
                        _ => return c.bad("predicate control"),
                    };
                    pred = Some(Predicate {
                        pred: PredId((w & 0xfff) - 1),
                        invert: w & 0x8000 != 0,
                        ctl,
                    });
                }
            }
            Field::Ext => ext = read_ext(c, info.op)?,
            Field::LscOp => {
                let b = c.ub()?;
                let op = AtomicOp::ALL
                    .into_iter()
                    .find(|o| o.lsc().is_some_and(|(x, _)| x == b))
                    .map_or_else(|| c.bad("LSC atomic sub-op"), Ok)?;
                ext = Ext::Atomic(op, AtomicWidth::W32);
            }
            Field::LscSlm => {
                let shape = c.take(15)?.to_vec();
                let w = [AtomicWidth::W16, AtomicWidth::W32, AtomicWidth::W64]
                    .into_iter()
                    .find(|&w| crate::lsc::slm_shape(w)[..] == shape[..])
                    .map_or_else(|| c.bad("LSC message shape other than flat a32 SLM"), Ok)?;
                if c.take(6)? != crate::lsc::FLAT_SURFACE {
                    return c.bad("LSC surface other than flat");
                }
                if let Ext::Atomic(op, _) = ext {
                    ext = Ext::Atomic(op, w);
                }
            }
            Field::Operand(slot) => {
                let (o, s) = read_operand(c, slot)?;
                sat |= s;
                operands.push(o);
            }
        }
    }
    Ok(Inst {
        op: info.op,
        exec,
        pred,
        sat,
        ext,
        operands,
    })
}

fn read_ext(c: &mut Cur<'_>, op: Op) -> Result<Ext, IsaReadError> {
    Ok(match op {
        Op::Cmp => {
            let r = c.ub()?;
            let all = [
                Relop::Eq,
                Relop::Ne,
                Relop::Gt,
                Relop::Ge,
                Relop::Lt,
                Relop::Le,
            ];
            Ext::Relop(
                all.into_iter()
                    .find(|x| x.code() == r)
                    .map_or_else(|| c.bad("relop"), Ok)?,
            )
        }
        Op::SvmAtomic | Op::DwordAtomic | Op::TypedAtomic => {
            let b = c.ub()?;
            let a = AtomicOp::ALL
                .into_iter()
                .find(|o| o.code() == b & 31)
                .map_or_else(|| c.bad("atomic op"), Ok)?;
            let w = match b & 0x60 {
                0x00 => AtomicWidth::W32,
                0x20 => AtomicWidth::W16,
                0x40 => AtomicWidth::W64,
                _ => return c.bad("atomic width"),
            };
            Ext::Atomic(a, w)
        }
        Op::ResInfo | Op::Gather4Typed | Op::Scatter4Typed => {
            let m = c.ub()?;
            if m == 0 || m > 15 {
                return c.bad("channel mask");
            }
            Ext::Channels(Channels(m))
        }
        Op::Fence => {
            let m = c.ub()?;
            if m & 0x80 != 0 {
                return c.bad("fence_sw");
            }
            let bit = |i: u8| m & (1 << i) != 0;
            Ext::Fence(Fence {
                commit: bit(0),
                icache: bit(1),
                sampler: bit(2),
                constant: bit(3),
                rw: bit(4),
                local: bit(5),
                l1: bit(6),
            })
        }
        Op::SvmGather | Op::SvmScatter => {
            let size = c.ub()?;
            let num = c.ub()?;
            let block_bytes = match size {
                0 => 1,
                1 => 4,
                2 => 8,
                _ => return c.bad("block size"),
            };
            Ext::Blocks(Blocks {
                block_bytes,
                num_blocks: 1 << (num & 3),
            })
        }
        Op::GatherScaled | Op::ScatterScaled => {
            c.ub()?;
            let n = c.ub()?;
            if n > 2 {
                return c.bad("gather/scatter_scaled block count");
            }
            Ext::Scaled(1 << n)
        }
        Op::Barrier => Ext::None,
        _ => {
            c.ub()?;
            Ext::None
        }
    })
}

/// A surface number: `%bss` (T4) or a user surface (T6 upwards).
fn surface(c: &Cur<'_>, n: u16) -> Result<Surf, IsaReadError> {
    match u8::try_from(n) {
        Ok(Surf::BSS_NUMBER) => Ok(Surf::Bss),
        Ok(i @ 6..) => Ok(Surf::User(SurfId(i - 6))),
        _ => c.bad(format!("predefined surface T{n}")),
    }
}

/// Reads one operand; the flag is the destination's saturation bit.
fn read_operand(c: &mut Cur<'_>, slot: Slot) -> Result<(Operand, bool), IsaReadError> {
    match slot {
        Slot::Raw => {
            let v = c.ud()?;
            let offset = c.uw()?;
            let var = if v == 0 { None } else { Some(var_id(c, v)?) };
            return Ok((Operand::Raw { var, offset }, false));
        }
        Slot::Label => return Ok((Operand::Label(LabelId(c.uw()?)), false)),
        Slot::Surface => {
            let n = c.ub()?;
            return Ok((Operand::Surface(surface(c, n as u16)?), false));
        }
        Slot::State => {
            if c.ub()? != 6 || c.ub()? != 0 {
                return c.bad("movs destination other than a surface state operand");
            }
            let n = c.uw()?;
            let surface = surface(c, n)?;
            let offset = c.ub()?;
            return Ok((Operand::State { surface, offset }, false));
        }
        Slot::Dst | Slot::Src => {}
    }
    let tag = c.ub()?;
    match tag & 7 {
        0 => {
            let n = c.ud()?;
            let var = var_id(c, n)?;
            let row = c.ub()?;
            let col = c.ub()?;
            let r = c.uw()?;
            let (vs, w, hs) = (
                region_from((r & 15) as u8),
                region_from((r >> 4 & 15) as u8),
                region_from((r >> 8 & 15) as u8),
            );
            let m = (tag >> 3) & 7;
            if slot == Slot::Dst {
                return Ok((
                    Operand::Dst {
                        var,
                        row,
                        col,
                        hstride: hs,
                    },
                    m == 4,
                ));
            }
            let modifier = match m {
                0 => SrcMod::None,
                1 => SrcMod::Abs,
                2 => SrcMod::Neg,
                3 => SrcMod::NegAbs,
                5 => SrcMod::Not,
                _ => return c.bad("source modifier"),
            };
            Ok((
                Operand::Src {
                    var,
                    row,
                    col,
                    region: Region {
                        vstride: vs,
                        width: w,
                        hstride: hs,
                    },
                    modifier,
                },
                false,
            ))
        }
        2 => Ok((Operand::Pred(PredId(c.uw()?.wrapping_sub(1))), false)),
        5 => {
            let ty = type_from(c.ub()?).map_or_else(|| c.bad("immediate type"), Ok)?;
            let n = if ty.size() == 8 { 8 } else { 4 };
            let mut v = [0u8; 8];
            v[..n].copy_from_slice(c.take(n)?);
            Ok((
                Operand::Imm(Imm {
                    ty,
                    bits: u64::from_le_bytes(v),
                }),
                false,
            ))
        }
        k => c.bad(format!("operand class {k}")),
    }
}
