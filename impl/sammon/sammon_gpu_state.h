/* SPDX-License-Identifier: MIT */
/* The CUDA and HIP Sammon variants' own part of a case (s->backend), shared
 * by their host code (sammon_gpu_case.inc, sammon_gpu_launch.inc).  C++ for
 * .cu and .hip files only; HIP when the including file defines RB_GPU_HIP. */
#ifndef SAMMON_GPU_STATE_H
#define SAMMON_GPU_STATE_H

#include <stddef.h>
#include "impl/common/gpu_api.h"

/* Entry points and the state are named per backend: sammon_cuda_X or
 * sammon_hip_X. */
#define SAMMON_GPU_ENTRY(name) RB_GPU_ENTRY(sammon, name)

#ifdef RB_GPU_HIP
#include "impl/sammon/sammon_hip.h"
#else
#include "impl/sammon/sammon_cuda.h"
#endif

/* The largest output dimension the kernels are built for (the outdim
 * axis's maximum). */
#define SAMMON_GPU_MAXM 3

/* The variants, by name. */
enum sammon_gpu_kind {
    SAMMON_GPU_STANDARD_FLAT,
    SAMMON_GPU_STANDARD_TRANSPOSED,
    SAMMON_GPU_MODIFIED_FLAT,
    SAMMON_GPU_MODIFIED_TRANSPOSED,
    SAMMON_GPU_TILED,
    SAMMON_GPU_TILED_SYMMETRIC,
    SAMMON_GPU_STORED,
    SAMMON_GPU_KINDS
};

/* struct sammon_cuda_dev or sammon_hip_dev. */
struct SAMMON_GPU_ENTRY(dev) {
    enum sammon_gpu_kind kind;
    int transposed;             /* x, y and g column-major on the device */
    int block;                  /* threads per block of the paper's kernels */
    int tile;                   /* points per tile side of the tiled kernel */
    int splits, per_split;      /* tiled: blocks over the points j, tiles j each */
    size_t g_len;               /* values in g */
    double coef;                /* 2 alpha / c: y <- y + coef sum_j w (y_p - y_j) */
    void *x, *y0;               /* device, prec: inputs and the start */
    void *ya, *yb;              /* device, prec: the iterates (Jacobi ping-pong) */
    void *g;                    /* device, prec: the modified and symmetric sums, or
                                   the tiled partials */
    void *result;               /* ya or yb: the iterate run() left */
    void *store;                /* stored: the triangle of 1 / d* (float, in tiles) */
    unsigned *lost;             /* stored: the fill's count of pairs it could not store */
    int precompute;             /* stored: the timed region fills the triangle first */
    void *host;                 /* host, prec: transposing copies */
    gpuStream_t stream;
    struct gpu_timer timer;
};

#endif
