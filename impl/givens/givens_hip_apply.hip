// SPDX-License-Identifier: MIT
// The HIP apply-mode Givens variants: Y = U X without forming U and its
// batched JVP, the host code of the CUDA ones (givens_gpu_apply.inc)
// compiled for HIP.
#include <config.h>
#define RB_GPU_HIP 1
#include "impl/givens/givens_gpu_apply.inc"
