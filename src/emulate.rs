//! Running a kernel's `; run:` line on the SASS emulator (`atomc-emu`) and judging the result
//! against the reference interpreter, as the GPU harness judges a GPU's: the buffers hold the
//! interpreter's bytes, or every order-independent check of the run line holds.
//!
//! Used by `atomc run --target`, `tests/emu_*.rs` and `tests/gpu_run.rs` (its fallback without
//! a GPU).
//!
//! ```
//! use atomc::emulate::{interpret, run_and_judge, Schedule};
//! let func = atomc::ir::parse::parse("function %count(ptr.global) {
//! block0(v0: ptr.global):
//!     v1 = iconst.i32 1
//!     v2 = atomic_rmw.i32 add relaxed gpu v0, v1
//!     return
//! }
//! ").unwrap().remove(0);
//! let spec = atomc::ir::interp::parse_run_line(&func, "grid 2 block 96 args(c) c: i32[1] => c == [192]").unwrap();
//! let want = interpret(&func, &spec).unwrap();
//! let atomc::Output::Binary(cubin) = atomc::compile(&func, atomc::Target::Sm50, atomc::Emit::Cubin).unwrap() else { unreachable!() };
//! let (exact, outcome) = run_and_judge(&cubin, &func, &spec, &want, Schedule::Random(7)).unwrap();
//! assert!(exact);
//! assert_eq!(outcome.buffers[0], 192i32.to_le_bytes());
//! ```

use crate::ir::interp::{self, KernelParam, Launch, Memory, RunSpec};
use crate::ir::Function;
pub use atomc_emu::{run_cubin, EmuError, Outcome, Param, Schedule};

/// The launch size of a run line: the call form runs one thread.
pub fn sizes(spec: &RunSpec) -> ([u32; 3], [u32; 3]) {
    if spec.is_call() {
        return ([1, 1, 1], [1, 1, 1]);
    }
    let (g, b) = (spec.grid(), spec.block());
    ([g.x, g.y, g.z], [b.x, b.y, b.z])
}

/// The interpreter's final contents of every declaration of the run line.
pub fn interpret(func: &Function, spec: &RunSpec) -> Result<Vec<Vec<u8>>, String> {
    interpret_with_stats(func, spec).map(|(bufs, _)| bufs)
}

/// [`interpret`], with what the run did (instructions, atomics: one per lane, as the IR says).
pub fn interpret_with_stats(func: &Function, spec: &RunSpec) -> Result<(Vec<Vec<u8>>, interp::RunStats), String> {
    let mut mem = Memory::new();
    enum Place {
        Buf(interp::BufferId),
        Surf(interp::SurfaceId),
    }
    let ids: Vec<_> = spec
        .decls()
        .into_iter()
        .map(|d| match d.surface_shape {
            None => Place::Buf(mem.add_buffer(d.init)),
            Some((extent, slot)) => {
                let id = mem.add_surface(interp::Surface { extent, elem_bytes: d.elem.bytes() as u32, data: d.init });
                if let Some(s) = slot {
                    mem.bind_slot(s, id);
                }
                Place::Surf(id)
            }
        })
        .collect();
    let (grid, block) = sizes(spec);
    let launch = Launch {
        grid: interp::Dim3::new(grid[0], grid[1], grid[2]),
        block: interp::Dim3::new(block[0], block[1], block[2]),
        shared_bytes: spec.shared_bytes(),
        step_limit: spec.step_limit(),
        args: spec.args().to_vec(),
        subgroup_size: spec.subgroup_size(),
    };
    let stats = interp::run_kernel(func, &launch, &mut mem).map_err(|e| e.to_string())?;
    let contents = ids.into_iter().map(|id| match id {
        Place::Buf(id) => mem.buffer(id).to_vec(),
        Place::Surf(id) => mem.surface(id).map(|s| s.data.clone()).unwrap_or_default(),
    });
    Ok((contents.collect(), stats))
}

