//! `--emit ptx`: an atomc IR kernel as PTX text that `ptxas` (CUDA 11.8 and 13.x) accepts.
//!
//! The point of this output is comparison: compile the same kernel with atomc and with `ptxas`,
//! and diff the SASS. So the translation is deliberately literal: one PTX instruction (or a short
//! fixed sequence) per IR instruction, every SSA value in its own virtual register, block
//! parameters passed through `mov`s on each edge. `ptxas` does the optimizing.
//!
//! # What the PTX looks like
//!
//! * `.version 7.8` (the newest PTX ISA that CUDA 11.8 reads, and the first that knows sm_90),
//!   `.target sm_NN`, `.address_size 64`, one `.visible .entry`.
//! * Parameters: `.param .u64` for global/generic pointers, surface handles and 64-bit values,
//!   `.param .u32` for shared pointers (32-bit offsets into the block's shared window) and 32-bit
//!   values, `.u16`/`.u8` for narrow ints, `.f32`/`.f64` for floats, `.u8` for a `pred` (zero is
//!   false). A global pointer parameter is
//!   converted with `cvta.to.global.u64`, because the launch passes generic addresses.
//! * Registers: `%p` pred, `%h` 16-bit (`i8`, `i16`, `f16`), `%r` 32-bit (`i32`, `f16x2`, `bf16x2`,
//!   shared pointers), `%rd` 64-bit (`i64`, global/generic pointers, surfaces), `%f` f32,
//!   `%fd` f64; value `vN` lives in register number `N` of its class. An `i8` lives in a 16-bit
//!   register whose upper byte is unspecified; instructions that read those bits normalize first.
//!
//! # Atomics, orders and scopes (see `ptx/memory.rs` for the details)
//!
//! * sm_70 and newer: `atom.<sem>.<scope>.<space>.<op>.<type>` with `relaxed`, `acquire`,
//!   `release`, `acq_rel`; `seq_cst` is `fence.sc.<scope>` followed by the `acquire` form (the
//!   mapping the CUDA C++ library uses). Atomic loads/stores are `ld.relaxed|acquire` /
//!   `st.relaxed|release`; fences `fence.acq_rel|sc.<scope>`.
//! * Below sm_70 PTX has no `.sem` qualifiers (and below sm_60 no `.scope` on `atom`): orders become
//!   `membar.cta|gl|sys` before (release) and after (acquire) the access, atomic loads and stores
//!   are `ld.volatile`/`st.volatile`. A `sys`-scope read-modify-write on sm_50 is rejected: PTX
//!   only has device-scope `atom` there.
//! * Ops PTX lacks for a type on a target (float min/max, `f64` add below sm_60, packed-half add
//!   below sm_60, `bf16x2` add below sm_90, every 16-bit integer op) become a CAS loop written in
//!   PTX. 8-bit atomics, and 16-bit ones below sm_70 (no `atom.cas.b16`), are CAS loops on the
//!   enclosing aligned 32-bit word (`ptx/subword.rs`). Below sm_80 (no `cvt.rn.bf16.f32`) a `bf16x2`
//!   add rounds each lane's f32 sum to bf16 with integer arithmetic.
//! * Surfaces: PTX has no surface atomic with a result. A `surface_rmw` whose result is unused and
//!   whose op is `add`, `smin`/`umin`, `smax`/`umax`, `and` or `or` (64-bit: `add` only, as
//!   ptxas accepts at PTX ISA 7.8) becomes `sured.b`; element
//!   addressing is turned into byte addressing; a bound slot becomes a module `.surfref`. Every
//!   other surface atomic (used result, `surface_cas`, other ops, array and buffer shapes) is
//!   rejected with an error naming it.

mod alu;
mod lanes;
mod memory;
mod regs;
mod subword;
mod surface;

use atomc_ir::{Block, Function, InstData, Type, Value};
use regs::Regs;
use std::fmt::Write as _;

