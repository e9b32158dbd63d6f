// SPDX-License-Identifier: MIT
// The HIP Givens variants, the paper's and the fused ones: the host code of
// the CUDA ones (the case, the paper's and the fused launches), compiled for
// HIP.  The apply variants are givens_hip_apply.hip.
#include <config.h>
#define RB_GPU_HIP 1
#include "impl/givens/givens_gpu_case.inc"
#include "impl/givens/givens_gpu_launch.inc"
#include "impl/givens/givens_gpu_fused.inc"
