//! An independent timing oracle for SASS.
//!
//! atomc's scheduler, its static hazard check and the emulator's timing model all read one
//! latency table (`atomc_sass::latency`). They agree with each other by construction, so a wrong
//! figure in that table passes all three. This crate is the outside check: it knows nothing of
//! atomc's form tables or latencies.
//!
//! * [`listing`] reads `nvdisasm -hex` listings (NVIDIA's decoder, not atomc's): instructions,
//!   guards, operands, labels and each instruction's control fields.
//! * [`effects`] says which registers, predicates and flags an instruction reads and writes,
//!   from nvdisasm's spelling alone (this crate's own operand rules).
//! * [`class`] groups mnemonics into producer and reader classes (this crate's own table).
//! * [`flow`] follows the control-flow graph and reports, for every register read, each
//!   fixed-latency producer it may come from and the fewest cycles issued in between.
//! * [`calibrate`] turns ptxas's schedules into a [`table::Table`]: per class pair, the fewest
//!   cycles after which ptxas ever reads a result. ptxas's code is right by assumption, so that
//!   figure is proven safe; nothing smaller is.
//! * [`check`] applies a table to any listing (atomc's): every read of a fixed-latency result
//!   at least the calibrated figure after its producer, every variable-latency result behind a
//!   wait on its scoreboard, and every class pair covered by the corpus.
//!
//! `cargo run -p atomc-timing-oracle --bin calibrate-timing` rebuilds the tables in `data/`
//! from ptxas 13 (sm_90) and ptxas 11.8 (sm_50) output; the tests read the stored tables.

pub mod calibrate;
pub mod check;
pub mod class;
pub mod corpus;
pub mod effects;
pub mod flow;
pub mod generate;
pub mod listing;
pub mod table;