/// Why a function cannot be written as PTX.
#[derive(Debug, thiserror::Error)]
pub enum PtxError {
    /// The target number is outside what this emitter knows.
    #[error("PTX emission supports sm_50 to sm_90, not sm_{0}")]
    BadTarget(u32),
    /// The function returns values; only kernels become PTX entries.
    #[error("function `{0}` returns values; only kernels (no return values) can be emitted as PTX")]
    NotAKernel(String),
    /// The function name cannot be a PTX identifier.
    #[error("function name `{0}` is not a valid PTX identifier")]
    BadName(String),
    /// The function fails the IR verifier.
    #[error("invalid IR: {0}")]
    Invalid(String),
    /// Something PTX (on this target) cannot express; names the instruction and the target.
    #[error("{what} cannot be emitted as PTX for sm_{sm}: {why}")]
    Unsupported {
        /// The instruction or construct, e.g. `atomic_rmw.i8 add`.
        what: String,
        /// The target.
        sm: u32,
        /// Why not, and what to do instead.
        why: String,
        /// Where the instruction is (unknown for a construct of the whole function).
        loc: atomc_ir::SrcLoc,
        /// The instruction (none for a construct of the whole function).
        inst: Option<atomc_ir::Inst>,
    },
}

/// Translates a kernel into PTX for `sm_<sm>` (50 to 90).
///
/// The function is verified first; the result is the complete text of a PTX module with one
/// entry named after the function.
pub fn emit_ptx(func: &Function, sm: u32) -> Result<String, PtxError> {
    emit_ptx_module(std::slice::from_ref(func), sm)
}

/// Translates several kernels (e.g. every function of one `.atom` file) into one PTX module with
/// one entry each. Fails on the first function that cannot be emitted.
pub fn emit_ptx_module(funcs: &[Function], sm: u32) -> Result<String, PtxError> {
    if !(50..=90).contains(&sm) {
        return Err(PtxError::BadTarget(sm));
    }
    let mut entries = String::new();
    let mut surfrefs: Vec<u16> = Vec::new();
    let mut any_shared = false;
    for func in funcs {
        let e = entry(func, sm)?;
        any_shared |= e.shared_base.is_some();
        for slot in &e.surfrefs {
            if !surfrefs.contains(slot) {
                surfrefs.push(*slot);
            }
        }
        entries.push('\n');
        entries.push_str(&e.finish());
    }
    let mut out = String::new();
    let names: Vec<&str> = funcs.iter().map(|f| f.name.as_str()).collect();
    let _ = writeln!(out, "//");
    let _ = writeln!(out, "// Generated by atomc from %{}", names.join(", %"));
    let _ = writeln!(out, "//");
    let _ = writeln!(out);
    let _ = writeln!(out, ".version 7.8");
    let _ = writeln!(out, ".target sm_{sm}");
    let _ = writeln!(out, ".address_size 64");
    if !surfrefs.is_empty() {
        let _ = writeln!(out);
    }
    for slot in &surfrefs {
        let _ = writeln!(out, ".global .surfref atomc_surface_{slot};");
    }
    if any_shared {
        let _ = writeln!(out);
        for f in funcs.iter().filter(|f| !f.shared_vars.is_empty()) {
            let bytes = f.shared_layout().static_bytes;
            let _ = writeln!(out, ".shared .align 16 .b8 {}[{bytes}];", static_shared_symbol(f));
        }
        let _ = writeln!(out, ".extern .shared .align 16 .b8 {SHARED_SYMBOL}[];");
    }
    out.push_str(&entries);
    Ok(out)
}

/// Checks and translates one kernel into its `.entry` text (in the returned emitter).
fn entry(func: &Function, sm: u32) -> Result<Emitter<'_>, PtxError> {
    if !func.is_kernel() {
        return Err(PtxError::NotAKernel(func.name.clone()));
    }
    if !is_ptx_identifier(&func.name) {
        return Err(PtxError::BadName(func.name.clone()));
    }
    atomc_ir::verify::verify(func)
        .map_err(|diags| PtxError::Invalid(diags.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("; ")))?;
    let mut e = Emitter {
        func,
        sm,
        regs: Regs::default(),
        body: String::new(),
        labels: 0,
        surfrefs: Vec::new(),
        shared_base: None,
        cur_loc: Default::default(),
        cur_inst: None,
    };
    e.function_body()?;
    Ok(e)
}

fn is_ptx_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c.is_ascii_alphabetic() || c == '_' => {}
        _ => return false,
    }
    chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// State while writing one kernel.
