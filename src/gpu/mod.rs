//! Running cubins on an NVIDIA GPU through the CUDA driver API, opened at run time.
//!
//! This module exists to check atomc's cubins on hardware: load one with
//! `cuModuleLoadData`, launch it, read memory back, and compare with ptxas's cubin of the same
//! kernel and with the reference interpreter (`tests/gpu_run.rs`). It needs nothing at build
//! time; [`Driver::load`] opens `libcuda` and fails with [`GpuError::Load`] where there is no
//! driver, which callers turn into a loud skip.
//!
//! ```no_run
//! use atomc::gpu::{self, Driver, KernelArg};
//! # fn cubin() -> Vec<u8> { Vec::new() }
//! let driver = Driver::load()?;
//! let out = gpu::run_kernel(
//!     &driver, &cubin(), "count", [2, 1, 1], [128, 1, 1], 0,
//!     &[KernelArg::Buffer { index: 0, offset: 0 }],
//!     &[vec![0u8; 4]],
//! )?;
//! assert_eq!(out[0], 256u32.to_le_bytes());
//! # Ok::<(), gpu::GpuError>(())
//! ```
//!
//! The wrappers are deliberately small: one device, its primary context made current on the
//! calling thread, the default stream, synchronous copies. Every failing driver call comes back
//! as [`GpuError::Call`] naming the call and its `CUresult` with the driver's own text.

mod ffi;
mod run;

pub use run::{run_kernel, time_kernel, KernelArg, LaunchShape};

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::marker::PhantomData;
use std::time::Duration;

use ffi::{Api, CuDevice, CuDevicePtr, CuResult, Handle};

/// Why a GPU operation failed.
#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    /// The driver library could not be opened (no NVIDIA driver on this machine).
    #[error("cannot open the CUDA driver library (tried {tried}): {reason}")]
    Load {
        /// The library names tried.
        tried: String,
        /// The loader's message for the last one.
        reason: String,
    },
    /// The library opened but lacks an entry point atomc needs (a very old driver).
    #[error("the CUDA driver has no `{symbol}`: {reason}")]
    Symbol {
        /// The missing entry point.
        symbol: &'static str,
        /// The loader's message.
        reason: String,
    },
    /// A driver call returned an error.
    #[error("{call} failed: CUresult {code} ({name}: {text})")]
    Call {
        /// The driver API function.
        call: &'static str,
        /// The `CUresult` value.
        code: i32,
        /// Its enum name, e.g. `CUDA_ERROR_INVALID_IMAGE`.
        name: String,
        /// The driver's description.
        text: String,
    },
    /// The driver reports no device with that ordinal.
    #[error("no CUDA device {0} (the driver reports {1})")]
    NoDevice(i32, i32),
    /// The request itself is not valid (a kernel name with a NUL byte, an argument naming a
    /// buffer that does not exist, an offset past its end).
    #[error("{0}")]
    Invalid(String),
}

impl GpuError {
    /// Whether this error leaves the context unusable: a kernel fault (an illegal or
    /// misaligned address, an illegal instruction, a trap, a launch failure), which every
    /// later call in the context repeats until the primary context is reset.
    pub fn is_sticky(&self) -> bool {
        // CUDA_ERROR_ILLEGAL_ADDRESS (700) .. CUDA_ERROR_LAUNCH_FAILED (719), and
        // CUDA_ERROR_LAUNCH_TIMEOUT (702) among them.
        matches!(self, GpuError::Call { code: 700..=719, .. })
    }
}

/// The CUDA driver, opened and initialised (`cuInit(0)`).
pub struct Driver {
    api: Api,
    // Declared after `api` so the pointers in it never outlive the library.
    _lib: libloading::Library,
}

/// Library names to try, most specific first.
#[cfg(windows)]
const LIB_NAMES: &[&str] = &["nvcuda.dll"];
#[cfg(not(windows))]
const LIB_NAMES: &[&str] = &["libcuda.so.1", "libcuda.so"];

