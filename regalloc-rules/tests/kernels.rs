//! Toy-ISA kernels through allocation, rebuild and both checkers.

mod common;

use atomc_lower::vcode::{MachInst, Reg, RegClass, VCodeBuilder};
use atomc_regalloc::{allocate_and_check, AllocOptions, Allocated, Origin, Sm};
use common::*;

fn opts() -> AllocOptions {
    AllocOptions {
        validate_ssa: true,
        regalloc2_checker: true,
        ..AllocOptions::default()
    }
}

fn report(name: &str, a: &Allocated<T>) {
    let s = &a.alloc.stats;
    eprintln!(
        "{name}: moves {} spills {} reloads {} inserted insts {} | regs {} (rounded {}) | max_live {:?} offered {:?} used {:?} attempts {}",
        s.moves, s.spills, s.reloads, a.code.inserted(), a.alloc.num_regs, a.alloc.num_regs_rounded,
        s.max_live, s.offered, s.used, s.attempts
    );
}

/// The first final instruction that `f` accepts.
fn find_inst(a: &Allocated<T>, f: impl Fn(&T) -> bool) -> &T {
    a.code.insts.iter().find(|i| f(i)).expect("instruction present")
}

/// How many final instructions `f` accepts.
fn count_insts(a: &Allocated<T>, f: impl Fn(&T) -> bool) -> usize {
    a.code.insts.iter().filter(|i| f(i)).count()
}

fn final_fields(a: &Allocated<T>) -> Vec<Vec<(Reg, u8)>> {
    a.code
        .insts
        .iter()
        .map(|i| {
            atomc_lower::vcode::fields_of(i)
                .into_iter()
                .map(|(r, w, _)| (r, w))
                .collect()
        })
        .collect()
}

#[test]
fn cas64_loop_sm50_needs_no_moves() {
    let vc = cas64_loop();
    let a = allocate_and_check(&vc, Sm::Sm50, &opts()).expect("allocates");
    report("cas64 loop sm_50", &a);
    assert_eq!(
        a.alloc.stats.moves, 0,
        "the quad is coalesced across the back edge"
    );
    assert_eq!(a.alloc.stats.spills + a.alloc.stats.reloads, 0);
    // The CAS: Rb = R4n, Rc = Rb + 2.
    let cas = find_inst(&a, |i| matches!(i, T::Cas { .. }));
    if let T::Cas {
        rb: Reg::Hw(rb),
        rc: Reg::Hw(rc),
        rd: Reg::Hw(rd),
        ..
    } = cas
    {
        assert_eq!(rb.number() % 4, 0);
        assert_eq!(rc.number(), rb.number() + 2);
        assert_eq!(rd, rb, "the result overwrites the expected value in place");
    } else {
        panic!("CAS fields not allocated: {cas:?}");
    }
}

#[test]
fn cas64_loop_sm90_needs_no_moves() {
    let a = allocate_and_check(&cas64_loop(), Sm::Sm90, &opts()).expect("allocates");
    report("cas64 loop sm_90", &a);
    assert_eq!(a.alloc.stats.moves, 0);
    assert!(a.alloc.num_regs <= 253);
}

#[test]
fn cas32_pair_loop_needs_no_moves() {
    let a = allocate_and_check(&cas32_loop(), Sm::Sm50, &opts()).expect("allocates");
    report("cas32 loop sm_50", &a);
    assert_eq!(a.alloc.stats.moves, 0);
    let cas = find_inst(&a, |i| matches!(i, T::Cas { .. }));
    if let T::Cas {
        rb: Reg::Hw(rb),
        rc: Reg::Hw(rc),
        ..
    } = cas
    {
        assert_eq!(rb.number() % 2, 0);
        assert_eq!(rc.number(), rb.number() + 1);
    } else {
        panic!("CAS fields not allocated: {cas:?}");
    }
}

