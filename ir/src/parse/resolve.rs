//! The resolve pass: a [`RawFunction`] (text numbers) → a [`Function`]
//! (entities).
//!
//! Names are checked first (every value and block defined once, every use
//! defined somewhere). Then result types are inferred, following operands
//! defined later in the text where needed, and the entities are created in
//! text order: blocks in order of their headers, values in order of their
//! definitions. A densely numbered file therefore keeps its numbers, and
//! the function holds no placeholder or alias values.

use super::syntax::RawFunction;
use crate::diagnostic::Diagnostic;
use crate::{Block, Function, InstData, SharedVar, SharedVarData, SrcLoc, Type, Value, ValueData, ValueDef};
use std::cell::Cell;
use std::collections::{HashMap, HashSet};

/// Where a text value number is defined.
#[derive(Clone, Copy)]
enum Def {
    Param(Type),
    /// Block index and instruction index within the raw function.
    Inst(usize, usize),
    /// On a line that failed to parse.
    Broken,
}

/// `rule` at `loc`: "`what` is already `verb` at `first`".
fn redefined(loc: SrcLoc, rule: &'static str, what: String, verb: &str, first: SrcLoc) -> Diagnostic {
    Diagnostic::new(loc, rule, format!("{what} is already {verb} at {}:{}", first.line, first.col))
}

/// Checks names and builds the function; `Err` holds every name error
/// found. A function that already had syntax errors is checked but not
/// built (`Ok(None)`).
pub(crate) fn resolve(raw: &RawFunction) -> Result<Option<Function>, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let mut blocks: HashMap<u32, (usize, SrcLoc)> = HashMap::new();
    let mut defs: HashMap<u32, (Def, SrcLoc)> = HashMap::new();
    for &n in &raw.broken_defs {
        defs.entry(n).or_insert((Def::Broken, SrcLoc::default()));
    }
    let mut define = |n: u32, def: Def, loc: SrcLoc, diags: &mut Vec<Diagnostic>| match defs.get(&n) {
        Some((Def::Broken, _)) | None => {
            defs.insert(n, (def, loc));
        }
        Some((_, first)) => diags.push(redefined(loc, "redefined-value", format!("value v{n}"), "defined", *first)),
    };
    for (bi, b) in raw.blocks.iter().enumerate() {
        if b.num == super::syntax::BROKEN_BLOCK {
            // Reported by the syntax pass.
        } else if let Some((_, first)) = blocks.get(&b.num) {
            diags.push(redefined(b.loc, "redefined-block", format!("block{}", b.num), "defined", *first));
        } else {
            blocks.insert(b.num, (bi, b.loc));
        }
        for &(n, loc, ty) in &b.params {
            define(n, Def::Param(ty), loc, &mut diags);
        }
        for (ii, inst) in b.insts.iter().enumerate() {
            if let Some((n, loc)) = inst.result {
                define(n, Def::Inst(bi, ii), loc, &mut diags);
            }
        }
    }
    let mut shared: HashMap<u32, (usize, SrcLoc)> = HashMap::new();
    for (i, s) in raw.shared.iter().enumerate() {
        if let Some((_, first)) = shared.get(&s.num) {
            diags.push(redefined(s.loc, "redefined-shared", format!("sm{}", s.num), "declared", *first));
        } else {
            shared.insert(s.num, (i, s.loc));
        }
    }
    for inst in raw.blocks.iter().flat_map(|b| &b.insts) {
        for &(n, loc) in &inst.shared_uses {
            if !shared.contains_key(&n) {
                diags.push(Diagnostic {
                    inst: None,
                    loc,
                    rule: "undefined-shared",
                    message: format!("shared variable sm{n} is not declared (`sm{n} = shared SIZE, align A` before the first block)"),
                });
            }
        }
        for &(n, loc) in &inst.value_uses {
            if !defs.contains_key(&n) {
                diags.push(Diagnostic { inst: None, loc, rule: "undefined-value", message: format!("value v{n} is not defined") });
            }
        }
        for &(n, loc) in &inst.block_uses {
            if !blocks.contains_key(&n) {
                diags.push(Diagnostic { inst: None, loc, rule: "undefined-block", message: format!("block{n} is not defined") });
            }
        }
    }
    if !raw.had_errors {
        // A broken entry block header would make this a cascade.
        check_signature(raw, &mut diags);
    }
    if !diags.is_empty() {
        diags.sort_by_key(|d| (d.loc.line, d.loc.col));
        return Err(diags);
    }
    if raw.had_errors {
        return Ok(None);
    }
    let types = infer_types(raw, &defs);
    Ok(Some(build(raw, &blocks, &shared, &types)))
}

