/* SPDX-License-Identifier: MIT */
/* One spelling of CUDA and HIP for host code both compile (impl/givens,
 * impl/sammon): gpuX is cudaX or hipX, and the harness's checks, timers,
 * device choice and occupancy get one name.  CUDA unless RB_GPU_HIP is
 * defined, by the HIP compile rule (Makefile.am) or by a .hip file before
 * its first include (nvcc also compiles for HIP on NVIDIA, so the compiler
 * cannot tell).  C++ for .cu and .hip files only.
 *
 * A source compiled for both backends puts its definitions in a namespace
 * of its paper with the inline namespace RB_GPU_NS inside (rb_cuda or
 * rb_hip), so that both objects link into one program; what it exports to
 * C is spelled out per backend where it is defined. */
#ifndef RB_GPU_API_H
#define RB_GPU_API_H

#include <stddef.h>
#include <stdio.h>
#include "harness/variant.h"

#define RB_GPU_CAT3_(a, b, c) a##b##c
#define RB_GPU_CAT3(a, b, c) RB_GPU_CAT3_(a, b, c)

#ifdef RB_GPU_HIP
#include <hip/hip_runtime.h>
#include "harness/backend/hip.h"
#include "harness/backend/hip_check.h"

/* Entry points are named per backend (paper_hip_name): HIP for NVIDIA links
 * beside CUDA. */
#define RB_GPU_ENTRY(paper, name) RB_GPU_CAT3(paper, _hip_, name)
#define RB_GPU_BACKEND RB_BACKEND_HIP
#define RB_GPU_NS rb_hip

#define gpuError_t hipError_t
#define gpuSuccess hipSuccess
#define gpuStream_t hipStream_t
#define gpuMalloc hipMalloc
#define gpuFree hipFree
#define gpuDeviceReset hipDeviceReset
#define gpuMemcpy hipMemcpy
#define gpuMemcpyAsync hipMemcpyAsync
#define gpuMemcpyHostToDevice hipMemcpyHostToDevice
#define gpuMemcpyDeviceToHost hipMemcpyDeviceToHost
#define gpuMemcpyDeviceToDevice hipMemcpyDeviceToDevice
#define gpuMemsetAsync hipMemsetAsync
#define gpuMemGetInfo hipMemGetInfo
#define gpuStreamCreateWithFlags hipStreamCreateWithFlags
#define gpuStreamNonBlocking hipStreamNonBlocking
#define gpuStreamSynchronize hipStreamSynchronize
#define gpuStreamDestroy hipStreamDestroy
#define gpuEvent_t hipEvent_t
#define gpuEventCreate hipEventCreate
#define gpuEventRecord hipEventRecord
#define gpuEventQuery hipEventQuery
#define gpuEventSynchronize hipEventSynchronize
#define gpuEventElapsedTime hipEventElapsedTime
#define gpuEventDestroy hipEventDestroy
#define gpuErrorNotReady hipErrorNotReady
#define gpuMallocHost(ptr, bytes) hipHostMalloc((ptr), (bytes), 0)
#define gpuFreeHost hipHostFree
#define gpuGetLastError hipGetLastError
#define gpuGetDevice hipGetDevice
#define gpuDeviceGetAttribute hipDeviceGetAttribute
#define gpuDevAttrMultiProcessorCount hipDeviceAttributeMultiprocessorCount
#define gpuOccupancyMaxActiveBlocksPerMultiprocessor hipOccupancyMaxActiveBlocksPerMultiprocessor
#define gpuFuncAttributes hipFuncAttributes
#define gpuFuncGetAttributes hipFuncGetAttributes
#define gpuFuncSetAttribute hipFuncSetAttribute
#define gpuFuncAttributeMaxDynamicSharedMemorySize hipFuncAttributeMaxDynamicSharedMemorySize
#define gpuDevAttrSharedOptin hipDeviceAttributeMaxSharedMemoryPerBlock

#define GPU_CHECK RB_HIP_CHECK
#define GPU_CHECK_LAUNCH RB_HIP_CHECK_LAUNCH
#define gpu_timer rb_hip_timer
#define gpu_timer_create rb_hip_timer_create
#define gpu_timer_start rb_hip_timer_start
#define gpu_timer_stop rb_hip_timer_stop
#define gpu_timer_destroy rb_hip_timer_destroy
#define gpu_available rb_hip_available
#define gpu_select rb_hip_select
#define gpu_occupancy rb_hip_occupancy

