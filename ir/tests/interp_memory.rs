//! Barriers and shared memory, generic pointers, surfaces (slots, handles,
//! byte addressing), thread and block ids.

mod interp_common;
use interp_common::{exec_err, func, pass};

#[test]
fn barrier_and_shared_memory_reverse_a_block() {
    // Each thread writes in[tid] to shared[tid]; barrier; out[tid] = shared[n-1-tid].
    let f = func(
        "function %rev(ptr.global, ptr.global, ptr.shared) {
block0(v0: ptr.global, v1: ptr.global, v2: ptr.shared):
    v3 = thread_id.x
    v4 = block_dim.x
    v5 = block_id.x
    v6 = imul v5, v4
    v7 = iadd v6, v3
    v8 = uextend.i64 v7
    v9 = iconst.i64 4
    v10 = imul v8, v9
    v11 = ptr_add v0, v10
    v12 = load.i32 v11
    v13 = iconst.i32 4
    v14 = imul v3, v13
    v15 = ptr_add v2, v14
    store v12, v15
    barrier
    v16 = iconst.i32 1
    v17 = isub v4, v16
    v18 = isub v17, v3
    v19 = imul v18, v13
    v20 = ptr_add v2, v19
    v21 = load.i32 v20
    v22 = ptr_add v1, v10
    store v21, v22
    return
}
",
    );
    pass(
        &f,
        "grid 2 block 4 shared 16 args(i, o, 0) i: i32[8] = iota o: i32[8] => o == [3, 2, 1, 0, 7, 6, 5, 4]",
    );
    // Without the barrier's protection the same kernel would read zeros:
    // the first thread reads shared[n-1] before the last thread wrote it.
    pass(
        &f,
        "grid 1 block 64 shared 256 args(i, o, 0) i: i32[64] = iota o: i32[64] => o sorted == iota",
    );
}

#[test]
fn shared_memory_is_fresh_per_block() {
    // Every thread adds 1 to shared[0], barrier, thread 0 copies it out to out[block].
    let f = func(
        "function %count(ptr.global, ptr.shared) {
block0(v0: ptr.global, v1: ptr.shared):
    v2 = iconst.i32 1
    v3 = atomic_rmw.i32 add relaxed cta v1, v2
    barrier
    v4 = thread_id.x
    v5 = iconst.i32 0
    v6 = icmp eq v4, v5
    brif v6, block1, block2
block1:
    v7 = load.i32 v1
    v8 = block_id.x
    v9 = uextend.i64 v8
    v10 = iconst.i64 4
    v11 = imul v9, v10
    v12 = ptr_add v0, v11
    store v7, v12
    jump block2
block2:
    return
}
",
    );
    pass(
        &f,
        "grid 3 block 5 shared 4 args(o, 0) o: i32[3] => o == [5, 5, 5]",
    );
}

