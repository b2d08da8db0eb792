//! Helpers shared by the verifier tests.
#![allow(dead_code)]

use atomc_ir::verify::verify;
use atomc_ir::{AddrSpace, Function, FunctionBuilder, Type, Value};

pub const GLOBAL: Type = Type::Ptr(AddrSpace::Global);
pub const SHARED: Type = Type::Ptr(AddrSpace::Shared);
pub const GENERIC: Type = Type::Ptr(AddrSpace::Generic);

/// The rules of the verifier's diagnostics on `func`, in order (none if it verifies).
pub fn rules(func: &Function) -> Vec<&'static str> {
    match verify(func) {
        Ok(()) => Vec::new(),
        Err(diags) => diags.iter().map(|d| d.rule).collect(),
    }
}

/// The verifier reports exactly the rules `want` on `func`, in order.
#[track_caller]
pub fn assert_rules(func: &Function, want: &[&str]) {
    assert_eq!(rules(func), want, "diagnostics: {:#?}", verify(func).err());
}

/// A kernel whose parameters have the given types; `body` appends
/// instructions to the entry block, then the kernel returns.
pub fn kernel(params: &[Type], body: impl FnOnce(&mut FunctionBuilder, &[Value])) -> Function {
    let mut b = FunctionBuilder::new("k", params);
    let args: Vec<Value> = (0..params.len()).map(|n| b.param(n)).collect();
    body(&mut b, &args);
    b.ret(&[]);
    b.finish()
}

/// The [`kernel`] of `params` and `body` breaks exactly the rules `want`.
#[track_caller]
pub fn expect(params: &[Type], want: &[&str], body: impl FnOnce(&mut FunctionBuilder, &[Value])) {
    assert_rules(&kernel(params, body), want);
}
