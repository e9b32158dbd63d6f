// SPDX-License-Identifier: MIT
// The HIP device's ceilings for the roofline: the CUDA probe's host code and
// kernel (harness/backend/gpu_ceiling.inc), compiled for HIP.
#include <config.h>
#define RB_GPU_HIP 1
#include "harness/backend/gpu_ceiling.inc"
