//! The text printer: [`Function`] → `.atom` text (grammar in `docs/ir.md`).
//!
//! Values print as `vN` and blocks as `blockN` by entity index, so the text
//! of a parsed, densely numbered file is reproduced byte for byte. Every
//! spelling comes from the keyword enums, [`Type`]'s `Display` and
//! [`InstData::opcode_name`]; this file writes none of its own.
//!
//! The printer never panics, even on a malformed function built in code
//! (dangling values print by number, unknown types as `?`).

use crate::atomics::SurfaceRef;
use crate::instructions::{Address, BlockCall, InstData};
use crate::parse::words;
use crate::{Function, Inst, SurfaceAccess, Value};
use std::fmt::{self, Write};

/// Prints a function in the text format, ending with a newline.
pub fn print_function(func: &Function) -> String {
    let mut out = String::new();
    // Writing into a String cannot fail.
    let _ = write_function(&mut out, func);
    out
}

/// Writes a function in the text format.
pub fn write_function(w: &mut dyn Write, func: &Function) -> fmt::Result {
    write!(w, "{} %{}(", words::FUNCTION, func.name)?;
    let params: &[Value] = func.entry_block().and_then(|b| func.blocks.get(b)).map_or(&[], |d| &d.params);
    list(w, params.iter().map(|&v| TypeOf(func, v)))?;
    w.write_str(")")?;
    if !func.returns.is_empty() {
        w.write_str(" -> ")?;
        list(w, func.returns.iter())?;
    }
    w.write_str(" {\n")?;
    for (var, d) in func.shared_vars.iter() {
        writeln!(w, "    {var} = {} {}, {} {}", words::SHARED, d.size, words::ALIGN, d.align)?;
    }
    for &block in &func.layout {
        let Some(data) = func.blocks.get(block) else {
            continue;
        };
        write!(w, "{block}")?;
        if !data.params.is_empty() {
            w.write_str("(")?;
            list(w, data.params.iter().map(|&v| Param(func, v)))?;
            w.write_str(")")?;
        }
        w.write_str(":\n")?;
        for &inst in &data.insts {
            w.write_str("    ")?;
            write_inst(w, func, inst)?;
            w.write_str("\n")?;
        }
    }
    w.write_str("}\n")
}

/// Writes one instruction (with its `vN = `, without indentation or
/// newline), e.g. for diagnostics.
pub fn write_inst(w: &mut dyn Write, func: &Function, inst: Inst) -> fmt::Result {
    let Some(data) = func.insts.get(inst) else {
        return write!(w, "{inst}");
    };
    if let Some(Some(v)) = func.results.get(inst) {
        write!(w, "{v} = ")?;
    }
    let name = data.opcode_name();
    match data {
        InstData::Iconst { ty, imm } => write!(w, "{name}.{ty} {imm}"),
        InstData::Fconst { ty, bits } => {
            write!(w, "{name}.{ty} {}", crate::parse::format_float(*ty, *bits))
        }
        InstData::Unary { arg, .. } => write!(w, "{name} {arg}"),
        InstData::Binary { args: [a, b], .. } => write!(w, "{name} {a}, {b}"),
        InstData::Ternary { args: [a, b, c], .. } => write!(w, "{name} {a}, {b}, {c}"),
        InstData::Bfi { args: [x, base, pos, len] } => write!(w, "{name} {x}, {base}, {pos}, {len}"),
        InstData::ActiveMask => w.write_str(name),
        InstData::Ballot { cond: a } | InstData::Vote { arg: a, .. } | InstData::MatchAny { arg: a } => {
            write!(w, "{name} {a}")
        }
        InstData::Shuffle { mode, args: [x, y] } => write!(w, "{name} {mode} {x}, {y}"),
        InstData::Reduce { op, arg } => write!(w, "{name} {op} {arg}"),
        InstData::Icmp { cond, args: [a, b] } => write!(w, "{name} {cond} {a}, {b}"),
        InstData::Fcmp { cond, args: [a, b] } => write!(w, "{name} {cond} {a}, {b}"),
        InstData::Select { cond, args: [a, b] } => write!(w, "{name} {cond}, {a}, {b}"),
        InstData::Convert { to, arg, .. } => write!(w, "{name}.{to} {arg}"),
        InstData::PtrAdd { ptr, offset } => write!(w, "{name} {ptr}, {offset}"),
        InstData::PtrToGeneric { ptr } => write!(w, "{name} {ptr}"),
        InstData::Special { .. } | InstData::Barrier => w.write_str(name),
        InstData::SharedAddr { var } => write!(w, "{name} {var}"),
        InstData::Load { ty, addr } => write!(w, "{name}.{ty} {}", Addr(*addr)),
        InstData::Store { value, addr } => write!(w, "{name} {value}, {}", Addr(*addr)),
        InstData::AtomicRmw { op, ty, order, scope, addr, arg } => {
            write!(w, "{name}.{ty} {op} {order} {scope} {}, {arg}", Addr(*addr))
        }
        InstData::AtomicCas { ty, order, scope, addr, expected, replacement } => {
            write!(w, "{name}.{ty} {order} {scope} {}, {expected}, {replacement}", Addr(*addr))
        }
        InstData::AtomicLoad { ty, order, scope, addr } => write!(w, "{name}.{ty} {order} {scope} {}", Addr(*addr)),
        InstData::AtomicStore { ty, order, scope, addr, value } => {
            write!(w, "{name}.{ty} {order} {scope} {}, {value}", Addr(*addr))
        }
        InstData::Fence { order, scope } => write!(w, "{name} {order} {scope}"),
        InstData::SurfaceRmw { op, ty, order, scope, access, coords, arg } => {
            write!(w, "{name}.{ty} {op} {} {order} {scope} {} [", Modes(access), Surf(access.surface))?;
            list(w, coords.iter())?;
            write!(w, "], {arg}")
        }
        InstData::SurfaceCas { ty, order, scope, access, coords, expected, replacement } => {
            write!(w, "{name}.{ty} {} {order} {scope} {} [", Modes(access), Surf(access.surface))?;
            list(w, coords.iter())?;
            write!(w, "], {expected}, {replacement}")
        }
        InstData::Jump { dest } => write!(w, "{name} {}", Call(dest)),
        InstData::Brif { cond, then_dest, else_dest } => {
            write!(w, "{name} {cond}, {}, {}", Call(then_dest), Call(else_dest))
        }
        InstData::Return { args } => {
            w.write_str(name)?;
            if !args.is_empty() {
                w.write_str(" ")?;
                list(w, args.iter())?;
            }
            Ok(())
        }
    }
}

