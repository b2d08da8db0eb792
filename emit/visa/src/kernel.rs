//! The vISA kernel model: declarations, inputs, labels and instructions,
//! with builder methods shaped for SIMT→SIMD lowering (one variable of SIMD
//! width per per-thread value).

use super::inst::{AtomicOp, AtomicWidth, Blocks, Ext, Fence, Inst, Op, Relop, EXEC1};
use super::operand::Operand;
use super::types::{Align, Exec, Type};

/// A user general variable. Its vISA number is `32 + index` (V0–V31 are
/// predefined, V0 = `%null`; visa.md §1.2 "Numbering").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub u32);

impl VarId {
    /// The number written to the `.isa` file.
    pub fn number(self) -> u32 {
        32 + self.0
    }
}

/// A user predicate variable; vISA number `1 + index` (P0 = no predicate).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PredId(pub u16);

impl PredId {
    /// The number written to the `.isa` file.
    pub fn number(self) -> u16 {
        1 + self.0
    }
}

/// A label; vISA number = index (labels start at 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LabelId(pub u16);

/// `.decl NAME v_type=G …`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct VarDecl {
    /// Name (an identifier).
    pub name: String,
    /// Element type.
    pub ty: Type,
    /// Element count.
    pub num_elts: u16,
    /// Alignment.
    pub align: Align,
    /// `alias=<BASE, BYTE_OFFSET>`.
    pub alias: Option<(VarId, u16)>,
}

impl VarDecl {
    /// Size in bytes.
    pub fn bytes(&self) -> u32 {
        self.ty.size() * self.num_elts as u32
    }
}

/// `.decl NAME v_type=P num_elts=N`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PredDecl {
    /// Name.
    pub name: String,
    /// Lane count (1, 2, 4, 8, 16 or 32).
    pub num_elts: u16,
}

/// `.input NAME offset=O size=S`: a kernel argument preloaded into the GRF
/// file at byte `offset`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Input {
    /// The variable receiving the argument.
    pub var: VarId,
    /// Byte offset in the GRF file (64 = r2.0 on 32-byte-GRF parts).
    pub offset: u16,
    /// Size in bytes; must equal the variable's size.
    pub size: u16,
}

/// A user surface: vISA number `6 + index` (T0–T5 are predefined, T0 =
/// `%slm`; visa.md §1.2 "Numbering").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SurfId(pub u8);

impl SurfId {
    /// The number written to the `.isa` file.
    pub fn number(self) -> u8 {
        6 + self.0
    }
}

/// The surface a message or `movs` names: `%bss`, the predefined bindless
/// surface, or a user surface.
///
/// vISA numbers the predefined surfaces T0 `%slm`, T1, T2, T3 `TSS`, T4
/// `%bss`, T5 `%scratch` (visa.md §1.2); GenX_IR 1.0.12504 parses `%bss` in
/// text and its `.isa` reader takes surface number 4 for it (both give the
/// same Gen code: `emit/visa/tests/visa_oracle.rs`). A message on `%bss`
/// uses the surface-state offset the last `movs` wrote to it (see
/// [`super::inst::Op::Movs`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Surf {
    /// `%bss` (T4): the bindless surface.
    Bss,
    /// A user surface, T6 upwards.
    User(SurfId),
}

impl Surf {
    /// The surface number of `%bss`.
    pub const BSS_NUMBER: u8 = 4;

    /// The number written to the `.isa` file.
    pub fn number(self) -> u8 {
        match self {
            Surf::Bss => Self::BSS_NUMBER,
            Surf::User(t) => t.number(),
        }
    }
}

impl From<SurfId> for Surf {
    fn from(t: SurfId) -> Surf {
        Surf::User(t)
    }
}

/// `.decl NAME v_type=T num_elts=1` plus `.input NAME offset=O size=4`: a
/// surface the launch binds, its binding-table index preloaded at GRF byte
/// `offset` (how CM kernels take surface arguments; `.isa` input kind 2).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SurfaceDecl {
    /// Name (an identifier).
    pub name: String,
    /// Byte offset of the argument in the GRF file.
    pub offset: u16,
}

