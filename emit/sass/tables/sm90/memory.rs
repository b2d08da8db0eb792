//! sm_90 loads, stores, constant loads, fences and cache control.

use super::atomics::{e_only, evict, sem};
use super::*;

/// Access size of LD/ST/LDG/STG/LDS/STS/LDC, bits 73..75 (4 = 32-bit default).
fn ldst_size() -> ModGroup {
    g("size", 73, 3, &[(0, "U8"), (1, "S8"), (2, "U16"), (3, "S16"), (4, ""), (5, "64"), (6, "128")])
}

/// Constant-load sizes (no 128-bit form).
fn ldc_size() -> ModGroup {
    g("size", 73, 3, &[(0, "U8"), (1, "S8"), (2, "U16"), (3, "S16"), (4, ""), (5, "64")])
}

/// Memory order of loads: code point 4 reads `CONSTANT` for loads (`STRONG.SM.PRIVATE` for
/// stores and atomics).
fn load_sem() -> ModGroup {
    let s = sem();
    let values = s.values.iter().map(|&(v, name)| (v, if v == 4 { "CONSTANT" } else { name })).collect();
    ModGroup { values: leak(values), ..s }
}

/// The modifiers of every global load and store, in print order: `.E` (a flag with a plain
/// address, required with a uniform register in it), eviction priority, size, memory order.
fn global_mods(f: F, uniform_addr: bool, order: ModGroup) -> F {
    f.m(if uniform_addr { e_only() } else { flag(72, "E") }).m(evict()).m(ldst_size()).m(order)
}

