// SPDX-License-Identifier: MIT
// The CUDA SBO representation variants, from the source HIP shares
// (sbo_gpu_launch.inc, sbo_gpu_case.inc).
#include <config.h>
#include "impl/sbo/sbo_gpu_launch.inc"
#include "impl/sbo/sbo_gpu_case.inc"
