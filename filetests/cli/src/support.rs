//! The support matrix: every atomic access the IR verifier accepts, one kernel each (op ×
//! type × address space × order × scope × result used or not; atomic loads and stores; fences;
//! surface read-modify-writes and compare-and-swaps on every dim, bound and bindless, under each
//! out-of-range mode `ign`, `near`, `trap`, which is part of the row), compiled
//! for every target. A kernel either compiles or is refused with the reason its target's
//! capability table gives; anything else (an internal error) is a bug. `atomc support` prints
//! the table (docs/support.md is its output; a test keeps them equal).

use atomc::ir::{self, AddrSpace, MemOrder, RmwOp, Scope, SurfaceClamp, SurfaceDim, Type};
use atomc::{CompileError, Emit, Target, VisaPlatform};
use std::collections::BTreeMap;
use std::fmt::Write;

/// The heading of docs/support.md's second part, the whole-IR matrix (`atomc support
/// --whole-ir`); the atomics table is the part before it.
pub const WHOLE_IR_HEADING: &str = "\n# Whole-IR matrix\n";

/// The targets of the matrix, in column order.
pub const TARGETS: [Target; 5] = [
    Target::Sm90,
    Target::Sm50,
    Target::Visa(VisaPlatform::Tgllp),
    Target::Visa(VisaPlatform::Dg2),
    Target::Visa(VisaPlatform::Pvc),
];

/// One kernel of the matrix.
pub struct Case {
    /// The table row it belongs to: op, type, space (for surfaces `surface` and the
    /// out-of-range mode, which decides whether Intel compiles it).
    pub row: (String, Type, String),
    /// The variant within the row (order, scope, result use, surface shape).
    pub variant: String,
    pub func: ir::Function,
}

/// What compiling one kernel for one target gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Compiled,
    /// Refused before selection, with the capability table's reason.
    Refused(String),
    /// Anything else: a bug in atomc.
    Failed(String),
}

/// Every verified kernel of the matrix.
pub fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    let mut push = |row: (String, Type, String), variant: String, text: String| {
        let Ok(mut funcs) = ir::parse::parse(&text) else { return };
        let func = funcs.remove(0);
        if ir::verify::verify(&func).is_ok() {
            out.push(Case { row, variant, func });
        }
    };
    for &space in &AddrSpace::ALL {
        for &ty in &Type::ALL {
            // The matrix row of instruction `name` on this type and space.
            let row = |name: String| (name, ty, space.name().to_string());
            for &order in MemOrder::ALL {
                for &scope in Scope::ALL {
                    for used in [false, true] {
                        let variant = format!("{order} {scope}{}", if used { " used" } else { "" });
                        for &op in RmwOp::ALL {
                            let inst = format!("atomic_rmw.{ty} {op} {order} {scope} v0, v1");
                            push(row(format!("atomic_rmw {op}")), variant.clone(), kernel(space, ty, &inst, used));
                        }
                        let cas = format!("atomic_cas.{ty} {order} {scope} v0, v1, v1");
                        push(row("atomic_cas".into()), variant.clone(), kernel(space, ty, &cas, used));
                    }
                    let variant = format!("{order} {scope}");
                    let load = format!("atomic_load.{ty} {order} {scope} v0");
                    push(row("atomic_load".into()), variant.clone(), kernel(space, ty, &load, true));
                    let store = format!("atomic_store.{ty} {order} {scope} v0, v1");
                    push(row("atomic_store".into()), variant, kernel_stmt(space, ty, &store));
                }
            }
        }
    }
    for &order in MemOrder::ALL {
        for &scope in Scope::ALL {
            let text = format!("function %k() {{\nblock0:\n    fence {order} {scope}\n    return\n}}\n");
            push(("fence".into(), Type::I32, String::new()), format!("{order} {scope}"), text);
        }
    }
    for &ty in &Type::ALL {
        for &clamp in SurfaceClamp::ALL {
            for &dim in SurfaceDim::ALL {
                for bindless in [false, true] {
                    for used in [false, true] {
                        let variant = format!(
                            "{dim} {}{}",
                            if bindless { "bindless" } else { "slot 0" },
                            if used { " used" } else { "" }
                        );
                        let row = |op: String| (op, ty, format!("surface {clamp}"));
                        for &op in RmwOp::ALL {
                            let inst = |surf: &str, coords: &str| {
                                format!("surface_rmw.{ty} {op} {dim} coord {clamp} relaxed gpu {surf} [{coords}], v1")
                            };
                            push(
                                row(format!("surface_rmw {op}")),
                                variant.clone(),
                                surface_kernel(ty, dim, bindless, used, inst),
                            );
                        }
                        let cas = |surf: &str, coords: &str| {
                            format!("surface_cas.{ty} {dim} coord {clamp} relaxed gpu {surf} [{coords}], v1, v1")
                        };
                        push(row("surface_cas".into()), variant, surface_kernel(ty, dim, bindless, used, cas));
                    }
                }
            }
        }
    }
    out
}

/// A kernel of one atomic instruction `inst` (operands `v0`: the pointer, `v1`: a value), its
/// result stored back where `used`.
fn kernel(space: AddrSpace, ty: Type, inst: &str, used: bool) -> String {
    let (space, keep) = (space.name(), if used { "    store v2, v0+64\n" } else { "" });
    format!("function %k(ptr.{space}, {ty}) {{\nblock0(v0: ptr.{space}, v1: {ty}):\n    v2 = {inst}\n{keep}    return\n}}\n")
}