/// A vISA kernel.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Kernel {
    /// Kernel name.
    pub name: String,
    /// General variables, V32 upwards.
    pub vars: Vec<VarDecl>,
    /// Predicates, P1 upwards.
    pub preds: Vec<PredDecl>,
    /// Label names, in id order.
    pub labels: Vec<String>,
    /// Kernel arguments.
    pub inputs: Vec<Input>,
    /// User surfaces, T6 upwards; each is also a kernel argument (after
    /// `inputs` in the text and the binary).
    pub surfaces: Vec<SurfaceDecl>,
    /// Instructions.
    pub insts: Vec<Inst>,
    /// `.kernel_attr SimdSize=N`: the dispatch width (8, 16 or 32) the
    /// runtime launches the kernel with; `None` leaves it out.
    pub simd_size: Option<u8>,
}

impl Kernel {
    /// An empty kernel.
    pub fn new(name: impl Into<String>) -> Kernel {
        Kernel {
            name: name.into(),
            vars: Vec::new(),
            preds: Vec::new(),
            labels: Vec::new(),
            inputs: Vec::new(),
            surfaces: Vec::new(),
            insts: Vec::new(),
            simd_size: None,
        }
    }

    // ---- declarations ----

    /// Declares a general variable.
    pub fn decl(
        &mut self,
        name: impl Into<String>,
        ty: Type,
        num_elts: u16,
        align: Align,
    ) -> VarId {
        self.vars.push(VarDecl {
            name: name.into(),
            ty,
            num_elts,
            align,
            alias: None,
        });
        VarId(self.vars.len() as u32 - 1)
    }

    /// Declares a variable of SIMD width: `lanes` elements of `ty`, GRF
    /// aligned — the form a per-thread value takes after widening.
    pub fn decl_simd(&mut self, name: impl Into<String>, ty: Type, lanes: u16) -> VarId {
        self.decl(name, ty, lanes, Align::Grf)
    }

    /// Declares `name` as a view of `base` from byte `offset` with another
    /// type (e.g. a `uq` seen as 2×`ud`, an `f` seen as `ud` for CAS).
    pub fn alias(
        &mut self,
        name: impl Into<String>,
        ty: Type,
        num_elts: u16,
        base: VarId,
        offset: u16,
    ) -> VarId {
        self.vars.push(VarDecl {
            name: name.into(),
            ty,
            num_elts,
            align: Align::Byte,
            alias: Some((base, offset)),
        });
        VarId(self.vars.len() as u32 - 1)
    }

    /// Declares a predicate of `num_elts` lanes.
    pub fn decl_pred(&mut self, name: impl Into<String>, num_elts: u16) -> PredId {
        self.preds.push(PredDecl {
            name: name.into(),
            num_elts,
        });
        PredId(self.preds.len() as u16 - 1)
    }

    /// Creates a label (place it with [`Kernel::place`]).
    pub fn label(&mut self, name: impl Into<String>) -> LabelId {
        self.labels.push(name.into());
        LabelId(self.labels.len() as u16 - 1)
    }

    /// Makes `var` a kernel argument at GRF byte `offset`; its size is the
    /// variable's size.
    pub fn input(&mut self, var: VarId, offset: u16) {
        let size = self.var(var).map(|v| v.bytes()).unwrap_or(0) as u16;
        self.inputs.push(Input { var, offset, size });
    }

    /// Declares a surface argument at GRF byte `offset` (4 bytes).
    pub fn surface(&mut self, name: impl Into<String>, offset: u16) -> SurfId {
        self.surfaces.push(SurfaceDecl { name: name.into(), offset });
        SurfId(self.surfaces.len() as u8 - 1)
    }

    /// The declaration of a variable.
    pub fn var(&self, v: VarId) -> Option<&VarDecl> {
        self.vars.get(v.0 as usize)
    }

    /// The declaration of a predicate.
    pub fn pred(&self, p: PredId) -> Option<&PredDecl> {
        self.preds.get(p.0 as usize)
    }

    // ---- instructions ----

    /// Appends an instruction; returns it so a guard or `.sat` can be set.
    pub fn push(&mut self, inst: Inst) -> &mut Inst {
        self.insts.push(inst);
        let last = self.insts.len() - 1;
        &mut self.insts[last]
    }

