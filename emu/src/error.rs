//! What can go wrong running machine code. Every error names the instruction (address and
//! nvdisasm text) when one is involved; none of them is a panic.

/// Why a run stopped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EmuError {
    /// The cubin cannot be read, or lacks what a launch needs.
    #[error("cubin: {0}")]
    Cubin(String),
    /// The launch does not fit the kernel (parameter count or sizes, block size, ...).
    #[error("launch: {0}")]
    Launch(String),
    /// A word the form table cannot decode was reached.
    #[error("/*{at:04x}*/ cannot be decoded: {reason}")]
    Decode { at: u64, reason: String },
    /// An instruction (or a variant of one) the emulator does not model.
    #[error("/*{at:04x}*/ {text}: not supported by the emulator ({why})")]
    Unsupported { at: u64, text: String, why: String },
    /// A memory access outside every buffer, window or bound.
    #[error("/*{at:04x}*/ {text}: {space} access of {size} byte(s) at {addr:#x} is out of bounds (thread {thread})")]
    Fault {
        at: u64,
        text: String,
        space: &'static str,
        addr: u64,
        size: u32,
        thread: String,
    },
    /// A misaligned memory access.
    #[error("/*{at:04x}*/ {text}: misaligned {space} access of {size} byte(s) at {addr:#x} (thread {thread})")]
    Misaligned {
        at: u64,
        text: String,
        space: &'static str,
        addr: u64,
        size: u32,
        thread: String,
    },
    /// The schedule fields let an instruction read or overwrite a register too early.
    #[error("timing hazard on {reg}: /*{consumer_at:04x}*/ {consumer} {what} /*{producer_at:04x}*/ {producer}")]
    Hazard {
        reg: String,
        what: String,
        consumer_at: u64,
        consumer: String,
        producer_at: u64,
        producer: String,
    },
    /// A control-flow rule of the target broken (a barrier in divergent code on sm_50, a
    /// branch outside the code, a convergence stack underflow).
    #[error("/*{at:04x}*/ {text}: {why}")]
    Control { at: u64, text: String, why: String },
    /// More warp instructions issued than the launch allows (a spin that never ends, or a lane
    /// of the same warp that cannot make progress).
    #[error("step limit of {limit} warp instructions reached; {state}")]
    StepLimit { limit: u64, state: String },
    /// No warp can issue and some have not exited.
    #[error("deadlock: {0}")]
    Deadlock(String),
}