fn kernel_stmt(space: AddrSpace, ty: Type, inst: &str) -> String {
    let space = space.name();
    format!("function %k(ptr.{space}, {ty}) {{\nblock0(v0: ptr.{space}, v1: {ty}):\n    {inst}\n    return\n}}\n")
}

fn surface_kernel(
    ty: Type,
    dim: SurfaceDim,
    bindless: bool,
    used: bool,
    inst: impl Fn(&str, &str) -> String,
) -> String {
    let coords = vec!["v3"; dim.coord_count()].join(", ");
    let surf = if bindless { "v2" } else { "slot 0" };
    let keep = if used { "    store v4, v0\n" } else { "" };
    format!(
        "function %k(ptr.global, {ty}, surface, i32) {{\nblock0(v0: ptr.global, v1: {ty}, v2: surface, v3: i32):\n    v4 = {}\n{keep}    return\n}}\n",
        inst(surf, &coords)
    )
}

/// Compiles `func` for `target` to its binary.
pub fn outcome(func: &ir::Function, target: Target) -> Outcome {
    let emit = if matches!(target, Target::Visa(_)) { Emit::Isa } else { Emit::Cubin };
    match std::panic::catch_unwind(|| atomc::compile(func, target, emit)) {
        Ok(Ok(_)) => Outcome::Compiled,
        Ok(Err(CompileError::Unsupported { reason, .. })) => Outcome::Refused(reason),
        Ok(Err(e)) => Outcome::Failed(e.to_string()),
        Err(_) => Outcome::Failed("panic".into()),
    }
}

/// The table: one row per op × type × space, one column per target; a cell is `yes` when
/// every variant compiled, else the refusals' reasons, numbered below the table.
pub fn markdown(cases: &[Case], results: &[Vec<Outcome>]) -> String {
    let mut rows: BTreeMap<(String, String, String), Vec<BTreeMap<String, usize>>> = BTreeMap::new();
    let mut totals = vec![(0usize, 0usize, 0usize); TARGETS.len()];
    for (case, outs) in cases.iter().zip(results) {
        let key = (case.row.0.clone(), case.row.1.to_string(), case.row.2.clone());
        let cells = rows.entry(key).or_insert_with(|| vec![BTreeMap::new(); TARGETS.len()]);
        for (t, o) in outs.iter().enumerate() {
            let label = match o {
                Outcome::Compiled => {
                    totals[t].0 += 1;
                    "yes".to_string()
                }
                Outcome::Refused(r) => {
                    totals[t].1 += 1;
                    r.clone()
                }
                Outcome::Failed(e) => {
                    totals[t].2 += 1;
                    format!("internal error: {e}")
                }
            };
            *cells[t].entry(label).or_default() += 1;
        }
    }
    let mut reasons: Vec<String> = Vec::new();
    let mut s = String::new();
    let _ = writeln!(s, "# Support table\n");
    let _ = writeln!(
        s,
        "Generated by `atomc support` from the capability tables, by compiling every atomic access\n\
         the IR verifier accepts as its own kernel ({} kernels: op × type × space × order × scope ×\n\
         result used or not; loads, stores, fences; surfaces on every dim, bound and bindless, with\n\
         each out-of-range mode `ign`, `near`, `trap` as its own row) for\n\
         each target (`filetests/cli/src/support.rs`; `filetests/cli/tests/support_matrix.rs` keeps\n\
         this file current). `yes`: every variant compiles; a number: refused for that reason (below), with the\n\
         count of variants when only some are. Orders and scopes change the fences around an access,\n\
         never whether it compiles.\n",
        cases.len()
    );
    let _ = write!(s, "| op | type | space |");
    for t in TARGETS {
        let _ = write!(s, " {t} |");
    }
    let _ = writeln!(s, "\n|---|---|---|{}", "---|".repeat(TARGETS.len()));
    for ((op, ty, space), cells) in &rows {
        let _ = write!(s, "| {op} | {ty} | {space} |");
        for cell in cells {
            let parts: Vec<String> = cell
                .iter()
                .map(|(label, n)| {
                    let shown = if label == "yes" {
                        "yes".to_string()
                    } else {
                        let i = reasons.iter().position(|r| r == label).unwrap_or_else(|| {
                            reasons.push(label.clone());
                            reasons.len() - 1
                        });
                        format!("({})", i + 1)
                    };
                    if cell.len() > 1 {
                        format!("{shown}×{n}")
                    } else {
                        shown
                    }
                })
                .collect();
            let _ = write!(s, " {} |", parts.join(" "));
        }
        let _ = writeln!(s);
    }
    let _ = writeln!(s, "\n## Totals\n\n| target | compiled | refused | internal errors |\n|---|---|---|---|");
    for (t, (c, r, f)) in TARGETS.iter().zip(&totals) {
        let _ = writeln!(s, "| {t} | {c} | {r} | {f} |");
    }
    let _ = writeln!(s, "\n## Reasons\n");
    for (i, r) in reasons.iter().enumerate() {
        let _ = writeln!(s, "{}. {}", i + 1, r.replace('\n', " "));
    }
    s
}

/// Compiles every case for every target, in parallel over cases.
pub fn run(cases: &[Case]) -> Vec<Vec<Outcome>> {
    use rayon::prelude::*;
    cases.par_iter().map(|c| TARGETS.iter().map(|&t| outcome(&c.func, t)).collect()).collect()
}