    fn alu(&mut self, op: Op, exec: Exec, ops: Vec<Operand>) -> &mut Inst {
        self.push(Inst::new(op, exec, Ext::None, ops))
    }

    /// `mov` (also converts between the operand types).
    pub fn mov(&mut self, exec: Exec, dst: Operand, src: Operand) -> &mut Inst {
        self.alu(Op::Mov, exec, vec![dst, src])
    }
    /// `add`.
    pub fn add(&mut self, exec: Exec, dst: Operand, a: Operand, b: Operand) -> &mut Inst {
        self.alu(Op::Add, exec, vec![dst, a, b])
    }
    /// `mul`.
    pub fn mul(&mut self, exec: Exec, dst: Operand, a: Operand, b: Operand) -> &mut Inst {
        self.alu(Op::Mul, exec, vec![dst, a, b])
    }
    /// `mad`: dst = a * b + c.
    pub fn mad(
        &mut self,
        exec: Exec,
        dst: Operand,
        a: Operand,
        b: Operand,
        c: Operand,
    ) -> &mut Inst {
        self.alu(Op::Mad, exec, vec![dst, a, b, c])
    }
    /// `addc`: dst = a + b, carry = carry out.
    pub fn addc(
        &mut self,
        exec: Exec,
        dst: Operand,
        carry: Operand,
        a: Operand,
        b: Operand,
    ) -> &mut Inst {
        self.alu(Op::Addc, exec, vec![dst, carry, a, b])
    }
    /// `subb`: dst = a - b, borrow = borrow out.
    pub fn subb(
        &mut self,
        exec: Exec,
        dst: Operand,
        borrow: Operand,
        a: Operand,
        b: Operand,
    ) -> &mut Inst {
        self.alu(Op::Subb, exec, vec![dst, borrow, a, b])
    }
    /// A two-source ALU op (`and`, `or`, `xor`, `shl`, `shr`, `asr`, `sel`,
    /// `min`, `max`, `add`, `mul`).
    pub fn binary(
        &mut self,
        op: Op,
        exec: Exec,
        dst: Operand,
        a: Operand,
        b: Operand,
    ) -> &mut Inst {
        self.alu(op, exec, vec![dst, a, b])
    }
    /// A one-source ALU op (`mov`, `not`, `inv`).
    pub fn unary(&mut self, op: Op, exec: Exec, dst: Operand, a: Operand) -> &mut Inst {
        self.alu(op, exec, vec![dst, a])
    }
    /// `cmp.<relop>` into a predicate or general variable.
    pub fn cmp(
        &mut self,
        exec: Exec,
        relop: Relop,
        dst: Operand,
        a: Operand,
        b: Operand,
    ) -> &mut Inst {
        self.push(Inst::new(Op::Cmp, exec, Ext::Relop(relop), vec![dst, a, b]))
    }
    /// `setp`: predicate `p` from a lane mask.
    pub fn setp(&mut self, exec: Exec, p: PredId, mask: Operand) -> &mut Inst {
        self.alu(Op::Setp, exec, vec![Operand::Pred(p), mask])
    }
    /// Places a label here.
    pub fn place(&mut self, l: LabelId) -> &mut Inst {
        self.push(Inst::new(
            Op::Label,
            EXEC1,
            Ext::None,
            vec![Operand::Label(l)],
        ))
    }
    /// `jmp` (scalar branch; guard with `.any`/`.all` for uniformity).
    pub fn jmp(&mut self, exec: Exec, l: LabelId) -> &mut Inst {
        self.alu(Op::Jmp, exec, vec![Operand::Label(l)])
    }
    /// `goto` (SIMD branch: lanes whose guard is set jump).
    pub fn goto(&mut self, exec: Exec, l: LabelId) -> &mut Inst {
        self.alu(Op::Goto, exec, vec![Operand::Label(l)])
    }
    /// `ret (M1, 1)`.
    pub fn ret(&mut self) -> &mut Inst {
        self.alu(Op::Ret, EXEC1, vec![])
    }
    /// `fence_global`/`fence_local` with options.
    pub fn fence(&mut self, f: Fence) -> &mut Inst {
        self.push(Inst::new(Op::Fence, EXEC1, Ext::Fence(f), vec![]))
    }
    /// `svm_atomic.<op>[.16|.64] (exec) addr dst src0 src1`. Pass
    /// [`Operand::null`] for unused operands.
    #[allow(clippy::too_many_arguments)]
    pub fn svm_atomic(
        &mut self,
        exec: Exec,
        op: AtomicOp,
        width: AtomicWidth,
        addr: Operand,
        dst: Operand,
        src0: Operand,
        src1: Operand,
    ) -> &mut Inst {
        self.push(Inst::new(
            Op::SvmAtomic,
            exec,
            Ext::Atomic(op, width),
            vec![addr, src0, src1, dst],
        ))
    }
    /// A `lanes`-wide atomic (8, 16 or 32 lanes) issued as SIMD8 messages
    /// `(M1, 8)`, `(M3, 8)`, … — `svm_atomic` is at most SIMD8 — with each
    /// raw operand advanced by 8 lanes (8 × 8 bytes of address, 8 × 4 or
    /// 8 × 8 bytes of data), as IGC does (visa.md §3). On 64-byte-GRF parts
    /// the 32-bit data slices are not GRF aligned; the validator reports it.
    #[allow(clippy::too_many_arguments)]
    pub fn svm_atomic_wide(
        &mut self,
        lanes: u32,
        op: AtomicOp,
        width: AtomicWidth,
        addr: Operand,
        dst: Operand,
        src0: Operand,
        src1: Operand,
    ) {
        let elt: u16 = if width == AtomicWidth::W64 { 8 } else { 4 };
        let shift = |o: Operand, by: u16| match o {
            Operand::Raw {
                var: Some(v),
                offset,
            } => Operand::Raw {
                var: Some(v),
                offset: offset + by,
            },
            other => other,
        };
        for slice in 0..(lanes.max(8) / 8) as u16 {
            let exec = Exec::at(super::types::ExecSize::S8, (2 * slice) as u8);
            let d = 8 * elt * slice;
            self.svm_atomic(
                exec,
                op,
                width,
                shift(addr, 64 * slice),
                shift(dst, d),
                shift(src0, d),
                shift(src1, d),
            );
        }
    }

