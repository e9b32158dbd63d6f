/* SPDX-License-Identifier: MIT */
/* The CUDA Sammon variants (sammon_gpu_table.inc). */
#include "harness/backend/cuda.h"
#include "impl/sammon/sammon_case.h"
#include "impl/sammon/sammon_cuda.h"

#define SAMMON_GPU_TABLE sammon_cuda_variants
#define SAMMON_GPU_BACKEND RB_BACKEND_CUDA
#define SAMMON_GPU_AVAILABLE rb_cuda_available
#define SAMMON_GPU_FN(name) sammon_cuda_##name
#include "impl/sammon/sammon_gpu_table.inc"