pub(crate) struct Emitter<'a> {
    pub(crate) func: &'a Function,
    pub(crate) sm: u32,
    pub(crate) regs: Regs,
    /// The instructions, indented, one per line.
    pub(crate) body: String,
    /// Counter for internal labels (CAS loops, branch edges).
    labels: u32,
    /// Surface slots used, declared as module-scope `.surfref`s.
    pub(crate) surfrefs: Vec<u16>,
    /// The register holding the address of the launch's dynamic shared memory, when the kernel
    /// addresses shared memory (see [`SHARED_SYMBOL`]).
    pub(crate) shared_base: Option<String>,
    /// The source location of the instruction being emitted, for refusals.
    pub(crate) cur_loc: atomc_ir::SrcLoc,
    /// The instruction being translated.
    pub(crate) cur_inst: Option<atomc_ir::Inst>,
}

/// The module's dynamic shared memory array. An IR shared pointer is a byte offset into the
/// launch's dynamic shared memory, and a PTX `.shared` address is a window address: the two
/// differ by this array's address (0x400 on sm_90, where the first KiB is reserved; 0 on
/// sm_50), so every shared access adds it, as atomc's own SASS adds its window base.
pub const SHARED_SYMBOL: &str = "atomc_shared";

impl<'a> Emitter<'a> {
    /// Appends one instruction line (the `;` is added).
    pub(crate) fn line(&mut self, text: impl AsRef<str>) {
        let _ = writeln!(self.body, "\t{};", text.as_ref());
    }

    /// Appends a label line.
    pub(crate) fn label(&mut self, name: &str) {
        let _ = writeln!(self.body, "{name}:");
    }

    /// A fresh internal label.
    pub(crate) fn new_label(&mut self, what: &str) -> String {
        self.labels += 1;
        format!("$L__{what}{}", self.labels)
    }

    /// The register of a value.
    pub(crate) fn reg(&mut self, v: Value) -> String {
        let ty = self.func.value_type(v);
        self.regs.value(v, ty)
    }

    pub(crate) fn ty(&self, v: Value) -> Type {
        self.func.value_type(v)
    }

    pub(crate) fn unsupported(&self, what: impl Into<String>, why: impl Into<String>) -> PtxError {
        PtxError::Unsupported {
            what: what.into(),
            sm: self.sm,
            why: why.into(),
            loc: self.cur_loc,
            inst: self.cur_inst,
        }
    }

    fn block_label(b: Block) -> String {
        format!("$L__{b}")
    }

    fn function_body(&mut self) -> Result<(), PtxError> {
        let func = self.func;
        let Some(entry) = func.entry_block() else {
            return Err(PtxError::Invalid("the function has no blocks".into()));
        };
        // Kernel parameters: load each into its value's register.
        for (i, &v) in func.blocks[entry].params.iter().enumerate() {
            let ty = self.ty(v);
            let (pty, _) = regs::param_type(ty);
            let r = self.reg(v);
            let name = format!("{}_param_{i}", func.name);
            match ty {
                Type::Ptr(atomc_ir::AddrSpace::Global) => {
                    self.line(format!("ld.param.u64 {r}, [{name}]"));
                    self.line(format!("cvta.to.global.u64 {r}, {r}"));
                }
                Type::Pred => {
                    // A predicate parameter travels as a byte: zero is false.
                    let t = self.regs.temp_class(regs::Class::B16);
                    self.line(format!("ld.param.u8 {t}, [{name}]"));
                    self.line(format!("setp.ne.b16 {r}, {t}, 0"));
                }
                _ => self.line(format!("ld.param{pty} {r}, [{name}]")),
            }
        }
        // Declared variables are referenced even when nothing accesses them, so that ptxas
        // keeps (allocates) them as atomc's own cubin does.
        if uses_shared_memory(func) || !func.shared_vars.is_empty() {
            // The block's shared memory starts with the declared variables, if any (ptxas
            // places a kernel's static `.shared` arrays first and the dynamic array after
            // them, so either symbol's address is where the IR's offset 0 lies).
            let base = self.regs.temp_class(regs::Class::B32);
            let symbol = if func.shared_vars.is_empty() { SHARED_SYMBOL.to_string() } else { static_shared_symbol(func) };
            self.line(format!("mov.u32 {base}, {symbol}"));
            self.shared_base = Some(base);
        }
        for (n, &b) in func.layout.iter().enumerate() {
            if n > 0 || self.is_branch_target(b) {
                self.label(&Self::block_label(b));
            }
            for &inst in &func.blocks[b].insts {
                self.inst(inst)?;
            }
        }
        Ok(())
    }