/// The signature's parameter types must be the entry block's: the printer
/// writes the signature from the entry block.
fn check_signature(raw: &RawFunction, diags: &mut Vec<Diagnostic>) {
    let params: &[_] = raw.blocks.first().map_or(&[], |b| &b.params);
    for (i, &(sig_ty, sig_loc)) in raw.sig_params.iter().enumerate() {
        match params.get(i) {
            Some(&(n, loc, ty)) if ty != sig_ty => diags.push(Diagnostic {
                inst: None,
                loc,
                rule: "signature-mismatch",
                message: format!("entry block parameter v{n} has type {ty}, but the signature says {sig_ty}"),
            }),
            Some(_) => {}
            None => diags.push(Diagnostic {
                inst: None,
                loc: raw.blocks.first().map_or(sig_loc, |b| b.loc),
                rule: "signature-mismatch",
                message: format!(
                    "the signature has {} parameters, the entry block {}",
                    raw.sig_params.len(),
                    params.len()
                ),
            }),
        }
    }
    if params.len() > raw.sig_params.len() {
        let (_, loc, _) = params[raw.sig_params.len()];
        diags.push(Diagnostic {
            inst: None,
            loc,
            rule: "signature-mismatch",
            message: format!("the signature has {} parameters, the entry block {}", raw.sig_params.len(), params.len()),
        });
    }
}

/// The type of every defined text value. A result type that depends on an
/// operand defined later is found by following the operand first (an
/// explicit stack, so long chains cannot overflow). A cycle of such
/// dependencies cannot occur in valid SSA; its values get `i32` and the
/// verifier reports the dominance error.
fn infer_types(raw: &RawFunction, defs: &HashMap<u32, (Def, SrcLoc)>) -> HashMap<u32, Type> {
    let mut types: HashMap<u32, Type> = HashMap::with_capacity(defs.len());
    let mut order: Vec<u32> = defs.keys().copied().collect();
    order.sort_unstable();
    for root in order {
        let mut stack = vec![root];
        let mut visiting: HashSet<u32> = HashSet::new();
        while let Some(&n) = stack.last() {
            if types.contains_key(&n) {
                stack.pop();
                continue;
            }
            let ty = match defs.get(&n).map(|d| d.0) {
                Some(Def::Param(ty)) => ty,
                Some(Def::Inst(bi, ii)) => {
                    let missing = Cell::new(None);
                    let ty = raw.blocks[bi].insts[ii].data.result_type(|v| {
                        types.get(&v.as_u32()).copied().unwrap_or_else(|| {
                            missing.set(Some(v.as_u32()));
                            Type::I32
                        })
                    });
                    match missing.get() {
                        Some(m) if defs.contains_key(&m) && !visiting.contains(&m) => {
                            visiting.insert(n);
                            stack.push(m);
                            continue;
                        }
                        _ => ty.unwrap_or(Type::I32),
                    }
                }
                Some(Def::Broken) | None => Type::I32,
            };
            types.insert(n, ty);
            stack.pop();
        }
    }
    types
}

fn build(
    raw: &RawFunction,
    blocks: &HashMap<u32, (usize, SrcLoc)>,
    shared: &HashMap<u32, (usize, SrcLoc)>,
    types: &HashMap<u32, Type>,
) -> Function {
    let mut func = Function::new(raw.name.clone(), raw.returns.clone());
    for s in &raw.shared {
        let var = func.shared_vars.push(SharedVarData { size: s.size, align: s.align });
        func.shared_locs[var] = s.loc;
    }
    let block_ids: Vec<Block> = raw.blocks.iter().map(|_| func.create_block()).collect();
    let mut values: HashMap<u32, Value> = HashMap::with_capacity(types.len());
    for (b, rb) in block_ids.iter().zip(&raw.blocks) {
        for &(n, _, ty) in &rb.params {
            values.insert(n, func.append_block_param(*b, ty));
        }
        for ri in &rb.insts {
            let inst = func.insts.push(ri.data.clone());
            func.blocks[*b].insts.push(inst);
            func.inst_locs[inst] = ri.loc;
            func.operand_locs[inst] = ri.value_uses.iter().map(|&(_, loc)| loc).collect();
            if let Some((n, _)) = ri.result {
                let ty = types.get(&n).copied().unwrap_or(Type::I32);
                let v = func.values.push(ValueData { ty, def: ValueDef::Result(inst) });
                func.results[inst] = Some(v);
                values.insert(n, v);
            }
        }
    }
    // Every name was checked above, so the lookups cannot miss; the
    // fallbacks only keep this panic-free.
    let value = |v: Value| values.get(&v.as_u32()).copied().unwrap_or(v);
    let block = |b: Block| blocks.get(&b.as_u32()).map_or(b, |&(i, _)| block_ids[i]);
    for data in func.insts.values_mut() {
        data.map_args(value);
        if let InstData::SharedAddr { var } = data {
            *var = shared.get(&var.as_u32()).map_or(*var, |&(i, _)| SharedVar::from_u32(i as u32));
        }
        for call in data.branch_targets_mut() {
            call.block = block(call.block);
        }
    }
    func
}