/// Expected and new value computed as separate singles, then packed into the CAS pair; the new
/// value is also needed after the CAS, so the in-place result forces the allocator to copy.
#[test]
fn misaligned_values_need_moves() {
    let mut b = VCodeBuilder::<T>::new();
    let e = b.new_block();
    let addr = b.new_vreg(RegClass::Pair);
    let x = b.new_vreg(RegClass::Single);
    let y = b.new_vreg(RegClass::Single);
    let p = b.new_vreg(RegClass::Pair);
    let r = b.new_vreg(RegClass::Pair);
    b.push(e, T::args(&[(addr.reg(), 2), (x.reg(), 1), (y.reg(), 1)]));
    b.push(
        e,
        T::Pack2 {
            dst: p.reg(),
            lo: x.reg(),
            hi: y.reg(),
        },
    );
    b.push(
        e,
        T::Cas {
            wide: false,
            rd: r.lo(),
            ra: addr.reg(),
            rb: p.lo(),
            rc: p.hi(),
            reuse: true,
        },
    );
    // p is still live: the allocator must keep a copy of it.
    b.push(e, T::store(addr.reg(), p.reg(), 2));
    b.push(e, T::store(addr.reg(), r.reg(), 2));
    b.push(e, T::Exit);
    let vc = b.finish().expect("valid");
    let a = allocate_and_check(&vc, Sm::Sm50, &opts()).expect("allocates");
    report("misaligned/live-after-reuse sm_50", &a);
    assert!(
        a.alloc.stats.moves >= 1,
        "a copy of the still-live pair is needed"
    );
    // Pair moves become 2 MOVs in the toy ISA.
    assert_eq!(a.code.inserted(), 2 * a.alloc.stats.moves as usize);
}

/// Block parameters swapped on the back edge: a parallel-move cycle.
#[test]
fn swapped_loop_params_make_a_move_cycle() {
    let mut b = VCodeBuilder::<T>::new();
    let (entry, head, latch, exit) = (b.new_block(), b.new_block(), b.new_block(), b.new_block());
    let addr = b.new_vreg(RegClass::Pair);
    let x0 = b.new_vreg(RegClass::Pair);
    let y0 = b.new_vreg(RegClass::Pair);
    b.push(entry, T::args(&[(addr.reg(), 2), (x0.reg(), 2), (y0.reg(), 2)]));
    b.push_branch(entry, T::Jump, &[(head, &[x0, y0])]);
    let x = b.append_block_param(head, RegClass::Pair);
    let y = b.append_block_param(head, RegClass::Pair);
    let c = b.new_vreg(RegClass::Single);
    b.push(
        head,
        T::CmpEq {
            dst: c.reg(),
            a: x.reg(),
            b: y.reg(),
            width: 2,
        },
    );
    b.push_branch(
        head,
        T::BranchIf { cond: c.reg() },
        &[(exit, &[]), (latch, &[])],
    );
    b.push_branch(latch, T::Jump, &[(head, &[y, x])]);
    b.push(exit, T::store(addr.reg(), x.reg(), 2));
    b.push(exit, T::Exit);
    let vc = b.finish().expect("valid");
    let a = allocate_and_check(&vc, Sm::Sm90, &opts()).expect("allocates");
    report("swap cycle sm_90", &a);
    assert!(a.alloc.stats.moves + a.alloc.stats.spills >= 2);
}

#[test]
fn widest_first_mapping_aligns_everything() {
    let classes = [(RegClass::Single, 5), (RegClass::Pair, 3), (RegClass::Quad, 2)];
    let vc = all_live(classes.into_iter().flat_map(|(class, n)| std::iter::repeat_n(class, n)));
    let a = allocate_and_check(&vc, Sm::Sm50, &opts()).expect("allocates");
    report("mapping", &a);
    let s = a.alloc.stats.used;
    assert_eq!(a.alloc.num_regs, s[0] + 2 * s[1] + 4 * s[2]);
    assert_eq!(a.alloc.num_regs_rounded % 8, 0);
    // Quads below pairs below singles.
    let (mut max_quad, mut min_pair, mut max_pair, mut min_single) = (0u8, 255u8, 0u8, 255u8);
    for (i, inst) in a.code.insts.iter().enumerate() {
        if let (
            T::Const {
                dst: Reg::Hw(r),
                width,
            },
            Origin::Inst(_),
        ) = (inst, a.code.origins[i])
        {
            let n = r.number();
            match width {
                4 => max_quad = max_quad.max(n),
                2 => {
                    min_pair = min_pair.min(n);
                    max_pair = max_pair.max(n);
                }
                _ => min_single = min_single.min(n),
            }
            assert_eq!(n % width, 0, "{inst:?}");
        }
    }
    assert!(
        max_quad < min_pair && max_pair < min_single,
        "{:?}",
        final_fields(&a)
    );
}

