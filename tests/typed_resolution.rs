//! Selection hands each instruction's operands to the form table as values
//! (`Arch::assemble_op`, with a typed opcode): nothing is printed and parsed between selection and the encoded
//! word. The text assembler, which the nvdisasm sweeps of `atomc-sass` check form by form, is
//! a second, independent reading of the same instruction: here both must choose the same form,
//! modifier values and operand values for every instruction selected for every filetest kernel
//! on both SASS targets.

mod common;

use atomc::{pipeline, Target};
use atomc_emit::sass::{sm50, sm90};
use atomc_lower::sass::{MOp, SassInst};
use atomc_lower::vcode::{HwReg, Reg};
use std::collections::HashSet;

/// `inst` with each virtual register at the number resolution gives it (its part of the tuple).
fn at_placeholders(inst: &SassInst) -> SassInst {
    let mut inst = inst.clone();
    let place = |r: &mut Reg| {
        if let Reg::Virt { sub, .. } = *r {
            *r = HwReg::new(sub).expect("a tuple part is a register").into();
        }
    };
    for op in inst.ops.iter_mut() {
        match op {
            MOp::Reg { reg, .. } | MOp::Mem { base: reg, .. } | MOp::Tied { reg, .. } => place(reg),
            _ => {}
        }
    }
    inst
}

#[test]
fn typed_resolution_agrees_with_the_text_assembler() {
    let kernels = common::filetest_kernels();
    for (target, arch) in [(Target::Sm90, sm90()), (Target::Sm50, sm50())] {
        let mut shapes = HashSet::new();
        let mut checked = 0;
        for (name, func) in &kernels {
            let Ok(vcode) = pipeline::select(func, target) else { continue };
            for inst in vcode.insts().iter().filter(|i| i.resolved.is_some()) {
                let inst = at_placeholders(inst);
                let text = inst.text(&|_| "0x0".into());
                if !shapes.insert(text.clone()) {
                    continue;
                }
                let typed = inst.typed(arch, 0, &|_| 0).unwrap_or_else(|| panic!("{name}: `{text}` is resolved"));
                let read = match arch.assemble_line(&text, 0) {
                    Ok(Some(read)) => read,
                    other => panic!("{name} ({target:?}): the assembler reads `{text}` as {other:?}"),
                };
                assert_eq!(
                    (typed.form, &typed.guard, &typed.mods, &typed.ops),
                    (read.form, &read.guard, &read.mods, &read.ops),
                    "{name} ({target:?}): `{text}`"
                );
                checked += 1;
            }
        }
        // Every filetest kernel's vocabulary: far more shapes than any one form family.
        assert!(checked > 500, "{target:?}: only {checked} instruction shapes checked");
        eprintln!("{target:?}: {checked} instruction shapes agree");
    }
}
