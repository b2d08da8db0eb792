//! The sm_50 (Maxwell) architecture. Its form table is written in `tables/sm50/` and made
//! static data by the build script; the layout facts shared by every form are there.

mod hook;

use super::bits::Field;
use super::form::SchedLayout;
use super::Arch;

mod table {
    include!(concat!(env!("OUT_DIR"), "/sm50_forms.rs"));
}

static SM50: Arch = Arch::new(
    crate::Sm::Sm50,
    8,
    Field::new(16, 3),
    Field::new(19, 1),
    SchedLayout::Bundle { per_bundle: 3, slot_bits: 21 },
    255,
    255,
    SREGS,
    table::TABLE,
    Some(hook::rewrite),
    Some(hook::rewrite_written),
);

/// The sm_50 architecture.
pub fn sm50() -> &'static Arch {
    &SM50
}

/// Special registers S2R reads on Maxwell (numbers as nvdisasm 11.8 names them).
const SREGS: &[(u16, &str)] = &[
    (0x00, "SR_LANEID"),
    (0x21, "SR_TID.X"),
    (0x22, "SR_TID.Y"),
    (0x23, "SR_TID.Z"),
    (0x25, "SR_CTAID.X"),
    (0x26, "SR_CTAID.Y"),
    (0x27, "SR_CTAID.Z"),
    (0x38, "SR_EQMASK"),
    (0x39, "SR_LTMASK"),
    (0x3a, "SR_LEMASK"),
    (0x3b, "SR_GTMASK"),
    (0x3c, "SR_GEMASK"),
];