#[test]
fn generic_pointers_reach_shared_and_global_memory() {
    let f = func(
        "function %gen(ptr.global, ptr.shared) {
block0(v0: ptr.global, v1: ptr.shared):
    v2 = ptr_to_generic v1
    v3 = ptr_to_generic v0
    v4 = iconst.i32 5
    store v4, v2+4
    v5 = iconst.i32 1
    v6 = atomic_rmw.i32 add relaxed gpu v3, v5
    barrier
    v7 = load.i32 v1+4
    store v7, v0+4
    v8 = atomic_rmw.i32 add relaxed cta v2+4, v5
    return
}
",
    );
    pass(&f, "block 3 shared 8 args(b, 0) b: i32[2] => b == [3, 5]");
    // A generic pointer past shared memory is out of bounds.
    let e = exec_err(&f, "block 1 shared 4 args(b, 0) b: i32[2]");
    assert!(
        matches!(
            e,
            atomc_ir::interp::InterpError::OutOfBounds {
                space: atomc_ir::AddrSpace::Generic,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn special_registers_in_three_dimensions() {
    // out[linear thread] = tid.x + 10*tid.y + 100*tid.z + 1000*bid.x + 10000*bid.y + lane*0
    let f = func(
        "function %ids(ptr.global) {
block0(v0: ptr.global):
    v1 = thread_id.x
    v2 = thread_id.y
    v3 = thread_id.z
    v4 = block_id.x
    v5 = block_id.y
    v6 = block_dim.x
    v7 = block_dim.y
    v8 = block_dim.z
    v9 = grid_dim.x
    v10 = iconst.i32 10
    v11 = imul v2, v10
    v12 = iadd v1, v11
    v13 = iconst.i32 100
    v14 = imul v3, v13
    v15 = iadd v12, v14
    v16 = iconst.i32 1000
    v17 = imul v4, v16
    v18 = iadd v15, v17
    v19 = iconst.i32 10000
    v20 = imul v5, v19
    v21 = iadd v18, v20
    v22 = imul v6, v7
    v23 = imul v22, v8
    v24 = imul v5, v9
    v25 = iadd v24, v4
    v26 = imul v25, v23
    v27 = imul v3, v7
    v28 = iadd v27, v2
    v29 = imul v28, v6
    v30 = iadd v29, v1
    v31 = iadd v26, v30
    v32 = uextend.i64 v31
    v33 = iconst.i64 4
    v34 = imul v32, v33
    v35 = ptr_add v0, v34
    store v21, v35
    return
}
",
    );
    pass(
        &f,
        "grid 2x2 block 2x1x2 args(o) o: i32[16] => o == [0, 1, 100, 101, 1000, 1001, 1100, 1101, \
         10000, 10001, 10100, 10101, 11000, 11001, 11100, 11101]",
    );
}

#[test]
fn lane_id_counts_within_warps_of_32() {
    let f = func(
        "function %lane(ptr.global) {
block0(v0: ptr.global):
    v1 = lane_id
    v2 = iconst.i32 1
    v3 = uextend.i64 v1
    v4 = iconst.i64 4
    v5 = imul v3, v4
    v6 = ptr_add v0, v5
    v7 = atomic_rmw.i32 add relaxed gpu v6, v2
    return
}
",
    );
    pass(&f, "block 40 args(o) o: i32[32] => o[0..8] == [2, 2, 2, 2, 2, 2, 2, 2], o[8..32] all == 1, o sum == 40");
}

#[test]
fn surfaces_by_slot_by_handle_and_by_bytes() {
    let f = func(
        "function %surf(surface, i32) {
block0(v0: surface, v1: i32):
    v2 = iconst.i32 1
    v3 = surface_rmw.i32 add 1d coord trap relaxed gpu v0 [v1], v2
    v4 = iconst.i32 8
    v5 = surface_rmw.i32 add 1d_buffer bytes trap relaxed gpu slot 2 [v4], v2
    v6 = iconst.i32 0
    v7 = surface_rmw.i32 umax 2d_array coord trap relaxed gpu slot 3 [v2, v6, v2], v1
    return
}
",
    );
    pass(
        &f,
        "block 4 args(h, 2) h: surface i32[4] = 0 b: surface i32[4] slot 2 a: surface u32[2x1x2] slot 3 \
         => h == [0, 0, 4, 0], b == [0, 0, 4, 0], a == [0, 0, 0, 2]",
    );
    let e = exec_err(
        &f,
        "args(0x1234, 2) h: surface i32[4] b: surface i32[4] slot 2 a: surface u32[2x1x2] slot 3",
    );
    assert!(e.to_string().contains("is not a surface handle"), "{e}");
    // Byte addressing needs a multiple of the element size.
    let g = func(
        "function %bytes(i32) {
block0(v0: i32):
    v1 = iconst.i32 1
    v2 = surface_cas.i32 1d bytes trap relaxed gpu slot 0 [v0], v1, v1
    return
}
",
    );
    pass(&g, "args(4) s: surface i32[2] slot 0 = 1");
    let e = exec_err(&g, "args(6) s: surface i32[2] slot 0");
    assert!(
        e.to_string().contains("not a multiple of the element size"),
        "{e}"
    );
}

#[test]
fn surface_cas_and_float_surface_atomics() {
    let f = func(
        "function %sc(i32) {
block0(v0: i32):
    v1 = iconst.i32 0
    v2 = iconst.i32 9
    v3 = surface_cas.i32 2d coord ign relaxed gpu slot 0 [v0, v1], v1, v2
    v4 = fconst.f32 0.5
    v5 = surface_rmw.f32 fadd 1d coord near relaxed gpu slot 1 [v0], v4
    return
}
",
    );
    pass(&f, "block 3 args(1) s: surface i32[2x2] slot 0 f: surface f32[1] slot 1 => s == [0, 9, 0, 0], f == [1.5]");
}
