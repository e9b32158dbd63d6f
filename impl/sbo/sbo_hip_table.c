/* SPDX-License-Identifier: MIT */
/* The HIP SBO variants (sbo_gpu_table.inc). */
#include "harness/backend/hip.h"
#include "impl/sbo/sbo_case.h"
#include "impl/sbo/sbo_gpu_train.h"
#include "impl/sbo/sbo_hip.h"

#define SBO_GPU_TABLE sbo_hip_variants
#define SBO_GPU_BACKEND RB_BACKEND_HIP
#define SBO_GPU_AVAILABLE rb_hip_available
#define SBO_GPU_FN(name) sbo_hip_##name
#include "impl/sbo/sbo_gpu_table.inc"
