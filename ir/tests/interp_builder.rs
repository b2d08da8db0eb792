//! Interpreter tests on functions built with `FunctionBuilder`: contended
//! atomics, a CAS retry loop, calls.

use atomc_ir::interp::{self, DataValue, Dim3, InterpError, Launch, Memory, GLOBAL_BASE};
use atomc_ir::{
    AddrSpace, BinaryOp, ConvOp, FunctionBuilder, IntCC, MemOrder, RmwOp, Scope, SpecialReg, Type,
};

const G: Type = Type::Ptr(AddrSpace::Global);

fn global_arg(mem: &Memory, id: interp::BufferId) -> DataValue {
    DataValue::Ptr(AddrSpace::Global, mem.buffer_addr(id))
}

fn u32s(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// `atomic_rmw add 1` into one word.
fn add_one_kernel() -> atomc_ir::Function {
    let mut b = FunctionBuilder::new("add_one", &[G]);
    let p = b.param(0);
    let one = b.iconst(Type::I32, 1);
    b.atomic_rmw(
        RmwOp::Add,
        Type::I32,
        MemOrder::Relaxed,
        Scope::Gpu,
        p,
        0,
        one,
    );
    b.ret(&[]);
    b.finish()
}

#[test]
fn two_hundred_fifty_six_threads_add_into_one_word() {
    let f = add_one_kernel();
    let mut mem = Memory::new();
    let buf = mem.add_buffer(vec![0; 4]);
    let launch = Launch::new(Dim3::x(1), Dim3::x(256), vec![global_arg(&mem, buf)]);
    let stats = interp::run_kernel(&f, &launch, &mut mem).unwrap();
    assert_eq!(u32s(mem.buffer(buf)), [256]);
    assert_eq!(stats.steps, 256 * 3);
    interp::run_line(
        &f,
        "grid 1 block 256 args(buf0) buf0: i32[1] = [0] => buf0 == [256]",
    )
    .unwrap();
    interp::run_line(
        &f,
        "grid 2x2 block 8x8 args(b) b: i32[1] = 10 => b == [266]",
    )
    .unwrap();
}

/// A lock-free counter: `old = load; loop { seen = cas(old, old+1); if seen == old break; old = seen }`.
/// Each thread stores the value it claimed into `tickets[tid]`.
fn cas_counter_kernel() -> atomc_ir::Function {
    let mut b = FunctionBuilder::new("cas_counter", &[G, G]);
    let (counter, tickets) = (b.param(0), b.param(1));
    let first = b.atomic_load(Type::I32, MemOrder::Relaxed, Scope::Gpu, counter, 0);
    let retry = b.create_block();
    let old = b.block_param(retry, Type::I32);
    let done = b.create_block();
    let claimed = b.block_param(done, Type::I32);
    b.jump(retry, &[first]);

    b.switch_to_block(retry);
    let one = b.iconst(Type::I32, 1);
    let new = b.binary(BinaryOp::Iadd, old, one);
    let seen = b.atomic_cas(
        Type::I32,
        MemOrder::AcqRel,
        Scope::Gpu,
        counter,
        0,
        old,
        new,
    );
    let ok = b.icmp(IntCC::Eq, seen, old);
    b.brif(ok, done, &[old], retry, &[seen]);

    b.switch_to_block(done);
    let tid = b.special(SpecialReg::ThreadIdX);
    let bid = b.special(SpecialReg::BlockIdX);
    let dim = b.special(SpecialReg::BlockDimX);
    let base = b.binary(BinaryOp::Imul, bid, dim);
    let idx = b.binary(BinaryOp::Iadd, base, tid);
    let idx64 = b.convert(ConvOp::Uextend, Type::I64, idx);
    let four = b.iconst(Type::I64, 4);
    let off = b.binary(BinaryOp::Imul, idx64, four);
    let slot = b.ptr_add(tickets, off);
    b.store(claimed, slot, 0);
    b.ret(&[]);
    b.finish()
}

#[test]
fn cas_retry_loop_counts_exactly_and_hands_out_distinct_tickets() {
    let f = cas_counter_kernel();
    let mut mem = Memory::new();
    let counter = mem.add_buffer(vec![0; 4]);
    let tickets = mem.add_buffer(vec![0xff; 4 * 128]);
    let args = vec![global_arg(&mem, counter), global_arg(&mem, tickets)];
    let stats =
        interp::run_kernel(&f, &Launch::new(Dim3::x(2), Dim3::x(64), args), &mut mem).unwrap();
    assert_eq!(u32s(mem.buffer(counter)), [128]);
    let mut t = u32s(mem.buffer(tickets));
    t.sort();
    assert_eq!(t, (0..128).collect::<Vec<u32>>());
    // Round-robin interleaving makes the CAS really contend: most threads
    // retry at least once, so far more than the uncontended step count.
    let uncontended = 128 * 17;
    assert!(
        stats.steps > uncontended,
        "steps {} — no retries happened?",
        stats.steps
    );
    interp::run_line(&f, "grid 2 block 64 args(c, t) c: u32[1] t: u32[128] => c == [128], t sorted == iota, t as set == iota, t sum == 8128")
        .unwrap();
}

#[test]
fn the_interleaving_is_deterministic() {
    let f = cas_counter_kernel();
    let run = || {
        let mut mem = Memory::new();
        let c = mem.add_buffer(vec![0; 4]);
        let t = mem.add_buffer(vec![0; 4 * 96]);
        let args = vec![global_arg(&mem, c), global_arg(&mem, t)];
        let s =
            interp::run_kernel(&f, &Launch::new(Dim3::x(3), Dim3::x(32), args), &mut mem).unwrap();
        (s.steps, mem.buffer(t).to_vec())
    };
    assert_eq!(run(), run());
}

#[test]
fn call_returns_values_and_uses_a_scratch_buffer() {
    // fn(a: i32, b: i32) -> (i32, i32): (a + b, old value of scratch[0] after xchg with a)
    let mut b =
        FunctionBuilder::with_returns("f", &[Type::I32, Type::I32], &[Type::I32, Type::I32]);
    let (x, y) = (b.param(0), b.param(1));
    let sum = b.binary(BinaryOp::Iadd, x, y);
    let addr = b.iconst(Type::I64, GLOBAL_BASE as i64);
    let p = b.convert(ConvOp::Bitcast, G, addr);
    let old = b.atomic_rmw(
        RmwOp::Xchg,
        Type::I32,
        MemOrder::SeqCst,
        Scope::Sys,
        p,
        4,
        x,
    );
    b.ret(&[sum, old]);
    let f = b.finish();
    let (out, scratch) =
        interp::call_with_scratch(&f, &[DataValue::I32(5), DataValue::I32(-7)], 8).unwrap();
    assert_eq!(out, [DataValue::I32(-2), DataValue::I32(0)]);
    assert_eq!(scratch, [0, 0, 0, 0, 5, 0, 0, 0]);
    // Without memory, the same access names an unknown buffer.
    let err = interp::call(&f, &[DataValue::I32(5), DataValue::I32(1)]).unwrap_err();
    assert!(matches!(err, InterpError::UnknownBuffer { .. }), "{err}");
    assert!(err.to_string().contains("`v5 = atomic_rmw`"), "{err}");
    // Wrong argument types are a launch error, not a panic.
    let err = interp::call(&f, &[DataValue::I64(5), DataValue::I32(1)]).unwrap_err();
    assert!(matches!(err, InterpError::BadLaunch(_)), "{err}");
}

#[test]
fn a_hundred_thousand_threads_fit() {
    let f = add_one_kernel();
    interp::run_line(&f, "grid 400 block 256 args(b) b: i32[1] => b == [102400]").unwrap();
}
