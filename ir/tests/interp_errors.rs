//! Errors, never panics: misaligned and out-of-bounds accesses, unknown
//! buffers, division by zero, undefined values, step limit, deadlock,
//! surface traps, malformed functions; undefined behaviour
//! (a barrier some threads skip).

mod interp_common;
use atomc_ir::interp::{self, DataValue, Dim3, InterpError, Launch, Memory};
use atomc_ir::{AddrSpace, BinaryOp, FunctionBuilder, IntCC, Type};
use interp_common::{exec_err, func, pass};

const STORE_AT: &str = "function %st(ptr.global, i64) {
block0(v0: ptr.global, v1: i64):
    v2 = ptr_add v0, v1
    v3 = iconst.i32 7
    store v3, v2
    return
}
";

#[test]
fn misaligned_global_access_names_the_store_and_its_line() {
    let f = func(STORE_AT);
    pass(&f, "args(b, 4) b: i32[2] => b == [0, 7]");
    let e = exec_err(&f, "args(b, 2) b: i32[2]");
    assert!(
        matches!(
            e,
            InterpError::Misaligned {
                addr: 0x1_0000_0002,
                size: 4,
                ..
            }
        ),
        "{e}"
    );
    let msg = e.to_string();
    assert!(msg.contains("`store`"), "{msg}");
    assert!(msg.contains("line 5:"), "{msg}");
    assert_eq!(e.loc().map(|l| l.line), Some(5));
    assert!(msg.contains("thread (0,0,0) of block (0,0,0)"), "{msg}");
}

#[test]
fn out_of_bounds_and_unknown_buffers() {
    let f = func(STORE_AT);
    let e = exec_err(&f, "args(b, 8) b: i32[2]");
    assert!(matches!(e, InterpError::OutOfBounds { .. }), "{e}");
    assert!(e.to_string().contains("buffer 0 (8 bytes)"), "{e}");
    let e = exec_err(&f, "args(b, -4) b: i32[2]");
    assert!(
        matches!(
            e,
            InterpError::UnknownBuffer { .. } | InterpError::OutOfBounds { .. }
        ),
        "{e}"
    );
    // A null pointer is in no buffer.
    let e = exec_err(&f, "args(0, 0) b: i32[2]");
    assert!(
        matches!(e, InterpError::UnknownBuffer { addr: 0, .. }),
        "{e}"
    );
    // The second buffer's window past its end.
    let e = exec_err(&f, "args(c+4, 0) b: i32[2] c: i32[1]");
    assert!(e.to_string().contains("buffer 1"), "{e}");
}

#[test]
fn loads_name_their_result_value() {
    let f = func(
        "function %ld(ptr.global) {
block0(v0: ptr.global):
    v1 = load.i64 v0+4
    store v1, v0
    return
}
",
    );
    let e = exec_err(&f, "args(b) b: i64[2]");
    assert!(e.to_string().contains("`v1 = load`"), "{e}");
    assert!(matches!(e, InterpError::Misaligned { .. }));
    // The same through an atomic: the error names the atomic.
    let f = func(
        "function %at(ptr.global) {
block0(v0: ptr.global):
    v1 = iconst.i32 1
    v2 = atomic_rmw.i32 add relaxed gpu v0+8, v1
    return
}
",
    );
    let e = exec_err(&f, "block 3 args(b) b: i32[2]");
    assert!(e.to_string().contains("`v2 = atomic_rmw`"), "{e}");
    assert!(matches!(e, InterpError::OutOfBounds { .. }));
    pass(&f, "block 3 args(b) b: i32[2] => error \"out-of-bounds\"");
}

#[test]
fn misaligned_and_out_of_bounds_shared_accesses() {
    let f = func(
        "function %sh(ptr.shared) {
block0(v0: ptr.shared):
    v1 = iconst.i64 5
    store v1, v0
    return
}
",
    );
    pass(&f, "shared 16 args(8)");
    let e = exec_err(&f, "shared 16 args(4)");
    assert!(
        matches!(
            e,
            InterpError::Misaligned {
                space: AddrSpace::Shared,
                ..
            }
        ),
        "{e}"
    );
    let e = exec_err(&f, "shared 16 args(16)");
    assert!(
        matches!(
            e,
            InterpError::OutOfBounds {
                space: AddrSpace::Shared,
                ..
            }
        ),
        "{e}"
    );
    // No shared memory declared at all.
    let e = exec_err(&f, "args(0)");
    assert!(matches!(e, InterpError::OutOfBounds { .. }), "{e}");
}