/// The text of one instruction, e.g. `v7 = atomic_rmw.i32 add relaxed gpu v6, v1`.
pub fn inst_to_string(func: &Function, inst: Inst) -> String {
    let mut s = String::new();
    let _ = write_inst(&mut s, func, inst);
    s
}

fn list<T: fmt::Display>(w: &mut dyn Write, items: impl Iterator<Item = T>) -> fmt::Result {
    for (i, item) in items.enumerate() {
        if i > 0 {
            w.write_str(", ")?;
        }
        write!(w, "{item}")?;
    }
    Ok(())
}

/// A value's type, `?` for a dangling value.
struct TypeOf<'f>(&'f Function, Value);

impl fmt::Display for TypeOf<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.values.get(self.1).map(|d| d.ty) {
            Some(ty) => fmt::Display::fmt(&ty, f),
            None => f.write_str("?"),
        }
    }
}

/// `vN: T`.
struct Param<'f>(&'f Function, Value);

impl fmt::Display for Param<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.1, TypeOf(self.0, self.1))
    }
}

/// `vN`, `vN+8`, `vN-4`.
struct Addr(Address);

impl fmt::Display for Addr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.offset {
            0 => write!(f, "{}", self.0.ptr),
            off if off > 0 => write!(f, "{}+{off}", self.0.ptr),
            off => write!(f, "{}-{}", self.0.ptr, off.unsigned_abs()),
        }
    }
}

/// `dim addressing clamp`.
struct Modes<'a>(&'a SurfaceAccess);

impl fmt::Display for Modes<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.0.dim, self.0.addressing, self.0.clamp)
    }
}

/// `slot N` or `vN`.
struct Surf(SurfaceRef);

impl fmt::Display for Surf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            SurfaceRef::Slot(n) => write!(f, "{} {n}", words::SLOT),
            SurfaceRef::Handle(v) => write!(f, "{v}"),
        }
    }
}

/// `blockN` or `blockN(args)`.
struct Call<'a>(&'a BlockCall);

impl fmt::Display for Call<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0.block)?;
        if !self.0.args.is_empty() {
            f.write_str("(")?;
            for (i, a) in self.0.args.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{a}")?;
            }
            f.write_str(")")?;
        }
        Ok(())
    }
}
