//! The `.nv.info` and `.nv.info.<k>` records of [`super::write_cubin`], in ptxas 11.8's order.

use super::nvinfo::{self, attr, Record};
use super::{Sm, CubinKernel, CUDA_VERSION};

/// The `.nv.info` records (per-function attributes keyed by symbol index),
/// in ptxas 11.8's order.
pub(super) fn global_info(k: &CubinKernel, func_sym: u32) -> Vec<Record> {
    let frame = k.local_frame_bytes;
    vec![
        Record::words(attr::REGCOUNT, &[func_sym, k.arch.regcount(k.regs_used)]),
        Record::words(attr::MAX_STACK_SIZE, &[func_sym, 0]),
        Record::words(attr::MIN_STACK_SIZE, &[func_sym, frame]),
        Record::words(attr::FRAME_SIZE, &[func_sym, frame]),
    ]
}

/// The `.nv.info.<k>` records in ptxas 11.8's per-architecture order.
pub(super) fn kernel_info(k: &CubinKernel, const0_sym: u32) -> Vec<Record> {
    let base = k.arch.param_base();
    let pbytes = k.param_bytes();
    let cbank = || Record::words(attr::PARAM_CBANK, &[const0_sym, base | (pbytes << 16)]);
    let cbank_size = || Record::hval(attr::CBANK_PARAM_SIZE, pbytes as u16);
    // ptxas lists the parameters last to first.
    let kparams =
        k.params.iter().enumerate().rev().map(|(i, p)| nvinfo::kparam_info(i as u16, p.offset as u16, p.size));
    let has_params = !k.params.is_empty();

    let mut out = vec![Record::words(attr::CUDA_API_VERSION, &[CUDA_VERSION])];
    if k.arch == Sm::Sm50 {
        out.push(Record::nval(attr::SW2393858_WAR));
        out.push(Record::nval(attr::SW1850030_WAR));
        if has_params {
            out.push(cbank());
            out.push(cbank_size());
        }
    }
    out.extend(kparams);
    out.push(Record::hval(attr::MAXREG_COUNT, k.max_registers.map_or(0xff, |n| n.min(0xff) as u16)));
    if k.arch == Sm::Sm50 && !k.surface_refs.is_empty() {
        out.push(Record::bval(attr::BINDLESS_SURFACE_BANK, 0));
    }
    // sm_90: ptxas 13.5 declares the barrier count in NUM_BARRIERS (its text flags no longer
    // carry it); the flags keep it too, as ptxas 11.8 wrote them, so either reader finds it.
    if k.arch == Sm::Sm90 && k.num_barriers > 0 {
        out.push(Record::bval(attr::NUM_BARRIERS, k.num_barriers as u8));
    }
    if !k.warp_wide_offsets.is_empty() {
        out.push(Record::words(attr::INT_WARP_WIDE_INSTR_OFFSETS, &k.warp_wide_offsets));
    }
    out.push(Record::words(attr::EXIT_INSTR_OFFSETS, &k.exit_offsets));
    out.extend(k.extra_records.iter().cloned());
    if let Some(t) = k.max_threads {
        out.push(Record::words(attr::MAX_THREADS, &t));
    }
    if k.arch == Sm::Sm90 && has_params {
        out.push(cbank_size());
        out.push(cbank());
    }
    if k.arch == Sm::Sm90 && !k.surface_refs.is_empty() {
        out.push(Record::bval(attr::BINDLESS_TEXTURE_BANK, 0));
        out.push(Record::bval(attr::BINDLESS_SURFACE_BANK, 0));
    }
    out
}
