/* SPDX-License-Identifier: MIT */
/* The Givens host code's view of CUDA and HIP (givens_gpu_*.inc):
 * impl/common/gpu_api.h's one spelling of both, plus the entry points'
 * names and declarations.  HIP when the including .hip file defines
 * RB_GPU_HIP first. */
#ifndef GIVENS_GPU_API_H
#define GIVENS_GPU_API_H

#include "impl/common/gpu_api.h"

/* Entry points and the state are named per backend: givens_cuda_X or
 * givens_hip_X. */
#define GIVENS_GPU_ENTRY(name) RB_GPU_ENTRY(givens, name)

#ifdef RB_GPU_HIP
#include "impl/givens/givens_hip.h"
#include "impl/givens/givens_hip_apply.h"
#else
#include "impl/givens/givens_cuda.h"
#include "impl/givens/givens_cuda_apply.h"
#endif

#endif
