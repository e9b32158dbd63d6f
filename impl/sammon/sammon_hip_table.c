/* SPDX-License-Identifier: MIT */
/* The HIP Sammon variants (sammon_gpu_table.inc). */
#include "harness/backend/hip.h"
#include "impl/sammon/sammon_case.h"
#include "impl/sammon/sammon_hip.h"

#define SAMMON_GPU_TABLE sammon_hip_variants
#define SAMMON_GPU_BACKEND RB_BACKEND_HIP
#define SAMMON_GPU_AVAILABLE rb_hip_available
#define SAMMON_GPU_FN(name) sammon_hip_##name
#include "impl/sammon/sammon_gpu_table.inc"
