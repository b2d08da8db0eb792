//! The filetests' `; run:` language: one line describes a launch (or a
//! call), the memory it starts with, and what must hold afterwards.
//! [`run_line`] parses and executes it; the filetest runner only passes
//! the function and the text after `run:` (a leading `; run:` is skipped
//! too).
//!
//! # Grammar
//!
//! ```text
//! run-line  := item* [ '=>' check { [','] check } ]
//! item      := 'grid' DIMS | 'block' DIMS        sizes, DIMS = N | NxM | NxMxK   (default 1)
//!            | 'shared' N                       bytes of shared memory per block (default 0)
//!            | 'steps' N                        step limit (default 10 000 000)
//!            | 'subgroup' N                     lanes per subgroup: 1, 2, 4, 8, 16 or 32 (default 32)
//!            | 'args' '(' arg,* ')'             kernel arguments, one per parameter
//!            | '%'NAME '(' arg,* ')' [ ('=='|'!=') results ]    call form (Cranelift's)
//!            | NAME ':' ['surface'] ELEM '[' [DIMS] ']' ['slot' N] ['=' init]
//!            | ','                              (optional separator)
//! ELEM      := i8 i16 i32 i64 | u8 u16 u32 u64 (unsigned view) | f16 f32 f64 | f16x2 bf16x2
//! init      := lit | 'fill' lit (every element) | 'iota' (0, 1, 2, ..) | '[' entry,* ']'  (none: zeros)
//! arg       := lit | NAME ['+' N | '-' N]   a buffer's address (+ byte offset) for ptr.global /
//!                                          ptr.generic, a surface's handle for `surface`
//! results   := lit | '[' lit,* ']'         one value, or all return values
//! check     := NAME ['[' I ['..' J] ']'] [mode] ('=='|'!=') expected
//!            | 'error' "TEXT"              the run must fail with an error containing TEXT
//! mode      := 'sorted' | 'as' 'set' | 'sum' | 'all'
//! expected  := '[' entry,* ']' | '{' entry,* '}' | 'iota' | lit
//! entry     := lit | INT '..' INT | INT '..=' INT   a range: counts up in the element's width,
//!                                          the end excluded (`..`) or included (`..=`)
//! lit       := integer (decimal, 0x, 0b, `_`, may be negative; signed or unsigned spelling)
//!            | float: 1.5  -0.0  1e-3  inf  -inf  nan (canonical quiet NaN)  0x1.8p3
//!              (a leading `+` and `Inf`/`NaN` spellings are accepted, as in Cranelift)
//!              or 0xBITS for a raw pattern (NaN payloads)
//!            | true | false
//!            | '(' f ',' f ')' a packed f16x2/bf16x2 value, lane 0 first (or 0xBITS, or
//!              '[' f f ']' where no list is expected: a call's arguments and results)
//! ```
//!
//! Commas inside lists are optional. Declarations, sizes and arguments may
//! come in any order before `=>`; buffers get addresses in declaration
//! order (`GLOBAL_BASE * (i + 1)`), surfaces handles in declaration order.
//! A surface's extents are `W[xH[xD]]` and a `slot N` binds it.
//!
//! Checks read the declared memory after the run, typed by the declaration:
//!
//! * `buf == [..]` — every element, exactly (bitwise; `nan` is the canonical
//!   NaN); `buf[3] == x`, `buf[2..4] == [..]` — a part.
//! * `buf sorted == [..]` — the same multiset of values (both sides are
//!   sorted, signed/unsigned/float order per the element type); `iota`
//!   stands for `0, 1, .., n-1` (each thread got a distinct ticket).
//! * `buf as set == {..}` — the same set of distinct values.
//! * `buf sum == x` — the wrapping integer sum; `buf all == x` — every element.
//! * `!=` negates any of them.
//!
//! # Examples
//!
//! ```text
//! ; run: grid 1 block 256 args(buf0) buf0: i32[1] = [0] => buf0 == [256]
//! ; run: grid 4 block 64 args(c, t) c: u32[1] = 0 t: u32[256] => c == [256], t sorted == iota
//! ; run: block 32 shared 128 args(o) o: i32[32] => o == iota
//! ; run: args(s, 3) s: surface i32[4x4] slot 0 = 0 => s[3] == 1
//! ; run: %add(1, 2) == 3
//! ; run: %minmax(nan, 1.0) == [1.0, 1.0]
//! ; run: %fetch(b, 5) == 0 b: i64[1] = 0 => b == [5]
//! ; run: block 8 args(b) b: i32[8] = [0..4, 0..4] => b sorted == [0..=3, 0..=3]
//! ; run: args(h) h: f16x2[4] = fill (1.0, -0.5) => h all == (1.0, -0.5)
//! ; run: block 2 args(b) b: i32[1] => error "misaligned"
//! ```