#[test]
fn high_pressure_spills_and_checks() {
    let vc = straight_line(400, 40);
    // Without a cap the spills would land in the register file's slot registers.
    let o = capped(opts(), 32, 32);
    let a = allocate_and_check(&vc, Sm::Sm90, &o).expect("allocates");
    report("pressure 40 singles / 32 offered", &a);
    assert!(a.alloc.stats.spills > 0 && a.alloc.stats.reloads > 0);
    assert!(a.alloc.spill_slots > 0);
    assert!(a.code.insts.iter().any(|i| matches!(i, T::Spill { .. })));
}

#[test]
fn quads_beyond_the_register_budget_spill() {
    // 70 quads live at once: 280 registers > 253, and > 64 per class.
    let vc = all_live([RegClass::Quad; 70]);
    let a = allocate_and_check(&vc, Sm::Sm90, &opts()).expect("allocates");
    report("70 quads sm_90", &a);
    assert!(a.alloc.num_regs <= 253);
    assert!(a.alloc.stats.spills > 0);
}

#[test]
fn surface_atom_coordinates_aligned() {
    for coords in [1u8, 2, 3] {
        let mut b = VCodeBuilder::<T>::new();
        let e = b.new_block();
        let class = RegClass::for_width(coords).expect("1..4");
        let c = b.new_vreg(class);
        let h = b.new_vreg(RegClass::Single);
        let data = b.new_vreg(RegClass::Pair);
        let d = b.new_vreg(RegClass::Single);
        let pad = b.new_vreg(RegClass::Single);
        b.push(e, T::konst(pad.reg(), 1));
        b.push(e, T::konst(c.reg(), class.width()));
        b.push(e, T::konst(h.reg(), 1));
        b.push(e, T::konst(data.reg(), 2));
        b.push(
            e,
            T::Suatom {
                coords,
                wide: false,
                cas: true,
                rd: d.reg(),
                ra: c.reg(),
                rb: data.reg(),
                rc: h.reg(),
            },
        );
        b.push(e, T::store(data.reg(), pad.reg(), 1));
        b.push(e, T::store(data.reg(), d.reg(), 1));
        b.push(e, T::Exit);
        let vc = b.finish().expect("valid");
        for t in [Sm::Sm50, Sm::Sm90] {
            let a = allocate_and_check(&vc, t, &opts()).expect("allocates");
            let su = find_inst(&a, |i| matches!(i, T::Suatom { .. }));
            if let T::Suatom { ra: Reg::Hw(r), .. } = su {
                assert_eq!(r.number() % coords.next_power_of_two(), 0);
            }
        }
    }
}

#[test]
fn stats_are_consistent_with_inserted_code() {
    let vc = straight_line(300, 36);
    let o = capped(opts(), 24, 24);
    let a = allocate_and_check(&vc, Sm::Sm50, &o).expect("allocates");
    let spills = count_insts(&a, |i| matches!(i, T::Spill { .. }));
    let reloads = count_insts(&a, |i| matches!(i, T::Reload { .. }));
    assert_eq!(spills, a.alloc.stats.spills as usize);
    assert_eq!(reloads, a.alloc.stats.reloads as usize);
    assert_eq!(a.code.insts.len(), vc.num_insts() + a.code.inserted());
    // Every original instruction appears once, in order.
    let originals: Vec<u32> = a
        .code
        .origins
        .iter()
        .filter_map(|o| match o {
            Origin::Inst(i) => Some(*i),
            Origin::Edit(_) | Origin::Prologue => None,
        })
        .collect();
    assert_eq!(originals, (0..vc.num_insts() as u32).collect::<Vec<_>>());
    let _ = vc.inst(0).is_term();
}

