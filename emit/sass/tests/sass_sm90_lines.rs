//! sm_90 form table against nvdisasm: hand-written lines (golden encodings, ptxas output) and a
//! sweep over every form and every value of every modifier group.
//!
//! For each line: assemble -> encode -> nvdisasm must print the same text, and
//! decode(encode(x)) must print the same text and re-encode to the same word.

mod sass_util;

use atomc_oracle::Tool;
use atomc_sass::{sm90, Arch, BaseWidth, ImmKind, Instr, Mem, OpSpec, Operand, Pred, Reg, Sched};
use sass_util::*;

/// Lines as nvdisasm prints them (each is checked, not trusted).
const LINES: &[&str] = &[
    "ATOM.E.ADD.STRONG.GPU PT, R1, [R2], R3 ;",
    "ATOM.E.CAS.STRONG.GPU PT, R1, [R2], R4, R5 ;",
    "ATOMG.E.ADD.STRONG.GPU PT, R1, [R2], R3 ;",
    "ATOMG.E.EXCH.64.STRONG.GPU PT, R2, [R4], R6 ;",
    "ATOMG.E.CAS.64.STRONG.GPU PT, R2, [R4], R8, R10 ;",
    "ATOMG.E.ADD.F32.FTZ.RN.STRONG.GPU PT, R1, [R2], R3 ;",
    "REDG.E.ADD.STRONG.GPU [R2], R3 ;",
    "REDG.E.ADD.F32.FTZ.RN.STRONG.GPU [R2], R3 ;",
    "ATOMS.ADD R1, [R2+0x8], R3 ;",
    "ATOMS.CAS R1, [R2], R4, R5 ;",
    "SUATOM.D.2D.ADD.STRONG.GPU.IGN R1, [R2], R4, R6 ;",
    "SUATOM.D.1D.CAS.STRONG.GPU.IGN R1, [R2], R4, R6 ;",
    "SURED.D.1D.ADD.STRONG.GPU.IGN [R2], R4, R6 ;",
    "EXIT ;",
    "NOP ;",
    "NOP;",
    "@P0 ATOMG.E.ADD.STRONG.GPU PT, R4, desc[UR6][R2.64], R5 ;",
    "ATOMG.E.CAS.STRONG.GPU PT, R17, [R6], R16, R17 ;",
    "MEMBAR.ALL.GPU ;",
    "CCTL.IVALL ;",
    "@!P0 ATOMG.E.ADD.EF.S32.STRONG.SYS P1, RZ, [R2+-0x10], R3 ;",
    "ATOMG.E.MIN.S64.STRONG.GPU PT, R4, desc[UR4][R12.64+-0x10], R4 ;",
    "ATOM.E.CAST.SPIN.STRONG.SM PT, R13, [R34+0x18], R12, R13 ;",
    "ATOMS.CAST.SPIN.64 R10, [R31+0x38], R8, R10 ;",
    "ATOMS.ADD R1, [R2.X4+0x8], R3 ;",
    "ATOMG.E.ADD.STRONG.GPU PT, R1, [0x10], R3 ;",
    "ATOMG.E.ADD.STRONG.GPU PT, R1, [RZ], R3 ;",
    "REDG.E.ADD.64.STRONG.GPU desc[UR6][R2.64+0x8], R6 ;",
    "LDG.E.64 R10, desc[UR4][R2.64+0x20] ;",
    "LDG.E.U8.CONSTANT R2, desc[UR6][R2.64] ;",
    "STG.E.U16 desc[UR4][R2.64+0x2], R13 ;",
    "LDC R1, c[0x0][0x28] ;",
    "STL [R1+0x1c], R3 ;",
    "STL.64 [R0+0x8], R4 ;",
    "STL.128 [R0+0x10], R4 ;",
    "LDL R12, [R1+0x1e4] ;",
    "LDL.64 R12, [R0+0x30] ;",
    "LDL.128 R8, [R0+0x20] ;",
    "LDL.U8 R14, [R0+0x35] ;",
    "LDC R3, c[0x0][RZ] ;",
    "LDC.64 R4, c[0x0][0x210] ;",
    "ULDC.64 UR4, c[0x0][0x208] ;",
    "S2R R0, SR_TID.X ;",
    "S2UR UR4, SR_CTAID.X ;",
    "MOV R14, R12 ;",
    "IMAD.MOV.U32 R0, RZ, RZ, 0x3f800000 ;",
    "IMAD.SHL.U32 R4, R0, 0x8, RZ ;",
    "IMAD.IADD R29, R20, 0x1, R29 ;",
    "IMAD.WIDE R12, R7, 0x4, R12 ;",
    "IMAD.WIDE.U32 R10, R21, 0x8, RZ ;",
    "IMAD.X R11, R9, 0x1, R27, P0 ;",
    "IMAD R2, R4, UR6, R7 ;",
    "IADD3 R0, R0, R2, R3 ;",
    "IADD3 R11, P0, R8, 0x2, RZ ;",
    "IADD3.X R13, R11, UR5, RZ, P0, !PT ;",
    "ISETP.NE.U32.OR.EX P0, PT, R11, R27, !PT, !P0 ;",
    "ISETP.GE.U32.AND P0, PT, R12, UR6, PT ;",
    "ISETP.LE.U32.OR P1, PT, R4, 0x1, P1 ;",
    "LOP3.LUT R0, R11, 0x2, RZ, 0xc0, !PT ;",
    "SEL R0, R10, 0x5410, P0 ;",
    "FSEL R11, R10, R11, P0 ;",
    "BAR.SYNC.DEFER_BLOCKING 0x0 ;",
    "BSYNC B0 ;",
    "ERRBAR;",
    "CGAERRBAR ;",
    // ptxas 13 for match.any.sync, brev, bfe and bfi (emit/sass/tables/sm90/bits.rs).
    "MATCH.ANY R12, R20 ;",
    "MATCH.ANY.U64 R13, R14 ;",
    "BREV R14, R20 ;",
    "SGXT R19, R19, 0x8 ;",
    "SGXT.U32 R17, R26, R23 ;",
    "BMSK R18, R5, R0 ;",
    "SHFL.BFLY P2, R11, R20, R21, 0x1f ;",
    "VOTE.ANY R9, PT, PT ;",
    "MATCH.ALL P1, RZ, R0 ;",
    "SHFL.UP PT, R8, R17, R9, RZ ;",
    "SHFL.UP PT, R17, R0, 0x3, RZ ;",
    "WARPSYNC R5 ;",
    "I2F.U32.RP R0, 0x3 ;",
];

