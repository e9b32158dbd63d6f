/* SPDX-License-Identifier: MIT */
/* The Givens host code's view of CUDA and HIP (givens_gpu_case.inc,
 * givens_gpu_launch.inc): impl/common/gpu_api.h's one spelling of both,
 * plus the entry points' names and what only CUDA builds.  HIP when the
 * including .hip file defines RB_GPU_HIP first. */
#ifndef GIVENS_GPU_API_H
#define GIVENS_GPU_API_H

#include "impl/common/gpu_api.h"

/* Entry points and the state are named per backend: givens_cuda_X or
 * givens_hip_X. */
#define GIVENS_GPU_ENTRY(name) RB_GPU_ENTRY(givens, name)

#ifdef RB_GPU_HIP
#include "impl/givens/givens_hip.h"
/* The fused kernels need cp.async, sm_90 vector atomics and 32-lane warps
 * (AMD's wavefronts have 64 lanes): CUDA only. */
#define GIVENS_GPU_FUSED 0
#else
#include "impl/givens/givens_cuda.h"
#define GIVENS_GPU_FUSED 1
#endif

#endif
