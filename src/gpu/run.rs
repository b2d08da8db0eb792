//! One kernel launch from start to finish: buffers in, launch, buffers out.

use super::{Driver, GpuError};

/// One kernel parameter, as `cuLaunchKernel` receives it.
#[derive(Clone, Debug, PartialEq)]
pub enum KernelArg {
    /// A value passed by its little-endian bytes; the length must equal the parameter's size
    /// in the kernel (1, 2, 4 or 8 bytes: see atomc's PTX parameter types).
    Bytes(Vec<u8>),
    /// The 64-bit device address of buffer `index` plus `offset` bytes (a global or generic
    /// pointer parameter).
    Buffer {
        /// Which of the `buffers` given to [`run_kernel`].
        index: usize,
        /// Bytes past the buffer's start.
        offset: u64,
    },
}

impl KernelArg {
    /// A 32-bit value.
    pub fn u32(v: u32) -> KernelArg {
        KernelArg::Bytes(v.to_le_bytes().to_vec())
    }

    /// A 64-bit value.
    pub fn u64(v: u64) -> KernelArg {
        KernelArg::Bytes(v.to_le_bytes().to_vec())
    }
}

/// Runs `kernel_name` from `cubin` on device 0 once and returns every buffer's final bytes.
///
/// Each of `buffers` is copied to fresh device memory of its size before the launch; pointer
/// arguments name them by index. The launch uses `grid` × `block` threads and `shared_bytes` of
/// dynamic shared memory, then waits for completion, so a kernel fault is reported as the
/// failing `cuCtxSynchronize`. Everything allocated is freed before returning, on error too.
#[allow(clippy::too_many_arguments)]
pub fn run_kernel(
    driver: &Driver,
    cubin: &[u8],
    kernel_name: &str,
    grid: [u32; 3],
    block: [u32; 3],
    shared_bytes: u32,
    args: &[KernelArg],
    buffers: &[Vec<u8>],
) -> Result<Vec<Vec<u8>>, GpuError> {
    let device = driver.device(0)?;
    let ctx = device.context()?;
    let module = ctx.load_module(cubin)?;
    let func = module.function(kernel_name)?;
    let mut dev_bufs = Vec::with_capacity(buffers.len());
    for init in buffers {
        let b = ctx.alloc(init.len())?;
        b.fill(0)?;
        b.upload(init)?;
        dev_bufs.push(b);
    }
    let mut params = Vec::with_capacity(args.len());
    for (i, a) in args.iter().enumerate() {
        params.push(match a {
            KernelArg::Bytes(b) => b.clone(),
            KernelArg::Buffer { index, offset } => {
                let b = dev_bufs.get(*index).ok_or_else(|| {
                    GpuError::Invalid(format!("argument {i} names buffer {index}, but there are {}", buffers.len()))
                })?;
                if *offset > b.len() as u64 {
                    return Err(GpuError::Invalid(format!(
                        "argument {i}: offset {offset} is past the end of buffer {index} ({} bytes)",
                        b.len()
                    )));
                }
                (b.addr() + offset).to_le_bytes().to_vec()
            }
        });
    }
    ctx.launch(&func, grid, block, shared_bytes, &params)?;
    ctx.synchronize()?;
    dev_bufs.iter().map(|b| b.download()).collect()
}
