// SPDX-License-Identifier: MIT
// The HIP Sammon variants (the paper's own backend): the CUDA host code and
// kernels, compiled for HIP.
#include <config.h>
#define RB_GPU_HIP 1
#include "impl/sammon/sammon_gpu_launch.inc"
#include "impl/sammon/sammon_gpu_case.inc"