#[test]
fn division_by_zero_names_the_instruction() {
    for op in ["udiv", "sdiv", "urem", "srem"] {
        let f = func(&format!(
            "function %d(i32, i32) -> i32 {{
block0(v0: i32, v1: i32):
    v2 = {op} v0, v1
    return v2
}}
"
        ));
        let e = exec_err(&f, "%d(7, 0) == 0");
        assert!(matches!(e, InterpError::DivisionByZero { .. }), "{e}");
        assert!(e.to_string().contains(&format!("`v2 = {op}`")), "{e}");
    }
}

#[test]
fn reading_an_undefined_value_is_an_error() {
    // block1 uses v2, which is only defined on the path through block2.
    let mut b = FunctionBuilder::with_returns("u", &[Type::I32], &[Type::I32]);
    let x = b.param(0);
    let zero = b.iconst(Type::I32, 0);
    let c = b.icmp(IntCC::Eq, x, zero);
    let b1 = b.create_block();
    let b2 = b.create_block();
    b.brif(c, b1, &[], b2, &[]);
    b.switch_to_block(b2);
    let y = b.binary(BinaryOp::Iadd, x, x);
    b.jump(b1, &[]);
    b.switch_to_block(b1);
    let z = b.binary(BinaryOp::Iadd, y, x);
    b.ret(&[z]);
    let f = b.finish();
    assert_eq!(
        interp::call(&f, &[DataValue::I32(3)]).unwrap(),
        [DataValue::I32(9)]
    );
    let e = interp::call(&f, &[DataValue::I32(0)]).unwrap_err();
    assert!(matches!(e, InterpError::Undefined { .. }), "{e}");
    assert!(
        e.to_string()
            .contains("`v4 = iadd` (inst5) in thread (0,0,0) of block (0,0,0): reads v3"),
        "{e}"
    );
}

#[test]
fn an_endless_loop_hits_the_step_limit() {
    let f = func(
        "function %spin(ptr.global) {
block0(v0: ptr.global):
    jump block1
block1:
    v1 = atomic_load.i32 acquire gpu v0
    v2 = iconst.i32 0
    v3 = icmp eq v1, v2
    brif v3, block1, block2
block2:
    return
}
",
    );
    let e = exec_err(&f, "steps 1000 args(b) b: i32[1]");
    assert!(matches!(e, InterpError::StepLimit { limit: 1000, .. }), "{e}");
    let msg = e.to_string();
    assert!(
        msg.contains("next: `brif` (inst4, line 8:5) in thread (0,0,0) of block (0,0,0)"),
        "{msg}"
    );
    pass(&f, "steps 1000 args(b) b: i32[1] = 1");
    // The default limit stops it too.
    let e = exec_err(&f, "args(b) b: i32[1]");
    assert!(
        matches!(e, InterpError::StepLimit { limit: interp::DEFAULT_STEP_LIMIT, .. }),
        "{e}"
    );
}

#[test]
fn divergent_barriers_deadlock() {
    // Even threads wait at one barrier, odd threads at another.
    let f = func(
        "function %div(ptr.global) {
block0(v0: ptr.global):
    v1 = thread_id.x
    v2 = iconst.i32 1
    v3 = band v1, v2
    v4 = iconst.i32 0
    v5 = icmp eq v3, v4
    brif v5, block1, block2
block1:
    barrier
    jump block3
block2:
    barrier
    jump block3
block3:
    return
}
",
    );
    let e = exec_err(&f, "block 4 args(b) b: i32[1]");
    assert!(matches!(e, InterpError::Deadlock { .. }), "{e}");
    let msg = e.to_string();
    assert!(msg.contains("2 thread(s) at `barrier`"), "{msg}");
    // A single thread never deadlocks with itself.
    pass(&f, "block 1 args(b) b: i32[1]");
}

