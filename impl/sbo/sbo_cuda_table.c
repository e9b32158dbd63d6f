/* SPDX-License-Identifier: MIT */
/* The CUDA SBO variants (sbo_gpu_table.inc). */
#include "harness/backend/cuda.h"
#include "impl/sbo/sbo_case.h"
#include "impl/sbo/sbo_gpu_train.h"
#include "impl/sbo/sbo_cuda.h"

#define SBO_GPU_TABLE sbo_cuda_variants
#define SBO_GPU_BACKEND RB_BACKEND_CUDA
#define SBO_GPU_AVAILABLE rb_cuda_available
#define SBO_GPU_FN(name) sbo_cuda_##name
#include "impl/sbo/sbo_gpu_table.inc"
