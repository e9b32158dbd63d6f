// SPDX-License-Identifier: MIT
// The HIP SBO training variants: the CUDA host code and kernels, compiled
// for HIP (the GEMMs by the own kernel: no hipBLAS here).
#include <config.h>
#define RB_GPU_HIP 1
#include "impl/sbo/sbo_gpu_train_loop.inc"
#include "impl/sbo/sbo_gpu_train_case.inc"
#include "impl/sbo/sbo_gpu_train_host.inc"
#include "impl/sbo/sbo_gpu_train_direct.inc"
