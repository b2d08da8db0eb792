//! Writes one whole-IR kernel: each thread loads its operands from input buffers (or takes
//! constants), runs the instruction under test, and stores the result to its element of the
//! output buffer; the launch part of its run line holds the inputs.

use atomc::ir::Type;
use std::fmt::Write;

/// An operand of the instruction under test.
#[derive(Clone, Debug)]
pub enum Arg {
    /// From an input buffer, one element per thread (bit patterns). `pred` inputs travel as
    /// `i32` 0/1 and are compared with zero.
    In(Type, Vec<u64>),
    /// A constant (`iconst`/`fconst` of these bits).
    Const(Type, u64),
}

/// How the kernel around the instruction is laid out.
#[derive(Clone, Debug, Default)]
pub struct Frame {
    /// Threads when no input sets the count.
    pub threads: usize,
    /// Bytes between output elements (default: the element size), a `ptr_add` scale.
    pub out_stride: Option<u32>,
    /// Bytes of one shared variable `sm0`.
    pub shared: Option<u32>,
    /// Store a `pred` result through a `brif` (two stores) instead of a `select`.
    pub branch: bool,
    /// A 3-D launch `(grid, block)`; the element index is the global linear thread index.
    pub dims: Option<([u32; 3], [u32; 3])>,
    /// Zero elements after each input's, for accesses past the thread's own element.
    pub pad: usize,
}

/// The kernel text under construction.
pub struct Kb {
    lines: Vec<String>,
    next: u32,
    /// `thread_id.x` (or the linear index with [`Frame::dims`]) as `i32` and `i64`.
    pub tid: String,
    pub t64: String,
    /// Each input's element address for this thread.
    pub ptrs: Vec<String>,
}

impl Kb {
    /// Defines a value: `vN = rhs`.
    pub fn def(&mut self, rhs: impl std::fmt::Display) -> String {
        let v = format!("v{}", self.next);
        self.next += 1;
        self.lines.push(format!("    {v} = {rhs}"));
        v
    }

    /// A line without a result.
    pub fn stmt(&mut self, s: impl std::fmt::Display) {
        self.lines.push(format!("    {s}"));
    }

    /// A constant of `ty` with these bits.
    pub fn constant(&mut self, ty: Type, bits: u64) -> String {
        if ty.is_int() {
            let w = ty.bits();
            let signed = ((bits << (64 - w)) as i64) >> (64 - w);
            self.def(format!("iconst.{ty} {signed}"))
        } else {
            self.def(format!("fconst.{ty} 0x{bits:0width$x}", width = ty.bits() as usize / 4))
        }
    }
}

/// A kernel's text and the launch part of its run line (no checks).
pub struct Built {
    pub text: String,
    pub launch: String,
}

/// The run line's element type of `ty` (`pred` travels as `i32`).
pub fn elem(ty: Type) -> Type {
    if ty == Type::Pred {
        Type::I32
    } else {
        ty
    }
}

