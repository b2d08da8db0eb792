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
    let launch = LaunchShape { grid, block, shared_bytes };
    time_kernel(driver, cubin, kernel_name, launch, args, buffers, 1).map(|(bytes, _)| bytes)
}

/// Grid, block and dynamic shared memory of one launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchShape {
    /// Blocks per grid (x, y, z).
    pub grid: [u32; 3],
    /// Threads per block (x, y, z).
    pub block: [u32; 3],
    /// Dynamic shared memory per block, in bytes.
    pub shared_bytes: u32,
}

/// Like [`run_kernel`], `repeats` times (at least once) on one module and one set of device
/// buffers: before each launch the buffers are uploaded again from `buffers` (not timed), then
/// the launch is timed by two CUDA events around it, the device's time
/// ([`super::Context::launch_timed`]). Returns the first launch's final buffers and every
/// launch's time, so a caller can take the median and compare two cubins of the same kernel
/// under the same conditions.
///
/// A kernel fault resets the device's primary context before the error is returned, so the
/// next launch starts clean instead of repeating the fault ([`GpuError::is_sticky`]).
///
/// Each buffer's allocation is rounded up to whole 32-bit words: a sub-word atomic works on
/// the aligned word that holds it (a CAS loop on sm_90, as ptxas's code does too), so a
/// 1-byte `i8` buffer must still be backed by 4 addressable bytes.
pub fn time_kernel(
    driver: &Driver,
    cubin: &[u8],
    kernel_name: &str,
    launch: LaunchShape,
    args: &[KernelArg],
    buffers: &[Vec<u8>],
    repeats: usize,
) -> Result<(Vec<Vec<u8>>, Vec<std::time::Duration>), GpuError> {
    let result = launch_and_time(driver, cubin, kernel_name, launch, args, buffers, repeats);
    if let Err(e) = &result {
        if e.is_sticky() {
            driver.device(0)?.reset()?;
        }
    }
    result
}

fn launch_and_time(
    driver: &Driver,
    cubin: &[u8],
    kernel_name: &str,
    launch: LaunchShape,
    args: &[KernelArg],
    buffers: &[Vec<u8>],
    repeats: usize,
) -> Result<(Vec<Vec<u8>>, Vec<std::time::Duration>), GpuError> {
    let device = driver.device(0)?;
    let ctx = device.context()?;
    let module = ctx.load_module(cubin)?;
    let func = module.function(kernel_name)?;
    let mut dev_bufs = Vec::with_capacity(buffers.len());
    for init in buffers {
        dev_bufs.push(ctx.alloc(init.len().next_multiple_of(4))?);
    }
    let mut params = Vec::with_capacity(args.len());
    for (i, a) in args.iter().enumerate() {
        params.push(match a {
            KernelArg::Bytes(b) => b.clone(),
            KernelArg::Buffer { index, offset } => {
                let b = dev_bufs.get(*index).ok_or_else(|| {
                    GpuError::Invalid(format!("argument {i} names buffer {index}, but there are {}", buffers.len()))
                })?;
                let len = buffers[*index].len();
                if *offset > len as u64 {
                    return Err(GpuError::Invalid(format!(
                        "argument {i}: offset {offset} is past the end of buffer {index} ({len} bytes)",
                    )));
                }
                (b.addr() + offset).to_le_bytes().to_vec()
            }
        });
    }
    let mut first = None;
    let mut times = Vec::with_capacity(repeats.max(1));
    for _ in 0..repeats.max(1) {
        for (b, init) in dev_bufs.iter().zip(buffers) {
            b.fill(0)?;
            b.upload(init)?;
        }
        ctx.synchronize()?;
        times.push(ctx.launch_timed(&func, launch, &params)?);
        ctx.synchronize()?;
        if first.is_none() {
            let mut memory = Vec::with_capacity(dev_bufs.len());
            for (b, init) in dev_bufs.iter().zip(buffers) {
                let mut bytes = b.download()?;
                bytes.truncate(init.len());
                memory.push(bytes);
            }
            first = Some(memory);
        }
    }
    Ok((first.unwrap_or_default(), times))
}
