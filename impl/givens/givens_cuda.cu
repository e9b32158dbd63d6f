// SPDX-License-Identifier: MIT
// The CUDA Givens variants' cases: admission, device footprint, setup,
// checks and teardown, from the source HIP shares (givens_gpu_case.inc).
// The launches are in givens_cuda_launch.cu.
#include <config.h>
#include "impl/givens/givens_gpu_case.inc"