/// The sm_90 table where nvdisasm 13 is installed; `None` (the caller returns: the oracle
/// tests skip without it) otherwise.
fn sm90_if_nvdisasm() -> Option<&'static Arch> {
    have_tools(&[Tool::Nvdisasm13]).then(sm90)
}

#[test]
fn lines_round_trip_through_nvdisasm() {
    let Some(arch) = sm90_if_nvdisasm() else { return };
    let mut code = Vec::new();
    let mut fails = Vec::new();
    for l in LINES {
        match arch.assemble_line(l, 0) {
            Ok(Some(ins)) => {
                if arch.print(&ins) != *l {
                    fails.push(format!("assemble/print: `{}` -> `{}`", l, arch.print(&ins)));
                }
                code.push(ins);
            }
            Ok(None) => fails.push(format!("`{}`: no instruction", l)),
            Err(e) => fails.push(format!("`{}`: {}", l, e)),
        }
    }
    check_decode_round_trip(arch, &code, &mut fails);
    let (checked, f) = check_against_nvdisasm(arch, &code);
    fails.extend(f);
    println!("sm_90 lines: {} written, {} checked against nvdisasm, {} failures", LINES.len(), checked, fails.len());
    assert!(fails.is_empty(), "{}", fails.join("\n"));
}

fn check_decode_round_trip(arch: &Arch, code: &[Instr], fails: &mut Vec<String>) {
    for ins in code {
        let Ok(bytes) = arch.encode(ins) else { continue };
        match arch.decode(&bytes) {
            Ok(back) => {
                if arch.print(&back) != arch.print(ins) {
                    fails.push(format!("decode/print: `{}` -> `{}`", arch.print(ins), arch.print(&back)));
                }
                if arch.encode(&back).ok() != Some(bytes.clone()) {
                    fails.push(format!("re-encode differs: `{}`", arch.print(ins)));
                }
            }
            Err(e) => fails.push(format!("decode `{}`: {}", arch.print(ins), e)),
        }
    }
}

