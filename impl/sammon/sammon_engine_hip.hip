// SPDX-License-Identifier: MIT
// The embedding engine on HIP (sammon_engine_gpu.inc, the CUDA source
// compiled for HIP).
#include <config.h>
#define RB_GPU_HIP 1
#include "impl/sammon/sammon_engine_gpu.inc"
