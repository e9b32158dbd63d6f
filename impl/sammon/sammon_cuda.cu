// SPDX-License-Identifier: MIT
// The CUDA Sammon variants: the paper's four and the tiled kernels, from
// the source HIP shares (sammon_gpu_launch.inc, sammon_gpu_case.inc).
#include <config.h>
#include "impl/sammon/sammon_gpu_launch.inc"
#include "impl/sammon/sammon_gpu_case.inc"