/// A plausible operand for a slot (variant 0 or 1 gives different values).
fn sample(arch: &Arch, spec: &OpSpec, slot: usize, v: usize) -> Operand {
    let reg = (2 + 2 * slot + 8 * v) as u8;
    match spec {
        OpSpec::Reg(r) => Operand::r(if v == 1 && slot == 0 && r.rz_ok { 255 } else { reg }),
        OpSpec::UReg(_) => Operand::UReg(Reg::r(4 + v as u8 * 2)),
        OpSpec::Pred(p) => Operand::Pred(if p.hide_pt && v == 0 {
            Pred::PT
        } else {
            Pred { num: (slot % 7) as u8, not: p.not.is_some() && v == 1 }
        }),
        OpSpec::UPred(_) => Operand::UPred(Pred::PT),
        OpSpec::Imm(i) => Operand::Imm(match (i.kind, v) {
            (ImmKind::F32, 0) => 0.5f32.to_bits() as i64,
            (ImmKind::F32, _) => (-100.0f32).to_bits() as i64,
            (ImmKind::F64Hi, _) => (1.5f64.to_bits() >> 32) as i64,
            (ImmKind::F16, 0) => 0x3c00,
            (ImmKind::F16, _) => 0xb800,
            (ImmKind::SignedHex, 1) => -0x8,
            (_, 0) => 0x10.min((1i64 << i.field.width().min(62)) - 1),
            _ => 0x3.min((1i64 << i.field.width().min(62)) - 1),
        }),
        OpSpec::CBank(c) => Operand::CBank {
            bank: 0,
            base: if c.base.is_some() && v == 1 { 2 } else { 255 },
            offset: 0x210,
            neg: false,
            abs: false,
            h1: false,
        },
        OpSpec::Mem(m) => Operand::Mem(Mem {
            base: 2 + 2 * v as u8,
            width: m.width,
            ureg: m.ureg.map(|_| 4),
            desc: m.desc.map(|_| 6),
            offset: if m.offset.is_some() { [0x10, -0x20][v] } else { 0 },
            scale: if m.scale.is_some() { v as u8 } else { 0 },
        }),
        OpSpec::SReg(_) => Operand::SReg([0x21, 0x25][v]),
        OpSpec::Target(_) => Operand::Target([0x20, -0x40][v]),
        OpSpec::BReg(_) => Operand::BReg(v as u8),
        OpSpec::Ext(atomc_sass::ExtSpec::CBankScaled { .. }) => {
            Operand::CBank { bank: 3, base: 255, offset: [0x210, 0x7ffc][v], neg: false, abs: false, h1: false }
        }
        // Half-precision sources: every swizzle, negated and absolute.
        OpSpec::Ext(atomc_sass::ExtSpec::Swizzled { reg: r, uniform, .. }) => {
            let g = Reg {
                num: if *uniform { 4 + v as u8 * 2 } else { reg },
                neg: v == 1,
                abs: v == 0 && r.abs.is_some(),
                swz: [0, 2, 3][(slot + v) % 3],
                ..Reg::default()
            };
            if *uniform {
                Operand::UReg(g)
            } else {
                Operand::Reg(g)
            }
        }
        OpSpec::Ext(_) => Operand::rz(),
    }
    .clone_for(arch)
}

