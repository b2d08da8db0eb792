//! Unit tests of the pieces that need no cubin, and of refusing bad input without a panic.

use crate::alu::{lop3, prmt, shf};
use crate::simt::{Flow, Simt};
use crate::{run_cubin, EmuError, Launch};

#[test]
fn logic_and_shifts() {
    assert_eq!(lop3(0xf0f0, 0xff00, 0xaaaa, 0xc0), 0xf000); // a & b
    assert_eq!(lop3(0xf0f0, 0xff00, 0xaaaa, 0xfc), 0xfff0); // a | b
    assert_eq!(lop3(0xf0f0, 0xff00, 0xaaaa, 0x96), 0xf0f0 ^ 0xff00 ^ 0xaaaa);
    assert_eq!(prmt(0x4433_2211, 0x8877_6655, 0x7610), 0x8877_2211);
    assert_eq!(prmt(0x0000_0080, 0, 0x8880), 0xffff_ff80); // sign-replicated byte
    assert_eq!(shf(1, 0, 4, true, false, false, false, false), 16); // SHF.L.U32
    assert_eq!(shf(0, 0x8000_0000, 4, false, true, false, false, true), 0xf800_0000); // SHF.R.S32.HI
    assert_eq!(shf(0, 1, 33, false, false, false, false, true), 0); // clamped at 32
    assert_eq!(shf(0xffff_ffff, 0, 4, true, false, true, false, true), 0xf); // L.U64.HI
}

#[test]
fn sm50_stack_reconverges_after_a_divergent_branch() {
    let mut s = Simt::stack(u32::MAX);
    s.apply(0, u32::MAX, Flow::Push { brk: false, target: 10 }).unwrap();
    s.apply(
        1,
        u32::MAX,
        Flow::Branch {
            taken: 0xffff,
            target: 5,
        },
    )
    .unwrap();
    // The fall-through lanes run first, then park at SYNC; the taken ones follow.
    assert_eq!(s.next(None), Some((2, 0xffff_0000)));
    s.apply(
        2,
        0xffff_0000,
        Flow::Park {
            brk: false,
            mask: 0xffff_0000,
        },
    )
    .unwrap();
    assert_eq!(s.next(None), Some((5, 0xffff)));
    s.apply(
        5,
        0xffff,
        Flow::Park {
            brk: false,
            mask: 0xffff,
        },
    )
    .unwrap();
    assert_eq!(s.next(None), Some((10, u32::MAX)));
    // A barrier reached by some lanes only is an error on sm_50.
    s.apply(10, u32::MAX, Flow::Branch { taken: 1, target: 20 }).unwrap();
    assert!(s.apply(11, u32::MAX - 1, Flow::Bar(u32::MAX - 1)).is_err());
}

#[test]
fn sm90_bsync_waits_for_the_whole_barrier_and_yield_softens_it() {
    let mut s = Simt::per_lane(0b11);
    assert_eq!(s.next(None), Some((0, 0b11)));
    s.apply(0, 0b11, Flow::Bssy(0)).unwrap();
    assert_eq!(s.next(None), Some((1, 0b11)));
    s.apply(1, 0b11, Flow::Branch { taken: 0b10, target: 1 }).unwrap();
    // The backward branch gives way: lane 0 goes on to the BSYNC and waits there for lane 1.
    assert_eq!(s.next(None), Some((2, 0b01)));
    s.apply(2, 0b01, Flow::Bsync(0, 0b01)).unwrap();
    assert_eq!(s.next(None), Some((1, 0b10)));
    // Lane 1 spins on (a lock lane 0 holds): giving way lets lane 0 through the barrier.
    s.apply(1, 0b10, Flow::Branch { taken: 0b10, target: 1 }).unwrap();
    assert_eq!(s.next(None), Some((3, 0b01)));
    // Lane 1 then passes the BSYNC alone.
    s.apply(3, 0b01, Flow::Exit(0b01)).unwrap();
    assert_eq!(s.next(None), Some((1, 0b10)));
    s.apply(1, 0b10, Flow::Next).unwrap();
    s.apply(2, 0b10, Flow::Bsync(0, 0b10)).unwrap();
    assert_eq!(s.next(None), Some((3, 0b10)));
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let launch = Launch::new([1, 1, 1], [32, 1, 1]);
    for bytes in [&b""[..], b"\x7fELF", &[0u8; 64], &[0xffu8; 200]] {
        assert!(matches!(run_cubin(bytes, "k", &launch), Err(EmuError::Cubin(_))));
    }
}