#[test]
fn a_barrier_that_returned_threads_skip_is_undefined() {
    // The kernel of issue 35: only threads 0..15 of a 64-thread block reach the barrier;
    // on the hardware the others never arrive and the block hangs.
    let f = func(
        "function %skip(ptr.global) {
block0(v0: ptr.global):
    v1 = thread_id.x
    v2 = iconst.i32 16
    v3 = icmp ult v1, v2
    brif v3, block1, block2
block1:
    barrier
    v4 = iconst.i32 1
    v5 = atomic_rmw.i32 add relaxed cta v0, v4
    jump block2
block2:
    return
}
",
    );
    let e = exec_err(&f, "block 64 args(b) b: i32[1]");
    assert!(matches!(e, InterpError::BarrierNotReached { .. }), "{e}");
    let msg = e.to_string();
    assert!(msg.starts_with("undefined behaviour (barrier-not-reached): 16 thread(s) of the block wait at `barrier` (inst4, line 8:5) in thread (0,0,0) of block (0,0,0)"), "{msg}");
    assert!(msg.contains("returned without reaching it, the first at `return` (inst8, line 13:5) in thread (16,0,0)"), "{msg}");
    assert_eq!(e.loc().map(|l| l.line), Some(8), "{msg}");
    // Thread 0 returns before thread 1 reaches the barrier: the same error from the other
    // side, as soon as one thread waits.
    let f = func(
        "function %early(ptr.global) {
block0(v0: ptr.global):
    v1 = thread_id.x
    v2 = iconst.i32 0
    v3 = icmp eq v1, v2
    brif v3, block2, block1
block1:
    barrier
    jump block2
block2:
    return
}
",
    );
    let msg = exec_err(&f, "block 8 args(b) b: i32[1]").to_string();
    assert!(msg.contains("1 thread(s) of the block wait at `barrier` (inst4, line 8:5) in thread (1,0,0)"), "{msg}");
    assert!(msg.contains("1 thread(s) of the block returned without reaching it, the first at `return` (inst6, line 11:5) in thread (0,0,0)"), "{msg}");
    // Every thread of the block at the barrier, or none: defined.
    pass(&f, "block 1 args(b) b: i32[1]");
}

#[test]
fn surface_out_of_range_traps_ignores_or_clamps() {
    let src = |clamp: &str| {
        func(&format!(
            "function %s(i32, i32) {{
block0(v0: i32, v1: i32):
    v2 = iconst.i32 1
    v3 = surface_rmw.i32 add 2d coord {clamp} relaxed gpu slot 0 [v0, v1], v2
    return
}}
"
        ))
    };
    let f = src("trap");
    pass(
        &f,
        "args(3, 1) s: surface i32[4x2] slot 0 => s == [0, 0, 0, 0, 0, 0, 0, 1]",
    );
    let e = exec_err(&f, "args(4, 1) s: surface i32[4x2] slot 0");
    assert!(matches!(e, InterpError::SurfaceOutOfRange { .. }), "{e}");
    assert!(e.to_string().contains("[4, 1]"), "{e}");
    let e = exec_err(&f, "args(-1, 0) s: surface i32[4x2] slot 0");
    assert!(matches!(e, InterpError::SurfaceOutOfRange { .. }), "{e}");
    // Unbound slot, wrong element size.
    let e = exec_err(&f, "args(0, 0) s: surface i32[4x2] slot 1");
    assert!(
        e.to_string().contains("no surface is bound at slot 0"),
        "{e}"
    );
    let e = exec_err(&f, "args(0, 0) s: surface i64[4x2] slot 0");
    assert!(e.to_string().contains("8-byte elements"), "{e}");
    let f = src("ign");
    pass(&f, "args(4, 1) s: surface i32[4x2] slot 0 => s all == 0");
    let f = src("near");
    pass(
        &f,
        "args(9, -3) s: surface i32[4x2] slot 0 => s == [0, 0, 0, 1, 0, 0, 0, 0]",
    );
}

#[test]
fn malformed_functions_and_launches_are_errors() {
    // A block without a terminator.
    let mut b = FunctionBuilder::new("noterm", &[]);
    b.iconst(Type::I32, 1);
    let f = b.finish();
    let e = interp::run_kernel(
        &f,
        &Launch::new(Dim3::x(1), Dim3::x(1), vec![]),
        &mut Memory::new(),
    )
    .unwrap_err();
    assert!(matches!(e, InterpError::Malformed { .. }), "{e}");
    assert!(e.to_string().contains("without a terminator"), "{e}");
    // An operation on the wrong type is caught when decoding.
    let mut b = FunctionBuilder::new("badtype", &[Type::F32]);
    let x = b.param(0);
    b.binary(BinaryOp::Iadd, x, x);
    b.ret(&[]);
    let f = b.finish();
    let e = interp::Program::new(&f).err().expect("decode error");
    assert!(e.to_string().contains("iadd is not defined on f32"), "{e}");
    // Launch shape problems.
    let f = func(STORE_AT);
    let mut mem = Memory::new();
    let e =
        interp::run_kernel(&f, &Launch::new(Dim3::x(0), Dim3::x(1), vec![]), &mut mem).unwrap_err();
    assert!(matches!(e, InterpError::BadLaunch(_)), "{e}");
    let e =
        interp::run_kernel(&f, &Launch::new(Dim3::x(1), Dim3::x(1), vec![]), &mut mem).unwrap_err();
    assert!(e.to_string().contains("takes 2 arguments, 0 given"), "{e}");
    let e = interp::run_kernel(
        &f,
        &Launch::new(Dim3::x(1 << 12), Dim3::x(1 << 10), vec![]),
        &mut mem,
    )
    .unwrap_err();
    assert!(matches!(e, InterpError::BadLaunch(_)), "{e}");
}