    /// The window address of the shared pointer `p` (a byte offset into dynamic shared memory).
    pub(crate) fn shared_address(&mut self, p: &str) -> String {
        let base = self.shared_base.clone().expect("the prologue loads the shared base");
        let a = self.regs.temp_class(regs::Class::B32);
        self.line(format!("add.s32 {a}, {p}, {base}"));
        a
    }

    fn is_branch_target(&self, b: Block) -> bool {
        self.func.layout.iter().any(|&x| self.func.successors(x).contains(&b))
    }

    fn inst(&mut self, inst: atomc_ir::Inst) -> Result<(), PtxError> {
        self.cur_loc = self.func.inst_locs[inst];
        self.cur_inst = Some(inst);
        let data = &self.func.insts[inst];
        let result = self.func.inst_result(inst);
        match data {
            InstData::Jump { dest } => {
                self.edge_moves(dest);
                self.line(format!("bra.uni {}", Self::block_label(dest.block)));
                Ok(())
            }
            InstData::Brif {
                cond,
                then_dest,
                else_dest,
            } => {
                let p = self.reg(*cond);
                let else_label = self.new_label("else");
                self.line(format!("@!{p} bra {else_label}"));
                self.edge_moves(then_dest);
                self.line(format!("bra.uni {}", Self::block_label(then_dest.block)));
                self.label(&else_label);
                self.edge_moves(else_dest);
                self.line(format!("bra.uni {}", Self::block_label(else_dest.block)));
                Ok(())
            }
            InstData::Return { .. } => {
                self.line("ret");
                Ok(())
            }
            InstData::Barrier => {
                self.line("bar.sync 0");
                Ok(())
            }
            _ if lanes::owns(data) => lanes::inst(self, inst, data, result),
            _ if data.address().is_some() || data.is_atomic() => memory::inst(self, data, result),
            _ => alu::inst(self, data, result),
        }
    }

    /// Copies branch arguments into the target block's parameters. The copies go through fresh
    /// temporaries first, so arguments that are themselves parameters of the target (loop-carried
    /// swaps) read their old values.
    fn edge_moves(&mut self, call: &atomc_ir::BlockCall) {
        let params = self.func.blocks[call.block].params.clone();
        let mut temps = Vec::new();
        for (&arg, &param) in call.args.iter().zip(&params) {
            let ty = self.ty(param);
            let t = self.regs.temp(ty);
            let src = self.reg(arg);
            self.line(format!("mov{} {t}, {src}", regs::mov_type(ty)));
            temps.push((t, param, ty));
        }
        for (t, param, ty) in temps {
            let dst = self.reg(param);
            self.line(format!("mov{} {dst}, {t}", regs::mov_type(ty)));
        }
    }

    /// The `.entry` text of the kernel.
    fn finish(&self) -> String {
        let func = self.func;
        let mut out = String::new();
        let _ = write!(out, ".visible .entry {}(", func.name);
        let params = func.params();
        for (i, ty) in params.iter().enumerate() {
            let (pty, _) = regs::param_type(*ty);
            let sep = if i + 1 < params.len() { "," } else { "" };
            let _ = write!(out, "\n\t.param {pty} {}_param_{i}{sep}", func.name);
        }
        let _ = writeln!(out, "\n)");
        let _ = writeln!(out, "{{");
        out.push_str(&self.regs.declarations());
        let _ = writeln!(out);
        out.push_str(&self.body);
        let _ = writeln!(out, "}}");
        out
    }
}

/// Whether `func` addresses shared memory (loads, stores, atomics, or a generic pointer made from
/// a shared one).
/// The array holding a kernel's declared shared variables, laid out as
/// [`Function::shared_layout`] says.
fn static_shared_symbol(func: &Function) -> String {
    format!("{SHARED_SYMBOL}_{}", func.name)
}

fn uses_shared_memory(func: &Function) -> bool {
    use atomc_ir::{AddrSpace, InstData};
    func.inst_order().any(|(_, i)| {
        let ptr = match &func.insts[i] {
            InstData::Load { addr, .. }
            | InstData::Store { addr, .. }
            | InstData::AtomicLoad { addr, .. }
            | InstData::AtomicStore { addr, .. }
            | InstData::AtomicRmw { addr, .. }
            | InstData::AtomicCas { addr, .. } => addr.ptr,
            InstData::PtrToGeneric { ptr } => *ptr,
            _ => return false,
        };
        func.value_type(ptr).addr_space() == Some(AddrSpace::Shared)
    })
}