impl Driver {
    /// Opens the driver library, resolves the entry points and calls `cuInit(0)`.
    pub fn load() -> Result<Driver, GpuError> {
        let mut reason = String::new();
        for name in LIB_NAMES {
            // SAFETY: opening the CUDA driver runs only its own initialisers.
            match unsafe { libloading::Library::new(name) } {
                Ok(lib) => {
                    // SAFETY: `lib` is the CUDA driver; `Api::resolve` uses cuda.h's signatures.
                    let api = unsafe { Api::resolve(&lib)? };
                    let driver = Driver { api, _lib: lib };
                    // SAFETY: plain call with a flags word of 0, as documented.
                    driver.check("cuInit", unsafe { (driver.api.cu_init)(0) })?;
                    return Ok(driver);
                }
                Err(e) => reason = e.to_string(),
            }
        }
        Err(GpuError::Load {
            tried: LIB_NAMES.join(", "),
            reason,
        })
    }

    /// Turns a `CUresult` into `Ok` or a [`GpuError::Call`] with the driver's words for it.
    fn check(&self, call: &'static str, code: CuResult) -> Result<(), GpuError> {
        if code == 0 {
            return Ok(());
        }
        let text = |f: unsafe extern "C" fn(CuResult, *mut *const c_char) -> CuResult| {
            let mut p: *const c_char = std::ptr::null();
            // SAFETY: the driver writes a pointer to a static string, or fails.
            if unsafe { f(code, &mut p) } == 0 && !p.is_null() {
                // SAFETY: a NUL-terminated static string owned by the driver.
                unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
            } else {
                "unknown".to_string()
            }
        };
        Err(GpuError::Call {
            call,
            code,
            name: text(self.api.cu_get_error_name),
            text: text(self.api.cu_get_error_string),
        })
    }

    /// The driver's CUDA version, e.g. 12040 for 12.4 (`cuDriverGetVersion`).
    pub fn version(&self) -> Result<i32, GpuError> {
        self.get_int("cuDriverGetVersion", self.api.cu_driver_get_version)
    }

    /// How many devices the driver sees (`cuDeviceGetCount`).
    pub fn device_count(&self) -> Result<i32, GpuError> {
        self.get_int("cuDeviceGetCount", self.api.cu_device_get_count)
    }

    /// The int that the driver call `f` (named `call`) writes.
    fn get_int(&self, call: &'static str, f: unsafe extern "C" fn(*mut c_int) -> CuResult) -> Result<i32, GpuError> {
        let mut v: c_int = 0;
        // SAFETY: `f` writes one int.
        self.check(call, unsafe { f(&mut v) })?;
        Ok(v)
    }

    /// Device number `ordinal` (`cuDeviceGet`).
    pub fn device(&self, ordinal: i32) -> Result<Device<'_>, GpuError> {
        let count = self.device_count()?;
        if ordinal < 0 || ordinal >= count {
            return Err(GpuError::NoDevice(ordinal, count));
        }
        let mut dev: CuDevice = 0;
        // SAFETY: writes one device handle.
        self.check("cuDeviceGet", unsafe {
            (self.api.cu_device_get)(&mut dev, ordinal)
        })?;
        Ok(Device { driver: self, dev })
    }
}

/// One GPU.
#[derive(Clone, Copy)]
pub struct Device<'d> {
    driver: &'d Driver,
    dev: CuDevice,
}

impl<'d> Device<'d> {
    /// The compute capability `(major, minor)`, e.g. `(9, 0)` on Hopper (`cuDeviceGetAttribute`).
    pub fn compute_capability(&self) -> Result<(i32, i32), GpuError> {
        let get = |attr| {
            let mut v: c_int = 0;
            // SAFETY: writes one int.
            let code = unsafe { (self.driver.api.cu_device_get_attribute)(&mut v, attr, self.dev) };
            self.driver.check("cuDeviceGetAttribute", code).map(|_| v)
        };
        Ok((get(ffi::ATTR_CC_MAJOR)?, get(ffi::ATTR_CC_MINOR)?))
    }

