//! sm_50 generic atomics: the emulator's shared window checked on ptxas 11.8's own code first,
//! then atomc's code for the same kernel.
//!
//! atomc tests a generic address as ptxas writes `isspacep.shared` (the high word zero, the top
//! byte of the low word the window's, whose generic base is `c[0x0][0x0]`), and takes `ATOMS` on
//! the low 24 bits or `ATOM.E` on the address (lower/src/sass/isel/sm50/generic.rs). ptxas's
//! own shared-window test for `atom` on a generic address (`LEA.HI.X P0, RZ, R2, RZ, R3`) has
//! no form here, so the reference is ptxas's code for the PTX of atomc's approach: the same test
//! by `isspacep.shared`, `cvta.to.shared`, and the two atomics under its predicate (ptxas 11.8
//! branches around each with SSY/SYNC).

use atomc::emulate::{self, Schedule};
use atomc_oracle::{self as oracle, Sm, Tool};

const IR: &str = "
function %ptx_window(ptr.global) {
block0(v0: ptr.global):
    v1 = thread_id.x
    v2 = iconst.i32 1
    v3 = band v1, v2
    v4 = iconst.i32 0
    v5 = bitcast.ptr.shared v4
    v6 = icmp ne v3, v4
    brif v6, block1, block2
block1:
    v7 = ptr_to_generic v5
    jump block3(v7)
block2:
    v8 = ptr_to_generic v0
    jump block3(v8)
block3(v9: ptr.generic):
    v10 = atomic_rmw.i32 add relaxed gpu v9, v2
    v11 = iconst.i64 0
    v12 = iconst.i64 5
    v13 = atomic_cas.i64 relaxed gpu v9+8, v11, v12
    barrier
    v14 = load.i32 v5
    store v14, v0+4
    v15 = load.i64 v5+8
    store v15, v0+16
    return
}
";

/// The same kernel in PTX: odd lanes' pointer is the shared window's, even lanes' the buffer.
const PTX: &str = "
.version 7.0
.target sm_50
.address_size 64
.extern .shared .align 8 .b8 smem[];
.visible .entry ptx_window(.param .u64 g)
{
  .reg .u64 %rd<10>; .reg .u32 %r<10>; .reg .pred %p<3>;
  ld.param.u64 %rd1, [g];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 1;
  setp.ne.u32 %p1, %r2, 0;
  mov.u64 %rd3, smem;
  cvta.shared.u64 %rd4, %rd3;
  selp.b64 %rd5, %rd4, %rd1, %p1;
  isspacep.shared %p2, %rd5;
  cvta.to.shared.u64 %rd6, %rd5;
  cvt.u32.u64 %r3, %rd6;
  @%p2 atom.shared.add.u32 %r5, [%r3], 1;
  @!%p2 atom.global.add.u32 %r6, [%rd5], 1;
  @%p2 atom.shared.cas.b64 %rd7, [%r3+8], 0, 5;
  @!%p2 atom.global.cas.b64 %rd8, [%rd5+8], 0, 5;
  bar.sync 0;
  ld.shared.u32 %r4, [smem];
  st.global.u32 [%rd1+4], %r4;
  ld.shared.u64 %rd9, [smem+8];
  st.global.u64 [%rd1+16], %rd9;
  ret;
}
";

/// Run lines: a full warp, a partial one, two blocks of two warps (the global word counts every
/// block's even lanes, the shared words one block's odd lanes).
const LINES: &[&str] = &[
    "block 32 shared 16 g: u32[6] = 0, %ptx_window(g) => g == [16, 16, 5, 0, 5, 0]",
    "block 7 shared 16 g: u32[6] = 0, %ptx_window(g) => g == [4, 3, 5, 0, 5, 0]",
    "grid 2 block 40 shared 16 g: u32[6] = 0, %ptx_window(g) => g == [40, 20, 5, 0, 5, 0]",
];

#[test]
fn generic_atomics_reach_both_windows_in_ptxas_code_and_atomc_code() {
    let parsed = atomc::ir::parse::parse_file(IR).expect("parses");
    let func = parsed.functions.into_iter().next().expect("one function").func;
    let atomc_cubin = match atomc::compile(&func, atomc::Target::Sm50, atomc::Emit::Cubin) {
        Ok(atomc::Output::Binary(b)) => b,
        other => panic!("no cubin: {other:?}"),
    };
    let ptxas_cubin = oracle::require(Tool::Ptxas118).is_some().then(|| oracle::ptxas(Sm::Sm50, PTX).expect("ptxas"));
    for line in LINES {
        let spec = atomc::ir::interp::parse_run_line(&func, line).expect("run line");
        let want = emulate::interpret(&func, &spec).expect("interprets");
        for schedule in [Schedule::RoundRobin, Schedule::Random(7)] {
            for (who, cubin) in [("ptxas", ptxas_cubin.as_ref()), ("atomc", Some(&atomc_cubin))] {
                let Some(cubin) = cubin else { continue };
                let (exact, _) = emulate::run_and_judge(cubin, &func, &spec, &want, schedule)
                    .unwrap_or_else(|e| panic!("{line} ({schedule:?}), {who}'s code: {e}"));
                assert!(exact, "{line} ({schedule:?}): {who}'s code differs from the interpreter");
            }
        }
    }
}
