/* SPDX-License-Identifier: MIT */
/* The CUDA Givens variants' state (givens_gpu_state.h) and what only CUDA
 * builds on it: the fused kernels' slab configurations and shared-memory
 * opt-in, for givens_cuda.cu and givens_cuda_launch.cu.  C++ for .cu files
 * only. */
#ifndef GIVENS_CUDA_STATE_H
#define GIVENS_CUDA_STATE_H

#include "impl/givens/givens_cuda.h"
#include "impl/givens/givens_gpu_state.h"

/* 1 if the fused forward takes `slots` per thread for S slots: it is built
 * for 1, 2, 4, 8, which must divide S, with S / slots threads at most
 * GIVENS_CUDA_FUSED_MAXT. */
static inline int givens_cuda_fused_fits(int S, int slots)
{
    return (slots == 1 || slots == 2 || slots == 4 || slots == 8) && S % slots == 0
           && S / slots <= GIVENS_CUDA_FUSED_MAXT;
}

/* Slots per thread for the fused forward that forms the backward's U: the
 * most that fit, or 0 when none does. */
static inline int givens_cuda_fused_setup_slots(int S)
{
    for (int b = 8; b >= 1; b /= 2)
        if (givens_cuda_fused_fits(S, b))
            return b;
    return 0;
}

/* Opt the fused kernel (slots, cols) of the case's precision in to the
 * dynamic shared memory it needs for S slots where that exceeds 48 KiB.
 * 0, RB_EINVAL (no such kernel) or RB_EDEVICE. */
int givens_cuda_fused_prepare(struct rb_case *c, int S, int slots, int cols);
/* The same for the fused backward (cols: 2 or 4 in f32, 2 in f64). */
int givens_cuda_fused_backward_prepare(struct rb_case *c, int S, int slots, int cols);

#endif
