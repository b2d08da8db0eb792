//! The `.visaasm` text writer, in the dialect GenX_IR 1.0.12504 parses
//! (visa.md §2). Instruction shapes come from the opcode table
//! ([`super::inst::OpInfo`]).

use std::fmt::Write;

use super::inst::{Ext, Field, Inst, TextForm};
use super::kernel::Kernel;
use super::operand::{Imm, Operand};
use super::types::{PredCtl, Type};

/// The `.version` we write. The binary writer always emits 4.1, and
/// GenX_IR's disassembly prints the version it read, so writing the same
/// number in the text keeps the two `-dumpcommonisa` prints comparable;
/// any `N.M` parses (visa.md §2).
pub const VERSION: &str = "4.1";

/// Writes the kernel as `.visaasm` text.
pub fn write(k: &Kernel) -> String {
    let mut s = String::new();
    let _ = writeln!(s, ".version {VERSION}");
    let _ = writeln!(s, ".kernel \"{}\"", k.name);
    for v in &k.vars {
        let _ = write!(
            s,
            ".decl {} v_type=G type={} num_elts={}",
            v.name, v.ty, v.num_elts
        );
        match v.alias {
            Some((base, off)) => {
                let _ = write!(s, " alias=<{},{}>", var_name(k, base), off);
            }
            None => {
                let _ = write!(s, " align={}", v.align.name());
            }
        }
        s.push('\n');
    }
    for p in &k.preds {
        let _ = writeln!(s, ".decl {} v_type=P num_elts={}", p.name, p.num_elts);
    }
    for t in &k.surfaces {
        let _ = writeln!(s, ".decl {} v_type=T num_elts=1", t.name);
    }
    // Target="cm": the binary writer always emits this attribute (without
    // it GenX_IR's reader assumes 3d), so the text says the same.
    s.push_str(".kernel_attr Target=\"cm\"\n");
    if let Some(n) = k.simd_size {
        let _ = writeln!(s, ".kernel_attr SimdSize={n}");
    }
    for i in &k.inputs {
        let _ = writeln!(
            s,
            ".input {} offset={} size={}",
            var_name(k, i.var),
            i.offset,
            i.size
        );
    }
    for t in &k.surfaces {
        let _ = writeln!(s, ".input {} offset={} size=4", t.name, t.offset);
    }
    for inst in &k.insts {
        write_inst(&mut s, k, inst);
    }
    s
}

fn var_name(k: &Kernel, v: super::kernel::VarId) -> &str {
    k.var(v).map(|d| d.name.as_str()).unwrap_or("%null")
}

fn pred_name(k: &Kernel, p: super::kernel::PredId) -> &str {
    k.pred(p).map(|d| d.name.as_str()).unwrap_or("P0")
}

fn surface_name(k: &Kernel, t: super::kernel::Surf) -> &str {
    match t {
        super::kernel::Surf::Bss => "%bss",
        super::kernel::Surf::User(t) => {
            k.surfaces.get(t.0 as usize).map_or("<undeclared surface>", |d| d.name.as_str())
        }
    }
}

fn label_name(k: &Kernel, l: super::kernel::LabelId) -> &str {
    k.labels.get(l.0 as usize).map(|s| s.as_str()).unwrap_or("")
}

/// Writes one instruction line (with its newline).
pub fn write_inst(s: &mut String, k: &Kernel, inst: &Inst) {
    let info = inst.info();
    match info.form {
        TextForm::Label => {
            if let Some(Operand::Label(l)) = inst.operands.first() {
                let _ = writeln!(s, "{}:", label_name(k, *l));
            }
            return;
        }
        TextForm::Fence => {
            let f = match inst.ext {
                Ext::Fence(f) => f,
                _ => Default::default(),
            };
            let _ = writeln!(s, "    {}", f.text());
            return;
        }
        TextForm::LscSlm => {
            write_lsc_slm(s, k, inst);
            return;
        }
        TextForm::Normal => {}
    }
    s.push_str("    ");
    if info.has_pred() {
        write_pred(s, k, inst);
    }
    s.push_str(info.mnemonic);
    if info.fields.contains(&Field::Ext) {
        match inst.ext {
            Ext::Relop(r) => {
                let _ = write!(s, ".{}", r.name());
            }
            Ext::Atomic(op, w) => {
                // predec has no text spelling; the validator reports it.
                let _ = write!(s, ".{}{}", op.text().unwrap_or("predec"), w.suffix());
            }
            Ext::Blocks(b) => {
                let _ = write!(s, ".{}.{}", b.block_bytes, b.num_blocks);
            }
            Ext::Scaled(n) => {
                let _ = write!(s, ".{n}");
            }
            Ext::Channels(ch) => {
                let _ = write!(s, ".{}", ch.text());
            }
            Ext::Fence(_) | Ext::None => {}
        }
    }
    if inst.sat {
        s.push_str(".sat");
    }
    if info.has_exec() {
        let _ = write!(s, " {}", inst.exec);
    }
    if info.fields.contains(&Field::Slm) {
        s.push_str(" %slm");
    }
    for &i in info.text_order {
        s.push(' ');
        match inst.operands.get(i) {
            Some(o) => write_operand(s, k, o),
            None => s.push_str("<missing>"),
        }
    }
    s.push('\n');
}

