/* SPDX-License-Identifier: MIT */
/* One spelling of CUDA and HIP for the Givens host code both compile
 * (givens_gpu_case.inc, givens_gpu_launch.inc): gpuX is cudaX or hipX, and
 * the harness's checks, timers, device choice and occupancy get one name.
 * CUDA unless the including .hip file defines GIVENS_GPU_HIP first (nvcc
 * also compiles .hip files, for NVIDIA, so the compiler cannot tell). */
#ifndef GIVENS_GPU_API_H
#define GIVENS_GPU_API_H

#ifdef GIVENS_GPU_HIP
#include <hip/hip_runtime.h>
#include "harness/backend/hip.h"
#include "harness/backend/hip_check.h"
#include "impl/givens/givens_hip.h"

/* Entry points and the state are named per backend: HIP for NVIDIA links
 * beside CUDA. */
#define GIVENS_GPU_ENTRY(name) givens_hip_##name
/* The fused kernels need cp.async, sm_90 vector atomics and 32-lane warps
 * (AMD's wavefronts have 64 lanes): CUDA only. */
#define GIVENS_GPU_FUSED 0

#define gpuStream_t hipStream_t
#define gpuMalloc hipMalloc
#define gpuFree hipFree
#define gpuMemcpyAsync hipMemcpyAsync
#define gpuMemcpyHostToDevice hipMemcpyHostToDevice
#define gpuMemcpyDeviceToHost hipMemcpyDeviceToHost
#define gpuMemsetAsync hipMemsetAsync
#define gpuStreamCreateWithFlags hipStreamCreateWithFlags
#define gpuStreamNonBlocking hipStreamNonBlocking
#define gpuStreamSynchronize hipStreamSynchronize
#define gpuStreamDestroy hipStreamDestroy
#define gpuGetLastError hipGetLastError

#define GPU_CHECK RB_HIP_CHECK
#define GPU_CHECK_LAUNCH RB_HIP_CHECK_LAUNCH
#define gpu_timer rb_hip_timer
#define gpu_timer_create rb_hip_timer_create
#define gpu_timer_start rb_hip_timer_start
#define gpu_timer_stop rb_hip_timer_stop
#define gpu_timer_destroy rb_hip_timer_destroy
#define gpu_select rb_hip_select
#define gpu_occupancy rb_hip_occupancy

#else
#include <cuda_runtime.h>
#include "harness/backend/cuda.h"
#include "harness/backend/cuda_check.h"
#include "impl/givens/givens_cuda.h"

#define GIVENS_GPU_ENTRY(name) givens_cuda_##name
#define GIVENS_GPU_FUSED 1

#define gpuStream_t cudaStream_t
#define gpuMalloc cudaMalloc
#define gpuFree cudaFree
#define gpuMemcpyAsync cudaMemcpyAsync
#define gpuMemcpyHostToDevice cudaMemcpyHostToDevice
#define gpuMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define gpuMemsetAsync cudaMemsetAsync
#define gpuStreamCreateWithFlags cudaStreamCreateWithFlags
#define gpuStreamNonBlocking cudaStreamNonBlocking
#define gpuStreamSynchronize cudaStreamSynchronize
#define gpuStreamDestroy cudaStreamDestroy
#define gpuGetLastError cudaGetLastError

#define GPU_CHECK RB_CUDA_CHECK
#define GPU_CHECK_LAUNCH RB_CUDA_CHECK_LAUNCH
#define gpu_timer rb_cuda_timer
#define gpu_timer_create rb_cuda_timer_create
#define gpu_timer_start rb_cuda_timer_start
#define gpu_timer_stop rb_cuda_timer_stop
#define gpu_timer_destroy rb_cuda_timer_destroy
#define gpu_select rb_cuda_select
#define gpu_occupancy rb_cuda_occupancy
#endif

#endif