/// Builds the kernel: `body` gets the operand values and returns the result value and type.
pub fn build(args: &[Arg], frame: &Frame, body: impl FnOnce(&mut Kb, &[String]) -> (String, Type)) -> Built {
    let ins: Vec<(Type, &Vec<u64>)> =
        args.iter().filter_map(|a| if let Arg::In(t, v) = a { Some((*t, v)) } else { None }).collect();
    let n = ins.first().map_or(frame.threads.max(1), |(_, v)| v.len());
    let params = ins.len() + 1;
    let mut kb = Kb { lines: Vec::new(), next: params as u32, tid: String::new(), t64: String::new(), ptrs: Vec::new() };
    kb.tid = match frame.dims {
        None => kb.def("thread_id.x"),
        Some(_) => linear_index(&mut kb),
    };
    kb.t64 = kb.def(format!("uextend.i64 {}", kb.tid));
    let mut vals = Vec::new();
    let mut input = 0;
    for a in args {
        match a {
            Arg::In(ty, _) => {
                let et = elem(*ty);
                let size = kb.def(format!("iconst.i64 {}", et.bytes()));
                let off = kb.def(format!("imul {}, {size}", kb.t64));
                let p = kb.def(format!("ptr_add v{input}, {off}"));
                kb.ptrs.push(p.clone());
                let x = kb.def(format!("load.{et} {p}"));
                vals.push(if *ty == Type::Pred {
                    let zero = kb.def("iconst.i32 0");
                    kb.def(format!("icmp ne {x}, {zero}"))
                } else {
                    x
                });
                input += 1;
            }
            Arg::Const(ty, bits) => vals.push(kb.constant(*ty, *bits)),
        }
    }
    let (result, rty) = body(&mut kb, &vals);
    let ety = elem(rty);
    let stride = frame.out_stride.unwrap_or(ety.bytes());
    let s = kb.def(format!("iconst.i64 {stride}"));
    let off = kb.def(format!("imul {}, {s}", kb.t64));
    let out = kb.def(format!("ptr_add v{input}, {off}"));
    let mut tail = String::new();
    if rty == Type::Pred && frame.branch {
        kb.stmt(format!("brif {result}, block1, block2"));
        // Both arms join again, so the stored value is a block parameter.
        for (b, v) in [(1, 1), (2, 0)] {
            let _ = writeln!(tail, "block{b}:\n    v{} = iconst.i32 {v}\n    jump block3(v{})", kb.next, kb.next);
            kb.next += 1;
        }
        let _ = writeln!(tail, "block3(v{0}: i32):\n    store v{0}, {out}\n    return", kb.next);
    } else {
        let stored = if rty == Type::Pred {
            let (one, zero) = (kb.def("iconst.i32 1"), kb.def("iconst.i32 0"));
            kb.def(format!("select {result}, {one}, {zero}"))
        } else {
            result
        };
        kb.stmt(format!("store {stored}, {out}"));
        kb.stmt("return");
    }
    let sig = vec!["ptr.global"; params].join(", ");
    let entry: Vec<String> = (0..params).map(|i| format!("v{i}: ptr.global")).collect();
    let mut text = format!("function %k({sig}) {{\n");
    if let Some(bytes) = frame.shared {
        let _ = writeln!(text, "    sm0 = shared {bytes}, align 8");
    }
    let _ = writeln!(text, "block0({}):", entry.join(", "));
    for l in &kb.lines {
        let _ = writeln!(text, "{l}");
    }
    text += &tail;
    text += "}\n";

    let threads = frame.dims.map_or(n, |(g, b)| (g.iter().product::<u32>() * b.iter().product::<u32>()) as usize);
    let mut launch = match frame.dims {
        None => format!("block {n}"),
        Some((g, b)) => format!("grid {}x{}x{} block {}x{}x{}", g[0], g[1], g[2], b[0], b[1], b[2]),
    };
    if let Some(bytes) = frame.shared {
        let _ = write!(launch, " shared {bytes}");
    }
    let names: Vec<String> = (0..ins.len()).map(|i| format!("a{i}")).chain(["o".to_string()]).collect();
    let _ = write!(launch, " args({})", names.join(", "));
    for (i, (ty, vals)) in ins.iter().enumerate() {
        let mut lits: Vec<String> = vals.iter().map(|b| format!("{b:#x}")).collect();
        lits.extend(std::iter::repeat_n("0".to_string(), frame.pad));
        let _ = write!(launch, " a{i}: {}[{}] = [{}]", elem(*ty), lits.len(), lits.join(", "));
    }
    let out_len = threads * stride as usize / ety.bytes() as usize;
    let _ = write!(launch, " o: {ety}[{}]", out_len.max(1));
    Built { text, launch }
}

/// The global linear thread index from the special registers (x fastest).
fn linear_index(kb: &mut Kb) -> String {
    let mut regs = |p: &str| ["x", "y", "z"].map(|d| kb.def(format!("{p}.{d}")));
    let [tx, ty, tz] = regs("thread_id");
    let [bx, by, bz] = regs("block_id");
    let [dx, dy, dz] = regs("block_dim");
    let [gx, gy, _gz] = regs("grid_dim");
    let t = kb.def(format!("imul {tz}, {dy}"));
    let t = kb.def(format!("iadd {t}, {ty}"));
    let t = kb.def(format!("imul {t}, {dx}"));
    let t = kb.def(format!("iadd {t}, {tx}"));
    let b = kb.def(format!("imul {bz}, {gy}"));
    let b = kb.def(format!("iadd {b}, {by}"));
    let b = kb.def(format!("imul {b}, {gx}"));
    let b = kb.def(format!("iadd {b}, {bx}"));
    let size = kb.def(format!("imul {dx}, {dy}"));
    let size = kb.def(format!("imul {size}, {dz}"));
    let first = kb.def(format!("imul {b}, {size}"));
    kb.def(format!("iadd {first}, {t}"))
}
