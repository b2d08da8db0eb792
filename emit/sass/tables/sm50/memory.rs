//! sm_50 loads, stores and S2R: LDG/STG (global), LDS/STS (shared), LDL/STL (local).

use super::*;

/// Access size of LDG/STG/LDS/STS, bits 48..50 (4 = 32-bit, printed as nothing).
fn ldst_size() -> ModGroup {
    g("size", 48, 3, &[(0, "U8"), (1, "S8"), (2, "U16"), (3, "S16"), (4, ""), (5, "64"), (6, "128")])
}

/// Global cache operator, bits 46..47.
fn cache() -> ModGroup {
    g("cache", 46, 2, &[(0, ""), (1, "CG"), (2, "CI"), (3, "CV")])
}

pub(super) fn forms(out: &mut Vec<Form>) {
    form("LDG", "LDG", 13, 0xeed0 >> 3)
        .facts(facts::LDG)
        .m(flag(45, "E"))
        .m(cache())
        .m(ldst_size())
        .op(r(0))
        .op(mem(20, 24))
        .done(out);
    form("STG", "STG", 13, 0xeed8 >> 3).facts(facts::STG)
        .m(flag(45, "E"))
        .m(g("cache", 46, 2, &[(0, ""), (1, "CG"), (2, "CS"), (3, "WT")]))
        .m(ldst_size())
        .op(mem(20, 24))
        .op(r(0))
        .done(out);
    // Generic LD / ST{.E}{.cache}{.size} with a 32-bit signed offset (20..51), .E 52, the size
    // 53..55, the cache operator 56..57 and a predicate source 58..60 (left out when PT; ptxas
    // passes the `LEA.HI.X P0` that tells a global address from the shared window's, and the
    // emulator tells them by the address itself). ptxas 11.8's generic accesses:
    // 0x8390000000070200 `LD.E.CV R0, [R2], P0`, 0xa390000000470200 `ST.E.WT [R2+0x4], R0,
    // P0`, 0xa0b0000000070402 `ST.E.64 [R4], R2, P0`; nvdisasm 11.8 on `LD.E R0, [R2], P0`
    // with one bit flipped: 52 `LD`, 53..55 `.U8` / `.64` / `.128`, 56..57 `.CG` / `.CI`, 58..60
    // `P1` .. `P4`, all three set: no predicate; on ST 56..57 `.CG` / `.CS` / `.WT`.
    let size53 = || g("size", 53, 3, &[(0, "U8"), (1, "S8"), (2, "U16"), (3, "S16"), (4, ""), (5, "64"), (6, "128")]);
    form("LD", "LD", 3, 0x80 >> 5)
        .facts(facts::LD)
        .m(flag(52, "E"))
        .m(g("cache", 56, 2, &[(0, ""), (1, "CG"), (2, "CI"), (3, "CV")]))
        .m(size53())
        .op(r(0))
        .op(mem(20, 32))
        .op(p_hidden(58))
        .done(out);
    form("ST", "ST", 3, 0xa0 >> 5)
        .facts(facts::ST)
        .m(flag(52, "E"))
        .m(g("cache", 56, 2, &[(0, ""), (1, "CG"), (2, "CS"), (3, "WT")]))
        .m(size53())
        .op(mem(20, 32))
        .op(r(0))
        .op(p_hidden(58))
        .done(out);
    // LDS{.U}: with the uniform flag nvdisasm spells the 32-bit size (`LDS.U.32`).
    for (u, key, size32) in [(0u64, "LDS", ""), (1, "LDS.U", "32")] {
        let f = form(key, "LDS", 13, 0xef48 >> 3).facts(facts::LDS).fix(45, 3, 0).fix(44, 1, u);
        let f = if u == 1 { f.lit("U") } else { f };
        f.m(g("size", 48, 3, &[(0, "U8"), (1, "S8"), (2, "U16"), (3, "S16"), (4, size32), (5, "64"), (6, "128")]))
            .op(r(0))
            .op(mem(20, 24))
            .done(out);
    }
    form("STS", "STS", 13, 0xef58 >> 3)
        .facts(facts::STS)
        .fix(44, 4, 0)
        .m(ldst_size())
        .op(mem(20, 24))
        .op(r(0))
        .done(out);
    // Local memory (spill slots): LDL 0xef40, STL 0xef50 (ptxas 11.8: `STL [R1+0x7c], R7`,
    // `LDL.128 R8, [R14+0x20]` = 0xef46000002070e08, `LDL.LU R4, [R1+0x48]` = 0xef44100004870104);
    // the cache operator in bits 44..45.
    form("LDL", "LDL", 13, 0xef40 >> 3).facts(facts::LDL)
        .fix(46, 2, 0)
        .m(g("cache", 44, 2, &[(0, ""), (1, "LU"), (2, "CI"), (3, "CV")]))
        .m(ldst_size())
        .op(r(0))
        .op(mem(20, 24))
        .done(out);
    form("STL", "STL", 13, 0xef50 >> 3).facts(facts::STL)
        .fix(46, 2, 0)
        .m(g("cache", 44, 2, &[(0, ""), (1, "CG"), (2, "CS"), (3, "WT")]))
        .m(ldst_size())
        .op(mem(20, 24))
        .op(r(0))
        .done(out);
    form("S2R", "S2R", 16, 0xf0c8)
        .facts(facts::S2R)
        .fix(28, 20, 0)
        .fix(8, 8, 0)
        .op(r(0))
        .op(OpSpec::SReg(Field::new(20, 8)))
        .done(out);
}
