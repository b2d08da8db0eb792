//! sm_90 bit-manipulation, warp-match and vector-vote forms (ptxas 13 output for
//! `match.any.sync`, `brev`, `bfe`, `bfi` and `activemask`, each swept against nvdisasm with the
//! rest of the table):
//!
//! ```text
//! VOTE.ANY R9, PT, PT ;         /* 0x0000000000097806 0x000fe200038e0100 */
//! MATCH.ANY R12, R20 ;          /* 0x00000000140c73a1 0x000ee200000e8000 */
//! MATCH.ANY.U64 R13, R14 ;      /* 0x000000000e0d73a1 0x00236200000e8200 */
//! MATCH.ALL P1, RZ, R0 ;        /* 0x0000000000ff73a1 0x000e220000020000 */
//! SHFL.UP PT, R8, R17, R9, RZ ; /* 0x0400000911087389 0x000fe200000e00ff */
//! SHFL.UP PT, R17, R0, 0x3, RZ ; /* 0x0460000000117989 0x000f2200000e00ff */
//! BREV R14, R20 ;               /* 0x00000014000e7301 0x002e620000000000 */
//! SGXT R19, R19, 0x8 ;          /* 0x000000081313781a 0x000fe40000000200 */
//! SGXT.U32 R17, R26, R23 ;      /* 0x000000171a11721a 0x000fe40000000000 */
//! BMSK R18, R5, R0 ;            /* 0x000000000512721b 0x000fe20000000000 */
//! ```

use super::*;

pub(super) fn forms(out: &mut Vec<Form>) {
    // VOTE: VOTEU's layout with a vector result (mode 72..73, result predicate 81..83, source
    // predicate 87..90). nvdisasm hides an RZ result; the table requires a real one.
    form("VOTE", "VOTE", 0x806).facts(facts::VOTE)
        .fix(84, 3, 0)
        .m(g("mode", 72, 2, &[(0, "ALL"), (1, "ANY"), (2, "EQ")]))
        .op(rnz(16))
        .op(p(81))
        .op(pn(87, 90))
        .done(out);
    // MATCH: bit 79 picks ANY (1) over ALL (whose predicate result is 81..83, fixed to PT
    // here as ptxas leaves it for ANY); bit 73 compares register pairs.
    form("MATCH.ANY", "MATCH", 0x3a1).facts(facts::MATCH)
        .fix(79, 1, 1)
        .fix(81, 3, 7)
        .lit("ANY")
        .m(flag(73, "U64"))
        .op(r(16))
        .op(rs(24, 0))
        .done(out);
    form("MATCH.ALL", "MATCH", 0x3a1).facts(facts::MATCH)
        .fix(79, 1, 0)
        .lit("ALL")
        .m(flag(73, "U64"))
        .op(p(81))
        .op(r(16))
        .op(rs(24, 0))
        .done(out);
    // BREV Rd, Rb: the source in the B slot, like POPC.
    form("BREV.3", "BREV", 0x301).facts(facts::BREV).op(r(16)).op(rs(32, 1)).done(out);
    // SGXT / BMSK Rd, Ra, B with B a register (kind 0x2) or an immediate (0x8); SGXT's .U32
    // (bit 73 clear) zero-extends.
    for (kind, b) in [(0x2u64, rs(32, 1)), (0x8, imm(32, 32, ImmKind::Hex))] {
        form(leak_str(format!("SGXT.{kind:x}")), "SGXT", (kind << 8) | 0x1a).facts(facts::SGXT)
            .m(g("type", 73, 1, &[(0, "U32"), (1, "")]))
            .op(r(16))
            .op(rs(24, 0))
            .op(b)
            .done(out);
        form(leak_str(format!("BMSK.{kind:x}")), "BMSK", (kind << 8) | 0x1b)
            .facts(facts::BMSK)
            .op(r(16))
            .op(rs(24, 0))
            .op(b)
            .done(out);
    }
}

