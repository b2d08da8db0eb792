//! Kernels for the SLM messages and the barrier: every `dword_atomic` op at
//! 32 bits and, where GenX_IR takes it, 16 bits, at SIMD8 and SIMD16, with
//! and without a result; `gather_scaled`/`scatter_scaled` of 1, 2 and 4
//! bytes; `barrier` with `fence_local.E`.

use crate::visa_common::{atomic_vars, sources};
use atomc_visa::*;

/// One kernel per op × width × exec size × result form.
pub fn slm() -> Vec<Kernel> {
    let mut v = Vec::new();
    let ops = AtomicOp::ALL.into_iter().filter(|op| !matches!(op, AtomicOp::PreDec | AtomicOp::FAdd | AtomicOp::FSub));
    for op in ops {
        for w in [AtomicWidth::W32, AtomicWidth::W16] {
            if w == AtomicWidth::W16 && (op.is_float() || op.num_sources() == 2) {
                continue;
            }
            for lanes in [8u16, 16] {
                for used in [true, false] {
                    let name = format!(
                        "slm_{}{}_simd{lanes}_{}",
                        op.text().unwrap_or("x"),
                        w.suffix().replace('.', "_"),
                        used as u8
                    );
                    let mut k = Kernel::new(name);
                    k.simd_size = Some(lanes as u8);
                    let ty = slm_data_type(op, w);
                    let [o, s0, s1, d] = atomic_vars(&mut k, ("O", Type::UD), ty, lanes);
                    // One 64-byte slot per input: GRF aligned on PVC too.
                    let bytes = 64;
                    k.input(o, 64);
                    k.input(s0, 64 + bytes);
                    k.input(s1, 64 + 2 * bytes);
                    let e = Exec::new(ExecSize::from_lanes(lanes as u32).expect("lanes"));
                    let (src0, src1) = sources(op, Operand::raw(s0), Operand::raw(s1));
                    let dst = if used { Operand::raw(d) } else { Operand::null() };
                    k.dword_atomic(e, op, w, Operand::raw(o), dst, src0, src1);
                    if used {
                        k.scatter_scaled(e, 4, Operand::imm(Imm::ud(0)), Operand::raw(o), Operand::raw(d));
                    }
                    k.ret();
                    v.push(k);
                }
            }
        }
    }
    for bytes in [1u8, 2, 4] {
        for lanes in [8u16, 16] {
            let mut k = Kernel::new(format!("slm_gs_{bytes}_simd{lanes}"));
            k.simd_size = Some(lanes as u8);
            let o = k.decl_simd("O", Type::UD, lanes);
            let d = k.decl_simd("D", Type::UD, lanes);
            k.input(o, 64);
            let e = Exec::new(ExecSize::from_lanes(lanes as u32).expect("lanes"));
            k.gather_scaled(e, bytes, Operand::imm(Imm::ud(16)), Operand::raw(o), Operand::raw(d));
            k.fence(Fence { local: true, commit: true, ..Fence::default() });
            k.barrier();
            k.scatter_scaled(e, bytes, Operand::imm(Imm::ud(4)), Operand::raw(o), Operand::raw(d));
            k.ret();
            v.push(k);
        }
    }
    v
}