/// The uniform-register address shapes of the global loads and stores, with the UR at `ur_lo`:
/// (key suffix, bit 76, address); bit 76 selects `desc[URx][Ra.64]` over `[Ra.64+URx]`.
fn ur_addrs(ur_lo: u8) -> [(&'static str, u64, MemSpec); 2] {
    let ur = Some(Field::new(ur_lo, 6));
    [("ur", 0, MemSpec { ureg: ur, ..mem(BaseWidth::Wide) }), ("desc", 1, MemSpec { desc: ur, ..mem(BaseWidth::Wide) })]
}

pub(super) fn forms(out: &mut Vec<Form>) {
    // Loads and stores. Plain forms: generic LD 0x980 (offset 32..63), LDG 0x381, ST 0x385,
    // STG 0x386. Uniform-register forms (bits 90..91 set, `.E` required): bit 76 selects
    // `desc[URx][Ra.64]` over `[Ra.64+URx]`; the UR sits in 32..37 for loads, 64..69 for stores.
    let ld_plain = MemSpec { offset: Some(Field::new(32, 32)), ..mem(BaseWidth::Plain) };
    for (mn, facts, opc, plain_opc, plain_mem) in
        [("LD", facts::LD, 0x980u64, 0x980u64, ld_plain), ("LDG", facts::LDG, 0x981, 0x381, mem(BaseWidth::Plain))]
    {
        let pred = mn == "LDG";
        let mut f = global_mods(form(mn, mn, plain_opc).facts(facts).fix(90, 2, 0), false, load_sem());
        f = if pred { f.op(p_opt(81)) } else { f.fix(81, 3, 0) };
        f.op(r(16)).op(OpSpec::Mem(plain_mem)).done(out);
        for (sfx, d, m) in ur_addrs(32) {
            let key = leak_str(format!("{}.{}", mn, sfx));
            let f = form(key, mn, opc).facts(facts).fix(90, 2, 3).fix(76, 1, d).fix(64, 8, 0);
            let mut f = global_mods(f, true, load_sem());
            f = if pred { f.op(p_opt(81)) } else { f.fix(81, 3, 0) };
            f.op(r(16)).op(OpSpec::Mem(m)).done(out);
        }
    }
    for (mn, facts, opc, plain_opc) in [("ST", facts::ST, 0x985u64, 0x385u64), ("STG", facts::STG, 0x986, 0x386)] {
        // Generic ST keeps its offset in 32..63 and the data in 64..71; STG uses 40..63 / 32..39.
        let (pm, data) = if mn == "ST" {
            (MemSpec { offset: Some(Field::new(32, 32)), ..mem(BaseWidth::Plain) }, r(64))
        } else {
            (mem(BaseWidth::Plain), r(32))
        };
        let f = form(mn, mn, plain_opc).facts(facts).fix(90, 2, 0).fix(81, 3, 0);
        global_mods(f, false, sem()).op(OpSpec::Mem(pm)).op(data).done(out);
        for (sfx, d, m) in ur_addrs(64) {
            let key = leak_str(format!("{}.{}", mn, sfx));
            let f = form(key, mn, opc).facts(facts).fix(90, 2, 3).fix(76, 1, d).fix(81, 3, 0);
            global_mods(f, true, sem()).op(OpSpec::Mem(m)).op(r(32)).done(out);
        }
    }
    // Shared memory; bit 91 adds a uniform register to the address (`[Ra+URb+imm]`, printed
    // `[UR4+0x8]` when Ra is RZ), in 32..37 for LDS and 64..69 for STS.
    form("LDS", "LDS", 0x984)
        .facts(facts::LDS)
        .fix(91, 1, 0)
        .m(ldst_size())
        .op(r(16))
        .op(OpSpec::Mem(mem(BaseWidth::Plain)))
        .done(out);
    form("LDS.ur", "LDS", 0x984).facts(facts::LDS)
        .fix(91, 1, 1)
        .m(ldst_size())
        .op(r(16))
        .op(OpSpec::Mem(MemSpec { ureg: Some(Field::new(32, 6)), ..mem(BaseWidth::Plain) }))
        .done(out);
    form("STS", "STS", 0x388)
        .facts(facts::STS)
        .fix(91, 1, 0)
        .m(ldst_size())
        .op(OpSpec::Mem(mem(BaseWidth::Plain)))
        .op(r(32))
        .done(out);
    form("STS.ur", "STS", 0x988).facts(facts::STS)
        .fix(91, 1, 1)
        .m(ldst_size())
        .op(OpSpec::Mem(MemSpec { ureg: Some(Field::new(64, 6)), ..mem(BaseWidth::Plain) }))
        .op(r(32))
        .done(out);
    // Local memory (spill slots): `LDL{.size} Rd, [Ra+imm24]` 0x983, `STL{.size} [Ra+imm24], Rb`
    // 0x387 (ptxas 13.5: `STL [R1+0x1c], R3` = 0x00001c0301007387). The eviction priority
    // (bits 84..86) is the loads' and stores' group (1 prints nothing).
    form("LDL", "LDL", 0x983)
        .facts(facts::LDL)
        .m(evict())
        .m(ldst_size())
        .op(r(16))
        .op(OpSpec::Mem(mem(BaseWidth::Plain)))
        .done(out);
    form("STL", "STL", 0x387)
        .facts(facts::STL)
        .m(evict())
        .m(ldst_size())
        .op(OpSpec::Mem(mem(BaseWidth::Plain)))
        .op(r(32))
        .done(out);
    // Constant loads.
    form("LDC", "LDC", 0xb82).facts(facts::LDC)
        .m(ldc_size())
        .op(r(16))
        // The offset is signed with a base register; only its non-negative half is in the table.
        .fix(53, 1, 0)
        .op(OpSpec::CBank(CBankSpec {
            bank: Field::new(54, 5),
            offset: Field::new(38, 15),
            base: Some(Field::new(24, 8)),
        }))
        .done(out);
    // ULDC addresses bytes (ptxas 13.5: `ULDC.U8 UR5, c[0x0][0x219]`, offset bits 38..52), unlike
    // the word-scaled constant operands of the ALU forms.
    form("ULDC", "ULDC", 0xab9).facts(facts::ULDC)
        .uniform()
        .m(ldc_size())
        .op(ur(16))
        .op(OpSpec::CBank(CBankSpec { bank: Field::new(54, 5), offset: Field::new(38, 15), base: None }))
        .done(out);
    // Address-space query of a generic address.
    form("QSPC", "QSPC", 0x3aa).facts(facts::QSPC)
        .m(flag(72, "E"))
        .m(g("space", 73, 2, &[(0, "G"), (1, "L"), (2, "S"), (3, "D")]))
        .op(p(81))
        .op(r(16))
        .op(OpSpec::Mem(mem(BaseWidth::Plain)))
        .done(out);
    // Fences and cache control.
    form("MEMBAR", "MEMBAR", 0x992).facts(facts::MEMBAR)
        .m(g("mode", 79, 2, &[(0, "SC"), (1, "ALL"), (2, ""), (3, "MMIO")]))
        .m(g("scope", 76, 3, &[(0, "CTA"), (1, "SM"), (2, "GPU"), (3, "SYS")]))
        .done(out);
    // CCTL: the whole-cache operations take no address (Ra = RZ), the others `[Ra+imm32]`.
    for (key, op, name) in [
        ("CCTL.IVALL", 4u64, "IVALL"),
        ("CCTL.IVALLP", 6, "IVALLP"),
        ("CCTL.WBALL", 7, "WBALL"),
        ("CCTL.WBALLP", 8, "WBALLP"),
    ] {
        form(key, "CCTL", 0x98f).facts(facts::CCTL).fix(24, 8, 0xff).fix(87, 4, op).lit(name).done(out);
    }
    form("CCTL", "CCTL", 0x98f).facts(facts::CCTL)
        .m(g(
            "op",
            87,
            4,
            &[(0, "PF1"), (1, "PF2"), (2, "WB"), (3, "IV"), (5, "RS"), (9, "PML2"), (10, "DML2"), (11, "RML2")],
        ))
        .op(OpSpec::Mem(MemSpec { offset: Some(Field::new(32, 32)), ..mem(BaseWidth::Plain) }))
        .done(out);
    form("ERRBAR", "ERRBAR", 0x9ab).facts(facts::ERRBAR).done(out);
    form("CGAERRBAR", "CGAERRBAR", 0x5ab).facts(facts::CGAERRBAR).done(out);
}
