//! Read access to a parsed [`RunSpec`], for running the same launch somewhere other than the
//! interpreter (a GPU) and judging that run's memory by the line's own checks.

use super::literal::Elem;
use super::{DeclKind, RunLineError, RunSpec};
use crate::interp::memory::{read_le, write_le};
use crate::interp::sched::Dim3;
use crate::interp::value::DataValue;

/// A declared buffer or surface as the run line sets it up.
#[derive(Clone, Debug)]
pub struct DeclInfo<'a> {
    /// The name the line gives it.
    pub name: &'a str,
    /// Its element type.
    pub elem: Elem,
    /// Whether it is a surface (otherwise a global buffer).
    pub surface: bool,
    /// The initial contents, little-endian, `elements × elem.bytes()` long.
    pub init: Vec<u8>,
}

impl RunSpec {
    /// Blocks per grid.
    pub fn grid(&self) -> Dim3 {
        self.grid
    }

    /// Threads per block.
    pub fn block(&self) -> Dim3 {
        self.block
    }

    /// Bytes of shared memory per block.
    pub fn shared_bytes(&self) -> u32 {
        self.shared_bytes
    }

    /// The interpreter's step limit.
    pub fn step_limit(&self) -> u64 {
        self.step_limit
    }

    /// The arguments: buffer pointers are the interpreter's addresses
    /// (`GLOBAL_BASE * (buffer index + 1) + offset`, buffers numbered in declaration order
    /// without the surfaces).
    pub fn args(&self) -> &[DataValue] {
        &self.args
    }

    /// Whether the line is the call form (`%f(..)`: one thread, maybe with results to check).
    pub fn is_call(&self) -> bool {
        self.call.is_some()
    }

    /// The text of an `error "..."` expectation, when the run must fail.
    pub fn expected_error(&self) -> Option<&str> {
        self.expect_error.as_deref()
    }

    /// The declarations in order, with their initial bytes.
    pub fn decls(&self) -> Vec<DeclInfo<'_>> {
        self.decls
            .iter()
            .map(|d| {
                let size = d.elem.bytes();
                let mut init = vec![0u8; d.init.len() * size];
                for (i, &v) in d.init.iter().enumerate() {
                    write_le(&mut init[i * size..(i + 1) * size], v);
                }
                DeclInfo {
                    name: &d.name,
                    elem: d.elem,
                    surface: matches!(d.kind, DeclKind::Surface { .. }),
                    init,
                }
            })
            .collect()
    }

    /// How many `=>` checks the line has.
    pub fn check_count(&self) -> usize {
        self.checks.len()
    }

    /// Judges the line's `=>` checks against final contents given per declaration (same order
    /// and sizes as [`decls`](Self::decls)), however they were produced.
    pub fn check_contents(&self, contents: &[Vec<u8>]) -> Result<(), RunLineError> {
        for c in &self.checks {
            let d = &self.decls[c.decl];
            let size = d.elem.bytes();
            let bytes = contents.get(c.decl).ok_or_else(|| {
                RunLineError::Mismatch(format!("no contents given for `{}`", d.name))
            })?;
            let all: Vec<u64> = bytes.chunks(size).map(read_le).collect();
            let got = all.get(c.range.0..c.range.1).ok_or_else(|| {
                RunLineError::Mismatch(format!("`{}` has {} elements, too few", d.name, all.len()))
            })?;
            if let Err(why) = super::check::judge(d.elem, c.mode, got, &c.expected, c.equal) {
                return Err(RunLineError::Mismatch(format!("{}: {why}", d.name)));
            }
        }
        Ok(())
    }
}
