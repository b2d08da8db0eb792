//! The `.isa` 4.1 binary writer (visa.md §1): file header with a one-entry
//! kernel table, then the kernel body (string pool, declarations, inputs,
//! attributes, instructions). Instruction records come from the opcode
//! table ([`super::inst::OpInfo`]).

use super::inst::{Ext, Field, Inst, Slot};
use super::kernel::{Kernel, SurfId};
use super::operand::{region_code, Operand};
use std::collections::HashMap;

/// Attribute `Target`, value 0 = "cm" (visa.md §1.2: always emit it).
const TARGET_ATTR: &str = "Target";
/// Attribute `SimdSize`, one byte.
const SIMD_SIZE_ATTR: &str = "SimdSize";

/// A little-endian byte sink.
#[derive(Default)]
struct Buf(Vec<u8>);

impl Buf {
    fn ub(&mut self, v: u8) {
        self.0.push(v);
    }
    fn uw(&mut self, v: u16) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn ud(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn bytes(&mut self, b: &[u8]) {
        self.0.extend_from_slice(b);
    }
    fn len(&self) -> usize {
        self.0.len()
    }
}

/// The string pool: kernel name first, then variable, predicate and label
/// names in declaration order, then attribute names — the order GenX_IR's
/// own writer uses, so our files match the reference samples byte for byte.
/// A repeated name gets its first index, found through a map: a kernel declares a name per
/// variable, so a search of the pool would make the writer quadratic.
#[derive(Default)]
struct Strings(Vec<String>, HashMap<String, u32>);

impl Strings {
    fn index(&mut self, s: &str) -> u32 {
        if let Some(&i) = self.1.get(s) {
            return i;
        }
        let i = self.0.len() as u32;
        self.0.push(s.to_string());
        self.1.insert(s.to_string(), i);
        i
    }
}

/// Writes the kernel as a `.isa` file.
pub fn write(k: &Kernel) -> Vec<u8> {
    let body = body(k);
    let mut h = Buf::default();
    h.ud(0x4153_4943); // "CISA"
    h.ub(4); // major
    h.ub(1); // minor
    h.uw(1); // one kernel
    let name = k.name.as_bytes();
    h.uw(name.len() as u16);
    h.bytes(name);
    // Everything after `offset` in the header has a fixed size:
    // offset, size, input_offset (3 × UD), relocs (2 × UW), gen binaries
    // (UB), file-scope vars (UW), functions (UW).
    let header_len = h.len() + 4 * 3 + 2 * 2 + 1 + 2 + 2;
    h.ud(header_len as u32);
    h.ud(body.bytes.len() as u32);
    h.ud((header_len + body.inputs_at) as u32);
    h.uw(0); // variable relocations
    h.uw(0); // function relocations
    h.ub(0); // gen binaries
    h.uw(0); // file-scope variables
    h.uw(0); // functions
    debug_assert_eq!(h.len(), header_len);
    h.bytes(&body.bytes);
    h.0
}

struct Body {
    bytes: Vec<u8>,
    /// Offset of `num_inputs` from the body start.
    inputs_at: usize,
}

fn body(k: &Kernel) -> Body {
    let mut pool = Strings::default();
    let kname = pool.index(&k.name);
    let var_names: Vec<u32> = k.vars.iter().map(|v| pool.index(&v.name)).collect();
    let pred_names: Vec<u32> = k.preds.iter().map(|p| pool.index(&p.name)).collect();
    let label_names: Vec<u32> = k.labels.iter().map(|l| pool.index(l)).collect();
    let surf_names: Vec<u32> = k.surfaces.iter().map(|t| pool.index(&t.name)).collect();
    let target = pool.index(TARGET_ATTR);
    let simd = k.simd_size.map(|n| (pool.index(SIMD_SIZE_ATTR), n));

    let mut b = Buf::default();
    b.ud(pool.0.len() as u32);
    for s in &pool.0 {
        b.bytes(s.as_bytes());
        b.ub(0);
    }
    b.ud(kname);

    b.ud(k.vars.len() as u32);
    for (v, &name) in k.vars.iter().zip(&var_names) {
        b.ud(name);
        b.ub(v.ty.code() | v.align.code() << 4);
        b.uw(v.num_elts);
        let (alias, off) = v.alias.map(|(base, o)| (base.number(), o)).unwrap_or((0, 0));
        b.ud(alias);
        b.uw(off);
        b.ub(0); // alias scope
        b.ub(0); // attributes
    }
    b.uw(0); // address variables
    b.uw(k.preds.len() as u16);
    for (p, &name) in k.preds.iter().zip(&pred_names) {
        b.ud(name);
        b.uw(p.num_elts);
        b.ub(0); // attributes
    }
    b.uw(k.labels.len() as u16);
    for &name in &label_names {
        b.ud(name);
        b.ub(0); // kind: block label
        b.ub(0); // attributes
    }
    b.ub(0); // samplers
    b.ub(k.surfaces.len() as u8);
    for &name in &surf_names {
        b.ud(name);
        b.uw(1); // one element
        b.ub(0); // attributes
    }
    b.ub(0); // vme
    let inputs_at = b.len();
    b.ud((k.inputs.len() + k.surfaces.len()) as u32);
    for i in &k.inputs {
        b.ub(0); // general input
        b.ud(i.var.number());
        b.uw(i.offset);
        b.uw(i.size);
    }
    for (i, t) in k.surfaces.iter().enumerate() {
        b.ub(2); // surface input
        b.ud(SurfId(i as u8).number() as u32);
        b.uw(t.offset);
        b.uw(4);
    }

    let mut code = Buf::default();
    for inst in &k.insts {
        encode_inst(&mut code, inst);
    }
    b.ud(code.len() as u32);
    // entry = this field (UD) + attribute count (UW) + the attributes
    // (UD name, UB size, UB value each) after the current position.
    let nattr = 1 + simd.is_some() as usize;
    let entry = b.len() + 4 + 2 + nattr * (4 + 1 + 1);
    b.ud(entry as u32);
    b.uw(nattr as u16);
    b.ud(target);
    b.ub(1);
    b.ub(0); // cm
    if let Some((name, n)) = simd {
        b.ud(name);
        b.ub(1);
        b.ub(n);
    }
    debug_assert_eq!(b.len(), entry);
    b.bytes(&code.0);
    Body { bytes: b.0, inputs_at }
}

/// Encodes one instruction record by walking its table fields.
fn encode_inst(b: &mut Buf, inst: &Inst) {
    let info = inst.info();
    b.ub(info.code);
    let mut ops = inst.operands.iter();
    for f in info.fields {
        match *f {
            Field::Byte(v) => b.ub(v),
            Field::Slm => b.ub(0),
            Field::LscOp => b.ub(match inst.ext {
                Ext::Atomic(op, _) => op.lsc().map_or(0, |(c, _)| c),
                _ => 0,
            }),
            Field::LscSlm => {
                let w = match inst.ext {
                    Ext::Atomic(_, w) => w,
                    _ => super::inst::AtomicWidth::W32,
                };
                b.bytes(&super::lsc::slm_shape(w));
                b.bytes(&super::lsc::FLAT_SURFACE);
            }
            Field::Exec => b.ub(inst.exec.byte()),
            Field::Pred => b.uw(inst.pred.map(|p| p.word()).unwrap_or(0)),
            Field::Ext => match inst.ext {
                Ext::Relop(r) => b.ub(r.code()),
                Ext::Atomic(op, w) => b.ub(op.code() | w.bits()),
                // gather/scatter_scaled: block size ignored (0), log2 of the byte count.
                Ext::Scaled(n) => {
                    b.ub(0);
                    b.ub(n.trailing_zeros() as u8);
                }
                Ext::Fence(f) => b.ub(f.mask()),
                Ext::Channels(ch) => b.ub(ch.0),
                Ext::Blocks(bl) => {
                    b.ub(bl.size_code());
                    b.ub(bl.num_code());
                }
                Ext::None => b.ub(0),
            },
            Field::Operand(slot) => {
                let o = ops.next().copied().unwrap_or(Operand::null());
                encode_operand(b, slot, &o, inst.sat);
            }
        }
    }
}

fn encode_operand(b: &mut Buf, slot: Slot, o: &Operand, sat: bool) {
    match (slot, *o) {
        (Slot::Raw, Operand::Raw { var, offset }) => {
            b.ud(var.map(|v| v.number()).unwrap_or(0));
            b.uw(offset);
        }
        (Slot::Label, Operand::Label(l)) => b.uw(l.0),
        (Slot::Surface, Operand::Surface(t)) => b.ub(t.number()),
        (Slot::Surface, _) => b.ub(0),
        // Tag: class 6 (state); class byte 0: a surface.
        (Slot::State, Operand::State { surface, offset }) => {
            b.ub(6);
            b.ub(0);
            b.uw(surface.number() as u16);
            b.ub(offset);
        }
        (Slot::State, _) => {
            b.ub(6);
            b.ub(0);
            b.uw(0);
            b.ub(0);
        }
        (_, Operand::Dst { var, row, col, hstride }) => {
            // Tag: class 0 (general), modifier 4 (sat) on a destination.
            b.ub(if sat { 4 << 3 } else { 0 });
            b.ud(var.number());
            b.ub(row);
            b.ub(col);
            b.uw((region_code(hstride) as u16) << 8);
        }
        (_, Operand::Src { var, row, col, region, modifier }) => {
            b.ub(modifier.code() << 3);
            b.ud(var.number());
            b.ub(row);
            b.ub(col);
            b.uw(region_code(region.vstride) as u16
                | (region_code(region.width) as u16) << 4
                | (region_code(region.hstride) as u16) << 8);
        }
        (_, Operand::Pred(p)) => {
            b.ub(2);
            b.uw(p.number());
        }
        (_, Operand::Imm(i)) => {
            b.ub(5);
            b.ub(i.ty.code());
            let bytes = i.masked_bits().to_le_bytes();
            b.bytes(&bytes[..i.byte_len()]);
        }
        // A raw operand or label in the wrong slot: the validator reports
        // it; write the slot's null form so the record keeps its length.
        (Slot::Raw, _) => {
            b.ud(0);
            b.uw(0);
        }
        (Slot::Label, _) => b.uw(0),
        (_, Operand::Raw { .. }) | (_, Operand::Label(_)) | (_, Operand::Surface(_)) | (_, Operand::State { .. }) => {
            b.ub(0);
            b.ud(0);
            b.ub(0);
            b.ub(0);
            b.uw(0);
        }
    }
}
