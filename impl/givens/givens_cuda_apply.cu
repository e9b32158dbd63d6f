// SPDX-License-Identifier: MIT
// The CUDA apply-mode Givens variants: Y = U X without forming U and its
// batched JVP, from the source HIP shares (givens_gpu_apply.inc).
#include <config.h>
#include "impl/givens/givens_gpu_apply.inc"
