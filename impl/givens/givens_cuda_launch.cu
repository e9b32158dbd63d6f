// SPDX-License-Identifier: MIT
// Every launch of the CUDA Givens variants, from the sources HIP shares: the
// paper's (givens_gpu_launch.inc) and the fused kernels'
// (givens_gpu_fused.inc).
#include <config.h>
#include "impl/givens/givens_gpu_launch.inc"
#include "impl/givens/givens_gpu_fused.inc"
