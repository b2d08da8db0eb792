//! Interpreter errors: every failure names the instruction (`v5 = load`,
//! `store`), its source position and the thread that ran it.

use crate::{AddrSpace, Function, Inst, SrcLoc, Value};
use std::fmt;

/// Where an error happened: the instruction and, at run time, the thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    /// The instruction.
    pub inst: Inst,
    /// The instruction as `vN = opcode` or `opcode`.
    pub text: String,
    /// Its source position (unknown for functions built in code).
    pub loc: SrcLoc,
    /// `(block_id, thread_id)` of the thread, when it happened at run time.
    pub thread: Option<([u32; 3], [u32; 3])>,
}

impl Site {
    pub(crate) fn new(func: &Function, inst: Inst, thread: Option<([u32; 3], [u32; 3])>) -> Site {
        let op = func.insts.get(inst).map(|d| d.opcode_name()).unwrap_or("?");
        let text = match func.results.get(inst).copied().flatten() {
            Some(v) => format!("{v} = {op}"),
            None => op.to_string(),
        };
        let loc = func.inst_locs.get(inst).copied().unwrap_or_default();
        Site {
            inst,
            text,
            loc,
            thread,
        }
    }
}

impl fmt::Display for Site {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` ({}", self.text, self.inst)?;
        if self.loc.is_known() {
            write!(f, ", line {}:{}", self.loc.line, self.loc.col)?;
        }
        f.write_str(")")?;
        if let Some((b, t)) = self.thread {
            write!(
                f,
                " in thread ({},{},{}) of block ({},{},{})",
                t[0], t[1], t[2], b[0], b[1], b[2]
            )?;
        }
        Ok(())
    }
}

/// An execution failure. Never a panic: malformed functions, bad launches
/// and faulting kernels all end here.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InterpError {
    /// An access whose address is not a multiple of its size.
    #[error("{site}: misaligned {size}-byte {} access at address {addr:#x}", space.name())]
    Misaligned {
        site: Box<Site>,
        space: AddrSpace,
        addr: u64,
        size: u32,
    },
    /// An access past the end of a buffer or of shared memory.
    #[error("{site}: out-of-bounds {size}-byte {} access at address {addr:#x}: {detail}", space.name())]
    OutOfBounds {
        site: Box<Site>,
        space: AddrSpace,
        addr: u64,
        size: u32,
        detail: String,
    },
    /// A global (or generic) address in no buffer's window.
    #[error("{site}: {} address {addr:#x} is in no buffer", space.name())]
    UnknownBuffer {
        site: Box<Site>,
        space: AddrSpace,
        addr: u64,
    },
    /// A surface coordinate out of range with `clamp trap`.
    #[error(
        "{site}: surface coordinates {coords:?} out of range of extent {extent:?} (clamp trap)"
    )]
    SurfaceOutOfRange {
        site: Box<Site>,
        coords: Vec<i32>,
        extent: [u32; 3],
    },
    /// A surface access the launch cannot serve (unbound slot, bad handle,
    /// element size mismatch, unaligned byte coordinate).
    #[error("{site}: {msg}")]
    Surface { site: Box<Site>, msg: String },
    /// A read of a value that has not been computed on this path.
    #[error("{site}: reads {value}, which has not been defined")]
    Undefined { site: Box<Site>, value: Value },
    /// Integer division or remainder by zero.
    #[error("{site}: integer division by zero")]
    DivisionByZero { site: Box<Site> },
    /// An instruction the IR does not define (wrong operand types, missing
    /// terminator, ...); the verifier rejects these.
    #[error("{site}: {msg}")]
    Malformed { site: Box<Site>, msg: String },
    /// A function the interpreter cannot run at all (no entry block, ...).
    #[error("cannot interpret function %{name}: {msg}")]
    BadFunction { name: String, msg: String },
    /// The launch does not fit the function (argument count or types,
    /// empty grid, too many threads).
    #[error("bad launch: {0}")]
    BadLaunch(String),
    /// More instructions than the step limit were executed. `next` is the
    /// instruction the first still-running thread was about to execute.
    #[error("step limit of {limit} instructions reached (an endless loop or a spin that never ends?); next: {next}")]
    StepLimit { limit: u64, next: Box<Site> },
    /// Undefined behaviour: threads of a block wait at a barrier that others of the
    /// block never reach, having returned. `barrier` and `exit` are the first such
    /// thread of each kind, with its instruction.
    #[error("undefined behaviour (barrier-not-reached): {waiting} thread(s) of the block wait at {barrier}, but {returned} thread(s) of the block returned without reaching it, the first at {exit}; every thread of a block must reach each barrier")]
    BarrierNotReached {
        waiting: usize,
        barrier: Box<Site>,
        returned: usize,
        exit: Box<Site>,
    },
    /// No thread can make progress.
    #[error("deadlock: {detail}")]
    Deadlock { detail: String },
}

impl InterpError {
    /// The source position of the failing instruction, when known.
    pub fn loc(&self) -> Option<SrcLoc> {
        self.site().map(|s| s.loc).filter(|l| l.is_known())
    }

    /// The failing instruction, for errors tied to one.
    pub fn site(&self) -> Option<&Site> {
        match self {
            InterpError::Misaligned { site, .. }
            | InterpError::OutOfBounds { site, .. }
            | InterpError::UnknownBuffer { site, .. }
            | InterpError::SurfaceOutOfRange { site, .. }
            | InterpError::Surface { site, .. }
            | InterpError::Undefined { site, .. }
            | InterpError::DivisionByZero { site }
            | InterpError::Malformed { site, .. }
            | InterpError::BarrierNotReached { barrier: site, .. } => Some(site),
            _ => None,
        }
    }
}

/// A failure inside one instruction, before the site is attached.
#[derive(Clone, Debug)]
pub(crate) enum Fault {
    Mem(super::memory::MemFault, u32),
    Undefined(Value),
    DivByZero,
    SurfaceRange(Vec<i32>, [u32; 3]),
    Surface(String),
    Malformed(String),
}

impl Fault {
    pub(crate) fn at(self, site: Site) -> InterpError {
        use super::memory::MemFault;
        let site = Box::new(site);
        match self {
            Fault::Mem(MemFault::Misaligned { space, addr }, size) => InterpError::Misaligned {
                site,
                space,
                addr,
                size,
            },
            Fault::Mem(
                MemFault::OutOfBounds {
                    space,
                    addr,
                    detail,
                },
                size,
            ) => InterpError::OutOfBounds {
                site,
                space,
                addr,
                size,
                detail,
            },
            Fault::Mem(MemFault::Unknown { space, addr }, _) => {
                InterpError::UnknownBuffer { site, space, addr }
            }
            Fault::Undefined(value) => InterpError::Undefined { site, value },
            Fault::DivByZero => InterpError::DivisionByZero { site },
            Fault::SurfaceRange(coords, extent) => InterpError::SurfaceOutOfRange {
                site,
                coords,
                extent,
            },
            Fault::Surface(msg) => InterpError::Surface { site, msg },
            Fault::Malformed(msg) => InterpError::Malformed { site, msg },
        }
    }
}
