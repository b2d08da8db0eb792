//! The sm_90 (Hopper) architecture. Its form table is written in `tables/sm90/` and made static
//! data by the build script; the layout facts shared by every form are there.

mod sregs;

use super::bits::Field;
use super::form::SchedLayout;
use super::Arch;

mod table {
    include!(concat!(env!("OUT_DIR"), "/sm90_forms.rs"));
}

static SM90: Arch = Arch::new(
    crate::Sm::Sm90,
    16,
    Field::new(12, 3),
    Field::new(15, 1),
    SchedLayout::InWord { lo: 105 },
    255,
    63,
    sregs::SREGS,
    table::TABLE,
    None,
    None,
);

/// The sm_90 architecture.
pub fn sm90() -> &'static Arch {
    &SM90
}
