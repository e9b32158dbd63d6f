/* SPDX-License-Identifier: MIT */
/* HIP on NVIDIA through the CUDA runtime: the HIP names this project uses,
 * mapped onto CUDA.  It exists because Debian's HIP 5.2 NVIDIA headers
 * (hip/nvidia_detail/) do not compile against CUDA 13; with nvcc and
 * -I harness/backend/hipcuda, `#include <hip/hip_runtime.h>` finds this file
 * and the project's .hip sources build unchanged.  Only what the project
 * calls is here; add a name when a source needs it.  HIP's unsynchronised
 * warp shuffles are not mapped: CUDA still declares its own deprecated ones. */
#ifndef RB_HIPCUDA_HIP_RUNTIME_H
#define RB_HIPCUDA_HIP_RUNTIME_H

#include <cuda_runtime.h>

#ifndef __HIP_PLATFORM_NVIDIA__
#define __HIP_PLATFORM_NVIDIA__ 1
#endif

/* Types. */
typedef cudaError_t hipError_t;
typedef cudaDeviceProp hipDeviceProp_t;
typedef cudaEvent_t hipEvent_t;
typedef cudaStream_t hipStream_t;
typedef cudaMemcpyKind hipMemcpyKind;
typedef cudaFuncAttributes hipFuncAttributes;
typedef enum cudaDeviceAttr hipDeviceAttribute_t;
typedef enum cudaFuncAttribute hipFuncAttribute;

/* Status codes. */
constexpr hipError_t hipSuccess = cudaSuccess;
constexpr hipError_t hipErrorInvalidValue = cudaErrorInvalidValue;
constexpr hipError_t hipErrorOutOfMemory = cudaErrorMemoryAllocation;
constexpr hipError_t hipErrorNoDevice = cudaErrorNoDevice;
constexpr hipError_t hipErrorInvalidDevice = cudaErrorInvalidDevice;
constexpr hipError_t hipErrorInvalidConfiguration = cudaErrorInvalidConfiguration;
constexpr hipError_t hipErrorNotReady = cudaErrorNotReady;
constexpr hipError_t hipErrorLaunchFailure = cudaErrorLaunchFailure;

/* Copy directions. */
constexpr hipMemcpyKind hipMemcpyHostToHost = cudaMemcpyHostToHost;
constexpr hipMemcpyKind hipMemcpyHostToDevice = cudaMemcpyHostToDevice;
constexpr hipMemcpyKind hipMemcpyDeviceToHost = cudaMemcpyDeviceToHost;
constexpr hipMemcpyKind hipMemcpyDeviceToDevice = cudaMemcpyDeviceToDevice;
constexpr hipMemcpyKind hipMemcpyDefault = cudaMemcpyDefault;

/* Device attributes. */
constexpr hipDeviceAttribute_t hipDeviceAttributeClockRate = cudaDevAttrClockRate;
constexpr hipDeviceAttribute_t hipDeviceAttributeMemoryClockRate = cudaDevAttrMemoryClockRate;
constexpr hipDeviceAttribute_t hipDeviceAttributeMemoryBusWidth =
    cudaDevAttrGlobalMemoryBusWidth;
constexpr hipDeviceAttribute_t hipDeviceAttributeMultiprocessorCount =
    cudaDevAttrMultiProcessorCount;
constexpr hipDeviceAttribute_t hipDeviceAttributeWarpSize = cudaDevAttrWarpSize;
constexpr hipDeviceAttribute_t hipDeviceAttributeL2CacheSize = cudaDevAttrL2CacheSize;
constexpr hipDeviceAttribute_t hipDeviceAttributeMaxThreadsPerBlock =
    cudaDevAttrMaxThreadsPerBlock;
constexpr hipDeviceAttribute_t hipDeviceAttributeMaxThreadsPerMultiProcessor =
    cudaDevAttrMaxThreadsPerMultiProcessor;
constexpr hipDeviceAttribute_t hipDeviceAttributeMaxBlocksPerMultiProcessor =
    cudaDevAttrMaxBlocksPerMultiprocessor;
constexpr hipDeviceAttribute_t hipDeviceAttributeMaxRegistersPerMultiprocessor =
    cudaDevAttrMaxRegistersPerMultiprocessor;
constexpr hipDeviceAttribute_t hipDeviceAttributeMaxSharedMemoryPerMultiprocessor =
    cudaDevAttrMaxSharedMemoryPerMultiprocessor;
constexpr hipDeviceAttribute_t hipDeviceAttributeMaxSharedMemoryPerBlock =
    cudaDevAttrMaxSharedMemoryPerBlock;
constexpr hipDeviceAttribute_t hipDeviceAttributeComputeCapabilityMajor =
    cudaDevAttrComputeCapabilityMajor;
constexpr hipDeviceAttribute_t hipDeviceAttributeComputeCapabilityMinor =
    cudaDevAttrComputeCapabilityMinor;