    /// The marketing name (`cuDeviceGetName`).
    pub fn name(&self) -> Result<String, GpuError> {
        let mut buf = [0 as c_char; 256];
        // SAFETY: the driver writes at most `len` bytes, NUL-terminated.
        let code = unsafe { (self.driver.api.cu_device_get_name)(buf.as_mut_ptr(), 256, self.dev) };
        self.driver.check("cuDeviceGetName", code)?;
        // SAFETY: NUL-terminated within the buffer (the last byte was never written).
        Ok(unsafe { CStr::from_ptr(buf.as_ptr()) }
            .to_string_lossy()
            .into_owned())
    }

    /// Destroys the primary context's state (`cuDevicePrimaryCtxReset_v2`): after a kernel
    /// fault the context is unusable ("sticky" errors such as `CUDA_ERROR_LAUNCH_FAILED`), and
    /// every later call fails with the same error until it is reset. Call it with no
    /// [`Context`] of this device alive.
    pub fn reset(&self) -> Result<(), GpuError> {
        // SAFETY: takes the device ordinal only.
        let code = unsafe { (self.driver.api.cu_device_primary_ctx_reset)(self.dev) };
        self.driver.check("cuDevicePrimaryCtxReset_v2", code)
    }

    /// Retains the device's primary context and makes it current on this thread.
    pub fn context(&self) -> Result<Context<'d>, GpuError> {
        let api = &self.driver.api;
        let mut ctx: Handle = std::ptr::null_mut();
        // SAFETY: writes one context handle.
        let code = unsafe { (api.cu_device_primary_ctx_retain)(&mut ctx, self.dev) };
        self.driver.check("cuDevicePrimaryCtxRetain", code)?;
        let context = Context {
            driver: self.driver,
            dev: self.dev,
        };
        // SAFETY: `ctx` is a live context.
        self.driver
            .check("cuCtxSetCurrent", unsafe { (api.cu_ctx_set_current)(ctx) })?;
        Ok(context)
    }
}

/// A device's primary context, current on the thread that made it. Released on drop.
pub struct Context<'d> {
    driver: &'d Driver,
    dev: CuDevice,
}

