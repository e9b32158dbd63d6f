// SPDX-License-Identifier: MIT
// The HIP Givens variants, the paper's forward and backward: the host code
// of the CUDA ones (the case and the paper's launches), compiled for HIP.
#include <config.h>
#define RB_GPU_HIP 1
#include "impl/givens/givens_gpu_case.inc"
#include "impl/givens/givens_gpu_launch.inc"
