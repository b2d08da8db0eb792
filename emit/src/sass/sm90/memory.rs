//! sm_90 loads, stores, constant loads, fences and cache control.

use super::atomics::{evict, sem};
use super::*;

/// Access size of LD/ST/LDG/STG/LDS/STS/LDC, bits 73..75 (4 = 32-bit default).
fn ldst_size() -> ModGroup {
    g("size", 73, 3, &[(0, "U8"), (1, "S8"), (2, "U16"), (3, "S16"), (4, ""), (5, "64"), (6, "128")])
}

/// Memory order of loads: code point 4 reads `CONSTANT` for loads (`STRONG.SM.PRIVATE` for
/// stores and atomics).
fn load_sem() -> ModGroup {
    let mut s = sem();
    for v in s.values.iter_mut() {
        if v.0 == 4 {
            v.1 = "CONSTANT";
        }
    }
    s
}

pub(super) fn forms(out: &mut Vec<Form>) {
    let desc32 = MemSpec { desc: Some(Field::new(32, 6)), ..mem(BaseWidth::Wide) };
    let desc64 = MemSpec { desc: Some(Field::new(64, 6)), ..mem(BaseWidth::Wide) };
    // Loads: generic LD (0x980) and global LDG (0x381 plain, 0x981 descriptor).
    for (key, mn, opc, desc, pfix) in [
        ("LD", "LD", 0x980, false, Some(0u64)),
        ("LD.desc", "LD", 0x980, true, Some(0)),
        ("LDG", "LDG", 0x381, false, None),
        ("LDG.desc", "LDG", 0x981, true, None),
    ] {
        let mut f = form(key, mn, opc);
        f = if desc { f.fix(90, 2, 3) } else { f.fix(90, 2, 0) };
        if let Some(v) = pfix {
            f = f.fix(81, 3, v);
        }
        f = f.m(flag(72, "E")).m(ldst_size()).m(load_sem()).m(evict());
        if pfix.is_none() {
            f = f.op(p_opt(81));
        }
        f.op(r(16)).op(OpSpec::Mem(if desc { desc32 } else { mem(BaseWidth::Plain) })).done(out);
    }
    // Stores: generic ST (0x385 plain, 0x985 descriptor), global STG (0x386 / 0x986).
    for (key, mn, opc, desc) in [("ST", "ST", 0x385, false), ("ST.desc", "ST", 0x985, true), ("STG", "STG", 0x386, false), ("STG.desc", "STG", 0x986, true)] {
        let f = form(key, mn, opc);
        let f = if desc { f.fix(90, 2, 3) } else { f.fix(90, 2, 0) };
        // The plain generic ST (0x385) has a 32-bit offset in 32..63 and its data register in
        // 64..71: nvdisasm 13 read `[R0+0x4], R2` laid out like STG as `[R0+0x402], R0`.
        let (addr, data) = if opc == 0x385 {
            (MemSpec { offset: Some(Field::new(32, 32)), ..mem(BaseWidth::Plain) }, r(64))
        } else {
            (if desc { desc64 } else { mem(BaseWidth::Plain) }, r(32))
        };
        f.fix(81, 3, 0)
            .m(flag(72, "E"))
            .m(ldst_size())
            .m(sem())
            .m(evict())
            .op(OpSpec::Mem(addr))
            .op(data)
            .done(out);
    }
    // Shared memory.
    form("LDS", "LDS", 0x984).fix(91, 1, 0).m(ldst_size()).op(r(16)).op(OpSpec::Mem(mem(BaseWidth::Plain))).done(out);
    form("STS", "STS", 0x388).fix(91, 1, 0).m(ldst_size()).op(OpSpec::Mem(mem(BaseWidth::Plain))).op(r(32)).done(out);
    // Constant loads.
    form("LDC", "LDC", 0xb82)
        .m(ldst_size())
        .op(r(16))
        .op(OpSpec::CBank(CBankSpec { bank: Field::new(54, 5), offset: Field::new(38, 16), base: Some(Field::new(24, 8)) }))
        .done(out);
    form("ULDC", "ULDC", 0xab9)
        .m(ldst_size())
        .op(ur(16))
        .op(cbank())
        .done(out);
    // Address-space query of a generic address.
    form("QSPC", "QSPC", 0x3aa)
        .m(flag(72, "E"))
        .m(g("space", 73, 2, &[(0, "G"), (1, "L"), (2, "S"), (3, "D")]))
        .op(p(81))
        .op(r(16))
        .op(OpSpec::Mem(mem(BaseWidth::Plain)))
        .done(out);
    // Fences and cache control.
    form("MEMBAR", "MEMBAR", 0x992)
        .m(g("mode", 79, 2, &[(0, "SC"), (1, "ALL"), (2, ""), (3, "MMIO")]))
        .m(g("scope", 76, 3, &[(0, "CTA"), (1, "SM"), (2, "GPU"), (3, "SYS")]))
        .done(out);
    form("CCTL.IVALL", "CCTL", 0x98f).fix(24, 8, 0xff).m(g("op", 87, 4, &[(4, "IVALL")])).done(out);
    form("ERRBAR", "ERRBAR", 0x9ab).done(out);
    form("CGAERRBAR", "CGAERRBAR", 0x5ab).done(out);
}