    /// `svm_gather.<bytes>.<n> (exec) addr dst`: per-lane loads.
    pub fn svm_gather(&mut self, exec: Exec, blocks: Blocks, addr: Operand, dst: Operand) -> &mut Inst {
        self.svm_blocks(Op::SvmGather, exec, blocks, addr, dst)
    }
    /// `svm_scatter.<bytes>.<n> (exec) addr src`: per-lane stores.
    pub fn svm_scatter(&mut self, exec: Exec, blocks: Blocks, addr: Operand, src: Operand) -> &mut Inst {
        self.svm_blocks(Op::SvmScatter, exec, blocks, addr, src)
    }
    /// `svm_gather`/`svm_scatter`: `addr` and the data operand, in that order.
    fn svm_blocks(&mut self, op: Op, exec: Exec, blocks: Blocks, addr: Operand, data: Operand) -> &mut Inst {
        self.push(Inst::new(op, exec, Ext::Blocks(blocks), vec![addr, data]))
    }

    // ---- output ----

    /// The `.visaasm` text (see [`super::text`]).
    pub fn to_text(&self) -> String {
        super::text::write(self)
    }

    /// The `.isa` 4.1 binary (see [`super::binary`]).
    pub fn to_isa(&self) -> Vec<u8> {
        super::binary::write(self)
    }

    /// [`Kernel::to_text`] after [`super::validate_for_text`] for `platform`.
    pub fn to_text_checked(
        &self,
        platform: super::types::Platform,
    ) -> Result<String, Vec<super::validate::VisaRuleError>> {
        super::validate::validate_for_text(self, platform)?;
        Ok(self.to_text())
    }

    /// [`Kernel::to_isa`] after [`super::validate`] for `platform`.
    pub fn to_isa_checked(
        &self,
        platform: super::types::Platform,
    ) -> Result<Vec<u8>, Vec<super::validate::VisaRuleError>> {
        super::validate::validate(self, platform)?;
        Ok(self.to_isa())
    }
}
