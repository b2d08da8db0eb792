//! Shared-variable declarations and `shared_addr`.

use super::{Ctx, MAX_SHARED_VAR_BYTES};
use crate::diagnostic::Diagnostic;
use crate::{Inst, InstData};

/// `shared-size` and `shared-align`, at each declaration.
pub(super) fn check_declarations(cx: &mut Ctx) {
    let func = cx.func;
    for (var, d) in func.shared_vars.iter() {
        let loc = func.shared_locs[var];
        let decl = format!("`{var} = shared {}, align {}`", d.size, d.align);
        if d.size == 0 {
            cx.diags.push((
                0,
                Diagnostic {
                    inst: None,
                    loc,
                    rule: "shared-size",
                    message: format!("{decl}: a shared variable has at least 1 byte"),
                },
            ));
        }
        if !matches!(d.align, 1 | 2 | 4 | 8 | 16) {
            cx.diags.push((
                0,
                Diagnostic { inst: None, loc, rule: "shared-align", message: format!("{decl}: the alignment is 1, 2, 4, 8 or 16") },
            ));
        }
    }
    let total = func.shared_layout().static_bytes;
    if total > MAX_SHARED_VAR_BYTES {
        let loc = func.shared_locs.values().next().copied().unwrap_or_default();
        cx.diags.push((0, Diagnostic {
            inst: None,
            loc,
            rule: "shared-size",
            message: format!(
                "the shared variables take {total} bytes; at most {MAX_SHARED_VAR_BYTES} (use dynamic shared memory beyond)"
            ),
        }));
    }
}

/// `shared-undeclared`.
pub(super) fn check(cx: &mut Ctx, inst: Inst, data: &InstData) {
    if let InstData::SharedAddr { var } = data {
        if cx.func.shared_vars.get(*var).is_none() {
            cx.error(inst, "shared-undeclared", format!("{var} is not declared"));
        }
    }
}