/// `(P) `, `(!P.any) `, ...: `inst`'s predicate, if it has one.
fn write_pred(s: &mut String, k: &Kernel, inst: &Inst) {
    if let Some(p) = inst.pred {
        let bang = if p.invert { "!" } else { "" };
        let ctl = match p.ctl {
            PredCtl::Normal => "",
            PredCtl::Any => ".any",
            PredCtl::All => ".all",
        };
        let _ = write!(s, "({bang}{}{ctl}) ", pred_name(k, p.pred));
    }
}

/// `[(P)] lsc_atomic_<op>.slm (Mx, n) dst:dNN flat[addrs]:a32 src1 src2`; a
/// raw operand is `V` at offset 0, `V.off` past it (both parse, measured).
fn write_lsc_slm(s: &mut String, k: &Kernel, inst: &Inst) {
    let (op, w) = match inst.ext {
        Ext::Atomic(op, w) => (op, w),
        _ => (super::inst::AtomicOp::CmpXchg, super::inst::AtomicWidth::W64),
    };
    s.push_str("    ");
    write_pred(s, k, inst);
    let name = op.lsc().map_or("<no lsc op>", |(_, n)| n);
    let raw = |o: Option<&Operand>| match o {
        Some(Operand::Raw { var: Some(v), offset: 0 }) => var_name(k, *v).to_string(),
        Some(Operand::Raw { var: Some(v), offset }) => format!("{}.{offset}", var_name(k, *v)),
        Some(Operand::Raw { var: None, .. }) => "%null".to_string(),
        _ => "<missing>".to_string(),
    };
    let o = |i: usize| raw(inst.operands.get(i));
    let _ = writeln!(
        s,
        "lsc_atomic_{name}.slm {} {}:{} flat[{}]:a32 {} {}",
        inst.exec,
        o(0),
        super::lsc::data_suffix(w),
        o(1),
        o(2),
        o(3)
    );
}

fn write_operand(s: &mut String, k: &Kernel, o: &Operand) {
    match *o {
        Operand::Dst {
            var,
            row,
            col,
            hstride,
        } => {
            let _ = write!(s, "{}({},{})<{}>", var_name(k, var), row, col, hstride);
        }
        Operand::Src {
            var,
            row,
            col,
            region,
            modifier,
        } => {
            let _ = write!(
                s,
                "{}{}({},{})<{};{},{}>",
                modifier.prefix(),
                var_name(k, var),
                row,
                col,
                region.vstride,
                region.width,
                region.hstride
            );
        }
        Operand::Imm(i) => write_imm(s, i),
        Operand::Pred(p) => s.push_str(pred_name(k, p)),
        Operand::Raw { var: None, offset } => {
            let _ = write!(s, "%null.{offset}");
        }
        Operand::Raw {
            var: Some(v),
            offset,
        } => {
            let _ = write!(s, "{}.{}", var_name(k, v), offset);
        }
        Operand::Label(l) => s.push_str(label_name(k, l)),
        Operand::Surface(t) => s.push_str(surface_name(k, t)),
        Operand::State { surface, offset } => {
            let _ = write!(s, "{}({offset})", surface_name(k, surface));
        }
    }
}

/// Immediates: integers in hex (signed types as a signed decimal), floats
/// by their IEEE bits in hex (`0x3f800000:f`, visa.md §2; for `df` too:
/// GenX_IR reads `0x4000000000000000:df` as 2.0, measured), so the text
/// carries exactly the bits the binary stores, NaNs included.
fn write_imm(s: &mut String, i: Imm) {
    let b = i.masked_bits();
    let _ = match i.ty {
        Type::D => write!(s, "{}:d", b as u32 as i32),
        Type::W => write!(s, "{}:w", b as u16 as i16),
        Type::B => write!(s, "{}:b", b as u8 as i8),
        Type::Q => write!(s, "{}:q", b as i64),
        t => write!(s, "0x{:x}:{}", b, t.name()),
    };
}