/* Devices. */
static inline hipError_t hipGetDeviceCount(int *n) { return cudaGetDeviceCount(n); }
static inline hipError_t hipSetDevice(int d) { return cudaSetDevice(d); }
static inline hipError_t hipGetDevice(int *d) { return cudaGetDevice(d); }
static inline hipError_t hipGetDeviceProperties(hipDeviceProp_t *p, int d)
{
    return cudaGetDeviceProperties(p, d);
}
static inline hipError_t hipDeviceGetAttribute(int *v, hipDeviceAttribute_t a, int d)
{
    return cudaDeviceGetAttribute(v, a, d);
}
static inline hipError_t hipDeviceGetPCIBusId(char *bus, int len, int d)
{
    return cudaDeviceGetPCIBusId(bus, len, d);
}
static inline hipError_t hipDeviceSynchronize(void) { return cudaDeviceSynchronize(); }
static inline hipError_t hipDeviceReset(void) { return cudaDeviceReset(); }
static inline hipError_t hipMemGetInfo(size_t *free_bytes, size_t *total)
{
    return cudaMemGetInfo(free_bytes, total);
}
static inline hipError_t hipRuntimeGetVersion(int *v) { return cudaRuntimeGetVersion(v); }
static inline hipError_t hipDriverGetVersion(int *v) { return cudaDriverGetVersion(v); }

/* Errors. */
static inline hipError_t hipGetLastError(void) { return cudaGetLastError(); }
static inline hipError_t hipPeekAtLastError(void) { return cudaPeekAtLastError(); }
static inline const char *hipGetErrorString(hipError_t e) { return cudaGetErrorString(e); }
static inline const char *hipGetErrorName(hipError_t e) { return cudaGetErrorName(e); }

/* Memory.  hipMalloc takes any T** as HIP's own template does. */
template <class T>
static inline hipError_t hipMalloc(T **p, size_t bytes)
{
    return cudaMalloc(reinterpret_cast<void **>(p), bytes);
}
static inline hipError_t hipFree(void *p) { return cudaFree(p); }
template <class T>
static inline hipError_t hipHostMalloc(T **p, size_t bytes, unsigned flags = 0)
{
    (void)flags;                /* hipHostMallocDefault */
    return cudaMallocHost(reinterpret_cast<void **>(p), bytes);
}
static inline hipError_t hipHostFree(void *p) { return cudaFreeHost(p); }
static inline hipError_t hipMemcpy(void *dst, const void *src, size_t bytes, hipMemcpyKind k)
{
    return cudaMemcpy(dst, src, bytes, k);
}
static inline hipError_t hipMemcpyAsync(void *dst, const void *src, size_t bytes,
                                        hipMemcpyKind k, hipStream_t s = 0)
{
    return cudaMemcpyAsync(dst, src, bytes, k, s);
}
static inline hipError_t hipMemset(void *p, int v, size_t bytes)
{
    return cudaMemset(p, v, bytes);
}
static inline hipError_t hipMemsetAsync(void *p, int v, size_t bytes, hipStream_t s = 0)
{
    return cudaMemsetAsync(p, v, bytes, s);
}

/* Events and streams. */
static inline hipError_t hipEventCreate(hipEvent_t *e) { return cudaEventCreate(e); }
static inline hipError_t hipEventRecord(hipEvent_t e, hipStream_t s = 0)
{
    return cudaEventRecord(e, s);
}
static inline hipError_t hipEventSynchronize(hipEvent_t e) { return cudaEventSynchronize(e); }
static inline hipError_t hipEventQuery(hipEvent_t e) { return cudaEventQuery(e); }
static inline hipError_t hipEventElapsedTime(float *ms, hipEvent_t a, hipEvent_t b)
{
    return cudaEventElapsedTime(ms, a, b);
}
static inline hipError_t hipEventDestroy(hipEvent_t e) { return cudaEventDestroy(e); }
static inline hipError_t hipStreamCreate(hipStream_t *s) { return cudaStreamCreate(s); }
constexpr unsigned hipStreamNonBlocking = cudaStreamNonBlocking;
static inline hipError_t hipStreamCreateWithFlags(hipStream_t *s, unsigned flags)
{
    return cudaStreamCreateWithFlags(s, flags);
}
static inline hipError_t hipStreamDestroy(hipStream_t s) { return cudaStreamDestroy(s); }
static inline hipError_t hipStreamSynchronize(hipStream_t s) { return cudaStreamSynchronize(s); }

/* Kernels: attributes, occupancy, launch.  Function pointers or const void*. */
template <class F>
static inline hipError_t hipFuncGetAttributes(hipFuncAttributes *a, F f)
{
    return cudaFuncGetAttributes(a, reinterpret_cast<const void *>(f));
}
template <class F>
static inline hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int *n, F f, int block,
                                                                      size_t dyn_smem)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(n, reinterpret_cast<const void *>(f),
                                                         block, dyn_smem);
}
constexpr hipFuncAttribute hipFuncAttributeMaxDynamicSharedMemorySize =
    cudaFuncAttributeMaxDynamicSharedMemorySize;
template <class F>
static inline hipError_t hipFuncSetAttribute(F f, hipFuncAttribute a, int value)
{
    return cudaFuncSetAttribute(reinterpret_cast<const void *>(f), a, value);
}
#define hipLaunchKernelGGL(kernel, grid, block, smem, stream, ...)             \
    kernel<<<(grid), (block), (smem), (stream)>>>(__VA_ARGS__)

/* Kernel side: HIP's older index names and dynamic shared memory. */
#define hipThreadIdx_x threadIdx.x
#define hipThreadIdx_y threadIdx.y
#define hipThreadIdx_z threadIdx.z
#define hipBlockIdx_x blockIdx.x
#define hipBlockIdx_y blockIdx.y
#define hipBlockIdx_z blockIdx.z
#define hipBlockDim_x blockDim.x
#define hipBlockDim_y blockDim.y
#define hipBlockDim_z blockDim.z
#define hipGridDim_x gridDim.x
#define hipGridDim_y gridDim.y
#define hipGridDim_z gridDim.z
#define HIP_DYNAMIC_SHARED(type, var) extern __shared__ type var[];

#endif