impl Context<'_> {
    fn check(&self, call: &'static str, code: CuResult) -> Result<(), GpuError> {
        self.driver.check(call, code)
    }

    /// Waits for all work (`cuCtxSynchronize`); a fault in a kernel surfaces here.
    pub fn synchronize(&self) -> Result<(), GpuError> {
        // SAFETY: no arguments; the context is current.
        self.check("cuCtxSynchronize", unsafe {
            (self.driver.api.cu_ctx_synchronize)()
        })
    }

    /// Loads a cubin (`cuModuleLoadData`).
    pub fn load_module(&self, image: &[u8]) -> Result<Module<'_>, GpuError> {
        if image.len() < 64 || &image[..4] != b"\x7fELF" {
            return Err(GpuError::Invalid("the image is not an ELF file".into()));
        }
        let mut m: Handle = std::ptr::null_mut();
        // SAFETY: the driver reads an ELF image whose size it takes from the headers; the
        // check above makes sure it at least starts with one.
        let code = unsafe { (self.driver.api.cu_module_load_data)(&mut m, image.as_ptr().cast()) };
        self.check("cuModuleLoadData", code)?;
        Ok(Module {
            ctx: self,
            module: m,
        })
    }

    /// Allocates `bytes` of device memory (`cuMemAlloc_v2`), at least one byte.
    pub fn alloc(&self, bytes: usize) -> Result<DeviceBuffer<'_>, GpuError> {
        let mut ptr: CuDevicePtr = 0;
        // SAFETY: writes one device pointer.
        let code = unsafe { (self.driver.api.cu_mem_alloc)(&mut ptr, bytes.max(1)) };
        self.check("cuMemAlloc_v2", code)?;
        Ok(DeviceBuffer {
            ctx: self,
            ptr,
            len: bytes,
        })
    }

    /// Launches `func` on the default stream (`cuLaunchKernel`). `params` holds each kernel
    /// parameter's bytes, little-endian, at most 16 per parameter.
    ///
    /// The driver reads as many bytes per parameter as the cubin's parameter table says, which
    /// can be more than the value has (atomc gives every parameter at least 4 bytes, so an `i8`
    /// is read as 4). Each value is therefore copied into its own zeroed, 16-byte-aligned slot:
    /// the driver never reads past host memory, and widened parameters see zeros above the value.
    pub fn launch(
        &self,
        func: &Function<'_>,
        grid: [u32; 3],
        block: [u32; 3],
        shared_bytes: u32,
        params: &[Vec<u8>],
    ) -> Result<(), GpuError> {
        let mut slots = vec![0u128; params.len()];
        for (i, (slot, p)) in slots.iter_mut().zip(params).enumerate() {
            if p.len() > 16 {
                return Err(GpuError::Invalid(format!(
                    "parameter {i} has {} bytes, at most 16 are supported",
                    p.len()
                )));
            }
            let mut bytes = [0u8; 16];
            bytes[..p.len()].copy_from_slice(p);
            *slot = u128::from_le_bytes(bytes);
        }
        // Each pointer must stay valid until the call returns: `slots` outlives it.
        let mut ptrs: Vec<*mut c_void> =
            slots.iter_mut().map(|s| (s as *mut u128).cast()).collect();
        let args = if ptrs.is_empty() {
            std::ptr::null_mut()
        } else {
            ptrs.as_mut_ptr()
        };
        // SAFETY: `func` belongs to a module of this context; `args` points at one pointer per
        // parameter, each to a 16-byte slot holding that parameter's bytes.
        let code = unsafe {
            (self.driver.api.cu_launch_kernel)(
                func.func,
                grid[0],
                grid[1],
                grid[2],
                block[0],
                block[1],
                block[2],
                shared_bytes,
                std::ptr::null_mut(),
                args,
                std::ptr::null_mut(),
            )
        };
        self.check("cuLaunchKernel", code)
    }

    /// [`Context::launch`] between two events on the default stream: the device's time for the
    /// kernel (`cuEventElapsedTime`, about 0.5 µs resolution), without the host's launch and
    /// synchronization costs that a clock around the call would add.
    pub fn launch_timed(&self, func: &Function<'_>, shape: LaunchShape, params: &[Vec<u8>]) -> Result<Duration, GpuError> {
        let start = Event::new(self)?;
        let stop = Event::new(self)?;
        start.record()?;
        self.launch(func, shape.grid, shape.block, shape.shared_bytes, params)?;
        stop.record()?;
        // SAFETY: a live event of this context.
        self.check("cuEventSynchronize", unsafe { (self.driver.api.cu_event_synchronize)(stop.event) })?;
        let mut ms = 0f32;
        // SAFETY: both events are live and recorded; `ms` is a valid out-pointer.
        self.check("cuEventElapsedTime", unsafe {
            (self.driver.api.cu_event_elapsed_time)(&mut ms, start.event, stop.event)
        })?;
        Ok(Duration::from_secs_f64(f64::from(ms) / 1e3))
    }
}

/// A CUDA event (`CUevent`), destroyed on drop.
struct Event<'c, 'd> {
    ctx: &'c Context<'d>,
    event: Handle,
}

impl<'c, 'd> Event<'c, 'd> {
    fn new(ctx: &'c Context<'d>) -> Result<Self, GpuError> {
        let mut event: Handle = std::ptr::null_mut();
        // SAFETY: `event` is a valid out-pointer; flags 0 is the default (timing on).
        ctx.check("cuEventCreate", unsafe { (ctx.driver.api.cu_event_create)(&mut event, 0) })?;
        Ok(Event { ctx, event })
    }

    /// Records the event on the default stream.
    fn record(&self) -> Result<(), GpuError> {
        // SAFETY: a live event; the null stream is the context's default stream.
        self.ctx.check("cuEventRecord", unsafe { (self.ctx.driver.api.cu_event_record)(self.event, std::ptr::null_mut()) })
    }
}