trait CloneFor {
    fn clone_for(self, arch: &Arch) -> Self;
}
impl CloneFor for Operand {
    fn clone_for(self, _arch: &Arch) -> Operand {
        self
    }
}

/// Every form, every value of every modifier group (others at their first legal value), with
/// two operand samples; printed text must equal nvdisasm's.
#[test]
fn every_form_and_modifier_value_matches_nvdisasm() {
    let Some(arch) = sm90_if_nvdisasm() else { return };
    let mut code = Vec::new();
    for (fi, form) in arch.forms.iter().enumerate() {
        let base_mods: Vec<u64> = form.mods.iter().map(|g| g.default_value().unwrap_or(g.values[0].0)).collect();
        let mut variants: Vec<Vec<u64>> = vec![base_mods.clone()];
        for (gi, g) in form.mods.iter().enumerate() {
            for (val, _) in g.values {
                let mut m = base_mods.clone();
                m[gi] = *val;
                variants.push(m);
            }
        }
        for (k, mods) in variants.into_iter().enumerate() {
            let v = k % 2;
            let ops = form.ops.iter().enumerate().map(|(s, o)| sample(arch, o, s, v)).collect();
            let sched = if k % 5 == 3 { Sched { stall: 0, ..Sched::default() } } else { Sched::default() };
            code.push(Instr {
                form: fi as u16,
                guard: if k % 3 == 1 { Pred { num: 1, not: true } } else { Pred::PT },
                mods: mods.into_iter().collect(),
                ops,
                sched,
            });
        }
    }
    let mut fails = Vec::new();
    check_decode_round_trip(arch, &code, &mut fails);
    // The assembler must read back what the printer writes.
    for (i, ins) in code.iter().enumerate() {
        let text = arch.print_at(ins, (i * 16) as u64);
        match arch.assemble_line(&text, (i * 16) as u64) {
            Ok(Some(back)) if arch.encode(&back).ok() == arch.encode(ins).ok() => {}
            Ok(_) => fails.push(format!("assemble(print) differs: `{}`", text)),
            Err(e) => fails.push(format!("assemble `{}`: {}", text, e)),
        }
    }
    let (checked, f) = check_against_nvdisasm(arch, &code);
    fails.extend(f);
    println!(
        "sm_90 sweep: {} forms, {} instructions, {} checked against nvdisasm, {} failures",
        arch.forms.len(),
        code.len(),
        checked,
        fails.len()
    );
    assert!(fails.is_empty(), "{} failures:\n{}", fails.len(), fails.join("\n"));
}

#[test]
fn table_is_consistent() {
    let problems = sm90().lint();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[allow(dead_code)]
fn unused(_: BaseWidth) {}

/// Random field values for every form (schedule kept at the default): whatever our decoder
/// accepts must print exactly as nvdisasm prints the same word.
#[test]
fn random_field_values_match_nvdisasm() {
    let Some(arch) = sm90_if_nvdisasm() else { return };
    let mut next = xorshift(0x2545_f491_4f6c_dd1d);
    let mut code = Vec::new();
    for form in arch.forms {
        let (mask, value) = form.pattern();
        let free = (form.known_bits() | (0xf << 12)) & !mask;
        let mut got = 0;
        for _ in 0..600 {
            if got == 24 {
                break;
            }
            let noise = (next() as u128) | ((next() as u128) << 64);
            let w = (noise & free) | value;
            if let Ok(mut ins) = arch.decode(&w.to_le_bytes()) {
                ins.sched = Sched::default();
                if arch.encode(&ins).is_ok() {
                    code.push(ins);
                    got += 1;
                }
            }
        }
    }
    let (checked, fails) = check_against_nvdisasm(arch, &code);
    println!(
        "sm_90 random fields: {} instructions, {} checked against nvdisasm, {} failures",
        code.len(),
        checked,
        fails.len()
    );
    assert!(fails.is_empty(), "{} failures:\n{}", fails.len(), fails.join("\n"));
}