#[test]
fn allocator_input_errors_are_typed() {
    use atomc_regalloc::AllocError;
    // Critical edge: entry branches to `join` and `other`; `other` also jumps to `join`.
    let mut b = VCodeBuilder::<T>::new();
    let (entry, other, join) = (b.new_block(), b.new_block(), b.new_block());
    let c = b.new_vreg(RegClass::Single);
    b.push(entry, T::konst(c.reg(), 1));
    // (A two-way jump without operands; with a condition operand regalloc2 reports
    // DisallowedBranchArg first.)
    b.push_branch(entry, T::Jump, &[(join, &[]), (other, &[])]);
    b.push_branch(other, T::Jump, &[(join, &[])]);
    b.push(join, T::store(Reg::Zero, c.reg(), 1));
    b.push(join, T::Exit);
    let vc = b.finish().expect("valid shape");
    let e = allocate_and_check(&vc, Sm::Sm90, &opts()).unwrap_err();
    assert!(
        matches!(
            e,
            AllocError::Regalloc(regalloc2::RegAllocError::CritEdge(..))
        ),
        "{e}"
    );

    // Use before def.
    let mut b = VCodeBuilder::<T>::new();
    let e0 = b.new_block();
    let x = b.new_vreg(RegClass::Pair);
    let y = b.new_vreg(RegClass::Pair);
    b.push(e0, T::copy(y.reg(), x.reg(), 2));
    b.push(e0, T::konst(x.reg(), 2));
    b.push(e0, T::Exit);
    let vc = b.finish().expect("valid shape");
    let e = allocate_and_check(&vc, Sm::Sm50, &opts()).unwrap_err();
    assert!(matches!(e, AllocError::Regalloc(_)), "{e}");

    // A use its definition does not dominate: defined on one side of a diamond, read at the
    // join. The error names the VCode's register, not regalloc2's dense number for it.
    let mut b = VCodeBuilder::<T>::new();
    let (entry, left, right, join) = (b.new_block(), b.new_block(), b.new_block(), b.new_block());
    // Numbered but never used: regalloc2 numbers `x` 0.
    let _unused = b.new_vreg(RegClass::Single);
    let x = b.new_vreg(RegClass::Single);
    b.push_branch(entry, T::Jump, &[(left, &[]), (right, &[])]);
    b.push(left, T::konst(x.reg(), 1));
    b.push_branch(left, T::Jump, &[(join, &[])]);
    b.push_branch(right, T::Jump, &[(join, &[])]);
    b.push(join, T::store(Reg::Zero, x.reg(), 1));
    b.push(join, T::Exit);
    let vc = b.finish().expect("valid shape");
    let e = allocate_and_check(&vc, Sm::Sm90, &opts()).unwrap_err();
    match e {
        AllocError::Regalloc(regalloc2::RegAllocError::SSA(v, _)) => assert_eq!(v.vreg(), x.index()),
        e => panic!("{e}"),
    }
}

#[test]
fn final_code_prints_inserted_instructions() {
    let vc = straight_line(100, 30);
    let o = capped(opts(), 16, 16);
    let a = allocate_and_check(&vc, Sm::Sm50, &o).expect("allocates");
    let text = a.code.to_string();
    assert!(text.starts_with("block0:"));
    assert!(
        text.contains("+ Spill") && text.contains("+ Reload"),
        "{text}"
    );
}

/// 62 quads + a pair + 4 singles live at once: 254 registers. SM50 (R0..R254) holds them all;
/// SM90 (R0..R252) must spill.
#[test]
fn budget_differs_per_target() {
    let vc = all_live(
        std::iter::repeat_n(RegClass::Quad, 62).chain(std::iter::repeat_n(RegClass::Single, 4)),
    );
    let o = AllocOptions { slack: 0, ..opts() };
    let a50 = allocate_and_check(&vc, Sm::Sm50, &o).expect("sm_50 allocates");
    report("254 live, sm_50", &a50);
    assert_eq!(a50.alloc.num_regs, 254);
    assert_eq!(a50.alloc.stats.spills, 0);
    let a90 = allocate_and_check(&vc, Sm::Sm90, &o).expect("sm_90 allocates");
    report("254 live, sm_90", &a90);
    assert!(a90.alloc.num_regs <= 253);
    assert!(a90.alloc.stats.spills > 0);
}