#else
#include <cuda_runtime.h>
#include "harness/backend/cuda.h"
#include "harness/backend/cuda_check.h"

#define RB_GPU_ENTRY(paper, name) RB_GPU_CAT3(paper, _cuda_, name)
#define RB_GPU_BACKEND RB_BACKEND_CUDA
#define RB_GPU_NS rb_cuda

#define gpuError_t cudaError_t
#define gpuSuccess cudaSuccess
#define gpuStream_t cudaStream_t
#define gpuMalloc cudaMalloc
#define gpuFree cudaFree
#define gpuDeviceReset cudaDeviceReset
#define gpuMemcpy cudaMemcpy
#define gpuMemcpyAsync cudaMemcpyAsync
#define gpuMemcpyHostToDevice cudaMemcpyHostToDevice
#define gpuMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define gpuMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define gpuMemsetAsync cudaMemsetAsync
#define gpuMemGetInfo cudaMemGetInfo
#define gpuStreamCreateWithFlags cudaStreamCreateWithFlags
#define gpuStreamNonBlocking cudaStreamNonBlocking
#define gpuStreamSynchronize cudaStreamSynchronize
#define gpuStreamDestroy cudaStreamDestroy
#define gpuEvent_t cudaEvent_t
#define gpuEventCreate cudaEventCreate
#define gpuEventRecord cudaEventRecord
#define gpuEventQuery cudaEventQuery
#define gpuEventSynchronize cudaEventSynchronize
#define gpuEventElapsedTime cudaEventElapsedTime
#define gpuEventDestroy cudaEventDestroy
#define gpuErrorNotReady cudaErrorNotReady
#define gpuMallocHost(ptr, bytes) cudaMallocHost((ptr), (bytes))
#define gpuFreeHost cudaFreeHost
#define gpuGetLastError cudaGetLastError
#define gpuGetDevice cudaGetDevice
#define gpuDeviceGetAttribute cudaDeviceGetAttribute
#define gpuDevAttrMultiProcessorCount cudaDevAttrMultiProcessorCount
#define gpuOccupancyMaxActiveBlocksPerMultiprocessor cudaOccupancyMaxActiveBlocksPerMultiprocessor
#define gpuFuncAttributes cudaFuncAttributes
#define gpuFuncGetAttributes cudaFuncGetAttributes
#define gpuFuncSetAttribute cudaFuncSetAttribute
#define gpuFuncAttributeMaxDynamicSharedMemorySize cudaFuncAttributeMaxDynamicSharedMemorySize
#define gpuDevAttrSharedOptin cudaDevAttrMaxSharedMemoryPerBlockOptin

#define GPU_CHECK RB_CUDA_CHECK
#define GPU_CHECK_LAUNCH RB_CUDA_CHECK_LAUNCH
#define gpu_timer rb_cuda_timer
#define gpu_timer_create rb_cuda_timer_create
#define gpu_timer_start rb_cuda_timer_start
#define gpu_timer_stop rb_cuda_timer_stop
#define gpu_timer_destroy rb_cuda_timer_destroy
#define gpu_available rb_cuda_available
#define gpu_select rb_cuda_select
#define gpu_occupancy rb_cuda_occupancy
#endif

/* A kernel's launch on a stream, with no dynamic shared memory, spelled as
 * a call: t/gpu_emu_api.h runs it on the CPU, so that a test runs the host
 * code of a source that launches this way (sammon_engine_gpu.cu) whole. */
#define GPU_LAUNCH(kernel, grid, block, stream, ...) \
    kernel<<<(grid), (block), 0, (stream)>>>(__VA_ARGS__)

/* Append the runtime's occupancy of kernel `fn` at `block` threads and
 * `smem` dynamic shared bytes to occ, under `name`; the first failure marks
 * occ unavailable with the reason.  Kernels past RB_OCC_MAX_KERNELS are
 * left out. */
static inline void rb_gpu_occ_add(struct rb_occ *occ, const void *fn, int block, size_t smem,
                                  const char *name)
{
    if (occ->count >= RB_OCC_MAX_KERNELS)
        return;
    struct rb_occ_kernel *k = &occ->k[occ->count++];
    if (gpu_occupancy(fn, block, smem, name, k) && occ->available) {
        occ->available = 0;
        snprintf(occ->why, sizeof occ->why, "%s: %s failed: %s", name, k->source, k->limiter);
    }
}

#endif
