//! Read access to a parsed [`RunSpec`], for running the same launch somewhere other than the
//! interpreter (a GPU) and judging that run's memory by the line's own checks.

use super::literal::Elem;
use super::{DeclKind, RunLineError, RunSpec};
use crate::interp::memory::{read_le, write_le, Memory, GLOBAL_BASE};
use crate::interp::sched::{Dim3, Launch};
use crate::interp::value::DataValue;
use crate::interp::InterpError;
use crate::{AddrSpace, Function, Type};

/// One kernel parameter as a device launch passes it: the bytes of a scalar (the parameter
/// type's size, little-endian), or a declared buffer's device address plus a byte offset.
///
/// Shared by everything that repeats a run line outside the interpreter (the GPU test, the
/// differential fuzzer's emulator runs), so they agree on how an argument becomes a parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KernelParam {
    /// A scalar's bytes.
    Bytes(Vec<u8>),
    /// The `index`th declared buffer (surfaces not counted), `offset` bytes in.
    Buffer {
        /// The buffer's index in declaration order.
        index: usize,
        /// The byte offset into it.
        offset: u64,
    },
}

/// A declared buffer or surface as the run line sets it up.
#[derive(Clone, Debug)]
pub struct DeclInfo<'a> {
    /// The name the line gives it.
    pub name: &'a str,
    /// Its element type.
    pub elem: Elem,
    /// Whether it is a surface (otherwise a global buffer).
    pub surface: bool,
    /// A surface's extents (unused ones 1) and the slot it is bound at; `None` for a buffer.
    pub surface_shape: Option<([u32; 3], Option<u16>)>,
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

    /// Lanes per subgroup (`subgroup N`; 32 when the line does not say).
    pub fn subgroup_size(&self) -> u32 {
        self.subgroup_size
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
                    surface_shape: match d.kind {
                        DeclKind::Surface { extent, slot } => Some((extent, slot)),
                        DeclKind::Buffer => None,
                    },
                    init,
                }
            })
            .collect()
    }

    /// The launch size as `(grid, block)`; the call form runs one thread.
    pub fn launch_dims(&self) -> ([u32; 3], [u32; 3]) {
        if self.is_call() {
            return ([1, 1, 1], [1, 1, 1]);
        }
        let (g, b) = (self.grid, self.block);
        ([g.x, g.y, g.z], [b.x, b.y, b.z])
    }

    /// The arguments as a device receives them, one per parameter of `func` (see
    /// [`KernelParam`]); an error names an argument that has no device form.
    pub fn kernel_params(&self, func: &Function) -> Result<Vec<KernelParam>, String> {
        let params = func.params();
        let mut out = Vec::new();
        for (i, v) in self.args.iter().enumerate() {
            let ty = params.get(i).copied().ok_or("more arguments than parameters")?;
            out.push(match (ty, v) {
                (Type::Ptr(AddrSpace::Global | AddrSpace::Generic), DataValue::Ptr(_, addr)) => {
                    let index = (addr / GLOBAL_BASE)
                        .checked_sub(1)
                        .ok_or_else(|| format!("argument {i}: {addr:#x} is not a buffer address"))?;
                    KernelParam::Buffer { index: index as usize, offset: addr % GLOBAL_BASE }
                }
                _ => {
                    let size = match ty {
                        Type::Pred | Type::I8 => 1,
                        Type::I16 | Type::F16 => 2,
                        Type::I32 | Type::F32 | Type::F16x2 | Type::BF16x2 | Type::Ptr(AddrSpace::Shared) => 4,
                        Type::I64 | Type::F64 | Type::Surface | Type::Ptr(_) => 8,
                    };
                    KernelParam::Bytes(v.bits().to_le_bytes()[..size].to_vec())
                }
            });
        }
        Ok(out)
    }

    /// Runs the launch on the interpreter (ignoring the checks) and returns every declaration's
    /// final contents, in declaration order: the reference a device run is judged against.
    /// Lines that declare surfaces are refused (a device run has no surfaces to compare).
    pub fn interpret(&self, func: &Function) -> Result<Vec<Vec<u8>>, InterpError> {
        if self.decls.iter().any(|d| matches!(d.kind, DeclKind::Surface { .. })) {
            return Err(InterpError::BadLaunch("the run line declares surfaces".into()));
        }
        let mut mem = Memory::new();
        let ids: Vec<_> = self.decls().into_iter().map(|d| mem.add_buffer(d.init)).collect();
        let (grid, block) = self.launch_dims();
        let launch = Launch {
            grid: Dim3::new(grid[0], grid[1], grid[2]),
            block: Dim3::new(block[0], block[1], block[2]),
            shared_bytes: self.shared_bytes,
            step_limit: self.step_limit,
            args: self.args.clone(),
            subgroup_size: self.subgroup_size,
        };
        crate::interp::run_kernel(func, &launch, &mut mem)?;
        Ok(ids.into_iter().map(|id| mem.buffer(id).to_vec()).collect())
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
                return Err(RunLineError::Mismatch(format!("{}: {why}", c.subject(&d.name))));
            }
        }
        Ok(())
    }
}
