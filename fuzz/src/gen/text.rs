//! Writes IR text with fresh value and block names. The generator emits text rather than
//! building a `Function` directly: the text is what a failure report and a reproducer filetest
//! show, and parsing it back runs the same parser and verifier a user's kernel meets.
//!
//! Blocks are written one after the other, each finished (by a branch) before the next one
//! starts, so nested `if`s and loops come out as a valid linear layout.

use std::fmt::Write;

/// The value types the generator works with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    I32,
    I64,
    F32,
    Pred,
    PtrGlobal,
    PtrShared,
    PtrGeneric,
}

impl Ty {
    /// The IR spelling.
    pub fn name(self) -> &'static str {
        match self {
            Ty::I32 => "i32",
            Ty::I64 => "i64",
            Ty::F32 => "f32",
            Ty::Pred => "pred",
            Ty::PtrGlobal => "ptr.global",
            Ty::PtrShared => "ptr.shared",
            Ty::PtrGeneric => "ptr.generic",
        }
    }

    /// Bytes in memory (for the three data types).
    pub fn bytes(self) -> u32 {
        match self {
            Ty::I64 | Ty::PtrGlobal | Ty::PtrGeneric => 8,
            _ => 4,
        }
    }
}

/// A value: its number and type. `uniform` records whether every thread of a block holds the
/// same value, which decides where a branch on it may contain a barrier.
#[derive(Clone, Copy, Debug)]
pub struct Val {
    pub id: u32,
    pub ty: Ty,
    pub uniform: bool,
}

impl std::fmt::Display for Val {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "v{}", self.id)
    }
}

/// The function text under construction.
pub struct Text {
    out: String,
    next_value: u32,
    next_block: u32,
}

impl Text {
    /// Starts `function %name(params)` with its entry block; returns the parameters.
    pub fn new(name: &str, params: &[Ty]) -> (Text, Vec<Val>) {
        let mut t = Text {
            out: String::new(),
            next_value: 0,
            next_block: 0,
        };
        let sig: Vec<&str> = params.iter().map(|p| p.name()).collect();
        let _ = writeln!(t.out, "function %{name}({}) {{", sig.join(", "));
        let entry = t.new_block();
        let vals = t.start_block(entry, params, true);
        (t, vals)
    }

    /// Reserves a block number (written later by [`start_block`](Self::start_block)).
    pub fn new_block(&mut self) -> u32 {
        self.next_block += 1;
        self.next_block - 1
    }

    /// Writes a block header with fresh parameters of the given types.
    pub fn start_block(&mut self, block: u32, params: &[Ty], uniform: bool) -> Vec<Val> {
        let vals: Vec<Val> = params.iter().map(|&ty| self.fresh(ty, uniform)).collect();
        if vals.is_empty() {
            let _ = writeln!(self.out, "block{block}:");
        } else {
            let ps: Vec<String> = vals
                .iter()
                .map(|v| format!("{v}: {}", v.ty.name()))
                .collect();
            let _ = writeln!(self.out, "block{block}({}):", ps.join(", "));
        }
        vals
    }

    fn fresh(&mut self, ty: Ty, uniform: bool) -> Val {
        self.next_value += 1;
        Val {
            id: self.next_value - 1,
            ty,
            uniform,
        }
    }

    /// `vN = rhs`, a new value of type `ty`.
    pub fn def(&mut self, ty: Ty, uniform: bool, rhs: impl std::fmt::Display) -> Val {
        let v = self.fresh(ty, uniform);
        let _ = writeln!(self.out, "    {v} = {rhs}");
        v
    }

    /// An instruction without a result.
    pub fn stmt(&mut self, s: impl std::fmt::Display) {
        let _ = writeln!(self.out, "    {s}");
    }

    /// `iconst` of `ty` (an integer type), uniform.
    pub fn iconst(&mut self, ty: Ty, n: i64) -> Val {
        self.def(ty, true, format_args!("iconst.{} {n}", ty.name()))
    }

    /// `jump blockN(args)`.
    pub fn jump(&mut self, block: u32, args: &[Val]) {
        let a = call_args(args);
        self.stmt(format_args!("jump block{block}{a}"));
    }

    /// `brif c, blockA(args), blockB(args)`.
    pub fn brif(&mut self, c: Val, then: (u32, &[Val]), els: (u32, &[Val])) {
        let (ta, ea) = (call_args(then.1), call_args(els.1));
        self.stmt(format_args!(
            "brif {c}, block{}{ta}, block{}{ea}",
            then.0, els.0
        ));
    }

    /// Ends the function with `return` and the closing brace.
    pub fn finish(mut self) -> String {
        self.stmt("return");
        self.out.push_str("}\n");
        self.out
    }
}

fn call_args(args: &[Val]) -> String {
    if args.is_empty() {
        String::new()
    } else {
        let a: Vec<String> = args.iter().map(|v| v.to_string()).collect();
        format!("({})", a.join(", "))
    }
}
