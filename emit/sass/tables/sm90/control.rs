//! sm_90 control flow, barriers and special-register reads.

use super::*;

pub(super) fn forms(out: &mut Vec<Form>) {
    form("EXIT", "EXIT", 0x94d).facts(facts::EXIT).fix(87, 4, 7).done(out);
    form("NOP", "NOP", 0x918).facts(facts::NOP).done(out);
    form("YIELD", "YIELD", 0x946).facts(facts::YIELD).fix(87, 4, 7).done(out);
    // ptxas 13.5 ends some divergent regions with `WARPSYNC.ALL` (0x0000000000007948, bits
    // 87..89 set), the whole-warp form of `__syncwarp()`.
    form("WARPSYNC.ALL", "WARPSYNC", 0x948).facts(facts::WARPSYNC).fix(87, 4, 7).lit("ALL").done(out);
    // `WARPSYNC Rn`, the mask in a register: ptxas 13.5 writes 0x000fea0003800000_0000000000007348
    // `WARPSYNC R0` before a `vote.sync` whose mask is not the whole warp, after a spin loop.
    form("WARPSYNC", "WARPSYNC", 0x348).facts(facts::WARPSYNC).fix(87, 4, 7).op(r(24)).done(out);
    // Relative branch: signed offset in 4-byte units from the next instruction, bits 16..23
    // then 34..81; bits 32..33 select .U / .DIV.
    form("BRA", "BRA", 0x947).facts(facts::BRA)
        .m(g("mode", 32, 2, &[(0, ""), (1, "U"), (2, "DIV")]))
        .op(OpSpec::Pred(PredSpec { field: Field::new(87, 3), not: Some(Field::new(90, 1)), hide_pt: true }))
        .op(OpSpec::Target(Field::split2((16, 8), (34, 48))))
        .done(out);
    form("CALL.REL", "CALL", 0x944).facts(facts::CALL)
        .lit("REL")
        .m(flag(86, "NOINC"))
        .op(OpSpec::Pred(PredSpec { field: Field::new(87, 3), not: Some(Field::new(90, 1)), hide_pt: true }))
        .op(OpSpec::Target(Field::split2((16, 8), (34, 48))))
        .done(out);
    // RET.REL{.NODEC} Rret base: returns to the address in Rret, relative to the function at
    // `base` (bit 85 makes it absolute; bit 86 is .NODEC); the return register is 24..31
    // and the base an offset like BRA's. ptxas 13.5 ends its division subroutines with
    // 0x000fea0003c3fffffffffffc04107950 `RET.REL.NODEC R4 0x0` (the caller set R4 to the
    // return address with `MOV R8, 0x110` before `CALL.REL.NOINC`).
    form("RET.REL", "RET", 0x950).facts(facts::RET)
        .fix(85, 1, 0)
        .lit("REL")
        .m(g("dec", 86, 1, &[(0, ""), (1, "NODEC")]))
        .op(OpSpec::Pred(PredSpec { field: Field::new(87, 3), not: Some(Field::new(90, 1)), hide_pt: true }))
        .op(r(24))
        .op(OpSpec::Target(Field::split2((16, 8), (34, 48))))
        .space_last()
        .done(out);
    form("BSSY", "BSSY", 0x945).facts(facts::BSSY)
        .fix(87, 4, 7)
        .op(OpSpec::BReg(Field::new(16, 4)))
        .op(OpSpec::Target(Field::new(34, 30)))
        .done(out);
    form("BSYNC", "BSYNC", 0x941).facts(facts::BSYNC).fix(87, 4, 7).op(OpSpec::BReg(Field::new(16, 4))).done(out);
    form("BAR.SYNC", "BAR", 0xb1d).facts(facts::BAR)
        .fix(80, 1, 1)
        .lit("SYNC")
        .lit("DEFER_BLOCKING")
        .op(imm(54, 4, ImmKind::Hex))
        .done(out);
    form("S2R", "S2R", 0x919).facts(facts::S2R).op(r(16)).op(OpSpec::SReg(Field::new(72, 8))).done(out);
    // CS2R reads 64 bits (e.g. SR_CLOCKLO) unless .32.
    form("CS2R", "CS2R", 0x805).facts(facts::CS2R)
        .m(g("size", 80, 1, &[(0, "32"), (1, "")]))
        .op(r(16))
        .op(OpSpec::SReg(Field::new(72, 8)))
        .done(out);
    // R2UR [Pu,] URd, Rb: a register's value (one lane's) to a uniform register; the predicate
    // result 81..83 (hidden when PT; `.OR`, bit 84, prints it always: not described); bit 91
    // set is no R2UR. ptxas 13.5's spilling code: 0x004fc400000e0000_00000000920872ca
    // `R2UR UR8, R146`.
    form("R2UR", "R2UR", 0x2ca).facts(facts::R2UR)
        .fix(91, 1, 0)
        .fix(84, 1, 0)
        .op(OpSpec::Pred(PredSpec { field: Field::new(81, 3), not: None, hide_pt: true }))
        .op(ur(16))
        .op(r(24))
        .done(out);
    form("S2UR", "S2UR", 0x9c3).facts(facts::S2UR).uniform().op(ur(16)).op(OpSpec::SReg(Field::new(72, 8))).done(out);
}
