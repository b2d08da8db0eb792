//! sm_50 control: EXIT, BRA, NOP, MEMBAR, BAR.SYNC. The condition-code test field (bits 0..4)
//! is fixed to `T` (always), as ptxas writes it.

use super::*;

pub(super) fn forms(out: &mut Vec<Form>) {
    form("EXIT", "EXIT", 44, 0xe30000000007000f_u64 >> 20).fix(0, 16, 0xf).done(out);
    // Branch target: signed byte offset from the next instruction in 20..43; targets are
    // 8-byte aligned, so the field is written as a word count at 22 with 20..21 zero.
    form("BRA", "BRA", 20, 0xe2400).fix(0, 16, 0xf).fix(20, 2, 0).op(OpSpec::Target(Field::new(22, 22))).done(out);
    // Reconvergence: SSY / PBK push a target (offset like BRA's), SYNC pops, RET returns.
    for (key, top) in [("SSY", 0xe2900u64), ("PBK", 0xe2a00)] {
        form(key, key, 20, top).fix(0, 16, 0xf).fix(20, 2, 0).op(OpSpec::Target(Field::new(22, 22))).done(out);
    }
    form("SYNC", "SYNC", 44, 0xf0f800000007000f_u64 >> 20).fix(0, 16, 0xf).done(out);
    form("RET", "RET", 44, 0xe32000000007000f_u64 >> 20).fix(0, 16, 0xf).done(out);
    form("NOP", "NOP", 44, 0x50b0000000070f00_u64 >> 20).fix(0, 16, 0x0f00).done(out);
    // MEMBAR.scope{.IVALLD}: scope 8..9, L1 invalidation 0..1.
    form("MEMBAR", "MEMBAR", 16, 0xef98)
        .fix(20, 28, 0)
        .fix(2, 6, 0)
        .fix(10, 6, 0)
        .m(g("scope", 8, 2, &[(0, "CTA"), (1, "GL"), (2, "SYS"), (3, "VC")]))
        .m(g("ival", 0, 2, &[(0, ""), (1, "IVALLD"), (2, "IVALLT"), (3, "IVALLTD")]))
        .done(out);
    // BAR.SYNC with an immediate barrier number (bits 8..15), as ptxas writes `bar.sync 0`.
    form("BAR.SYNC", "BAR", 44, 0xf0a81b8000070000_u64 >> 20).fix(0, 8, 0).lit("SYNC").op(imm(8, 8)).done(out);
}
