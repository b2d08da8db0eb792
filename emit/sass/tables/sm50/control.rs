//! sm_50 control: EXIT, BRA, SSY/PBK/SYNC/BRK, NOP, MEMBAR, BAR.SYNC, DEPBAR. The condition-code test field (bits 0..4)
//! is fixed to `T` (always), as ptxas writes it.

use super::*;

pub(super) fn forms(out: &mut Vec<Form>) {
    form("EXIT", "EXIT", 44, 0xe30000000007000f_u64 >> 20).facts(facts::EXIT).fix(0, 16, 0xf).done(out);
    // Branch target: signed byte offset from the next instruction in 20..43; targets are
    // 8-byte aligned, so the field is written as a word count at 22 with 20..21 zero.
    form("BRA", "BRA", 20, 0xe2400)
        .facts(facts::BRA)
        .fix(0, 16, 0xf)
        .fix(20, 2, 0)
        .op(OpSpec::Target(Field::new(22, 22)))
        .done(out);
    // Reconvergence: SSY / PBK push a target (offset like BRA's), SYNC pops, RET returns.
    for (key, facts, top) in [("SSY", facts::SSY, 0xe2900u64), ("PBK", facts::PBK, 0xe2a00)] {
        form(key, key, 20, top)
            .facts(facts)
            .fix(0, 16, 0xf)
            .fix(20, 2, 0)
            .op(OpSpec::Target(Field::new(22, 22)))
            .done(out);
    }
    // CAL{.NOINC} target: calls, pushing the return address (bit 6 set: the default increment
    // of the call depth). ptxas 11.8's 16-bit division: 0xe260000009000040 `CAL 0x120`.
    form("CAL", "CAL", 20, 0xe2600).facts(facts::CAL)
        .fix(0, 6, 0)
        .fix(7, 9, 0)
        .fix(16, 4, 0)
        .fix(20, 2, 0)
        .m(g("inc", 6, 1, &[(0, "NOINC"), (1, "")]))
        .op(OpSpec::Target(Field::new(22, 22)))
        .done(out);
    form("SYNC", "SYNC", 44, 0xf0f800000007000f_u64 >> 20).facts(facts::SYNC).fix(0, 16, 0xf).done(out);
    // BRK pops a PBK target (ptxas 11.8: 0xe34000000007000f `BRK`).
    form("BRK", "BRK", 44, 0xe34000000007000f_u64 >> 20).facts(facts::BRK).fix(0, 16, 0xf).done(out);
    form("RET", "RET", 44, 0xe32000000007000f_u64 >> 20).facts(facts::RET).fix(0, 16, 0xf).done(out);
    form("NOP", "NOP", 44, 0x50b0000000070f00_u64 >> 20).facts(facts::NOP).fix(0, 16, 0x0f00).done(out);
    // MEMBAR.scope{.IVALLD}: scope 8..9, L1 invalidation 0..1.
    form("MEMBAR", "MEMBAR", 16, 0xef98).facts(facts::MEMBAR)
        .fix(20, 28, 0)
        .fix(2, 6, 0)
        .fix(10, 6, 0)
        .m(g("scope", 8, 2, &[(0, "CTA"), (1, "GL"), (2, "SYS"), (3, "VC")]))
        .m(g("ival", 0, 2, &[(0, ""), (1, "IVALLD"), (2, "IVALLT"), (3, "IVALLTD")]))
        .done(out);
    // BAR.SYNC with an immediate barrier number (bits 8..15), as ptxas writes `bar.sync 0`.
    // DEPBAR{.LE SBn, count}{, {sb,...}}: wait for scoreboards. The set is a mask in 0..5
    // printed highest first and left out when empty; bit 29 selects `.LE` with the scoreboard
    // in 26..28 (SB0..SB5; 6 and 7 print `???6`) and the count in 20..25; nvdisasm ignores
    // 6..15 and 30..50 (written zero here). ptxas 11.8: 0xf0f0000000070002 `DEPBAR {1}`;
    // 0xf0f000002007003f `DEPBAR.LE SB0, 0x0, {5,4,3,2,1,0}` (bits flipped with nvdisasm).
    let sbset = || OpSpec::Ext(ExtSpec::SbSet { field: Field::new(0, 6) });
    for (key, le, set) in [
        ("DEPBAR", false, false),
        ("DEPBAR.set", false, true),
        ("DEPBAR.LE", true, false),
        ("DEPBAR.LE.set", true, true),
    ] {
        let f = form(key, "DEPBAR", 34, 0xf0f0000000070002_u64 >> 30)
            .facts(facts::DEPBAR)
            .fix(6, 10, 0)
            .fix(29, 1, le as u64);
        let f = if le {
            f.lit("LE").op(OpSpec::Ext(ExtSpec::SbReg { field: Field::new(26, 3), max: 5 })).op(imm(20, 6))
        } else {
            f.fix(20, 9, 0)
        };
        let f = if set { f.op(sbset()) } else { f.fix(0, 6, 0) };
        f.done(out);
    }
    form("BAR.SYNC", "BAR", 44, 0xf0a81b8000070000_u64 >> 20)
        .facts(facts::BAR)
        .fix(0, 8, 0)
        .lit("SYNC")
        .op(imm(8, 8))
        .done(out);
}
