//! The CUDA driver API entry points atomc uses, looked up by name in `libcuda` at run time.
//!
//! Nothing here is linked at build time: a machine without the NVIDIA driver builds and tests
//! atomc normally, and [`Driver::load`](super::Driver::load) reports the missing library as an
//! error the caller can turn into a skip. Only the handful of calls needed to load a cubin, move
//! memory, launch one kernel and time it with events are bound; the signatures follow `cuda.h` (CUDA 12/13 keep the
//! `_v2` names for the 64-bit-pointer versions used here).

use std::ffi::{c_char, c_int, c_uint, c_void};

use super::GpuError;

/// `CUresult`: 0 is success.
pub(crate) type CuResult = c_int;
/// `CUdevice`: an ordinal.
pub(crate) type CuDevice = c_int;
/// `CUdeviceptr`: a 64-bit device address.
pub(crate) type CuDevicePtr = u64;
/// `CUcontext`, `CUmodule`, `CUfunction`, `CUstream`, `CUevent`: opaque handles.
pub(crate) type Handle = *mut c_void;

/// `CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR`.
pub(crate) const ATTR_CC_MAJOR: c_int = 75;
/// `CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR`.
pub(crate) const ATTR_CC_MINOR: c_int = 76;

/// Copies of the function pointers, valid while the library they came from stays open (the
/// [`Driver`](super::Driver) keeps both together).
pub(crate) struct Api {
    pub cu_init: unsafe extern "C" fn(c_uint) -> CuResult,
    pub cu_driver_get_version: unsafe extern "C" fn(*mut c_int) -> CuResult,
    pub cu_device_get_count: unsafe extern "C" fn(*mut c_int) -> CuResult,
    pub cu_device_get: unsafe extern "C" fn(*mut CuDevice, c_int) -> CuResult,
    pub cu_device_get_name: unsafe extern "C" fn(*mut c_char, c_int, CuDevice) -> CuResult,
    pub cu_device_get_attribute: unsafe extern "C" fn(*mut c_int, c_int, CuDevice) -> CuResult,
    pub cu_device_primary_ctx_retain: unsafe extern "C" fn(*mut Handle, CuDevice) -> CuResult,
    pub cu_device_primary_ctx_release: unsafe extern "C" fn(CuDevice) -> CuResult,
    pub cu_device_primary_ctx_reset: unsafe extern "C" fn(CuDevice) -> CuResult,
    pub cu_ctx_set_current: unsafe extern "C" fn(Handle) -> CuResult,
    pub cu_ctx_synchronize: unsafe extern "C" fn() -> CuResult,
    pub cu_module_load_data: unsafe extern "C" fn(*mut Handle, *const c_void) -> CuResult,
    pub cu_module_unload: unsafe extern "C" fn(Handle) -> CuResult,
    pub cu_module_get_function:
        unsafe extern "C" fn(*mut Handle, Handle, *const c_char) -> CuResult,
    pub cu_mem_alloc: unsafe extern "C" fn(*mut CuDevicePtr, usize) -> CuResult,
    pub cu_mem_free: unsafe extern "C" fn(CuDevicePtr) -> CuResult,
    pub cu_memcpy_htod: unsafe extern "C" fn(CuDevicePtr, *const c_void, usize) -> CuResult,
    pub cu_memcpy_dtoh: unsafe extern "C" fn(*mut c_void, CuDevicePtr, usize) -> CuResult,
    pub cu_memset_d8: unsafe extern "C" fn(CuDevicePtr, u8, usize) -> CuResult,
    #[allow(clippy::type_complexity)]
    pub cu_launch_kernel: unsafe extern "C" fn(
        Handle,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        Handle,
        *mut *mut c_void,
        *mut *mut c_void,
    ) -> CuResult,
    pub cu_event_create: unsafe extern "C" fn(*mut Handle, c_uint) -> CuResult,
    pub cu_event_record: unsafe extern "C" fn(Handle, Handle) -> CuResult,
    pub cu_event_synchronize: unsafe extern "C" fn(Handle) -> CuResult,
    pub cu_event_elapsed_time: unsafe extern "C" fn(*mut f32, Handle, Handle) -> CuResult,
    pub cu_event_destroy: unsafe extern "C" fn(Handle) -> CuResult,
    pub cu_get_error_string: unsafe extern "C" fn(CuResult, *mut *const c_char) -> CuResult,
    pub cu_get_error_name: unsafe extern "C" fn(CuResult, *mut *const c_char) -> CuResult,
}

/// Looks one symbol up and copies the pointer out.
///
/// # Safety
/// `T` must be the symbol's true C signature.
unsafe fn sym<T: Copy>(lib: &libloading::Library, name: &'static str) -> Result<T, GpuError> {
    let mut bytes = name.as_bytes().to_vec();
    bytes.push(0);
    // SAFETY: the caller guarantees the type; the pointer is only used while `lib` is open.
    unsafe { lib.get::<T>(&bytes) }
        .map(|s| *s)
        .map_err(|e| GpuError::Symbol {
            symbol: name,
            reason: e.to_string(),
        })
}

impl Api {
    /// Resolves every entry point in `lib`.
    ///
    /// # Safety
    /// `lib` must be the CUDA driver library, whose exports have the signatures above.
    pub(crate) unsafe fn resolve(lib: &libloading::Library) -> Result<Api, GpuError> {
        // SAFETY: each type below is the signature `cuda.h` declares for that name.
        unsafe {
            Ok(Api {
                cu_init: sym(lib, "cuInit")?,
                cu_driver_get_version: sym(lib, "cuDriverGetVersion")?,
                cu_device_get_count: sym(lib, "cuDeviceGetCount")?,
                cu_device_get: sym(lib, "cuDeviceGet")?,
                cu_device_get_name: sym(lib, "cuDeviceGetName")?,
                cu_device_get_attribute: sym(lib, "cuDeviceGetAttribute")?,
                cu_device_primary_ctx_retain: sym(lib, "cuDevicePrimaryCtxRetain")?,
                cu_device_primary_ctx_release: sym(lib, "cuDevicePrimaryCtxRelease_v2")?,
                cu_device_primary_ctx_reset: sym(lib, "cuDevicePrimaryCtxReset_v2")?,
                cu_ctx_set_current: sym(lib, "cuCtxSetCurrent")?,
                cu_ctx_synchronize: sym(lib, "cuCtxSynchronize")?,
                cu_module_load_data: sym(lib, "cuModuleLoadData")?,
                cu_module_unload: sym(lib, "cuModuleUnload")?,
                cu_module_get_function: sym(lib, "cuModuleGetFunction")?,
                cu_mem_alloc: sym(lib, "cuMemAlloc_v2")?,
                cu_mem_free: sym(lib, "cuMemFree_v2")?,
                cu_memcpy_htod: sym(lib, "cuMemcpyHtoD_v2")?,
                cu_memcpy_dtoh: sym(lib, "cuMemcpyDtoH_v2")?,
                cu_memset_d8: sym(lib, "cuMemsetD8_v2")?,
                cu_launch_kernel: sym(lib, "cuLaunchKernel")?,
                cu_event_create: sym(lib, "cuEventCreate")?,
                cu_event_record: sym(lib, "cuEventRecord")?,
                cu_event_synchronize: sym(lib, "cuEventSynchronize")?,
                cu_event_elapsed_time: sym(lib, "cuEventElapsedTime")?,
                cu_event_destroy: sym(lib, "cuEventDestroy_v2")?,
                cu_get_error_string: sym(lib, "cuGetErrorString")?,
                cu_get_error_name: sym(lib, "cuGetErrorName")?,
            })
        }
    }
}
