//! The x coordinate of the surface instructions (`SUATOM`, `SUATOM.CAS`, `SURED`; sm_50 and
//! sm_90): the one fact the selector and the emulator both read it from.
//!
//! With `.BA` x counts bytes, without it elements; y and z always count rows and slices.
//! Evidence (ptxas's choices; no GPU run has confirmed either, see docs/gpu-runs.md): ptxas
//! 13.5 (sm_90) and 11.8 (sm_50) compile PTX's byte-addressed `sured.b` to `SURED.D.BA...` and
//! its element-addressed `sured.p` to `SURED.D...` without `.BA`, the x register in both
//! straight from the parameter (`SURED.D.BA.1D.ADD.TRAP [R3], R2, 0x50` and
//! `SURED.D.1D.AND.TRAP [R2], R0, 0x50` on sm_50; `emit/sass/tests/surface_x_ptxas.rs`). ptxas accepts
//! `sured.p` only for `.b32` add/and/or, so the element form is shown for those alone; the
//! `.BA` form for every operation and size `sured.b` takes (32- and 64-bit add, min, max,
//! and, or). PTX has no surface atomic with a result, so `SUATOM` has no ptxas code at all:
//! its `.BA` is the same bit in the same modifier list as `SURED`'s on sm_90 (bit 72) and is
//! read the same way.
//!
//! Decision: atomc always selects `.BA` and writes x in bytes ([`SELECT_BA`]), the form ptxas
//! uses for every byte-addressed reduction, so atomc's code and ptxas's code of atomc's PTX
//! (which scales an element x with `shl` before `sured.b`) read the same coordinates.

/// Whether atomc selects `.BA` (x in bytes) for every surface instruction.
pub const SELECT_BA: bool = true;

/// The left shift that turns an element index into the x atomc writes for `elem_bytes`-byte
/// elements (a power of two): log2(elem_bytes) under [`SELECT_BA`].
pub fn x_shift(elem_bytes: u32) -> u32 {
    if SELECT_BA {
        elem_bytes.trailing_zeros()
    } else {
        0
    }
}

/// The element index an instruction's x register names: x itself without `.BA`, x / size
/// with it (`Err` with the byte x when it is not a multiple of the element size).
pub fn element_x(x: i64, elem_bytes: u32, ba: bool) -> Result<i64, i64> {
    if !ba {
        return Ok(x);
    }
    let size = elem_bytes as i64;
    if x.rem_euclid(size) != 0 {
        return Err(x);
    }
    Ok(x.div_euclid(size))
}