impl Drop for Event<'_, '_> {
    fn drop(&mut self) {
        // SAFETY: created by `cuEventCreate` and not destroyed before.
        unsafe { (self.ctx.driver.api.cu_event_destroy)(self.event) };
    }
}

impl Drop for Context<'_> {
    fn drop(&mut self) {
        // SAFETY: balances the retain in `Device::context`.
        let _ = unsafe { (self.driver.api.cu_device_primary_ctx_release)(self.dev) };
    }
}

/// A loaded module. Unloaded on drop (`cuModuleUnload`).
pub struct Module<'c> {
    ctx: &'c Context<'c>,
    module: Handle,
}

impl Module<'_> {
    /// Looks a kernel up by its symbol name (`cuModuleGetFunction`).
    pub fn function(&self, name: &str) -> Result<Function<'_>, GpuError> {
        let cname = CString::new(name)
            .map_err(|_| GpuError::Invalid(format!("kernel name {name:?} contains a NUL byte")))?;
        let mut f: Handle = std::ptr::null_mut();
        // SAFETY: writes one function handle; `cname` is NUL-terminated.
        let code = unsafe {
            (self.ctx.driver.api.cu_module_get_function)(&mut f, self.module, cname.as_ptr())
        };
        self.ctx.check("cuModuleGetFunction", code)?;
        Ok(Function {
            func: f,
            _module: PhantomData,
        })
    }
}

impl Drop for Module<'_> {
    fn drop(&mut self) {
        // SAFETY: the module was loaded by this context and is unloaded once.
        let _ = unsafe { (self.ctx.driver.api.cu_module_unload)(self.module) };
    }
}

/// A kernel in a loaded [`Module`].
pub struct Function<'m> {
    func: Handle,
    _module: PhantomData<&'m ()>,
}

/// Device memory. Freed on drop (`cuMemFree_v2`).
pub struct DeviceBuffer<'c> {
    ctx: &'c Context<'c>,
    ptr: CuDevicePtr,
    len: usize,
}

impl DeviceBuffer<'_> {
    /// The device address (what a pointer parameter receives).
    pub fn addr(&self) -> u64 {
        self.ptr
    }

    /// The size asked for, in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the buffer is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Copies `data` to the start of the buffer (`cuMemcpyHtoD_v2`).
    pub fn upload(&self, data: &[u8]) -> Result<(), GpuError> {
        if data.len() > self.len {
            return Err(GpuError::Invalid(format!(
                "{} bytes do not fit a {}-byte buffer",
                data.len(),
                self.len
            )));
        }
        if data.is_empty() {
            return Ok(());
        }
        // SAFETY: `data.len()` bytes are readable and fit the allocation.
        let code = unsafe {
            (self.ctx.driver.api.cu_memcpy_htod)(self.ptr, data.as_ptr().cast(), data.len())
        };
        self.ctx.check("cuMemcpyHtoD_v2", code)
    }

    /// Sets every byte (`cuMemsetD8_v2`).
    pub fn fill(&self, byte: u8) -> Result<(), GpuError> {
        // SAFETY: within the allocation (at least one byte).
        let code = unsafe { (self.ctx.driver.api.cu_memset_d8)(self.ptr, byte, self.len.max(1)) };
        self.ctx.check("cuMemsetD8_v2", code)
    }

    /// Copies the whole buffer back (`cuMemcpyDtoH_v2`).
    pub fn download(&self) -> Result<Vec<u8>, GpuError> {
        let mut out = vec![0u8; self.len];
        if self.len == 0 {
            return Ok(out);
        }
        // SAFETY: `out` has room for `len` bytes.
        let code = unsafe {
            (self.ctx.driver.api.cu_memcpy_dtoh)(out.as_mut_ptr().cast(), self.ptr, self.len)
        };
        self.ctx.check("cuMemcpyDtoH_v2", code)?;
        Ok(out)
    }
}

impl Drop for DeviceBuffer<'_> {
    fn drop(&mut self) {
        // SAFETY: allocated by `Context::alloc`, freed once.
        let _ = unsafe { (self.ctx.driver.api.cu_mem_free)(self.ptr) };
    }
}