/// The kernel parameters as a GPU receives them (see atomc's PTX parameter types): global and
/// generic pointers to a declared buffer name the buffer, everything else travels by its
/// little-endian bytes.
pub fn kernel_params(func: &Function, spec: &RunSpec) -> Result<Vec<Param>, String> {
    let params = spec.kernel_params(func)?.into_iter().map(|p| match p {
        KernelParam::Bytes(bytes) => Param::Bytes(bytes),
        KernelParam::Buffer { index, offset } => Param::Buffer { index, offset },
    });
    Ok(params.collect())
}

/// How a result relates to the interpreter's: `Ok(true)` byte for byte, `Ok(false)` by the run
/// line's order-independent checks, `Err` otherwise.
pub fn judge(spec: &RunSpec, got: &[Vec<u8>], want: &[Vec<u8>]) -> Result<bool, String> {
    if got == want {
        return Ok(true);
    }
    if spec.check_count() == 0 {
        return Err("differs from the interpreter, and the run line has no checks to judge it by".into());
    }
    spec.check_contents(got).map(|_| false).map_err(|e| {
        let first = got
            .iter()
            .zip(want)
            .zip(spec.decls())
            .find(|((g, w), _)| g != w)
            .map(|(_, d)| d.name.to_string())
            .unwrap_or_default();
        format!("differs from the interpreter (first in `{first}`) and the run line fails: {e}")
    })
}

/// The emulator's launch of a run line (buffers initialised from its declarations).
pub fn launch_of(func: &Function, spec: &RunSpec, schedule: Schedule) -> Result<atomc_emu::Launch, String> {
    let (grid, block) = sizes(spec);
    let mut l = atomc_emu::Launch::new(grid, block);
    l.shared_bytes = spec.shared_bytes();
    l.params = kernel_params(func, spec)?;
    let decls = spec.decls();
    l.buffers = decls.iter().filter(|d| d.surface_shape.is_none()).map(|d| d.init.clone()).collect();
    // Surface `i` (in declaration order, as the interpreter numbers handles) has header word `i`.
    let surfaces: Vec<_> = decls.iter().filter_map(|d| d.surface_shape.map(|s| (s, d))).collect();
    l.surfaces = surfaces
        .iter()
        .map(|&((extent, _), d)| interp::Surface { extent, elem_bytes: d.elem.bytes() as u32, data: d.init.clone() })
        .collect();
    // Bound slots, by the surface references atomc's cubins and PTX name `atomc_surface_<slot>`.
    for (i, ((_, slot), _)) in surfaces.iter().enumerate() {
        if let Some(n) = slot {
            l.surface_refs.push((format!("atomc_surface_{n}"), i as u32));
        }
    }
    l.schedule = schedule;
    l.step_limit = 2_000_000;
    Ok(l)
}

/// Runs `cubin`'s kernel for a run line on the emulator and judges it against `want` (the
/// interpreter's buffers): `Ok(exact)` or the reason it fails.
pub fn run_and_judge(
    cubin: &[u8],
    func: &Function,
    spec: &RunSpec,
    want: &[Vec<u8>],
    schedule: Schedule,
) -> Result<(bool, Outcome), String> {
    let launch = launch_of(func, spec, schedule)?;
    let mut out = run_cubin(cubin, &func.name, &launch).map_err(|e| e.to_string())?;
    out.buffers = contents(spec, std::mem::take(&mut out.buffers), &out.surfaces);
    let exact = judge(spec, &out.buffers, want)?;
    Ok((exact, out))
}

/// The run line's declarations' contents in declaration order, from the emulator's buffers and
/// surfaces (each in its own declaration order).
pub fn contents(spec: &RunSpec, buffers: Vec<Vec<u8>>, surfaces: &[interp::Surface]) -> Vec<Vec<u8>> {
    let (mut b, mut s) = (buffers.into_iter(), surfaces.iter());
    let decls = spec.decls();
    decls
        .iter()
        .map(|d| match d.surface_shape {
            None => b.next().unwrap_or_default(),
            Some(_) => s.next().map(|s| s.data.clone()).unwrap_or_default(),
        })
        .collect()
}
