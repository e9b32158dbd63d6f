// SPDX-License-Identifier: MIT
// The CUDA SBO training variants, from the source HIP shares
// (sbo_gpu_train_*.inc); cuBLAS's batched GEMMs where configure found it.
#include <config.h>
#include "impl/sbo/sbo_gpu_train_loop.inc"
#include "impl/sbo/sbo_gpu_train_case.inc"
#include "impl/sbo/sbo_gpu_train_host.inc"
#include "impl/sbo/sbo_gpu_train_direct.inc"
