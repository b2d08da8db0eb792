//! The sm_50 CAS register rules on real kernels (filetests/compile/sm50/cas-registers.atom):
//! compare and swap must be one packed group (R2n, R2n+1 for 32-bit; R4n, R4n+2 for 64-bit).
//! Prints, per kernel, the register-to-register MOVs in the final code that copy values into
//! the group and the moves the register allocator itself inserted, and checks the packing.

use atomc::{pipeline, Target};
use atomc_emit::sass::Operand;
use std::path::Path;

fn kernels() -> Vec<(String, atomc::ir::Function)> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("filetests/filetests/compile/sm50/cas-registers.atom");
    let src = std::fs::read_to_string(p).expect("read filetest");
    atomc::ir::parse::parse_file(&src)
        .expect("parse")
        .functions
        .into_iter()
        .map(|f| (f.func.name.to_string(), f.func))
        .collect()
}

#[test]
fn cas_groups_are_aligned_and_moves_are_counted() {
    let mut report = Vec::new();
    for (name, func) in kernels() {
        let out = pipeline::compile_sass(&func, Target::Sm50).unwrap_or_else(|e| panic!("{name}: {e}"));
        let arch = out.arch;
        let mut reg_moves = 0;
        let mut checked = 0;
        for ins in &out.kernel.instrs {
            let text = arch.print(ins);
            let form = &arch.forms[ins.form as usize];
            if form.mnemonic == "MOV"
                && matches!(ins.ops.as_slice(), [Operand::Reg(_), Operand::Reg(s)] if s.num != 255)
            {
                reg_moves += 1;
            }
            if form.key.starts_with("ATOM.CAS") {
                let Operand::Reg(rb) = ins.ops[2] else { panic!("{text}") };
                let Operand::Reg(rc) = ins.ops[3] else { panic!("{text}") };
                let wide = form.key.contains(".64");
                let align = if wide { 4 } else { 2 };
                assert_eq!(rb.num % align, 0, "{name}: `{text}`: Rb must be R{align}n");
                assert!(rc.num == 255 || rc.num == rb.num + if wide { 2 } else { 1 }, "{name}: `{text}`");
                checked += 1;
            }
        }
        assert_eq!(checked, 1, "{name}: one CAS expected");
        report.push(format!(
            "{name}: {reg_moves} register MOVs in the final code, {} inserted by the allocator",
            out.allocated.alloc.stats.moves
        ));
        if name.starts_with("aligned") {
            assert_eq!(reg_moves, 0, "{name}: aligned values need no move");
        }
    }
    println!("sm_50 CAS register layouts:\n  {}", report.join("\n  "));
}

/// CAS loops of the bench corpus: the compare value (the loop-carried one) and the swap value
/// land in the group's registers where they are computed, as ptxas places them (the register
/// colouring joins the copies selection makes into the group), so the only register MOVs left
/// are the back edge's copy of the observed value, and the kernels use no more registers than
/// ptxas 11.8 (measured with `atomc bench`).
#[test]
fn bench_cas_loops_compute_the_group_in_place() {
    // (kernel, register MOVs: the back edge's, registers ptxas 11.8 uses)
    let cases = [("f32_add_manual_cas", 1, 6), ("f64_add", 2, 12), ("stack_push", 1, 8)];
    for (name, moves, ptxas_regs) in cases {
        let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("filetests/bench/{name}.atom"));
        let src = std::fs::read_to_string(p).expect("read bench kernel");
        let func = atomc::ir::parse::parse_file(&src).expect("parse").functions.remove(0).func;
        let out = pipeline::compile_sass(&func, Target::Sm50).unwrap_or_else(|e| panic!("{name}: {e}"));
        let arch = out.arch;
        let reg_moves = out
            .kernel
            .instrs
            .iter()
            .filter(|ins| {
                arch.forms[ins.form as usize].mnemonic == "MOV"
                    && matches!(ins.ops.as_slice(), [Operand::Reg(_), Operand::Reg(s)] if s.num != 255)
            })
            .count();
        let listing: Vec<String> = out.kernel.instrs.iter().map(|i| arch.print(i)).collect();
        assert_eq!(reg_moves, moves, "{name}:\n{}", listing.join("\n"));
        assert!(out.allocated.alloc.num_regs <= ptxas_regs, "{name}: {} registers", out.allocated.alloc.num_regs);
    }
}
