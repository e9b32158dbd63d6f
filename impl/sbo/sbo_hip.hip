// SPDX-License-Identifier: MIT
// The HIP SBO representation variants: the CUDA host code and kernels,
// compiled for HIP.
#include <config.h>
#define RB_GPU_HIP 1
#include "impl/sbo/sbo_gpu_launch.inc"
#include "impl/sbo/sbo_gpu_case.inc"