mod access;
mod check;
mod expect;
mod lex;
mod literal;
mod parse;

pub use check::RunReport;
pub use access::{DeclInfo, KernelParam};
pub use literal::Elem;

use super::error::InterpError;
use super::sched::Dim3;
use super::value::DataValue;
use crate::Function;

/// Why a run line failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RunLineError {
    /// The line does not follow the grammar (or does not fit the function).
    #[error("run line, column {col}: {msg}")]
    Parse {
        /// 1-based character column in the line as given.
        col: usize,
        /// What is wrong.
        msg: String,
    },
    /// The run finished but an expectation does not hold.
    #[error("{0}")]
    Mismatch(String),
    /// The run failed (and no `error "..."` check expected it).
    #[error("{0}")]
    Exec(#[from] InterpError),
}

/// A parsed run line, ready to execute.
#[derive(Clone, Debug)]
pub struct RunSpec {
    pub(crate) grid: Dim3,
    pub(crate) block: Dim3,
    pub(crate) shared_bytes: u32,
    pub(crate) step_limit: u64,
    pub(crate) subgroup_size: u32,
    pub(crate) decls: Vec<Decl>,
    pub(crate) args: Vec<DataValue>,
    pub(crate) call: Option<(bool, Vec<DataValue>)>,
    pub(crate) checks: Vec<Check>,
    pub(crate) expect_error: Option<String>,
}

/// A declared buffer or surface, with its initial elements (bit patterns).
#[derive(Clone, Debug)]
pub(crate) struct Decl {
    pub name: String,
    pub elem: Elem,
    pub kind: DeclKind,
    pub init: Vec<u64>,
}

#[derive(Clone, Debug)]
pub(crate) enum DeclKind {
    Buffer,
    Surface { extent: [u32; 3], slot: Option<u16> },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CheckMode {
    Exact,
    Sorted,
    Set,
    Sum,
    All,
}

#[derive(Clone, Debug)]
pub(crate) enum Expected {
    List(Vec<u64>),
    Scalar(u64),
}

/// One expectation on a declaration's final contents.
#[derive(Clone, Debug)]
pub(crate) struct Check {
    pub decl: usize,
    pub range: (usize, usize),
    pub mode: CheckMode,
    pub equal: bool,
    pub expected: Expected,
    /// Whether the check names a part (`buf[i]`, `buf[i..j]`).
    pub indexed: bool,
}

impl Check {
    /// What the check is about, as its failure names it: `buf`, `buf[3]` or `buf[2..5]`.
    pub(crate) fn subject(&self, name: &str) -> String {
        let (from, to) = self.range;
        if !self.indexed {
            name.to_string()
        } else if to - from == 1 {
            format!("{name}[{from}]")
        } else {
            format!("{name}[{from}..{to}]")
        }
    }
}

/// Parses a run line for `func` without running it.
pub fn parse_run_line(func: &Function, line: &str) -> Result<RunSpec, RunLineError> {
    parse::parse(func, line)
}

/// Parses and runs one run line against `func`: `Ok` when every
/// expectation holds.
pub fn run_line(func: &Function, line: &str) -> Result<(), RunLineError> {
    parse_run_line(func, line)?.run(func)
}
