//! Intel vISA: the kernel model, its `.visaasm` text and `.isa` 4.1 binary
//! writers, and the operand rules GenX_IR 1.0.12504 does not check.
//!
//! * [`Kernel`] holds declarations ([`VarDecl`], predicates, labels),
//!   inputs and [`Inst`]s; builder methods (`decl_simd`, `alias`,
//!   `decl_pred`, `label`/`place`, `mov`, `add`, `cmp`, `goto`,
//!   `svm_atomic`, …) return the instruction so a guard
//!   ([`Predicate`]) or `.sat` can be set.
//! * One table ([`inst::table`]) gives every opcode's binary fields and
//!   text operand order; [`text`] and [`binary`] both walk it.
//! * [`validate`] checks the rules listed in [`validate::Rule`] (each with
//!   its evidence); [`validate_for_text`] adds the text-only ones.
//!
//! Opcodes: add, mul, mad, inv, addc, subb, and, or, xor, not, shl, shr,
//! asr, mov (also the conversions), sel, min, max, setp, cmp, label, jmp,
//! goto, ret, fence, svm_atomic (all 19 ops × .16/.32/.64), svm_gather,
//! svm_scatter, and for shared local memory dword_atomic, gather_scaled,
//! scatter_scaled and barrier (builders in [`slm`]), typed_atomic and resinfo on a user
//! surface or on `%bss`, and movs, which points `%bss` at a bindless surface (builders in
//! [`typed`]; [`Surf`]). vISA has no `sub`: use `add` with a `(-)` source.
//!
//! ```
//! use atomc_visa::*;
//! let mut k = Kernel::new("count");
//! let a = k.decl_simd("A", Type::UQ, 8);
//! let one = k.decl_simd("ONE", Type::UD, 8);
//! k.input(a, 64);
//! k.mov(Exec::new(ExecSize::S8), Operand::dst(one), Operand::imm(Imm::ud(1)));
//! k.svm_atomic(Exec::new(ExecSize::S8), AtomicOp::Add, AtomicWidth::W32,
//!              Operand::raw(a), Operand::null(), Operand::raw(one), Operand::null());
//! k.ret();
//! assert!(validate(&k, Platform::Tgllp).is_ok());
//! assert!(k.to_text().contains("svm_atomic.add (M1, 8) A.0 %null.0 ONE.0 %null.0"));
//! assert_eq!(&k.to_isa()[..4], b"CISA");
//! ```

pub mod binary;
pub mod ext;
pub mod inst;
pub mod kernel;
pub mod lsc;
pub mod operand;
pub mod reader;
pub mod slm;
pub mod text;
pub mod typed;
pub mod types;
pub mod validate;

pub use inst::{
    info, AtomicOp, AtomicWidth, Blocks, Channels, Ext, Fence, Inst, Op, OpInfo, Predicate, Relop,
};
pub use kernel::{Input, Kernel, LabelId, PredDecl, PredId, Surf, SurfId, SurfaceDecl, VarDecl, VarId};
pub use operand::{Imm, Operand, Region, SrcMod};
pub use types::{Align, Exec, ExecSize, Platform, PredCtl, Type};
pub use validate::{slm_data_type, svm_data_type, validate, validate_for_text, Rule, VisaRuleError};
