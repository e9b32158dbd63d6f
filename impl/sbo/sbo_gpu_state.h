/* SPDX-License-Identifier: MIT */
/* The CUDA and HIP SBO variants' own part of a case (struct sbo_state's
 * backend), shared by their host code (sbo_gpu_case.inc,
 * sbo_gpu_launch.inc).  C++ for .cu and .hip files only; HIP when the
 * including file defines RB_GPU_HIP. */
#ifndef SBO_GPU_STATE_H
#define SBO_GPU_STATE_H

#include <stddef.h>
#include "impl/common/gpu_api.h"

/* Entry points and the state are named per backend: sbo_cuda_X or
 * sbo_hip_X. */
#define SBO_GPU_ENTRY(name) RB_GPU_ENTRY(sbo, name)

#ifdef RB_GPU_HIP
#include "impl/sbo/sbo_hip.h"
#else
#include "impl/sbo/sbo_cuda.h"
#endif

/* Which kernel a fused case runs (struct sbo_*_dev's fused). */
enum { SBO_GPU_FUSED = 1, SBO_GPU_FUSED_PAIR = 2 };

/* struct sbo_cuda_dev or sbo_hip_dev. */
struct SBO_GPU_ENTRY(dev) {
    int fused;                  /* SBO_GPU_FUSED, _FUSED_PAIR; 0: the paper's sbo_energy,
                                   sbo_argmax */
    int p, s, L, m;
    int block;                  /* the `block` tunable (the paper's m-tilde) */
    size_t sz;                  /* bytes of one value */
    void *D, *Y;                /* device, prec: the blocks and the signals */
    void *E;                    /* device, prec: the paper's L x m energies */
    void *energy;               /* device, prec: m best energies (output) */
    int *best;                  /* device: m best blocks (output) */
    gpuStream_t stream;
    struct gpu_timer timer;
};

#endif
