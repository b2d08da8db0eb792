//! The parts of the `atomc` command line that tests and tools reuse: the benchmark driver
//! behind `atomc bench` and the support matrix behind `atomc support`. The library proper is the `atomc` crate; this package adds only what a
//! command line needs (argument parsing, the filetest runner, running ptxas for comparison).

pub mod bench;
pub mod support;
pub mod whole_ir;
